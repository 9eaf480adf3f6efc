/**
 * The domain tags and the encodings of hash inputs (spec/03-hashing.md 3.1, 3.2, 3.5);
 * mirrors protocol/tags.py.
 *
 * Every hash is `H(tag, parts...)` of a suite (suite.js):
 * HASH( lp(context) || lp(tag) || lp(part_1) || ... || lp(part_n) ), with lp(x) the
 * 4-byte big-endian length of x, then x. The tag comes from the closed table `Tag`; a
 * hash call with anything else is a LocalError, so no new use of H forgets its domain.
 * @module protocol/tags
 */
import { LocalError } from "./errors.js";

const encoder = new TextEncoder();

/** One entry of the tag table: `.name`, `.value` (the ASCII bytes), `.since` (3.2, 3.5). */
export class TagEntry {
  /**
   * @param {string} name
   * @param {string} text
   * @param {number} since the first protocol version with this tag
   */
  constructor(name, text, since) {
    this.name = name;
    this.text = text;
    this.value = encoder.encode(text);
    this.since = since;
    Object.freeze(this);
  }

  toString() { return `Tag.${this.name}`; }
}

const TABLE = [
  ["TILE", "dealerless/h2p/tile"],
  ["GENERATOR", "dealerless/h2p/generator"],
  ["SCHNORR", "dealerless/challenge/schnorr"],
  ["DLEQ", "dealerless/challenge/dleq"],
  ["CANNOT_PLAY", "dealerless/challenge/cannot-play"],
  ["SHUFFLE_U", "dealerless/challenge/shuffle-u"],
  ["SHUFFLE_C", "dealerless/challenge/shuffle-c"],
  ["NONCE", "dealerless/nonce"],
  ["SHUFFLE_WITNESS", "dealerless/shuffle-witness"],
  ["CONTEXT", "dealerless/context"],
  ["GAME", "dealerless/game-id"],
  ["FRAME", "dealerless/frame"],
  ["STATE", "dealerless/state"],
  ["COMMIT", "dealerless/first-player-commit"],
  ["FIRST_PLAYER", "dealerless/first-player"],
  ["KEY_SHARE", "dealerless/key-share"],
  ["SAS", "dealerless/short-auth-string"],
  ["HELLO_COMMIT", "dealerless/hello-commit"],
  ["MINED_NONCE", "dealerless/mined/nonce"],
  ["MINED_MAP_SEED", "dealerless/mined/map-seed"],
  ["MINED_MAP", "dealerless/mined/map"],
  ["MINED_TIE", "dealerless/mined/tie"],
  ["SEAL_GENERATOR", "dealerless/h2p/seal"],
  ["SEAL_KEY", "dealerless/seal/key"],
  ["SEAL_KEY_PROOF", "dealerless/challenge/seal-key"],
  ["SEAL_CONTEXT", "dealerless/seal/context"],
  ["SEAL_COEFF", "dealerless/seal/coefficient"],
  ["SEAL_SHARE", "dealerless/challenge/seal-share"],
  ["SEAL_DECRYPT", "dealerless/challenge/seal-decrypt"],
  ["SEAL_STREAM", "dealerless/seal/stream"],
  ["HOST_PIN", "dealerless/host-pin"],
  ["INVITE_ROOM", "dealerless/invitation/room"],
  ["INVITE_SEAT", "dealerless/invitation/seat"],
  ["PAKE_GENERATOR", "dealerless/h2p/pake"],
  ["PAKE_KEY", "dealerless/pake/key"],
  ["PAKE_CONFIRM", "dealerless/pake/confirm"],
  ["RELAY_WORK", "dealerless/relay/work"],
  ["RELAY_ROOM_KEY", "dealerless/relay/room-key"],
  ["RELAY_ENTRY", "dealerless/relay/entry"],
  // Tags of dealerless/3 (3.5).
  ["FRAME_KEY", "dealerless/frame-key", 3],
  ["FRAME_SIGNATURE", "dealerless/frame-signature", 3],
  ["DLEQ_SEED", "dealerless/dleq-batch/seed", 3],
  ["DLEQ_WEIGHT", "dealerless/dleq-batch/weight", 3],
  ["DLEQ_BATCH", "dealerless/challenge/dleq-batch", 3],
  ["SHUFFLE_WEIGHT", "dealerless/shuffle-weight", 3],
];

/**
 * The domain-tag table of spec/03-hashing.md 3.2 (and 3.5's additions), in table order:
 * `Tag.SCHNORR.value` is its bytes, as the Python's enum value.
 * @type {Readonly<Record<string, TagEntry>>}
 */
export const Tag = Object.freeze(Object.fromEntries(
  TABLE.map(([name, text, since = 2]) => [name, new TagEntry(name, text, since)])));

/**
 * The domain tags of `version`, in table order.
 * @param {number} version
 * @returns {TagEntry[]}
 */
export function tags(version) {
  return Object.values(Tag).filter((t) => t.since <= version);
}

/**
 * lp(part): the 4-byte big-endian length of `part`, then `part` (3.1).
 * @param {Uint8Array} part
 * @returns {Uint8Array}
 */
export function lp(part) {
  if (part.length >= 2 ** 32) {
    throw new LocalError("hash/part-too-long", "a hash input part is limited to 2^32-1 bytes");
  }
  const out = new Uint8Array(4 + part.length);
  new DataView(out.buffer).setUint32(0, part.length);
  out.set(part, 4);
  return out;
}

/**
 * Fixed-width 8-byte big-endian encoding of a non-negative integer (Number or BigInt).
 * @param {number|bigint} n
 * @returns {Uint8Array}
 */
export function u64(n) {
  const ok = (typeof n === "bigint" || Number.isInteger(n)) && n >= 0 && BigInt(n) < 1n << 64n;
  if (!ok) throw new LocalError("hash/int-range", `${n} does not fit in 64 bits`);
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

/** Fresh randomness (or a seed) is at least this many bytes (spec/01-notation.md 1.3). */
export const MIN_FRESH_BYTES = 32;

/**
 * LocalError unless `fresh` holds at least 32 bytes (spec/01-notation.md 1.3).
 * @param {Uint8Array} fresh
 */
export function requireFresh(fresh) {
  if (!(fresh instanceof Uint8Array) || fresh.length < MIN_FRESH_BYTES) {
    throw new LocalError("nonce/fresh-too-short", "fresh randomness must be at least 32 bytes");
  }
}
