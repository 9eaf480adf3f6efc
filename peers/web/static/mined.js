// Mined Games: the public mine, the miners, this stage's commitments, and the orders
// builder (spec/rules/mined-games.md: 2.2 the map, 4.1 orders on the wire, 9 the state).
// The peer checks the orders against the rules before it commits to them.

import { el } from "./dominoes.js";

const KINDS = { G: "gold", S: "silver", I: "iron", E: "emerald", R: "garnet", D: "dirt",
                A: "air", L: "lava" };
const ACTIONS = ["no action", "mine here", "mine up", "mine down", "mine left", "mine right",
                 "mine above", "mine above-up", "mine above-down", "mine above-left",
                 "mine above-right", "attack up", "attack down", "attack left", "attack right"];
const STEP = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
const FLOORS = ["B1", "B2", "B3", "B4"];

// What the person is composing, kept across redraws of the same stage.
let draft = { stage: -1, steps: "", action: 0, start: null };

function floors(state) {
  if (!state.map) return [];
  return state.map.split("/").map((floor) => floor.split(","));
}

function stageText(state) {
  if (state.stage === 0) return "Stage 0: drawing the map";
  if (state.stage === 1) return "Stage 1: choosing where to start";
  return `Round ${state.stage - 1}`;
}

// The tile the draft's steps lead to, on the miner's floor.
function walked(state, me) {
  const at = state.miners[me][0];
  if (!at) return null;
  let [f, r, c] = at;
  for (const step of draft.steps) {
    const [dr, dc] = STEP[step];
    r += dr;
    c += dc;
  }
  return [f, r, c];
}

// `starts`: the tiles the rules let this miner start on, the only ones offered.
function grid(state, f, rows, me, onTile, starts) {
  const target = walked(state, me);
  const table = el("div", { class: "mine-floor" }, el("div", { class: "floor-name" }, FLOORS[f]));
  const width = rows[0].length;
  const cells = el("div", { class: "cells" });
  cells.style.setProperty("--cols", String(width));   // CSSOM: allowed by the CSP
  rows.forEach((row, r) => {
    [...row].forEach((kind, c) => {
      const dur = state.dur[f][r * width + c];
      const here = state.miners.map((m, s) => (m[0] && m[0][0] === f && m[0][1] === r
        && m[0][2] === c && m[4] === "alive" ? s : null)).filter((s) => s !== null);
      const classes = ["cell", `k-${kind}`, dur === 0 ? "broken" : "", `d${dur}`];
      if (target && target[0] === f && target[1] === r && target[2] === c) classes.push("path");
      if (draft.start && f === 0 && draft.start[0] === r && draft.start[1] === c) {
        classes.push("path");
      }
      const can = onTile && (starts || []).some(([sr, sc]) => sr === r && sc === c);
      const cell = el(can ? "button" : "div", {
        class: classes.join(" "), type: can ? "button" : null,
        title: `${FLOORS[f]} row ${r} column ${c}: ${KINDS[kind]}, durability ${dur}`,
        "data-pos": `${f},${r},${c}`,
        onclick: can ? () => onTile(r, c) : null,
      }, el("span", { class: "kind" }, kind),
         here.length ? el("span", { class: `miner${here.includes(me) ? " me" : ""}` },
                          here.join("")) : null);
      cells.append(cell);
    });
  });
  table.append(cells);
  return table;
}

/* Opened orders in words (rules/mined-games.md 4.1): a start, or a round's steps and action. */
function ordersText(orders) {
  if (typeof orders[0] === "number") return `start ${orders[0]},${orders[1]}`;
  return `${orders[0] || "no step"}, ${ACTIONS[orders[1]]}`;
}

function minersTable(state, t) {
  const head = el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Money"), el("th", {}, "Garnets"),
                  el("th", {}, "Iron"), el("th", {}, "Where"), el("th", {}, "This stage"));
  const rows = state.miners.map((m, s) => {
    const [at, money, garnets, iron, status, died] = m;
    const where = status !== "alive" ? `${status}${died !== null ? ` (stage ${died})` : ""}`
      : at ? `${FLOORS[at[0]]} ${at[1]},${at[2]}` : "-";
    const stageState = state.opened[s] !== null ? `opened: ${ordersText(state.opened[s])}`
      : state.commits[s] ? "committed" : status === "alive" ? "thinking" : "";
    return el("tr", { class: s === t.seat ? "me" : "" },
      el("td", {}, s === t.seat ? `${s} (you)` : String(s)), el("td", {}, `$${money}`),
      el("td", {}, String(garnets)), el("td", {}, String(iron)), el("td", {}, where),
      el("td", { class: "commit-state", "data-seat": s }, stageState));
  });
  return el("table", { class: "miners" }, el("thead", {}, head), el("tbody", {}, rows));
}

