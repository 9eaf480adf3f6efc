/**
 * Identities: a seed, its Ed25519 key, its frame key in a suite, and fingerprints
 * (spec/08-wire.md 8.3); mirrors protocol/identity.py.
 *
 * A seat's identity is long-term and separate from its per-game key share. Its Ed25519
 * key signs the handshake and, in the suites for players, frames; key generation, which
 * needs randomness, lives outside protocol/ (keys/).
 * @module protocol/identity
 */
import sodium from "../vendor/sodium.mjs";
import { LocalError } from "./errors.js";
import { H, Tag } from "./hashing.js";
import { intFromBytes } from "./groups/base.js";
import { concatBytes } from "./groups/xmd.js";
import { SIGNATURE_BYTES, SignatureError } from "./signature.js";
import { ED25519 } from "./suite.js";

export { SIGNATURE_BYTES, SignatureError };

/** A signing identity from its 32-byte Ed25519 seed. The seed never leaves it. */
export class Identity {
  /** @param {Uint8Array} seed */
  constructor(seed) {
    if (!(seed instanceof Uint8Array) || seed.length !== 32) {
      throw new LocalError("identity/seed", "an Ed25519 seed is exactly 32 bytes");
    }
    // Not enumerable, so that logging or serialising the identity shows no seed.
    Object.defineProperty(this, "seed", { value: seed.slice(), enumerable: false });
    Object.defineProperty(this, "publicKey", {
      value: sodium.crypto_sign_seed_keypair(seed).publicKey, enumerable: true,
    });
    Object.freeze(this);
  }

  /**
   * The key this identity signs frames with in `suite` (8.3): its Ed25519 key in both
   * libsodium suites.
   * @param {import("./suite.js").Suite} suite
   * @returns {Uint8Array}
   */
  frameKey(suite) {
    return suite.signer.publicKey(this.seed);
  }

  /**
   * The 64-byte Ed25519 signature of `message` (RFC 8032 5.1.6).
   * @param {Uint8Array} message
   * @returns {Uint8Array}
   */
  sign(message) {
    return ED25519.sign(this.seed, message);
  }

  toString() { return "Identity(...)"; }
}

/**
 * EncodingError `point/*` unless `key` may be an Ed25519 identity key (8.2 rule 11).
 * @param {Uint8Array} key
 */
export function checkPublicKey(key) {
  ED25519.checkKey(key);
}

/**
 * SignatureError unless `signature` is an Ed25519 signature of `message` under
 * `publicKey` by 8.3's rules: for the handshake and the relay, and the frames of the
 * suites that sign with Ed25519.
 * @param {Uint8Array} publicKey
 * @param {Uint8Array} message
 * @param {Uint8Array} signature
 */
export function verifySignature(publicKey, message, signature) {
  ED25519.verify(publicKey, message, signature);
}

function u32(n) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

/**
 * OpenSSH's SHA256 fingerprint of an ssh-ed25519 key: 'SHA256:' + unpadded base64 (8.3).
 * @param {Uint8Array} publicKey
 * @returns {string}
 */
export function fingerprint(publicKey) {
  const name = new TextEncoder().encode("ssh-ed25519");
  const blob = concatBytes(u32(name.length), name, u32(publicKey.length), publicKey);
  const digest = sodium.crypto_hash_sha256(blob);
  return `SHA256:${btoa(String.fromCharCode(...digest)).replace(/=+$/, "")}`;
}

/**
 * Twelve digits both players compare out of band (spec/12-peers.md 12.2): the first 8
 * bytes of H(SAS, game_id), big-endian, mod 10^12, as 12 digits grouped 4-4-4.
 * @param {Uint8Array} gameId
 * @returns {string}
 */
export function shortAuthString(gameId) {
  if (!(gameId instanceof Uint8Array) || !gameId.length) {
    throw new LocalError("identity/game-id", "the game id is non-empty bytes");
  }
  const n = intFromBytes(H(Tag.SAS, gameId).subarray(0, 8), "big") % 10n ** 12n;
  const digits = n.toString().padStart(12, "0");
  return `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8, 12)}`;
}
