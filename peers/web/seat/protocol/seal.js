// Sealed commitments: a publicly verifiable secret sharing (spec/06-proofs.md 6.6).
//
// A committer seals a fixed-length plaintext for m recipients so that, once published,
// any t = m // 2 + 1 of them can open it without the committer, every receiver can check
// at once that they will be able to, and fewer than t learn nothing. The committer deals
// shares of a secret s (p(0) = s, commitments C_i = a_i*Hs, share p(e)*y_e encrypted to
// recipient e's key with a proof) and encrypts the plaintext under the keystream of
// S = s*G. Opening: the committer reveals s (6.6.6), or t recipients release
// S_e = x_e^-1 * Y_e with proofs and anyone combines them by Lagrange at 0 (6.6.7, 6.6.8).
//
// Every check throws SealError naming the seat to blame (6.6.5).
import { EncodingError, LocalError, SealError } from "./errors.js";
import { bytesEqual } from "./groups/base.js";
import { concatBytes } from "./groups/xmd.js";
import {
  SealProof, proveEqualLogs, proveShareKey, requireEqualLogs, sealGenerator, shareKey,
  verifyShareKey,
} from "./seal_proofs.js";
import { Tag, u64 } from "./tags.js";

export { SealProof, proveShareKey, sealGenerator, shareKey, verifyShareKey };

/** The committer's opening nonce, from which every coefficient derives (6.6.3). */
export const SEAL_NONCE_BYTES = 32;
export const SEAL_CONTEXT_BYTES = 32;
const SEAT_LIMIT = (1n << 64n) - 1n;

/** t = m // 2 + 1 shares open a seal for m >= 2 recipients; 1 (no shares) below (6.6.3). */
export function sealThreshold(m) {
  if (m < 0) throw new LocalError("seal/recipients", "a recipient count is not negative");
  return m >= 2 ? Math.floor(m / 2) + 1 : 1;
}

/** Who seals for whom (6.6.3), in which suite: `digest` is hashed into every seal hash.
 * `recipients` is a list of [seat, seal key element]. */
export class SealContext {
  constructor(suite, digest, committer, recipients, t) {
    this.suite = suite;
    this.digest = digest;
    this.committer = committer;
    this.recipients = recipients;
    this.t = t;
  }

  get m() { return this.recipients.length; }

  /** m shares for m >= 2 recipients, none below (6.6.3). */
  get shareCount() { return this.m >= 2 ? this.m : 0; }

  /** The index of `seat` among the recipients; LocalError `seal/not-recipient`. */
  position(seat) {
    const pos = this.recipients.findIndex(([s]) => s === seat);
    if (pos < 0) {
      throw new LocalError("seal/not-recipient", `seat ${seat} is not a recipient of this seal`);
    }
    return pos;
  }
}

/**
 * The context of seat `seat`'s seal in `stage` (6.6.3): digest = H(SEAL_CONTEXT, game_id,
 * u64 stage, u64 seat, u64 t, u64 j_1 || y_1 || ...)[0:32]. Recipients are [seat, key]
 * with seats strictly increasing, below 2^64 - 1 and not the committer; the keys were
 * decoded (2.3) and their proofs checked (6.6.2).
 */
export function sealContext(suite, gameId, stage, seat, recipients) {
  if (!(gameId instanceof Uint8Array) || gameId.length !== 32) {
    throw new LocalError("seal/context", "the game id is exactly 32 bytes");
  }
  const seats = recipients.map(([r]) => r);
  const ok = seats.every((r, i) => Number.isInteger(r) && r >= 0 && BigInt(r) < SEAT_LIMIT
    && (i === 0 || seats[i - 1] < r) && r !== seat);
  if (!ok) {
    throw new LocalError("seal/recipients", "recipient seats are strictly increasing, "
      + "below 2^64 - 1 and not the committer");
  }
  const t = sealThreshold(recipients.length);
  const listed = concatBytes(...recipients.flatMap(([r, y]) => [u64(r), y.data]));
  const digest = suite.H(Tag.SEAL_CONTEXT, gameId, u64(stage), u64(seat), u64(t), listed);
  return new SealContext(suite, digest.slice(0, SEAL_CONTEXT_BYTES), seat,
    recipients.map(([r, y]) => [r, y]), t);
}

/** Y_e = p(e)*y_e and the proof that log_Hs X_e = log_{y_e} Y_e (6.6.4). */
export class EncryptedShare {
  constructor(point, proof) { this.point = point; this.proof = proof; }
}

/** The wire value [commitments, shares, ciphertext] of 6.6.5. */
export class Seal {
  constructor(commitments, shares, ciphertext) {
    this.commitments = commitments;
    this.shares = shares;
    this.ciphertext = ciphertext;
  }

