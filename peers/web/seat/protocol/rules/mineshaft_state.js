// Mineshaft: targets, moves, their encodings and the public state (spec/rules/mineshaft.md
// sections 2-4). Mirrors protocol/rules/mineshaft_state.py.
//
// The hub (the round's starting double) lies face up from the start. Up to six shafts are
// dug off it, each a line of [inner, outer] tiles. A double played on an open end closes
// that line and strikes a vein: two new lines, its arms a and b (D6). Every place a tile
// can go is a target with a state-free number: the hub, shafts S0..S5, the arms of the vein
// of each double (section 4). `MineshaftState` is only constructible if it passes
// `stateProblem`.

import { EncodingError, LocalError } from "../errors.js";
import { TILE_SETS } from "../tiles.js";
import {
  RuleViolation, hasExactKeys, isMapping, jsonInt, jsonIntPair, jsonList, normTile, sortTiles,
  tileIndex, tileKey,
} from "./base.js";

/** The registry name (section 1). */
export const NAME = "mineshaft";
/** Tiles a seat is dealt (section 2) and the shafts the hub takes (5.1). */
export const HAND_SIZE = 5;
export const SHAFTS = 6;
/** Tiles that explore a vein (section 5.3). */
export const VEIN_DEPTH = 3;
/** Target numbers (section 4): the hub, then S0..S5, then the veins' arms. */
export const HUB = 0;
export const FIRST_ARM = 1 + SHAFTS;
/** Move ids 0 and 1 are pass and draw; plays follow (section 4). */
export const FIRST_PLAY_ID = 2;

/** The tile set called `name`, or undefined (TILE_SETS of protocol/tiles.py). */
export function tileSetNamed(name) {
  if (typeof name !== "string") return undefined;
  return TILE_SETS instanceof Map ? TILE_SETS.get(name)
    : Object.hasOwn(TILE_SETS, name) ? TILE_SETS[name] : undefined;
}

/** The target of shaft S`k` (section 4). */
export function shaftTarget(k) { return 1 + k; }

/** Arm `side` (0 for a, 1 for b) of the vein struck by double-`double`. */
export function armTarget(double, side) { return FIRST_ARM + 2 * double + side; }

/** Targets of a set: the hub, six shafts, two arms per double of the set. */
export function targetCount(ts) { return FIRST_ARM + 2 * (ts.maxPip + 1); }

/** The largest move id of a set (section 4). */
export function maxMoveId(ts) { return FIRST_PLAY_ID + targetCount(ts) * ts.tiles.length - 1; }

/** The vein double and arm side of a target at or past FIRST_ARM (Python's divmod). */
function armOf(target) {
  const d = target - FIRST_ARM;
  return [Math.floor(d / 2), ((d % 2) + 2) % 2];
}

/** "H", "S0".."S5", or "V<double>a" / "V<double>b". */
export function targetText(target) {
  if (target === HUB) return "H";
  if (target < FIRST_ARM) return `S${target - 1}`;
  const [double, side] = armOf(target);
  return `V${double}${"ab"[side]}`;
}

// -- moves (section 4) ---------------------------------------------------------------

/** End the turn without a play: after a draw that did not match, or with the pile empty. */
export class Pass { constructor() { Object.freeze(this); } }

/** Take the top tile of the rubble pile (once a turn, only without a legal play). */
export class Draw { constructor() { Object.freeze(this); } }

/** Largest target number of any set (double-twelve): validated per set by `apply`. */
const MAX_TARGET = FIRST_ARM + 2 * 13 - 1;

/** Put `tile` (normalised [low, high]) on `target`: the hub, a shaft or a vein arm. */
export class Play {
  constructor(tile, target) {
    const t = tile;
    if (!(Array.isArray(t) && t.length === 2 && t.every((x) => Number.isInteger(x) && x >= 0)
          && t[0] <= t[1])) {
      throw new LocalError("rules/bad-move", `${String(t)} is not a normalised (low, high) tile`);
    }
    if (!Number.isInteger(target) || target < 0 || target > MAX_TARGET) {
      throw new LocalError("rules/bad-move", `${String(target)} is not a target 0..${MAX_TARGET}`);
    }
    this.tile = Object.freeze([t[0], t[1]]);
    this.target = target;
    Object.freeze(this);
  }
}

/** The one value of each move without a tile. */
export const PASS = new Pass();
export const DRAW = new Draw();

