// Matches: rounds played as a chain of games, and their standings (spec/11-verify.md
// 11.5), as protocol/match.py.
//
// A match is no second protocol. Each round is a whole game whose rule parameters name
// the round (`round`, the starting double) and the round before it (`after`, the hash of
// that round's last frame). The standings add up every seat's pips left in hand over the
// rounds; the lowest total wins, ties share.
//
//     file   = MATCH_MAGIC record*
//     record = "R" || u32 big-endian length || a transcript file (8.6)

import { EncodingError, LocalError, Violation } from "./errors.js";
import { concatBytes, frameHash, toHex, u32 } from "./frames.js";
import { Outcome } from "./rules/base.js";
import { MAGIC_PREFIX, Transcript } from "./transcript.js";
import { replay } from "./verifier.js";
import { PROTOCOL, checkMagic, magic } from "./version.js";

/** The match file's magic before its version digit (11.5). */
export const MATCH_PREFIX = new TextEncoder().encode("DEALERLESS-M");
/** The kind of a round record, "R" (11.5). */
export const ROUND = 0x52;
/** Double-twelve: rounds 12-12 down to 0-0. */
export const MAX_ROUNDS = 13;
/** The largest round record (11.5). */
export const MAX_ROUND_BYTES = 1 << 24;

/** The match file of these rounds' transcript files, at their protocol version. */
export function encodeMatch(rounds) {
  const version = rounds.length
    ? checkMagic(rounds[0], MAGIC_PREFIX, "transcript", "transcript/magic") : PROTOCOL;
  return concatBytes([magic(MATCH_PREFIX, version),
    ...rounds.flatMap((r) => [new Uint8Array([ROUND]), u32(r.length), r])]);
}

/** The rounds' transcript files; EncodingError (`match/...`) if the container is bad. */
export function decodeMatch(data) {
  checkMagic(data, MATCH_PREFIX, "match file", "match/magic");
  const rounds = [];
  let pos = MATCH_PREFIX.length + 2;
  while (pos < data.length) {
    if (data.length - pos < 5 || data[pos] !== ROUND) {
      throw new EncodingError("match/record", `no round record at byte ${pos}`);
    }
    const length = ((data[pos + 1] << 24) >>> 0) + (data[pos + 2] << 16)
      + (data[pos + 3] << 8) + data[pos + 4];
    if (length > MAX_ROUND_BYTES || pos + 5 + length > data.length) {
      throw new EncodingError("match/record", `the round at byte ${pos} is cut or too large`);
    }
    if (rounds.length === MAX_ROUNDS) {
      throw new EncodingError("match/record", `a match has at most ${MAX_ROUNDS} rounds`);
    }
    rounds.push(data.slice(pos + 5, pos + 5 + length));
    pos += 5 + length;
  }
  if (!rounds.length) throw new EncodingError("match/record", "a match file holds at least one round");
  return rounds;
}

/**
 * What the next round's `after` must be: the hash of this round's last frame, hex. Only a
 * complete round is followed, and it has frames; "" for a round without frames is never a
 * link.
 */
export function linkOf(transcript) {
  const decoded = Transcript.decode(transcript);
  if (!decoded.frames.length) return "";
  return toHex(frameHash(decoded.setup.suite, decoded.frames[decoded.frames.length - 1]));
}

/** The verdict of a match (11.5). */
export class MatchVerdict {
  constructor(rounds, violation = null, brokenRound = null, totals = null, winners = [],
    roundsDue = 0) {
    Object.assign(this, { rounds, violation, brokenRound, totals, winners, roundsDue });
    Object.freeze(this);
  }

  get valid() { return this.violation === null; }

  get complete() {
    return this.valid && this.rounds.length === this.roundsDue
      && this.rounds.every((r) => r.complete);
  }

  get exitCode() { return !this.valid ? 1 : this.complete ? 0 : 3; }

  toJson() {
    const v = this.violation;
    return {
      match: true, valid: this.valid, complete: this.complete,
      rounds_played: this.rounds.length, rounds_due: this.roundsDue,
      rounds: this.rounds.map((r) => r.toJson()),
      totals: this.totals === null ? null : [...this.totals], winners: [...this.winners],
      violation: v === null ? null : { round: this.brokenRound, seat: v.seat, frame: v.frame,
        rule: v.code, detail: v.detail, authenticated: v.authenticated },
    };
  }
}

const paramsOf = (setup) => new Map(setup.params);
const sameArrays = (a, b) => a.length === b.length && a.every((x, i) => x.length === b[i].length
  && x.every((y, j) => y === b[i][j]));
