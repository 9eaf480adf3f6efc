// One Chaum-Pedersen proof for a batch of decryption shares (spec/06-proofs.md 6.3.1).
//
// From dealerless/3 a DEAL, REVEAL or DRAW carries its shares D_j = x*c1_j and a single
// proof that log_G(Y) = log_{c1_j}(D_j) for every j. The shares are folded by a random
// linear combination whose weights are hashed from the whole batch (the seed) after the
// prover has fixed it; the first weight is 1, so a batch of one costs a plain DLEQ. The
// verifier's second commitment is one multi-scalar multiplication of 2n terms.
import { DleqProof } from "./dleq.js";
import { LocalError, ProofError } from "./errors.js";
import { concatBytes } from "./groups/xmd.js";
import { Tag, u64 } from "./tags.js";

export { DleqProof };

/** seed = H(DLEQ_SEED, ctx, G, Y, c1_0, D_0, ..., c1_{n-1}, D_{n-1}) (6.3.1). */
export function batchSeed(ctx, key, c1s, shares) {
  if (c1s.length !== shares.length) {
    throw new LocalError("dleq/empty-batch", "a batch pairs each c1 with one share");
  }
  const s = ctx.suite;
  const parts = [];
  for (let j = 0; j < c1s.length; j++) parts.push(c1s[j].data, shares[j].data);
  return s.H(Tag.DLEQ_SEED, ctx.encode(), s.group.generator.data, key.data, ...parts);
}

/** w_0 = 1, w_j = H_scalar(DLEQ_WEIGHT, seed, u64(j)) for 0 < j < n (6.3.1). */
export function batchWeights(suite, seed, n) {
  const w = [1n];
  for (let j = 1; j < n; j++) w.push(suite.hashToScalar(Tag.DLEQ_WEIGHT, seed, u64(j)));
  return w;
}

/** c = H_scalar(DLEQ_BATCH, ctx, seed, A, B) (6.3.1). */
export function batchChallenge(ctx, seed, a, b) {
  return ctx.suite.hashToScalar(Tag.DLEQ_BATCH, ctx.encode(), seed, a.data, b.data);
}

/**
 * [shares, proof]: D_j = secret*c1_j for each c1 and one proof for all of them (6.3.1).
 * @param {bigint} secret
 */
export function proveDleqBatch(secret, c1s, ctx, fresh) {
  if (!c1s.length) throw new LocalError("dleq/empty-batch", "an empty batch has no proof");
  const s = ctx.suite;
  const g = s.group;
  const x = mod(secret, s.order);
  const key = g.baseMul(x);
  const shares = c1s.map((c1) => g.mul(x, c1));
  const seed = batchSeed(ctx, key, c1s, shares);
  const m = g.msm(batchWeights(s, seed, c1s.length), c1s);
  const [k] = s.nonceScalars(Tag.DLEQ_BATCH.value, s.encodeScalar(x),
    concatBytes(ctx.encode(), seed), fresh, 1);
  const c = batchChallenge(ctx, seed, g.baseMul(k), g.mul(k, m));
  return [shares, new DleqProof(c, mod(k + c * x, s.order))];
}

/**
 * Throw ProofError `dleq/challenge` unless every share is log_G(key) times its c1,
 * proven under ctx (6.3.1). B' = s*M - c*Z is one MSM of the 2n terms (s w_j) c1_j and
 * (-c w_j) D_j.
 */
export function verifyDleqBatch(key, c1s, shares, proof, ctx) {
  if (!c1s.length || c1s.length !== shares.length) {
    throw new LocalError("dleq/empty-batch", "a batch proof covers one or more shares");
  }
  const s = ctx.suite;
  const g = s.group;
  const q = s.order;
  const seed = batchSeed(ctx, key, c1s, shares);
  const w = batchWeights(s, seed, c1s.length);
  const a = g.sub(g.baseMul(proof.s), g.mul(proof.c, key));
  const scalars = w.map((wj) => proof.s * wj % q);
  for (const wj of w) scalars.push(mod(-proof.c * wj, q));
  const b = g.msm(scalars, [...c1s, ...shares]);
  if (batchChallenge(ctx, seed, a, b) !== proof.c) {
    throw new ProofError("dleq/challenge",
      "recomputed challenge differs: a share of the batch is invalid");
  }
}

function mod(a, q) {
  const r = a % q;
  return r < 0n ? r + q : r;
}
