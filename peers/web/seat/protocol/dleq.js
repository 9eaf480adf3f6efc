// Chaum-Pedersen proof of equal discrete logs (spec/06-proofs.md 6.3).
//
// Statement: log_G(Y_i) = log_{c1}(D_i), i.e. the decryption share D_i = x_i*c1 was made
// with the secret behind the seat's published key share Y_i.
import { EncodingError, ProofError } from "./errors.js";
import { concatBytes } from "./groups/xmd.js";
import { Tag } from "./tags.js";

/** A proof's size (6.3): two scalars of the suite. */
export function dleqProofBytes(suite) {
  return 2 * suite.scalarBytes;
}

/** (c, s): challenge c and response s = k + c*x mod the order (6.3, 6.3.1). */
export class DleqProof {
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

  /** Strict decoding (6.3): exact length (`dleq/length`), then each scalar by 2.4. */
  static decode(suite, data) {
    const size = dleqProofBytes(suite);
    if (!(data instanceof Uint8Array) || data.length !== size) {
      throw new EncodingError("dleq/length", `a DLEQ proof is exactly ${size} bytes`);
    }
    const half = suite.scalarBytes;
    return new DleqProof(suite.decodeScalar(data.subarray(0, half)),
      suite.decodeScalar(data.subarray(half)));
  }
}

/** c = H_scalar(DLEQ, ctx, G, Y_i, c1, D_i, A, B) (6.3). */
export function dleqChallenge(ctx, key, c1, share, a, b) {
  const s = ctx.suite;
  return s.hashToScalar(Tag.DLEQ, ctx.encode(), s.group.generator.data, key.data, c1.data,
    share.data, a.data, b.data);
}

/**
 * [D, proof] with D = secret*c1 and a proof that log_G(Y) = log_c1(D) (6.3).
 * @param {bigint} secret
 * @returns {[object, DleqProof]}
 */
export function proveDleq(secret, c1, ctx, fresh) {
  const s = ctx.suite;
  const g = s.group;
  const x = mod(secret, s.order);
  const key = g.baseMul(x);
  const share = g.mul(x, c1);
  const [k] = s.nonceScalars(Tag.DLEQ.value, s.encodeScalar(x),
    concatBytes(ctx.encode(), key.data, c1.data), fresh, 1);
  const c = dleqChallenge(ctx, key, c1, share, g.baseMul(k), g.mul(k, c1));
  return [share, new DleqProof(c, mod(k + c * x, s.order))];
}

/** Throw ProofError `dleq/challenge` unless log_G(key) = log_c1(share), proven under
 * `ctx` (6.3). Every element is decoded (2.3) or the verifier's own. */
export function verifyDleq(key, c1, share, proof, ctx) {
  const g = ctx.suite.group;
  const q = ctx.suite.order;
  const minusC = mod(-proof.c, q);
  const a = g.sub(g.baseMul(proof.s), g.mul(proof.c, key));
  const b = g.msm([proof.s, minusC], [c1, share]);
  if (dleqChallenge(ctx, key, c1, share, a, b) !== proof.c) {
    throw new ProofError("dleq/challenge",
      "recomputed challenge differs: share proof invalid");
  }
}

function mod(a, q) {
  const r = a % q;
  return r < 0n ? r + q : r;
}
