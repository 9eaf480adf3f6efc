/**
 * OpenSSH key encodings: public lines and openssh-key-v1 private key files
 * (spec/08-wire.md 8.3, spec/12-peers.md 12.2); mirrors peers/keys/openssh.py.
 *
 * The identity key is a standard OpenSSH Ed25519 key, so a file the CLI (`dealerless
 * keygen`, `key import`) or `ssh-keygen -t ed25519` wrote imports here, and a file this
 * page exports imports there. Unlike the Python, which leaves the private part to
 * `cryptography`, this module reads and writes the whole format itself: unencrypted
 * (cipher "none") or protected by a passphrase as the CLI and ssh-keygen protect it
 * (bcrypt_pbkdf with a 16-byte salt and 16 rounds, aes256-ctr by WebCrypto), and
 * unencrypted PKCS#8 PEM on import. The error classes are those of peers/keys/home.py,
 * each with a `.code`. Errors name key types and the source, never key material.
 * @module keys/openssh
 */
import sodium from "../vendor/sodium.mjs";
import { Entropy } from "../entropy.js";
import { bcryptPbkdf } from "./bcrypt_pbkdf.js";

/** A key or the key store cannot be read, written or trusted (`key/store`). */
export class KeyStoreError extends Error {
  constructor(detail, code = "key/store") {
    super(detail);
    this.name = new.target.name;
    this.code = code;
  }
}
/** There is no identity key yet (`key/none`). */
export class NoKeyError extends KeyStoreError {
  constructor(detail) { super(detail, "key/none"); }
}
/** An identity key already exists and `force` was not given (`key/exists`). */
export class KeyExistsError extends KeyStoreError {
  constructor(detail) { super(detail, "key/exists"); }
}
/** The key is encrypted and the passphrase is missing or wrong (`key/passphrase`). */
export class PassphraseError extends KeyStoreError {
  constructor(detail) { super(detail, "key/passphrase"); }
}

/** The one key type of an identity key (8.3), and the armor of its private key file. */
export const KEY_TYPE = "ssh-ed25519";
export const ARMOR = ["-----BEGIN OPENSSH PRIVATE KEY-----", "-----END OPENSSH PRIVATE KEY-----"];
/** What the CLI (`cryptography`) and ssh-keygen write: bcrypt_pbkdf's salt and rounds. */
export const SALT_BYTES = 16;
export const ROUNDS = 16;
/** The most rounds a file may ask for: about 15 s of bcrypt in a page. */
export const MAX_ROUNDS = 1024;
const MAGIC = "openssh-key-v1\0";
const CIPHER = "aes256-ctr";
const SSH_TYPES = {
  "ssh-rsa": "RSA", "ssh-dss": "DSA", "ecdsa-sha2-nistp256": "ECDSA",
  "ecdsa-sha2-nistp384": "ECDSA", "ecdsa-sha2-nistp521": "ECDSA",
  "sk-ssh-ed25519@openssh.com": "FIDO security-key Ed25519",
  "sk-ecdsa-sha2-nistp256@openssh.com": "FIDO security-key ECDSA",
};
/** PKCS#8 of an Ed25519 key (RFC 8410): this DER header, then the 32-byte seed. */
export const PKCS8_PREFIX = Uint8Array.from(
  [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);
const PEM_PKCS8 = ["-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----"];

const utf8 = new TextEncoder();
const ascii = (bytes) => String.fromCharCode(...bytes.subarray(0, 60));
const equal = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
const b64 = (bytes) => sodium.to_base64(bytes, sodium.base64_variants.ORIGINAL);

/** Canonical standard base64 to bytes, or a ValueError-like throw. */
function unbase64(text) {
  const bytes = sodium.from_base64(text, sodium.base64_variants.ORIGINAL);
  if (b64(bytes) !== text) throw new Error("non-canonical base64");
  return bytes;
}

/** SSH wire encodings: u32 big-endian, and `string` (u32 length, then the bytes). */
const u32 = (n) => Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
function sshString(value) {
  const bytes = typeof value === "string" ? utf8.encode(value) : value;
  return concat(u32(bytes.length), bytes);
}
function concat(...parts) {
  const bytes = parts.map((p) => (typeof p === "string" ? utf8.encode(p) : p));
  const out = new Uint8Array(bytes.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of bytes) { out.set(p, at); at += p.length; }
  return out;
}

/** A reader of SSH wire values; `string` and `u32` throw "truncated" past the end. */
class Reader {
  constructor(buf, pos = 0) { this.buf = buf; this.pos = pos; }
  u32() {
    if (this.pos + 4 > this.buf.length) throw new Error("truncated");
    const v = new DataView(this.buf.buffer, this.buf.byteOffset).getUint32(this.pos);
    this.pos += 4;
    return v;
  }
  string() {
    const n = this.u32();
    if (this.pos + n > this.buf.length) throw new Error("truncated");
    this.pos += n;
    return this.buf.subarray(this.pos - n, this.pos);
  }
}

/** KeyStoreError unless `publicKey` is 32 bytes. */
export function checkKey(publicKey) {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) {
    throw new KeyStoreError("an Ed25519 public key is exactly 32 bytes");
  }
}

