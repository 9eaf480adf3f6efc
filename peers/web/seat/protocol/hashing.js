/**
 * The peer protocol's hash (spec/03-hashing.md 3.1, 3.5 "What is not the game's"): H of
 * `edwards25519-sha512` at this protocol version, for what two seats hash before any game
 * or suite exists (the handshake, the relay's entry and work, the short authentication
 * string); mirrors protocol/hashing.py. A game's own hashes are its suite's.
 * @module protocol/hashing
 */
import { suite } from "./suite.js";
import { Tag, lp, requireFresh, u64 } from "./tags.js";
import { PROTOCOL } from "./version.js";

export { Tag, lp, requireFresh, u64 };

/** The peer protocol's suite: edwards25519-sha512 at PROTOCOL. */
export const PEER = suite("edwards25519-sha512", PROTOCOL);

/**
 * PEER's H (3.1).
 * @param {import("./tags.js").TagEntry} tag
 * @param {...Uint8Array} parts
 * @returns {Uint8Array}
 */
export const H = (tag, ...parts) => PEER.H(tag, ...parts);
