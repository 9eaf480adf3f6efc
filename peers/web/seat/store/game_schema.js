/**
 * The layout of a game's IndexedDB database (spec/12-peers.md 12.4) and the checks a
 * stored value passes before the game store uses it; the second half of
 * peers/store/games.py ("reading an untrusted file"), split from store/games.js.
 * @module store/game_schema
 */
import { MAX_FRAME_BYTES } from "../protocol/frames.js";
import { GameSetup, MAX_SETUP_BYTES } from "../protocol/setup.js";
import { MAX_EVIDENCE, MAX_FRAMES } from "../protocol/transcript.js";
import { StoreError, request, transact } from "./idb.js";

export { MAX_FRAME_BYTES, MAX_FRAMES };

/** The seat secret `create` is given (32 fresh bytes from the handshake). */
export const SEED_BYTES = 32;
/** A seat owes at most one opening at a time (spec/rules/mined-games.md D17). */
export const MAX_OPENINGS = 1;
/** The most superseded frames a store keeps (10.8): as many as a transcript's frames. */
export const MAX_SUPERSEDED = MAX_FRAMES;
/** The meta values read as text: UTF-8 without control characters. */
export const TEXT_KEYS = ["seat", "role", "url", "listen", "path", "bot", "status"];
/** Database names: this prefix and the game id's first FILE_ID_HEX hex digits. */
export const DB_PREFIX = "dealerless-game-";
export const FILE_ID_HEX = 16;
export const DB_VERSION = 1;
export const STORES = ["evidence", "frames", "meta", "openings", "superseded"];

/** A database refused by `GameStore.open`: the message names it and the failed check. */
export class CorruptGame extends StoreError {
  constructor(name, what) {
    super(`${name} is not a dealerless game database: ${what}`, "store/corrupt");
    this.database = name;
  }
}

export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
export const utf8 = new TextEncoder();
export const sameBytes = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The database name of the game whose id is `gameId` (bytes or hex). */
export function databaseName(gameId) {
  const id = typeof gameId === "string" ? gameId.toLowerCase() : hex(gameId);
  if (!/^[0-9a-f]{16,64}$/.test(id)) {
    throw new StoreError(`a game is named by 16 to 64 hex digits of its id (listGames)`,
      "store/name");
  }
  return DB_PREFIX + id.slice(0, FILE_ID_HEX);
}

/** Make the object stores of a new game database. */
export function upgrade(db, oldVersion) {
  if (oldVersion !== 0) return;
  for (const name of ["meta", "frames", "openings"]) db.createObjectStore(name);
  db.createObjectStore("evidence", { autoIncrement: true });
  db.createObjectStore("superseded", { autoIncrement: true });
}

/** `value` if it is bytes of at most `limit`, else CorruptGame naming `what`. */
export function blob(name, value, limit, what) {
  if (!(value instanceof Uint8Array)) throw new CorruptGame(name, `${what} is not bytes`);
  if (value.length > limit) {
    throw new CorruptGame(name, `${what} is ${value.length} bytes, more than ${limit}`);
  }
  return value;
}

/** A meta value as text: UTF-8 without control characters (Python's isprintable). */
export function text(name, key, value) {
  if (value === undefined) return null;
  let decoded;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(blob(name, value, MAX_FRAME_BYTES, `meta ${key}`));
  } catch (exc) {
    if (exc instanceof CorruptGame) throw exc;
    throw new CorruptGame(name, `meta ${key} is not UTF-8 text`);
  }
  if (/[\p{C}\p{Zl}\p{Zp}]/u.test(decoded) || /[^\S ]/u.test(decoded)) {
    throw new CorruptGame(name, `meta ${key} holds control characters`);
  }
  return decoded;
}

/** The values of `store` in key order (within `range`), each bytes of a frame's size. */
export async function wires(name, tx, store, range = undefined) {
  const [keys, values] = await Promise.all([request(tx.objectStore(store).getAllKeys(range)),
    request(tx.objectStore(store).getAll(range))]);
  return values.map((v, i) => blob(name, v, MAX_FRAME_BYTES, `${store} ${keys[i]}`));
}

/** The setup and seat of a database that passes every check `open` makes. */
export async function check(db, name) {
  const stores = [...db.objectStoreNames].sort();
  if (db.version !== DB_VERSION || stores.join() !== STORES.join()) {
    throw new CorruptGame(name, `its schema (version ${db.version}: ${stores.join(", ")}) `
      + "is not the game store's");
  }
  return transact(db, STORES, "readonly", async (tx) => {
    const meta = tx.objectStore("meta");
    const get = (key) => request(meta.get(key));
    const data = await get("setup");
    if (data === undefined) throw new CorruptGame(name, "it has no setup");
    let setup;
    try {
      setup = GameSetup.decode(blob(name, data, MAX_SETUP_BYTES, "meta setup").slice());
    } catch (exc) {
      if (exc instanceof CorruptGame) throw exc;
      throw new CorruptGame(name, `its setup does not decode (${exc.message})`);
    }
    const values = await Promise.all(TEXT_KEYS.map(get));
    const seat = text(name, "seat", values[0]);
    TEXT_KEYS.forEach((key, i) => text(name, key, values[i]));
    if (![...Array(setup.seats).keys()].map(String).includes(seat)) {
      throw new CorruptGame(name, `its seat ${JSON.stringify(seat)} is not one of 0 to ${setup.seats - 1}`);
    }
    const seed = await get("secret_seed");
    if (!(seed instanceof Uint8Array) || seed.length !== SEED_BYTES) {
      throw new CorruptGame(name, `its seat secret is not ${SEED_BYTES} bytes`);
    }
    const offending = await get("offending");
    if (offending !== undefined) blob(name, offending, MAX_FRAME_BYTES, "meta offending");
    const seqs = await request(tx.objectStore("frames").getAllKeys());
    if (seqs.some((s, i) => s !== i)) {
      throw new CorruptGame(name, `its ${seqs.length} frames are not numbered 0 to ${seqs.length - 1}`);
    }
    if (seqs.length + (offending !== undefined) > MAX_FRAMES) {
      throw new CorruptGame(name, `it holds more than the ${MAX_FRAMES} frames of a transcript`);
    }
    const counts = await Promise.all(["evidence", "superseded", "openings"].map(
      (s) => request(tx.objectStore(s).count())));
    if (counts[0] > MAX_EVIDENCE) {
      throw new CorruptGame(name, `it holds more than ${MAX_EVIDENCE} evidence records`);
    }
    if (counts[1] > MAX_SUPERSEDED) {
      throw new CorruptGame(name, `it holds more than ${MAX_SUPERSEDED} superseded frames`);
    }
    if (counts[2] > MAX_OPENINGS) {
      throw new CorruptGame(name, `it keeps more than ${MAX_OPENINGS} opening`);
    }
    const stages = await request(tx.objectStore("openings").getAllKeys());
    if (stages.some((s) => !Number.isInteger(s) || s < 0 || s >= MAX_FRAMES)) {
      throw new CorruptGame(name, `it keeps an opening of a stage not 0 to ${MAX_FRAMES - 1}`);
    }
    return [setup, Number(seat)];
  });
}
