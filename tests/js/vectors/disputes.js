// spec/vectors disputes/ (11.3, 11.4) in every vector set the seat plays: for each golden
// transcript, the seat's own disputePackages builds the package of every frame, whose
// SHA-256 must be the vector's (and whose bytes must be those shipped in `<name>.packages`
// where they are), disputePackage gives the same bytes alone, committedStateHashes the
// committed state hashes, and checkStep, given that hash, the vector's verdict (unusable
// with its code, valid with the next state's hash, or the violation's rule, seat, frame
// and blame, which at the violating frame are also the full replay's). Every crafted
// package of crafted.packages (one check of 11.4 failed each) must hash to its vector and
// be judged as it states.
import sodium from "../../../peers/web/seat/vendor/sodium.mjs";
import { DealerlessError, LocalError } from "../../../peers/web/seat/protocol/errors.js";
import { bytesEqual, fromHex, toHex } from "../../../peers/web/seat/protocol/frames.js";
import { Transcript } from "../../../peers/web/seat/protocol/transcript.js";
import { checkStep, committedStateHashes, disputePackage, disputePackages }
  from "../../../peers/web/seat/protocol/verifier.js";

/** The vector sets of the libsodium suites (dealerless/2's, then each suite's). */
const SETS = ["", "suites/edwards25519-sha512/", "suites/ristretto255-sha512/"];
/** The quick run: the default suite's crafted packages, and these of its goldens (a whole
 * game, a rules violation and evidence, each with its package bytes shipped). */
const QUICK_SET = "suites/ristretto255-sha512/";
const QUICK_GOLDEN = ["valid", "illegal-placement", "equivocation"];

/** A `.packages` file: records u32be(len) || package. */
function records(data) {
  const out = [];
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let pos = 0; pos < data.length;) {
    const n = view.getUint32(pos);
    out.push(data.subarray(pos + 4, pos + 4 + n));
    pos += 4 + n;
  }
  return out;
}

const sha256 = (bytes) => toHex(sodium.crypto_hash_sha256(bytes));

/** check_step's verdict as a vector states it (tools/gen_disputes.py verdict_json). */
function verdictJson(pkg, committed) {
  let v;
  try {
    v = checkStep(pkg, committed === null ? null : fromHex(committed));
  } catch (exc) {
    if (exc instanceof DealerlessError) return { usable: false, code: exc.code };
    throw exc;
  }
  if (v.valid) return { usable: true, valid: true, next_state_hash: toHex(v.nextStateHash) };
  const x = v.violation;
  return { usable: true, valid: false, rule: x.code, seat: x.seat, frame: x.frame,
    authenticated: x.authenticated };
}

/** A step's verdict fields (all but what names and locates it). */
const expectedOf = (step) => Object.fromEntries(Object.entries(step).filter(([k]) => ![
  "index", "record", "name", "package_sha256", "committed_state_hash", "note"].includes(k)));

/** The keys in which two verdicts differ, as text ('' when they agree). */
function differences(got, expected) {
  const text = (v) => (typeof v === "bigint" ? `${v}n` : JSON.stringify(v));
  const keys = [...new Set([...Object.keys(got), ...Object.keys(expected)])].sort();
  return keys.filter((k) => text(got[k]) !== text(expected[k]))
    .map((k) => `${k} ${text(got[k])}, expected ${text(expected[k])}`).join("; ");
}

const uncaught = (exc) => `uncaught ${exc?.name}: ${exc?.code ?? ""} ${exc?.message}`;

/**
 * One golden transcript's packages and verdicts. Returns [passed, failures]: one pass per
 * step whose package and verdict agree, plus one for the transcript-wide checks.
 */
