/**
 * Domino sets and the message point of each tile (spec/05-deck.md 5.1); mirrors
 * protocol/tiles.py.
 *
 * A tile is a normalised pair [low, high] (an array of two Numbers) with
 * 0 <= low <= high <= max pip. Its message point is M_t = H2P(TILE, set name,
 * bytes([low, high])): nobody knows a discrete-log relation between tile points, and
 * they decode back by table lookup.
 * @module protocol/tiles
 */
import { DeckError, LocalError } from "./errors.js";
import { toHex } from "./groups/base.js";
import { Tag } from "./tags.js";

/** @typedef {[number, number]} Tile */

/**
 * The normalised tile with ends a and b.
 * @param {number} a
 * @param {number} b
 * @returns {Tile}
 */
export function tile(a, b) {
  return a <= b ? [a, b] : [b, a];
}

/** "low-high". @param {Tile} t @returns {string} */
export function tileText(t) {
  return `${t[0]}-${t[1]}`;
}

const NUMBER = /^(0|[1-9][0-9]*)$/;

/**
 * Inverse of tileText; accepts either order ("6-3" is "3-6") and nothing else: two ASCII
 * decimal numbers without leading zeros, so every port reads the same texts
 * (spec/10-session.md 10.3). LocalError `tile/syntax` otherwise.
 * @param {string} text
 * @returns {Tile}
 */
export function parseTile(text) {
  const parts = String(text).split("-");
  if (parts.length !== 2 || !parts.every((p) => NUMBER.test(p))) {
    throw new LocalError("tile/syntax", `${JSON.stringify(text)} is not a tile like '3-5'`);
  }
  return tile(Number(parts[0]), Number(parts[1]));
}

/** Per suite, per set: the points in tile order and the tile of each point's hex. */
const POINTS = new WeakMap();

/** A complete double-n set: (n+1)(n+2)/2 tiles in canonical (low, high) order. */
export class TileSet {
  /**
   * @param {string} name
   * @param {number} maxPip
   */
  constructor(name, maxPip) {
    this.name = name;
    this.maxPip = maxPip;
    /** @type {Tile[]} */
    const tiles = [];
    for (let a = 0; a <= maxPip; a++) for (let b = a; b <= maxPip; b++) tiles.push(Object.freeze([a, b]));
    this.tiles = Object.freeze(tiles);
    /** Tile text ("a-b") -> its index in `tiles` (the Python's dict keyed by tile). */
    this.index = new Map(tiles.map((t, i) => [tileText(t), i]));
    Object.freeze(this);
  }

  /** Whether `t` (a normalised [low, high]) is a tile of this set (Python's `in`). */
  has(t) {
    return Array.isArray(t) && t.length === 2 && Number.isInteger(t[0]) && Number.isInteger(t[1])
      && this.index.has(tileText(t));
  }

  /** The index of `t` in `tiles`, or -1. */
  indexOf(t) {
    return this.has(t) ? this.index.get(tileText(t)) : -1;
  }

  /**
   * The message points of the tiles in `suite`, in tile order.
   * @param {import("./suite.js").Suite} suite
   * @returns {import("./groups/base.js").Element[]}
   */
  points(suite) {
    return pointsOf(suite, this).points;
  }

  /**
   * M_t of a tile of this set (LocalError `tile/not-in-set` otherwise).
   * @param {import("./suite.js").Suite} suite
   * @param {Tile} t
   */
  point(suite, t) {
    if (!this.has(t)) {
      throw new LocalError("tile/not-in-set", `${t} is not a tile of the ${this.name} set`);
    }
    return this.points(suite)[this.index.get(tileText(t))];
  }

  /**
   * The tile whose message point is `pt`, or DeckError `deck/not-a-tile`.
   * @param {import("./suite.js").Suite} suite
   * @param {import("./groups/base.js").Element} pt
   * @returns {Tile}
   */
  decode(suite, pt) {
    const t = pointsOf(suite, this).byPoint.get(toHex(pt.data));
    if (t === undefined) {
      throw new DeckError("deck/not-a-tile", `the opened point is no tile of the ${this.name} set`);
    }
    return t;
  }
}

/**
 * M_t = H2P(TILE, set name, bytes([low, high])) (5.1).
 * @param {import("./suite.js").Suite} suite
 * @param {TileSet} ts
 * @param {Tile} t
 */
export function tilePoint(suite, ts, t) {
  return suite.hashToPoint(Tag.TILE, new TextEncoder().encode(ts.name), Uint8Array.of(t[0], t[1]));
}

function pointsOf(suite, ts) {
  let bySet = POINTS.get(suite);
  if (bySet === undefined) POINTS.set(suite, bySet = new Map());
  let entry = bySet.get(ts);
  if (entry === undefined) {
    const points = Object.freeze(ts.tiles.map((t) => tilePoint(suite, ts, t)));
    const byPoint = new Map(points.map((p, i) => [toHex(p.data), ts.tiles[i]]));
    bySet.set(ts, entry = { points, byPoint });
  }
  return entry;
}

export const DOUBLE_SIX = new TileSet("double-six", 6);
export const DOUBLE_NINE = new TileSet("double-nine", 9);
export const DOUBLE_TWELVE = new TileSet("double-twelve", 12);
/** Set name -> set. */
export const TILE_SETS = Object.freeze(Object.assign(Object.create(null), {
  [DOUBLE_SIX.name]: DOUBLE_SIX, [DOUBLE_NINE.name]: DOUBLE_NINE, [DOUBLE_TWELVE.name]: DOUBLE_TWELVE,
}));
