/**
 * bcrypt_pbkdf, the key derivation of passphrase-protected OpenSSH private keys
 * (spec/12-peers.md 12.2: "bcrypt KDF, aes256-ctr, as `ssh-keygen` does").
 *
 * The Python side gets it from the `bcrypt` package (through `cryptography`); libsodium
 * and WebCrypto have no Blowfish, so the seat has its own, written from OpenBSD's
 * description of the algorithm: SHA-512 of the passphrase and of the salt (with a
 * counter), each round an "eksblowfish" key schedule over both digests (bcrypt_hash)
 * that encrypts "OxychromaticBlowfishSwatDynamite" 64 times, the rounds XORed together,
 * and the output bytes spread over the key with a stride.
 *
 * Blowfish's initial state is the first 8336 hexadecimal digits of pi's fraction
 * (18 P words, then the four S-boxes). Rather than carry 4 KiB of constants, they are
 * computed once, on first use, from Machin's formula in BigInt fixed point (a few tens
 * of milliseconds); `initialState` checks the words every Blowfish description quotes.
 * Nothing here is secret-dependent in its memory access pattern except Blowfish's own
 * S-box lookups, as in every bcrypt; the inputs are a passphrase and a public salt.
 * @module keys/bcrypt_pbkdf
 */
import sodium from "../vendor/sodium.mjs";

const WORDS = 18 + 4 * 256;
let initial = null;

/**
 * Blowfish's initial P-array and S-boxes, the hex digits of pi after the point, as
 * 32-bit words: pi = 16 atan(1/5) - 4 atan(1/239), in fixed point with 64 guard bits.
 * @returns {Uint32Array} 18 P words then 1024 S words
 */
export function initialState() {
  if (initial) return initial;
  const bits = BigInt(32 * WORDS + 64);
  const one = 1n << bits;
  const atanInverse = (x) => {
    const xx = x * x;
    let term = one / x;
    let sum = 0n;
    for (let k = 1n; term !== 0n; k += 2n) {
      sum += (k & 2n) ? -(term / k) : term / k;
      term /= xx;
    }
    return sum;
  };
  const pi = 16n * atanInverse(5n) - 4n * atanInverse(239n);
  let fraction = (pi - 3n * one) >> 64n;
  const words = new Uint32Array(WORDS);
  for (let i = WORDS - 1; i >= 0; i--) {
    words[i] = Number(fraction & 0xffffffffn);
    fraction >>= 32n;
  }
  // The words every description of Blowfish quotes: P1, P18, the first and last S word.
  if (words[0] !== 0x243f6a88 || words[17] !== 0x8979fb1b || words[18] !== 0xd1310ba6
      || words[WORDS - 1] !== 0x3ac372e6) {
    throw new Error("bcrypt_pbkdf: Blowfish's initial state did not compute");
  }
  initial = words;
  return words;
}

/** Blowfish with a mutable state: `p` (18 words) and `s` (1024 words, four S-boxes). */
class Blowfish {
  constructor() {
    const init = initialState();
    this.p = init.slice(0, 18);
    this.s = init.slice(18);
    this.l = 0;
    this.r = 0;
  }

  /** Encrypt the block (this.l, this.r) in place: 16 Feistel rounds. */
  encipher() {
    const p = this.p;
    const s = this.s;
    let l = this.l ^ p[0];
    let r = this.r;
    for (let i = 1; i <= 16; i += 2) {
      r ^= ((((s[l >>> 24] + s[0x100 | ((l >>> 16) & 0xff)]) ^ s[0x200 | ((l >>> 8) & 0xff)])
        + s[0x300 | (l & 0xff)]) ^ p[i]);
      l ^= ((((s[r >>> 24] + s[0x100 | ((r >>> 16) & 0xff)]) ^ s[0x200 | ((r >>> 8) & 0xff)])
        + s[0x300 | (r & 0xff)]) ^ p[i + 1]);
    }
    this.l = (r ^ p[17]) >>> 0;
    this.r = l >>> 0;
  }

