/**
 * One interface over the groups of the ciphersuites (spec/02-group.md 2.5); mirrors
 * protocol/groups/base.py.
 *
 * An element is kept as its canonical encoding (`.data`). Received bytes become an
 * element only through `Group.decode`, which applies every rule of 2.5 for that group
 * and names the broken one (`point/*`); a received scalar only through `decodeScalar`
 * (`scalar/*`, 2.4). Results of operations on valid elements are valid (the groups have
 * prime order) and may be the identity, which `decode` never returns. Scalars are BigInt.
 * @module protocol/groups/base
 */
import { EncodingError } from "../errors.js";

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * The integer that `data` encodes in `byteorder` ("little" or "big"), as Python's
 * int.from_bytes.
 * @param {Uint8Array} data
 * @param {"little"|"big"} byteorder
 * @returns {bigint}
 */
export function intFromBytes(data, byteorder) {
  let text = "";
  if (byteorder === "little") for (let i = data.length - 1; i >= 0; i--) text += HEX[data[i]];
  else for (let i = 0; i < data.length; i++) text += HEX[data[i]];
  return text ? BigInt(`0x${text}`) : 0n;
}

/**
 * `k` (0 <= k < 256^length) as `length` bytes in `byteorder`, as Python's int.to_bytes.
 * @param {bigint|number} k
 * @param {number} length
 * @param {"little"|"big"} byteorder
 * @returns {Uint8Array}
 */
export function intToBytes(k, length, byteorder) {
  let v = BigInt(k);
  if (v < 0n || v >> BigInt(8 * length) !== 0n) throw new RangeError("int too big to convert");
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    out[byteorder === "little" ? i : length - 1 - i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Lowercase hex of `data`. */
export function toHex(data) {
  let text = "";
  for (let i = 0; i < data.length; i++) text += HEX[data[i]];
  return text;
}

/** Whether two byte strings are equal (not constant-time: for public values). */
export function bytesEqual(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A group element: its canonical encoding in `.data`. Immutable by convention; two
 * elements are equal when their encodings are (`equals`). `toString()` is the hex of the
 * encoding, so an element can key a Map by `String(p)`.
 */
export class Element {
  /**
   * @param {Uint8Array} data
   * @param {*} [native] a backend's object for it (unused by the libsodium backends)
   */
  constructor(data, native = null) {
    this.data = data;
    this.native = native;
  }

  /** @param {*} other @returns {boolean} */
  equals(other) {
    return other instanceof Element && bytesEqual(other.data, this.data);
  }

  /** The hex of the encoding. */
  toString() { return toHex(this.data); }

  /** The encoding, as Python's bytes(element). */
  bytes() { return this.data; }
}

/**
 * A group of prime order `order` (BigInt) with a fixed generator (2.5). Subclasses set
 * `name`, `order`, `elementBytes`, `scalarBytes`, `byteorder`, `identity` and
 * `generator`, and implement decode, add, neg and mul.
 */
export class Group {
  constructor() {
    this.scalarBytes = 32;
  }

  /** A received element: the canonical encoding of a non-identity element (2.5). */
  decode(_data) { throw new Error("abstract"); }

  add(_p, _q) { throw new Error("abstract"); }

  neg(_p) { throw new Error("abstract"); }

  /** k*P for any integer k (taken mod the order). */
  mul(_k, _p) { throw new Error("abstract"); }

  sub(p, q) { return this.add(p, this.neg(q)); }

  baseMul(k) { return this.mul(k, this.generator); }

  /**
   * The sum of `points` (the identity for none).
   * @param {Element[]} points
   * @returns {Element}
   */
  sum(points) {
    let acc = this.identity;
    for (const p of points) acc = acc === this.identity ? p : this.add(acc, p);
    return acc;
  }

  /**
   * The sum of k_i * P_i: one multiplication a term, then the sum. The lengths must match.
   * @param {Array<bigint|number>} scalars
   * @param {Element[]} points
   * @returns {Element}
   */
  msm(scalars, points) {
    if (scalars.length !== points.length) throw new RangeError("an MSM takes as many scalars as points");
    return this.sum(points.map((p, i) => this.mul(scalars[i], p)));
  }

  /** k mod the order, as a BigInt in [0, order). */
  reduce(k) {
    const v = BigInt(k) % this.order;
    return v < 0n ? v + this.order : v;
  }

  /**
   * A scalar in [0, order) as `scalarBytes` bytes in the group's byte order (2.5).
   * @param {bigint|number} k
   * @returns {Uint8Array}
   */
  encodeScalar(k) {
    return intToBytes(this.reduce(k), this.scalarBytes, this.byteorder);
  }

  /**
   * A received scalar: exactly `scalarBytes` bytes, below the order (2.4, 2.5).
   * @param {Uint8Array} data
   * @returns {bigint}
   */
  decodeScalar(data) {
    if (!(data instanceof Uint8Array) || data.length !== this.scalarBytes) {
      throw new EncodingError("scalar/length", `a scalar is exactly ${this.scalarBytes} bytes`);
    }
    const k = intFromBytes(data, this.byteorder);
    if (k >= this.order) {
      throw new EncodingError("scalar/out-of-range", "a scalar must be less than the group order");
    }
    return k;
  }

  _length(data) {
    if (!(data instanceof Uint8Array) || data.length !== this.elementBytes) {
      throw new EncodingError("point/length",
        `a ${this.name} element is exactly ${this.elementBytes} bytes`);
    }
  }
}

/** A group with a hash to the group that RFC 9380 defines (or RFC 9496 with it). */
export class HashedGroup extends Group {
  /** hash_to_curve(msg) of `h2cSuite` under the domain separation tag `dst`. */
  hashToGroup(_msg, _dst) { throw new Error("abstract"); }
}
