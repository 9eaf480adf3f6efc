// Mineshaft, one round, as pure functions (spec/rules/mineshaft.md). Mirrors
// protocol/rules/mineshaft.py.
//
// The hub lies face up; each seat holds 5 tiles and the rest form the rubble pile (2).
// Tiles go on the hub until it has six shafts, then on any open end; a double struck on an
// end opens a vein, and until three tiles lie on the newest vein only its two arms take
// tiles (5). Play is forced: with a playable tile a seat must play one; without one it
// draws a single tile, plays it if it fits, and otherwise passes (6). The round ends when a
// seat goes out, or when every seat in a row has passed with the pile empty (7). A draw or
// a pass asserts "I have no legal play" (6.1), proven against
// mexican_train_match.forbiddenTiles.

import { EncodingError, LocalError } from "../errors.js";
import { DOUBLE_SIX } from "../tiles.js";
import {
  DealPlan, RuleViolation, isMapping, linkProblem, lowestPipsOutcome, replace, sortTiles,
  tileIndex, tileKey,
} from "./base.js";
import {
  Standings, auditClaims, forbiddenTiles, matchStandings,
} from "./mexican_train_match.js";
import {
  DRAW, Draw, FIRST_ARM, HAND_SIZE, HUB, MineshaftState, NAME, PASS, Pass, Play, SHAFTS, Vein,
  armTarget, initialBoneyard, maxSeats, moveFromId, moveId, moveText, parseMove, targetCount,
  targetText, tileSetNamed,
} from "./mineshaft_state.js";

export {
  DRAW, Draw, MineshaftState, PASS, Pass, Play, Standings, auditClaims, forbiddenTiles,
  matchStandings,
};

/** The hub alone on the table, 5 tiles a seat, `firstPlayer` to move (section 2). */
export function initialState(ts, seats, hub, firstPlayer) {
  if (!Number.isInteger(firstPlayer) || firstPlayer < 0 || firstPlayer >= seats) {
    throw new LocalError("rules/first-player", `seat ${String(firstPlayer)} is not in 0..${seats - 1}`);
  }
  return new MineshaftState({ tileSet: ts, hub, shafts: [], veins: [],
    handCounts: Array(seats).fill(HAND_SIZE), boneyard: initialBoneyard(ts, seats),
    turn: firstPlayer, firstPlayer, phase: "play", passes: 0, finished: null });
}

/**
 * Every legal move of the seat to move holding `hand`, in id order (section 6). Play is
 * forced: if a tile of `hand` fits an open target, only plays are legal; otherwise a draw
 * (pile not empty, not yet drawn) or else a pass. `hand` may be part of the hand.
 */
export function legalMoves(state, hand) {
  if (state.finished !== null) return [];
  checkHand(state, hand);
  const targets = state.openTargets();
  const plays = [];
  for (const t of sortTiles(hand)) {
    for (const x of targets) {
      const end = state.openEnd(x);
      if (t[0] === end || t[1] === end) plays.push(new Play(t, x));
    }
  }
  if (plays.length) return plays;
  return state.phase === "play" && state.boneyard ? [DRAW] : [PASS];
}

function checkHand(state, hand) {
  const tiles = [...hand];
  const keys = new Set();
  for (const t of tiles) {
    if (tileIndex(state.tileSet, t) === null) {
      throw new LocalError("rules/bad-hand", `a hand is distinct tiles of the ${state.tileSet.name}`);
    }
    keys.add(tileKey(t));
  }
  if (keys.size !== tiles.length) {
    throw new LocalError("rules/bad-hand", `a hand is distinct tiles of the ${state.tileSet.name}`);
  }
  const table = state.tableKeys();
  if ([...keys].some((k) => table.has(k)) || keys.size > state.handCounts[state.turn]) {
    throw new LocalError("rules/bad-hand",
      `seat ${state.turn} holds ${state.handCounts[state.turn]} unplayed tiles`);
  }
}

/**
 * Whether `move` asserts that `seat` has no legal play (section 6.1): every draw and pass.
 * A pass after a draw asserts it of the whole hand, the drawn tile included (D10).
 */
