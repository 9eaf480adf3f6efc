/**
 * ristretto255 (RFC 9496) through libsodium (spec/02-group.md 2.5); mirrors
 * protocol/groups/ristretto255.py.
 *
 * `decode` checks 2.5's rules 1 and 2 itself before asking libsodium, so that what an
 * element is never depends on a libsodium's reading of a non-canonical encoding (1.0.18
 * accepted the top bit set). libsodium refuses to return the identity from a
 * multiplication, so a zero scalar and the identity are handled here.
 * @module protocol/groups/ristretto255
 */
import sodium from "../../vendor/sodium.mjs";
import { EncodingError } from "../errors.js";
import { Element, HashedGroup, bytesEqual, intFromBytes, intToBytes } from "./base.js";
import { expandMessageXmd } from "./xmd.js";

/** The field prime 2^255 - 19 (an encoding is a field element below it). */
export const P = (1n << 255n) - 19n;
const ORDER = (1n << 252n) + 27742317777372353535851937790883648493n;
const ZERO = new Uint8Array(32);

/** ristretto255 (2.5): 32-byte elements and little-endian scalars. */
export class Ristretto255 extends HashedGroup {
  constructor() {
    super();
    this.name = "ristretto255";
    this.order = ORDER;
    this.elementBytes = 32;
    this.byteorder = "little";
    this.identity = new Element(ZERO);
    this.generator = new Element(
      sodium.crypto_scalarmult_ristretto255_base(intToBytes(1n, 32, "little")));
    this.h2cSuite = "ristretto255_XMD:SHA-512_R255MAP_RO_";
  }

  /**
   * RFC 9496 4.3.1 with 2.5's codes: s canonical (below p, top bit clear) and even, not
   * the identity, and it decodes.
   * @param {Uint8Array} data
   * @returns {Element}
   */
  decode(data) {
    this._length(data);
    const s = intFromBytes(data, "little");
    if (s >= P || (s & 1n) === 1n) {
      throw new EncodingError("point/non-canonical",
        "not the canonical encoding of a ristretto255 element");
    }
    if (s === 0n) throw new EncodingError("point/identity", "the identity is not a valid element here");
    if (!sodium.crypto_core_ristretto255_is_valid_point(data)) {
      throw new EncodingError("point/not-on-curve", "not the encoding of a ristretto255 element");
    }
    return new Element(data);
  }

  add(p, q) { return new Element(sodium.crypto_core_ristretto255_add(p.data, q.data)); }

  sub(p, q) { return new Element(sodium.crypto_core_ristretto255_sub(p.data, q.data)); }

  neg(p) { return this.sub(this.identity, p); }

  mul(k, p) {
    const s = this.reduce(k);
    if (s === 0n || bytesEqual(p.data, ZERO)) return this.identity;
    return new Element(sodium.crypto_scalarmult_ristretto255(intToBytes(s, 32, "little"), p.data));
  }

  baseMul(k) {
    const s = this.reduce(k);
    if (s === 0n) return this.identity;
    return new Element(sodium.crypto_scalarmult_ristretto255_base(intToBytes(s, 32, "little")));
  }

  /**
   * RFC 9496 4.3.4, the one-way map of 64 uniform bytes.
   * @param {Uint8Array} data
   * @returns {Element}
   */
  fromUniform(data) {
    if (data.length !== 64) throw new RangeError("the one-way map takes 64 bytes");
    return new Element(sodium.crypto_core_ristretto255_from_hash(data));
  }

  /**
   * RFC 9380 appendix B: the one-way map of 64 bytes from expand_message_xmd (SHA-512).
   * @param {Uint8Array} msg
   * @param {Uint8Array} dst
   * @returns {Element}
   */
  hashToGroup(msg, dst) {
    return this.fromUniform(expandMessageXmd("sha512", msg, dst, 64));
  }
}

export const GROUP = new Ristretto255();
