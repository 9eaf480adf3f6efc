/**
 * The player's identity key in the browser: make, import, load, show and export it
 * (spec/12-peers.md 12.2; the frame-signing key of spec/08-wire.md 8.3); mirrors
 * peers/keys/identity_key.py.
 *
 * How it is kept, and what that protects (the trust reasoning):
 *
 * - Signing uses a non-extractable WebCrypto Ed25519 CryptoKey, stored in IndexedDB
 *   (database `dealerless-keys`). No script, ours or injected, can read its bytes
 *   through the API. What it does NOT give: a script running in this origin (an XSS, a
 *   bad extension, a tampered copy of this page) can still ask it to sign anything
 *   while it runs; and Chromium stores a CryptoKey's bytes in the profile's IndexedDB
 *   files unencrypted, so whoever can read the profile on disk has the key. It stops
 *   an exfiltration through the page from outliving the page: a stolen signing oracle
 *   dies with the tab, a stolen seed does not.
 * - Export must still be possible (to the CLI, `dealerless key import`), and a
 *   non-extractable key cannot be exported. So the seed is kept only as an encrypted
 *   OpenSSH private key file, the very file the CLI writes (`keygen` with a passphrase:
 *   bcrypt_pbkdf, 16 rounds, aes256-ctr), under a passphrase the player chooses when
 *   the key is made or imported. Exporting hands out that file, which the CLI opens with
 *   the same passphrase; re-exporting under another passphrase (or none) needs the old
 *   one. The passphrase itself is never stored. A script in the origin can copy the
 *   sealed file and guess passphrases offline, at bcrypt's cost: a weak passphrase is
 *   the same risk as the CLI's file on disk.
 * - With no passphrase the key is made or imported non-exportable: the seed is dropped
 *   once the CryptoKey holds it, and no one, the player included, can get it back.
 *   `KeySummary.exportable` says which.
 * - Where WebCrypto has no Ed25519 the page signs with libsodium from the seed, which it
 *   must then keep: only sealed, unlocked with the passphrase at `loadIdentity`, or,
 *   with no passphrase, in clear in IndexedDB (as the CLI's `--no-passphrase` file is
 *   on disk). `KeySummary.webcrypto` says which path a key is on.
 * - The passphrase is typed into this page, so a tampered page can read it as it is
 *   typed; nothing in the browser defends a page against its own code. What the design
 *   buys is against a later, passive or partial compromise, not against the page's
 *   author.
 * - The protocol code signs frames synchronously from a seed (`Identity.seed`, used by
 *   protocol/frames.js and handshake_auth.js). The non-extractable key signs only
 *   asynchronously, through `IdentityKey.sign`; until the frame builder takes such a
 *   signer, `unlockIdentity` (with the passphrase) gives the protocol's Identity, with
 *   the seed in memory for the session, exactly as the CLI holds it.
 *
 * Signatures are byte-identical to libsodium's (Ed25519 is deterministic, RFC 8032
 * 5.1.6): when a key is stored, a CryptoKey whose signature of a test message differs
 * from `crypto_sign_detached`'s is not used, and the key takes libsodium's path.
 * Verifying others' signatures is not WebCrypto's job here: 8.3's rules are libsodium's.
 * @module keys/identity_key
 */
import sodium from "../vendor/sodium.mjs";
import { SYSTEM } from "../entropy.js";
import { Identity } from "../protocol/identity.js";
import { openDatabase, request, transact } from "../store/idb.js";
import {
  KeyExistsError, KeyStoreError, NoKeyError, PKCS8_PREFIX, PassphraseError, checkComment,
  decodePrivate, encodePrivate, fingerprint, formatPublicLine, readHeader,
} from "./openssh.js";

export { KeyExistsError, KeyStoreError, NoKeyError, PassphraseError };
export const DEFAULT_COMMENT = "dealerless";
/** The IndexedDB database, its object store, and the one record's key (the CLI's name). */
export const KEYS_DB = "dealerless-keys";
const STORE = "keys";
export const KEY_FILE = "id_ed25519";
const ALGORITHM = { name: "Ed25519" };
const SELF_TEST = new TextEncoder().encode("dealerless/seat/webcrypto-ed25519-self-test");

let supported = null;
/** Whether this browser's WebCrypto makes non-extractable Ed25519 keys (cached). */
export async function webCryptoEd25519() {
  if (supported === null) {
    try {
      await crypto.subtle.generateKey(ALGORITHM, false, ["sign", "verify"]);
      supported = true;
    } catch {
      supported = false;
    }
  }
  return supported;
}

/** What `show` tells: nothing in it is secret. */
export class KeySummary {
  constructor(record) {
    this.publicLine = formatPublicLine(record.publicKey, record.comment);
    this.fingerprint = fingerprint(record.publicKey);
    /** The kept private copy is under a passphrase (the sealed OpenSSH file). */
    this.encrypted = record.sealed !== null;
    /** The key can leave the page (`exportPrivate`). */
    this.exportable = record.sealed !== null || record.seed !== null;
    /** Signing is by a non-extractable WebCrypto key (else libsodium from the seed). */
    this.webcrypto = record.signingKey !== null;
    this.publicKey = record.publicKey.slice();
    this.created = record.created;
  }

