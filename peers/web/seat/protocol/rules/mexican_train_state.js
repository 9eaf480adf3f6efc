// Mexican Train: moves, their encodings and the public state (spec/rules/mexican-train.md
// sections 2-4). Mirrors protocol/rules/mexican_train_state.py.
//
// Every seat owns a train that starts at the engine double; the optional public Mexican
// train starts there too. A train is the run of tiles placed on it, each [inner, outer], so
// its open end is the last outer half, or the engine's number while it is empty.
// `MexicanState` is only constructible if it could arise from play (`stateProblem`).

import { EncodingError, LocalError } from "../errors.js";
import { DOUBLE_TWELVE } from "../tiles.js";
import {
  RuleViolation, hasExactKeys, jsonInt, jsonIntPair, jsonList, normTile, sortTiles, tileIndex,
  tileKey,
} from "./base.js";

/** The registry name (section 1). */
export const NAME = "mexican-train";
/** The double-twelve set of section 2, its 91 tiles, and 2..8 seats. */
export const TILE_SET = DOUBLE_TWELVE;
export const SET_SIZE = 91;
export const MIN_SEATS = 2;
export const MAX_SEATS = 8;
/** Train index of the public Mexican train in moves and in `pending`. */
export const MEXICAN = MAX_SEATS;
/** Trains in the move-id scheme of section 4: eight seats and the Mexican train. */
export const TRAINS_PER_ID = MAX_SEATS + 1;
/** Ids run 0..2 (pass, draw, not-holding), then 3 + 9 * index(tile) + train. */
export const FIRST_PLAY_ID = 3;
/** The largest move id (section 4). */
export const MAX_MOVE_ID = FIRST_PLAY_ID + TRAINS_PER_ID * SET_SIZE - 1; // 821
/** The phases of a round (section 3). */
export const PHASES = Object.freeze(["declare", "search", "play"]);

/** Section 2: up to 4 seats take 15 tiles each, 5 or 6 take 12, 7 or 8 take 10. */
export function handSize(seats) {
  return seats <= 4 ? 15 : seats <= 6 ? 12 : 10;
}

// -- moves (section 4) ---------------------------------------------------------------

/** End the turn unable to play; puts the mover's marker down if it owed a tile. */
export class Pass { constructor() { Object.freeze(this); } }

/** Take one tile from the boneyard (once a turn, only when unable to play). */
export class Draw { constructor() { Object.freeze(this); } }

/** Engine search: declare that one's hand does not hold the engine double. */
export class NotHolding { constructor() { Object.freeze(this); } }

/**
 * Put `tile` (normalised [low, high]) on `train`: a seat's index 0..7, or 8, the Mexican
 * train. Opening the round is the engine double played on the opener's own train index.
 */
export class Play {
  constructor(tile, train) {
    const t = tile;
    if (!(Array.isArray(t) && t.length === 2 && t.every((x) => Number.isInteger(x) && x >= 0)
          && t[0] <= t[1])) {
      throw new LocalError("rules/bad-move", `${String(t)} is not a normalised (low, high) tile`);
    }
    if (!Number.isInteger(train) || train < 0 || train > MEXICAN) {
      throw new LocalError("rules/bad-move", `${String(train)} is not a train index 0..8`);
    }
    this.tile = Object.freeze([t[0], t[1]]);
    this.train = train;
    Object.freeze(this);
  }
}

/** The one value of each move without a tile. */
export const PASS = new Pass();
export const DRAW = new Draw();
export const NOT_HOLDING = new NotHolding();
const SIMPLE = [[Pass, PASS, "pass"], [Draw, DRAW, "draw"], [NotHolding, NOT_HOLDING, "not-holding"]];

/** 0 pass, 1 draw, 2 not-holding; 3 + 9 * index(tile) + train for a play (section 4). */
export function moveId(move) {
  for (let i = 0; i < SIMPLE.length; i += 1) if (move instanceof SIMPLE[i][0]) return i;
  if (!(move instanceof Play)) throw new LocalError("rules/bad-move", "not a Mexican Train move");
  const index = tileIndex(TILE_SET, move.tile);
  if (index === null) {
    throw new RuleViolation("rules/not-in-set", `${move.tile} is not a double-twelve tile`);
  }
  return FIRST_PLAY_ID + TRAINS_PER_ID * index + move.train;
}

/** Inverse of moveId; EncodingError (rules/move-id) outside 0..821 or for a non-integer. */
export function moveFromId(value) {
  if (!Number.isInteger(value) || value < 0 || value > MAX_MOVE_ID) {
    throw new EncodingError("rules/move-id", `${String(value)} is not a move id in 0..${MAX_MOVE_ID}`);
  }
  if (value < FIRST_PLAY_ID) return SIMPLE[value][1];
  const rest = value - FIRST_PLAY_ID;
  return new Play(TILE_SET.tiles[Math.floor(rest / TRAINS_PER_ID)], rest % TRAINS_PER_ID);
}