export function mustPlayIfAble(state, seat, move) {
  return move instanceof Draw || move instanceof Pass;
}

/**
 * The state after `seat` makes `move` (section 6.2), or RuleViolation; checks in the order
 * of the spec's table so every implementation reports the same code.
 */
export function apply(state, seat, move) {
  if (state.finished !== null) {
    throw new RuleViolation("rules/game-over", `the round is over (${state.finished})`, seat);
  }
  if (seat !== state.turn) {
    throw new RuleViolation("rules/not-your-turn", `seat ${state.turn} is to move`, seat);
  }
  if (move instanceof Draw) {
    if (state.phase === "drawn") throw new RuleViolation("rules/already-drew", "one draw a turn", seat);
    if (!state.boneyard) {
      throw new RuleViolation("rules/boneyard-empty", "the rubble pile is empty: pass", seat);
    }
    const counts = state.handCounts.map((c, s) => c + (s === seat ? 1 : 0));
    return replace(state, { handCounts: counts, boneyard: state.boneyard - 1, phase: "drawn" });
  }
  if (move instanceof Pass) {
    if (state.phase === "play" && state.boneyard) {
      throw new RuleViolation("rules/must-draw", "draw before passing", seat);
    }
    const passes = !state.boneyard ? state.passes + 1 : 0;
    return replace(state, { turn: (seat + 1) % state.seats, phase: "play", passes,
      finished: passes === state.seats ? "blocked" : null });
  }
  if (!(move instanceof Play)) throw new LocalError("rules/bad-move", "not a Mineshaft move");
  return play(state, seat, move);
}

function play(state, seat, move) {
  const ts = state.tileSet;
  const x = move.target;
  const text = `${move.tile[0]}-${move.tile[1]}>${targetText(x)}`;
  if (tileIndex(ts, move.tile) === null) {
    throw new RuleViolation("rules/not-in-set", `${text} is not a ${ts.name} tile`, seat);
  }
  if (x >= targetCount(ts)) {
    throw new RuleViolation("rules/no-such-target", `${text}: ${ts.name} has no such vein`, seat);
  }
  if (state.tableKeys().has(tileKey(move.tile))) {
    throw new RuleViolation("rules/tile-already-played", `${text}: already on the table`, seat);
  }
  if (state.shafts.length < SHAFTS && x !== HUB) {
    throw new RuleViolation("rules/hub-only", `${text}: dig six shafts off the hub first`, seat);
  }
  if (state.shafts.length === SHAFTS && x === HUB) {
    throw new RuleViolation("rules/hub-full", `${text}: the hub has its six shafts`, seat);
  }
  const line = x !== HUB ? state.line(x) : [];
  if (line === null) {
    throw new RuleViolation("rules/no-such-line", `${text}: that shaft or vein is not dug`, seat);
  }
  if (line.length && line[line.length - 1][0] === line[line.length - 1][1]) {
    throw new RuleViolation("rules/line-closed", `${text}: that line ends in a vein`, seat);
  }
  const vein = state.exploring;
  if (vein !== null && x !== armTarget(vein.double, 0) && x !== armTarget(vein.double, 1)) {
    throw new RuleViolation("rules/vein-unexplored",
      `${text}: explore the vein of ${vein.double}-${vein.double} first`, seat);
  }
  const end = state.openEnd(x);
  if (move.tile[0] !== end && move.tile[1] !== end) {
    throw new RuleViolation("rules/tile-does-not-match", `${text}: that end shows ${end}`, seat);
  }
  const [a, b] = move.tile;
  const placed = a === end ? [a, b] : [b, a];
  let { shafts, veins } = state;
  if (x === HUB) {
    shafts = [...shafts, [placed]];
  } else if (x < FIRST_ARM) {
    shafts = shafts.map((ln, k) => (k + 1 === x ? [...ln, placed] : ln));
  } else {
    const double = Math.floor((x - FIRST_ARM) / 2);
    const side = (x - FIRST_ARM) % 2;
    veins = veins.map((v) => (v.double === double ? new Vein(v.double, grow(v.arms, side, placed)) : v));
  }
  if (a === b) veins = [...veins, new Vein(a, [[], []])]; // a double strikes a vein (D6)
  const counts = state.handCounts.map((c, s) => c - (s === seat ? 1 : 0));
  return replace(state, { shafts, veins, handCounts: counts, turn: (seat + 1) % state.seats,
    phase: "play", passes: 0, finished: counts[seat] === 0 ? "out" : null });
}

