/**
 * Canonical msgpack: the one encoding for hashing, signing and the wire
 * (spec/08-wire.md 8.1); mirrors protocol/canonical.py.
 *
 * Values: null, booleans, integers (Number when safe, BigInt otherwise; `pack` takes
 * either), Uint8Array (bin), strings (str), arrays, and maps with text keys (plain or
 * null-prototype objects, or a Map). Decoded maps are `Object.create(null)` objects.
 * Decoding is strict and follows 8.1's rules in their order: the size before parsing,
 * one front-to-back parse with its limits, trailing bytes, the re-encoding walk (depth,
 * floats, bin keys), and the byte-for-byte comparison with the re-encoding.
 * @module protocol/canonical
 */
import { EncodingError } from "./errors.js";

export const MAX_CONTAINER = 4096;
export const MAX_BYTES = 1 << 20;
/** No dealerless value nests deeper than 6; 8.1 rule 5 bounds it at 16. */
export const MAX_DEPTH = 16;
/** The reference parser's own nesting limit (8.1 rule 3). */
const MAX_STACK = 1024;

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Compare two strings by Unicode code point (8.1: the order of their UTF-8 bytes), not by
 * UTF-16 unit as JavaScript's default sort does.
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
export function compareKeys(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates stand for code points above U+FFFF: move them above U+E000..U+FFFF.
    x = x >= 0xe000 ? x - 0x800 : x >= 0xd800 ? x + 0x2000 : x;
    y = y >= 0xe000 ? y - 0x800 : y >= 0xd800 ? y + 0x2000 : y;
    return x - y;
  }
  return a.length - b.length;
}

// -- encoding ------------------------------------------------------------------------

