/**
 * Per-game persistence for the browser seat (spec/12-peers.md 12.4); mirrors
 * peers/store/games.py, with one IndexedDB database where the CLI has one SQLite file.
 *
 * A game is the database `dealerless-game-<first 16 hex digits of the game id>`, with
 * the tables of 12.4 as object stores: `meta` (key -> bytes: `setup`, `seat`,
 * `secret_seed` (the SeatAgent seed: with the setup, the key share and first-player
 * nonce of 10.4 derive from it), `identity_keys`, `frame_key_bindings`, `role`, `url`,
 * `relay`, `room_seed`, `bot`, `created`, `status`, `offending`), `frames` (seq ->
 * wire), `evidence`, `openings` (stage -> what opens this seat's commitment) and
 * `superseded` ({seq, wire}, 10.8). That is everything a resumed seat needs: replaying
 * the frames rebuilds the referee, the seed rebuilds the agent, the opening is kept.
 *
 * Persist before send: every write is one readwrite transaction with durability
 * "strict", and its promise resolves only once IndexedDB reports it committed. A seat
 * sends its own frame only after `append` resolved, so after a crash it resends the
 * stored bytes and never signs a second frame for one step (equivocation). The
 * openings are replaced in the same transaction as the frame that commits to them.
 *
 * The seed and the openings are as secret here as in the 0600 file, and protected less:
 * any script of this origin can read them, and the browser keeps IndexedDB unencrypted
 * in the profile. `overwriteMeta` cannot promise what SQLite's secure_delete does.
 * Only this origin writes these databases, yet a stored value is still checked for type
 * and size before use (`open`, and each read), and a database that fails is a
 * CorruptGame naming it and the check.
 * @module store/games
 */
import { Transcript } from "../protocol/transcript.js";
import {
  CorruptGame, DB_PREFIX, DB_VERSION, FILE_ID_HEX, MAX_FRAME_BYTES, MAX_FRAMES, MAX_OPENINGS,
  MAX_SUPERSEDED, SEED_BYTES, TEXT_KEYS, blob, check, databaseName, hex, sameBytes, text, upgrade,
  utf8, wires,
} from "./game_schema.js";
import { StoreError, databaseNames, deleteDatabase, openDatabase, request, transact } from "./idb.js";

export {
  CorruptGame, DB_PREFIX, FILE_ID_HEX, MAX_OPENINGS, MAX_SUPERSEDED, SEED_BYTES, StoreError,
  TEXT_KEYS, databaseName,
};

function normalOpenings(openings) {
  const map = openings instanceof Map ? openings : new Map(Array.isArray(openings)
    ? openings : Object.entries(openings).map(([k, v]) => [Number(k), v]));
  if (map.size > MAX_OPENINGS || [...map].some(([stage, value]) => !Number.isInteger(stage)
      || stage < 0 || stage >= MAX_FRAMES || !(value instanceof Uint8Array)
      || value.length > MAX_FRAME_BYTES)) {
    throw new RangeError(`a seat keeps at most ${MAX_OPENINGS} opening of at most `
      + `${MAX_FRAME_BYTES} bytes`);
  }
  return map;
}

/** One game's database. Every write is one committed transaction. */
export class GameStore {
  /** Use `create` or `open`. */
  constructor(db, name, setup, seat) {
    this.db = db;
    this.name = name;
    this.setup = setup;
    this.seat = seat;
  }

