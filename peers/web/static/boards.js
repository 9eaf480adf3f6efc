// The boards of the domino rule sets, drawn from the public state exactly as the rule set
// writes it (spec/rules/*.md, "state JSON"), and the hand with its legal moves.

import { el, halves, line, parseTile, plural, seatName, tile, tileButton } from "./dominoes.js";
import { minedBoard } from "./mined.js";

function counts(state, me) {
  return el("p", { class: "counts" }, state.hand_counts.map((n, s) =>
    el("span", { class: s === state.turn ? "to-move" : "" },
       `${s === me ? "You" : `Seat ${s}`}: ${plural(n, "tile")}`)));
}

function section(label, ...children) {
  return el("div", { class: "row" }, el("div", { class: "row-label" }, label),
            el("div", { class: "row-body" }, ...children));
}

function bram(board, view, t) {
  const s = view.state;
  const komi = view.params.komi_halves || 0;
  board.append(el("p", { class: "facts" },
    `First player: ${seatName(s.first_player, t.seat)}. `,
    `Komi: ${halves(komi)} pips to the first player. `,
    s.passes ? `${plural(s.passes, "pass")} in a row. ` : ""));
  board.append(counts(s, t.seat));
  if (!s.line.length) {
    board.append(section("Line", el("p", { class: "dim" }, "No tile played yet")));
    return;
  }
  const left = s.line[0][0];
  const right = s.line[s.line.length - 1][1];
  board.append(section(`Line (${s.line.length})`,
    el("div", { class: "line-wrap" },
       el("span", { class: "end", id: "end-L" }, `L ${left}`), line(s.line),
       el("span", { class: "end", id: "end-R" }, `R ${right}`))));
}

function mexican(board, view, t) {
  const s = view.state;
  board.append(el("p", { class: "facts" },
    `Engine: ${s.engine}-${s.engine}. Boneyard: ${plural(s.boneyard, "tile")}. `,
    `Round of the ${s.engine}s. First player: ${seatName(s.first_player, t.seat)}.`));
  board.append(counts(s, t.seat));
  const hub = el("div", { class: "hub" }, tile(s.engine, s.engine, { vertical: true }));
  board.append(section("Hub", hub));
  if (s.pending !== null) {
    board.append(el("p", { class: "warn", id: "pending" },
      `Double to satisfy: ${pendingText(s)}. It must be covered before anything else.`));
  }
  s.trains.forEach((train, seat) => {
    const mark = s.markers[seat] ? el("span", { class: "marker", title: "marker: open to all" }, "● open") : null;
    board.append(section(el("span", {}, seat === t.seat ? "Your train" : `Seat ${seat}'s train`,
                            " ", mark),
                         train.length ? line(train) : el("span", { class: "dim" }, "not started")));
  });
  if (view.params.mexican_train || s.mexican) {
    board.append(section("Mexican train", s.mexican && s.mexican.length ? line(s.mexican)
                         : el("span", { class: "dim" }, "not started")));
  }
}

// `pending`: the train (a seat, or 8 for the Mexican train) that ends in an open double.
function pendingText(state) {
  const train = state.pending === 8 ? state.mexican : state.trains[state.pending];
  const last = train && train.length ? train[train.length - 1] : null;
  const name = state.pending === 8 ? "the Mexican train" : `seat ${state.pending}'s train`;
  return last ? `${last[0]}-${last[1]} on ${name}` : name;
}

function mineshaft(board, view, t) {
  const s = view.state;
  board.append(el("p", { class: "facts" },
    `Set: ${s.set}. Rubble pile: ${plural(s.boneyard, "tile")}. `,
    `First player: ${seatName(s.first_player, t.seat)}.`,
    s.passes ? ` ${plural(s.passes, "pass")} in a row.` : ""));
  board.append(counts(s, t.seat));
  board.append(section("Hub", el("div", { class: "hub" }, tile(s.hub, s.hub, { vertical: true }))));
  for (let i = 0; i < 6; i += 1) {     // six shafts at most, in the order dug
    const shaft = s.shafts[i];
    board.append(section(`Shaft ${i}`, shaft === undefined
      ? el("span", { class: "dim" }, "not dug yet") : line(shaft)));
  }
  for (const vein of s.veins) {
    board.append(section(`Vein of ${vein.double}-${vein.double}`,
      el("div", { class: "vein" },
         el("span", { class: "dim" }, "a "), vein.a.length ? line(vein.a) : "·",
         el("span", { class: "dim" }, " b "), vein.b.length ? line(vein.b) : "·")));
  }
}

