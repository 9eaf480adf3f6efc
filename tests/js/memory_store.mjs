// An in-memory game store with the API of peers/web/seat/store/games.js GameStore, for
// running the browser seat's game loop (net/peer.js) under node, which has no IndexedDB.
// Games live in a module-level map by game id (hex), so a test can `open` a game again to
// resume it. Every write is awaited like IndexedDB's (a microtask later), and checks what
// the real store checks on a write: the next step only, the same bytes for a step stored,
// at most one opening.
//
//   import { MemoryGameStore } from "./memory_store.mjs";
//   config.stores = MemoryGameStore;   // create(setup, seat, seed, meta), open(gameId)
import { Referee } from "../../peers/web/seat/protocol/referee.js";
import { Transcript } from "../../peers/web/seat/protocol/transcript.js";
import { CorruptGame, StoreError } from "../../peers/web/seat/store/games.js";

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const DATABASES = new Map();   // game id hex -> the game's rows

/** One game's rows, as the object stores of 12.4. */
function rows(setup, seat, seed, meta) {
  return { setup, seat, meta: new Map(Object.entries({ ...meta, seat: String(seat),
    created: String(Math.floor(Date.now() / 1000)) })), seed: seed.slice(), frames: [],
    evidence: [], openings: new Map(), superseded: [], offending: null };
}

export class MemoryGameStore {
  constructor(db) {
    this.db = db;
    this.name = `memory-game-${hex(db.setup.gameId).slice(0, 16)}`;
    this.setup = db.setup;
    this.seat = db.seat;
    this.writes = [];   // every write in order, for a test to check the order of persistence
  }

  static async create(setup, seat, secretSeed, meta = {}) {
    const id = hex(setup.gameId);
    await tick();
    if (DATABASES.has(id)) throw new StoreError(`a game database already exists: ${id}`, "store/exists");
    if (!(secretSeed instanceof Uint8Array) || secretSeed.length !== 32) {
      throw new RangeError("a store holds a seat of the game and a 32-byte secret");
    }
    DATABASES.set(id, rows(setup, seat, secretSeed, meta));
    return new MemoryGameStore(DATABASES.get(id));
  }

  static async open(gameId) {
    const wanted = typeof gameId === "string" ? gameId.toLowerCase() : hex(gameId);
    const found = [...DATABASES.keys()].filter((id) => id.startsWith(wanted));
    if (found.length !== 1) throw new StoreError(`no game database ${wanted}`, "store/none");
    await tick();
    return new MemoryGameStore(DATABASES.get(found[0]));
  }

  /** Every game held, as {gameId, seat, frames, status}. */
  static list() {
    return [...DATABASES.entries()].map(([gameId, db]) => ({ gameId, seat: db.seat,
      frames: db.frames.length, status: db.meta.get("status") ?? "in progress" }));
  }

  close() {}

  async meta(key, fallback = "") {
    return this.db.meta.get(key) ?? fallback;
  }

  async secretSeed() {
    return this.db.seed.slice();
  }

  async frames(start = 0) {
    return this.db.frames.slice(start).map((w) => w.slice());
  }

  async openings() {
    return new Map(this.db.openings);
  }

  async frameCount() {
    return this.db.frames.length;
  }

  async referee() {
    const ref = new Referee(this.setup);
    for (const wire of this.db.frames) ref.receive(wire);
    for (const proof of [this.db.offending, ...this.db.evidence]) {
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

  async transcript() {
    const frames = [...this.db.frames];
    if (this.db.offending !== null) frames.push(this.db.offending);
    return new Transcript(this.setup, frames, this.db.evidence);
  }

  async exportTranscript() {
    return (await this.transcript()).encode();
  }

  async superseded() {
    return this.db.superseded.map((r) => r.wire);
  }

  async append(seq, wire, openings = null) {
    await tick();
    const frames = this.db.frames;
    if (seq < frames.length) {
      if (!same(frames[seq], wire)) {
        throw new StoreError(`step ${seq} already holds a different frame`, "store/step");
      }
      return;
    }
    if (seq !== frames.length) {
      throw new StoreError(`step ${seq} is not the next of ${frames.length} stored frames`,
        "store/step");
    }
    const kept = openings === null ? null : new Map(openings);
    if (kept !== null && kept.size > 1) throw new RangeError("a seat keeps at most 1 opening");
    frames.push(wire.slice());
    if (kept !== null) this.db.openings = kept;
    this.writes.push({ seq, openings: kept === null ? null : kept.size });
  }

  async rewind(seq) {
    await tick();
    const dropped = this.db.frames.splice(seq);
    dropped.forEach((wire, i) => this.db.superseded.push({ seq: seq + i, wire }));
    this.db.superseded.splice(0, Math.max(0, this.db.superseded.length - 4096));
  }

  async setMeta(key, value) {
    await tick();
    this.db.meta.set(key, value);
  }

  async overwriteMeta(key, value) {
    await this.setMeta(key, value);
  }

  async recordViolation(offending, evidence, status) {
    await tick();
    if (offending !== null) this.db.offending = offending.slice();
    for (const wire of evidence) this.db.evidence.push(wire.slice());
    this.db.meta.set("status", status);
  }
}

export { CorruptGame, StoreError };