// Every miner's money after each round, a row a round: as narrow as the miners are many,
// however long the game (a column a round did not fit a phone).
function historyTable(state, t) {
  const history = t.history || [];
  const head = el("tr", {}, el("th", {}, "After"), ...state.miners.map((_m, s) =>
    el("th", {}, s === t.seat ? "You" : `Seat ${s}`)));
  const rows = history.map((h) => el("tr", {}, el("td", {}, `round ${h.round}`),
    ...h.money.map((m) => el("td", {}, m === null ? "" : `$${m}`))));
  return el("table", { class: "miners", id: "money-history", hidden: !history.length },
            el("thead", {}, head), el("tbody", {}, rows));
}

export function minedBoard(board, view, t) {
  const s = view.state;
  board.append(el("p", { class: "facts" }, `${stageText(s)}. Prize pool: $${s.pool}.`,
    s.absent ? ` Seat ${s.absent[0]} is being declared absent.` : "",
    s.end ? ` The game ended: ${s.end}.` : ""));
  if (s.result) {
    const [winner, ec, how] = s.result;
    board.append(el("p", { class: "warn" }, `Token winner: seat ${winner}. `,
      ec === null ? "Elimination candidate: to be chosen by the winner."
        : `Elimination candidate: seat ${ec} (${how}).`));
  }
  board.append(minersTable(s, t), historyTable(s, t));
  const mine = el("div", { class: "mine", id: "mine" });
  floors(s).forEach((rows, f) => mine.append(grid(s, f, rows, t.seat,
    t.asked && s.stage === 1 && f === 0 ? (r, c) => { draft.start = [r, c]; redrawAll(); }
      : null, view.starts)));
  board.append(mine);
}

// The draft lives here, the table in app.js: ask it to draw the table again.
function redrawAll() {
  document.dispatchEvent(new CustomEvent("dealerless-redraw"));
}

// The peer judges every draft by the session's rules (peers/web/orders.py): which step
// may come next and which action may end the orders. Until it answers, nothing is sent.
function judged(t, actions) {
  const reply = t.draftReply;
  if (reply && reply.stage === t.view.state.stage && reply.steps === draft.steps) return reply;
  const key = `${t.view.state.stage}:${draft.steps}`;
  if (draft.asking !== key) {
    draft.asking = key;
    actions.draft([draft.steps, 0]);
  }
  return null;
}

export function minedMoves(handBox, movesBox, t, actions) {
  const view = t.view;
  const s = view.state;
  const pick = actions.pick;
  if (!t.asked) return;
  if (draft.stage !== s.stage) draft = { stage: s.stage, steps: "", action: 0, start: null };
  if (t.awaiting?.message === "choose") {
    movesBox.append(el("p", { class: "why" }, "You won the token: name the elimination candidate."),
      ...view.legal.map((m) => el("button", { type: "button", class: "move",
        "data-move": m.text, onclick: () => pick(m.id) }, `Name ${m.text}`)));
    return;
  }
  if (s.stage === 1) {
    movesBox.append(el("p", { class: "why" }, draft.start
      ? `Start on B1 row ${draft.start[0]}, column ${draft.start[1]}.`
      : "Pick the B1 tile your miner starts on (not air or lava)."),
      el("button", { type: "button", id: "send-orders", disabled: !draft.start,
                     onclick: () => pick(draft.start) }, "Commit to this start"));
    return;
  }
  const reply = judged(t, actions);
  const off = (problem) => reply === null || problem !== null;
  const steps = el("div", { class: reply ? "steps judged" : "steps" }, ...Object.keys(STEP).map((d) =>
    el("button", { type: "button", class: "step", "data-step": d,
                   disabled: off(reply?.next[d] ?? null), title: reply?.next[d] || null,
                   onclick: () => { draft.steps += d; redrawAll(); } }, d)),
    el("button", { type: "button", id: "undo-step", disabled: !draft.steps,
                   onclick: () => { draft.steps = draft.steps.slice(0, -1); redrawAll(); } },
       "Undo"));
  const chosen = reply ? reply.actions[draft.action].problem : null;
  const action = el("select", { id: "action", "aria-label": "action" },
    ACTIONS.map((name, code) => el("option", {
      value: code, selected: code === draft.action,
      disabled: reply !== null && reply.actions[code].problem !== null && code !== draft.action,
    }, name)));
  action.addEventListener("change", () => { draft.action = Number(action.value); redrawAll(); });
  const blocked = reply ? [...new Set(Object.values(reply.next).filter(Boolean))] : [];
  const me = s.miners[t.seat];
  movesBox.append(...[
    el("p", { class: "why" }, `Your orders for this round: steps (five free, each one more `
       + `costs a garnet; you hold ${me[2]}), then one action. Nobody sees them until every `
       + "miner has committed."),
    el("p", {}, "Steps: ", el("strong", { id: "steps" }, draft.steps || "none")), steps,
    blocked.length ? el("p", { class: "dim", id: "steps-why" }, `Not offered: ${blocked.join("; ")}`)
      : null,
    el("label", {}, "Action ", action),
    chosen ? el("p", { class: "bad", id: "orders-why" }, `The rules refuse this action: ${chosen}`)
      : null,
    el("button", { type: "button", id: "send-orders", disabled: reply === null || chosen !== null,
                   onclick: () => pick([draft.steps, draft.action]) }, "Commit to these orders")]
    .filter(Boolean));
}
