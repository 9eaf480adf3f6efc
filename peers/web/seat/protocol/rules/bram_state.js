// Bram's dominoes: moves, their encodings and the public state (spec/rules/bram.md
// sections 2-4). Mirrors protocol/rules/bram_state.py.
//
// `BramState` is what everybody at the table sees (section 3). It is only constructible if
// it could arise from play (`stateProblem`). Moves and their ids and texts are state-free.

import { EncodingError, LocalError } from "../errors.js";
import { DOUBLE_SIX } from "../tiles.js";
import {
  RuleViolation, hasExactKeys, jsonInt, jsonIntPair, jsonList, normTile, tileIndex, tileKey,
} from "./base.js";

/** The registry name (section 1). */
export const NAME = "bram";
/** Seats, hand size, tile set and starting tile of section 2. */
export const SEATS = 2;
export const HAND_SIZE = 13;
export const TILE_SET = DOUBLE_SIX;
export const START_TILE = Object.freeze([6, 6]);
/** Ids run 0 (pass) to 2 * 28 (the double-six on the right end). */
export const MAX_MOVE_ID = 2 * 28;

/** Which end of the line a tile extends (section 4). */
export const End = Object.freeze({ LEFT: "L", RIGHT: "R" });

/** Decline to play; always legal while the hand is on (section 5). */
export class Pass {
  constructor() { Object.freeze(this); }
}

/** Put `tile` (normalised [low, high]) on `end` ("L" or "R") of the line (section 4). */
export class Play {
  constructor(tile, end) {
    const t = tile;
    if (!(Array.isArray(t) && t.length === 2 && t.every((x) => Number.isInteger(x) && x >= 0)
          && t[0] <= t[1])) {
      throw new LocalError("rules/bad-move", `${String(t)} is not a normalised (low, high) tile`);
    }
    if (end !== End.LEFT && end !== End.RIGHT) {
      throw new LocalError("rules/bad-move", `${String(end)} is not an End`);
    }
    this.tile = Object.freeze([t[0], t[1]]);
    this.end = end;
    Object.freeze(this);
  }
}

/** The one Pass value. */
export const PASS = new Pass();

/**
 * The public state of a hand (section 3); never a hand's contents. `line` runs left to
 * right, each tile [left half, right half] as it lies; `played` is every tile in the line
 * (canonical order); `handCounts` per seat; `turn` the seat that owes the next move;
 * `firstPlayer`; `passes` in a row (0, 1, or 2 once blocked); `finished` null, "out" or
 * "blocked".
 */
export class BramState {
  constructor({ line, played, handCounts, turn, firstPlayer, passes, finished }) {
    this.line = Object.freeze(line.map((p) => Object.freeze([p[0], p[1]])));
    this.played = Object.freeze([...played].map((t) => Object.freeze([t[0], t[1]]))
      .sort((x, y) => x[0] - y[0] || x[1] - y[1]));
    this.handCounts = Object.freeze([...handCounts]);
    this.turn = turn;
    this.firstPlayer = firstPlayer;
    this.passes = passes;
    this.finished = finished;
    const problem = stateProblem(this);
    if (problem) throw new LocalError("rules/bad-state", problem);
    Object.freeze(this);
  }

  /** The open numbers [left, right]. */
  get ends() {
    return [this.line[0][0], this.line[this.line.length - 1][1]];
  }

  /** The state as JSON (section 3); `played` is left out because the line determines it. */
  toJson() {
    return {
      line: this.line.map((p) => [p[0], p[1]]), hand_counts: [...this.handCounts],
      turn: this.turn, first_player: this.firstPlayer, passes: this.passes,
      finished: this.finished,
    };
  }

  /** Inverse of toJson; anything else is an EncodingError (rules/state-json). */
  static fromJson(obj) {
    try {
      if (!hasExactKeys(obj, ["line", "hand_counts", "turn", "first_player", "passes",
        "finished"])) {
        throw new TypeError("wrong keys");
      }
      const line = jsonList(obj.line).map(jsonIntPair);
      const counts = jsonList(obj.hand_counts).map(jsonInt);
      const finished = obj.finished;
      if (!(finished === null || finished === "out" || finished === "blocked")) {
        throw new TypeError("bad finished");
      }
      return new BramState({
        line, played: dedupe(line.map((p) => normTile(p[0], p[1]))), handCounts: counts,
        turn: jsonInt(obj.turn), firstPlayer: jsonInt(obj.first_player),
        passes: jsonInt(obj.passes), finished,
      });
    } catch (e) {
      if (e instanceof TypeError || e instanceof LocalError) {
        throw new EncodingError("rules/state-json", e.message);
      }
      throw e;
    }
  }
}

