/**
 * edwards25519's prime-order subgroup through libsodium: the group of
 * `edwards25519-sha512`, dealerless/2's only group (spec/02-group.md 2.2-2.5); mirrors
 * protocol/groups/edwards25519.py.
 *
 * libsodium refuses the identity as a multiplication input and output (2.2), and results
 * of operations on valid elements may be the identity (P - P), so `mul` and `baseMul`
 * handle a zero scalar and the identity themselves rather than fail.
 * @module protocol/groups/edwards25519
 */
import sodium from "../../vendor/sodium.mjs";
import { EncodingError } from "../errors.js";
import { Element, Group, bytesEqual, intFromBytes, intToBytes } from "./base.js";

/** The field prime 2^255 - 19. */
export const P_FIELD = (1n << 255n) - 19n;
/** The encoding of the identity O. */
export const IDENTITY_BYTES = (() => { const b = new Uint8Array(32); b[0] = 1; return b; })();
const ORDER = (1n << 252n) + 27742317777372353535851937790883648493n;   // RFC 8032 5.1

/** edwards25519 (2.3, 2.5): 32-byte elements and little-endian scalars. */
export class Edwards25519 extends Group {
  constructor() {
    super();
    this.name = "edwards25519";
    this.order = ORDER;
    this.elementBytes = 32;
    this.byteorder = "little";
    this.identity = new Element(IDENTITY_BYTES);
    /** The standard base point B of RFC 8032. */
    this.generator = new Element(
      sodium.crypto_scalarmult_ed25519_base_noclamp(intToBytes(1n, 32, "little")));
  }

  /**
   * The canonical encoding of a non-identity element of the prime-order subgroup (2.3);
   * anything else throws EncodingError naming the first rule broken.
   * @param {Uint8Array} data
   * @returns {Element}
   */
  decode(data) {
    this._length(data);
    if (sodium.crypto_core_ed25519_is_valid_point(data)) return new Element(data);
    throw new EncodingError(classifyInvalid(data), "not a valid group element");
  }

  add(p, q) { return new Element(sodium.crypto_core_ed25519_add(p.data, q.data)); }

  sub(p, q) { return new Element(sodium.crypto_core_ed25519_sub(p.data, q.data)); }

  neg(p) { return this.sub(this.identity, p); }

  /** k*P (2.2): O when k = 0 mod L or P = O. */
  mul(k, p) {
    const s = this.reduce(k);
    if (s === 0n || bytesEqual(p.data, IDENTITY_BYTES)) return this.identity;
    return new Element(sodium.crypto_scalarmult_ed25519_noclamp(intToBytes(s, 32, "little"), p.data));
  }

  /** k*G (2.2): O when k = 0 mod L. */
  baseMul(k) {
    const s = this.reduce(k);
    if (s === 0n) return this.identity;
    return new Element(sodium.crypto_scalarmult_ed25519_base_noclamp(intToBytes(s, 32, "little")));
  }

  /**
   * libsodium's Elligator 2 map with the cofactor cleared, on 32 bytes: the hash to the
   * group of 3.3.
   * @param {Uint8Array} data
   * @returns {Element}
   */
  fromUniform(data) {
    return new Element(sodium.crypto_core_ed25519_from_uniform(data));
  }
}

/** Name the rule of 2.3 an invalid encoding breaks; only runs on the failure path. */
function classifyInvalid(data) {
  const raw = intFromBytes(data, "little");
  const y = raw & ((1n << 255n) - 1n);
  const sign = data[31] >> 7;
  if (y >= P_FIELD || (sign && (y === 1n || y === P_FIELD - 1n))) return "point/non-canonical";
  if (bytesEqual(data, IDENTITY_BYTES)) return "point/identity";
  let two;
  try {
    two = sodium.crypto_core_ed25519_add(data, data);
  } catch {
    return "point/not-on-curve";
  }
  let eight = sodium.crypto_core_ed25519_add(two, two);
  eight = sodium.crypto_core_ed25519_add(eight, eight);
  if (bytesEqual(eight, IDENTITY_BYTES)) return "point/small-order";
  return "point/torsion";
}

export const GROUP = new Edwards25519();