/** 0 pass, 1 draw; 2 + targets * index(tile) + target for a play (section 4). */
export function moveId(ts, move) {
  if (move instanceof Pass) return 0;
  if (move instanceof Draw) return 1;
  if (!(move instanceof Play)) throw new LocalError("rules/bad-move", "not a Mineshaft move");
  const index = tileIndex(ts, move.tile);
  if (index === null) throw new RuleViolation("rules/not-in-set", `${move.tile} is not a ${ts.name} tile`);
  if (move.target >= targetCount(ts)) {
    throw new RuleViolation("rules/no-such-target", `${targetText(move.target)}: not in ${ts.name}`);
  }
  return FIRST_PLAY_ID + targetCount(ts) * index + move.target;
}

/** Inverse of moveId; EncodingError (rules/move-id) outside 0..maxMoveId(ts). */
export function moveFromId(ts, value) {
  const top = maxMoveId(ts);
  if (!Number.isInteger(value) || value < 0 || value > top) {
    throw new EncodingError("rules/move-id", `${String(value)} is not a move id in 0..${top}`);
  }
  if (value < FIRST_PLAY_ID) return value ? DRAW : PASS;
  const rest = value - FIRST_PLAY_ID;
  const n = targetCount(ts);
  return new Play(ts.tiles[Math.floor(rest / n)], rest % n);
}

/** "pass", "draw", or "low-high>T" with T as in `targetText` (section 4). */
export function moveText(ts, move) {
  if (move instanceof Pass) return "pass";
  if (move instanceof Draw) return "draw";
  moveId(ts, move); // refuse to name a tile or target outside the set
  return `${move.tile[0]}-${move.tile[1]}>${targetText(move.target)}`;
}

// ASCII digits only and no leading zeros, so every move has exactly one text.
const NUM = "(0|[1-9][0-9]?)";
const PLAY_TEXT = new RegExp(`^${NUM}-${NUM}>(?:(H)|S([0-5])|V${NUM}([ab]))$`);

/** Inverse of moveText; EncodingError (rules/move-text) for anything but the canonical text. */
export function parseMove(ts, text) {
  if (typeof text !== "string") {
    throw new EncodingError("rules/move-text", `${String(text)} is not a string`);
  }
  if (text === "pass") return PASS;
  if (text === "draw") return DRAW;
  const m = PLAY_TEXT.exec(text);
  if (m === null) {
    throw new EncodingError("rules/move-text", `'${text}' is not 'pass', 'draw' or like '3-5>S2'`);
  }
  const t = [Number(m[1]), Number(m[2])];
  if (t[0] > t[1] || tileIndex(ts, t) === null) {
    throw new EncodingError("rules/move-text", `'${text}': write a ${ts.name} tile low-high`);
  }
  if (m[3]) return new Play(t, HUB);
  if (m[4]) return new Play(t, shaftTarget(Number(m[4])));
  if (Number(m[5]) > ts.maxPip) {
    throw new EncodingError("rules/move-text", `'${text}': ${ts.name} has no double-${m[5]}`);
  }
  return new Play(t, armTarget(Number(m[5]), "ab".indexOf(m[6])));
}

// -- the public state (section 3) ----------------------------------------------------

/** A line ends for good in a double: that double struck a vein (D6). */
export function closed(line) {
  return line.length > 0 && line[line.length - 1][0] === line[line.length - 1][1];
}

const freezeLine = (ln) => Object.freeze(ln.map((p) => Object.freeze([p[0], p[1]])));

/** The vein struck by double-`double`: its two `arms`, growing away from the double. */
export class Vein {
  constructor(double, arms) {
    this.double = double;
    this.arms = Object.freeze([freezeLine(arms[0]), freezeLine(arms[1])]);
    Object.freeze(this);
  }

  /** Tiles played on the vein (on either arm), the double not counted. */
  get tiles() { return this.arms[0].length + this.arms[1].length; }
}

const KEYS = ["set", "hub", "shafts", "veins", "hand_counts", "boneyard", "turn",
  "first_player", "phase", "passes", "finished"];

/**
 * The public state of one round (section 3); never a hand. Fields: tileSet, hub, shafts
 * (in the order dug, each from the hub outwards), veins (in the order struck), handCounts,
 * boneyard (tiles left in the rubble pile), turn, firstPlayer, phase ("play" or "drawn"),
 * passes (in a row with the pile empty), finished.
 */
export class MineshaftState {
  #tableKeys = null;

