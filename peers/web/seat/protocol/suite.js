/**
 * Ciphersuites: a group, the hash H over it and its domain, and the frame signature
 * (spec/02-group.md 2.5, spec/03-hashing.md 3.5); mirrors protocol/suite.py.
 *
 * Every proof and deck operation is written once over `Suite`: it asks the suite for its
 * group's operations, for H and for the hashes to a scalar and to the group. A suite's
 * `context` is the first item of every hash it makes, so no hash of one suite, or of one
 * protocol version, is ever a hash of another. Scalars are BigInt; bytes Uint8Array.
 *
 * The browser seat builds `edwards25519-sha512` and `ristretto255-sha512`; asking for
 * `bls12381g1-sha256` throws LocalError `suite/unsupported` (libsodium has no BLS12-381).
 * @module protocol/suite
 */
import { DeckError, LocalError } from "./errors.js";
import { Element, group } from "./groups/index.js";
import { intFromBytes } from "./groups/base.js";
import { concatBytes, hashFunction } from "./groups/xmd.js";
import { Ed25519Signer } from "./signature.js";
import { Tag, TagEntry, lp, requireFresh, tags, u64 } from "./tags.js";
import { PROTOCOL } from "./version.js";

const encoder = new TextEncoder();

/** One ciphersuite at one protocol version (3.5). */
export class Suite {
  /**
   * @param {string} name the suite's name in the setup, e.g. "ristretto255-sha512"
   * @param {import("./groups/base.js").Group} grp its prime-order group
   * @param {string} hashName "sha512" or "sha256"
   * @param {number} version the protocol version, which the context carries
   */
  constructor(name, grp, hashName, version) {
    this.name = name;
    this.group = grp;
    this.hashName = hashName;
    this.version = version;
    let ctx = `dealerless/${version}`;
    if (version >= 3) ctx += `/${name}`;
    /** The first item of every hash (3.1, 3.5), as bytes; `contextText` as text. */
    this.context = encoder.encode(ctx);
    this.contextText = ctx;
    this._hash = hashFunction(hashName);
    /** lp(context) || lp(tag) for each tag of the version. */
    this._heads = new Map(tags(version).map((t) => [t, concatBytes(lp(this.context), lp(t.value))]));
  }

  // -- sizes and encodings (2.5) ------------------------------------------------------

  /** The group's order (BigInt). */
  get order() { return this.group.order; }

  get pointBytes() { return this.group.elementBytes; }

  get scalarBytes() { return this.group.scalarBytes; }

  /** How many bytes H gives: 64 for SHA-512, 32 for SHA-256. */
  get digestBytes() { return this._hash.digestSize; }

  /** @param {bigint|number} k @returns {Uint8Array} */
  encodeScalar(k) { return this.group.encodeScalar(k); }

  /** 2.4: `scalar/length`, `scalar/out-of-range`. @returns {bigint} */
  decodeScalar(data) { return this.group.decodeScalar(data); }

  /** 2.3 / 2.5: `point/*`. @returns {Element} */
  decodePoint(data) { return this.group.decode(data); }

  // -- hashing (3.1, 3.3, 3.4) --------------------------------------------------------

  /**
   * lp(context) || lp(tag) || lp(part_1) || ... : what H hashes.
   * @param {TagEntry} tag
   * @param {Uint8Array[]} parts
   * @returns {Uint8Array}
   */
  preimage(tag, parts) {
    const head = tag instanceof TagEntry ? this._heads.get(tag) : undefined;
    if (head === undefined) {
      throw new LocalError("hash/untagged", "every hash needs a tag from the domain table of its version");
    }
    let size = head.length;
    for (const p of parts) size += 4 + p.length;
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    out.set(head);
    let at = head.length;
    for (const p of parts) {
      if (p.length >= 2 ** 32) {
        throw new LocalError("hash/part-too-long", "a hash input part is limited to 2^32-1 bytes");
      }
      view.setUint32(at, p.length);
      out.set(p, at + 4);
      at += 4 + p.length;
    }
    return out;
  }

  /**
   * The hash of 3.1 over the suite's hash function.
   * @param {TagEntry} tag
   * @param {...Uint8Array} parts
   * @returns {Uint8Array}
   */
  H(tag, ...parts) {
    return this._hash.digest(this.preimage(tag, parts));
  }

  /**
   * H(...) read as a little-endian integer mod the order (3.3; bias < 2^-259).
   * @returns {bigint}
   */
  hashToScalar(tag, ...parts) {
    return intFromBytes(this.H(tag, ...parts), "little") % this.order;
  }

  /** The group's hash to the group of H's input (3.3, 3.5); never the identity. */
  hashToPoint(_tag, ..._parts) { throw new Error("abstract"); }

