/**
 * The frame signature of a suite (spec/08-wire.md 8.3, spec/02-group.md 2.6); mirrors
 * protocol/signature.py.
 *
 * A seat's identity is one 32-byte seed. In a suite signed by Ed25519 its frame key is
 * the seed's Ed25519 key; Verify is 8.3's seven steps, 1 to 5 checked here on the bytes
 * (5 by decoding A) and 6 and 7 (k = SHA-512(R || A || m) mod L, encode([S]B - [k]A) = R) by
 * libsodium's crypto_sign_verify_detached, which also repeats 2 to 4. `SchnorrSigner` is
 * 2.6's Schnorr over a suite's group, as the Python has it (its suite, bls12381g1-sha256,
 * is not built here). Both refuse a bad signature as `frame/bad-signature`.
 * @module protocol/signature
 */
import sodium from "../vendor/sodium.mjs";
import { EncodingError } from "./errors.js";
import { intFromBytes } from "./groups/base.js";
import { GROUP as EDWARDS25519, P_FIELD } from "./groups/edwards25519.js";
import { concatBytes } from "./groups/xmd.js";
import { Tag } from "./tags.js";

export const SIGNATURE_BYTES = 64;

/** A signature does not verify under the claimed key. */
export class SignatureError extends EncodingError {}

/** @param {string} detail @returns {SignatureError} */
export function badSignature(detail) {
  return new SignatureError("frame/bad-signature", detail);
}

const L = EDWARDS25519.order;
const LOW_255 = (1n << 255n) - 1n;
/** 8.3 step 3: the y values of the small-order encodings, bit 255 cleared. */
const SMALL_ORDER_Y = new Set([0n, 1n, P_FIELD - 1n, P_FIELD, P_FIELD + 1n,
  2707385501144840649318225287225658788936804267575313519463743609750303402022n,
  55188659117513257062467267217118295137698188065244968500265048394206261417927n]);

/** One suite's way to make a frame key from a seed, sign and verify. */
export class FrameSigner {
  /** The frame key of the identity whose seed is `seed`. */
  publicKey(_seed) { throw new Error("abstract"); }

  /** The 64-byte signature of `message`; `fresh` hedges a scheme's nonce (3.4). */
  sign(_seed, _message, _fresh) { throw new Error("abstract"); }

  /** SignatureError `frame/bad-signature` unless `signature` is valid. */
  verify(_key, _message, _signature) { throw new Error("abstract"); }

  /** EncodingError `point/*` unless `key` may be a seat's frame key (8.2 rule 11). */
  checkKey(_key) { throw new Error("abstract"); }
}

/** RFC 8032's Ed25519, verified by 8.3's steps. */
export class Ed25519Signer extends FrameSigner {
  constructor() {
    super();
    this.keyBytes = 32;
  }

  /** @param {Uint8Array} seed @returns {Uint8Array} */
  publicKey(seed) {
    return sodium.crypto_sign_seed_keypair(seed).publicKey;
  }

  /**
   * Ed25519 signing is deterministic (RFC 8032 5.1.6): `fresh` is not needed.
   * @param {Uint8Array} seed
   * @param {Uint8Array} message
   * @param {Uint8Array} [_fresh]
   * @returns {Uint8Array}
   */
  sign(seed, message, _fresh) {
    const { privateKey } = sodium.crypto_sign_seed_keypair(seed);
    return sodium.crypto_sign_detached(message, privateKey);
  }

  /**
   * 8.3 Verify: cofactorless, S < L, no small-order A or R, A canonical. Throws
   * SignatureError `frame/bad-signature` in the reference's words, so that a verdict
   * reads the same in every port (`ed25519FailingStep` names the step).
   * @param {Uint8Array} key
   * @param {Uint8Array} message
   * @param {Uint8Array} signature
   */
  verify(key, message, signature) {
    if (key.length !== this.keyBytes || signature.length !== SIGNATURE_BYTES) {
      throw badSignature("key or signature has the wrong length");
    }
    if (ed25519FailingStep(key, message, signature)) {
      throw badSignature("the signature does not verify");
    }
  }

  /**
   * A key of small or mixed order verifies differently under cofactored and
   * cofactorless Ed25519: refusing it keeps every port's verdicts the same.
   * @param {Uint8Array} key
   */
  checkKey(key) {
    EDWARDS25519.decode(key);
  }
}

