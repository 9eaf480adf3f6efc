/**
 * The round-by-round account of a finished Mined Games game, as `dealerless verify` prints
 * it (spec/rules/mined-games.md 5.7); mirrors peers/table/mined_account.py: per round and
 * per miner, where it started, the tiles it stepped onto, its action, what its mine paid
 * or why it paid nothing, where it fell, how it died, the round's money by source and the
 * money after it; then the iron bonus (5.6).
 * @module table/mined_account
 */

import { GARNETS_PER_MINE, KINDS } from "../protocol/rules/mined_map.js";
import {
  BREAK_FALL_BONUS, IRON_BONUS, KILL_BONUS, STEP_MONEY, posText, roundedShare,
} from "../protocol/rules/mined_round.js";

/** A whole number with thousands separated by commas, as Python's `{:,}`. */
export function grouped(n) {
  const text = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return n < 0 ? `-${text}` : text;
}

const has = (seats, seat) => (seats instanceof Set ? seats.has(seat) : [...seats].includes(seat));

function minerLine(seat, m, report) {
  const parts = [`seat ${seat} from ${posText(m.start)}`];
  parts.push(m.path.length ? `steps ${m.path.map(posText).join(", ")}` : "no step");
  if (m.action) {
    parts.push(m.action);
    if (m.action.startsWith("mine") && m.target === null) parts.push("not done: it was falling");
  }
  if (m.target !== null) {
    const split = m.shared > 1 ? `, split ${m.shared} ways` : "";
    const bonus = m.bonus ? ` + self-mining $${grouped(m.bonus)}` : "";
    const paid = m.unpaid ? `paid nothing: ${m.unpaid}`
      : `$${grouped(m.mined - m.bonus)}${split}${bonus}`;
    const garnets = m.kind === "R" && !m.unpaid ? `, ${GARNETS_PER_MINE} garnets` : "";
    parts.push(`mined the ${KINDS[m.kind][0]} at ${posText(m.target)} (${paid}${garnets})`);
  }
  if (m.fellTo !== null) parts.push(`fell to ${posText(m.fellTo)}`);
  if (m.died) parts.push(`died (${m.died})`);
  const sources = [];
  if (m.path.length) {
    const n = m.path.length;
    sources.push(`${n} step${n > 1 ? "s" : ""} $${grouped(STEP_MONEY * n)}`);
  }
  if (m.mined) sources.push(`mining $${grouped(m.mined)}`);
  if (has(report.breakersPaid, seat)) sources.push(`break-and-fall $${grouped(BREAK_FALL_BONUS)}`);
  if (has(report.killersPaid, seat)) sources.push(`kill $${grouped(KILL_BONUS)}`);
  const earned = `earned $${grouped(m.earned)}`
    + (sources.length > 1 ? ` (${sources.join(" + ")})` : "");
  return `  ${parts.join("; ")}; ${earned}; money $${grouped(m.money)}`;
}

/**
 * The account's lines: every round played, then the iron bonus.
 * @param {import("../protocol/rules/mined_stage.js").MinedOutcome} out
 * @returns {string[]}
 */
export function minedRoundsText(out) {
  const lines = [];
  for (const [number, report] of out.rounds) {
    lines.push(`round ${number}:` + (report.pool ? ` $${report.pool} to the prize pool` : ""));
    const miners = [...report.miners].sort((a, b) => a[0] - b[0]);
    for (const [seat, m] of miners) lines.push(minerLine(seat, m, report));
  }
  const most = Math.max(0, ...out.ironRounds);
  if (most) {
    const top = out.ironRounds.flatMap((n, s) => (n === most ? [s] : []));
    const share = roundedShare(IRON_BONUS, top.length);
    const seats = top.map((s) => `seat ${s}`).join(" and ");
    const each = top.length === 1 ? `$${grouped(share)}`
      : `$${grouped(IRON_BONUS)} split, $${grouped(share)} each`;
    lines.push(`iron bonus: ${seats} mined iron in ${most} round${most > 1 ? "s" : ""}, `
      + `the most: ${each}`);
  }
  return lines;
}
