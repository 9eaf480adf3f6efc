/**
 * The peer messages and their readers (spec/12-peers.md 12.3 "Messages"); mirrors
 * peers/net/messages.py.
 *
 * Peer messages are canonical msgpack arrays (8.1). Each handshake message ends with its
 * sender's signature (protocol/handshake_auth.js), which the readers here expect removed:
 *
 *     ["hello", 10, "host", key, commitment, rules, params, K, round, shares, suite, sig]
 *     ["hello", 10, "join", key, commitment, seat, host commitment, share, confirm, suite,
 *      frame key, binding, sig]
 *     ["roster", keys, commitments, frame keys, bindings, sig]
 *     ["open", key, nonce, sig]
 *     ["reveal", nonces, sig]
 *     ["refuse", host key, key, reason, K, sig]
 *
 * Then, during the game: ["frame", wire], ["sync", n, head], ["done", n, seat, head].
 *
 * A reader throws EncodingError for a malformed message and PeerError for one that can
 * never work here (another version, unknown rules or suite).
 * @module net/messages
 */

import { asArray, asBytes, asInt, asList, asStr, pack, unpack } from "../protocol/canonical.js";
import { DealerlessError, EncodingError } from "../protocol/errors.js";
import { BINDING_BYTES, checkBinding, CONFIRM_BYTES } from "../protocol/handshake_auth.js";
import { H, PEER, Tag } from "../protocol/hashing.js";
import { checkPublicKey } from "../protocol/identity.js";
import { makeRules } from "../protocol/rules/index.js";
import { ED25519, SUITE_NAMES, suite } from "../protocol/suite.js";
import { PEER_PROTOCOL, PROTOCOL } from "../protocol/version.js";
import { CLI_SUITE, MAX_SEATS, MIN_SEATS, PeerError } from "./config.js";
import { MAX_MESSAGE_BYTES } from "./link.js";

/** The version of the peer protocol in every hello (12.3). */
export const PROTOCOL_VERSION = PEER_PROTOCOL;
/**
 * The longest frame key of any suite (3.5): 48 bytes, a compressed point of G1. Written
 * out, since this build holds no BLS12-381 suite to ask.
 */
export const MAX_FRAME_KEY = 48;

/**
 * The suite `name` (3.5) at this build's protocol version: a new table's.
 * @param {string} name
 */
export function tableSuiteNamed(name) {
  return suite(name, PROTOCOL);
}

/**
 * What a joiner says when the host plays another suite than it was asked to (12.3).
 * @param {string} host
 * @param {string} mine
 * @param {string} [said]
 */
export function joinSuiteRefusal(host, mine, said = CLI_SUITE) {
  return `the host plays ${host}; this seat ${said.replaceAll("{mine}", mine)}`;
}

/**
 * `frameKey` if it may be the frame key (8.3) in the suite `suiteName` of seat `seat`,
 * whose identity key is `key`, at the table `rid`, bound by `binding` (12.3
 * "Authentication"); EncodingError `code` or `point/*`.
 */
export function checkFrameKey(suiteName, key, frameKey, rid, seat, binding,
                              code = "hello/frame-key") {
  const played = tableSuiteNamed(suiteName);
  const signer = played.signer;
  if (signer !== ED25519) {
    if (frameKey.length !== signer.keyBytes) {
      throw new EncodingError(code, `seat ${seat}: a frame key of ${suiteName} is `
                              + `${signer.keyBytes} bytes`);
    }
    signer.checkKey(frameKey);
  }
  checkBinding(played, rid, seat, key, frameKey, binding, code);
  return frameKey;
}

/**
 * A seat's commitment to its setup nonce: H(HELLO_COMMIT, nonce)[:32] (12.3).
 * @param {Uint8Array} nonce
 * @returns {Uint8Array}
 */
export function helloCommitment(nonce) {
  return H(Tag.HELLO_COMMIT, nonce).slice(0, 32);
}

/** pack([kind, ...items]). */
export function packMessage(kind, ...items) {
  return pack([kind, ...items]);
}

/**
 * A peer message as an array whose item 0 is text, or null for anything else.
 * @param {Uint8Array} data
 * @returns {Array|null}
 */
export function parseMessage(data) {
  try {
    const obj = unpack(data, MAX_MESSAGE_BYTES);
    if (!Array.isArray(obj) || !obj.length) return null;
    asStr(obj[0], "message kind");
    return obj;
  } catch (exc) {
    if (exc instanceof EncodingError) return null;
    throw exc;
  }
}

/** An identity key: a canonical point of the prime-order group (8.2), else point/*. */
function readKey(obj, what = "identity key") {
  const key = asBytes(obj, what, 32);
  checkPublicKey(key);
  return key;
}

const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v)
  && !(v instanceof Uint8Array);