const STEPS = [null, "key or signature has the wrong length", "S is not below the group order",
  "R or the key has small order", "the key is not canonical", "the key is not on the curve",
  null, "encode([S]B - [k]A) is not R"];

/**
 * The first step of 8.3 Verify that fails (1 to 7; 6 cannot fail), or 0 when the Ed25519
 * signature is valid. Steps 1 to 5 are checked here on the bytes; libsodium's
 * crypto_sign_verify_detached then does 6 and 7 (after repeating 2 to 5, which agree).
 * @param {Uint8Array} key
 * @param {Uint8Array} message
 * @param {Uint8Array} signature
 * @returns {number}
 */
export function ed25519FailingStep(key, message, signature) {
  if (!(key instanceof Uint8Array) || !(signature instanceof Uint8Array)
      || key.length !== 32 || signature.length !== SIGNATURE_BYTES) return 1;
  if (intFromBytes(signature.subarray(32), "little") >= L) return 2;
  const rY = intFromBytes(signature.subarray(0, 32), "little") & LOW_255;
  const aY = intFromBytes(key, "little") & LOW_255;
  if (SMALL_ORDER_Y.has(rY) || SMALL_ORDER_Y.has(aY)) return 3;
  if (aY >= P_FIELD) return 4;
  try {
    sodium.crypto_core_ed25519_add(key, key);   // decodes A (RFC 8032 5.1.3) or throws
  } catch {
    return 5;
  }
  let ok = false;
  try {
    ok = sodium.crypto_sign_verify_detached(signature, message, key);
  } catch {
    ok = false;
  }
  return ok ? 0 : 7;
}

/**
 * Schnorr over the suite's group (2.6): key Y = x*G with x = H_scalar(FRAME_KEY, seed);
 * signature c || s with R = k*G, c = H_scalar(FRAME_SIGNATURE, Y, R, m), s = k + c*x;
 * valid exactly when c = H_scalar(FRAME_SIGNATURE, Y, s*G - c*Y, m).
 */
export class SchnorrSigner extends FrameSigner {
  /** @param {*} suite a Suite (suite.js) */
  constructor(suite) {
    super();
    this.suite = suite;
    this.keyBytes = suite.pointBytes;
  }

  _secret(seed) {
    const x = this.suite.hashToScalar(Tag.FRAME_KEY, seed);
    return x === 0n ? 1n : x;   // probability 2^-254: any fixed nonzero key serves
  }

  publicKey(seed) {
    return this.suite.group.baseMul(this._secret(seed)).data;
  }

  _challenge(key, commitment, message) {
    return this.suite.hashToScalar(Tag.FRAME_SIGNATURE, key, commitment, message);
  }

  /** Without `fresh` the nonce comes from the key and the message alone. */
  sign(seed, message, fresh) {
    const s = this.suite;
    const g = s.group;
    const hedge = fresh && fresh.length ? fresh : new Uint8Array(32);
    const x = this._secret(seed);
    const key = g.baseMul(x).data;
    const [k] = s.nonceScalars(Tag.FRAME_SIGNATURE.value, s.encodeScalar(x),
      concatBytes(key, message), hedge, 1);
    const c = this._challenge(key, g.baseMul(k).data, message);
    return concatBytes(s.encodeScalar(c), s.encodeScalar((k + c * x) % s.order));
  }

  verify(key, message, signature) {
    const s = this.suite;
    const g = s.group;
    if (!(key instanceof Uint8Array) || !(signature instanceof Uint8Array)
        || key.length !== this.keyBytes || signature.length !== SIGNATURE_BYTES) {
      throw badSignature("key or signature has the wrong length");
    }
    let y; let c; let z;
    try {
      y = s.decodePoint(key);
      c = s.decodeScalar(signature.subarray(0, 32));
      z = s.decodeScalar(signature.subarray(32));
    } catch (err) {
      if (err instanceof EncodingError) {
        throw badSignature("the key or a scalar of the signature does not decode");
      }
      throw err;
    }
    const commitment = g.sub(g.baseMul(z), g.mul(c, y));
    if (this._challenge(key, commitment.data, message) !== c) {
      throw badSignature("the signature does not verify");
    }
  }

  checkKey(key) {
    this.suite.decodePoint(key);
  }
}
