// One table: the session strip, the board of its rules, the hand and the legal moves,
// the log of what was checked, and the verdict. Redrawn from the table's snapshot on
// every change; the page offers only the moves in `view.legal` (spec/12-peers.md 12.8).

import { el, plural, seatName } from "./dominoes.js";
import { BOARDS, dominoMoves } from "./boards.js";
import { minedMoves } from "./mined.js";

const $ = (id) => document.getElementById(id);
let ticking = null;

export function drawTable(t, actions) {
  $("table-title").textContent = title(t);
  drawSession(t, actions);
  const board = $("board");
  const rules = t.rules || t.setup?.rules?.split(" ")[0];
  const draw = BOARDS[rules];
  board.replaceChildren();
  if (t.view && t.view.state && draw) draw(board, t.view, t);
  else board.append(el("p", { class: "dim" }, t.error ? "" : "Setting up the table..."));
  drawMoves(t, rules, actions);
  drawStandings(t, actions);
  drawLog(t);
  drawResult(t, actions);
  status(t);
  clearInterval(ticking);
  ticking = setInterval(() => status(t), 1000);
}

function title(t) {
  const name = t.rules || t.setup?.rules?.split(" ")[0]
    || { join: "joining a table", host: "setting up a table" }[t.kind] || "opening a table";
  const rules = name + (inMatch(t) ? ` · round of the ${t.round}s` : "");
  const count = t.seats || t.setup?.seats;   // a joiner learns it from the setup
  const seats = count ? ` · ${count} seats` : "";
  // A table just opened has no seat yet (a joiner's comes with the setup).
  return t.seat === undefined ? rules + seats : `${rules}${seats} · you are seat ${t.seat}`;
}

function drawSession(t, actions) {
  const box = $("session");
  box.replaceChildren();
  if (!t.setup && t.invitations && t.invitations.length && !t.error) {
    // One invitation per joining seat (spec 12.3): whoever holds one can take that seat
    // and no other, so each goes to one player.
    const joined = t.lobby ? t.lobby.joined : [];
    const lines = t.invitations.map((inv, i) => {
      const text = el("code", { id: i ? `invitation-${i + 1}` : "invitation",
                                class: "invitation" }, inv);
      const copy = el("button", { type: "button", class: "copy-invitation",
                                  id: i ? `copy-invitation-${i + 1}` : "copy-invitation",
                                  onclick: async () => {
        try {
          await navigator.clipboard.writeText(inv);
          actions.toast(`invitation for seat ${i + 1} copied`);
        } catch {
          const range = document.createRange();
          range.selectNodeContents(text);
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          actions.toast("select and copy the invitation (the clipboard is not available)");
        }
      } }, "Copy");
      const who = joined[i] ? `seat ${i + 1}: ${joined[i]} has asked for it`
                            : `seat ${i + 1}: nobody yet`;
      return [t.invitations.length > 1
                ? el("p", { class: "dim seatline", id: `seat-${i + 1}` }, who) : null,
              el("div", { class: "copyline" }, text, copy)];
    }).flat().filter((n) => n);
    const asked = joined.filter((f) => f).length;
    const others = t.invitations.length;
    box.append(el("p", {}, others > 1
                 ? `Give each of the other ${others} players their own invitation:`
                 : "Give the other player this invitation:"),
               ...suiteLine(t.suite, "The table plays in the ciphersuite "),
               ...lines,
               el("p", { class: "dim", id: "lobby" }, `Waiting for the table to fill: `
                 + `${asked} of ${others} ${others > 1 ? "players have" : "player has"} `
                 + "asked for a seat."));
    return;
  }
  if (t.setup) {
    const s = t.setup;
    box.append(el("p", {}, el("span", { class: "mono" }, `game ${s.game_id.slice(0, 16)}`),
                  " · ", s.opponents),
               ...suiteLine(s.suite || t.suite, "Ciphersuite "));
    if (s.sas) {
      box.append(el("p", { class: "sas" }, "Short authentication string ",
                    el("strong", { id: "sas" }, s.sas),
                    s.seats > 2 ? ": every player must see the same"
                                : ": compare it with your opponent by voice"));
    }
  }
}

// The game's ciphersuite (spec/03-hashing.md 3.5): the group and hash of every proof.
function suiteLine(suite, words) {
  return suite ? [el("p", { class: "dim" }, words,
                     el("strong", { id: "suite", class: "mono" }, suite))] : [];
}

// Whose turn it is, who is being waited on, and how long until their timeout.
function inMatch(t) {
  return t.round !== null && t.round !== undefined;
}

