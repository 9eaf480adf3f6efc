// The interface every rule set implements (spec/rules/bram.md sections 1, 2 and 8), the
// two families a session tells apart (spec/10-session.md 10.4 and 10.8), and the helpers
// the rule sets share. Mirrors protocol/rules/base.py.
//
// A rule set is pure game logic: given the public state and, where needed, a hand passed
// in by the caller, it lists legal moves, applies a move or throws, and computes the
// outcome once the hand is over. It never draws randomness and never holds a private hand.
//
// Tiles are `[low, high]` arrays of Numbers. Where the Python has a frozenset of tiles,
// this port gives an array of tiles in the set's canonical order (deterministic, and what
// the Python would give once sorted). Inside, sets of tiles are Sets of `tileKey`s.

import { DealerlessError, LocalError } from "../errors.js";

/**
 * A move or a reveal breaks the rules of the game (spec/rules/bram.md section 6). `seat`
 * names the culprit when the rules know it (the mover for `apply`), else null.
 */
export class RuleViolation extends DealerlessError {
  constructor(code, detail = "", seat = null) {
    super(code, detail);
    this.seat = seat ?? null;
  }
}

/** Whether `x` is an integer (a Number with no fraction, or a BigInt); never a boolean. */
export function isInt(x) {
  return (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint";
}

/** A Number key for a tile, unique for pips below 64: used for sets of tiles. */
export function tileKey(t) {
  return t[0] * 64 + t[1];
}

/** The tile of a `tileKey`. */
export function keyTile(k) {
  return [Math.floor(k / 64), k % 64];
}

/** The normalised tile with ends a and b (protocol/tiles.py `tile`). */
export function normTile(a, b) {
  return a <= b ? [a, b] : [b, a];
}

/** "low-high" (protocol/tiles.py `tile_text`). */
export function tileStr(t) {
  return `${t[0]}-${t[1]}`;
}

/**
 * Whether `t` is a tile of `ts` as the Python's `t in ts` reads it: a normalised pair of
 * integers within the set (spec/05-deck.md 5.1).
 */
export function inSet(ts, t) {
  return Array.isArray(t) && t.length === 2 && Number.isInteger(t[0]) && Number.isInteger(t[1])
    && t[0] >= 0 && t[0] <= t[1] && t[1] <= ts.maxPip;
}

/**
 * The position of tile `t` in the canonical order of `ts` (by low, then high), or null if it
 * is not a tile of the set: TileSet.index of the Python, computed.
 */
export function tileIndex(ts, t) {
  if (!inSet(ts, t)) return null;
  const n = ts.maxPip + 1;
  const [a, b] = t;
  return a * n - (a * (a - 1)) / 2 + (b - a);
}

/** `tiles` (valid tiles of `ts`) sorted in the set's canonical order, as a new array. */
export function sortTiles(tiles) {
  return [...tiles].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/** Whether two tiles are the same. */
export function sameTile(x, y) {
  return x[0] === y[0] && x[1] === y[1];
}

/**
 * What the deck holds and how it is dealt (spec/rules/bram.md section 2): `onTable` tiles
 * start face up and are left out of the shuffled deck; of the rest each seat gets
 * `handSize` tiles, `hidden` stay face down until the end, the rest is the boneyard.
 */
export class DealPlan {
  constructor({ seats, handSize, hidden, onTable }) {
    if (seats < 1 || handSize < 1 || hidden < 0) {
      throw new LocalError("rules/deal-plan", "seats and hand size are positive, hidden >= 0");
    }
    if (new Set(onTable.map(tileKey)).size !== onTable.length) {
      throw new LocalError("rules/deal-plan", "a tile is on the table twice");
    }
    this.seats = seats;
    this.handSize = handSize;
    this.hidden = hidden;
    this.onTable = Object.freeze(onTable.map((t) => Object.freeze([t[0], t[1]])));
    Object.freeze(this);
  }

  /** The tiles to shuffle: the whole set minus `onTable`, in canonical order. */
  deckTiles(tileSet) {
    for (const t of this.onTable) {
      if (!inSet(tileSet, t)) {
        throw new LocalError("rules/deal-plan", `${tileStr(t)} is not in the ${tileSet.name} set`);
      }
    }
    const table = new Set(this.onTable.map(tileKey));
    const deck = tileSet.tiles.filter((t) => !table.has(tileKey(t)));
    if (this.seats * this.handSize + this.hidden > deck.length) {
      throw new LocalError("rules/deal-plan", "the deal needs more tiles than the deck holds");
    }
    return deck;
  }

  boneyardSize(tileSet) {
    return this.deckTiles(tileSet).length - this.seats * this.handSize - this.hidden;
  }
}

// Strict readers for states decoded from JSON or msgpack: they throw TypeError, which a
// rule set's `stateFromJson` turns into its EncodingError.

/** `x` if it is a list (a JSON array), else TypeError (the Python's json_list). */
export function jsonList(x) {
  if (!Array.isArray(x)) throw new TypeError(`${String(x)} is not a list`);
  return x;
}

/** `x` if it is an integer, never a boolean, else TypeError (json_int). */
export function jsonInt(x) {
  // msgpack decodes an integer past 2^53 as a BigInt: every count of a deck game's state is
  // bounded far below that, so the Python refuses the same value (as out of range) with
  // the same code, and it is refused here at once.
  if (!Number.isSafeInteger(x)) throw new TypeError(`${String(x)} is not an integer`);
  return x;
}

/** `x` as a pair of integers, else TypeError (json_int_pair): a tile as it lies. */
export function jsonIntPair(x) {
  const items = jsonList(x);
  if (items.length !== 2) throw new TypeError("not a pair");
  return [jsonInt(items[0]), jsonInt(items[1])];
}

/** Whether `x` is a JSON object (a Mapping): not null, an array or bytes. */
export function isMapping(x) {
  return typeof x === "object" && x !== null && !Array.isArray(x) && !ArrayBuffer.isView(x);
}

/** Whether the own keys of object `obj` are exactly `keys`. */
export function hasExactKeys(obj, keys) {
  const got = Object.keys(obj);
  return got.length === keys.length && keys.every((k) => Object.prototype.hasOwnProperty.call(obj, k));
}

/**
 * What is wrong with an `after` parameter: a match's link to its previous round, the hex
 * of that round's last frame hash, or "" (spec/11-verify.md 11.5); null if nothing.
 */
export function linkProblem(after) {
  if (typeof after !== "string" || !(after === "" || /^[0-9a-f]{64}$/.test(after))) {
    return "after is empty or 64 lowercase hex digits (spec/11-verify.md 11.5)";
  }
  return null;
}

/** An exact decimal for a count of half pips: 7 -> "3.5", -1 -> "-0.5", 6 -> "3". */
export function halvesText(halves) {
  const sign = halves < 0 ? "-" : "";
  const abs = Math.abs(halves);
  const whole = Math.floor(abs / 2);
  return abs % 2 ? `${sign}${whole}.5` : `${sign}${whole}`;
}

/**
 * How a finished hand ended (spec/rules/bram.md section 8). Pip quantities that may include
 * komi count half pips (`..Halves`); `handPips` are raw whole pips. `winner` is a seat or
 * null for a draw; `reason` "out" or "blocked"; `hidden` the tiles out of play, revealed.
 */
export class Outcome {
  constructor({ winner, reason, handPips, pipsHalves, marginHalves, hidden }) {
    if (handPips.length !== pipsHalves.length) {
      throw new LocalError("rules/outcome", "one pip count per seat");
    }
    if (marginHalves < 0 || (winner === null && marginHalves !== 0)) {
      throw new LocalError("rules/outcome", "the margin is >= 0, and 0 for a draw");
    }
    if (winner !== null && !(winner >= 0 && winner < handPips.length)) {
      throw new LocalError("rules/outcome", `no seat ${winner}`);
    }
    this.winner = winner;
    this.reason = reason;
    this.handPips = Object.freeze([...handPips]);
    this.pipsHalves = Object.freeze([...pipsHalves]);
    this.marginHalves = marginHalves;
    this.hidden = Object.freeze(hidden.map((t) => [t[0], t[1]]));
    Object.freeze(this);
  }

  /**
   * Every winning seat: the winner, or on a draw every seat tied at the fewest
   * (komi-adjusted) pips (spec/11-verify.md 11.1).
   */
  get winners() {
    if (this.winner !== null) return [this.winner];
    const best = Math.min(...this.pipsHalves);
    return this.pipsHalves.flatMap((p, s) => (p === best ? [s] : []));
  }

  /** A JSON object with the Python's field names; tiles as "low-high" text. */
  toJson() {
    return {
      winner: this.winner,
      reason: this.reason,
      hand_pips: [...this.handPips],
      pips_halves: [...this.pipsHalves],
      margin_halves: this.marginHalves,
      hidden: this.hidden.map(tileStr),
    };
  }
}

/**
 * The candidates the seat to move could play if it held them, in the order given: the
 * forbidden set of a "cannot play" claim (spec/10-session.md 10.4 step 1a) is the playable
 * tiles among those not yet public.
 */
export function playableTiles(rules, state, candidates) {
  const out = [];
  for (const t of candidates) {
    const hit = rules.legalMoves(state, [t]).some((m) => {
      const p = rules.playedTile(m);
      return p !== null && sameTile(p, t);
    });
    if (hit) out.push(t);
  }
  return out;
}

/**
 * The outcome of a round where going out wins and otherwise the fewest pips do (Mexican
 * Train and Mineshaft, section 8 of their rules): a seat with no tile left wins; else the
 * lowest total wins alone, or nobody does if it is shared. The margin is twice the gap to
 * the next-lowest total; no komi, no hidden tiles.
 */
export function lowestPipsOutcome(reason, handCounts, hands) {
  const pips = hands.map((h) => [...h].reduce((n, t) => n + t[0] + t[1], 0));
  let winner;
  if (reason === "out") {
    winner = handCounts.indexOf(0);
  } else {
    const best = Math.min(...pips);
    winner = pips.filter((p) => p === best).length === 1 ? pips.indexOf(best) : null;
  }
  let margin = 0;
  if (winner !== null) {
    margin = 2 * (Math.min(...pips.filter((_, s) => s !== winner)) - pips[winner]);
  }
  return new Outcome({
    winner, reason, handPips: pips, pipsHalves: pips.map((p) => 2 * p),
    marginHalves: margin, hidden: [],
  });
}

/**
 * Whether `rules` is of the drawing family (spec/10-session.md 10.4): a deck game with a
 * boneyard and forced play, which has `draws(move)` and `mustPlayIfAble(state, seat, move)`
 * (the Python's runtime check of the DrawingRules protocol).
 */
export function isDrawingRules(rules) {
  return typeof rules?.draws === "function" && typeof rules?.mustPlayIfAble === "function";
}

/**
 * A copy of a frozen record (a state, a miner) with some fields changed, through its
 * constructor so its checks run again: dataclasses.replace of the Python.
 */
export function replace(obj, changes) {
  return new obj.constructor({ ...obj, ...changes });
}