export const bytesEqual = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const hex = (data) => Array.from(data, (b) => b.toString(16).padStart(2, "0")).join("");
const distinct = (list) => new Set(list.map(hex)).size;

/** The host's hello as a joiner reads it (12.3). */
export class Offer {
  constructor(key, commitment, rules, params, seats, round, shares, suiteName) {
    Object.assign(this, { key, commitment, rules, params, seats, round, shares });
    /** The table's ciphersuite (3.5), which the game is played in. */
    this.suite = suiteName;
    Object.freeze(this);
  }

  /** The key-exchange share of joining seat `seat`: shares[seat - 1]. */
  share(seat) {
    return this.shares[seat - 1];
  }
}

/**
 * The seats as the host fixed them: identity keys, commitments, frame keys in the table's
 * suite and each frame key's binding to its seat (12.3), in seat order.
 */
export class Roster {
  constructor(keys, commitments, frameKeys, bindings) {
    Object.assign(this, { keys, commitments, frameKeys, bindings });
    Object.freeze(this);
  }

  body() {
    return ["roster", [...this.keys], [...this.commitments], [...this.frameKeys],
      [...this.bindings]];
  }

  /** The seat of identity key `key`, or -1. */
  seatOf(key) {
    return this.keys.findIndex((k) => bytesEqual(k, key));
  }

  /**
   * EncodingError `roster/binding` unless every seat's frame key is bound to its identity
   * key at its seat by the signatures of both (12.3 step 4).
   */
  checkBindings(rid, suiteName) {
    this.keys.forEach((key, seat) => checkFrameKey(suiteName, key, this.frameKeys[seat], rid,
                                                   seat, this.bindings[seat], "roster/binding"));
  }
}

/**
 * What to tell a person about a hello of another peer protocol version, or null. Its
 * item 1 is read before anything else (12.3 "The order of checks").
 * @param {Array} obj
 * @param {string} [who]
 * @returns {string|null}
 */
export function otherVersion(obj, who = "the host") {
  const version = obj.length > 1 ? obj[1] : null;
  const isInt = (typeof version === "number" && Number.isInteger(version))
    || typeof version === "bigint";
  if (!isInt || Number(version) === PROTOCOL_VERSION) return null;
  return `${who} speaks version ${version} of the peer protocol; this dealerless speaks `
    + `version ${PROTOCOL_VERSION} (update both sides)`;
}

/**
 * A host's hello, its signature removed: EncodingError if malformed, PeerError if it can
 * never work here (12.3).
 * @param {Array} body
 * @returns {Offer}
 */
export function readOffer(body) {
  const refused = otherVersion(body);
  if (refused) throw new PeerError(refused);
  const [, , , key, commitment, rules, params, seats, rnd, shares, named] = asArray(
    body, 11, "host hello");
  if (!isMap(params)) throw new EncodingError("hello/params", "parameters are a map");
  const k = asInt(seats, "seats", MIN_SEATS, MAX_SEATS);
  const offer = new Offer(readKey(key), asBytes(commitment, "commitment", 32),
    asStr(rules, "rules"), params, k, asInt(rnd, "round", 0, 2 ** 32),
    asList(shares, "shares", MAX_SEATS - 1).map((y) => asBytes(y, "share", 32)),
    asStr(named, "suite", 64));
  if (offer.shares.length !== k - 1) {
    throw new EncodingError("hello/shares", `a table of ${k} has ${k - 1} key-exchange `
      + `shares, one for each joining seat, not ${offer.shares.length}`);
  }
  for (const share of offer.shares) PEER.decodePoint(share);
  if (!SUITE_NAMES.includes(offer.suite)) {
    throw new PeerError(`the host plays the ciphersuite ${JSON.stringify(offer.suite)}, which `
      + `this version of dealerless does not know (it knows ${SUITE_NAMES.join(", ")})`);
  }
  let ruleset;
  try {
    ruleset = makeRules(offer.rules, { ...params });
  } catch (exc) {
    if (!(exc instanceof DealerlessError)) throw exc;
    if (exc.code === "rules/unknown-ruleset") {
      throw new PeerError(`the host offers the rules '${offer.rules}', which this version of `
                          + "dealerless does not know");
    }
    throw new EncodingError("hello/rules", `the host's rules: ${exc.message}`);
  }
  if (ruleset.deal.seats !== offer.seats) {
    throw new EncodingError("hello/seats", `${offer.rules} with these parameters has `
                            + `${ruleset.deal.seats} seats, not ${offer.seats}`);
  }
  return offer;
}

/**
 * A joiner's hello, its signature removed (12.3): `seat` the one its invitation names,
 * `answers` the host commitment it answers (empty if none yet), `share` and `confirm` its
 * half of that seat's key exchange, `suite` the suite it plays ("": the host's), its
 * `frameKey` in that suite and that key's `binding`.
 */
