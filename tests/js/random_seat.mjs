// A random player for the browser seat under node (tests only): what peers/bots/registry.py
// random_bot and peers/bots/mined.py mined_orders(greedy=False) choose, from the SeatView
// alone. Deck games: a uniformly random legal tile, passing only when no tile fits. Mined
// Games: the map seed's stage gives nil orders, the start stage a random start cell, a round
// random safe steps and a random paying mine (or a wander), sometimes an attack on B3; the
// winner names a random candidate. Math.random is enough: nothing here is secret.
import { B3, BOTTOM, KINDS, SELF_BONUS, SELF_BONUS_MONEY } from "../../peers/web/seat/protocol/rules/mined_map.js";
import {
  ATTACKS, DIRS, FREE_MOVES, MINE_TARGETS, mineTarget, neighbour,
} from "../../peers/web/seat/protocol/rules/mined_round.js";
import { MinedState, START_STAGE } from "../../peers/web/seat/protocol/rules/mined_state.js";

const pick = (items) => items[Math.floor(Math.random() * items.length)];
const key = (p) => p.join(",");
const same = (a, b) => a !== null && b !== null && key(a) === key(b);

function dur(state, p) {
  return state.dur[p[0]][p[1] * state.mine.width + p[2]];
}

function safe(state, p) {
  return dur(state, p) > 0 && state.mine.kind(...p) !== "L";
}

function landsInLava(state, p) {
  let [f] = p;
  const [, r, c] = p;
  f += 1;
  while (f < BOTTOM && dur(state, [f, r, c]) === 0) f += 1;
  return f <= BOTTOM && state.mine.kind(f, r, c) === "L" && dur(state, [f, r, c]) > 0;
}

/** Shortest safe step strings to every tile within `steps` on the miner's floor. */
function paths(state, start, steps) {
  const seen = new Map([[key(start), [start, ""]]]);
  const queue = [start];
  while (queue.length) {
    const p = queue.shift();
    const path = seen.get(key(p))[1];
    if (path.length === steps) continue;
    for (const [d, [dr, dc]] of Object.entries(DIRS)) {
      const q = neighbour(state.mine, p, dr, dc);
      if (q !== null && !seen.has(key(q)) && safe(state, q)) {
        seen.set(key(q), [q, path + d]);
        queue.push(q);
      }
    }
  }
  return [...seen.values()];
}

function value(state, at, action) {
  const target = mineTarget(state.mine, at, action);
  if (target === null || dur(state, target) === 0) return -1;
  const kind = state.mine.kind(...target);
  let worth = KINDS[kind][2];
  if (worth === 0) return -1;
  if (same(target, at)) {
    if (dur(state, at) === 1 && landsInLava(state, at)) return -1;
    if (SELF_BONUS.has(kind)) worth += SELF_BONUS_MONEY;
  }
  return worth;
}

function minedOrders(view) {
  const state = view.rulesState;
  if (view.legal.length) return pick(view.legal);   // the elimination candidate
  if (state.stage < START_STAGE) return null;        // the map seed's stage
  const mine = state.mine;
  if (state.stage === START_STAGE) {
    const tiles = [];
    for (let r = 0; r < mine.height; r++) {
      for (let c = 0; c < mine.width; c++) if (!"AL".includes(mine.kind(0, r, c))) tiles.push([r, c]);
    }
    return pick(tiles);
  }
  const me = state.miners[view.seat];
  const at = me.at;
  const others = state.miners.filter((m, s) => s !== view.seat && m.alive && m.at).map((m) => m.at);
  if (at[0] === B3 && Math.random() < 0.1) {
    for (const [code, d] of Object.entries(ATTACKS)) {
      const there = neighbour(mine, at, ...DIRS[d]);
      if (there !== null && others.some((o) => same(o, there))) return ["", Number(code)];
    }
  }
  const found = paths(state, at, Math.floor(Math.random() * (FREE_MOVES + 1)));
  const options = [];
  for (const [p, path] of found) {
    for (const a of Object.keys(MINE_TARGETS).map(Number)) {
      if (value(state, p, a) > 0) options.push([path, a]);
    }
  }
  if (options.length) return pick(options);
  const longest = Math.max(...found.map(([, path]) => path.length));
  return [pick(found.filter(([, path]) => path.length === longest))[1], 0];
}

/** The random chooser: `async (view) => move`. */
export async function randomChoose(view) {
  if (view.rulesState instanceof MinedState) return minedOrders(view);
  const plays = view.legal.filter((m) => m.tile !== null && m.tile !== undefined);
  return plays.length ? pick(plays) : view.legal[0];
}
