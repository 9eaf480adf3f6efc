// Bram Cohen's two-player dominoes as pure functions (spec/rules/bram.md sections 1, 2 and
// 5-8). Mirrors protocol/rules/bram.py.
//
// The double-six starts the line; the other 27 tiles are shuffled, one stays hidden until
// the end and 13 go to each seat (section 2). Hands never enter the state: `legalMoves`
// and `outcome` take them as arguments, and `apply` judges a move from public information
// only (section 6). That a played tile was in the mover's hand is the session's to prove.

import { EncodingError, LocalError } from "../errors.js";
import {
  DealPlan, Outcome, RuleViolation, isMapping, replace, sortTiles, tileIndex, tileKey, tileStr,
} from "./base.js";
import {
  BramState, End, HAND_SIZE, NAME, PASS, Pass, Play, SEATS, START_TILE, TILE_SET,
  moveFromId, moveId, moveText, parseMove,
} from "./bram_state.js";

/** The deal of section 2: 2 seats, 13 tiles each, 1 hidden, 6-6 on the table. */
export const DEAL = new DealPlan({ seats: SEATS, handSize: HAND_SIZE, hidden: 1,
  onTable: [START_TILE] });
/** 2 * 168, every pip of the set: a larger komi would decide every blocked hand alone. */
export const KOMI_LIMIT_HALVES = 336;
/** Komi when the setup names none: 1.5 pips, measured (section 11, D15). */
export const DEFAULT_KOMI_HALVES = 3;
/** No hand lasts longer (section 7). */
export const MAX_MOVES = 50;

/** The double-six alone on the table, 13 tiles a seat, `firstPlayer` to move (section 3). */
export function initialState(firstPlayer) {
  if (firstPlayer !== 0 && firstPlayer !== 1) {
    throw new LocalError("rules/first-player", `seat ${String(firstPlayer)} is not 0 or 1`);
  }
  return new BramState({ line: [START_TILE], played: [START_TILE],
    handCounts: [HAND_SIZE, HAND_SIZE], turn: firstPlayer, firstPlayer, passes: 0,
    finished: null });
}

/**
 * Pass, then every placement of a tile of `hand`, in move-id order (section 5). With equal
 * open ends a fitting tile yields one move, on the right end.
 */
export function legalMoves(state, hand) {
  if (state.finished !== null) return [];
  checkHand(state, hand);
  const [left, right] = state.ends;
  const moves = [PASS];
  for (const t of sortTiles(hand)) {
    if ((t[0] === left || t[1] === left) && left !== right) moves.push(new Play(t, End.LEFT));
    if (t[0] === right || t[1] === right) moves.push(new Play(t, End.RIGHT));
  }
  return moves;
}

function checkHand(state, hand) {
  const tiles = [...hand];
  const keys = new Set();
  for (const t of tiles) {
    if (tileIndex(TILE_SET, t) === null) {
      throw new LocalError("rules/bad-hand", "a hand is distinct tiles of the double-six set");
    }
    keys.add(tileKey(t));
  }
  if (keys.size !== tiles.length) {
    throw new LocalError("rules/bad-hand", "a hand is distinct tiles of the double-six set");
  }
  const played = new Set(state.played.map(tileKey));
  if ([...keys].some((k) => played.has(k)) || keys.size !== state.handCounts[state.turn]) {
    throw new LocalError("rules/bad-hand",
      `seat ${state.turn} holds ${state.handCounts[state.turn]} unplayed tiles`);
  }
}

/**
 * The state after `seat` makes `move` (section 6), or RuleViolation. Checks run in the
 * order of section 6 so every implementation reports the same code.
 */
export function apply(state, seat, move) {
  if (state.finished !== null) {
    throw new RuleViolation("rules/game-over", `the hand is over (${state.finished})`, seat);
  }
  if (seat !== state.turn) {
    throw new RuleViolation("rules/not-your-turn", `seat ${state.turn} is to move`, seat);
  }
  if (move instanceof Pass) {
    const passes = state.passes + 1;
    return replace(state, { turn: 1 - seat, passes, finished: passes === 2 ? "blocked" : null });
  }
  if (!(move instanceof Play)) throw new LocalError("rules/bad-move", "not a Bram move");
  const line = extend(state, move, seat);
  const counts = state.handCounts.map((c, s) => c - (s === seat ? 1 : 0));
  return new BramState({ line, played: [...state.played, move.tile], handCounts: counts,
    turn: 1 - seat, firstPlayer: state.firstPlayer, passes: 0,
    finished: counts[seat] === 0 ? "out" : null });
}

function extend(state, move, seat) {
  const t = move.tile;
  const text = `${tileStr(t)}>${move.end}`;
  if (tileIndex(TILE_SET, t) === null) {
    throw new RuleViolation("rules/not-in-set", `${text} is not a double-six tile`, seat);
  }
  if (state.played.some((p) => p[0] === t[0] && p[1] === t[1])) {
    throw new RuleViolation("rules/tile-already-played", `${text}: already in the line`, seat);
  }
  const [left, right] = state.ends;
  const pip = move.end === End.LEFT ? left : right;
  if (t[0] !== pip && t[1] !== pip) {
    throw new RuleViolation("rules/tile-does-not-match", `${text}: that end shows ${pip}`, seat);
  }
  if (move.end === End.LEFT && left === right) {
    // Both placements give mirror-image lines, so only one is a move.
    throw new RuleViolation("rules/non-canonical-end",
      `${text}: both ends show ${pip}; play it on R`, seat);
  }
  const [a, b] = t;
  if (move.end === End.LEFT) return [b === pip ? [a, b] : [b, a], ...state.line];
  return [...state.line, a === pip ? [a, b] : [b, a]];
}