/** The ssh-ed25519 public key blob: string("ssh-ed25519") || string(key) (8.3). */
export function publicBlob(publicKey) {
  checkKey(publicKey);
  return concat(sshString(KEY_TYPE), sshString(publicKey));
}

/** `ssh-ed25519 BASE64 [comment]`, the OpenSSH public line (as in a .pub file). */
export function formatPublicLine(publicKey, comment = "") {
  const line = `${KEY_TYPE} ${b64(publicBlob(publicKey))}`;
  return comment ? `${line} ${comment}` : line;
}

/**
 * The 32-byte key of an OpenSSH public line, checked strictly: the type is ssh-ed25519,
 * the base64 canonical, the blob exactly string(ssh-ed25519) || string(32-byte key).
 */
export function parsePublicLine(line) {
  const fields = line.trim().split(/\s+/);
  if (fields.length < 2) {
    throw new KeyStoreError("not an OpenSSH public key line (want 'ssh-ed25519 AAAA...')");
  }
  if (fields[0] !== KEY_TYPE) {
    throw new KeyStoreError(`key type ${JSON.stringify(fields[0].slice(0, 40))} is not ${KEY_TYPE}`);
  }
  let name, key, reader;
  try {
    reader = new Reader(unbase64(fields[1]));
    name = reader.string();
    key = reader.string();
  } catch {
    throw new KeyStoreError("the key's base64 blob is malformed");
  }
  if (ascii(name) !== KEY_TYPE || key.length !== 32 || reader.pos !== reader.buf.length) {
    throw new KeyStoreError("the key's blob is not one ssh-ed25519 key");
  }
  return key.slice();
}

/** OpenSSH's SHA256 fingerprint: "SHA256:" and unpadded base64 of SHA-256(blob) (8.3). */
export function fingerprint(publicKey) {
  return "SHA256:" + b64(sodium.crypto_hash_sha256(publicBlob(publicKey))).replace(/=+$/, "");
}

/** The comment, if at most 256 printable characters (Python's isprintable) on one line. */
export function checkComment(comment) {
  const chars = [...comment];
  if (chars.length > 256 || chars.some((c) => /[\p{C}\p{Zl}\p{Zp}]/u.test(c)
      || (c !== " " && /\p{Zs}/u.test(c)))) {
    throw new KeyStoreError("a key comment is at most 256 printable characters on one line");
  }
  return comment;
}

/** A passphrase as bytes (a string is UTF-8); empty means none, as with ssh-keygen -N ''. */
export function passphraseBytes(passphrase) {
  if (passphrase === null || passphrase === undefined || passphrase.length === 0) return null;
  return typeof passphrase === "string" ? utf8.encode(passphrase) : Uint8Array.from(passphrase);
}

function unarmor(data, [begin, end]) {
  const text = (typeof data === "string" ? data : new TextDecoder().decode(data)).trim();
  const stop = text.indexOf(end);
  if (!text.startsWith(begin) || stop < 0) return null;
  return unbase64(text.slice(begin.length, stop).replace(/\s+/g, ""));
}

/**
 * The clear part of an openssh-key-v1 file: cipher, KDF and its options, the one key's
 * type and public key (null unless ssh-ed25519), and the private section still sealed.
 * @returns {{cipher: string, kdf: string, kdfOptions: Uint8Array, keyType: string,
 *   publicKey: Uint8Array|null, sealed: Uint8Array}}
 */