export class JoinHello {
  constructor(key, commitment, seat, answers, share, confirm, suiteName, frameKey, binding) {
    Object.assign(this, { key, commitment, seat, answers, share, confirm, frameKey, binding });
    this.suite = suiteName;
    Object.freeze(this);
  }
}

/**
 * A joiner's hello: EncodingError if malformed (point/* for a key that is not one), read
 * in 12.3's order: its version (item 1), its shape, its key (2.3). Its frame key is
 * checked after its signature, with its binding (`checkFrameKey`).
 * @param {Array} body
 * @returns {JoinHello}
 */
export function readJoinHello(body) {
  const refused = otherVersion(body, "a joiner");
  if (refused) throw new EncodingError("hello/version", refused);
  const [, version, , key, commitment, seat, answers, share, confirm, named, frameKey,
    binding] = asArray(body, 12, "join hello");
  if (asInt(version, "hello version") !== PROTOCOL_VERSION) {
    throw new EncodingError("hello/version", `a version ${version} hello`);
  }
  const hello = new JoinHello(readKey(key), asBytes(commitment, "commitment", 32),
    asInt(seat, "seat", 1, MAX_SEATS - 1),
    asBytes(answers, "host commitment", { maxLen: 32 }),
    asBytes(share, "share", { maxLen: 32 }),
    asBytes(confirm, "confirm", { maxLen: CONFIRM_BYTES }),
    asStr(named, "suite", 64),
    asBytes(frameKey, "frame key", { maxLen: MAX_FRAME_KEY }),
    asBytes(binding, "binding", { maxLen: BINDING_BYTES }));
  const sizes = [hello.answers.length, hello.share.length, hello.confirm.length].join();
  if (![[0, 0, 0].join(), [32, 32, CONFIRM_BYTES].join()].includes(sizes)
      || (hello.answers.length === 0) !== (hello.frameKey.length === 0)
      || (!hello.answers.length && hello.binding.length)) {
    throw new EncodingError("hello/answers", "an answer is a 32-byte host commitment, a "
      + "32-byte share, a 32-byte confirmation, a frame key and its binding, or none of them");
  }
  if (!["", ...SUITE_NAMES].includes(hello.suite) || (hello.answers.length && !hello.suite)) {
    throw new EncodingError("hello/suite", `a joiner names a suite of 3.5 `
      + `(${JSON.stringify(hello.suite)}), or none before it has answered a host hello`);
  }
  return hello;
}

/**
 * A roster (its signature removed) that fits the host's offer: K distinct keys, the
 * host's first, K distinct frame keys in the offer's suite and K bindings, whose
 * signatures `Roster.checkBindings` checks (12.3 step 4).
 * @param {Array} body
 * @param {Offer} offer
 * @returns {Roster}
 */
export function readRoster(body, offer) {
  const [, keys, commitments, frameKeys, bindings] = asArray(body, 5, "roster");
  const roster = new Roster(
    asList(keys, "roster keys", MAX_SEATS).map((k) => readKey(k)),
    asList(commitments, "commitments", MAX_SEATS).map((c) => asBytes(c, "commitment", 32)),
    asList(frameKeys, "frame keys", MAX_SEATS)
      .map((f) => asBytes(f, "frame key", { maxLen: MAX_FRAME_KEY })),
    asList(bindings, "bindings", MAX_SEATS)
      .map((b) => asBytes(b, "binding", { maxLen: BINDING_BYTES })));
  const k = offer.seats;
  const lengths = new Set([roster.keys.length, roster.commitments.length,
    roster.frameKeys.length, roster.bindings.length]);
  if (lengths.size !== 1 || !lengths.has(k) || distinct(roster.keys) !== k) {
    throw new EncodingError("roster/seats", `a roster of ${k} seats, each with its own `
                            + "identity key, commitment, frame key and binding");
  }
  if (distinct(roster.frameKeys) !== k) {
    throw new EncodingError("roster/seats", `a roster of ${k} seats whose frame keys are `
                            + "distinct: two seats have the same frame key");
  }
  if (!bytesEqual(roster.keys[0], offer.key)
      || !bytesEqual(roster.commitments[0], offer.commitment)) {
    throw new EncodingError("roster/host", "not the roster of this host's round");
  }
  return roster;
}

/** What a joiner says of each refusal (12.3 step 7); `{seats}` is the host's K. */
export const REFUSALS = Object.freeze({
  full: "the table is full: the host already has its {seats} players, and the game goes on "
    + "without you",
  seated: "your identity key already holds a seat in this game, taken by another join with "
    + "the same key or by an earlier run of this one (resume continues that one)",
  key: "the host refused your identity key: it is not a valid Ed25519 key of the "
    + "prime-order group (make a new one)",
});
