/**
 * expand_message_xmd (RFC 9380 5.3.1), the uniform bytes under RFC 9380's hashes to a
 * group (spec/03-hashing.md 3.5); mirrors protocol/groups/xmd.py. Also the one table of
 * the suites' hash functions, through libsodium.
 * @module protocol/groups/xmd
 */
import sodium from "../../vendor/sodium.mjs";

/**
 * The hash functions by their hashlib names: `digest(data)`, block and digest sizes.
 * @type {Readonly<Record<string, {digest: (d: Uint8Array) => Uint8Array, blockSize: number, digestSize: number}>>}
 */
export const HASHES = Object.freeze({
  sha512: { digest: (d) => sodium.crypto_hash_sha512(d), blockSize: 128, digestSize: 64 },
  sha256: { digest: (d) => sodium.crypto_hash_sha256(d), blockSize: 64, digestSize: 32 },
});

/** The hash called `name` ("sha512" or "sha256"). */
export function hashFunction(name) {
  const h = HASHES[name];
  if (!h) throw new RangeError(`no hash ${name}`);
  return h;
}

/** The concatenation of byte strings. */
export function concatBytes(...parts) {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/**
 * `length` uniform bytes from `msg` under the tag `dst`, with the hash `name`.
 * @param {string} name "sha256" or "sha512"
 * @param {Uint8Array} msg
 * @param {Uint8Array} dst
 * @param {number} length
 * @returns {Uint8Array}
 */
export function expandMessageXmd(name, msg, dst, length) {
  return new XmdPrefix(name, msg, dst, length).expand(new Uint8Array(0));
}

/**
 * expand_message_xmd of messages that share the prefix `head`. The Python keeps b_0's
 * hash state after Z_pad || head; libsodium's wrappers cannot copy a state, so here the
 * prefix is kept as bytes (same output).
 */
export class XmdPrefix {
  /**
   * @param {string} name
   * @param {Uint8Array} head
   * @param {Uint8Array} dst
   * @param {number} length
   */
  constructor(name, head, dst, length) {
    const h = hashFunction(name);
    this.name = name;
    this.length = length;
    this.hash = h;
    this.ell = Math.ceil(length / h.digestSize);
    if (this.ell > 255 || length > 65535 || dst.length > 255) {
      throw new RangeError("expand_message_xmd: output or tag too long (RFC 9380 5.3.1)");
    }
    this.dstPrime = concatBytes(dst, Uint8Array.of(dst.length));
    this.head = concatBytes(new Uint8Array(h.blockSize), head);
  }

  /**
   * expand_message_xmd(head || tail).
   * @param {Uint8Array} tail
   * @returns {Uint8Array}
   */
  expand(tail) {
    const { hash, dstPrime, length } = this;
    const b0 = hash.digest(concatBytes(this.head, tail,
      Uint8Array.of(length >> 8, length & 0xff, 0), dstPrime));
    const blocks = [hash.digest(concatBytes(b0, Uint8Array.of(1), dstPrime))];
    for (let i = 2; i <= this.ell; i++) {
      const prev = blocks[blocks.length - 1];
      const mixed = b0.map((x, j) => x ^ prev[j]);
      blocks.push(hash.digest(concatBytes(mixed, Uint8Array.of(i), dstPrime)));
    }
    return concatBytes(...blocks).slice(0, length);
  }
}
