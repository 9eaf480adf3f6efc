/**
 * The room key: who may take a place in a relay room (spec/12-peers.md 12.5 "Room key");
 * mirrors protocol/relay_entry.py.
 *
 * A room's path is no secret (the relay's operator sees every one), so each room has an
 * Ed25519 key pair derived from the room secret R every invitation of the table carries
 * (12.3 "The invitation") and the room's id:
 *
 *     seed = H(RELAY_ROOM_KEY, R, room)[:32]
 *
 * Whoever opens the room hands the relay the public key; whoever enters a room that exists
 * signs H(RELAY_ENTRY, challenge, room) for a challenge the relay drew for that one
 * connection. A recorded signature answers no other challenge, and the seed gives nothing
 * back of R.
 *
 * Sans-IO like the rest of protocol/: the relay draws the challenge; this module derives,
 * signs and checks (RFC 8032 signing is deterministic).
 * @module protocol/relay_entry
 */

import sodium from "../vendor/sodium.mjs";
import { H, Tag } from "./hashing.js";
import { Identity, SignatureError, verifySignature } from "./identity.js";

export const ROOM_SEED_BYTES = 32;
/** A room's public key and an entry signature, as 12.5's text lines carry them (hex). */
export const ROOM_KEY_BYTES = 32;
export const ENTRY_SIGNATURE_BYTES = 64;

const ascii = (text) => new TextEncoder().encode(text);

/**
 * The seed of room `room`'s key pair (12.5 "Room key").
 * @param {Uint8Array} secret R, the room secret's 16 bytes (not its base64url text)
 * @param {string} room the room's id in ASCII hex, as the path writes it
 * @returns {Uint8Array}
 */
export function roomSeed(secret, room) {
  return H(Tag.RELAY_ROOM_KEY, secret, ascii(room)).slice(0, ROOM_SEED_BYTES);
}

/**
 * The public key the opener hands the relay.
 * @param {Uint8Array} seed
 * @returns {Uint8Array}
 */
export function roomKey(seed) {
  return new Identity(seed).publicKey;
}

/**
 * Whether `key` may be a room's key: a canonical point of edwards25519, not of small order
 * (libsodium's check), so that no signature verifies under it by accident.
 * @param {Uint8Array} key
 * @returns {boolean}
 */
export function keyValid(key) {
  return key.length === ROOM_KEY_BYTES && Boolean(sodium.crypto_core_ed25519_is_valid_point(key));
}

/**
 * H(RELAY_ENTRY, challenge, room): what an entry signature signs (no prefix, 12.5).
 * @param {Uint8Array} challenge the 16 raw bytes the line's hex digits decode to
 * @param {string} room
 * @returns {Uint8Array}
 */
export function entryMessage(challenge, room) {
  return H(Tag.RELAY_ENTRY, challenge, ascii(room));
}

/**
 * The answer to the relay's `prove C` for room `room`.
 * @param {Uint8Array} seed
 * @param {Uint8Array} challenge
 * @param {string} room
 * @returns {Uint8Array} 64 bytes
 */
export function signEntry(seed, challenge, room) {
  return new Identity(seed).sign(entryMessage(challenge, room));
}

/**
 * Whether `signature` proves the room's seed for this challenge (8.3's check: it refuses
 * small-order keys and non-canonical signatures).
 * @param {Uint8Array} key
 * @param {Uint8Array} challenge
 * @param {string} room
 * @param {Uint8Array} signature
 * @returns {boolean}
 */
export function entryValid(key, challenge, room, signature) {
  try {
    verifySignature(key, entryMessage(challenge, room), signature);
  } catch (exc) {
    if (exc instanceof SignatureError) return false;
    throw exc;
  }
  return true;
}