function status(t) {
  const line = $("table-status");
  const turn = $("turn");
  if (t.offline) {
    line.textContent = "your peer has stopped";
    turn.textContent = "Nothing can be played until your peer is back (see above).";
    return;
  }
  if (t.error) {
    line.textContent = "stopped";
    turn.textContent = "";
    return;
  }
  if (t.end) {
    line.textContent = t.end.match ? "match over" : inMatch(t) ? `round of the ${t.round}s over`
      : "game over";
    turn.textContent = "";
    return;
  }
  if (!t.awaiting) {
    line.textContent = t.setup ? "" : "setting up";
    turn.textContent = t.view ? "" : "Waiting for the players and the deal...";
    return;
  }
  const who = seatName(t.awaiting.seat, t.seat);
  let left = "";
  if (t.timeout) {
    const now = Date.now() / 1000 - (t.clockOffset || 0);
    const secs = Math.max(0, Math.round(t.awaiting.since + t.timeout - now));
    left = ` · ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")} left`;
  }
  line.textContent = `waiting for ${who} (${t.awaiting.message})${left}`;
  if (t.asked) {
    turn.textContent = "Your turn.";
  } else if (t.awaiting.seat === t.seat) {
    turn.textContent = `Your peer is sending your ${t.awaiting.message} frame...`;
  } else {
    turn.textContent = t.awaiting.message === "move"
      ? `Seat ${t.awaiting.seat} is choosing a move...`
      : `Seat ${t.awaiting.seat} owes its ${t.awaiting.message} frame...`;
  }
}

function drawMoves(t, rules, actions) {
  const hand = $("hand");
  const moves = $("moves");
  hand.replaceChildren();
  moves.replaceChildren();
  if (!t.view || t.end || t.error || t.offline) return;
  if (rules === "mined-games") minedMoves(hand, moves, t, actions);
  else dominoMoves(hand, moves, t, actions.pick);
}

// A match: every round's pips left per seat (the round's penalty) and the totals.
function drawStandings(t, actions) {
  const box = $("standings");
  box.replaceChildren();
  box.hidden = !t.match;
  if (!t.match) return;
  const rounds = (t.rounds || []).map((r) => el("li", {},
    el("span", {}, `Round ${r.index + 1} (the ${r.round}s): ${r.headline}`),
    el("button", { type: "button", class: "round-download", onclick: () => actions.download(
      `/api/tables/${t.id}/rounds/${r.index}/transcript`, `round-of-the-${r.round}s.transcript`) },
       `Download (${plural(r.bytes, "byte")})`)));
  const m = t.match.json;
  const seats = m.totals ? m.totals.length : 0;
  const head = el("tr", {}, el("th", {}, "Round"), ...[...Array(seats).keys()].map((s) =>
    el("th", {}, s === t.seat ? "You" : `Seat ${s}`)));
  const rows = m.rounds.map((r, i) => el("tr", {}, el("td", {}, String(i + 1)),
    ...(r.outcome ? r.outcome.hand_pips : []).map((p) => el("td", {}, String(p)))));
  const total = el("tr", { class: "total" }, el("td", {}, "Total"),
    ...(m.totals || []).map((p) => el("td", {}, String(p))));
  box.append(el("h3", {}, `Standings after ${m.rounds_played} of ${m.rounds_due} rounds`),
             el("table", { class: "standings", id: "standings-table" },
                el("thead", {}, head), el("tbody", {}, rows, total)),
             el("ul", { class: "rows", id: "round-files", hidden: !rounds.length }, rounds));
}

function drawLog(t) {
  const list = $("log");
  const items = t.log.slice(-300).map((entry) => el("li", {
    class: entry.kind === "step" ? "step" : "notice",
  }, entry.kind === "step" ? `✓ ${entry.seq} ${entry.text}` : entry.text));
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

function drawResult(t, actions) {
  const box = $("result");
  box.replaceChildren();
  box.hidden = !t.end && !t.error;
  if (t.error) {
    box.append(el("p", { class: "bad" }, `The game stopped: ${t.error}`));
    return;
  }
  if (!t.end) return;
  const v = t.end.verdict;
  const ok = v.exit_code === 0;
  const over = t.end.match ? "Match over" : inMatch(t) ? `Round of the ${t.round}s over`
    : "Game over";
  box.append(...[
    el("h3", {}, ok ? `${over}: verified` : over),
    el("p", { id: "headline", class: ok ? "headline" : "bad" }, v.headline),
    outcome(v.json, t.seat, t.view?.params),
    el("p", { class: "dim" }, t.end.message),
    el("pre", { id: "verdict", class: `verdict ${ok ? "ok" : "bad"}` }, v.text),
    hidden(v.json),
    el("button", { type: "button", id: "download", onclick: () => actions.download(
      `/api/tables/${t.id}/transcript`,
      `${(t.setup?.game_id || t.id).slice(0, 16)}.${t.end.match ? "match" : "transcript"}`) },
       `Download the ${t.end.match ? "match file" : "transcript"} (${plural(t.end.bytes, "byte")})`)]
    .filter(Boolean));
}

// Who won, by how much, and every seat's pips with komi: the account at a glance.
function outcome(json, me, params) {
  const out = json.outcome;
  if (!out || !out.pips) return null;
  const who = out.draw ? "A draw" : out.winner === null ? "No single winner"
    : out.winner === me ? "You win" : `Seat ${out.winner} wins`;
  const margin = out.margin !== undefined && out.winner !== null ? ` by ${out.margin}` : "";
  const pips = out.pips.map((p, s) => `${s === me ? "you" : `seat ${s}`} ${p}`).join(", ");
  const komi = params && "komi_halves" in params ? " (komi included)" : "";
  return el("p", { id: "outcome" }, `${who}${margin}. Pips left${komi}: ${pips}.`);
}

function hidden(json) {
  const tiles = json.hidden_tile || [];
  if (!tiles.length) return null;
  return el("p", {}, `Hidden tile opened at the end: ${tiles.join(", ")}`);
}
