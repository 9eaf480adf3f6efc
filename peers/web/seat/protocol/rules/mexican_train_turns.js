// Mexican Train: how a move changes a round, `apply` (spec/rules/mexican-train.md 6.2).
// Mirrors protocol/rules/mexican_train_turns.py.
//
// `apply` judges a move from the public state alone, with its checks in the order of the
// spec's table: the engine search (5.1), first turns and doubles (5.2, 5.3), the trains
// open to a seat (5.4, `openTrains`) and the end of the round (7).

import { LocalError } from "../errors.js";
import { RuleViolation, replace, tileIndex, tileKey } from "./base.js";
import { Draw, MEXICAN, NotHolding, Pass, Play, TILE_SET, moveText } from "./mexican_train_state.js";

/** The trains `seat` may play on now, in index order (section 5.4). */
export function openTrains(state, seat) {
  if (state.pending !== null) return [state.pending]; // a pending double comes first, wherever
  if (!state.firstDone[seat]) return [seat];
  const trains = [];
  for (let x = 0; x < state.seats; x += 1) if (x === seat || state.markers[x]) trains.push(x);
  if (state.mexican !== null) trains.push(MEXICAN);
  return trains;
}

/**
 * The state after `seat` makes `move` (section 6.2), or RuleViolation. Checks run in the
 * order of the spec's table so every implementation reports the same code. Possession of a
 * played tile, and the truth of a claim that no play was possible, are the session's.
 */
export function apply(state, seat, move) {
  if (state.finished !== null) {
    throw new RuleViolation("rules/game-over", `the round is over (${state.finished})`, seat);
  }
  if (seat !== state.turn) {
    throw new RuleViolation("rules/not-your-turn", `seat ${state.turn} is to move`, seat);
  }
  if (!(move instanceof Pass || move instanceof Draw || move instanceof NotHolding
        || move instanceof Play)) {
    throw new LocalError("rules/bad-move", "not a Mexican Train move");
  }
  if (move instanceof Play) checkTile(state, seat, move);
  if (state.phase !== "play") return applySearch(state, seat, move);
  if (move instanceof NotHolding) {
    throw new RuleViolation("rules/not-holding-now", "the engine is already out", seat);
  }
  if (move instanceof Draw) {
    if (!state.owes) {
      throw new RuleViolation("rules/draw-not-allowed", "a first turn's run ends with a pass", seat);
    }
    return draw(state, seat);
  }
  if (move instanceof Pass) {
    if (state.owes && !state.drawn && state.boneyard) {
      throw new RuleViolation("rules/must-draw", "draw before passing", seat);
    }
    return endTurn(state, seat, true);
  }
  return play(state, seat, move);
}

function checkTile(state, seat, move) {
  const inSet = tileIndex(TILE_SET, move.tile) !== null;
  const text = inSet ? moveText(move) : `${move.tile}>${move.train}`;
  if (!inSet) throw new RuleViolation("rules/not-in-set", `${text} is not a double-twelve tile`, seat);
  if (move.train !== MEXICAN && move.train >= state.seats) {
    throw new RuleViolation("rules/no-such-train", `${text}: ${state.seats} seats`, seat);
  }
  if (move.train === MEXICAN && state.mexican === null) {
    throw new RuleViolation("rules/no-mexican-train", `${text}: the round has none`, seat);
  }
  if (state.tableKeys().has(tileKey(move.tile))) {
    throw new RuleViolation("rules/tile-already-played", `${text}: already on the table`, seat);
  }
}

function draw(state, seat) {
  if (state.drawn) throw new RuleViolation("rules/already-drew", "one draw a turn", seat);
  if (!state.boneyard) throw new RuleViolation("rules/boneyard-empty", "nothing to draw", seat);
  const counts = state.handCounts.map((c, s) => c + (s === seat ? 1 : 0));
  return replace(state, { handCounts: counts, boneyard: state.boneyard - 1, drawn: true,
    stalled: 0 });
}

