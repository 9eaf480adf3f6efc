// Around one round of Mexican Train: forced-play claims, their audit, match standings
// (spec/rules/mexican-train.md sections 6.1 and 8.2). Mirrors
// protocol/rules/mexican_train_match.py.
//
// A draw, a pass or a not-holding declaration asserts that the mover has no legal play. The
// session backs it with a zero-knowledge proof that no tile of the hand lies in the
// forbidden set F: the tiles t, not on the table, for which `legalMoves(state, [t])`
// contains a play of t. Once the hands are revealed, `auditClaims` re-judges every claim.
// The helpers serve any rule set with `tableTiles` (Mineshaft too).

import { LocalError } from "../errors.js";
import { playableTiles, tileKey } from "./base.js";

/**
 * F: the tiles not on the table that the seat to move could play if it held them, in the
 * set's canonical order (section 6.1). Empty once the round is over.
 */
export function forbiddenTiles(rules, state) {
  if (rules.toMove(state) === null) return [];
  const table = new Set(rules.tableTiles(state).map(tileKey));
  return playableTiles(rules, state, rules.tileSet.tiles.filter((t) => !table.has(tileKey(t))));
}

/**
 * One move of a round as the audit sees it: the position, the mover, its move and its whole
 * hand just before the move (an array of tiles), as revealed after the round.
 */
export class ClaimPoint {
  constructor({ state, seat, move, hand }) {
    this.state = state;
    this.seat = seat;
    this.move = move;
    this.hand = Object.freeze([...hand]);
    Object.freeze(this);
  }
}

/**
 * The first claim of "no legal play" that the revealed hand contradicts: `index` of the
 * move in the points given, its `seat`, and the `playable` tiles of the hand that were in
 * the forbidden set (canonical order).
 */
export class FalseClaim {
  constructor({ index, seat, playable }) {
    this.index = index;
    this.seat = seat;
    this.playable = Object.freeze([...playable]);
    Object.freeze(this);
  }
}

/**
 * Re-judge every claim of `points` against the revealed hands; the first false one, or
 * null. Moves that claim nothing are skipped; a point whose seat is not to move, or whose
 * hand does not fit the state, is the caller's error (LocalError).
 */
export function auditClaims(rules, points) {
  for (let i = 0; i < points.length; i += 1) {
    const p = points[i];
    if (rules.toMove(p.state) !== p.seat) {
      throw new LocalError("rules/audit", `point ${i}: seat ${p.seat} is not to move`);
    }
    rules.legalMoves(p.state, p.hand); // throws rules/bad-hand for a hand that cannot be
    if (!rules.mustPlayIfAble(p.state, p.seat, p.move)) continue;
    const forbidden = new Set(forbiddenTiles(rules, p.state).map(tileKey));
    const playable = [...p.hand].filter((t) => forbidden.has(tileKey(t)))
      .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    if (playable.length) return new FalseClaim({ index: i, seat: p.seat, playable });
  }
  return null;
}

/**
 * Totals over the rounds played so far; the lowest total wins (section 8.2). `totals` per
 * seat; `ranks` per seat, 1 + the number of seats with a strictly lower total.
 */
export class Standings {
  constructor({ totals, ranks }) {
    this.totals = Object.freeze([...totals]);
    this.ranks = Object.freeze([...ranks]);
    Object.freeze(this);
  }

  /** The seats ranked first: the winners once the match is complete. */
  get leaders() {
    return this.ranks.flatMap((r, s) => (r === 1 ? [s] : []));
  }
}

/**
 * Sum each seat's penalties over the rounds given (one row per round, `Outcome.handPips`
 * of each) and rank the seats (section 8.2).
 */
export function matchStandings(roundPenalties) {
  if (!roundPenalties.length) throw new LocalError("rules/standings", "no rounds");
  const seats = roundPenalties[0].length;
  for (const row of roundPenalties) {
    if (row.length !== seats || seats < 2 || !row.every((p) => Number.isInteger(p) && p >= 0)) {
      throw new LocalError("rules/standings",
        "every round gives one penalty >= 0 per seat, for 2 or more seats");
    }
  }
  const totals = [];
  for (let s = 0; s < seats; s += 1) totals.push(roundPenalties.reduce((n, row) => n + row[s], 0));
  const ranks = totals.map((t) => 1 + totals.filter((u) => u < t).length);
  return new Standings({ totals, ranks });
}
