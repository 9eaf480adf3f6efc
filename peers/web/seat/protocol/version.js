/**
 * The protocol version and the one refusal for any other (spec/README.md "Versioning");
 * mirrors protocol/version.py.
 *
 * A reader checks the version before anything the version changes (a hash, a signature),
 * so a file from another version is refused as such (`version/unsupported`), never as a
 * forgery.
 * @module protocol/version
 */
import { EncodingError } from "./errors.js";

/** The protocol version of every game this build starts (its suite's context, 3.5). */
export const PROTOCOL = 3;
/** The versions this build reads: a dealerless/2 game is an edwards25519-sha512 game. */
export const READABLE = Object.freeze([2, 3]);
/** The peer protocol's own number (spec/12-peers.md 12.3): item 1 of every hello. */
export const PEER_PROTOCOL = 10;

/**
 * `found` if this build reads it, and it is `expected` when given; else
 * `version/unsupported` naming both.
 * @param {number} found
 * @param {string} what
 * @param {number|null} [expected]
 * @returns {number}
 */
export function checkVersion(found, what, expected = null) {
  if (!READABLE.includes(found)) {
    const reads = READABLE.map((v) => `dealerless/${v}`).join(" and ");
    throw new EncodingError("version/unsupported",
      `this ${what} is dealerless/${found}; this build reads ${reads}`);
  }
  if (expected !== null && expected !== undefined && found !== expected) {
    throw new EncodingError("version/unsupported",
      `this ${what} is dealerless/${found}, in a game of dealerless/${expected}`);
  }
  return found;
}

const encoder = new TextEncoder();

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * A file magic: `prefix`, the version digit, a newline.
 * @param {Uint8Array} prefix
 * @param {number} [version]
 * @returns {Uint8Array}
 */
export function magic(prefix, version = PROTOCOL) {
  return concat(prefix, encoder.encode(`${version}\n`));
}

/**
 * The version of a file that starts with `prefix`, one ASCII digit d and a newline (else
 * `code`), d a version this build reads (else `version/unsupported`).
 * @param {Uint8Array} data
 * @param {Uint8Array} prefix
 * @param {string} what
 * @param {string} code
 * @returns {number}
 */
export function checkMagic(data, prefix, what, code) {
  const head = data.subarray(0, prefix.length + 2);
  const digit = head[head.length - 2];
  const ok = head.length === prefix.length + 2 && prefix.every((b, i) => head[i] === b)
    && head[head.length - 1] === 0x0a && digit >= 0x30 && digit <= 0x39;
  if (!ok) throw new EncodingError(code, `not a dealerless ${what}`);
  return checkVersion(digit - 0x30, what);
}

/**
 * What a frame's signature covers before its payload (8.3): `/1` under dealerless/2,
 * which kept version 1's, and the version itself from dealerless/3 on.
 * @param {number} version
 * @returns {Uint8Array}
 */
export function frameSignaturePrefix(version) {
  return encoder.encode(`dealerless/frame-signature/${version === 2 ? 1 : version}\0`);
}
