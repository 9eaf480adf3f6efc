/**
 * ElGamal encryption of points (spec/05-deck.md 5.2); mirrors protocol/elgamal.py.
 *
 * A ciphertext of a message point M under the joint key Y with randomness r is
 * (c1, c2) = (r*G, M + r*Y). Re-encryption adds an encryption of the identity,
 * (r'*G, r'*Y), which changes the bytes but not the plaintext.
 * @module protocol/elgamal
 */
import { EncodingError } from "./errors.js";
import { concatBytes } from "./groups/xmd.js";

/** (c1, c2): c1 = r*G, c2 = M + r*Y (5.2). Frozen. */
export class Ciphertext {
  /**
   * @param {import("./groups/base.js").Element} c1
   * @param {import("./groups/base.js").Element} c2
   */
  constructor(c1, c2) {
    this.c1 = c1;
    this.c2 = c2;
    Object.freeze(this);
  }

  /** c1 || c2. @returns {Uint8Array} */
  encode() {
    return concatBytes(this.c1.data, this.c2.data);
  }

  /** @param {*} other @returns {boolean} */
  equals(other) {
    return other instanceof Ciphertext && this.c1.equals(other.c1) && this.c2.equals(other.c2);
  }

  /**
   * Two received elements, each decoded by 2.3 / 2.5 (`ciphertext/length`, `point/*`).
   * @param {import("./suite.js").Suite} suite
   * @param {Uint8Array} data
   * @returns {Ciphertext}
   */
  static decode(suite, data) {
    const size = ciphertextBytes(suite);
    if (!(data instanceof Uint8Array) || data.length !== size) {
      throw new EncodingError("ciphertext/length", `a ciphertext is exactly ${size} bytes`);
    }
    const half = suite.pointBytes;
    // Copies, so that a later change to the received buffer changes no element.
    return new Ciphertext(suite.decodePoint(data.slice(0, half)), suite.decodePoint(data.slice(half)));
  }
}

/** Two elements: the size of a ciphertext in `suite` (3.5 "Sizes"). */
export function ciphertextBytes(suite) {
  return 2 * suite.pointBytes;
}

/**
 * ct + (r*G, r*Y) (5.2).
 * @param {import("./suite.js").Suite} suite
 * @param {Ciphertext} ct
 * @param {bigint} r
 * @param {import("./groups/base.js").Element} jointKey
 * @returns {Ciphertext}
 */
export function reencrypt(suite, ct, r, jointKey) {
  const g = suite.group;
  return new Ciphertext(g.add(ct.c1, g.baseMul(r)), g.add(ct.c2, g.mul(r, jointKey)));
}

/**
 * Concatenated ciphertext encodings, for hashing and the wire.
 * @param {Ciphertext[]} deck
 * @returns {Uint8Array}
 */
export function encodeDeck(deck) {
  const parts = [];
  for (const ct of deck) parts.push(ct.c1.data, ct.c2.data);
  return concatBytes(...parts);
}

/**
 * A received deck: a whole number of ciphertexts, each decoded (`deck/length`).
 * @param {import("./suite.js").Suite} suite
 * @param {Uint8Array} data
 * @returns {Ciphertext[]}
 */
export function decodeDeck(suite, data) {
  const size = ciphertextBytes(suite);
  if (!(data instanceof Uint8Array) || data.length % size) {
    throw new EncodingError("deck/length", `a deck is a whole number of ${size}-byte ciphertexts`);
  }
  const out = [];
  for (let i = 0; i < data.length; i += size) out.push(Ciphertext.decode(suite, data.subarray(i, i + size)));
  return out;
}
