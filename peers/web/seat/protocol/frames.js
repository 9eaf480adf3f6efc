// Signed, hash-chained frames (spec/08-wire.md 8.3 and 8.4), as protocol/frames.py.
//
// A frame on the wire is the canonical msgpack array [payload, signature], where payload
// is itself canonical msgpack of [version, game_id, seq, prev, seat, type, state_hash,
// body] and signature is the sender's signature, by its suite's scheme (8.3), over the
// version's signing prefix || payload. Parsing here checks only what needs no game state;
// the session checks the signature, the chain, the turn and the body.

import { asArray, asBytes, asInt, pack, unpack } from "./canonical.js";
import { EncodingError } from "./errors.js";
import { SIGNATURE_BYTES } from "./signature.js";
import { Tag } from "./tags.js";
import { checkVersion, frameSignaturePrefix } from "./version.js";

/** Upper bound on a frame's encoding, checked before unpacking (8.4). */
export const MAX_FRAME_BYTES = 1 << 16;
/** The length of a frame hash, a game id and a state hash (8.4). */
export const HASH_BYTES = 32;

/** Frame types (spec/08-wire.md 8.5): numbers, as they travel. */
export const MessageType = Object.freeze({
  KEY: 1, NONCE: 2, SHUFFLE: 3, DEAL: 4, MOVE: 5, REVEAL: 6, DRAW: 7, COMMIT: 8,
  OPEN: 9, ABSENT: 10, CHOOSE: 11,
});

const LABELS = Object.freeze(Object.fromEntries(
  Object.entries(MessageType).map(([name, code]) => [code, name.toLowerCase()])));

/** The label of a message type (8.5's table): 5 -> "move". */
export function typeLabel(mtype) {
  const label = LABELS[mtype];
  if (label === undefined) throw new EncodingError("frame/unknown-type", `no message type ${mtype}`);
  return label;
}

// -- bytes helpers every session module uses ---------------------------------------------

/** Whether two byte strings are equal. */
export function bytesEqual(a, b) {
  if (a === b) return true;
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.length !== b.length) {
    return false;
  }
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The concatenation of byte strings. */
export function concatBytes(parts) {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** Lowercase hex of bytes. */
export function toHex(bytes) {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** Bytes of lowercase or uppercase hex. */
export function fromHex(text) {
  if (text.length % 2 || /[^0-9a-fA-F]/.test(text)) throw new TypeError("not hex");
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** u32 big-endian. */
export function u32(n) {
  return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
}

/** H(FRAME, wire bytes), first 32 bytes: the next frame's `prev` (8.4). */
export function frameHash(suite, wire) {
  return suite.H(Tag.FRAME, wire).slice(0, HASH_BYTES);
}

/**
 * A parsed frame (8.4). `wire` is the exact bytes received, `payload` what was signed;
 * `suite` is the game's, whose H gives the frame's hash.
 */
export class Frame {
  constructor(fields) {
    this.version = fields.version;
    this.gameId = fields.gameId;
    this.seq = fields.seq;
    this.prev = fields.prev;
    this.seat = fields.seat;
    this.type = fields.type;
    this.stateHash = fields.stateHash;
    this.body = fields.body;
    this.signature = fields.signature;
    this.payload = fields.payload;
    this.wire = fields.wire;
    Object.defineProperty(this, "suite", { value: fields.suite, enumerable: false });
    Object.defineProperty(this, "_hash", { value: null, writable: true, enumerable: false });
  }

  /** H(FRAME, wire bytes), first 32 bytes: the next frame's `prev`. */
  get hash() {
    if (this._hash === null) this._hash = frameHash(this.suite, this.wire);
    return this._hash;
  }

  get game_id() { return this.gameId; }
  get state_hash() { return this.stateHash; }
}

/**
 * The exact bytes a frame's signature covers (8.3): the version's prefix, which no SSH
 * signed blob or other dealerless message starts with, then the payload.
 */
export function signedMessage(version, payload) {
  return concatBytes([frameSignaturePrefix(version), payload]);
}

/**
 * Encode and sign a frame of a game in `suite` (8.4); returns its wire bytes. `fresh`
 * hedges the signature's nonce where the suite's scheme has one (2.6). An identity with
 * no seed in reach (a key kept by WebCrypto, keys/identity_key.js) signs asynchronously,
 * and then so does this: it returns a Promise of the same bytes, Ed25519 being
 * deterministic in both suites a seat plays.
 */
export function buildFrame(identity, suite, gameId, seq, prev, seat, mtype, stateHash, body,
  fresh = new Uint8Array(0)) {
  const payload = pack([suite.version, gameId, seq, prev, seat, mtype, stateHash, body]);
  const message = signedMessage(suite.version, payload);
  const framed = (signature) => {
    const wire = pack([payload, signature]);
    if (wire.length > MAX_FRAME_BYTES) {
      throw new EncodingError("frame/too-large", `${wire.length} bytes exceeds ${MAX_FRAME_BYTES}`);
    }
    return wire;
  };
  if (identity.seed === undefined) return identity.sign(message).then(framed);
  return framed(suite.signer.sign(identity.seed, message, fresh));
}

/**
 * Strictly decode a frame's structure in 8.4's order; throws EncodingError (frame/...,
 * msgpack/..., schema/...). `suite` is the game's (it hashes the frame).
 */
export function parseFrame(wire, suite) {
  const outer = asArray(unpack(wire, MAX_FRAME_BYTES), 2, "frame");
  const payload = asBytes(outer[0], "frame payload", null, MAX_FRAME_BYTES);
  const signature = asBytes(outer[1], "frame signature", SIGNATURE_BYTES);
  const fields = asArray(unpack(payload, MAX_FRAME_BYTES), 8, "frame payload");
  const version = asInt(fields[0], "version");
  checkVersion(Number(version), "frame", suite.version);
  const code = asInt(fields[5], "type");
  if (LABELS[code] === undefined) {
    throw new EncodingError("frame/unknown-type", `no message type ${code}`);
  }
  return new Frame({
    version: Number(version),
    gameId: asBytes(fields[1], "game id", HASH_BYTES),
    seq: asInt(fields[2], "seq"),
    prev: asBytes(fields[3], "prev", HASH_BYTES),
    seat: Number(asInt(fields[4], "seat", 0, 255)),
    type: Number(code),
    stateHash: asBytes(fields[6], "state hash", HASH_BYTES),
    body: fields[7],
    signature,
    payload,
    wire,
    suite,
  });
}