  /** The value to pack (8.1): [[C_i...], [[Y_j, c_j, z_j]...], ciphertext]. */
  encode(suite) {
    return [this.commitments.map((c) => c.data),
      this.shares.map((s) => [s.point.data, ...s.proof.encode(suite)]), this.ciphertext];
  }

  /** Strict decoding for ctx's t and share count and a `size`-byte plaintext (6.6.5
   * checks 1-3). Every failure is a SealError blaming the committer. */
  static decode(value, ctx, size) {
    return blaming(ctx.committer, () => decodeSealValue(value, ctx, size));
  }
}

const isBytes = (x) => x instanceof Uint8Array;

/** fn(), its EncodingError (point/*, scalar/*) turned into a SealError blaming `seat`. */
function blaming(seat, fn) {
  try {
    return fn();
  } catch (exc) {
    if (exc instanceof EncodingError) throw new SealError(exc.code, exc.detail, seat);
    throw exc;
  }
}

function decodeSealValue(value, ctx, size) {
  const shape = (ok, what) => {
    if (!ok) throw new SealError("seal/shape", what, ctx.committer);
  };
  shape(Array.isArray(value) && value.length === 3, "a seal is an array of 3");
  const [commits, shares, text] = value;
  shape(Array.isArray(commits) && commits.length === ctx.t, `a seal has ${ctx.t} commitments`);
  shape(Array.isArray(shares) && shares.length === ctx.shareCount,
    `a seal has ${ctx.shareCount} shares`);
  shape(isBytes(text) && text.length === size, `a seal's ciphertext is ${size} bytes`);
  shape(commits.every(isBytes), "a commitment is a byte string");
  for (const entry of shares) {
    shape(Array.isArray(entry) && entry.length === 3 && entry.every(isBytes),
      "a share is an array of 3 byte strings");
  }
  const suite = ctx.suite;
  // Every commitment before any share (check 2 before check 3).
  const points = commits.map((c) => suite.decodePoint(c));
  const decoded = shares.map(([y, c, z]) => new EncryptedShare(suite.decodePoint(y),
    SealProof.decode(suite, c, z)));
  return new Seal(points, decoded, text);
}

function coefficients(ctx, nonce) {
  if (!isBytes(nonce) || nonce.length !== SEAL_NONCE_BYTES) {
    throw new LocalError("seal/nonce", "a seal nonce is exactly 32 bytes");
  }
  const coeffs = [];
  for (let j = 0; j < ctx.t; j++) {
    coeffs.push(ctx.suite.hashToScalar(Tag.SEAL_COEFF, ctx.digest, nonce, u64(j)));
  }
  if (coeffs.includes(0n)) { // probability t * 2^-252; a zero C_j would not decode (2.3)
    throw new LocalError("seal/zero-coefficient", "a seal coefficient derived to zero");
  }
  return coeffs;
}

/** s = a_0, what the committer's OPEN reveals (6.6.3, 6.6.6). */
export function sealSecret(ctx, nonce) {
  return coefficients(ctx, nonce)[0];
}

/** data XOR H(SEAL_STREAM, ctx, S, u64 k) for blocks k = 0, 1, ... (6.6.3). */
function keystreamXor(ctx, point, data) {
  const stream = ctx.suite.stream(Tag.SEAL_STREAM, data.length, ctx.digest, point.data);
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i] ^ stream[i];
  return out;
}

function shareStatement(ctx, e, key, commitments, share) {
  return [ctx.digest, u64(e), sealGenerator(ctx.suite).data, key.data, commitments,
    share.data];
}

/** Seal `plaintext` for ctx's recipients (6.6.3, 6.6.4); `nonce` is the committer's
 * 32-byte secret, `fresh` the proofs' hedging randomness (3.4). */
export function deal(ctx, nonce, plaintext, fresh) {
  const coeffs = coefficients(ctx, nonce);
  const suite = ctx.suite;
  const g = suite.group;
  const q = suite.order;
  const hs = sealGenerator(suite);
  const commitments = coeffs.map((a) => g.mul(a, hs));
  const listed = concatBytes(...commitments.map((c) => c.data));
  const shares = [];
  if (ctx.shareCount) {
    const ks = suite.nonceScalars(Tag.SEAL_SHARE.value, nonce, concatBytes(ctx.digest, listed),
      fresh, ctx.m);
    ctx.recipients.forEach(([seat, key], i) => {
      const e = BigInt(seat + 1);
      let value = 0n;
      for (let j = coeffs.length - 1; j >= 0; j--) value = (value * e + coeffs[j]) % q;
      const point = g.mul(value, key);
      const proof = proveEqualLogs(suite, Tag.SEAL_SHARE,
        shareStatement(ctx, seat + 1, key, listed, point), value, [hs, key], ks[i]);
      shares.push(new EncryptedShare(point, proof));
    });
  }
  return new Seal(commitments, shares, keystreamXor(ctx, g.baseMul(coeffs[0]), plaintext));
}