/** Section 5.1: open with the engine, declare not holding it, or draw to find it. */
function applySearch(state, seat, move) {
  if (move instanceof Draw) {
    if (state.phase === "declare") {
      throw new RuleViolation("rules/draw-not-allowed", "nobody draws in the first lap", seat);
    }
    return draw(state, seat);
  }
  if (move instanceof Pass) {
    throw new RuleViolation("rules/pass-not-allowed", "open or declare not holding", seat);
  }
  if (state.phase === "search" && !state.drawn) {
    throw new RuleViolation("rules/must-draw", "draw before opening or declaring", seat);
  }
  if (move instanceof NotHolding) {
    const nxt = (seat + 1) % state.seats;
    const lapOver = state.phase === "search" || nxt === state.firstPlayer;
    return replace(state, { turn: nxt, phase: lapOver ? "search" : "declare", drawn: false });
  }
  if (move.tile[0] !== state.engine || move.tile[1] !== state.engine || move.train !== seat) {
    throw new RuleViolation("rules/engine-first",
      `${moveText(move)}: open with ${state.engine}-${state.engine}>${seat}`, seat);
  }
  const counts = state.handCounts.map((c, s) => c - (s === seat ? 1 : 0));
  // Opening starts the opener's first turn afresh: a draw made to find the engine is not
  // that turn's draw (decision D5).
  return replace(state, { handCounts: counts, phase: "play", drawn: false, owes: true,
    finished: counts[seat] === 0 ? "out" : null });
}

/** Section 6.2: a tile on an open train whose end it matches. */
function play(state, seat, move) {
  const text = moveText(move);
  const x = move.train;
  if (state.pending !== null && x !== state.pending) {
    throw new RuleViolation("rules/double-pending",
      `${text}: satisfy the double on train ${trainName(state.pending)}`, seat);
  }
  if (!openTrains(state, seat).includes(x)) {
    throw new RuleViolation("rules/train-closed", `${text}: that train is not open to you`, seat);
  }
  const end = state.openEnd(x);
  if (move.tile[0] !== end && move.tile[1] !== end) {
    throw new RuleViolation("rules/tile-does-not-match", `${text}: that train ends in ${end}`, seat);
  }
  const [a, b] = move.tile;
  const placed = a === end ? [a, b] : [b, a];
  let { trains, mexican } = state;
  if (x === MEXICAN) mexican = [...(mexican ?? []), placed];
  else trains = trains.map((t, i) => (i === x ? [...t, placed] : t));
  const counts = state.handCounts.map((c, s) => c - (s === seat ? 1 : 0));
  const out = counts[seat] === 0;
  const double = a === b;
  // A double must be followed (section 5.3); a first turn's run goes on (5.2).
  const runOn = !state.firstDone[seat] && !state.drawn;
  const after = replace(state, { trains, mexican, handCounts: counts,
    markers: state.markers.map((m, i) => m && i !== x), pending: double ? x : null, stalled: 0,
    owes: double || !runOn, finished: out ? "out" : null });
  if (out || double || runOn) return after;
  return endTurn(after, seat, false);
}

/**
 * Hand the turn on; a pass by a seat that owed a tile puts its marker down. A pass that
 * changes nothing public (empty boneyard, the seat's first turn over, its marker already
 * down) is a stall; `seats` stalls in a row mean nobody can play (section 7).
 */
function endTurn(state, seat, passed) {
  const markers = state.markers.map((m, i) => m || (passed && state.owes && i === seat));
  const stall = passed && !state.boneyard && state.firstDone[seat] && state.markers[seat];
  const stalled = stall ? state.stalled + 1 : 0;
  return replace(state, { markers, turn: (seat + 1) % state.seats, drawn: false, owes: true,
    firstDone: state.firstDone.map((d, i) => d || i === seat), stalled,
    finished: stalled === state.seats ? "blocked" : null });
}

function trainName(x) {
  return x === MEXICAN ? "M" : String(x);
}