class Writer {
  constructor() { this.buf = new Uint8Array(256); this.len = 0; }
  need(n) {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  byte(b) { this.need(1); this.buf[this.len++] = b; }
  uint(tag, width, v) {   // a header: `tag`, then v in `width` bytes big-endian (two's complement)
    this.need(1 + width);
    const view = new DataView(this.buf.buffer, this.len);
    view.setUint8(0, tag);
    if (width === 8) view.setBigUint64(1, BigInt.asUintN(64, BigInt(v)));
    else if (width === 4) view.setUint32(1, Number(v));
    else if (width === 2) view.setUint16(1, Number(v));
    else view.setUint8(1, Number(v));
    this.len += 1 + width;
  }
  bytes(data) { this.need(data.length); this.buf.set(data, this.len); this.len += data.length; }
  result() { return this.buf.slice(0, this.len); }
}

function writeHeader(w, n, small, smallMax, tag8, tag16, tag32) {
  if (n <= smallMax && small !== null) w.byte(small | n);
  else if (n < 0x100 && tag8 !== null) w.uint(tag8, 1, n);
  else if (n < 0x10000) w.uint(tag16, 2, n);
  else if (n < 0x100000000) w.uint(tag32, 4, n);
  else throw new EncodingError("msgpack/unencodable", "a length over 2^32-1");
}

function writeInt(w, v) {
  if (typeof v === "bigint") {
    if (v > UINT64_MAX || v < INT64_MIN) {
      throw new EncodingError("msgpack/unencodable", `${v} is outside [-2^63, 2^64-1]`);
    }
    if (v < MIN_SAFE || v > MAX_SAFE) return w.uint(v > 0n ? 0xcf : 0xd3, 8, v);
    v = Number(v);
  } else if (!Number.isSafeInteger(v)) {
    return writeInt(w, BigInt(v));
  }
  if (v >= 0) {
    if (v < 0x80) w.byte(v);
    else if (v < 0x100) w.uint(0xcc, 1, v);
    else if (v < 0x10000) w.uint(0xcd, 2, v);
    else if (v < 0x100000000) w.uint(0xce, 4, v);
    else w.uint(0xcf, 8, v);
  } else if (v >= -32) w.byte(v & 0xff);
  else if (v >= -0x80) w.uint(0xd0, 1, v);
  else if (v >= -0x8000) w.uint(0xd1, 2, v);
  else if (v >= -0x80000000) w.uint(0xd2, 4, v);
  else w.uint(0xd3, 8, v);
  return undefined;
}

function writeStr(w, s) {
  if (!s.isWellFormed()) throw new EncodingError("msgpack/unencodable", "a lone surrogate");
  const data = utf8.encode(s);
  writeHeader(w, data.length, 0xa0, 31, 0xd9, 0xda, 0xdb);
  w.bytes(data);
}

/** The entries of a map value as [key, value] pairs, or null if `obj` is no map. */
function mapEntries(obj) {
  if (obj instanceof Map) return [...obj.entries()];
  const proto = Object.getPrototypeOf(obj);
  if (proto === null || proto === Object.prototype) return Object.entries(obj);
  return null;
}

const typeName = (obj) => (typeof obj === "number" ? "float" : obj?.constructor?.name ?? typeof obj);

function writeValue(w, obj, depth) {
  if (obj === null) return w.byte(0xc0);
  switch (typeof obj) {
    case "boolean": return w.byte(obj ? 0xc3 : 0xc2);
    case "number":
      if (!Number.isInteger(obj)) {
        throw new EncodingError("msgpack/type", `${typeName(obj)} has no canonical encoding`);
      }
      return writeInt(w, obj);
    case "bigint": return writeInt(w, obj);
    case "string": return writeStr(w, obj);
    default: break;
  }
  if (obj instanceof Uint8Array) {
    writeHeader(w, obj.length, null, -1, 0xc4, 0xc5, 0xc6);
    return w.bytes(obj);
  }
  const isArray = Array.isArray(obj);
  const entries = isArray || typeof obj !== "object" ? null : mapEntries(obj);
  if (!isArray && entries === null) {
    throw new EncodingError("msgpack/type", `${typeName(obj)} has no canonical encoding`);
  }
  // 8.1 rule 5's order: a container's depth, then a map's keys, then its items.
  if (depth >= MAX_DEPTH) {
    throw new EncodingError("msgpack/too-deep", `values nest at most ${MAX_DEPTH} deep`);
  }
  if (isArray) {
    writeHeader(w, obj.length, 0x90, 15, null, 0xdc, 0xdd);
    for (const item of obj) writeValue(w, item, depth + 1);
    return undefined;
  }
  if (!entries.every(([k]) => typeof k === "string")) {
    throw new EncodingError("msgpack/map-key", "map keys must be text");
  }
  entries.sort((a, b) => compareKeys(a[0], b[0]));
  writeHeader(w, entries.length, 0x80, 15, null, 0xde, 0xdf);
  for (const [k, v] of entries) {
    writeStr(w, k);
    writeValue(w, v, depth + 1);
  }
  return undefined;
}

/**
 * The canonical encoding of `obj` (8.1).
 * @param {*} obj
 * @returns {Uint8Array}
 */
export function pack(obj) {
  const w = new Writer();
  writeValue(w, obj, 0);
  return w.result();
}

/**
 * The canonical encoding of the map `fields` whose values the caller built from
 * validated, typed fields, and `nested`, normalised like any value (10.3's state). The
 * bytes are `pack(fields)`'s; the name mirrors the Python's.
 * @param {Object<string, *>} fields
 * @param {string} nested
 * @returns {Uint8Array}
 */
export function packRecord(fields, nested) {
  if (!(nested in fields)) throw new EncodingError("msgpack/type", `no field ${nested}`);
  return pack(fields);
}

// -- strict decoding ---------------------------------------------------------------

/** A float met while parsing: it fails rule 5 (`msgpack/type`) if it gets that far. */
class Float {}

/** A map as parsed: keys may still be bin (rule 5's `msgpack/map-key`). */
class RawMap { constructor() { this.entries = new Map(); } }

const malformed = (why) => new EncodingError("msgpack/malformed", `not valid msgpack: ${why}`);

class Reader {
  constructor(data, maxSize) {
    this.data = data;
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    this.pos = 0;
    this.maxSize = maxSize;
  }
  take(n) {
    if (this.pos + n > this.data.length) throw malformed("incomplete input");
    const start = this.pos;
    this.pos += n;
    return start;
  }
  u8() { return this.data[this.take(1)]; }
  /** A big-endian length of 1, 2 or 4 bytes (`width` 0, 1, 2). */
  len(width) {
    if (width === 0) return this.u8();
    return width === 1 ? this.view.getUint16(this.take(2)) : this.view.getUint32(this.take(4));
  }
  bytes(n) {
    if (n > this.maxSize) throw malformed(`${n} bytes exceeds the ${this.maxSize} limit`);
    return this.data.slice(this.take(n), this.pos);
  }
  str(n) {
    const raw = this.bytes(n);
    try { return strictUtf8.decode(raw); } catch { throw malformed("text is not UTF-8"); }
  }
  ext(n) {
    // An ext with a payload is refused by the length limit at its header (max_ext_len 0).
    if (n > 0) throw malformed("extension types are not allowed");
    const type = (this.u8() << 24) >> 24;
    if (type === -1) throw malformed("an empty timestamp");
    throw new EncodingError("msgpack/ext", "extension types are not allowed");
  }

