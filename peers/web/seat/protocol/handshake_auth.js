/**
 * Authenticating the handshake (spec/12-peers.md 12.3, "Authentication"); mirrors
 * protocol/handshake_auth.py.
 *
 * Three pieces, each pure and deterministic given the caller's fresh bytes:
 *
 * - Every handshake message is signed by its sender's identity key over the rendezvous id
 *   and the message: the signed bytes are SIGNING_CONTEXT || pack([rid, body]), and the
 *   wire message is body with the signature appended.
 * - The invitation pins the host: pin = H(HOST_PIN, host key)[:16]. A joiner obeys only
 *   messages signed by the key the pin names.
 * - Each joining seat i has an invitation of its own, whose secret S_i the host derives
 *   from its table secret T: S_i = H(INVITE_SEAT, T, u8(i))[:16]; every invitation also
 *   carries the room secret R = H(INVITE_ROOM, T)[:16].
 * - A joiner proves it holds S_i by a CPace-style exchange on G_i = H2P(PAKE_GENERATOR,
 *   S_i, rid), always in the peer protocol's suite (edwards25519-sha512, PEER).
 * @module protocol/handshake_auth
 */

import sodium from "../vendor/sodium.mjs";
import { pack } from "./canonical.js";
import { MAX_SEATS } from "./deck.js";
import { EncodingError } from "./errors.js";
import { H, PEER, Tag } from "./hashing.js";
import { SIGNATURE_BYTES, SignatureError, verifySignature } from "./identity.js";
import { ED25519 } from "./suite.js";
import { PEER_PROTOCOL } from "./version.js";

const utf8 = (text) => new TextEncoder().encode(text);

/**
 * Prefixed to pack([rid, body]) before signing (12.3 "Authentication"): no frame signature
 * (8.3) and no other protocol's signed blob starts with it; it carries the peer protocol's
 * number, so a hello of another version never verifies as one of this.
 */
export const SIGNING_CONTEXT = utf8(`dealerless/handshake-signature/${PEER_PROTOCOL}\x00`);
/** Prefixed to pack([rid, seat, identity key, frame key]) for a frame-key binding (12.3). */
export const BINDING_CONTEXT = utf8(`dealerless/frame-key-binding/${PEER_PROTOCOL}\x00`);
/** A binding: the identity key's Ed25519 signature, then the frame key's own (8.3). */
export const BINDING_BYTES = 2 * SIGNATURE_BYTES;
export const PIN_BYTES = 16;
export const SECRET_BYTES = 16;
export const CONFIRM_BYTES = 32;

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * The exact bytes a handshake message's signature covers (12.3).
 * @param {Uint8Array} rid the 16-byte rendezvous id
 * @param {Array} body the message without its signature
 * @returns {Uint8Array}
 */
export function signedBytes(rid, body) {
  return concat(SIGNING_CONTEXT, pack([rid, body]));
}

/**
 * `body` with its sender's signature appended (12.3).
 * @param {import("./identity.js").Identity} identity
 * @param {Uint8Array} rid
 * @param {Array} body
 * @returns {Array}
 */
export function sign(identity, rid, body) {
  return [...body, identity.sign(signedBytes(rid, body))];
}

/**
 * The body of a signed message if its last item is `key`'s signature over it;
 * SignatureError `handshake/bad-signature` otherwise (12.3).
 * @param {Uint8Array} key
 * @param {Uint8Array} rid
 * @param {Array} message
 * @returns {Array}
 */
export function checkSignature(key, rid, message) {
  const last = message[message.length - 1];
  if (message.length < 2 || !(last instanceof Uint8Array) || last.length !== SIGNATURE_BYTES) {
    throw new SignatureError("handshake/bad-signature", "a handshake message ends with a "
                             + "64-byte signature");
  }
  const body = message.slice(0, -1);
  try {
    verifySignature(key, signedBytes(rid, body), last);
  } catch (exc) {
    if (!(exc instanceof SignatureError)) throw exc;
    throw new SignatureError("handshake/bad-signature", "the signature does not verify "
                             + "under the sender's identity key");
  }
  return body;
}

/**
 * The invitation's pin of the host's identity key: H(HOST_PIN, key)[:16] (12.3).
 * @param {Uint8Array} key
 * @returns {Uint8Array}
 */
export function hostPin(key) {
  return H(Tag.HOST_PIN, key).slice(0, PIN_BYTES);
}

/**
 * R, the secret every invitation of the table `table` carries (12.3).
 * @param {Uint8Array} table T
 * @returns {Uint8Array}
 */
export function roomSecret(table) {
  return H(Tag.INVITE_ROOM, table).slice(0, SECRET_BYTES);
}

/**
 * S_i, the secret of the invitation to joining seat `seat` (1..7) of a table (12.3).
 * @param {Uint8Array} table
 * @param {number} seat
 * @returns {Uint8Array}
 */
export function seatSecret(table, seat) {
  if (!Number.isInteger(seat) || seat < 1 || seat >= MAX_SEATS) {
    throw new RangeError(`joining seats are 1..${MAX_SEATS - 1}, not ${seat}`);
  }
  return H(Tag.INVITE_SEAT, table, Uint8Array.of(seat)).slice(0, SECRET_BYTES);
}

