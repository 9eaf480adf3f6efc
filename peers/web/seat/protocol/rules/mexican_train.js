// Mexican Train, one round, as pure functions (spec/rules/mexican-train.md). Mirrors
// protocol/rules/mexican_train.py.
//
// The engine search (5.1) starts at the session's first player: in seat order each seat
// opens with the engine or declares it does not hold it; after a full lap the seats draw in
// turn until one can open. A first turn (5.2) plays as many tiles as it can on the seat's
// own train; later turns are one tile (two after a double, 5.3). A seat that cannot play
// draws once, may play what it can, and otherwise passes, putting its marker down. Every
// draw, pass and declaration asserts "I have no legal play": `mustPlayIfAble` tells the
// session which moves need a proof, and mexican_train_match.forbiddenTiles the set it is
// against. `apply` is in mexican_train_turns.js.

import { EncodingError, LocalError } from "../errors.js";
import {
  DealPlan, RuleViolation, isMapping, linkProblem, lowestPipsOutcome, sortTiles, tileIndex,
  tileKey,
} from "./base.js";
import {
  DRAW, Draw, MAX_SEATS, MIN_SEATS, MexicanState, NAME, NOT_HOLDING, PASS, Play, SET_SIZE,
  TILE_SET, handSize, moveFromId, moveId, moveText, parseMove,
} from "./mexican_train_state.js";
import { apply, openTrains } from "./mexican_train_turns.js";

export { apply };

