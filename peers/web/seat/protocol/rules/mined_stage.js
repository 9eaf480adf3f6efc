// Mined Games: a stage resolved, the end of the game and its verdict
// (spec/rules/mined-games.md sections 3, 5, 6 and 7). Mirrors protocol/rules/mined_stage.py.
//
// Once every living seat has opened its orders, `resolveStage` draws the map from the
// opened nonces (stage 0), places the miners (stage 1) or plays a round (mined_round.js),
// then starts the next stage or ends the game. At the end the iron bonus is paid (5.6) and
// `finalResult` finds the token winner and the elimination candidate, drawing ties from
// the last stage's opened nonces (D14); `MinedOutcome` is the verdict.

import { Tag } from "../tags.js";
import { replace } from "./base.js";
import { generateMap, mapSeed, u64Prefix } from "./mined_map.js";
import {
  IRON_BONUS, Miner, Orders, resolveRound, resourcesReachable, roundedShare,
} from "./mined_round.js";
import { Result, SEED_STAGE, START_STAGE } from "./mined_state.js";

/**
 * The end of a game of Mined Games, as the verifier reports it (section 7): winner (the
 * token winner), eliminationCandidate, end, how, money and status per seat, forfeits and
 * withheld ([seat, stage, [seats]] each), pool; and for the account (not in the JSON)
 * rounds ([round, RoundReport] each) and ironRounds per seat.
 */
export class MinedOutcome {
  constructor(winner, eliminationCandidate, end, how, money, status, forfeits, pool,
    rounds = [], ironRounds = [], withheld = []) {
    Object.assign(this, { winner, eliminationCandidate, end, how, pool });
    this.money = Object.freeze([...money]);
    this.status = Object.freeze([...status]);
    this.forfeits = Object.freeze([...forfeits]);
    this.rounds = Object.freeze([...rounds]);
    this.ironRounds = Object.freeze([...ironRounds]);
    this.withheld = Object.freeze([...withheld]);
    Object.freeze(this);
  }

  /** The token winner, or every seat tied with it for the most money (section 7). */
  get winners() {
    return tiedForTokens(this.money.map((m, s) => new Miner({ at: null, money: m,
      status: this.status[s] })));
  }

  toJson() {
    return {
      token_winner: this.winner, winners: this.winners,
      elimination_candidate: this.eliminationCandidate, end: this.end, how: this.how,
      money: [...this.money], status: [...this.status],
      forfeits: this.forfeits.map(([s, t, d]) => ({ seat: s, stage: t, declared_by: [...d],
        proven: false })),
      withheld: this.withheld.map(([s, t, d]) => ({ seat: s, stage: t, opened_by: [...d] })),
      prize_pool_added: this.pool,
    };
  }
}

/**
 * A tie broken by the stage's opened nonces (D14): nobody can steer it, since every nonce
 * was committed before any was opened.
 */
function draw(suite, gameId, state, tied) {
  if (tied.length === 1) return tied[0];
  const nonces = state.nonces.filter((n) => n !== null);
  const u = u64Prefix(suite.H(Tag.MINED_TIE, gameId, ...nonces));
  return [...tied].sort((a, b) => a - b)[Number(u % BigInt(tied.length))];
}

/**
 * The seats with the most money among those the token winner comes from (section 7): the
 * living; if none, every seat that did not forfeit; if none, every seat.
 */
export function tiedForTokens(miners) {
  const all = miners.map((_, s) => s);
  const forfeited = all.filter((s) => miners[s].status === "forfeit");
  let pool = all.filter((s) => miners[s].alive);
  if (!pool.length) pool = all.filter((s) => !forfeited.includes(s));
  if (!pool.length) pool = all;
  const best = Math.max(...pool.map((s) => miners[s].money));
  return pool.filter((s) => miners[s].money === best);
}

