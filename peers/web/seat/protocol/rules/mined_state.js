// Mined Games: the state, the orders of a stage, and the state as JSON
// (spec/rules/mined-games.md sections 4 and 9). Mirrors protocol/rules/mined_state.py.
//
// `MinedState` holds the mine, the miners and the stage's commitments, openings and
// declarations of absence, so the session's state hash covers them all. The orders of a
// stage decode strictly from their wire form (4.1) and are checked against the state (4.2);
// `stateFromJson` refuses any state `stateToJson` would not produce, since a dispute
// package's state may be forged.

import { EncodingError } from "../errors.js";
import { checkSealBytes } from "../sealed.js";
import { RuleViolation, isInt, isMapping, replace } from "./base.js";
import { KINDS, MAX_SIDE, parseMap } from "./mined_map.js";
import { ACTION_TEXT, ALIVE, DEATHS, MAX_MOVES, Miner, Orders, checkOrders } from "./mined_round.js";
import { Carries } from "./simultaneous.js";

/** Stage 0 draws the map seed, stage 1 places the miners, stage r + 1 is round r (6). */
export const SEED_STAGE = 0;
export const START_STAGE = 1;
/** The most rounds a game plays (section 2). */
export const MAX_ROUNDS = 10;
/** An opened nonce's length (spec/10-session.md 10.8). */
export const NONCE_BYTES = 32;
/** A stage's COMMIT is a seal (spec/10-session.md 10.8): at most this many bytes of msgpack. */
export const MAX_SEAL_BYTES = 4096;

/**
 * The verdict of a finished game (section 7): the token `winner`, the elimination
 * candidate `ec` (null while the winner still owes its choice), `how` each was found, and
 * `chooseFrom`, the seats the winner chooses among.
 */
export class Result {
  constructor(winner, ec, how, chooseFrom = []) {
    this.winner = winner;
    this.ec = ec;
    this.how = how;
    this.chooseFrom = Object.freeze([...chooseFrom]);
    Object.freeze(this);
  }
}

/**
 * The state of a game (section 9): seats, stage, mine (a MineMap, null until the map seed
 * is drawn), dur (durability per floor, row-major), miners, and of this stage: commits
 * (seals, msgpack bytes), opened (orders in wire form), nonces; absent (null, or [seat,
 * [[declarer, share bytes or null], ...]]), forfeits and withheld ([seat, stage,
 * [seats]] each), pool, end, result, keys (share keys' bytes), and reports (the rounds
 * played, for the account: not part of the JSON or its hash).
 */
export class MinedState {
  constructor({ seats, stage, mine, dur, miners, commits, opened, nonces, absent = null,
    forfeits = [], pool = 0, end = null, result = null, keys = [], withheld = [],
    reports = [] }) {
    Object.assign(this, { seats, stage, mine, pool, end, result, absent });
    this.dur = Object.freeze(dur.map((f) => Object.freeze([...f])));
    this.miners = Object.freeze([...miners]);
    this.commits = Object.freeze([...commits]);
    this.opened = Object.freeze([...opened]);
    this.nonces = Object.freeze([...nonces]);
    this.forfeits = Object.freeze([...forfeits]);
    this.keys = Object.freeze([...keys]);
    this.withheld = Object.freeze([...withheld]);
    this.reports = Object.freeze([...reports]);
    Object.freeze(this);
  }

  get round() { return this.stage - START_STAGE; }

  /** The seats that commit and open in this stage: alive, in seat order. */
  playing() {
    return this.miners.flatMap((m, s) => (m.alive ? [s] : []));
  }

  /**
   * The recipients of `seat`'s seal (10.8): every other seat with a share key. A forfeit or
   * a death ends the game after its stage (6), so within a stage this set never changes.
   */
  holders(seat) {
    const out = [];
    for (let s = 0; s < this.seats; s += 1) if (s !== seat && this.keys[s] !== null) out.push(s);
    return out;
  }

  /**
   * Whether the OPEN `seat` owes can be recovered without it (10.8): its seal is in and has
   * shares (two holders or more).
   */
  sealed(seat) {
    return this.commits[seat] !== null && this.nonces[seat] === null
      && this.holders(seat).length >= 2;
  }