  toJson() {
    return { public_line: this.publicLine, fingerprint: this.fingerprint,
      encrypted: this.encrypted, exportable: this.exportable, webcrypto: this.webcrypto,
      public_key: sodium.to_hex(this.publicKey), created: this.created };
  }

  describe() {
    return `fingerprint  ${this.fingerprint}\npublic key   ${this.publicLine}\n`
      + `stored       IndexedDB ${KEYS_DB}, ${this.webcrypto ? "non-extractable WebCrypto key" : "libsodium"}\n`
      + `exportable   ${this.exportable ? (this.encrypted ? "yes, under its passphrase" : "yes") : "no"}`;
  }
}

/**
 * A signing identity whose secret stays inside it (protocol/identity.py's Identity
 * without `.seed`). `sign` is async: WebCrypto is.
 */
export class IdentityKey {
  constructor(publicKey, signer) {
    this.publicKey = publicKey;
    this._sign = signer;
  }

  /** The 64-byte Ed25519 signature of `message` (8.3 "Sign"). @returns {Promise<Uint8Array>} */
  async sign(message) {
    return this._sign(message);
  }

  /** The frame key in `suite` (8.3): the Ed25519 key in the suites the seat plays. */
  frameKey(suite) {
    const name = typeof suite === "string" ? suite : suite?.name;
    if (name === "bls12381g1-sha256") {
      throw new KeyStoreError("the seat has no BLS12-381 (its frame key is of G1)");
    }
    return this.publicKey.slice();
  }

  /** OpenSSH's SHA256 fingerprint of the key (8.3). */
  get fingerprint() {
    return fingerprint(this.publicKey);
  }
}

async function database() {
  return openDatabase(KEYS_DB, 1, (db) => db.createObjectStore(STORE));
}

async function readRecord() {
  const db = await database();
  try {
    const record = await transact(db, STORE, "readonly",
      (tx) => request(tx.objectStore(STORE).get(KEY_FILE)));
    if (record === undefined) {
      throw new NoKeyError("no identity key in this browser yet; generate or import one");
    }
    if (!(record.publicKey instanceof Uint8Array) || record.publicKey.length !== 32) {
      throw new KeyStoreError(`the stored key in ${KEYS_DB} is corrupt`);
    }
    return record;
  } finally {
    db.close();
  }
}

async function webCryptoKey(seed) {
  if (!await webCryptoEd25519()) return null;
  const pkcs8 = new Uint8Array(48);
  pkcs8.set(PKCS8_PREFIX);
  pkcs8.set(seed, 16);
  try {
    const key = await crypto.subtle.importKey("pkcs8", pkcs8, ALGORITHM, false, ["sign"]);
    const theirs = new Uint8Array(await crypto.subtle.sign(ALGORITHM, key, SELF_TEST));
    const secret = sodium.crypto_sign_seed_keypair(seed).privateKey;
    const ours = sodium.crypto_sign_detached(SELF_TEST, secret);
    secret.fill(0);
    return sodium.memcmp(theirs, ours) ? key : null;
  } finally {
    pkcs8.fill(0);
  }
}

async function store(seed, passphrase, comment, force) {
  checkComment(comment);
  const publicKey = sodium.crypto_sign_seed_keypair(seed).publicKey;
  const signingKey = await webCryptoKey(seed);
  const hasPassphrase = passphrase !== null && passphrase !== undefined && passphrase.length > 0;
  const sealed = hasPassphrase ? await encodePrivate(seed, { passphrase, comment }) : null;
  const record = { version: 1, publicKey, comment, signingKey, sealed,
    seed: signingKey === null && !hasPassphrase ? seed.slice() : null, created: Date.now() };
  const db = await database();
  try {
    await transact(db, STORE, "readwrite", async (tx) => {
      const keys = tx.objectStore(STORE);
      if (!force && await request(keys.count(KEY_FILE))) {
        throw new KeyExistsError("an identity key already exists in this browser; "
          + "replacing it (force) loses the old identity unless it was exported");
      }
      await request(keys.put(record, KEY_FILE));
    });
  } finally {
    db.close();
  }
  return new KeySummary(record);
}

/**
 * Make a fresh Ed25519 identity key from the CSPRNG and store it (12.2). With a
 * passphrase the key is exportable under it; with none it can never leave the page.
 * KeyExistsError if a key is already there, unless `force`.
 * @param {{passphrase?: string|null, comment?: string, force?: boolean}} [options]
 * @returns {Promise<KeySummary>}
 */
export async function generate({ passphrase = null, comment = DEFAULT_COMMENT, force = false,
  entropy = SYSTEM } = {}) {
  const seed = entropy.bytes("identity/seed", 32);
  try {
    return await store(seed, passphrase, comment, force);
  } finally {
    seed.fill(0);
  }
}