/** The token winner and elimination candidate (section 7, D12-D15), as a Result. */
export function finalResult(suite, gameId, state) {
  const { miners } = state;
  const all = miners.map((_, s) => s);
  const forfeited = all.filter((s) => miners[s].status === "forfeit");
  const dead = all.filter((s) => !miners[s].alive);
  const living = all.filter((s) => miners[s].alive);
  const winner = draw(suite, gameId, state, tiedForTokens(miners));
  const candidates = forfeited.length ? forfeited : dead;
  if (!candidates.length) {
    const least = Math.min(...living.map((s) => miners[s].money));
    const tied = living.filter((s) => miners[s].money === least);
    return new Result(winner, draw(suite, gameId, state, tied), "least money");
  }
  if (candidates.length === 1) {
    return new Result(winner, candidates[0], forfeited.length ? "forfeited" : "died");
  }
  if (living.length) return new Result(winner, null, "chosen by the winner", candidates);
  const least = Math.min(...candidates.map((s) => miners[s].money));
  const tied = candidates.filter((s) => miners[s].money === least);
  return new Result(winner, draw(suite, gameId, state, tied),
    forfeited.length ? "forfeited with the least money" : "died with the least money");
}

function ironBonus(miners) {
  const most = Math.max(...miners.map((m) => m.ironRounds));
  if (most === 0) return miners;
  const top = miners.flatMap((m, s) => (m.ironRounds === most ? [s] : []));
  const share = roundedShare(IRON_BONUS, top.length);
  return miners.map((m, s) => (top.includes(s) ? replace(m, { money: m.money + share }) : m));
}

/**
 * The game ends (section 6): the iron bonus once the miners are placed (5.6), then the
 * verdict. The seals go (nothing is left to open); the last stage's openings stay.
 */
export function finish(suite, gameId, state, end) {
  let s = state;
  if (s.stage > START_STAGE) s = replace(s, { miners: ironBonus(s.miners) });
  return replace(s, { end, result: finalResult(suite, gameId, s),
    commits: Array(s.seats).fill(null), absent: null });
}

/**
 * Resolve the stage from its openings (the map seed, the start, or a round: 3, 5) and start
 * the next stage, or end the game (6) after the last of `rounds` rounds. Returns [state,
 * report], the report null but for a round.
 */
export function resolveStage(suite, gameId, state, width, height, rounds) {
  const playing = state.playing();
  let report = null;
  let diedNow = state.miners.some((m) => m.died === state.stage);
  let s = state;
  if (s.stage === SEED_STAGE) {
    const seed = mapSeed(suite, gameId, s.nonces.filter((n) => n !== null));
    const mine = generateMap(suite, seed, width, height);
    s = replace(s, { mine, dur: mine.freshDurability() });
  } else if (s.stage === START_STAGE) {
    s = replace(s, { miners: s.miners.map((m, i) => (playing.includes(i)
      ? replace(m, { at: [0, ...s.opened[i]] }) : m)) });
  } else {
    const orders = new Map(playing.map((i) => [i, new Orders(s.opened[i][0], s.opened[i][1])]));
    const [dur, miners, rep] = resolveRound(s.mine, s.dur, s.miners, orders, s.stage);
    report = rep;
    s = replace(s, { dur, miners, pool: s.pool + rep.pool, reports: [...s.reports, [s.round, rep]] });
    diedNow = diedNow || rep.killed.size > 0;
  }
  let end = null;
  if (!s.playing().length) end = "every miner is dead";
  else if (diedNow) end = "a miner died";
  else if (s.round >= rounds) end = `${rounds} rounds were played`;
  else if (s.stage > START_STAGE && s.mine !== null && !resourcesReachable(s.mine, s.dur, s.miners)) {
    end = "no resource is reachable";
  }
  if (end !== null) return [finish(suite, gameId, s, end), report];
  const none = Array(s.seats).fill(null);
  return [replace(s, { stage: s.stage + 1, commits: none, opened: none, nonces: none }), report];
}