const numeric = (v) => (typeof v === "bigint" ? Number(v) : v);

/** Why round `current` does not follow `previous` (whose file is `before`), or null. */
function linkProblem(previous, before, current, first) {
  const a = previous.setup;
  const b = current.setup;
  if (a === null || b === null) return "a round has no setup";
  if (b.rules !== a.rules || !sameArrays(b.identities, a.identities)) {
    return "every round is played by the same seats, in order, under the same rules";
  }
  const pa = paramsOf(a);
  const pb = paramsOf(b);
  const expected = numeric(pa.get("round") ?? 0) - 1;
  const got = pb.get("round");
  if (typeof got === "boolean" || numeric(got) !== expected) {
    return `round ${pa.get("round")} must be followed by round ${expected}`;
  }
  if (pb.get("after") !== linkOf(before)) {
    return "`after` is not the hash of the previous round's last frame";
  }
  if (pb.has("first") && numeric(pb.get("first")) !== first.firstPlayer) {
    return `every round is led by the first round's first player, seat ${first.firstPlayer} `
      + `(\`first\`), not ${pb.get("first")}`;
  }
  const linked = ["round", "after", "first"];
  const rest = (p) => [...p].filter(([k]) => !linked.includes(k));
  const ra = rest(pa);
  const rb = new Map(rest(pb));
  if (ra.length !== rb.size || ra.some(([k, v]) => !rb.has(k) || rb.get(k) !== v)) {
    return "the rounds' other parameters differ";
  }
  return null;
}

/** The rounds replayed one after another. */
export function* replayEach(files) {
  for (const f of files) yield replay(f);
}

/**
 * Replay every round (11.2), check the chain of rounds, and add up the standings (11.5).
 * `replays` returns the rounds' verdicts in round order.
 */
export function verifyMatch(data, replays = replayEach) {
  let files;
  try {
    files = decodeMatch(data);
  } catch (exc) {
    if (!(exc instanceof EncodingError)) throw exc;
    return new MatchVerdict([], new Violation(exc.code, exc.detail, null, null, false));
  }
  const version = checkMagic(data, MATCH_PREFIX, "match file", "match/magic");
  const link = (problem) => new Violation("match/link", problem, null, null, false);
  const verdicts = [];
  const results = replays(files)[Symbol.iterator]();
  for (let i = 0; i < files.length; i++) {
    const verdict = results.next().value;
    verdicts.push(verdict);
    let problem = null;
    const setup = verdict.setup;
    // The round's own file does not parse: its own violation, and no link to check.
    if (setup === null) return new MatchVerdict(verdicts, verdict.violation, i);
    if (setup.version !== version) {
      return new MatchVerdict(verdicts, new Violation("version/unsupported",
        `this round is dealerless/${setup.version}, in a match file of dealerless/${version}`,
        null, null, false), i);
    }
    const params = paramsOf(setup);
    if (!params.has("round")) {
      problem = "the rules of this round take no round number: not a match";
    } else if (i === 0) {
      if (numeric(params.get("round")) !== setup.ruleset.tileSet.maxPip
          || typeof params.get("round") === "boolean" || params.get("after") !== ""
          || numeric(params.get("first") ?? -1) !== -1) {
        problem = "the first round starts at the set's highest double, after nothing, and "
          + "draws its first player";
      }
    } else {
      problem = linkProblem(verdicts[i - 1], files[i - 1], verdict, verdicts[0]);
    }
    if (problem !== null) return new MatchVerdict(verdicts, link(problem), i);
    if (!verdict.valid) return new MatchVerdict(verdicts, verdict.violation, i);
    if (!verdict.complete && i + 1 < files.length) {
      return new MatchVerdict(verdicts, link("a round after an unfinished round"), i + 1);
    }
  }
  const first = verdicts[0].setup;
  if (first === null) throw new LocalError("match/state", "a checked match has a first setup");
  const due = numeric(paramsOf(first).get("round")) + 1;
  const done = verdicts.filter((v) => v.complete && v.outcome instanceof Outcome)
    .map((v) => v.outcome.handPips);
  const totals = done.length ? Array.from({ length: first.seats },
    (_, s) => done.reduce((sum, row) => sum + row[s], 0)) : null;
  let winners = [];
  if (totals !== null && done.length === due) {
    const low = Math.min(...totals);
    winners = totals.flatMap((t, s) => (t === low ? [s] : []));
  }
  return new MatchVerdict(verdicts, null, null, totals, winners, due);
}