  /**
   * Hedged nonces k_j = H_scalar(NONCE, label, secret, public, fresh, u64(j)) (3.4).
   * @param {Uint8Array} label
   * @param {Uint8Array} secret
   * @param {Uint8Array} pub the statement with its context
   * @param {Uint8Array} fresh at least 32 bytes
   * @param {number} count
   * @returns {bigint[]}
   */
  nonceScalars(label, secret, pub, fresh, count) {
    requireFresh(fresh);
    const head = this.preimage(Tag.NONCE, [label, secret, pub, fresh]);
    const out = [];
    for (let j = 0; j < count; j++) {
      const digest = this._hash.digest(concatBytes(head, lp(u64(j))));
      out.push(intFromBytes(digest, "little") % this.order);
    }
    return out;
  }

  /**
   * `size` bytes: H(tag, parts, u64(k)) for blocks k = 0, 1, ... (6.6.3).
   * @param {TagEntry} tag
   * @param {number} size
   * @param {...Uint8Array} parts
   * @returns {Uint8Array}
   */
  stream(tag, size, ...parts) {
    const blocks = Math.ceil(size / this.digestBytes);
    const out = [];
    for (let k = 0; k < blocks; k++) out.push(this.H(tag, ...parts, u64(k)));
    return concatBytes(...out).slice(0, size);
  }

  /**
   * The frame signature (8.3): Ed25519 in the suites for players. A property, as in the
   * Python; calling it (`suite.signer()`) returns the same signer.
   * @type {Ed25519Signer}
   */
  get signer() { return ED25519; }

  toString() { return `Suite(${this.name}, ${this.contextText})`; }
}

/**
 * A signer that may also be called: `suite.signer` and `suite.signer()` are the same
 * signer, whichever way a caller predicted the API.
 */
function callable(signer) {
  const f = () => f;
  Object.setPrototypeOf(f, signer);
  return f;
}

/** The Ed25519 frame signer of both libsodium suites (8.3). */
export const ED25519 = callable(new Ed25519Signer());

/** edwards25519-sha512: the group, hashes and bytes of dealerless/2 (3.3). */
export class Edwards25519Sha512 extends Suite {
  /** from_uniform of the first 32 bytes of H(...) (3.3). */
  hashToPoint(tag, ...parts) {
    const pt = this.group.fromUniform(this.H(tag, ...parts).subarray(0, 32));
    if (pt.equals(this.group.identity)) {   // probability ~2^-252; refuse rather than use it
      throw new DeckError("h2p/identity", "hash-to-point gave the identity");
    }
    return pt;
  }
}

/**
 * A suite whose hash to the group is RFC 9380's (3.5): the message is H's whole input,
 * under the DST "dealerless-V<version>-" and the RFC 9380 suite identifier.
 */
export class Rfc9380Suite extends Suite {
  /** "dealerless-V<version>-" and the RFC 9380 suite identifier, as bytes. */
  get dst() {
    return encoder.encode(`dealerless-V${this.version}-${this.group.h2cSuite}`);
  }

  hashToPoint(tag, ...parts) {
    const pt = this.group.hashToGroup(this.preimage(tag, parts), this.dst);
    if (pt.equals(this.group.identity)) {
      throw new DeckError("h2p/identity", "hash-to-point gave the identity");
    }
    return pt;
  }
}

/** RFC 9380 5.1's L for a 255-bit order and 128-bit security (the Python's Sha256Suite). */
export const SCALAR_FIELD_BYTES = 48;

/** The suites' names, as a setup may name them (8.2); the third is not built here. */
export const SUITE_NAMES = Object.freeze(["edwards25519-sha512", "ristretto255-sha512", "bls12381g1-sha256"]);

/** The suite a new game is played in unless the players choose another (2.5). */
export const DEFAULT = "ristretto255-sha512";

function make(name, version) {
  if (name === "edwards25519-sha512") {
    return new Edwards25519Sha512(name, group("edwards25519"), "sha512", version);
  }
  if (name === "ristretto255-sha512") {
    return new Rfc9380Suite(name, group("ristretto255"), "sha512", version);
  }
  if (name === "bls12381g1-sha256") {
    throw new LocalError("suite/unsupported",
      "bls12381g1-sha256 is not available in the browser seat: libsodium has no BLS12-381");
  }
  throw new LocalError("suite/unknown", `no suite called ${name}`);
}

const BUILT = new Map();

/**
 * The suite called `name` at protocol `version` (one object per pair). An unknown name
 * throws LocalError `suite/unknown` (the Python's KeyError), bls12381g1-sha256
 * `suite/unsupported`.
 * @param {string} name
 * @param {number} version
 * @returns {Suite}
 */
export function suite(name, version) {
  const key = `${name}/${version}`;
  if (!BUILT.has(key)) BUILT.set(key, make(name, version));
  return BUILT.get(key);
}

/** The suite of a new game when the players choose none: DEFAULT at this version. */
export function tableSuite() {
  return suite(DEFAULT, PROTOCOL);
}

/** The one suite of dealerless/2: edwards25519-sha512 at that version (3.5). */
export function v2Suite() {
  return suite("edwards25519-sha512", 2);
}

export { Element };
