// One round of Mined Games, resolved from every living miner's orders
// (spec/rules/mined-games.md sections 4-6). Mirrors protocol/rules/mined_round.py.
//
// Pure and deterministic: `resolveRound` takes the mine, the miners and the orders that
// were committed and opened, and returns the mine and miners after attacks, steps, mines
// and falls, with what happened for the verdict and the account. A position is
// [floor (0 = B1), row (0 = top), column (0 = left)].

import { RuleViolation, replace } from "./base.js";
import {
  B3, BOTTOM, EMERALD_POOL, GARNETS_PER_MINE, KINDS, SELF_BONUS, SELF_BONUS_MONEY,
} from "./mined_map.js";

/** Steps without a garnet, money a step, the bonuses (sections 4.2, 5.2, 5.5, 5.6). */
export const FREE_MOVES = 5;
export const STEP_MONEY = 400;
export const BREAK_FALL_BONUS = 4000;
export const KILL_BONUS = 4000;
export const IRON_BONUS = 6000;
/** A garnet buys one step more; no miner holds more than this in practice. */
export const MAX_MOVES = 64;

/** Step letters and their (row, column) moves (section 4.1). */
export const DIRS = Object.freeze({ U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] });
/**
 * Action codes (section 4.1): 0 nothing; 1-5 mine here/U/D/L/R on the miner's floor; 6-10
 * mine the floor above: straight up, then above U/D/L/R; 11-14 attack U/D/L/R.
 */
export const MINE_TARGETS = Object.freeze({ 1: [0, ""], 2: [0, "U"], 3: [0, "D"], 4: [0, "L"],
  5: [0, "R"], 6: [-1, ""], 7: [-1, "U"], 8: [-1, "D"], 9: [-1, "L"], 10: [-1, "R"] });
/** Attack codes and their directions (section 4.1). */
export const ATTACKS = Object.freeze({ 11: "U", 12: "D", 13: "L", 14: "R" });
/** The text of each action code (section 4.1), for people and `parseOrders`. */
export const ACTION_TEXT = Object.freeze({ 0: "", 1: "mine here", 2: "mine U", 3: "mine D",
  4: "mine L", 5: "mine R", 6: "mine above", 7: "mine above-U", 8: "mine above-D",
  9: "mine above-L", 10: "mine above-R", 11: "attack U", 12: "attack D", 13: "attack L",
  14: "attack R" });
/** A miner's status while alive; the ways it can die (section 9). */
export const ALIVE = "alive";
export const DEATHS = Object.freeze(["lava", "attack", "forfeit"]);

const isMine = (action) => Number.isInteger(action) && action >= 1 && action <= 10;
const isAttack = (action) => Number.isInteger(action) && action >= 11 && action <= 14;

/** A miner's orders for one round: `moves` (steps as U/D/L/R, in order), then `action`. */
export class Orders {
  constructor(moves, action) {
    this.moves = moves;
    this.action = action;
    Object.freeze(this);
  }

  text() {
    const parts = this.moves ? [this.moves] : [];
    if (this.action) parts.push(ACTION_TEXT[this.action]);
    return parts.join(" ") || "stay";
  }
}

// Python's str.split() separators: its whitespace, not JavaScript's \s.
const PY_SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/**
 * Orders from their text: steps as letters U/D/L/R, then an optional action ("mine here",
 * "mine above-L", "attack R", ...); "stay" for none. RuleViolation mined/orders-text.
 */
export function parseOrders(text) {
  const words = text.split(PY_SPACE).filter((w) => w !== "");
  let moves = "";
  if (words.length && words[0] !== "stay" && words[0] !== "mine" && words[0] !== "attack") {
    moves = words.shift();
  } else if (words.length && words[0] === "stay") {
    words.shift();
  }
  const actionText = words.join(" ");
  const code = Object.keys(ACTION_TEXT).find((k) => ACTION_TEXT[k] === actionText);
  if ([...moves].some((ch) => !Object.hasOwn(DIRS, ch)) || code === undefined) {
    throw new RuleViolation("mined/orders-text", `cannot read orders '${text}'`);
  }
  return new Orders(moves, Number(code));
}

/**
 * One seat's miner: where it is (`at`, null before it starts), `money` in dollars,
 * `garnets`, `ironRounds` (rounds in which it earned from iron), `status` ("alive" or how
 * it died) and `died` (the stage it died in, or null).
 */