  constructor({ tileSet, hub, shafts, veins, handCounts, boneyard, turn, firstPlayer, phase,
    passes, finished }) {
    this.tileSet = tileSet;
    this.hub = hub;
    this.shafts = Object.freeze(shafts.map(freezeLine));
    this.veins = Object.freeze(veins.map((v) => (v instanceof Vein ? v : new Vein(v.double, v.arms))));
    this.handCounts = Object.freeze([...handCounts]);
    this.boneyard = boneyard;
    this.turn = turn;
    this.firstPlayer = firstPlayer;
    this.phase = phase;
    this.passes = passes;
    this.finished = finished;
    const problem = stateProblem(this);
    if (problem) throw new LocalError("rules/bad-state", problem);
    Object.freeze(this);
  }

  get seats() { return this.handCounts.length; }

  /** The line at `target`, or null if that shaft is not dug or that vein not struck. */
  line(target) {
    if (target > HUB && target < FIRST_ARM) {
      return target - 1 < this.shafts.length ? this.shafts[target - 1] : null;
    }
    const [double, side] = armOf(target);
    const vein = this.veins.find((v) => v.double === double);
    return vein === undefined ? null : vein.arms[side];
  }

  /** The number a tile played on `target` must show. */
  openEnd(target) {
    if (target === HUB) return this.hub;
    const line = this.line(target);
    if (line === null) throw new LocalError("rules/bad-target", `${targetText(target)} is not on the table`);
    if (line.length) return line[line.length - 1][1];
    return target < FIRST_ARM ? this.hub : armOf(target)[0];
  }

  /** The vein being explored: the newest, until it holds three tiles (D7), or null. */
  get exploring() {
    const last = this.veins[this.veins.length - 1];
    return last !== undefined && last.tiles < VEIN_DEPTH ? last : null;
  }

  /** The targets a tile may go on now, ascending (section 5). */
  openTargets() {
    if (this.shafts.length < SHAFTS) return [HUB];
    const vein = this.exploring;
    if (vein !== null) return [armTarget(vein.double, 0), armTarget(vein.double, 1)];
    const shafts = [];
    this.shafts.forEach((ln, k) => { if (!closed(ln)) shafts.push(shaftTarget(k)); });
    const arms = [];
    for (const v of this.veins) for (const s of [0, 1]) if (!closed(v.arms[s])) arms.push(armTarget(v.double, s));
    return [...shafts, ...arms.sort((a, b) => a - b)];
  }

  /** The keys (base.tileKey) of every tile face up: the hub, the shafts, the veins' arms. */
  tableKeys() {
    if (this.#tableKeys === null) {
      const keys = new Set([tileKey([this.hub, this.hub])]);
      for (const ln of this.lines()) for (const p of ln) keys.add(tileKey(normTile(p[0], p[1])));
      this.#tableKeys = keys;
    }
    return this.#tableKeys;
  }

  /** Every tile face up, in canonical order. */
  table() {
    return sortTiles([...this.tableKeys()].map((k) => [Math.floor(k / 64), k % 64]));
  }

  /** The shafts, then every vein's arms. */
  lines() {
    return [...this.shafts, ...this.veins.flatMap((v) => v.arms)];
  }

  toJson() {
    const line = (ln) => ln.map((p) => [p[0], p[1]]);
    return {
      set: this.tileSet.name, hub: this.hub, shafts: this.shafts.map(line),
      veins: this.veins.map((v) => ({ double: v.double, a: line(v.arms[0]), b: line(v.arms[1]) })),
      hand_counts: [...this.handCounts], boneyard: this.boneyard, turn: this.turn,
      first_player: this.firstPlayer, phase: this.phase, passes: this.passes,
      finished: this.finished,
    };
  }