export function readHeader(data, source) {
  const bad = new KeyStoreError(`${source} is not a valid OpenSSH private key file`);
  let header;
  try {
    const raw = unarmor(data, ARMOR);
    if (!raw || ascii(raw.subarray(0, MAGIC.length)) !== MAGIC) throw bad;
    const r = new Reader(raw, MAGIC.length);
    const [cipher, kdf, kdfOptions] = [ascii(r.string()), ascii(r.string()), r.string()];
    if (r.u32() !== 1) throw bad;  // one key per file
    const blob = new Reader(r.string());
    const keyType = ascii(blob.string());
    const publicKey = keyType === KEY_TYPE ? blob.string().slice() : null;
    const sealed = r.string();
    if (r.pos !== raw.length || (publicKey && (publicKey.length !== 32
        || blob.pos !== blob.buf.length))) throw bad;
    header = { cipher, kdf, kdfOptions, keyType, publicKey, sealed };
  } catch {
    throw bad;
  }
  return header;
}

/** aes256-ctr with key and IV from bcrypt_pbkdf (OpenSSH's "bcrypt" KDF), by WebCrypto. */
async function aesCtr(passphrase, salt, rounds, data) {
  const derived = bcryptPbkdf(passphrase, salt, 48, rounds);
  const key = await crypto.subtle.importKey("raw", derived.subarray(0, 32), "AES-CTR",
    false, ["encrypt"]);
  const out = await crypto.subtle.encrypt(
    { name: "AES-CTR", counter: derived.subarray(32, 48), length: 128 }, key, data);
  derived.fill(0);
  return new Uint8Array(out);
}

/**
 * Decrypt and check an Ed25519 private key: OpenSSH format (clear, or aes256-ctr with
 * bcrypt as the CLI writes it) or unencrypted PKCS#8 PEM. The seed must give the public
 * key the file names. PassphraseError when one is needed and missing or wrong.
 * @param {Uint8Array|string} data the file
 * @param {string|Uint8Array|null} passphrase
 * @param {string} source names the file in errors
 * @returns {Promise<{seed: Uint8Array, publicKey: Uint8Array, comment: string, encrypted: boolean}>}
 */
export async function decodePrivate(data, passphrase, source) {
  const text = (typeof data === "string" ? data : new TextDecoder().decode(data)).trimStart();
  if (text.startsWith(PEM_PKCS8[0])) return decodePkcs8(text, source);
  if (text.startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
    throw new KeyStoreError(`${source} is an encrypted PKCS#8 key, which this page does not `
      + "read; convert it with `ssh-keygen -p -f FILE` (OpenSSH format) first");
  }
  if (!text.startsWith(ARMOR[0])) {
    throw new KeyStoreError(`${source} is not a private key file (OpenSSH or PEM)`);
  }
  const header = readHeader(text, source);
  if (header.keyType !== KEY_TYPE) {
    const kind = SSH_TYPES[header.keyType] ?? "unsupported";
    throw new KeyStoreError(`${source} holds a ${kind} key (${header.keyType.slice(0, 60)}); `
      + "dealerless identity keys are ssh-ed25519 (ssh-keygen -t ed25519)");
  }
  const corrupt = new KeyStoreError(`${source} is corrupt or not a supported private key`);
  const encrypted = header.cipher !== "none";
  let plain = header.sealed;
  let block = 8;
  if (encrypted) {
    if (header.cipher !== CIPHER || header.kdf !== "bcrypt") {
      throw new KeyStoreError(`${source} is encrypted with ${header.cipher.slice(0, 40)}/`
        + `${header.kdf.slice(0, 20)}; this page reads ${CIPHER} with bcrypt (ssh-keygen's)`);
    }
    const password = passphraseBytes(passphrase);
    if (password === null) {
      throw new PassphraseError(`${source} is protected by a passphrase and none was given`);
    }
    let salt, rounds;
    try {
      const options = new Reader(header.kdfOptions);
      [salt, rounds] = [options.string(), options.u32()];
      if (options.pos !== header.kdfOptions.length || salt.length === 0 || rounds === 0) {
        throw corrupt;
      }
    } catch {
      throw corrupt;
    }
    if (rounds > MAX_ROUNDS) {  // a crafted file must not hold the page for an hour
      throw new KeyStoreError(`${source} asks for ${rounds} bcrypt rounds; this page `
        + `reads at most ${MAX_ROUNDS} (ssh-keygen's default is ${ROUNDS})`);
    }
    block = 16;
    if (plain.length % block) throw corrupt;
    plain = await aesCtr(password, salt, rounds, plain);
  } else if (header.kdf !== "none" || header.kdfOptions.length) {
    throw corrupt;
  }
  try {
    return checkPrivate(plain, block, header.publicKey, encrypted, source);
  } finally {
    if (encrypted) plain.fill(0);
  }
}