/** n*P for a small positive n by doubling and adding: a few additions instead of a full
 * scalar multiplication (6.6.9). */
function smallMul(g, n, point) {
  let acc = point;
  for (const bit of n.toString(2).slice(1)) {
    acc = g.add(acc, acc);
    if (bit === "1") acc = g.add(acc, point);
  }
  return acc;
}

function checkCounts(ctx, seal) {
  if (seal.commitments.length !== ctx.t || seal.shares.length !== ctx.shareCount) {
    throw new SealError("seal/shape", "the seal's counts do not fit its context", ctx.committer);
  }
}

/** Check every share proof of a decoded seal (6.6.5 check 4); SealError
 * `seal/share-proof` blames the committer. X_e = sum_i e^i C_i by Horner. */
export function verifySeal(ctx, seal) {
  checkCounts(ctx, seal);
  if (!ctx.shareCount) return;
  const g = ctx.suite.group;
  const hs = sealGenerator(ctx.suite);
  const cs = seal.commitments;
  const listed = concatBytes(...cs.map((c) => c.data));
  ctx.recipients.forEach(([seat, key], i) => {
    const e = seat + 1;
    let xe = cs[cs.length - 1];
    for (let j = cs.length - 2; j >= 0; j--) xe = g.add(smallMul(g, e, xe), cs[j]);
    const share = seal.shares[i];
    requireEqualLogs(ctx.suite, Tag.SEAL_SHARE, shareStatement(ctx, e, key, listed, share.point),
      [hs, key], [xe, share.point], share.proof,
      new SealError("seal/share-proof", `the share for seat ${seat} does not match seat `
        + `${ctx.committer}'s commitments`, ctx.committer));
  });
}

/** The opening secret s from its wire bytes (2.4); a failure blames the committer. */
export function decodeSecret(ctx, data) {
  return blaming(ctx.committer, () => ctx.suite.decodeScalar(data));
}

/** The plaintext from the committer's own opening s (6.6.6): s*Hs must be C_0, else
 * SealError `seal/opening` blames the committer. */
export function openWithSecret(ctx, seal, s) {
  checkCounts(ctx, seal);
  const g = ctx.suite.group;
  if (typeof s !== "bigint" || s < 0n || s >= g.order) {
    throw new SealError("scalar/out-of-range", "an opening secret is less than the group order",
      ctx.committer);
  }
  if (!bytesEqual(g.mul(s, sealGenerator(ctx.suite)).data, seal.commitments[0].data)) {
    throw new SealError("seal/opening", `seat ${ctx.committer}'s opening secret does not `
      + "open its seal", ctx.committer);
  }
  return keystreamXor(ctx, g.baseMul(s), seal.ciphertext);
}

/** S_e = x_e^-1 * Y_e and the proof that log_G y_e = log_{S_e} Y_e (6.6.7). */
export class DecryptionShare {
  constructor(point, proof) { this.point = point; this.proof = proof; }

  /** [S_e, c, z] for the wire. */
  encode(suite) {
    return [this.point.data, ...this.proof.encode(suite)];
  }

  /** Strict [S_e, c, z] (points by 2.3, scalars by 2.4); a failure blames `seat`. */
  static decode(suite, value, seat) {
    if (!(Array.isArray(value) && value.length === 3 && value.every(isBytes))) {
      throw new SealError("seal/shape", "a decryption share is an array of 3 byte strings", seat);
    }
    return blaming(seat, () => new DecryptionShare(suite.decodePoint(value[0]),
      SealProof.decode(suite, value[1], value[2])));
  }
}

function decryptStatement(ctx, e, key, point, share) {
  return [ctx.digest, u64(e), ctx.suite.group.generator.data, key.data, point.data, share.data];
}

function requireShares(ctx) {
  if (ctx.shareCount) return;
  throw new LocalError("seal/no-shares", "a seal for fewer than 2 recipients has no shares");
}

/** Recipient `seat`'s decryption share of a verified seal, with its proof (6.6.7);
 * `x` is its seal key's secret. */