function checkGolden(where, vec, data, shipped, replayed) {
  const failed = [];
  let passed = 0;
  const packages = [...disputePackages(data)];
  const committed = committedStateHashes(data).map(toHex);
  const frames = Transcript.decode(data).frames.length;
  if (packages.length !== vec.steps.length) {
    failed.push(`${where}: ${packages.length} packages, expected ${vec.steps.length}`);
  }
  const whole = [];
  if (shipped !== null) {
    const bytes = records(shipped);
    if (bytes.length !== packages.length || bytes.some((b, i) => !bytesEqual(b, packages[i]))) {
      whole.push("the packages are not the shipped bytes");
    }
  }
  // The same bytes as alone; none beyond the last committed state.
  for (const n of new Set([0, packages.length >> 1, packages.length - 1])) {
    if (!bytesEqual(disputePackage(data, n), packages[n])) {
      whole.push(`disputePackage(${n}) differs`);
    }
  }
  if (packages.length < frames) {
    try {
      disputePackage(data, packages.length);
      whole.push(`disputePackage(${packages.length}) past the violation gave a package`);
    } catch (exc) {
      if (!(exc instanceof LocalError)) whole.push(`disputePackage past: ${uncaught(exc)}`);
    }
  }
  if (whole.length) failed.push(`${where}: ${whole.join("; ")}`);
  else passed += 1;
  vec.steps.forEach((step, n) => {
    const at = `${where} frame ${step.index}`;
    const pkg = packages[n];
    if (pkg === undefined) return;
    const wrong = [];
    if (sha256(pkg) !== step.package_sha256) wrong.push("package SHA-256 differs");
    if (committed[n] !== step.committed_state_hash) {
      wrong.push(`committed state hash ${committed[n]}`);
    }
    let got;
    try {
      got = verdictJson(pkg, step.committed_state_hash);
    } catch (exc) {
      failed.push(`${at}: ${uncaught(exc)}`);
      return;
    }
    const diff = differences(got, expectedOf(step));
    if (diff) wrong.push(diff);
    // The violating frame is judged as the full replay judges it; every one before is valid.
    if (replayed && step.index === replayed.frame) {
      const replayDiff = differences(
        { rule: got.rule, seat: got.seat, frame: got.frame, authenticated: got.authenticated },
        { rule: replayed.rule, seat: replayed.seat, frame: replayed.frame,
          authenticated: replayed.authenticated });
      if (replayDiff) wrong.push(`not the replay's verdict: ${replayDiff}`);
    } else if ((!replayed || step.index < replayed.frame) && !got.valid) {
      wrong.push("a frame the replay accepts is not valid");
    }
    if (wrong.length) failed.push(`${at}: ${wrong.join("; ")}`);
    else passed += 1;
  });
  return [passed, failed];
}

/**
 * Every set's golden and crafted dispute vectors. `quick` checks the default suite's
 * crafted packages and its goldens with shipped packages (QUICK_GOLDEN); the whole run,
 * every golden transcript of every set, is under -m slow (tests/test_seat_vectors.py).
 */
export async function run(load, { quick = false } = {}) {
  let passed = 0;
  const failed = [];
  const times = [];
  for (const dir of quick ? [QUICK_SET] : SETS) {
    const index = JSON.parse(await load(`${dir}disputes/index.json`));
    const replays = JSON.parse(await load(`${dir}transcripts/index.json`)).transcripts;
    // The crafted packages: one check of 11.4 each.
    const started = performance.now();
    const crafted = records(await load(`${dir}disputes/${index.crafted.packages}`, "bytes"));
    if (crafted.length !== index.crafted.steps.length) {
      failed.push(`${dir}crafted: ${crafted.length} records, ${index.crafted.steps.length} steps`);
    }
    for (const step of index.crafted.steps) {
      const pkg = crafted[step.record];
      const at = `${dir}crafted ${step.record} (${step.name})`;
      if (pkg === undefined) {
        failed.push(`${at}: no such record`);
        continue;
      }
      let got;
      try {
        got = verdictJson(pkg, step.committed_state_hash);
      } catch (exc) {
        failed.push(`${at}: ${uncaught(exc)}`);
        continue;
      }
      const wrong = [differences(got, expectedOf(step))];
      if (sha256(pkg) !== step.package_sha256) wrong.unshift("package SHA-256 differs");
      const text = wrong.filter(Boolean).join("; ");
      if (text) failed.push(`${at}: ${text}`);
      else passed += 1;
    }
    times.push([performance.now() - started, `${dir}crafted`, crafted.length]);
    // The golden transcripts: every frame's package and verdict.
    for (const [name, vec] of Object.entries(index.golden)) {
      if (quick && !QUICK_GOLDEN.includes(name)) continue;
      const where = `${dir}${name}`;
      const begun = performance.now();
      try {
        const data = await load(`${dir}transcripts/${vec.transcript}`, "bytes");
        const shipped = vec.packages ? await load(`${dir}disputes/${vec.packages}`, "bytes")
          : null;
        const [p, f] = checkGolden(where, vec, data, shipped, replays[name]?.violation ?? null);
        passed += p;
        failed.push(...f);
      } catch (exc) {
        failed.push(`${where}: ${uncaught(exc)}`);
      }
      times.push([performance.now() - begun, where, vec.steps.length]);
    }
  }
  times.sort((a, b) => b[0] - a[0]);
  for (const [ms, name, n] of times.slice(0, 5)) {
    console.log(`  disputes ${name}: ${n} packages, ${Math.round(ms)} ms`);
  }
  return { passed, failed };
}
