// spec/vectors/suites/{edwards25519,ristretto255}-sha512/signatures.json: frame signatures
// of 8.3 under dealerless/3's prefix, made from their seeds, and each change Verify
// refuses, with the frame-key check of 8.2 rule 11 on every entry's key.
import { Identity } from "../../../peers/web/seat/protocol/identity.js";
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { frameSignaturePrefix } from "../../../peers/web/seat/protocol/version.js";

const unhex = (t) => Uint8Array.from(t.match(/../g) ?? [], (h) => parseInt(h, 16));
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

export async function run(load) {
  let passed = 0;
  const failed = [];
  const outcome = (fn) => { try { fn(); return "ok"; } catch (err) { return err.code ?? `${err}`; } };
  for (const name of ["edwards25519-sha512", "ristretto255-sha512"]) {
    const d = JSON.parse(await load(`suites/${name}/signatures.json`));
    const s = suite(name, 3);
    const signer = s.signer;
    const bad = [];
    if (d.about.scheme !== "ed25519") bad.push(`scheme ${d.about.scheme}`);
    if (hex(frameSignaturePrefix(3)) !== d.prefix) bad.push("prefix differs");
    const byName = new Map(d.positive.map((v) => [v.name, v]));
    for (const v of d.positive) {
      const seed = unhex(v.seed);
      const why = [];
      if (hex(signer.publicKey(seed)) !== v.key) why.push("key");
      if (hex(new Identity(seed).frameKey(s)) !== v.key) why.push("Identity.frameKey");
      if (d.prefix + v.payload !== v.message) why.push("message is not prefix || payload");
      const message = unhex(v.message);
      if (hex(signer.sign(seed, message, unhex(v.fresh))) !== v.signature) why.push("signature");
      if (hex(new Identity(seed).sign(message)) !== v.signature) why.push("Identity.sign");
      const got = outcome(() => signer.verify(unhex(v.key), message, unhex(v.signature)));
      if (got !== v.expected) why.push(`verify ${got}`);
      const check = outcome(() => signer.checkKey(unhex(v.key)));
      if (check !== v.key_check) why.push(`key check ${check}`);
      if (why.length) failed.push(`${name} ${v.name}: ${why.join(", ")}`);
      else passed += 1;
    }
    for (const v of d.negative) {
      const base = byName.get(v.case);
      if (!base) { failed.push(`${name} ${v.name}: no case ${v.case}`); continue; }
      const e = { ...base, ...v };
      const got = outcome(() => signer.verify(unhex(e.key), unhex(e.message), unhex(e.signature)));
      const check = outcome(() => signer.checkKey(unhex(e.key)));
      if (got !== v.expected) failed.push(`${name} ${v.name}: expected ${v.expected}, got ${got}`);
      else if (check !== v.key_check) failed.push(`${name} ${v.name}: key check ${check}, not ${v.key_check}`);
      else passed += 1;
    }
    if (bad.length) failed.push(`${name}: ${bad.join(", ")}`);
    else passed += 1;
  }
  return { passed, failed };
}