export const BOARDS = { bram, "mexican-train": mexican, mineshaft, "mined-games": minedBoard };

// -- the hand and the legal moves ------------------------------------------------------

const WORDS = {
  pass: "Pass",
  draw: "Draw a tile",
  "not-holding": "I do not hold the engine double",
};

// "3-5>L" -> where it goes, in words.
export function targetText(rules, target, me) {
  if (rules === "bram") return target === "L" ? "the left end" : "the right end";
  if (rules === "mexican-train") {
    if (target === "M") return "the Mexican train";
    return Number(target) === me ? "your train" : `seat ${target}'s train`;
  }
  if (target === "H") return "the hub";
  if (target.startsWith("S")) return `shaft ${target.slice(1)}`;
  const m = /^V(\d+)([ab])$/.exec(target);
  return m ? `the vein of ${m[1]}-${m[1]}, side ${m[2]}` : target;
}

function why(rules, view) {
  const plays = view.legal.filter((m) => m.tile);
  const others = view.legal.filter((m) => !m.tile).map((m) => m.text);
  if (!plays.length && others.includes("draw")) {
    return "No tile in your hand can be played: the rules make you draw.";
  }
  if (!plays.length && others.includes("pass")) {
    if (rules === "bram") return "No tile in your hand fits either end: you pass.";
    const proof = "your peer proves in zero knowledge that no tile in your hand fits";
    if (view.state.drawn === true || view.state.phase === "drawn") {
      const marker = rules === "mexican-train" ? " (your train's marker goes up)" : "";
      return `You have drawn this turn and nothing fits: you pass${marker}, and ${proof}.`;
    }
    return `Nothing fits and nothing is left to draw: you pass, and ${proof}.`;
  }
  if (rules === "mexican-train" && view.state.pending !== null) {
    return "An open double must be satisfied: only the plays that cover it are offered.";
  }
  if (plays.length && !others.includes("pass") && !others.includes("draw") && rules !== "bram") {
    return "A tile fits, so the rules make you play one.";
  }
  return "";
}

export function dominoMoves(handBox, movesBox, t, pick) {
  const view = t.view;
  const rules = t.rules;
  const byTile = new Map();
  for (const move of view.legal) {
    if (move.tile) byTile.set(move.tile, [...(byTile.get(move.tile) || []), move]);
  }
  const asked = t.asked;
  const chooser = el("div", { class: "targets", id: "targets" });
  const tiles = view.hand.map((text) => {
    const moves = byTile.get(text) || [];
    const playable = asked && moves.length > 0;
    return tileButton(text, {
      state: playable ? "legal" : "dim", disabled: !playable,
      label: playable ? `play ${text}` : `${text} (cannot be played now)`,
    }, () => {
      if (moves.length === 1) { pick(moves[0].id); return; }
      chooser.replaceChildren(el("span", {}, `Play ${text} on: `), ...moves.map((m) =>
        el("button", { type: "button", class: "target", "data-move": m.text,
                       onclick: () => pick(m.id) },
           targetText(rules, m.text.split(">")[1], t.seat))));
      chooser.querySelector("button")?.focus();
    });
  });
  const pips = view.hand.reduce((sum, text) => sum + parseTile(text).reduce((a, b) => a + b), 0);
  handBox.append(el("h3", {}, `Your hand: ${plural(view.hand.length, "tile")}, ${pips} pips`),
                 el("div", { class: "tiles", id: "hand-tiles" }, tiles));
  if (!asked) return;
  const others = view.legal.filter((m) => !m.tile);
  const reason = why(rules, view);
  movesBox.append(...[
    reason ? el("p", { class: "why", id: "why" }, reason) : null,
    byTile.size ? el("p", { class: "dim" }, "Pick a highlighted tile to play it.") : null,
    chooser,
    el("div", { class: "plain-moves" }, others.map((m) => el("button", {
      type: "button", class: "move", "data-move": m.text, onclick: () => pick(m.id),
    }, WORDS[m.text] || m.text)))].filter(Boolean));
}
