/**
 * What a game's store keeps of its seats beyond the setup (spec/12-peers.md 12.4): their
 * identity keys and, in a suite whose frame keys are not those keys, the bindings of the
 * one to the other (12.3 "Authentication"), so that a lost roster or open can be sent
 * again; mirrors peers/store/seats.py.
 * @module store/seats
 */

import { EncodingError } from "../protocol/errors.js";
import { BINDING_BYTES } from "../protocol/handshake_auth.js";
import { fromHex, toHex } from "../protocol/frames.js";
import { ED25519 } from "../protocol/suite.js";

/** The seats' identity keys (12.4), in seat order. */
export const KEYS_META = "identity_keys";
/** The seats' frame-key bindings (12.3), in seat order; empty in suites signed by Ed25519. */
export const BINDINGS_META = "frame_key_bindings";

/**
 * `keys` (identity keys or bindings) as a meta value: hex, one space between.
 * @param {Uint8Array[]} keys
 * @returns {string}
 */
export function keysMeta(keys) {
  return keys.map(toHex).join(" ");
}

function hexList(stored, what) {
  try {
    return stored.split(" ").map(fromHex);
  } catch {
    throw new EncodingError("store/keys", `the stored ${what} are not hex`);
  }
}

/**
 * The seats' identity keys of a stored game: its `identity_keys` meta (`stored`), or for
 * a game stored without one the setup's frame keys, which in the suites signed by Ed25519
 * are those keys. EncodingError (store/keys) if neither holds.
 * @param {import("../protocol/setup.js").GameSetup} setup
 * @param {string} stored
 * @returns {Uint8Array[]}
 */
export function seatKeys(setup, stored) {
  if (stored) {
    const keys = hexList(stored, "identity keys");
    if (keys.length === setup.seats && keys.every((k) => k.length === 32)) return keys;
    throw new EncodingError("store/keys", `${keys.length} stored identity keys for a game `
      + `of ${setup.seats} seats`);
  }
  if (setup.suite.signer !== ED25519) {
    throw new EncodingError("store/keys", `a game of ${setup.suiteName} stored without `
      + "its seats' identity keys");
  }
  return [...setup.identities];
}

/**
 * The seats' frame-key bindings of a stored game: K empty ones in a suite signed by
 * Ed25519 or in a game stored without them.
 */
export function seatBindings(setup, stored) {
  if (!stored || setup.suite.signer === ED25519) {
    return Array.from({ length: setup.seats }, () => new Uint8Array(0));
  }
  const bindings = hexList(stored, "frame-key bindings");
  if (bindings.length === setup.seats && bindings.every((b) => b.length === BINDING_BYTES)) {
    return bindings;
  }
  throw new EncodingError("store/keys", `${bindings.length} stored frame-key bindings for a `
    + `game of ${setup.seats} seats`);
}
