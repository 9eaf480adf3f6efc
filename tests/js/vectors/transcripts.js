// spec/vectors transcripts/ (11.1, 11.2) in every vector set the seat plays: each golden
// transcript replays from nothing to the verdict index.json gives it: the exit code, valid,
// complete, accepted frames, the violation (rule, seat, frame, authenticated; a differing detail is printed), who
// is awaited, the first player, the outcome (winner, pips, margin, or Mined Games' verdict),
// the hidden tile and a winner decided by play. The longest replays' times are printed.
import { replay } from "../../../peers/web/seat/protocol/verifier.js";

/** The vector sets of the libsodium suites (dealerless/2's games, then each suite's). */
const SETS = ["", "suites/edwards25519-sha512/", "suites/ristretto255-sha512/"];
const FIELDS = ["exit", "valid", "complete", "frames", "violation", "awaiting", "first_player",
  "outcome", "hidden_tile", "decided"];

/** JSON with sorted keys, so that two objects compare by content. */
function canon(value) {
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export async function run(load) {
  let passed = 0;
  const failed = [];
  const times = [];
  const details = [];
  for (const dir of SETS) {
    const index = JSON.parse(await load(`${dir}transcripts/index.json`)).transcripts;
    for (const [name, expected] of Object.entries(index)) {
      const data = await load(`${dir}transcripts/${expected.file}`, "bytes");
      const started = performance.now();
      let got;
      try {
        const verdict = replay(data);
        got = { ...verdict.toJson(), exit: verdict.exitCode };
      } catch (exc) {
        failed.push(`${dir}${name}: uncaught ${exc?.name}: ${exc?.code ?? ""} ${exc?.message}`);
        continue;
      }
      const ms = performance.now() - started;
      times.push([ms, `${dir}${name}`, got.frames, data.length]);
      // The violation's detail is text for people, some of it the foundation's (a
      // signature's failing step): a different wording is noted, not failed.
      const bare = (v) => (v === null ? null : { ...v, detail: undefined });
      if (got.violation && expected.violation && got.violation.detail !== expected.violation.detail) {
        details.push(`${dir}${name}: "${got.violation.detail}", reference "${expected.violation.detail}"`);
      }
      const wrong = FIELDS.filter((k) => (k === "violation"
        ? canon(bare(got[k])) !== canon(bare(expected[k])) : canon(got[k]) !== canon(expected[k])))
        .map((k) => `${k} ${canon(got[k])}, expected ${canon(expected[k])}`);
      if (wrong.length) failed.push(`${dir}${name}: ${wrong.join("; ")}`);
      else passed += 1;
    }
  }
  times.sort((a, b) => b[0] - a[0]);
  for (const [ms, name, frames, size] of times.slice(0, 5)) {
    console.log(`  replay ${name}: ${frames} frames, ${size} bytes, ${Math.round(ms)} ms`);
  }
  for (const line of details) console.log(`  note: detail differs: ${line}`);
  return { passed, failed };
}