/**
 * Adopt an ssh-ed25519 private key file (OpenSSH format as the CLI or ssh-keygen writes
 * it, or unencrypted PKCS#8 PEM). `passphrase` decrypts it and seals the kept copy, as
 * the CLI's `key import` encrypts its copy with the same passphrase; an unencrypted file
 * imported with no passphrase is kept non-exportable. The comment is the file's own
 * (ssh-keygen writes it inside), else DEFAULT_COMMENT.
 * @param {Uint8Array|string} data the file's bytes or text
 * @param {{passphrase?: string|null, force?: boolean, source?: string}} [options]
 * @returns {Promise<KeySummary>}
 */
export async function importKey(data, { passphrase = null, force = false,
  source = "the key file" } = {}) {
  const key = await decodePrivate(data, passphrase, source);
  try {
    let comment = key.comment || DEFAULT_COMMENT;
    try {
      checkComment(comment);
    } catch {
      comment = DEFAULT_COMMENT;
    }
    return await store(key.seed, passphrase, comment, force);
  } finally {
    key.seed.fill(0);
  }
}

/** Whether the kept private copy is under a passphrase. */
export async function isEncrypted() {
  return (await readRecord()).sealed !== null;
}

/** The key's summary; needs no passphrase. NoKeyError if there is none. */
export async function show() {
  return new KeySummary(await readRecord());
}

/** The OpenSSH public line, `ssh-ed25519 BASE64 comment`. */
export async function publicLine() {
  const record = await readRecord();
  return formatPublicLine(record.publicKey, record.comment);
}

/**
 * The stored key as an IdentityKey that signs. The passphrase is needed only where
 * WebCrypto has no Ed25519 and the seed is kept sealed.
 * @param {{passphrase?: string|null}} [options]
 * @returns {Promise<IdentityKey>}
 */
export async function loadIdentity({ passphrase = null } = {}) {
  const record = await readRecord();
  if (record.signingKey) {
    const key = record.signingKey;
    return new IdentityKey(record.publicKey, async (message) =>
      new Uint8Array(await crypto.subtle.sign(ALGORITHM, key, message)));
  }
  const seed = record.seed ?? await unseal(record, passphrase);
  const secret = sodium.crypto_sign_seed_keypair(seed).privateKey;
  seed.fill(0);
  return new IdentityKey(record.publicKey,
    async (message) => sodium.crypto_sign_detached(message, secret));
}

/**
 * The stored key as protocol/identity.js's Identity, which holds the seed: for the code
 * that signs synchronously from `identity.seed` (protocol/frames.js `buildFrame`,
 * handshake_auth.js). The seed then lives in page memory for the session, as in the
 * CLI's process; the passphrase unseals it (PassphraseError if missing or wrong), and a
 * key kept non-exportable cannot give one (KeyStoreError).
 * @param {{passphrase?: string|null}} [options]
 * @returns {Promise<Identity>}
 */
export async function unlockIdentity({ passphrase = null } = {}) {
  const record = await readRecord();
  const seed = record.seed ? record.seed.slice() : await unseal(record, passphrase);
  try {
    return new Identity(seed);
  } finally {
    seed.fill(0);
  }
}

async function unseal(record, passphrase) {
  if (record.sealed === null) {
    throw new KeyStoreError("this key was kept non-exportable: nothing can read its seed");
  }
  const key = await decodePrivate(record.sealed, passphrase, "the stored key");
  if (!sodium.memcmp(key.publicKey, record.publicKey)) {
    key.seed.fill(0);
    throw new KeyStoreError(`the stored key in ${KEYS_DB} is corrupt`);
  }
  return key.seed;
}

/**
 * The private key as an OpenSSH file for the CLI (`dealerless key import FILE`) or ssh.
 * With no `passphrase`: the kept sealed file as it is (the CLI asks for the passphrase
 * it was sealed under). With `passphrase` (the one it was sealed under): the key again,
 * under `newPassphrase` ("" writes it unencrypted: anyone who can read the file can then
 * play as you; omitted: the same passphrase, with a fresh salt). PassphraseError if the
 * passphrase is wrong; KeyStoreError if the key was kept non-exportable.
 * @param {{passphrase?: string|null, newPassphrase?: string|null}} [options]
 * @returns {Promise<Uint8Array>} the file's bytes
 */
export async function exportPrivate({ passphrase = null, newPassphrase } = {}) {
  const record = await readRecord();
  if (record.sealed !== null && !passphrase) {
    readHeader(record.sealed, "the stored key");
    return record.sealed.slice();
  }
  const seed = record.seed ? record.seed.slice() : await unseal(record, passphrase);
  try {
    return await encodePrivate(seed, { passphrase: newPassphrase ?? passphrase,
      comment: record.comment });
  } finally {
    seed.fill(0);
  }
}

/** Forget the key in this browser (the old identity is lost unless it was exported). */
export async function deleteKey() {
  const db = await database();
  try {
    await transact(db, STORE, "readwrite", (tx) => request(tx.objectStore(STORE).delete(KEY_FILE)));
  } finally {
    db.close();
  }
}
