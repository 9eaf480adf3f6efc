// spec/vectors files.json (8.6, 11.2, 11.5) in every vector set the seat plays: each
// transcript file replays to its verdict (valid, complete, accepted frames and the
// violation's rule, seat, frame and authenticated), each match file to its violation and
// the round it is charged to.
import { fromHex } from "../../../peers/web/seat/protocol/frames.js";
import { verifyMatch } from "../../../peers/web/seat/protocol/match.js";
import { replay } from "../../../peers/web/seat/protocol/verifier.js";

/** The vector sets of the libsodium suites (dealerless/2's files, then each suite's). */
const SETS = ["", "suites/edwards25519-sha512/", "suites/ristretto255-sha512/"];

const violationOf = (v) => (v === null ? null
  : { authenticated: v.authenticated, frame: v.frame, rule: v.code, seat: v.seat });

/** The keys of `expected` that `got` differs in, as text. */
function differences(got, expected) {
  return Object.keys(expected).filter((k) => JSON.stringify(got[k]) !== JSON.stringify(expected[k]))
    .map((k) => `${k} ${JSON.stringify(got[k])}, expected ${JSON.stringify(expected[k])}`);
}

function attempt(fn) {
  try {
    return fn();
  } catch (exc) {
    return { error: `uncaught ${exc?.name}: ${exc?.code ?? ""} ${exc?.message}` };
  }
}

export async function run(load) {
  let passed = 0;
  const failed = [];
  for (const dir of SETS) {
    const doc = JSON.parse(await load(`${dir}files.json`));
    for (const t of doc.transcripts) {
      const got = attempt(() => {
        const v = replay(fromHex(t.file));
        return { valid: v.valid, complete: v.complete, frames: v.frames,
          violation: violationOf(v.violation) };
      });
      const expected = { valid: t.valid, complete: t.complete, frames: t.frames,
        violation: t.violation };
      const wrong = got.error ? [got.error] : differences(got, expected);
      if (wrong.length) failed.push(`${dir}files.json transcript '${t.name}': ${wrong.join("; ")}`);
      else passed += 1;
    }
    for (const m of doc.matches) {
      const got = attempt(() => {
        const v = verifyMatch(fromHex(m.file));
        return { valid: v.valid, broken_round: v.brokenRound, violation: violationOf(v.violation) };
      });
      const expected = { valid: m.valid, broken_round: m.broken_round, violation: m.violation };
      const wrong = got.error ? [got.error] : differences(got, expected);
      if (wrong.length) failed.push(`${dir}files.json match '${m.name}': ${wrong.join("; ")}`);
      else passed += 1;
    }
  }
  return { passed, failed };
}