/** The engine doubles of a 13-round match, in order (section 8). */
export const MATCH_ROUNDS = Object.freeze([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

/** Hands dealt, nothing on the table, the engine search starting at `firstPlayer` (3). */
export function initialState(seats, engine, mexicanTrain, firstPlayer) {
  if (!Number.isInteger(firstPlayer) || firstPlayer < 0 || firstPlayer >= seats) {
    throw new LocalError("rules/first-player", `seat ${String(firstPlayer)} is not in 0..${seats - 1}`);
  }
  const size = handSize(seats);
  const fill = (v) => Array(seats).fill(v);
  return new MexicanState({
    engine, trains: fill([]), mexican: mexicanTrain ? [] : null, markers: fill(false),
    pending: null, handCounts: fill(size), boneyard: SET_SIZE - seats * size,
    turn: firstPlayer, firstPlayer, phase: "declare", drawn: false, owes: true,
    firstDone: fill(false), stalled: 0, finished: null,
  });
}

/**
 * Every legal move of the seat to move holding `hand`, in id order (section 6). Play is
 * forced: a draw, pass or declaration is legal only without a play. `hand` may be part of
 * the hand; its plays are then the union of its tiles' plays (the forbidden set, 6.1).
 */
export function legalMoves(state, hand) {
  if (state.finished !== null) return [];
  checkHand(state, hand);
  const seat = state.turn;
  if (state.phase !== "play") {
    if (state.phase === "search" && !state.drawn) return state.boneyard ? [DRAW] : [];
    const holds = [...hand].some((t) => t[0] === state.engine && t[1] === state.engine);
    return holds ? [new Play([state.engine, state.engine], seat)] : [NOT_HOLDING];
  }
  const trains = openTrains(state, seat);
  const plays = [];
  for (const t of sortTiles(hand)) {
    for (const x of trains) {
      const end = state.openEnd(x);
      if (t[0] === end || t[1] === end) plays.push(new Play(t, x));
    }
  }
  if (plays.length) return plays;
  return state.owes && !state.drawn && state.boneyard ? [DRAW] : [PASS];
}

function checkHand(state, hand) {
  const tiles = [...hand];
  const keys = new Set();
  for (const t of tiles) {
    if (tileIndex(TILE_SET, t) === null) {
      throw new LocalError("rules/bad-hand", "a hand is distinct tiles of the double-twelve set");
    }
    keys.add(tileKey(t));
  }
  if (keys.size !== tiles.length) {
    throw new LocalError("rules/bad-hand", "a hand is distinct tiles of the double-twelve set");
  }
  const table = state.tableKeys();
  if ([...keys].some((k) => table.has(k)) || keys.size > state.handCounts[state.turn]) {
    throw new LocalError("rules/bad-hand",
      `seat ${state.turn} holds ${state.handCounts[state.turn]} unplayed tiles`);
  }
}

/**
 * Whether `move` asserts that `seat` has no legal play (section 6.1): every draw, pass and
 * not-holding does, except the draw that starts a turn of the engine search, where no play
 * is legal whatever the hand.
 */
export function mustPlayIfAble(state, seat, move) {
  if (move instanceof Play) return false;
  return !(state.phase === "search" && !state.drawn);
}

/** Penalties, winner and margin of a finished round (section 8.1). */
export function outcome(state, hands, hidden) {
  if (state.finished === null) throw new LocalError("rules/not-over", "the round is still on");
  checkReveal(state, hands, hidden);
  return lowestPipsOutcome(state.finished, state.handCounts, hands.map((h) => [...h]));
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
  const valid = seen.every((t) => tileIndex(TILE_SET, t) !== null);
  if (!valid || new Set(seen.map(tileKey)).size !== seen.length
      || seen.some((t) => table.has(tileKey(t)))) {
    throw new RuleViolation("rules/reveal-mismatch",
      "hands hold distinct double-twelve tiles that are not on the table");
  }
}

function paramsProblem(seats, round, mexicanTrain) {
  if (!Number.isInteger(seats) || seats < MIN_SEATS || seats > MAX_SEATS) {
    return `seats is an integer in ${MIN_SEATS}..${MAX_SEATS}`;
  }
  if (!Number.isInteger(round) || !MATCH_ROUNDS.includes(round)) {
    return `round is the engine double's number, an integer in 0..${TILE_SET.maxPip}`;
  }
  if (typeof mexicanTrain !== "boolean") return "mexican_train is a boolean";
  return null;
}

/**
 * One round of Mexican Train as a rule set (section 2): `seats`, `round` (the engine
 * double's number, 12 in a match's first round, then down to 0), `mexicanTrain` (the
 * public train) and `after` (the previous round of the match as the hex of its last frame
 * hash, or "").
 */
export class MexicanTrainRules {
  constructor({ seats, round = 12, mexicanTrain = false, after = "" }) {
    const problem = paramsProblem(seats, round, mexicanTrain) || linkProblem(after);
    if (problem) throw new LocalError("rules/params", problem);
    this.seats = seats;
    this.round = round;
    this.mexicanTrain = mexicanTrain;
    this.after = after;
    Object.freeze(this);
  }

  /** Rebuild from `params`; seats is required, unknown keys are refused (rules/params). */
  static fromParams(params) {
    const known = ["seats", "round", "mexican_train", "after"];
    const unknown = Object.keys(params).filter((k) => !known.includes(k));
    if (unknown.length) {
      throw new EncodingError("rules/params", `unknown parameters ${JSON.stringify(unknown.sort())}`);
    }
    if (!Object.hasOwn(params, "seats")) throw new EncodingError("rules/params", "seats is required");
    const get = (k, d) => (Object.hasOwn(params, k) ? params[k] : d);
    const seats = params.seats;
    const round = get("round", TILE_SET.maxPip);
    const mexican = get("mexican_train", false);
    const after = get("after", "");
    const problem = paramsProblem(seats, round, mexican) || linkProblem(after);
    if (problem) throw new EncodingError("rules/params", problem);
    return new MexicanTrainRules({ seats, round, mexicanTrain: mexican === true, after });
  }

  get name() { return NAME; }

  get params() {
    return { seats: this.seats, round: this.round, mexican_train: this.mexicanTrain,
      after: this.after };
  }

  get tileSet() { return TILE_SET; }

  get engine() { return [this.round, this.round]; }

  get deal() {
    return new DealPlan({ seats: this.seats, handSize: handSize(this.seats), hidden: 0, onTable: [] });
  }

  firstPlayer(drawn) { return drawn; }

  initialState(firstPlayer) {
    return initialState(this.seats, this.round, this.mexicanTrain, firstPlayer);
  }

  toMove(state) { return state.finished ? null : state.turn; }

  legalMoves(state, hand) { return legalMoves(state, hand); }

  apply(state, seat, move) { return apply(state, seat, move); }

  mustPlayIfAble(state, seat, move) { return mustPlayIfAble(state, seat, move); }

  /** Whether `move` takes the next boneyard tile into the mover's hand. */
  draws(move) { return move instanceof Draw; }

  /** The tiles face up, in canonical order (the Python's frozenset). */
  tableTiles(state) { return state.table(); }

  isOver(state) { return state.finished !== null; }

  stateToJson(state) { return state.toJson(); }

  stateFromJson(obj) {
    if (!isMapping(obj)) {
      throw new EncodingError("rules/state-json", "a Mexican Train state is a JSON object");
    }
    const state = MexicanState.fromJson(obj);
    if (state.seats !== this.seats || state.engine !== this.round
        || (state.mexican !== null) !== this.mexicanTrain) {
      throw new EncodingError("rules/state-json", "the state is not of these parameters");
    }
    return state;
  }

  outcome(state, hands, hidden) { return outcome(state, hands, hidden); }

  playedTile(move) { return move instanceof Play ? move.tile : null; }

  moveId(move) { return moveId(move); }

  moveFromId(id) { return moveFromId(id); }

  moveText(move) { return moveText(move); }

  parseMove(text) { return parseMove(text); }
}