  /** One value; `open` counts the containers around it (rule 3's 1024). */
  value(open) {
    const b = this.u8();
    if (b <= 0x7f) return b;
    if (b >= 0xe0) return b - 0x100;
    if (b >= 0xa0 && b <= 0xbf) return this.str(b & 0x1f);
    if (b >= 0x90 && b <= 0x9f) return this.array(b & 0x0f, open);
    if (b >= 0x80 && b <= 0x8f) return this.map(b & 0x0f, open);
    const v = this.view;
    switch (b) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: case 0xc5: case 0xc6: return this.bytes(this.len(b - 0xc4));
      case 0xc7: case 0xc8: case 0xc9: return this.ext(this.len(b - 0xc7));
      case 0xca: return (this.take(4), new Float());
      case 0xcb: return (this.take(8), new Float());
      case 0xcc: case 0xcd: case 0xce: return this.len(b - 0xcc);
      case 0xcf: return safe(v.getBigUint64(this.take(8)));
      case 0xd0: return v.getInt8(this.take(1));
      case 0xd1: return v.getInt16(this.take(2));
      case 0xd2: return v.getInt32(this.take(4));
      case 0xd3: return safe(v.getBigInt64(this.take(8)));
      case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8: return this.ext(1 << (b - 0xd4));
      case 0xd9: case 0xda: case 0xdb: return this.str(this.len(b - 0xd9));
      case 0xdc: case 0xdd: return this.array(this.len(b - 0xdc + 1), open);
      case 0xde: case 0xdf: return this.map(this.len(b - 0xde + 1), open);
      default: throw malformed(`reserved byte ${b.toString(16)}`);
    }
  }
  array(n, open) {
    if (open >= MAX_STACK) throw malformed("containers nest too deep");
    if (n > MAX_CONTAINER) throw malformed(`an array of ${n} entries`);
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = this.value(open + 1);
    return out;
  }
  map(n, open) {
    if (open >= MAX_STACK) throw malformed("containers nest too deep");
    if (n > MAX_CONTAINER) throw malformed(`a map of ${n} entries`);
    const out = new RawMap();
    for (let i = 0; i < n; i++) {
      const key = this.value(open + 1);
      const val = this.value(open + 1);
      // The key's type is checked once its entry is complete (8.1 rule 3).
      if (typeof key !== "string" && !(key instanceof Uint8Array)) throw malformed("a map key is neither text nor bytes");
      const id = typeof key === "string" ? `s${key}` : `b${key.join(",")}`;
      out.entries.delete(id);   // a repeated key keeps the last value
      out.entries.set(id, [key, val]);
    }
    return out;
  }
}

const safe = (big) => (big >= MIN_SAFE && big <= MAX_SAFE ? Number(big) : big);

/** Rule 5's walk: the parsed value as a public one, or the first rule it breaks. */
function settle(obj, depth) {
  if (obj instanceof Float) throw new EncodingError("msgpack/type", "float has no canonical encoding");
  const isMap = obj instanceof RawMap;
  if (!isMap && !Array.isArray(obj)) return obj;
  if (depth >= MAX_DEPTH) {
    throw new EncodingError("msgpack/too-deep", `values nest at most ${MAX_DEPTH} deep`);
  }
  if (!isMap) return obj.map((x) => settle(x, depth + 1));
  const entries = [...obj.entries.values()];
  if (!entries.every(([k]) => typeof k === "string")) {
    throw new EncodingError("msgpack/map-key", "map keys must be text");
  }
  entries.sort((a, b) => compareKeys(a[0], b[0]));
  const out = Object.create(null);
  for (const [k, v] of entries) out[k] = settle(v, depth + 1);
  return out;
}