function grow(arms, side, placed) {
  return side === 0 ? [[...arms[0], placed], arms[1]] : [arms[0], [...arms[1], placed]];
}

/**
 * Winner, pips and margin of a finished round (section 8). A blocked round whose lowest
 * total is shared has no single winner: `winner` is null and `roundWinners` names the
 * seats that share the win.
 */
export function outcome(state, hands, hidden) {
  if (state.finished === null) throw new LocalError("rules/not-over", "the round is still on");
  checkReveal(state, hands, hidden);
  return lowestPipsOutcome(state.finished, state.handCounts, hands.map((h) => [...h]));
}

/** The seats that win a round: the winner, or every seat sharing the lowest pips (D12). */
export function roundWinners(result) {
  return result.winners;
}

function checkReveal(state, hands, hidden) {
  const groups = hands.map((h) => [...h]);
  if (groups.length !== state.seats || [...hidden].length
      || groups.some((h, i) => h.length !== state.handCounts[i])) {
    throw new RuleViolation("rules/reveal-mismatch",
      `expected hands of ${state.handCounts} tiles and none hidden`);
  }
  const seen = groups.flat();
  const table = state.tableKeys();
  if (!seen.every((t) => tileIndex(state.tileSet, t) !== null)
      || new Set(seen.map(tileKey)).size !== seen.length || seen.some((t) => table.has(tileKey(t)))) {
    throw new RuleViolation("rules/reveal-mismatch",
      `hands hold distinct ${state.tileSet.name} tiles not on the table`);
  }
}

/** The long variant's next starting double: one lower, or null after 0-0 (section 9). */
export function nextRound(round) {
  if (!Number.isInteger(round) || round < 0) {
    throw new LocalError("rules/params", `${String(round)} is not a double's number`);
  }
  return round ? round - 1 : null;
}

function paramsProblem(setName, seats, round, long) {
  const ts = tileSetNamed(setName);
  if (ts === undefined) return "set is one of [double-nine, double-six, double-twelve]";
  if (!Number.isInteger(seats) || seats < 2 || seats > maxSeats(ts)) {
    return `seats is an integer in 2..${maxSeats(ts)} on ${setName}`;
  }
  if (typeof long !== "boolean") return "long is a boolean";
  if (!Number.isInteger(round) || round < 0 || round > ts.maxPip) {
    return `round is the starting double's number, an integer in 0..${ts.maxPip}`;
  }
  if (!long && round !== ts.maxPip) return `a short game is one round on ${ts.maxPip}-${ts.maxPip} (D13)`;
  return null;
}

/**
 * Checks 9-11 of section 2 "Checking the parameters": what only a long game's rounds may
 * set. `first` is a seat of the `seats` parameter, never of the identities.
 */
function longOnlyProblem(after, first, seats, long) {
  if (after && long !== true) return "a short game follows no round: after is empty (D13)";
  if (!Number.isInteger(first) || !Number.isInteger(seats) || !(first >= -1 && first < seats)) {
    return "first is -1 (drawn) or a seat";
  }
  if (first !== -1 && long !== true) {
    return "only the rounds of a long game keep the first round's first player (D19)";
  }
  return null;
}

/**
 * One round of Mineshaft as a rule set (section 2): `seats`, `set` (a tile set's name),
 * `round` (the starting double; -1 stands for the set's highest), `long` (the long
 * variant), `after` (the previous round's last frame hash in hex, or "") and `first` (-1:
 * the session draws the first player; a seat: the long game's first round's, D19).
 */