/** The private section: checkints, one ssh-ed25519 key matching `publicKey`, padding. */
function checkPrivate(plain, block, publicKey, encrypted, source) {
  const r = new Reader(plain);
  let seed = null;
  try {
    if (plain.length % block || r.u32() !== r.u32()) {
      throw new PassphraseError(encrypted ? `wrong passphrase for ${source}` : "");
    }
    if (ascii(r.string()) !== KEY_TYPE) throw new Error("type");
    const pub = r.string();
    const secret = r.string();
    const comment = new TextDecoder("utf-8", { fatal: true }).decode(r.string());
    const padding = plain.subarray(r.pos);
    if (padding.length >= block || padding.some((v, i) => v !== i + 1)
        || secret.length !== 64 || !equal(pub, publicKey)
        || !equal(secret.subarray(32), publicKey)) throw new Error("layout");
    seed = secret.slice(0, 32);
    const derived = sodium.crypto_sign_seed_keypair(seed);
    derived.privateKey.fill(0);
    if (!equal(derived.publicKey, publicKey)) throw new Error("key");
    return { seed, publicKey: publicKey.slice(), comment, encrypted };
  } catch (exc) {
    seed?.fill(0);
    if (exc instanceof PassphraseError && exc.message) throw exc;
    throw new KeyStoreError(`${source} is corrupt or not a supported private key`);
  }
}

function decodePkcs8(text, source) {
  let der;
  try {
    der = unarmor(text, PEM_PKCS8);
  } catch {
    der = null;
  }
  if (!der) throw new KeyStoreError(`${source} is not a valid PEM private key`);
  if (der.length !== PKCS8_PREFIX.length + 32 || !equal(der.subarray(0, 16), PKCS8_PREFIX)) {
    throw new KeyStoreError(`${source} holds a PKCS#8 key that is not Ed25519; dealerless `
      + "identity keys are ssh-ed25519 (ssh-keygen -t ed25519)");
  }
  const seed = der.slice(16);
  const { publicKey, privateKey } = sodium.crypto_sign_seed_keypair(seed);
  privateKey.fill(0);
  return { seed, publicKey, comment: "", encrypted: false };
}

/**
 * An openssh-key-v1 file (the armored text as UTF-8 bytes, 70 base64 characters a line
 * as ssh-keygen writes) holding the Ed25519 key of `seed`: unencrypted when `passphrase`
 * is empty or null, else aes256-ctr under bcrypt_pbkdf with a fresh salt.
 * @param {Uint8Array} seed 32 bytes
 * @param {{passphrase?: string|Uint8Array|null, comment?: string, rounds?: number,
 *   entropy?: Entropy}} [options]
 * @returns {Promise<Uint8Array>}
 */
export async function encodePrivate(seed, { passphrase = null, comment = "", rounds = ROUNDS,
  entropy = new Entropy() } = {}) {
  if (!(seed instanceof Uint8Array) || seed.length !== 32) {
    throw new KeyStoreError("an Ed25519 seed is exactly 32 bytes");
  }
  checkComment(comment);
  const { publicKey, privateKey } = sodium.crypto_sign_seed_keypair(seed);
  const password = passphraseBytes(passphrase);
  const block = password ? 16 : 8;
  const check = entropy.bytes("openssh/checkint", 4);
  const body = concat(check, check, sshString(KEY_TYPE), sshString(publicKey),
    sshString(privateKey), sshString(comment));
  privateKey.fill(0);
  const padded = new Uint8Array(Math.ceil((body.length + 1) / block) * block);
  padded.set(body);
  for (let i = body.length, n = 1; i < padded.length; i++, n++) padded[i] = n;
  body.fill(0);
  let cipher = "none", kdf = "none", options = new Uint8Array(0), sealed = padded;
  if (password) {
    const salt = entropy.bytes("openssh/salt", SALT_BYTES);
    [cipher, kdf, options] = [CIPHER, "bcrypt", concat(sshString(salt), u32(rounds))];
    sealed = await aesCtr(password, salt, rounds, padded);
    padded.fill(0);
  }
  const raw = concat(MAGIC, sshString(cipher), sshString(kdf), sshString(options), u32(1),
    sshString(publicBlob(publicKey)), sshString(sealed));
  const lines = b64(raw).match(/.{1,70}/g);
  raw.fill(0);
  return utf8.encode([ARMOR[0], ...lines, ARMOR[1], ""].join("\n"));
}
