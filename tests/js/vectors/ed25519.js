// spec/vectors/ed25519.json: Ed25519 frame signatures under 8.3's Verify (spec/08-wire.md
// 8.3): each entry's outcome, and the first step of Verify that fails.
import { verifySignature } from "../../../peers/web/seat/protocol/identity.js";
import { ED25519 } from "../../../peers/web/seat/protocol/suite.js";
import { ed25519FailingStep } from "../../../peers/web/seat/protocol/signature.js";

const unhex = (t) => Uint8Array.from(t.match(/../g) ?? [], (h) => parseInt(h, 16));

export async function run(load) {
  const { vectors } = JSON.parse(await load("ed25519.json"));
  let passed = 0;
  const failed = [];
  for (const v of vectors) {
    const [key, message, signature] = [unhex(v.key), unhex(v.message), unhex(v.signature)];
    const outcome = (fn) => { try { fn(); return "ok"; } catch (err) { return err.code ?? `${err}`; } };
    const got = outcome(() => ED25519.verify(key, message, signature));
    const again = outcome(() => verifySignature(key, message, signature));
    const step = ed25519FailingStep(key, message, signature);
    const gotStep = step === 0 ? "ok" : String(step);
    if (got !== v.expected || again !== v.expected) {
      failed.push(`${v.name}: expected ${v.expected}, got ${got} / ${again}`);
    } else if (gotStep !== String(v.fails_at_step)) {
      failed.push(`${v.name}: fails at step ${gotStep}, not ${v.fails_at_step}`);
    } else {
      passed += 1;
    }
  }
  return { passed, failed };
}
