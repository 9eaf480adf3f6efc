/**
 * The proof of work that pays for a relay room (spec/12-peers.md 12.5, "Proof of work");
 * mirrors protocol/relay_work.py.
 *
 * A relay asks whoever opens a room to find a `nonce` such that
 *
 *     H(RELAY_WORK, challenge, room, u64(nonce))
 *
 * starts with `bits` zero bits (read big-endian, first byte first), where `challenge` is
 * 16 bytes the relay drew for this one connection and `room` is the room's rendezvous id
 * in ASCII hex. Checking costs one hash; finding takes 2^bits hashes on average.
 *
 * Sans-IO like the rest of protocol/: the relay draws the challenge and picks `bits`;
 * this module only hashes, checks and searches (deterministically, from nonce 0 up).
 * Nonces are 64-bit fields, so they are BigInt here.
 * @module protocol/relay_work
 */

import sodium from "../vendor/sodium.mjs";
import { LocalError } from "./errors.js";
import { H, PEER, Tag, u64 } from "./hashing.js";

export const CHALLENGE_BYTES = 16;
/**
 * A seat refuses a relay that asks for more: 2^28 hashes is minutes of CPU, and the relay
 * is untrusted (it could otherwise make a host burn its CPU for nothing).
 */
export const MAX_WORK_BITS = 28;

const U64_LIMIT = 1n << 64n;
const ascii = (text) => new TextEncoder().encode(text);

/**
 * H(RELAY_WORK, challenge, room, u64(nonce)) (12.5 "Proof of work"; `room` hashed as its
 * ASCII hex digits, never decoded).
 * @param {Uint8Array} challenge the 16 raw bytes
 * @param {string} room the rendezvous id as the path writes it
 * @param {bigint|number} nonce
 * @returns {Uint8Array}
 */
export function workHash(challenge, room, nonce) {
  return H(Tag.RELAY_WORK, challenge, ascii(room), u64(BigInt(nonce)));
}

/**
 * How many zero bits `digest` starts with (first byte's most significant bit first).
 * @param {Uint8Array} digest
 * @returns {number}
 */
export function zeroBits(digest) {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/**
 * Whether `nonce` answers the challenge at `bits` (one hash).
 * @param {Uint8Array} challenge
 * @param {string} room
 * @param {bigint|number} nonce
 * @param {number} bits
 * @returns {boolean}
 */
export function meets(challenge, room, nonce, bits) {
  const n = BigInt(nonce);
  if (challenge.length !== CHALLENGE_BYTES || n < 0n || n >= U64_LIMIT) return false;
  return zeroBits(workHash(challenge, room, n)) >= bits;
}

/**
 * The first nonce in [start, start + count) that meets `bits`, or null (12.5).
 *
 * Hashes exactly what `workHash` hashes, but builds the preimage once and rewrites only
 * its last 8 bytes (the nonce) for each try.
 * @param {Uint8Array} challenge
 * @param {string} room
 * @param {number} bits 0..MAX_WORK_BITS
 * @param {bigint|number} [start]
 * @param {bigint|number} [count]
 * @returns {bigint|null}
 */
export function solve(challenge, room, bits, start = 0n, count = U64_LIMIT) {
  if (!Number.isInteger(bits) || bits < 0 || bits > MAX_WORK_BITS
      || challenge.length !== CHALLENGE_BYTES) {
    throw new LocalError("work/bits", `a proof of work takes 0 to ${MAX_WORK_BITS} bits `
                         + `and a ${CHALLENGE_BYTES}-byte challenge`);
  }
  const first = BigInt(start);
  let end = first + BigInt(count);
  if (end > U64_LIMIT) end = U64_LIMIT;
  const buffer = new Uint8Array(PEER.preimage(Tag.RELAY_WORK,
                                              [challenge, ascii(room), u64(0n)]));
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const at = buffer.length - 8;
  for (let nonce = first; nonce < end; nonce++) {
    view.setBigUint64(at, nonce, false);
    if (zeroBits(sodium.crypto_hash_sha512(buffer)) >= bits) return nonce;
  }
  return null;
}
