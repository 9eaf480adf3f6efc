// Schnorr proof of knowledge of a key share (spec/06-proofs.md 6.2).
//
// Statement: Y = x*G. Each seat proves knowledge of x for its published key share,
// bound to the game, step and seat, which rules out rogue-key attacks on the joint key
// (a seat cannot publish Y' = Z - sum(others) without knowing log Z).
import { EncodingError, ProofError } from "./errors.js";
import { concatBytes } from "./groups/xmd.js";
import { Tag } from "./tags.js";

/** A proof's size (6.2): two scalars of the suite. */
export function schnorrProofBytes(suite) {
  return 2 * suite.scalarBytes;
}

/** (c, s): challenge c and response s = k + c*x mod the order (6.2). */
export class SchnorrProof {
  /** @param {bigint} c @param {bigint} s */
  constructor(c, s) {
    this.c = c;
    this.s = s;
  }

  /** c || s, each scalar in the suite's encoding (2.4). */
  encode(suite) {
    const half = suite.scalarBytes;
    const out = new Uint8Array(2 * half);
    out.set(suite.encodeScalar(this.c), 0);
    out.set(suite.encodeScalar(this.s), half);
    return out;
  }

  /** Strict decoding (6.2): exact length (`schnorr/length`), then each scalar by 2.4. */
  static decode(suite, data) {
    const size = schnorrProofBytes(suite);
    if (!(data instanceof Uint8Array) || data.length !== size) {
      throw new EncodingError("schnorr/length", `a Schnorr proof is exactly ${size} bytes`);
    }
    const half = suite.scalarBytes;
    return new SchnorrProof(suite.decodeScalar(data.subarray(0, half)),
      suite.decodeScalar(data.subarray(half)));
  }
}

/** c = H_scalar(SCHNORR, ctx, G, Y, R) (6.2). */
export function schnorrChallenge(ctx, key, commitment) {
  const s = ctx.suite;
  return s.hashToScalar(Tag.SCHNORR, ctx.encode(), s.group.generator.data, key.data,
    commitment.data);
}

/**
 * Prove knowledge of `secret` = log_G(secret*G) under `ctx` (6.2); `fresh` is at least
 * 32 bytes from the caller's CSPRNG (3.4).
 * @param {bigint} secret
 * @returns {SchnorrProof}
 */
export function proveKey(secret, ctx, fresh) {
  const s = ctx.suite;
  const g = s.group;
  const x = mod(secret, s.order);
  const key = g.baseMul(x);
  const [k] = s.nonceScalars(Tag.SCHNORR.value, s.encodeScalar(x),
    concatBytes(ctx.encode(), key.data), fresh, 1);
  const c = schnorrChallenge(ctx, key, g.baseMul(k));
  return new SchnorrProof(c, mod(k + c * x, s.order));
}

/** Throw ProofError `schnorr/challenge` unless `proof` shows knowledge of log_G(key)
 * under `ctx` (6.2); `key` is a decoded element (2.3). */
export function verifyKey(key, proof, ctx) {
  const g = ctx.suite.group;
  const commitment = g.sub(g.baseMul(proof.s), g.mul(proof.c, key));
  if (schnorrChallenge(ctx, key, commitment) !== proof.c) {
    throw new ProofError("schnorr/challenge",
      "recomputed challenge differs: key proof invalid");
  }
}

function mod(a, q) {
  const r = a % q;
  return r < 0n ? r + q : r;
}