function dedupe(tiles) {
  const seen = new Map();
  for (const t of tiles) seen.set(tileKey(t), t);
  return [...seen.values()];
}

const inPips = (x) => Number.isInteger(x) && x >= 0 && x <= 6;

/** Why `s` could not arise from play under these rules (section 3), or null. */
function stateProblem(s) {
  const counts = s.handCounts;
  if (counts.length !== SEATS || !counts.every((c) => Number.isInteger(c) && c >= 0
      && c <= HAND_SIZE)) {
    return `hand counts ${counts} are not ${SEATS} counts in 0..${HAND_SIZE}`;
  }
  if (![0, 1].includes(s.turn) || ![0, 1].includes(s.firstPlayer)) {
    return "turn and first player are seats 0 or 1";
  }
  if (!s.line.length || s.line.some((p) => !inPips(p[0]) || !inPips(p[1]))) {
    return "the line is a non-empty run of double-six tiles";
  }
  for (let i = 1; i < s.line.length; i += 1) {
    if (s.line[i - 1][1] !== s.line[i][0]) return "neighbours in the line must match";
  }
  const lineKeys = new Set(s.line.map((p) => tileKey(normTile(p[0], p[1]))));
  const playedKeys = new Set(s.played.map(tileKey));
  if (s.played.length !== s.line.length || playedKeys.size !== s.played.length
      || lineKeys.size !== playedKeys.size || [...lineKeys].some((k) => !playedKeys.has(k))) {
    return "played tiles must be exactly the line's tiles, each once";
  }
  if (!playedKeys.has(tileKey(START_TILE))) return "the double-six is always on the table";
  if (counts[0] + counts[1] !== SEATS * HAND_SIZE - (s.line.length - 1)) {
    return "every tile played came from a hand";
  }
  const out = Math.min(...counts) === 0;
  const expected = s.passes === 2 ? "blocked" : out ? "out" : null;
  if (![0, 1, 2].includes(s.passes) || (out && s.passes) || s.finished !== expected) {
    return `finished=${s.finished} does not follow from passes and hand counts`;
  }
  return null;
}

/** 0 for pass; 1 + 2 * (tile index) + (0 for L, 1 for R) for a play (section 4). */
export function moveId(move) {
  if (move instanceof Pass) return 0;
  if (!(move instanceof Play)) throw new LocalError("rules/bad-move", "not a Bram move");
  const index = tileIndex(TILE_SET, move.tile);
  if (index === null) {
    throw new RuleViolation("rules/not-in-set", `${move.tile} is not a double-six tile`);
  }
  return 1 + 2 * index + (move.end === End.RIGHT ? 1 : 0);
}

/** Inverse of moveId; EncodingError (rules/move-id) outside 0..56 or for a non-integer. */
export function moveFromId(value) {
  if (!Number.isInteger(value) || value < 0 || value > MAX_MOVE_ID) {
    throw new EncodingError("rules/move-id", `${String(value)} is not a move id in 0..${MAX_MOVE_ID}`);
  }
  if (value === 0) return PASS;
  const index = Math.floor((value - 1) / 2);
  return new Play(TILE_SET.tiles[index], (value - 1) % 2 ? End.RIGHT : End.LEFT);
}

/** "pass", or "low-high>L" / "low-high>R" (section 4). */
export function moveText(move) {
  if (move instanceof Pass) return "pass";
  moveId(move); // refuse to name a tile outside the set
  return `${move.tile[0]}-${move.tile[1]}>${move.end}`;
}

// ASCII digits only and no leading zeros, so every move has exactly one text.
const PLAY_TEXT = /^(0|[1-9][0-9]?)-(0|[1-9][0-9]?)>([LR])$/;

/** Inverse of moveText; EncodingError (rules/move-text) for anything but the canonical text. */
export function parseMove(text) {
  if (typeof text !== "string") {
    throw new EncodingError("rules/move-text", `${String(text)} is not a string`);
  }
  if (text === "pass") return PASS;
  const m = PLAY_TEXT.exec(text);
  if (m === null) {
    throw new EncodingError("rules/move-text", `'${text}' is not 'pass' or like '3-5>L'`);
  }
  const t = [Number(m[1]), Number(m[2])];
  if (t[0] > t[1] || tileIndex(TILE_SET, t) === null) {
    throw new EncodingError("rules/move-text", `'${text}': write a double-six tile low-high`);
  }
  return new Play(t, m[3]);
}