export class MineshaftRules {
  constructor({ seats, set = DOUBLE_SIX.name, round = -1, long = false, after = "", first = -1 }) {
    const ts = tileSetNamed(set);
    if (round === -1 && ts !== undefined) round = ts.maxPip;
    const problem = paramsProblem(set, seats, round, long) || linkProblem(after)
      || longOnlyProblem(after, first, seats, long);
    if (problem) throw new LocalError("rules/params", problem);
    this.seats = seats;
    this.set = set;
    this.round = round;
    this.long = long;
    this.after = after;
    this.first = first;
    Object.freeze(this);
  }

  /** Rebuild from `params`; seats is required, unknown keys are refused (rules/params). */
  static fromParams(params) {
    const known = ["set", "seats", "round", "long", "after", "first"];
    const unknown = Object.keys(params).filter((k) => !known.includes(k));
    if (unknown.length) {
      throw new EncodingError("rules/params", `unknown parameters ${JSON.stringify(unknown.sort())}`);
    }
    if (!Object.hasOwn(params, "seats")) throw new EncodingError("rules/params", "seats is required");
    const get = (k, d) => (Object.hasOwn(params, k) ? params[k] : d);
    const name = get("set", DOUBLE_SIX.name);
    const seats = params.seats;
    const ts = tileSetNamed(name);
    const round = get("round", ts ? ts.maxPip : null);
    const long = get("long", false);
    const after = get("after", "");
    const first = get("first", -1);
    const problem = paramsProblem(name, seats, round, long) || linkProblem(after)
      || longOnlyProblem(after, first, seats, long);
    if (problem) throw new EncodingError("rules/params", problem);
    return new MineshaftRules({ seats, set: name, round, long: long === true, after, first });
  }

  get name() { return NAME; }

  get params() {
    return { set: this.set, seats: this.seats, round: this.round, long: this.long,
      after: this.after, first: this.first };
  }

  get tileSet() { return tileSetNamed(this.set); }

  get hub() { return [this.round, this.round]; }

  get deal() {
    return new DealPlan({ seats: this.seats, handSize: HAND_SIZE, hidden: 0, onTable: [this.hub] });
  }

  /**
   * The rules of the next round: null in a short game and after the 0-0 round. Its
   * `after` is left empty: only the match knows the link (spec/11-verify.md 11.5).
   */
  nextRules() {
    const nxt = this.long ? nextRound(this.round) : null;
    return nxt === null ? null : new MineshaftRules({ ...this, round: nxt, after: "" });
  }

  /** The drawn seat, or in a long game's later rounds the first round's (D19). */
  firstPlayer(drawn) { return this.first === -1 ? drawn : this.first; }

  initialState(firstPlayer) {
    return initialState(this.tileSet, this.seats, this.round, firstPlayer);
  }

  toMove(state) { return state.finished ? null : state.turn; }

  legalMoves(state, hand) { return legalMoves(state, hand); }

  apply(state, seat, move) { return apply(state, seat, move); }

  /** Whether `move` takes the next pile position into the mover's hand. */
  draws(move) { return move instanceof Draw; }

  mustPlayIfAble(state, seat, move) { return mustPlayIfAble(state, seat, move); }

  /** The tiles face up, in canonical order (the Python's frozenset). */
  tableTiles(state) { return state.table(); }

  isOver(state) { return state.finished !== null; }

  stateToJson(state) { return state.toJson(); }

  stateFromJson(obj) {
    if (!isMapping(obj)) throw new EncodingError("rules/state-json", "a Mineshaft state is a JSON object");
    const state = MineshaftState.fromJson(obj);
    if (state.tileSet.name !== this.set || state.seats !== this.seats || state.hub !== this.round) {
      throw new EncodingError("rules/state-json", "the state is not of these parameters");
    }
    return state;
  }

  outcome(state, hands, hidden) { return outcome(state, hands, hidden); }

  playedTile(move) { return move instanceof Play ? move.tile : null; }

  moveId(move) { return moveId(this.tileSet, move); }

  moveFromId(id) { return moveFromId(this.tileSet, id); }

  moveText(move) { return moveText(this.tileSet, move); }

  parseMove(text) { return parseMove(this.tileSet, text); }
}