  /**
   * The seats that may declare `seat`, which owes the next frame, absent (10.8): against a
   * sealed OPEN its seal's holders, otherwise the other living seats; and nobody when that
   * leaves one seat, whose word alone settles nothing.
   */
  declarers(seat) {
    const seats = this.sealed(seat) ? this.holders(seat) : this.playing().filter((s) => s !== seat);
    return seats.length >= 2 ? seats : [];
  }

  /**
   * What an ABSENT of `declarer` against `seat` may carry now (10.8): a Carries, or null if
   * it may send none. Against a KEY or COMMIT each declarer declares once, with no share.
   * Against a sealed OPEN the declarations carry no share until t are in (the t-th may carry
   * its own), and then each holder posts its share once.
   */
  admits(seat, declarer) {
    const eligible = this.declarers(seat);
    if (!eligible.includes(declarer)) return null;
    const entries = this.absent !== null ? this.absent[1] : [];
    const declared = new Set(entries.map(([d]) => d));
    if (!this.sealed(seat)) return declared.has(declarer) ? null : Carries.NOTHING;
    const t = majority(eligible.length);
    if (declared.size < t) {
      if (declared.has(declarer)) return null;
      return declared.size === t - 1 ? Carries.EITHER : Carries.NOTHING;
    }
    return entries.some(([d, s]) => d === declarer && s !== null) ? null : Carries.SHARE;
  }

  /** No hands in this game (the driver's view shows none). */
  get handCounts() { return []; }
}

/**
 * The wire orders of this stage, strictly (section 4.1); RuleViolation mined/orders-shape
 * if malformed: nil in the seed stage, [row, column] at the start, else [steps, action].
 */
export function decodeStageOrders(state, obj) {
  if (state.stage === SEED_STAGE) {
    if (obj !== null) throw new RuleViolation("mined/orders-shape", "the seed stage's orders are nil");
    return null;
  }
  if (!Array.isArray(obj) || obj.length !== 2 || obj.some((x) => !isInt(x) && typeof x !== "string")) {
    throw new RuleViolation("mined/orders-shape", "orders are a pair");
  }
  if (state.stage === START_STAGE) {
    if (!obj.every(isInt)) throw new RuleViolation("mined/orders-shape", "a start is [row, column]");
    return [obj[0], obj[1]];
  }
  const [moves, action] = obj;
  if (typeof moves !== "string" || typeof action !== "number" || !Number.isInteger(action)
      || moves.length > MAX_MOVES || [...moves].some((ch) => !"UDLR".includes(ch))
      || !(action >= 0 && action <= 14)) {
    throw new RuleViolation("mined/orders-shape", "orders are [steps of U/D/L/R (at most "
      + `${MAX_MOVES}), an action code 0..14]`);
  }
  return [moves, action];
}

/** RuleViolation if decoded `orders` break the rules for `seat` (section 4.2). */
export function checkStageOrders(state, seat, orders) {
  if (state.stage === SEED_STAGE) return;
  const { mine } = state;
  if (state.stage === START_STAGE) {
    const [r, c] = orders;
    if (!(r >= 0 && r < mine.height && c >= 0 && c < mine.width)) {
      throw new RuleViolation("mined/start-tile", `r${r} c${c} is not on B1`);
    }
    const kind = mine.kind(0, Number(r), Number(c));
    if (kind === "A" || kind === "L") {
      throw new RuleViolation("mined/start-tile", `B1 r${r} c${c} is ${KINDS[kind][0]}: a miner `
        + "starts on solid ground (D5)");
    }
    return;
  }
  checkOrders(mine, state.miners[seat], new Orders(orders[0], orders[1]));
}

// -- the state as JSON (section 9) ---------------------------------------------------

/** Lowercase hex of bytes, as the state's JSON writes them (section 9). */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The state as a JSON object of exactly the 14 keys of section 9. */
export function stateToJson(state) {
  const hexes = (xs) => xs.map((x) => (x === null ? null : toHex(x)));
  const res = state.result;
  return {
    stage: state.stage,
    map: state.mine === null ? "" : state.mine.text(),
    dur: state.dur.map((f) => [...f]),
    miners: state.miners.map((m) => [m.at === null ? null : [...m.at], m.money, m.garnets,
      m.ironRounds, m.status, m.died]),
    commits: hexes(state.commits),
    opened: [...state.opened],
    nonces: hexes(state.nonces),
    absent: state.absent === null ? null : [state.absent[0],
      state.absent[1].map(([d, share]) => [d, share === null ? null : toHex(share)])],
    forfeits: state.forfeits.map(([s, t, d]) => [s, t, [...d]]),
    pool: state.pool,
    end: state.end,
    result: res === null ? null : [res.winner, res.ec, res.how, [...res.chooseFrom]],
    keys: hexes(state.keys),
    withheld: state.withheld.map(([s, t, d]) => [s, t, [...d]]),
  };
}

