/**
 * Where randomness comes from: the browser's CSPRNG, or a seed in tests and vectors only;
 * mirrors peers/entropy.py. This is the one module of the seat that calls
 * `crypto.getRandomValues` (README "Layout"): `protocol/` takes fresh bytes as arguments.
 *
 * Like the Python, it does not hedge: unseeded, every call is the platform CSPRNG's bytes
 * as they come (the OS generator behind `getRandomValues`), and nothing is mixed in.
 * Where the protocol wants hedging against a weak generator, it hedges its nonces itself
 * (spec/03-hashing.md 3.4: the nonce hashes the secret with the fresh bytes).
 * @module entropy
 */
import sodium from "./vendor/sodium.mjs";

/** getRandomValues fills at most 65536 bytes a call (WebCrypto's QuotaExceededError). */
const CHUNK = 65536;
const utf8 = new TextEncoder();

/**
 * A source of `fresh` bytes for protocol calls.
 *
 * With no seed every call reads `crypto.getRandomValues`. With a seed (tests, vectors,
 * reproducible demos) it is Python's counter-mode SHA-512 stream, byte for byte:
 * `SHA-512("dealerless-seeded-entropy/" || seed || "/" || label || u64be(counter))`,
 * cut to n (at most 64). Never use a seed in a real game: anyone who knows it can
 * recompute every secret.
 */
export class Entropy {
  /**
   * @param {bigint|number|Uint8Array|null} [seed] an integer is taken as Python takes it,
   *   16 bytes big-endian two's complement
   */
  constructor(seed = null) {
    if (typeof seed === "number") seed = BigInt(seed);
    if (typeof seed === "bigint") {
      let v = BigInt.asUintN(128, seed);
      if (BigInt.asIntN(128, v) !== seed) throw new RangeError("an integer seed fits 16 bytes");
      const bytes = new Uint8Array(16);
      for (let i = 15; i >= 0; i--, v >>= 8n) bytes[i] = Number(v & 0xffn);
      seed = bytes;
    }
    if (seed !== null && !(seed instanceof Uint8Array)) {
      throw new TypeError("a seed is an integer or bytes");
    }
    this._seed = seed === null ? null : seed.slice();
    this._counter = 0n;
  }

  /** Whether this source is a seeded stream (tests only). */
  get seeded() {
    return this._seed !== null;
  }

  /**
   * `n` fresh bytes; `label` names their use in the seeded stream (and is ignored by the
   * CSPRNG).
   * @param {string} label
   * @param {number} [n]
   * @returns {Uint8Array}
   */
  bytes(label, n = 32) {
    if (!Number.isInteger(n) || n < 0) throw new RangeError("a byte count is a whole number");
    if (this._seed === null) {
      const out = new Uint8Array(n);
      for (let at = 0; at < n; at += CHUNK) {
        crypto.getRandomValues(out.subarray(at, Math.min(n, at + CHUNK)));
      }
      return out;
    }
    if (n > 64) throw new RangeError("a seeded stream gives at most 64 bytes a call");
    this._counter += 1n;
    const counter = new Uint8Array(8);
    new DataView(counter.buffer).setBigUint64(0, this._counter);
    const parts = [utf8.encode("dealerless-seeded-entropy/"), this._seed, utf8.encode("/"),
      utf8.encode(label), counter];
    const message = new Uint8Array(parts.reduce((k, p) => k + p.length, 0));
    let at = 0;
    for (const p of parts) { message.set(p, at); at += p.length; }
    return sodium.crypto_hash_sha512(message).slice(0, n);
  }
}

/** The page's one unseeded source. */
export const SYSTEM = new Entropy();