/** "pass", "draw", "not-holding", or "low-high>T" with T a seat 0-7 or M (section 4). */
export function moveText(move) {
  if (!(move instanceof Play)) return SIMPLE[moveId(move)][2];
  moveId(move); // refuse to name a tile outside the set
  return `${move.tile[0]}-${move.tile[1]}>${move.train === MEXICAN ? "M" : move.train}`;
}

// ASCII digits only and no leading zeros, so every move has exactly one text.
const PLAY_TEXT = /^(0|[1-9][0-9]?)-(0|[1-9][0-9]?)>([0-7M])$/;

/** Inverse of moveText; EncodingError (rules/move-text) for anything but the canonical text. */
export function parseMove(text) {
  if (typeof text !== "string") {
    throw new EncodingError("rules/move-text", `${String(text)} is not a string`);
  }
  for (const [, m, name] of SIMPLE) if (text === name) return m;
  const match = PLAY_TEXT.exec(text);
  if (match === null) {
    throw new EncodingError("rules/move-text", `'${text}' is not a move like '3-5>2' or 'draw'`);
  }
  const t = [Number(match[1]), Number(match[2])];
  if (t[0] > t[1] || tileIndex(TILE_SET, t) === null) {
    throw new EncodingError("rules/move-text", `'${text}': write a double-twelve tile low-high`);
  }
  return new Play(t, match[3] === "M" ? MEXICAN : Number(match[3]));
}

// -- the public state (section 3) ----------------------------------------------------

const KEYS = ["engine", "trains", "mexican", "markers", "pending", "hand_counts", "boneyard",
  "turn", "first_player", "phase", "drawn", "owes", "first_done", "stalled", "finished"];

const freezeTrain = (t) => Object.freeze(t.map((p) => Object.freeze([p[0], p[1]])));

/**
 * The public state of one round (section 3); never a hand. Fields as the JSON's, in
 * camelCase: engine, trains, mexican (null when off), markers, pending (a train or null),
 * handCounts, boneyard, turn, firstPlayer, phase, drawn, owes, firstDone, stalled,
 * finished.
 */
export class MexicanState {
  #tableKeys = null;

  constructor({ engine, trains, mexican, markers, pending, handCounts, boneyard, turn,
    firstPlayer, phase, drawn, owes, firstDone, stalled, finished }) {
    this.engine = engine;
    this.trains = Object.freeze(trains.map(freezeTrain));
    this.mexican = mexican === null ? null : freezeTrain(mexican);
    this.markers = Object.freeze([...markers]);
    this.pending = pending;
    this.handCounts = Object.freeze([...handCounts]);
    this.boneyard = boneyard;
    this.turn = turn;
    this.firstPlayer = firstPlayer;
    this.phase = phase;
    this.drawn = drawn;
    this.owes = owes;
    this.firstDone = Object.freeze([...firstDone]);
    this.stalled = stalled;
    this.finished = finished;
    const problem = stateProblem(this);
    if (problem) throw new LocalError("rules/bad-state", problem);
    Object.freeze(this);
  }

  get seats() { return this.trains.length; }

  /** The train `index` (a seat, or MEXICAN). */
  train(index) {
    if (index === MEXICAN) {
      if (this.mexican === null) throw new LocalError("rules/bad-train", "this round has no Mexican train");
      return this.mexican;
    }
    return this.trains[index];
  }

  /** The number a tile played on train `index` must show. */
  openEnd(index) {
    const placed = this.train(index);
    return placed.length ? placed[placed.length - 1][1] : this.engine;
  }

  /** The keys (base.tileKey) of every tile face up: all trains, and the engine once out. */
  tableKeys() {
    if (this.#tableKeys === null) {
      const keys = new Set();
      for (const t of [...this.trains, this.mexican ?? []]) {
        for (const p of t) keys.add(tileKey(normTile(p[0], p[1])));
      }
      if (this.phase === "play") keys.add(tileKey([this.engine, this.engine]));
      this.#tableKeys = keys;
    }
    return this.#tableKeys;
  }

  /** Every tile face up, in canonical order: all trains, and the engine once it is out. */
  table() {
    return sortTiles([...this.tableKeys()].map((k) => [Math.floor(k / 64), k % 64]));
  }

  toJson() {
    const train = (t) => t.map((p) => [p[0], p[1]]);
    return {
      engine: this.engine, trains: this.trains.map(train),
      mexican: this.mexican === null ? null : train(this.mexican),
      markers: [...this.markers], pending: this.pending, hand_counts: [...this.handCounts],
      boneyard: this.boneyard, turn: this.turn, first_player: this.firstPlayer,
      phase: this.phase, drawn: this.drawn, owes: this.owes, first_done: [...this.firstDone],
      stalled: this.stalled, finished: this.finished,
    };
  }