export function decryptionShare(ctx, seal, seat, x, fresh) {
  const pos = ctx.position(seat);
  requireShares(ctx);
  const key = ctx.recipients[pos][1];
  const suite = ctx.suite;
  const g = suite.group;
  if (!(x > 0n && x < g.order) || !bytesEqual(g.baseMul(x).data, key.data)) {
    throw new LocalError("seal/witness", `this is not seat ${seat}'s seal key`);
  }
  const share = seal.shares[pos].point;
  const point = g.mul(invert(x, g.order), share);
  const [k] = suite.nonceScalars(Tag.SEAL_DECRYPT.value, suite.encodeScalar(x),
    concatBytes(ctx.digest, u64(seat + 1), key.data, share.data), fresh, 1);
  const proof = proveEqualLogs(suite, Tag.SEAL_DECRYPT,
    decryptStatement(ctx, seat + 1, key, point, share), x, [g.generator, point], k);
  return new DecryptionShare(point, proof);
}

/** SealError `seal/decryption-proof`, blaming `seat`, unless share.point is
 * x_e^-1 * Y_e for recipient `seat` (6.6.7). */
export function verifyDecryptionShare(ctx, seal, seat, share) {
  const pos = ctx.position(seat);
  checkCounts(ctx, seal);
  requireShares(ctx);
  const key = ctx.recipients[pos][1];
  const encrypted = seal.shares[pos].point;
  requireEqualLogs(ctx.suite, Tag.SEAL_DECRYPT,
    decryptStatement(ctx, seat + 1, key, share.point, encrypted),
    [ctx.suite.group.generator, share.point], [key, encrypted], share.proof,
    new SealError("seal/decryption-proof", `seat ${seat}'s decryption share of seat `
      + `${ctx.committer}'s seal does not verify`, seat));
}

/** The plaintext from verified decryption shares (6.6.8), given as a Map (or an object)
 * from seat to S_e: the t lowest seats given are combined by Lagrange at 0. Any t give
 * the same S. */
export function combine(ctx, seal, shares) {
  checkCounts(ctx, seal);
  requireShares(ctx);
  const given = shares instanceof Map ? new Map(shares)
    : new Map(Object.entries(shares).map(([k, v]) => [Number(k), v]));
  if (given.size < ctx.t) {
    throw new LocalError("seal/too-few-shares", `combining needs ${ctx.t} shares`);
  }
  const seats = [...given.keys()].sort((a, b) => a - b).slice(0, ctx.t);
  for (const seat of seats) ctx.position(seat);
  return keystreamXor(ctx, interpolate(ctx.suite.group, seats, seats.map((s) => given.get(s))),
    seal.ciphertext);
}

/** sum_e lambda_e * S_e, lambda_e = prod_{f != e} f / (f - e) mod L, at e = seat + 1
 * (6.6.8). One inversion serves every denominator (Montgomery's trick). */
function interpolate(g, seats, points) {
  const q = g.order;
  const xs = seats.map((s) => BigInt(s + 1));
  const nums = xs.map((e) => xs.reduce((acc, f) => (f === e ? acc : acc * f % q), 1n));
  const dens = xs.map((e) => xs.reduce((acc, f) => (f === e ? acc : mod(acc * (f - e), q)), 1n));
  const prefix = [1n];
  for (const den of dens) prefix.push(prefix[prefix.length - 1] * den % q);
  let inv = invert(prefix[prefix.length - 1], q);
  const lambdas = new Array(xs.length);
  for (let i = xs.length - 1; i >= 0; i--) {
    lambdas[i] = nums[i] * inv % q * prefix[i] % q;
    inv = inv * dens[i] % q;
  }
  return g.msm(lambdas, points);
}

const mod = (a, q) => ((a % q) + q) % q;

/** a^-1 mod the prime q, by Fermat. */
function invert(a, q) {
  let result = 1n;
  let base = mod(a, q);
  for (let e = q - 2n; e > 0n; e >>= 1n) {
    if (e & 1n) result = result * base % q;
    base = base * base % q;
  }
  return result;
}

/** u16 big-endian length || data || zeros, `size` bytes in all (6.6.3). */
export function pad(data, size) {
  if (!(2 + data.length <= size && size < 1 << 20) || data.length >= 1 << 16) {
    throw new LocalError("seal/pad-size", `${data.length} bytes do not pad to ${size}`);
  }
  const out = new Uint8Array(size);
  out[0] = data.length >> 8;
  out[1] = data.length & 0xff;
  out.set(data, 2);
  return out;
}

/** Strict inverse of `pad`: a length beyond the data or a nonzero fill byte is the
 * committer's SealError `seal/padding` (6.6.3). */
export function unpad(data, committer) {
  const n = data.length >= 2 ? (data[0] << 8) | data[1] : 0;
  if (data.length < 2 || n > data.length - 2 || data.subarray(2 + n).some((b) => b !== 0)) {
    throw new SealError("seal/padding", `seat ${committer}'s sealed plaintext is not `
      + "padded as 6.6.3 requires", committer);
  }
  return data.slice(2, 2 + n);
}