export class Miner {
  constructor({ at, money = 0, garnets = 0, ironRounds = 0, status = ALIVE, died = null }) {
    this.at = at === null ? null : Object.freeze([at[0], at[1], at[2]]);
    this.money = money;
    this.garnets = garnets;
    this.ironRounds = ironRounds;
    this.status = status;
    this.died = died;
    Object.freeze(this);
  }

  get alive() { return this.status === ALIVE; }
}

/**
 * One miner's round, for the account a player checks by hand (section 5.7): start, path
 * (every tile stepped onto), action (text), target (the tile mined, or null), kind (its
 * letter, or ""), shared (miners of that tile at that index), mined (money paid for the
 * mine, bonus included), bonus (5.3), unpaid (why its mine paid nothing, or ""), fellTo,
 * died ("attack", "lava" or ""), earned (this round, every source) and money (after).
 */
export class MinerRound {
  constructor(fields) {
    Object.assign(this, fields);
    Object.freeze(this);
  }
}

/**
 * What happened in one round: `killed` (seat -> "attack" or "lava"), `fell` (seat -> where
 * it landed), `earned` (seat -> money this round), `breakersPaid` and `killersPaid` (seats
 * paid those bonuses), `pool` (dollars the emeralds added) and `miners` (seat ->
 * MinerRound). The maps are Maps, in the order the Python's dicts hold them.
 */
export class RoundReport {
  constructor({ killed, fell, earned, breakersPaid, killersPaid, pool, miners = new Map() }) {
    Object.assign(this, { killed, fell, earned, breakersPaid, killersPaid, pool, miners });
    Object.freeze(this);
  }
}

/** The position one step (dr, dc) from `pos` on its floor, or null off the mine. */
export function neighbour(mine, pos, dr, dc) {
  const [f, r0, c0] = pos;
  const r = r0 + dr;
  const c = c0 + dc;
  return r >= 0 && r < mine.height && c >= 0 && c < mine.width ? [f, r, c] : null;
}

/** The tile an action mines from `pos`, or null if it is off the mine. */
export function mineTarget(mine, pos, action) {
  const [df, d] = MINE_TARGETS[action];
  const f = pos[0] + df;
  if (f < 0) return null;
  const [dr, dc] = d ? DIRS[d] : [0, 0];
  return neighbour(mine, [f, pos[1], pos[2]], dr, dc);
}

/** amount / n to the nearest whole dollar, halves up (section 5.3). */
export function roundedShare(amount, n) {
  return Math.floor((2 * amount + n) / (2 * n));
}

/** RuleViolation (mined/...) if `orders` break the rules for `miner` (section 4.2). */
export function checkOrders(mine, miner, orders) {
  if (miner.at === null || !miner.alive) {
    throw new RuleViolation("mined/not-playing", "this miner is not in the mine");
  }
  const extra = orders.moves.length - FREE_MOVES;
  if (extra > miner.garnets) {
    throw new RuleViolation("mined/too-many-moves", `${orders.moves.length} steps need `
      + `${extra} garnets; the miner has ${miner.garnets}`);
  }
  let pos = miner.at;
  if (isAttack(orders.action) && miner.at[0] !== B3) {
    throw new RuleViolation("mined/attack-off-b3", "pickaxes attack only on B3");
  }
  if (isAttack(orders.action) && neighbour(mine, miner.at, ...DIRS[ATTACKS[orders.action]]) === null) {
    throw new RuleViolation("mined/off-mine", "the attack is aimed off the mine");
  }
  [...orders.moves].forEach((step, i) => {
    pos = neighbour(mine, pos, ...DIRS[step]);
    if (pos === null) throw new RuleViolation("mined/off-mine", `step ${i + 1} (${step}) leaves the mine`);
  });
  // Where the miner would stand if nothing stopped it: falls can only end the orders early,
  // and then the action is never taken, so this is the only place it can be.
  if (isMine(orders.action) && mineTarget(mine, pos, orders.action) === null) {
    throw new RuleViolation("mined/off-mine", `${ACTION_TEXT[orders.action]} from `
      + `${posText(pos)} is off the mine`);
  }
}

/** "B1 r0 c3": a position for people (section 5.7). */
export function posText(pos) {
  const [f, r, c] = pos;
  return `B${f + 1} r${r} c${c}`;
}

const key = (p) => `${p[0]},${p[1]},${p[2]}`;
const add = (map, s, n) => map.set(s, (map.get(s) ?? 0) + n);