/**
 * G_i = H2P(PAKE_GENERATOR, S_i, rid) on edwards25519 (12.3).
 * @param {Uint8Array} secret
 * @param {Uint8Array} rid
 * @returns {import("./groups/base.js").Element}
 */
export function pakeGenerator(secret, rid) {
  return PEER.hashToPoint(Tag.PAKE_GENERATOR, secret, rid);
}

/**
 * A seat's fresh exchange scalar for joining seat `seat`, hedged with its own seed (3.4;
 * label `pake`, public part rid || commitment || u8(seat)).
 * @param {import("./identity.js").Identity} identity
 * @param {Uint8Array} rid
 * @param {Uint8Array} commitment
 * @param {number} seat
 * @param {Uint8Array} fresh at least 32 fresh bytes
 * @returns {bigint}
 */
export function pakeScalar(identity, rid, commitment, seat, fresh) {
  return PEER.nonceScalars(utf8("pake"), identity.seed,
                           concat(rid, commitment, Uint8Array.of(seat)), fresh, 1)[0];
}

/**
 * Y = y*G_i, sent in the hello (12.3).
 * @param {Uint8Array} secret
 * @param {Uint8Array} rid
 * @param {bigint} scalar
 * @returns {Uint8Array}
 */
export function pakeShare(secret, rid, scalar) {
  return PEER.group.mul(scalar, pakeGenerator(secret, rid)).data;
}

/**
 * The confirmation of the joiner of seat `seat`, as either side computes it from its own
 * scalar and the other side's share (`theirShare`, validated first: EncodingError
 * point/*): H(PAKE_CONFIRM, ISK, joiner, joiner commitment, host commitment)[:32] with
 * ISK = H(PAKE_KEY, rid, u8(seat), Y_h, Y_j, y*Y') (12.3).
 * @returns {Uint8Array}
 */
export function pakeConfirm(rid, seat, scalar, hostShare, joinShare, theirShare, joiner,
                            joinCommitment, hostCommitment) {
  const shared = PEER.group.mul(scalar, PEER.decodePoint(theirShare));
  const isk = H(Tag.PAKE_KEY, rid, Uint8Array.of(seat), hostShare, joinShare, shared.data);
  return H(Tag.PAKE_CONFIRM, isk, joiner, joinCommitment, hostCommitment)
    .slice(0, CONFIRM_BYTES);
}

/**
 * EncodingError `pake/confirm` unless the joiner's confirmation is the expected one
 * (compared in constant time, 12.3).
 * @param {Uint8Array} expected
 * @param {Uint8Array} given
 */
export function checkConfirm(expected, given) {
  if (expected.length !== given.length || !sodium.memcmp(expected, given)) {
    throw new EncodingError("pake/confirm", "the joiner does not hold the secret of the "
                            + "invitation to the seat it claims");
  }
}

/**
 * What both halves of seat `seat`'s frame-key binding sign (12.3).
 * @returns {Uint8Array}
 */
export function bindingBytes(rid, seat, key, frameKey) {
  return concat(BINDING_CONTEXT, pack([rid, seat, key, frameKey]));
}

/**
 * This identity's binding of its frame key in `played` to its identity key at seat `seat`
 * of the table `rid` (12.3): empty in a suite signed by Ed25519, whose frame key is the
 * identity key; else the identity key's signature of bindingBytes, then the frame key's
 * (made without fresh bytes, 8.3, so that it is the same every time).
 * @returns {Uint8Array}
 */
export function bindFrameKey(identity, played, rid, seat) {
  if (played.signer === ED25519) return new Uint8Array(0);
  const frameKey = identity.frameKey(played);
  const message = bindingBytes(rid, seat, identity.publicKey, frameKey);
  return concat(identity.sign(message), played.signer.sign(identity.seed, message,
                                                           new Uint8Array(0)));
}

/**
 * EncodingError `code` unless `binding` binds `frameKey` to the identity key `key` at seat
 * `seat` of the table `rid` in `played` (12.3 "Frame-key bindings"). In a suite signed by
 * Ed25519 the frame key is the identity key and the binding is empty.
 */
export function checkBinding(played, rid, seat, key, frameKey, binding, code) {
  if (played.signer === ED25519) {
    if (!sameBytes(frameKey, key) || binding.length) {
      throw new EncodingError(code, `seat ${seat}: in ${played.name} a frame key is the `
                              + "identity key itself, with an empty binding");
    }
    return;
  }
  if (binding.length !== BINDING_BYTES) {
    throw new EncodingError(code, `seat ${seat}: a frame-key binding of ${played.name} is `
                            + `${BINDING_BYTES} bytes, not ${binding.length}`);
  }
  const message = bindingBytes(rid, seat, key, frameKey);
  try {
    verifySignature(key, message, binding.subarray(0, SIGNATURE_BYTES));
  } catch (exc) {
    if (!(exc instanceof SignatureError)) throw exc;
    throw new EncodingError(code, `seat ${seat}: its identity key did not sign the binding `
                            + "of this frame key at this seat of this table");
  }
  try {
    played.signer.verify(frameKey, message, binding.subarray(SIGNATURE_BYTES));
  } catch (exc) {
    if (!(exc instanceof SignatureError)) throw exc;
    throw new EncodingError(code, `seat ${seat}: the frame key's own signature of its `
                            + "binding does not verify (no proof that this seat holds it)");
  }
}

function sameBytes(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