  /**
   * The key schedule: XOR `key` into P, then replace P and the S-boxes by the chained
   * encryption of a zero block, XORing in `data` (eksblowfish's salt) when given.
   * @param {Uint8Array|null} data
   * @param {Uint8Array} key
   */
  expand(data, key) {
    const keyWords = cycleWords(key, 18);
    for (let i = 0; i < 18; i++) this.p[i] ^= keyWords[i];
    const dataWords = data ? cycleWords(data, 18 + 1024) : null;
    this.l = 0;
    this.r = 0;
    const fill = (table, count, offset) => {
      for (let i = 0; i < count; i += 2) {
        if (dataWords) {
          this.l ^= dataWords[offset + i];
          this.r ^= dataWords[offset + i + 1];
        }
        this.encipher();
        table[i] = this.l;
        table[i + 1] = this.r;
      }
    };
    fill(this.p, 18, 0);
    fill(this.s, 1024, 18);
  }
}

/**
 * `count` big-endian 32-bit words read from `bytes` round and round (Blowfish's
 * stream2word), starting at byte 0.
 */
function cycleWords(bytes, count) {
  const out = new Uint32Array(count);
  let j = 0;
  for (let i = 0; i < count; i++) {
    let w = 0;
    for (let b = 0; b < 4; b++) {
      w = ((w << 8) | bytes[j]) >>> 0;
      j = j + 1 === bytes.length ? 0 : j + 1;
    }
    out[i] = w;
  }
  return out;
}

const MAGIC = new TextEncoder().encode("OxychromaticBlowfishSwatDynamite");

/**
 * bcrypt_hash: 32 bytes from the SHA-512 digests of the passphrase and of the salt.
 * @param {Uint8Array} sha2pass 64 bytes
 * @param {Uint8Array} sha2salt 64 bytes
 * @returns {Uint8Array} 32 bytes
 */
function bcryptHash(sha2pass, sha2salt) {
  const bf = new Blowfish();
  bf.expand(sha2salt, sha2pass);
  for (let i = 0; i < 64; i++) {
    bf.expand(null, sha2salt);
    bf.expand(null, sha2pass);
  }
  const words = cycleWords(MAGIC, 8);
  for (let i = 0; i < 64; i++) {
    for (let b = 0; b < 8; b += 2) {
      bf.l = words[b];
      bf.r = words[b + 1];
      bf.encipher();
      words[b] = bf.l;
      words[b + 1] = bf.r;
    }
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {  // little-endian words, as OpenBSD copies them out
    out[4 * i] = words[i] & 0xff;
    out[4 * i + 1] = (words[i] >>> 8) & 0xff;
    out[4 * i + 2] = (words[i] >>> 16) & 0xff;
    out[4 * i + 3] = words[i] >>> 24;
  }
  return out;
}

/**
 * OpenBSD's bcrypt_pbkdf: `keyLength` bytes from `passphrase` and `salt` in `rounds`
 * rounds (OpenSSH: 16 by default, a 16-byte salt, 48 bytes of aes256-ctr key and IV).
 * @param {Uint8Array} passphrase not empty
 * @param {Uint8Array} salt 1 byte to 1 MiB
 * @param {number} keyLength 1 to 1024
 * @param {number} rounds at least 1
 * @returns {Uint8Array}
 */
export function bcryptPbkdf(passphrase, salt, keyLength, rounds) {
  if (!(passphrase instanceof Uint8Array) || !(salt instanceof Uint8Array)
      || passphrase.length === 0 || salt.length === 0 || salt.length > 1 << 20
      || !Number.isInteger(keyLength) || keyLength < 1 || keyLength > 32 * 32
      || !Number.isInteger(rounds) || rounds < 1) {
    throw new RangeError("bcrypt_pbkdf: a passphrase, a salt, 1 to 1024 bytes, 1+ rounds");
  }
  const key = new Uint8Array(keyLength);
  const stride = Math.ceil(keyLength / 32);
  const amount = Math.ceil(keyLength / stride);
  const sha2pass = sodium.crypto_hash_sha512(passphrase);
  const countSalt = new Uint8Array(salt.length + 4);
  countSalt.set(salt);
  let left = keyLength;
  for (let count = 1; left > 0; count++) {
    new DataView(countSalt.buffer).setUint32(salt.length, count);
    let tmp = bcryptHash(sha2pass, sodium.crypto_hash_sha512(countSalt));
    const out = tmp.slice();
    for (let i = 1; i < rounds; i++) {
      tmp = bcryptHash(sha2pass, sodium.crypto_hash_sha512(tmp));
      for (let j = 0; j < 32; j++) out[j] ^= tmp[j];
    }
    let i = 0;
    for (; i < Math.min(amount, left); i++) {
      const dest = i * stride + (count - 1);
      if (dest >= keyLength) break;
      key[dest] = out[i];
    }
    left -= i;
  }
  return key;
}