/**
 * Strictly decode canonical msgpack of at most `maxSize` bytes (8.1 "Strict decoding").
 * @param {Uint8Array} data
 * @param {number} maxSize
 * @returns {*}
 */
export function unpack(data, maxSize) {
  if (!(data instanceof Uint8Array)) throw new EncodingError("msgpack/type", "expected bytes");
  if (data.length > maxSize) {
    throw new EncodingError("msgpack/too-large", `${data.length} bytes exceeds the ${maxSize} limit`);
  }
  const reader = new Reader(data, maxSize);
  const raw = reader.value(0);
  if (reader.pos !== data.length) {
    throw new EncodingError("msgpack/trailing-bytes", "bytes follow the encoded value");
  }
  const obj = settle(raw, 0);
  const again = pack(obj);
  if (!equalBytes(again, data)) {
    throw new EncodingError("msgpack/non-canonical", "the value has a shorter or sorted encoding");
  }
  return obj;
}

const equalBytes = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

// -- typed accessors (8.1 "Typed fields"): each names what was expected ----------------

/** The options of an accessor, given positionally or as one object (Python's keywords). */
function opts(args, names) {
  if (args.length === 1 && args[0] !== null && typeof args[0] === "object") return args[0];
  return Object.fromEntries(names.map((n, i) => [n, args[i]]));
}

/** array(n): an array of exactly `length` items. */
export function asArray(obj, length, what) {
  if (!Array.isArray(obj) || obj.length !== length) {
    throw new EncodingError("schema/array", `${what}: expected an array of ${length}`);
  }
  return obj;
}

/** list(m): an array of at most `maxLen` items; `asList(obj, what, maxLen | {maxLen})`. */
export function asList(obj, what, ...rest) {
  const { maxLen = MAX_CONTAINER } = opts(rest, ["maxLen"]);
  if (!Array.isArray(obj) || obj.length > maxLen) {
    throw new EncodingError("schema/array", `${what}: expected an array of at most ${maxLen}`);
  }
  return obj;
}

/** bytes(n): `asBytes(obj, what, length?, maxLen?)` or `asBytes(obj, what, {length, maxLen})`. */
export function asBytes(obj, what, ...rest) {
  const { length = null, maxLen = MAX_BYTES } = opts(rest, ["length", "maxLen"]);
  if (!(obj instanceof Uint8Array)) throw new EncodingError("schema/bytes", `${what}: expected bytes`);
  if (length !== null && length !== undefined && obj.length !== length) {
    throw new EncodingError("schema/bytes", `${what}: expected ${length} bytes`);
  }
  if (obj.length > maxLen) throw new EncodingError("schema/bytes", `${what}: more than ${maxLen} bytes`);
  return obj;
}

/** int(lo, hi): `asInt(obj, what, lo = 0, hi = 2^64-1)` or `{lo, hi}`; Number or BigInt. */
export function asInt(obj, what, ...rest) {
  const { lo = 0, hi = UINT64_MAX } = opts(rest, ["lo", "hi"]);
  const isInt = (typeof obj === "number" && Number.isInteger(obj)) || typeof obj === "bigint";
  if (!isInt || !(lo <= obj && obj <= hi)) {
    throw new EncodingError("schema/int", `${what}: expected an integer in [${lo}, ${hi}]`);
  }
  return obj;
}

/** text(m): a string of at most `maxLen` code points (not UTF-16 units). */
export function asStr(obj, what, ...rest) {
  const { maxLen = 64 } = opts(rest, ["maxLen"]);
  if (typeof obj !== "string" || codePoints(obj) > maxLen) {
    throw new EncodingError("schema/str", `${what}: expected text of at most ${maxLen}`);
  }
  return obj;
}

const codePoints = (s) => { let n = 0; for (const _ of s) n++; return n; };   // by code point

/** bool: true or false. */
export function asBool(obj, what) {
  if (typeof obj !== "boolean") throw new EncodingError("schema/bool", `${what}: expected true or false`);
  return obj;
}