  /**
   * A new game's store: its setup, this seat, the seat's 32-byte secret and the other
   * meta values (text), all in one committed transaction. StoreError if the game is
   * already stored.
   * @param {import("../protocol/setup.js").GameSetup} setup
   * @param {number} seat
   * @param {Uint8Array} secretSeed
   * @param {Object<string, string>} [meta]
   * @returns {Promise<GameStore>}
   */
  static async create(setup, seat, secretSeed, meta = {}) {
    if (!Number.isInteger(seat) || seat < 0 || seat >= setup.seats
        || !(secretSeed instanceof Uint8Array) || secretSeed.length !== SEED_BYTES) {
      throw new RangeError(`a store holds a seat of the game and a ${SEED_BYTES}-byte secret`);
    }
    const name = databaseName(setup.gameId);
    if ((await databaseNames()).includes(name)) {
      throw new StoreError(`a game database already exists: ${name}`, "store/exists");
    }
    const rows = { ...Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, utf8.encode(v)])),
      setup: setup.encode().slice(), seat: utf8.encode(String(seat)),
      secret_seed: secretSeed.slice(),
      created: utf8.encode(String(Math.floor(Date.now() / 1000))) };
    const db = await openDatabase(name, DB_VERSION, upgrade);
    try {
      await transact(db, "meta", "readwrite", async (tx) => {
        const store = tx.objectStore("meta");
        if (await request(store.count("setup"))) {
          throw new StoreError(`a game database already exists: ${name}`, "store/exists");
        }
        for (const [key, value] of Object.entries(rows)) store.put(value, key);
      });
    } catch (exc) {
      db.close();
      throw exc;
    }
    return new GameStore(db, name, setup, seat);
  }

  /**
   * The stored game `gameId` (bytes, or hex: its first 16 digits or more) once the
   * database has passed the checks: StoreError if there is none, CorruptGame if it
   * fails one.
   * @returns {Promise<GameStore>}
   */
  static async open(gameId) {
    const name = databaseName(gameId);
    if (!(await databaseNames()).includes(name)) {
      throw new StoreError(`no game database ${name}`, "store/none");
    }
    const db = await openDatabase(name, DB_VERSION, upgrade);
    try {
      const [setup, seat] = await check(db, name);
      const wanted = typeof gameId === "string" ? gameId.toLowerCase() : hex(gameId);
      if (!hex(setup.gameId).startsWith(wanted)) {
        throw new CorruptGame(name, "its setup is not of the game it is named for");
      }
      return new GameStore(db, name, setup, seat);
    } catch (exc) {
      db.close();
      throw exc;
    }
  }

  close() {
    this.db.close();
  }

  async _read(stores, body) {
    return transact(this.db, stores, "readonly", body);
  }

  async _write(stores, body) {
    return transact(this.db, stores, "readwrite", body);
  }

  // -- reads: every value checked ------------------------------------------------------

  /** A text meta value (12.4), or `fallback` if there is none. */
  async meta(key, fallback = "") {
    const value = await this._read("meta", (tx) => request(tx.objectStore("meta").get(key)));
    return text(this.name, key, value) ?? fallback;
  }

  /** This seat's secret seed (Python's `secret_seed`). */
  async secretSeed() {
    const seed = await this._read("meta", (tx) => request(tx.objectStore("meta").get("secret_seed")));
    if (seed === undefined) throw new CorruptGame(this.name, "it has no seat secret");
    if (blob(this.name, seed, SEED_BYTES, "meta secret_seed").length !== SEED_BYTES) {
      throw new CorruptGame(this.name, `its seat secret is not ${SEED_BYTES} bytes`);
    }
    return seed;
  }

  /** The accepted frames from seq `start` on, in order. */
  async frames(start = 0) {
    return this._read("frames", (tx) => wires(this.name, tx, "frames",
      IDBKeyRange.lowerBound(start)));
  }

  /** The kept opening(s), by stage (a Map), as the seat agent gave them. */
  async openings() {
    return this._read("openings", async (tx) => {
      const store = tx.objectStore("openings");
      const [stages, values] = await Promise.all([request(store.getAllKeys()),
        request(store.getAll())]);
      if (stages.length > MAX_OPENINGS) {
        throw new CorruptGame(this.name, `it keeps more than ${MAX_OPENINGS} opening`);
      }
      return new Map(stages.map((stage, i) => [stage,
        blob(this.name, values[i], MAX_FRAME_BYTES, `opening ${stage}`)]));
    });
  }

  async frameCount() {
    return this._read("frames", (tx) => request(tx.objectStore("frames").count()));
  }

  /** Rebuild the referee by replaying the stored frames (they were checked once). */
  async referee() {
    const { Referee } = await import("../protocol/referee.js");
    const ref = new Referee(this.setup);
    for (const wire of await this.frames()) ref.receive(wire);
    // The proof of a kept violation, received again, makes the referee keep it, so a
    // resumed game never goes on signing frames to a proven cheater.
    for (const proof of [await this._offending(), ...await this._evidence()]) {
      if (proof !== null && ref.violation === null) {
        try {
          ref.receive(proof);
        } catch {
          // the violation is now kept by the referee
        }
      }
    }
    return ref;
  }

  /** The game's transcript (8.6): the setup, the frames (and the offending one), evidence. */
  async transcript() {
    const frames = await this.frames();
    const offending = await this._offending();
    if (offending !== null) frames.push(offending);
    return new Transcript(this.setup, frames, await this._evidence());
  }

  /** The transcript file's bytes, as `dealerless export` writes them (8.6, 11.2). */
  async exportTranscript() {
    return (await this.transcript()).encode();
  }

  /** The frames this seat held until a rival took their place (10.8), oldest first. */
  async superseded() {
    return this._read("superseded", async (tx) => (await request(
      tx.objectStore("superseded").getAll())).map((row, i) => blob(this.name, row?.wire,
      MAX_FRAME_BYTES, `superseded ${i}`)));
  }

  async _offending() {
    const value = await this._read("meta", (tx) => request(tx.objectStore("meta").get("offending")));
    return value === undefined ? null : blob(this.name, value, MAX_FRAME_BYTES, "meta offending");
  }

  async _evidence() {
    return this._read("evidence", (tx) => wires(this.name, tx, "evidence"));
  }

  // -- writes: one strict transaction each ---------------------------------------------

  /**
   * Persist an accepted (or about to be sent) frame; idempotent for the same bytes, and
   * resolved only once committed. With `openings` (this seat's own frame), they replace
   * the kept openings in the same transaction, so a COMMIT is never stored without what
   * opens it. StoreError if step `seq` holds another frame, or `seq` is not the next.
   * @param {number} seq
   * @param {Uint8Array} wire
   * @param {Map<number, Uint8Array>|Object|null} [openings]
   */
  async append(seq, wire, openings = null) {
    const kept = openings === null ? null : normalOpenings(openings);
    if (!(wire instanceof Uint8Array) || wire.length > MAX_FRAME_BYTES) {
      throw new RangeError(`a frame is at most ${MAX_FRAME_BYTES} bytes`);
    }
    await this._write(["frames", "openings"], async (tx) => {
      const frames = tx.objectStore("frames");
      const [stored, count] = await Promise.all([request(frames.get(seq)),
        request(frames.count())]);
      if (stored !== undefined) {
        if (!sameBytes(stored, wire)) {
          throw new StoreError(`step ${seq} already holds a different frame`, "store/step");
        }
        return;
      }
      if (seq !== count || count >= MAX_FRAMES) {
        throw new StoreError(`step ${seq} is not the next of ${count} stored frames (at most `
          + `${MAX_FRAMES})`, "store/step");
      }
      frames.put(wire.slice(), seq);
      if (kept !== null) {
        const store = tx.objectStore("openings");
        store.clear();
        for (const [stage, value] of kept) store.put(value.slice(), stage);
      }
    });
  }

  /**
   * Move the frames from `seq` on to the superseded records, in one transaction: a rival
   * took place `seq` (10.8). Only records beyond MAX_SUPERSEDED, oldest first, are lost.
   */
  async rewind(seq) {
    await this._write(["frames", "superseded"], async (tx) => {
      const frames = tx.objectStore("frames");
      const superseded = tx.objectStore("superseded");
      const range = IDBKeyRange.lowerBound(seq);
      const [seqs, moved] = await Promise.all([request(frames.getAllKeys(range)),
        request(frames.getAll(range))]);
      seqs.forEach((s, i) => superseded.add({ seq: s, wire: moved[i] }));
      frames.delete(range);
      const ids = await request(superseded.getAllKeys());
      if (ids.length > MAX_SUPERSEDED) {
        superseded.delete(IDBKeyRange.upperBound(ids[ids.length - MAX_SUPERSEDED - 1]));
      }
    });
  }

  /** Set a meta value (text, or bytes). */
  async setMeta(key, value) {
    const data = typeof value === "string" ? utf8.encode(value) : value.slice();
    await this._write("meta", (tx) => { tx.objectStore("meta").put(data, key); });
  }

  /**
   * setMeta. The Python zeroes the old value in its file (secure_delete); IndexedDB
   * cannot: the old bytes may stay in the browser's files until it compacts them.
   */
  async overwriteMeta(key, value) {
    await this.setMeta(key, value);
  }

  /** Keep the frame that proved a violation, the evidence records and the status. */
  async recordViolation(offending, evidence, status) {
    await this._write(["meta", "evidence"], (tx) => {
      const meta = tx.objectStore("meta");
      if (offending !== null) meta.put(offending.slice(), "offending");
      for (const wire of evidence) tx.objectStore("evidence").add(wire.slice());
      meta.put(utf8.encode(status), "status");
    });
  }
}

/**
 * The local games, and the refusal of every other database named like one (12.4,
 * peers/store/finding.py `list_games`): {gameId, seat, status, frames, rules} each.
 */
export async function listGames() {
  const games = [];
  const refused = [];
  for (const name of (await databaseNames()).filter((n) => n.startsWith(DB_PREFIX)).sort()) {
    try {
      const store = await GameStore.open(name.slice(DB_PREFIX.length));
      try {
        games.push({ gameId: hex(store.setup.gameId), seat: store.seat,
          status: await store.meta("status", "in progress"), frames: await store.frameCount(),
          rules: store.setup.rules });
      } finally {
        store.close();
      }
    } catch (exc) {
      if (!(exc instanceof StoreError)) throw exc;
      refused.push(exc);
    }
  }
  return { games, refused };
}

/** Delete a game's database (its seed and frames are gone: export the transcript first). */
export async function deleteGame(gameId) {
  await deleteDatabase(databaseName(gameId));
}