/**
 * Resolve one round (section 5): attacks, then step i of every miner at once and the mines
 * due at step i, for i = 0, 1, ...; then mining money, then falls. `orders` maps every
 * living miner's seat to its Orders (checkOrders passed). Returns [dur, miners, report].
 */
export function resolveRound(mine, durIn, minersIn, orders, stage) {
  const w = mine.width;
  const dur = durIn.map((f) => [...f]);
  const miners = [...minersIn];
  const pos = new Map();
  miners.forEach((m, s) => { if (m.alive && m.at) pos.set(s, m.at); });
  const start = new Map(pos);
  const paths = new Map([...pos.keys()].map((s) => [s, []]));
  const active = new Set(pos.keys());
  const falling = new Set();
  const killed = new Map();
  const earned = new Map();
  const garnets = new Map();
  const spent = new Map();
  const iron = new Set();
  let pool = 0;
  const killers = new Set();
  const brokenBy = new Map(); // tile key -> seats that broke it by mining
  const minedBy = new Map(); // every miner that mined a tile this round
  const owed = new Map(); // seat -> [tile, share]: paid in 5.3
  const targets = new Map();
  const shared = new Map(); // seat -> miners of its tile at its index
  const ordersOf = (s) => (orders instanceof Map ? orders.get(s) : orders[s]);

  const d = (p) => dur[p[0]][p[1] * w + p[2]];
  const setD = (p, v) => { dur[p[0]][p[1] * w + p[2]] = Math.max(0, v); };
  const sorted = (set) => [...set].sort((a, b) => a - b);
  const notFalling = () => sorted([...active].filter((s) => !falling.has(s)));
  const fallCheck = () => {
    for (const s of notFalling()) if (pos.get(s)[0] < BOTTOM && d(pos.get(s)) === 0) falling.add(s);
  };
  const same = (p, q) => p !== null && q !== null && p[0] === q[0] && p[1] === q[1] && p[2] === q[2];

  // 5.1 Attacks, all at once, from where the miners stand at the start of the round.
  for (const s of sorted(active)) {
    const act = ordersOf(s).action;
    if (isAttack(act)) {
      const target = neighbour(mine, pos.get(s), ...DIRS[ATTACKS[act]]);
      const victims = sorted(active).filter((v) => same(pos.get(v), target));
      if (victims.length) killers.add(s);
      for (const v of victims) killed.set(v, "attack");
    }
  }
  for (const s of killed.keys()) active.delete(s);
  // 5.2 Steps and mines, index by index.
  const last = Math.max(0, ...[...active].map((s) => ordersOf(s).moves.length));
  for (let i = 0; i <= last; i += 1) {
    const movers = notFalling().filter((s) => i < ordersOf(s).moves.length);
    const leaving = new Map();
    for (const s of movers) {
      const k = key(pos.get(s));
      leaving.set(k, [pos.get(s), (leaving.get(k)?.[1] ?? 0) + 1]);
    }
    for (const [p, n] of leaving.values()) setD(p, d(p) - n);
    for (const s of movers) {
      const [dr, dc] = DIRS[ordersOf(s).moves[i]];
      const nxt = neighbour(mine, pos.get(s), dr, dc); // checkOrders keeps every step on the mine
      pos.set(s, nxt);
      paths.get(s).push(nxt);
      add(earned, s, STEP_MONEY);
      if (i >= FREE_MOVES) add(spent, s, 1);
      if (mine.kind(...nxt) === "L" && d(nxt) > 0) killed.set(s, "lava");
    }
    for (const s of killed.keys()) active.delete(s);
    fallCheck();
    const byTile = new Map();
    for (const s of notFalling()) {
      const o = ordersOf(s);
      if (isMine(o.action) && o.moves.length === i) {
        const target = mineTarget(mine, pos.get(s), o.action);
        const k = key(target);
        if (!byTile.has(k)) byTile.set(k, [target, []]);
        byTile.get(k)[1].push(s);
        targets.set(s, target);
      }
    }
    for (const [k, [tile, group]] of byTile) {
      if (!minedBy.has(k)) minedBy.set(k, new Set());
      for (const s of group) { minedBy.get(k).add(s); shared.set(s, group.length); }
      const before = d(tile);
      setD(tile, before - group.length);
      if (before === 0) continue; // mined away already: nothing to earn (seed clarification)
      for (const s of group) owed.set(s, [tile, roundedShare(KINDS[mine.kind(...tile)][2], group.length)]);
      if (d(tile) === 0) brokenBy.set(k, new Set(group));
    }
    fallCheck();
  }
  // 5.3 Mining money, once every step and mine is done: a miner now falling earns nothing
  // from its mine (D22), and the self-mining bonus needs the tile to have been mined by
  // nobody else in the round (D23).
  const paid = new Map();
  const bonus = new Map();
  for (const s of sorted(owed.keys())) {
    const [tile, amount] = owed.get(s);
    if (falling.has(s)) continue;
    const kind = mine.kind(...tile);
    const by = minedBy.get(key(tile));
    if (same(tile, pos.get(s)) && SELF_BONUS.has(kind) && by.size === 1 && by.has(s)) {
      bonus.set(s, SELF_BONUS_MONEY);
    }
    paid.set(s, amount + (bonus.get(s) ?? 0));
    add(earned, s, paid.get(s));
    if (kind === "R") add(garnets, s, GARNETS_PER_MINE);
    else if (kind === "E") pool += EMERALD_POOL;
    else if (kind === "I") iron.add(s);
  }
  // 5.4 Falls.
  const fell = new Map();
  const breakers = new Set();
  for (const s of sorted([...falling].filter((x) => active.has(x)))) {
    let [f, r, c] = pos.get(s);
    while (f < BOTTOM && d([f, r, c]) === 0) {
      for (const b of brokenBy.get(key([f, r, c])) ?? []) if (b !== s) breakers.add(b);
      f += 1;
    }
    pos.set(s, [f, r, c]);
    fell.set(s, [f, r, c]);
    if (mine.kind(f, r, c) === "L" && d([f, r, c]) > 0) killed.set(s, "lava");
  }
  // In seat order, as the Python's sets of small ints iterate.
  for (const s of sorted(killers)) add(earned, s, KILL_BONUS);
  for (const s of sorted(breakers)) add(earned, s, BREAK_FALL_BONUS);
  for (const s of pos.keys()) {
    const m = miners[s];
    const [status, died] = killed.has(s) ? [killed.get(s), stage] : [m.status, m.died];
    miners[s] = replace(m, { at: pos.get(s), money: m.money + (earned.get(s) ?? 0),
      garnets: m.garnets - (spent.get(s) ?? 0) + (garnets.get(s) ?? 0),
      ironRounds: m.ironRounds + (iron.has(s) ? 1 : 0), status, died });
  }
  const accounts = new Map(sorted(pos.keys()).map((s) => [s, new MinerRound({
    start: start.get(s), path: paths.get(s), action: ACTION_TEXT[ordersOf(s).action],
    target: targets.get(s) ?? null, kind: targets.has(s) ? mine.kind(...targets.get(s)) : "",
    shared: shared.get(s) ?? 0, mined: paid.get(s) ?? 0, bonus: bonus.get(s) ?? 0,
    unpaid: unpaidWhy(s, targets, owed, paid), fellTo: fell.get(s) ?? null,
    died: killed.get(s) ?? "", earned: earned.get(s) ?? 0, money: miners[s].money,
  })]));
  const report = new RoundReport({ killed, fell, earned: new Map(earned),
    breakersPaid: sorted(breakers), killersPaid: sorted(killers), pool, miners: accounts });
  return [dur, miners, report];
}

/** Why a miner's mine paid nothing, for the account ("" if it paid or did not mine). */
function unpaidWhy(s, targets, owed, paid) {
  if (!targets.has(s) || paid.has(s)) return "";
  return owed.has(s) ? "it fell (D22)" : "the tile was already broken";
}

/**
 * Whether a living miner can still reach an unbroken resource tile (D11): walking is free
 * on a floor, a miner can always go down (break a tile and fall) but never up, and it can
 * mine one floor up.
 */
export function resourcesReachable(mine, dur, miners) {
  const floors = miners.filter((m) => m.alive && m.at !== null).map((m) => m.at[0]);
  if (!floors.length) return false;
  const top = Math.max(0, Math.min(...floors) - 1);
  for (let f = top; f < mine.kinds.length; f += 1) {
    const kinds = mine.kinds[f];
    for (let i = 0; i < kinds.length; i += 1) if ("GSIER".includes(kinds[i]) && dur[f][i] > 0) return true;
  }
  return false;
}