/** Whether the hand has ended, out or blocked (section 7). */
export function isOver(state) {
  return state.finished !== null;
}

/**
 * Winner, pips and margin of a finished hand (section 8). `hands` and `hidden` are the
 * revealed tiles; they must account for every tile not in the line, in the numbers the
 * public state says (else RuleViolation rules/reveal-mismatch).
 */
export function outcome(state, hands, hidden, komiHalves = 0) {
  if (state.finished === null) throw new LocalError("rules/not-over", "the hand is still on");
  const problem = komiProblem(komiHalves);
  if (problem) throw new LocalError("rules/params", problem);
  checkReveal(state, hands, hidden);
  const pips = hands.map((h) => [...h].reduce((n, t) => n + t[0] + t[1], 0));
  const totals = pips.map((p, s) => 2 * p + (s === state.firstPlayer ? komiHalves : 0));
  let winner;
  let margin;
  if (state.finished === "out") {
    winner = state.handCounts.indexOf(0);
    // Going out wins outright; komi only weighs in a count of pips.
    margin = 2 * pips[1 - winner];
  } else if (totals[0] === totals[1]) {
    winner = null;
    margin = 0;
  } else {
    winner = totals[0] < totals[1] ? 0 : 1;
    margin = Math.abs(totals[0] - totals[1]);
  }
  return new Outcome({ winner, reason: state.finished, handPips: pips, pipsHalves: totals,
    marginHalves: margin, hidden: sortTiles([...hidden]) });
}

function checkReveal(state, hands, hidden) {
  const groups = [...hands, [...hidden]].map((g) => [...g]);
  const sizes = [...state.handCounts, DEAL.hidden];
  if (groups.length !== sizes.length || groups.some((g, i) => g.length !== sizes[i])) {
    throw new RuleViolation("rules/reveal-mismatch",
      `expected hands of ${state.handCounts} tiles and 1 hidden tile`);
  }
  const seen = [...groups.flat(), ...state.played];
  const all = TILE_SET.tiles;
  const keys = new Set(seen.map((t) => (tileIndex(TILE_SET, t) === null ? `x${t}` : tileKey(t))));
  if (seen.length !== all.length || keys.size !== all.length
      || all.some((t) => !keys.has(tileKey(t)))) {
    throw new RuleViolation("rules/reveal-mismatch",
      "hands, hidden tile and line must hold each tile exactly once");
  }
}

function komiProblem(value) {
  if (!Number.isInteger(value) || Math.abs(value) > KOMI_LIMIT_HALVES) {
    return `komi_halves is an integer in -${KOMI_LIMIT_HALVES}..${KOMI_LIMIT_HALVES}`;
  }
  return null;
}

/**
 * Bram's rules with their one parameter, `komiHalves` (komi in half pips, added to the
 * first player's total), as a rule set (section 1).
 */
export class BramRules {
  constructor({ komiHalves = DEFAULT_KOMI_HALVES } = {}) {
    const problem = komiProblem(komiHalves);
    if (problem) throw new LocalError("rules/params", problem);
    this.komiHalves = komiHalves;
    Object.freeze(this);
  }

  /** Rebuild from `params`; a missing key takes its default, unknown keys are refused. */
  static fromParams(params) {
    const unknown = Object.keys(params).filter((k) => k !== "komi_halves");
    if (unknown.length) {
      throw new EncodingError("rules/params", `unknown parameters ${JSON.stringify(unknown.sort())}`);
    }
    const komi = Object.hasOwn(params, "komi_halves") ? params.komi_halves : DEFAULT_KOMI_HALVES;
    const problem = komiProblem(komi);
    if (problem) throw new EncodingError("rules/params", problem);
    return new BramRules({ komiHalves: komi });
  }

  get name() { return NAME; }

  /** Every parameter, defaults included, so equal rules encode equally. */
  get params() { return { komi_halves: this.komiHalves }; }

  get tileSet() { return TILE_SET; }

  get deal() { return DEAL; }

  firstPlayer(drawn) { return drawn; }

  initialState(firstPlayer) { return initialState(firstPlayer); }

  toMove(state) { return state.finished ? null : state.turn; }

  legalMoves(state, hand) { return legalMoves(state, hand); }

  apply(state, seat, move) { return apply(state, seat, move); }

  isOver(state) { return isOver(state); }

  stateToJson(state) { return state.toJson(); }

  stateFromJson(obj) {
    if (!isMapping(obj)) throw new EncodingError("rules/state-json", "a Bram state is a JSON object");
    return BramState.fromJson(obj);
  }

  outcome(state, hands, hidden) { return outcome(state, hands, hidden, this.komiHalves); }

  playedTile(move) { return move instanceof Pass ? null : move.tile; }

  moveId(move) { return moveId(move); }

  moveFromId(id) { return moveFromId(id); }

  moveText(move) { return moveText(move); }

  parseMove(text) { return parseMove(text); }
}
