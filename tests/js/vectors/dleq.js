// spec/vectors dleq.json (6.3, and 6.3.1's batches from dealerless/3) in every vector set
// the seat plays: each positive verifies and is reproduced from its secret and fresh (the
// share, nonce, commitments, challenge, response and the proof's bytes; a batch's shares,
// seed and weights); each negative fails with its code.
import { DleqProof, proveDleq, verifyDleq } from "../../../peers/web/seat/protocol/dleq.js";
import {
  batchSeed, batchWeights, proveDleqBatch, verifyDleqBatch,
} from "../../../peers/web/seat/protocol/dleq_batch.js";
import { DealerlessError } from "../../../peers/web/seat/protocol/errors.js";
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { Tag } from "../../../peers/web/seat/protocol/tags.js";
import { ctxFrom, hex, outcome, SETS, toHex, withCase } from "../vector_common.js";

const point = (S, h) => S.decodePoint(hex(h));

function check(S, v) {
  verifyDleq(point(S, v.key), point(S, v.c1), point(S, v.share),
    DleqProof.decode(S, hex(v.proof)), ctxFrom(S, v.context));
}

function checkBatch(S, v) {
  verifyDleqBatch(point(S, v.key), v.c1s.map((c) => point(S, c)),
    v.shares.map((d) => point(S, d)), DleqProof.decode(S, hex(v.proof)), ctxFrom(S, v.context));
}

export async function run(load) {
  let passed = 0;
  const failed = [];
  const expect = (ok, what) => { if (ok) passed += 1; else failed.push(what); };
  for (const [dir, name, version] of SETS) {
    const S = suite(name, version);
    const g = S.group;
    const V = JSON.parse(await load(`${dir}dleq.json`));
    const where = `${dir || "dealerless/2 "}dleq.json`;
    for (const v of V.positive) {
      const at = `${where}: ${v.name}`;
      const got = outcome(() => check(S, v));
      expect(got === v.expected, `${at}: verify gave ${got}`);
      const x = BigInt(v.secret);
      const ctx = ctxFrom(S, v.context);
      const c1 = point(S, v.c1);
      expect(toHex(g.baseMul(x).data) === v.key, `${at}: key`);
      const [k] = S.nonceScalars(Tag.DLEQ.value, S.encodeScalar(x),
        Uint8Array.from([...ctx.encode(), ...hex(v.key), ...c1.data]), hex(v.fresh), 1);
      expect(String(k) === v.nonce, `${at}: nonce k`);
      expect(toHex(g.baseMul(k).data) === v.commitment_a, `${at}: commitment A`);
      expect(toHex(g.mul(k, c1).data) === v.commitment_b, `${at}: commitment B`);
      const [share, proof] = proveDleq(x, c1, ctx, hex(v.fresh));
      expect(toHex(share.data) === v.share, `${at}: share`);
      expect(String(proof.c) === v.challenge && String(proof.s) === v.response,
        `${at}: challenge and response`);
      expect(toHex(proof.encode(S)) === v.proof, `${at}: the prover's bytes`);
    }
    for (const neg of V.negative) {
      const got = outcome(() => check(S, withCase(neg, V.positive)));
      expect(got === neg.expected, `${where}: ${neg.case}: ${neg.name}: got ${got}, expected ${neg.expected}`);
    }
    if (!V.batch) continue;
    for (const v of V.batch.positive) {
      const at = `${where}: ${v.name}`;
      const got = outcome(() => checkBatch(S, v));
      expect(got === v.expected, `${at}: verify gave ${got}`);
      const ctx = ctxFrom(S, v.context);
      const c1s = v.c1s.map((c) => point(S, c));
      const [shares, proof] = proveDleqBatch(BigInt(v.secret), c1s, ctx, hex(v.fresh));
      expect(shares.map((d) => toHex(d.data)).join() === v.shares.join(), `${at}: shares`);
      const seed = batchSeed(ctx, point(S, v.key), c1s, shares);
      expect(toHex(seed) === v.seed, `${at}: seed`);
      expect(batchWeights(S, seed, c1s.length).map(String).join() === v.weights.join(),
        `${at}: weights`);
      expect(String(proof.c) === v.challenge && String(proof.s) === v.response,
        `${at}: challenge and response`);
      expect(toHex(proof.encode(S)) === v.proof, `${at}: the prover's bytes`);
    }
    for (const neg of V.batch.negative) {
      const got = outcome(() => checkBatch(S, withCase(neg, V.batch.positive)));
      expect(got === neg.expected, `${where}: batch ${neg.case}: ${neg.name}: got ${got}, expected ${neg.expected}`);
    }
  }
  return { passed, failed };
}
