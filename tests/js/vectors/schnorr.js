// spec/vectors schnorr.json (6.2) in every vector set the seat plays: each positive
// verifies and is reproduced from its secret and fresh (the nonce k, R, c, s and the
// proof's bytes); each negative fails with its code.
import { DealerlessError } from "../../../peers/web/seat/protocol/errors.js";
import { SchnorrProof, proveKey, verifyKey } from "../../../peers/web/seat/protocol/schnorr.js";
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { Tag } from "../../../peers/web/seat/protocol/tags.js";
import { ctxFrom, hex, outcome, SETS, toHex, withCase } from "../vector_common.js";

function check(S, v) {
  verifyKey(S.decodePoint(hex(v.key)), SchnorrProof.decode(S, hex(v.proof)), ctxFrom(S, v.context));
}

export async function run(load) {
  let passed = 0;
  const failed = [];
  const expect = (ok, what) => { if (ok) passed += 1; else failed.push(what); };
  for (const [dir, name, version] of SETS) {
    const S = suite(name, version);
    const V = JSON.parse(await load(`${dir}schnorr.json`));
    const where = `${dir || "dealerless/2 "}schnorr.json`;
    for (const v of V.positive) {
      const at = `${where}: ${v.name}`;
      const got = outcome(() => check(S, v));
      expect(got === v.expected, `${at}: verify gave ${got}`);
      const g = S.group;
      const x = BigInt(v.secret);
      const ctx = ctxFrom(S, v.context);
      const key = g.baseMul(x);
      expect(toHex(key.data) === v.key, `${at}: key`);
      const [k] = S.nonceScalars(Tag.SCHNORR.value, S.encodeScalar(x),
        Uint8Array.from([...ctx.encode(), ...key.data]), hex(v.fresh), 1);
      expect(String(k) === v.nonce, `${at}: nonce k`);
      expect(toHex(g.baseMul(k).data) === v.commitment, `${at}: commitment R`);
      const proof = proveKey(x, ctx, hex(v.fresh));
      expect(String(proof.c) === v.challenge && String(proof.s) === v.response,
        `${at}: challenge and response`);
      expect(toHex(proof.encode(S)) === v.proof, `${at}: the prover's bytes`);
    }
    for (const neg of V.negative) {
      const got = outcome(() => check(S, withCase(neg, V.positive)));
      expect(got === neg.expected, `${where}: ${neg.case}: ${neg.name}: got ${got}, expected ${neg.expected}`);
    }
  }
  return { passed, failed };
}