  /** Inverse of toJson; anything else is an EncodingError (rules/state-json). */
  static fromJson(obj) {
    try {
      if (!hasExactKeys(obj, KEYS)) throw new TypeError("wrong keys");
      const { mexican, pending, finished, phase } = obj;
      if (!(finished === null || finished === "out" || finished === "blocked")
          || !PHASES.includes(phase)) {
        throw new TypeError("bad finished or phase");
      }
      return new MexicanState({
        engine: jsonInt(obj.engine), trains: jsonList(obj.trains).map(jsonTrain),
        mexican: mexican === null ? null : jsonTrain(mexican),
        markers: jsonList(obj.markers).map(jsonBool),
        pending: pending === null ? null : jsonInt(pending),
        handCounts: jsonList(obj.hand_counts).map(jsonInt), boneyard: jsonInt(obj.boneyard),
        turn: jsonInt(obj.turn), firstPlayer: jsonInt(obj.first_player), phase,
        drawn: jsonBool(obj.drawn), owes: jsonBool(obj.owes),
        firstDone: jsonList(obj.first_done).map(jsonBool), stalled: jsonInt(obj.stalled),
        finished,
      });
    } catch (e) {
      if (e instanceof TypeError || e instanceof LocalError) {
        throw new EncodingError("rules/state-json", e.message);
      }
      throw e;
    }
  }
}

function jsonBool(x) {
  if (typeof x !== "boolean") throw new TypeError(`${String(x)} is not a boolean`);
  return x;
}

function jsonTrain(x) {
  return jsonList(x).map(jsonIntPair);
}

const inRange = (x, n) => Number.isInteger(x) && x >= 0 && x < n;

/** Why `s` could not arise from play under these rules (section 3), or null. */
function stateProblem(s) {
  const k = s.seats;
  if (!(k >= MIN_SEATS && k <= MAX_SEATS)
      || ![s.markers, s.handCounts, s.firstDone].every((x) => x.length === k)) {
    return `one train, marker, hand count and first-turn flag per seat, 2..${MAX_SEATS}`;
  }
  if (!inRange(s.engine, TILE_SET.maxPip + 1)) return "the engine is a double of the set";
  const problem = trainsProblem(s);
  if (problem) return problem;
  if (!inRange(s.turn, k) || !inRange(s.firstPlayer, k)) return "turn and first player are seats";
  const dealt = k * handSize(k);
  if (Math.min(...s.handCounts) < 0 || !(s.boneyard >= 0 && s.boneyard <= SET_SIZE - dealt)) {
    return "counts are >= 0 and the boneyard only shrinks from its deal";
  }
  if (s.handCounts.reduce((a, b) => a + b, 0) + s.boneyard + s.tableKeys().size !== SET_SIZE) {
    return "every tile is in a hand, the boneyard or on the table";
  }
  if (s.phase !== "play") return searchProblem(s, dealt);
  if (s.pending !== null) {
    if (s.pending !== MEXICAN && !inRange(s.pending, k)) return "pending names a train";
    const placed = s.pending !== MEXICAN || s.mexican !== null ? s.train(s.pending) : [];
    const last = placed[placed.length - 1];
    if (!placed.length || last[0] !== last[1]) return "the pending train ends in a double";
  }
  if (!s.owes && (s.drawn || s.firstDone[s.turn])) {
    return "only a first turn's run, before any draw, owes no tile";
  }
  if (s.stalled && s.boneyard) return "stalled passes need an empty boneyard";
  const out = Math.min(...s.handCounts) === 0;
  const expected = out ? "out" : s.stalled === k ? "blocked" : null;
  if (!(s.stalled >= 0 && s.stalled <= k) || (out && s.stalled) || s.finished !== expected) {
    return `finished=${s.finished} does not follow from the counts and passes`;
  }
  return null;
}

function trainsProblem(s) {
  const seen = new Set();
  for (const placed of [...s.trains, s.mexican ?? []]) {
    let end = s.engine;
    for (const [a, b] of placed) {
      const t = normTile(a, b);
      const key = tileKey(t);
      if (tileIndex(TILE_SET, t) === null || a !== end || seen.has(key)
          || (t[0] === s.engine && t[1] === s.engine)) {
        return "each train is a run of distinct set tiles matching from the engine";
      }
      seen.add(key);
      end = b;
    }
  }
  return null;
}

/** The engine search (phases declare and search): nothing is on the table yet. */
function searchProblem(s, dealt) {
  if (s.tableKeys().size || s.markers.some(Boolean) || s.firstDone.some(Boolean)
      || s.pending !== null) {
    return "before the engine is out nothing is on the table";
  }
  if (s.stalled || s.finished || !s.owes) return "the search neither stalls nor ends the round";
  if (s.phase === "declare" && (s.drawn || s.boneyard !== SET_SIZE - dealt
      || !s.handCounts.every((c) => c === Math.floor(dealt / s.seats)))) {
    return "nobody draws in the first lap of the search";
  }
  return null;
}
