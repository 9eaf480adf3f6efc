/**
 * Accounts of a verdict for people, word for word as `dealerless verify` and `selfplay`
 * print them; mirrors peers/table/report.py.
 *
 * The text says what the verdict proves and what it does not (spec/11-verify.md 11.1): a
 * violation not authenticated blames nobody, and a valid prefix names the seat that owes
 * the next frame without calling it a forfeit (each rule set's own decision:
 * spec/rules/bram.md D14, mexican-train.md D22, mineshaft.md D18, mined-games.md D16).
 * @module table/report
 */

import { MinedOutcome } from "../protocol/rules/mined_stage.js";
import { grouped, minedRoundsText } from "./mined_account.js";

export const NOT_PROVEN_SILENCE = "Not proven: that seat {seat} abandoned the game; a cut "
  + "file or a lost connection looks the same (a forfeit needs a deadline the seats agreed "
  + "on outside the transcript, spec/{rule}).";
/** Each rule set's own decision on abandonment: a transcript proves no silence. */
export const ABANDONMENT = Object.freeze({ bram: "rules/bram.md D14",
  "mexican-train": "rules/mexican-train.md D22", mineshaft: "rules/mineshaft.md D18",
  "mined-games": "rules/mined-games.md D16" });

/** Where the spec says why a silence is not proven, for these rules. */
export function abandonmentRule(rules) {
  return ABANDONMENT[rules || "bram"] ?? ABANDONMENT.bram;
}

/** Python's `{:g}` of a half-integer or whole number (komi). */
const general = (x) => String(Number.isInteger(x) ? x : Number(x.toPrecision(6)));

/**
 * Rule parameters in words: `3 seats, round 12, after nothing, mexican train no`.
 * @param {Object<string, *>} params
 */