  /** Inverse of toJson; anything else is an EncodingError (rules/state-json). */
  static fromJson(obj) {
    try {
      if (!hasExactKeys(obj, KEYS)) throw new TypeError("wrong keys");
      const ts = tileSetNamed(obj.set);
      if (ts === undefined) throw new TypeError(`${String(obj.set)} is not a tile set`);
      const { phase, finished } = obj;
      if (!(phase === "play" || phase === "drawn")
          || !(finished === null || finished === "out" || finished === "blocked")) {
        throw new TypeError("bad phase or finished");
      }
      return new MineshaftState({
        tileSet: ts, hub: jsonInt(obj.hub), shafts: jsonList(obj.shafts).map(jsonLine),
        veins: jsonList(obj.veins).map(jsonVein),
        handCounts: jsonList(obj.hand_counts).map(jsonInt), boneyard: jsonInt(obj.boneyard),
        turn: jsonInt(obj.turn), firstPlayer: jsonInt(obj.first_player), phase,
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

function jsonLine(x) {
  return jsonList(x).map(jsonIntPair);
}

function jsonVein(x) {
  if (!isMapping(x) || !hasExactKeys(x, ["double", "a", "b"])) throw new TypeError("not a vein object");
  return new Vein(jsonInt(x.double), [jsonLine(x.a), jsonLine(x.b)]);
}

/** Section 2 (D3): the pile keeps a quarter of the shuffled tiles; 8 seats at most. */
export function maxSeats(ts) {
  const deck = ts.tiles.length - 1;
  let best = -Infinity;
  for (let k = 2; k <= 8; k += 1) if (4 * (deck - HAND_SIZE * k) >= deck) best = k;
  return best;
}

/** The rubble pile after the deal: the set minus the hub and the hands (section 2). */
export function initialBoneyard(ts, seats) {
  return ts.tiles.length - 1 - HAND_SIZE * seats;
}

const inRange = (x, n) => Number.isInteger(x) && x >= 0 && x < n;

/** Why `s` could not arise from play (section 3's checks), or null. */
function stateProblem(s) {
  const ts = s.tileSet;
  const k = s.seats;
  if (!ts || tileSetNamed(ts.name) !== ts) return "the tile set is double-six, double-nine or double-twelve";
  if (!(k >= 2 && k <= maxSeats(ts)) || !inRange(s.hub, ts.maxPip + 1)) {
    return `2..${maxSeats(ts)} seats and a hub that is a double of the set`;
  }
  const problem = layoutProblem(s);
  if (problem) return problem;
  if (!inRange(s.turn, k) || !inRange(s.firstPlayer, k)) return "turn and first player are seats";
  const initial = initialBoneyard(ts, k);
  if (Math.min(...s.handCounts) < 0 || !(s.boneyard >= 0 && s.boneyard <= initial)) {
    return "counts are >= 0 and the pile only shrinks from its deal";
  }
  if (s.handCounts.reduce((a, b) => a + b, 0) + s.boneyard + s.tableKeys().size !== ts.tiles.length) {
    return "every tile is in a hand, the pile or on the table";
  }
  const out = Math.min(...s.handCounts) === 0;
  if (s.phase === "drawn" && (out || s.passes || s.boneyard === initial)) {
    return "a seat that just drew has tiles, and someone has drawn";
  }
  if (!(s.passes >= 0 && s.passes <= k) || (s.passes && s.boneyard) || (out && s.passes)) {
    return "passes count only with the pile empty, at most one a seat";
  }
  const expected = out ? "out" : s.passes === k ? "blocked" : null;
  if (s.finished !== expected) {
    return `finished=${s.finished} does not follow from the counts and passes`;
  }
  return null;
}

function layoutProblem(s) {
  const seen = new Set([tileKey([s.hub, s.hub])]);
  const starts = [...s.shafts.map((ln) => [s.hub, ln]),
    ...s.veins.flatMap((v) => v.arms.map((a) => [v.double, a]))];
  for (const [start, line] of starts) {
    let end = start;
    for (let i = 0; i < line.length; i += 1) {
      const [a, b] = line[i];
      const t = normTile(a, b);
      if (tileIndex(s.tileSet, t) === null || a !== end || seen.has(tileKey(t))
          || (a === b && i !== line.length - 1)) {
        return "each line is a run of distinct set tiles, a double only at its end";
      }
      seen.add(tileKey(t));
      end = b;
    }
  }
  if (s.shafts.length > SHAFTS || !s.shafts.every((ln) => ln.length)) {
    return "at most six shafts, each with a tile";
  }
  if (s.shafts.length < SHAFTS && (s.veins.length || s.shafts.some((ln) => ln.length !== 1))) {
    return "until six shafts are dug, tiles go on the hub only";
  }
  const ends = starts.filter(([, ln]) => closed(ln)).map(([, ln]) => ln[ln.length - 1][0])
    .sort((a, b) => a - b);
  const doubles = s.veins.map((v) => v.double).sort((a, b) => a - b);
  if (ends.length !== doubles.length || ends.some((e, i) => e !== doubles[i])) {
    return "each double on the table struck exactly one vein";
  }
  for (let i = 1; i < s.veins.length; i += 1) {
    const older = s.veins[i - 1];
    const newer = s.veins[i];
    // A vein left with fewer than three tiles was cut short by a double on its own arm.
    if (older.tiles < VEIN_DEPTH
        && !older.arms.some((a) => closed(a) && a[a.length - 1][0] === newer.double)) {
      return `the vein of ${older.double}-${older.double} was not explored`;
    }
  }
  return null;
}