/** Deep equality of JSON values (null, booleans, numbers, BigInts, text, arrays, objects). */
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isMapping(a) && isMapping(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length
      && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Inverse of stateToJson for a game of these parameters in `suite`; EncodingError
 * (rules/state-json) for anything it would not produce.
 */
export function stateFromJson(obj, seats, width, height, mapText, rounds, suite) {
  let state;
  try {
    state = fromJson(obj, seats, width, height, mapText, rounds, suite);
  } catch (exc) {
    // A state from a dispute package may be forged: anything this code would not produce
    // is refused here, so that no later step trips over it.
    throw new EncodingError("rules/state-json", `not a Mined Games state: ${exc.message}`);
  }
  if (!jsonEqual(stateToJson(state), obj)) {
    throw new EncodingError("rules/state-json", "the state does not re-encode exactly");
  }
  return state;
}

const assert = (cond) => { if (!cond) throw new Error("assertion failed"); };

const JSON_KEYS = ["stage", "map", "dur", "miners", "commits", "opened", "nonces", "absent",
  "forfeits", "pool", "end", "result", "keys", "withheld"];

function fromJson(obj, seats, width, height, mapText, rounds, suite) {
  assert(isMapping(obj) && Object.keys(obj).length === JSON_KEYS.length
    && JSON_KEYS.every((k) => Object.hasOwn(obj, k)));
  const k = seats;
  const stage = int(obj.stage, 0, rounds + START_STAGE);
  const text = obj.map;
  assert(typeof text === "string");
  const mine = text ? parseMap(text) : null;
  const { end } = obj;
  assert((mine === null) === (stage === SEED_STAGE && end === null));
  if (mine !== null) {
    assert(mine.width === width && mine.height === height);
    assert(!mapText || text === mapText);
  }
  const dur = list(obj.dur).map((f) => list(f).map((x) => int(x, 0, 9)));
  assert((mine === null && !dur.length) || (mine !== null && dur.length === mine.kinds.length
    && dur.every((f, i) => f.length === mine.kinds[i].length)));
  const miners = list(obj.miners).map((m) => minerOf(m, mine));
  const commits = list(obj.commits).map((c) => (c === null ? null : hex(c, 0, MAX_SEAL_BYTES)));
  const nonces = list(obj.nonces).map((n) => (n === null ? null : hex(n, NONCE_BYTES)));
  const keys = list(obj.keys).map((y) => (y === null ? null
    : suite.decodePoint(hex(y, suite.pointBytes)).data));
  const opened = [...list(obj.opened)];
  assert([miners, commits, nonces, opened, keys].every((x) => x.length === k));
  let absent = null;
  if (obj.absent !== null) {
    const [who, by] = pair(list(obj.absent));
    absent = [int(who, 0, k - 1), list(by).map((x) => {
      const [d, sh] = pair(list(x));
      return [int(d, 0, k - 1), sh === null ? null : hex(sh, suite.pointBytes)];
    })];
  }
  const [forfeits, withheld] = ["forfeits", "withheld"].map((name) => list(obj[name]).map((f) => {
    const items = list(f);
    assert(items.length === 3);
    return [int(items[0], 0, k - 1), int(items[1], 0, stage), list(items[2]).map((x) => int(x, 0, k - 1))];
  }));
  assert(end === null || typeof end === "string");
  let result = null;
  if (obj.result !== null) {
    const items = list(obj.result);
    assert(items.length === 4);
    const [w, ec, how, among] = items;
    assert(typeof how === "string");
    result = new Result(w === null ? null : int(w, 0, k - 1), ec === null ? null : int(ec, 0, k - 1),
      how, list(among).map((x) => int(x, 0, k - 1)));
  }
  assert((end === null) === (result === null));
  const state = new MinedState({ seats: k, stage, mine, dur, miners, commits, opened, nonces,
    absent, forfeits, pool: int(obj.pool, 0, 2 ** 40), end, result, keys, withheld });
  for (let s = 0; s < k; s += 1) {
    const m = miners[s];
    const placed = stage > START_STAGE || (stage === START_STAGE && end !== null);
    const never = m.died !== null && m.died <= START_STAGE; // forfeited before placing
    assert((m.at === null) === (!placed || never));
    assert(m.alive === (m.died === null));
    // Only the living commit; at the end the seals go and the openings stay.
    assert(m.alive || commits[s] === null);
    assert(commits[s] !== null || nonces[s] === null || end !== null);
    if (nonces[s] === null) {
      assert(opened[s] === null);
    } else {
      assert(jsonEqual(decodeStageOrders(state, opened[s]), opened[s]));
      if (end === null) checkStageOrders(state, s, opened[s]); // opened orders passed 4.2
    }
  }
  const living = state.playing();
  commits.forEach((c, s) => { // a seal needs its sender's share key first (10.8)
    if (c !== null) {
      assert(keys[s] !== null && end === null);
      checkSealBytes(suite, c, state.holders(s).length);
    }
  });
  if (absent !== null) checkAbsent(suite, state, absent);
  if (result !== null && result.ec === null) {
    assert(living.includes(result.winner) && result.chooseFrom.length > 1);
    assert(result.chooseFrom.every((x) => !living.includes(x)));
  }
  return state;
}

/** t = m // 2 + 1 of m seats (10.8): the declarations a forfeit needs, the shares a seal's. */
export function majority(m) {
  return Math.floor(m / 2) + 1;
}

/**
 * A declaration under way names a living seat that owes a frame of the stage, and each of
 * its frames was admitted in turn (10.8): it is not complete yet.
 */
function checkAbsent(suite, state, absent) {
  const [who, by] = absent;
  const living = state.playing();
  let owing = null;
  for (const have of [state.keys, state.commits, state.nonces]) {
    const s = living.find((x) => have[x] === null);
    if (s !== undefined) { owing = s; break; }
  }
  assert(who === owing && state.end === null && by.length > 0);
  let soFar = replace(state, { absent: null });
  by.forEach(([d, share], i) => {
    const carries = soFar.admits(who, d);
    assert(carries !== null && carries.allows(share));
    if (share !== null) suite.decodePoint(share);
    soFar = replace(state, { absent: [who, by.slice(0, i + 1)] });
  });
  const t = majority(state.declarers(who).length);
  if (state.sealed(who)) { // t shares open the seal
    assert(by.filter(([, share]) => share !== null).length < t);
  } else { // a majority completes a forfeit
    assert(by.length < t);
  }
}

function minerOf(obj, mine) {
  const items = list(obj);
  assert(items.length === 6);
  const [at, money, garnets, iron, status, died] = items;
  let pos = null;
  if (at !== null) {
    assert(mine !== null);
    const fields = list(at).map((x) => int(x, 0, MAX_SIDE));
    assert(fields.length === 3);
    const [f, r, c] = fields;
    assert(f < mine.kinds.length && r < mine.height && c < mine.width);
    pos = [f, r, c];
  }
  assert(status === ALIVE || DEATHS.includes(status));
  return new Miner({ at: pos, money: int(money, 0, 2 ** 40), garnets: int(garnets, 0, 2 ** 20),
    ironRounds: int(iron, 0, MAX_ROUNDS), status,
    died: died === null ? null : int(died, 0, MAX_ROUNDS + START_STAGE) });
}

const pair = (items) => { assert(items.length === 2); return items; };

function int(x, lo, hi) {
  if (!isInt(x) || !(lo <= x && x <= hi)) throw new Error(`${String(x)} is not an integer ${lo}..${hi}`);
  return x;
}

const list = (x) => { if (!Array.isArray(x)) throw new TypeError(`${String(x)} is not a list`); return x; };

/** `n` bytes of lowercase hex, or n..most bytes if `most` is given. */
function hex(x, n, most = null) {
  const hi = most === null ? n : most;
  if (typeof x !== "string" || !(2 * n <= x.length && x.length <= 2 * hi) || x.length % 2
      || !/^[0-9a-f]*$/.test(x)) {
    throw new Error(`${String(x)} is not ${n}..${hi} bytes of lowercase hex`);
  }
  return fromHex(x);
}