export function paramsText(params) {
  const entries = Object.entries(params).sort(([a], [b]) => {
    const ka = a !== "seats";
    const kb = b !== "seats";
    if (ka !== kb) return ka ? 1 : -1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  const words = [];
  for (const [key, raw] of entries) {
    const value = typeof raw === "bigint" ? Number(raw) : raw;
    const name = key.replaceAll("_", " ");
    if (key === "seats") words.push(`${value} seats`);
    else if (key === "round") words.push(`round ${value} (starting double ${value}-${value})`);
    else if (key === "komi_halves" && Number.isInteger(value)) {
      words.push(`komi ${general(value / 2)} pips`);
    } else if (key === "after") {
      words.push(value ? `after the round ending in frame hash ${String(value).slice(0, 16)}...`
        : "after nothing (the first round)");
    } else if (key === "first") {
      words.push(value === -1 ? "first player drawn" : `first player seat ${value}`);
    } else if (key === "map") {
      words.push(value ? `a map of ${String(value).length} cells` : "a drawn map");
    } else if (typeof value === "boolean") words.push(`${name} ${value ? "yes" : "no"}`);
    else words.push(`${name} ${value}`);
  }
  return words.join(", ") || "no parameters";
}

/**
 * One violation for people: proven against a seat, or no evidence against anyone.
 * @param {import("../protocol/errors.js").Violation} v
 */
export function violationText(v, what = "file") {
  const where = v.frame === null ? "" : ` at frame ${v.frame}`;
  if (!v.authenticated) {
    return `NOT PROVEN: corrupt or tampered ${what}${where} (${v.code}: ${v.detail}); `
      + "no seat is blamed";
  }
  return `INVALID${where}: seat ${v.seat} broke ${v.code}: ${v.detail} (proven by seat `
    + `${v.seat}'s own signature)`;
}

function decidedText(d) {
  const margin = d.marginHalves !== null ? ` by ${d.toJson().margin}`
    : "; the margin is unknown until every hand is revealed";
  return `seat ${d.winner} went out and wins${margin}; the hidden tile was not opened`;
}

/**
 * The verdict in a line or a few (what `dealerless verify` ends with).
 * @param {import("../protocol/verifier.js").Verdict} verdict
 */
export function headline(verdict) {
  if (!verdict.valid && verdict.violation !== null) return violationText(verdict.violation);
  if (!verdict.complete && verdict.awaiting !== null) {
    const [seat, message] = verdict.awaiting;
    const article = "aeiou".includes(message.slice(0, 1)) && message ? "an" : "a";
    const owes = `seat ${seat} owes the next frame (${article} ${message} frame)`;
    const rules = verdict.setup !== null ? verdict.setup.rules : null;
    let silence = NOT_PROVEN_SILENCE.replace("{seat}", String(seat))
      .replace("{rule}", abandonmentRule(rules));
    if (rules === "mined-games" && ["key", "commit", "open"].includes(message)) {
      silence += ` Past that deadline any other seat may sign that seat ${seat} is absent: `
        + (message === "open"
          ? "once a majority of its seal's holders have declared it, they post their "
            + "decryption shares, its seal opens and its orders count as if it had opened them"
          : "with a majority of the other living seats, it forfeits")
        + " (spec/10-session.md 10.8).";
    }
    const d = verdict.decided;
    if (d === null) {
      return `VALID PREFIX of ${verdict.frames} frames: ${owes}.\n`
        + `Proven: every frame so far is valid.\n${silence}`;
    }
    return `VALID PREFIX of ${verdict.frames} frames, winner proven: ${decidedText(d)}.`
      + `\nProven: every frame so far is valid, and seat ${d.winner} played its last tile `
      + `in public.\n${owes[0].toUpperCase()}${owes.slice(1)}.\n${silence}`;
  }
  const out = verdict.outcome;
  if (out === null) return "VALID";
  if (out instanceof MinedOutcome) return minedHeadline(out);
  const json = verdict.toJson().outcome;
  const pips = json.pips.map((p, i) => `seat ${i}: ${p}`).join(", ");
  const bram = verdict.setup !== null && verdict.setup.rules === "bram";
  const how = out.reason === "out" ? "went out"
    : bram ? "had fewer pips after two passes" : "had the fewest pips when nobody could play";
  const tied = seatsText(out.winners);
  const tie = bram ? `a draw between ${tied}` : `${tied} tie for the fewest pips and share the win`;
  const result = out.winner === null ? tie : `seat ${out.winner} wins by ${json.margin} (${how})`;
  return `VALID and complete: ${result}; ${bram ? "pips with komi" : "pips left"} ${pips}`;
}

/** "seat 2", "seats 0 and 3", "seats 0, 1 and 3". */
export function seatsText(seats) {
  const names = [...seats].map(String);
  if (names.length === 1) return `seat ${names[0]}`;
  return `seats ${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The verdict of a Mined Games game (spec/rules/mined-games.md section 7). */
export function minedHeadline(out) {
  const money = out.money.map((m, s) => `seat ${s}: $${grouped(m)}`
    + (out.status[s] === "alive" ? "" : ` (${out.status[s]})`)).join(", ");
  // A forfeit ends the game as a death does (10.8); say which it was.
  let end = out.end;
  if (["a miner died", "every miner is dead"].includes(end) && out.status.includes("forfeit")
      && !out.status.includes("lava") && !out.status.includes("attack")) {
    end = !out.status.includes("alive") ? "every seat forfeited"
      : "a seat forfeited (it missed its deadline)";
  }
  const lines = [`VALID and complete: seat ${out.winner} wins two tokens of life; seat `
    + `${out.eliminationCandidate} is the elimination candidate (${out.how}); the game `
    + `ended because ${end}; money ${money}`];
  lines.push(...minedTies(out));
  for (const [seat, stage, by] of out.forfeits) {
    lines.push(`Seat ${seat} forfeited in stage ${stage}: seats ${by.join(", ")} each signed `
      + "that it missed its deadline. This rests on their declarations, not on proof: a "
      + "transcript cannot prove silence (spec/rules/mined-games.md D16).");
  }
  for (const [seat, stage, by] of out.withheld) {
    lines.push(`Seat ${seat} withheld its OPEN in stage ${stage}: seats ${by.join(", ")} `
      + "opened its seal with their decryption shares, and its sealed orders counted as if "
      + "it had opened them (spec/rules/mined-games.md D20).");
  }
  return lines.join("\n");
}

/**
 * Which seats tied for the most or the least money and that the lot decided
 * (spec/rules/mined-games.md 7, D14); why one seat is both winner and candidate.
 */
export function minedTies(out) {
  const seats = out.money.map((_, s) => s);
  const alive = seats.filter((s) => out.status[s] === "alive");
  const forfeited = seats.filter((s) => out.status[s] === "forfeit");
  const gone = forfeited.length ? forfeited : seats.filter((s) => !alive.includes(s));
  const notForfeit = seats.filter((s) => out.status[s] !== "forfeit");
  const field = alive.length ? alive : notForfeit.length ? notForfeit : seats;
  const lot = (seat) => `the lot drawn from the last stage's opened nonces picked seat ${seat} `
    + "(spec/rules/mined-games.md D14)";
  const lines = [];
  const cases = [["most", Math.max, field, out.winner],
    ["least", Math.min, out.how === "least money" ? alive : gone,
      out.how.includes("least money") ? out.eliminationCandidate : null]];
  for (const [word, pick, group, seat] of cases) {
    if (seat === null || seat === undefined || !group.length) continue;
    const value = pick(...group.map((s) => out.money[s]));
    const tied = group.filter((s) => out.money[s] === value);
    if (tied.length > 1) {
      const role = word === "most" ? "token winner" : "elimination candidate";
      lines.push(`Seats ${tied.join(", ")} tied for the ${word} money ($${grouped(value)}); `
        + `${lot(seat)} as the ${role}.`);
    }
  }
  if (out.winner !== null && out.winner === out.eliminationCandidate) {
    lines.push(`Seat ${out.winner} is both the token winner and the elimination candidate: `
      + "no miner is alive, so the richest seat wins the tokens and the candidate comes from "
      + `the fallen (${out.how}), and both fall on seat ${out.winner} `
      + "(spec/rules/mined-games.md 7).");
  }
  return lines;
}

/**
 * The game move by move, then the verdict: `dealerless verify FILE`'s text.
 * @param {import("../protocol/verifier.js").Verdict} verdict
 */
export function account(verdict) {
  const data = verdict.toJson();
  const lines = [];
  if (data.rules) {
    const setup = verdict.setup;
    lines.push(`rules ${data.rules.name} (${paramsText(data.rules.params)}); `
      + `${setup.suiteName}, dealerless/${setup.version}; game ${data.game_id.slice(0, 16)}...`);
    for (const s of data.seats) lines.push(`  seat ${s.seat}: ${s.fingerprint}`);
  }
  if (data.first_player !== null && data.first_player !== undefined) {
    lines.push(`first player: seat ${data.first_player}`);
  }
  for (const m of data.moves) {
    lines.push(`  frame ${String(m.frame).padStart(3)}  seat ${m.seat}  ${m.move}`);
  }
  if (data.hidden_tile && data.hidden_tile.length) {
    lines.push(`hidden tile: ${data.hidden_tile.join(", ")}`);
  }
  if (verdict.outcome instanceof MinedOutcome) lines.push(...minedRoundsText(verdict.outcome));
  lines.push(headline(verdict));
  return lines.join("\n");
}

/** The headline, then the transcript's size and where it was written (`selfplay`). */
export function summary(verdict, path, size) {
  const hidden = verdict.toJson().hidden_tile;
  const hasHidden = verdict.setup !== null && verdict.setup.ruleset.deal.hidden > 0;
  const tile = !hasHidden ? "" : hidden && hidden.length ? `, hidden tile ${hidden.join(", ")}`
    : ", hidden tile not opened";
  return `${headline(verdict)}\n${verdict.frames} frames, ${size} bytes, `
    + `${verdict.moves.length} moves${tile}; transcript written to ${path}`;
}

/**
 * A match round by round, then the standings (spec/11-verify.md 11.5).
 * @param {import("../protocol/match.js").MatchVerdict} result
 */
export function matchAccount(result) {
  const lines = [];
  result.rounds.forEach((verdict, i) => {
    const params = verdict.setup ? new Map(verdict.setup.params) : new Map();
    const head = headline(verdict).split("\n")[0];
    const r = params.get("round") ?? "?";
    lines.push(`round ${i + 1} (starting double ${r}-${r}): ${head}`);
  });
  const v = result.violation;
  if (v !== null) {
    const where = `round ${(result.brokenRound ?? 0) + 1}`;
    if (v.code === "match/link" || !v.authenticated) {
      lines.push(`NOT A VALID MATCH at ${where}: ${v.code}: ${v.detail}; no seat is blamed`);
    } else {
      lines.push(`INVALID MATCH at ${where}: ${violationText(v)}`);
    }
    return lines.join("\n");
  }
  const totals = (result.totals ?? []).map((t, s) => `seat ${s}: ${t}`).join(", ");
  if (result.complete) {
    const won = seatsText(result.winners);
    const share = result.winners.length > 1 ? " (shared)" : "";
    lines.push(`VALID and complete match of ${result.rounds.length} rounds: ${won} `
      + `win${result.winners.length === 1 ? "s" : ""}${share} with the fewest pips in all; `
      + `totals ${totals}`);
  } else {
    lines.push(`VALID PREFIX of a match: ${result.rounds.length} of ${result.roundsDue} `
      + `rounds played; totals so far ${totals || "none"}`);
  }
  return lines.join("\n");
}
