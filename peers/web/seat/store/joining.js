/**
 * The joiner's handshake records in the browser (spec/12-peers.md 12.3 "Taking a seat
 * again", 12.4): where peers/net/joining.py keeps a file under `joining/`, a page keeps a
 * record in IndexedDB, named as that file is (SHA-256 of the identity key and the
 * invitation, 32 hex digits), so that a page closed between the hello and the game's
 * store takes the same seat when the invitation is opened again.
 * @module store/joining
 */
import sodium from "../vendor/sodium.mjs";
import { openDatabase, request, transact } from "./idb.js";

const DB = "dealerless-joining";
const RECORDS = "records";
const utf8 = new TextEncoder();

/** The record's name: SHA-256(key || invitation) in hex, its first 32 digits. */
function recordName(key, invitation) {
  const named = new Uint8Array([...key, ...utf8.encode(invitation)]);
  return sodium.to_hex(sodium.crypto_hash_sha256(named)).slice(0, 32);
}

async function withRecords(mode, body) {
  const db = await openDatabase(DB, 1, (created) => created.createObjectStore(RECORDS));
  try {
    return await transact(db, RECORDS, mode, (tx) => body(tx.objectStore(RECORDS)));
  } finally {
    db.close();
  }
}

/** The record of `key`'s join of `invitation`, or null (a first join). */
export async function readRecord(key, invitation) {
  const name = recordName(key, invitation);
  const data = await withRecords("readonly", (records) => request(records.get(name)));
  return data === undefined ? null : new Uint8Array(data);
}

/** Keep the record; resolves once it is durably written (before the hello it protects). */
export function writeRecord(key, invitation, data) {
  const name = recordName(key, invitation);
  return withRecords("readwrite", (records) => request(records.put(data.slice(), name)));
}

/** Forget the record, once the game's own store holds what it kept. */
export function removeRecord(key, invitation) {
  const name = recordName(key, invitation);
  return withRecords("readwrite", (records) => request(records.delete(name)));
}
