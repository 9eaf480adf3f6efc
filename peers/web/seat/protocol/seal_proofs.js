// The generator and the proofs of sealed commitments (spec/06-proofs.md 6.6.1, 6.6.2).
//
// All three proofs are one sigma protocol, knowledge of x with image_b = x*base_b for
// every base b (one base: Schnorr; two: Chaum-Pedersen), each under its own challenge
// tag and with its whole statement hashed (3.1):
//
//     share key       x*G = y_j                                 SEAL_KEY_PROOF (6.6.2)
//     encrypted share p(e)*Hs = X_e  and  p(e)*y_e = Y_e        SEAL_SHARE     (6.6.4)
//     decryption      x*G = y_e  and  x*S_e = Y_e               SEAL_DECRYPT   (6.6.7)
//
// A proof is (c, z): announcements A_b = k*base_b, c = H_scalar(tag, statement...,
// A_1, ..., A_n), z = k + c*x. The verifier recomputes A_b' = z*base_b - c*image_b.
import { LocalError, SealError } from "./errors.js";
import { bytesEqual } from "./groups/base.js";
import { concatBytes } from "./groups/xmd.js";
import { Tag, requireFresh, u64 } from "./tags.js";

const generators = new WeakMap();

/** Hs = H2P(SEAL_GENERATOR) with no parts (6.6.1): nobody knows log_G Hs. */
export function sealGenerator(suite) {
  let hs = generators.get(suite);
  if (!hs) {
    hs = suite.hashToPoint(Tag.SEAL_GENERATOR);
    generators.set(suite, hs);
  }
  return hs;
}

/** (c, z): challenge c and response z = k + c*x mod the order (6.6.1). */
export class SealProof {
  /** @param {bigint} c @param {bigint} z */
  constructor(c, z) {
    this.c = c;
    this.z = z;
  }

  /** [c, z]: two scalars (2.4), two items on the wire. */
  encode(suite) {
    return [suite.encodeScalar(this.c), suite.encodeScalar(this.z)];
  }

  /** Strict: two canonical scalars (2.4); EncodingError `scalar/*` otherwise. */
  static decode(suite, c, z) {
    return new SealProof(suite.decodeScalar(c), suite.decodeScalar(z));
  }
}

function times(g, k, base) {
  return bytesEqual(base.data, g.generator.data) ? g.baseMul(k) : g.mul(k, base);
}

/** The sigma proof of 6.6.1 with nonce k (hedged by the caller, 3.4). */
export function proveEqualLogs(suite, tag, statement, x, bases, k) {
  const g = suite.group;
  const announcements = bases.map((b) => times(g, k, b).data);
  const c = suite.hashToScalar(tag, ...statement, ...announcements);
  return new SealProof(c, mod(k + c * x, suite.order));
}

/** Throw `failure` unless `proof` shows one x with images[b] = x*bases[b] for every b
 * (6.6.1): a check that cannot be ignored, as a returned boolean could be. Each
 * announcement z*P - c*I is a two-term MSM (6.6.9). */
export function requireEqualLogs(suite, tag, statement, bases, images, proof, failure) {
  const g = suite.group;
  if (bases.length !== images.length) throw new LocalError("seal/proof", "one image a base");
  const minusC = mod(-proof.c, suite.order);
  const announcements = bases.map((b, i) => (bytesEqual(b.data, g.generator.data)
    ? g.add(g.baseMul(proof.z), g.mul(minusC, images[i]))
    : g.msm([proof.z, minusC], [b, images[i]])).data);
  if (suite.hashToScalar(tag, ...statement, ...announcements) !== proof.c) throw failure;
}

/** A seat's seal key x_j = H_scalar(SEAL_KEY, seed, game_id) (6.6.2; informative:
 * nobody can check how a seat derives its key). */
export function shareKey(suite, secretSeed, gameId) {
  requireFresh(secretSeed);
  const x = suite.hashToScalar(Tag.SEAL_KEY, secretSeed, gameId);
  if (x === 0n) throw new LocalError("seal/zero-key", "the seal key derived to zero");
  return x;
}

function keyStatement(suite, gameId, seat, key) {
  return [gameId, u64(seat), suite.group.generator.data, key.data];
}

/** [y_j, proof of possession of x_j] for seat j's share key (6.6.2). */
export function proveShareKey(suite, x, gameId, seat, fresh) {
  const g = suite.group;
  const key = g.baseMul(x);
  const statement = keyStatement(suite, gameId, seat, key);
  const [k] = suite.nonceScalars(Tag.SEAL_KEY_PROOF.value, suite.encodeScalar(x),
    concatBytes(...statement), fresh, 1);
  return [key, proveEqualLogs(suite, Tag.SEAL_KEY_PROOF, statement, x, [g.generator], k)];
}

/** Throw SealError `seal/key-proof` (blaming `seat`) unless `proof` shows that seat knows
 * log_G `key` (6.6.2). `key` is a decoded element (2.3). */
export function verifyShareKey(suite, key, proof, gameId, seat) {
  requireEqualLogs(suite, Tag.SEAL_KEY_PROOF, keyStatement(suite, gameId, seat, key),
    [suite.group.generator], [key], proof,
    new SealError("seal/key-proof", `seat ${seat}'s seal key proof does not verify`, seat));
}

function mod(a, q) {
  const r = a % q;
  return r < 0n ? r + q : r;
}

