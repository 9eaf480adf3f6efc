/**
 * A networked seat: the handshake, then the game over an unreliable link (spec/12-peers.md
 * 12.3 "Play", 12.4); mirrors peers/net/peer.py.
 *
 * The seats first agree on a setup (net/handshake.js, run here by net/launch.js when there
 * is no stored game), then exchange signed frames, SYNCs and DONEs (net/messages.js).
 * Everything is idempotent. A peer that waits sends SYNC every `syncInterval` seconds
 * (backing off) and any other seat answers with the frames the asker lacks, so lost,
 * duplicated or reordered messages only cost time. A SYNC and a DONE carry the hash of the
 * sender's last frame, so a seat whose chain took another branch at a contested place
 * (net/fork.js) is shown the winner. Frames that arrive early are held until their turn;
 * frames that are no evidence are reported and dropped; a proven violation stops the game
 * and is saved.
 *
 * Persistence (12.4): this seat's own frame is committed to the store, with what opens a
 * COMMIT, before it is sent; every accepted frame is committed before anything is sent
 * after it. So a page closed at any point resumes from its store, resends the same bytes
 * and opens what it committed to. `store.append` resolves only once its write is durable.
 * @module net/peer
 */

import { LocalError, Violation } from "../protocol/errors.js";
import { bytesEqual, parseFrame, typeLabel } from "../protocol/frames.js";
import { SeatAgent } from "../protocol/seat.js";
import { CorruptGame } from "../store/games.js";
import { KEYS_META, seatKeys } from "../store/seats.js";
import { describe, viewEvent } from "../table/driver.js";
import { AbsenceClock } from "./absence.js";
import { Forks } from "./fork.js";
import { answerHandshake } from "./handshake_answers.js";
import { rendezvousId } from "./invitation.js";
import { handshake, peerConfig } from "./launch.js";
import { packMessage, parseMessage } from "./messages.js";
import { AnswerLimit, MAX_SYNC_INTERVAL, monotonic } from "./pacing.js";
import { PeerResult, abandoned, finish, linger } from "./peer_end.js";

export { PeerResult };

/** Early frames held, at most this far ahead (12.3 step 4). */
export const MAX_PENDING = 64;
/** Frames resent in one answer to a SYNC (12.3 step 3). */
export const MAX_RESEND = 64;

/** Thrown inside the loop once `stop()` was called; `run` then resolves to null. */
export class Stopped extends Error {}

/** One seat of a networked game; `run()` plays it to its end (or to a stop). */
export class Peer {
  /**
   * @param {{send: (m: Uint8Array) => Promise<void>, recv: (t: number) => Promise<Uint8Array|null>,
   *          close: () => Promise<void>}} link
   * @param {object} config see net/launch.js peerConfig
   * @param {object|null} [store] a stored game to resume (store/games.js GameStore or the
   *   same API); null to run the handshake first
   */
  constructor(link, config, store = null) {
    this.link = link;
    this.cfg = peerConfig(config);
    this.store = store;
    this.pending = new Map();
    this.answers = new AnswerLimit(this.cfg.syncInterval);
    this.absence = new AbsenceClock(this.cfg.moveTimeout);
    this.forks = new Forks(this.cfg.log);
    this.behindAt = -1e9;   // when another seat last showed it holds frames we lack
    this.stopped = false;
    this.halt = new Promise((resolve) => { this.wake = resolve; });
  }

  /**
   * Play the game to its end: the PeerResult, or null if `stop()` ended it first. Rejects
   * with a PeerError or LinkError when no game could be agreed, CorruptGame for a store
   * that fails its checks. The link is closed when it settles.
   * @returns {Promise<PeerResult|null>}
   */
  async run() {
    const resumed = this.store !== null;
    try {
      const store = this.store ?? await this.agree();
      return await this.play(store, resumed);
    } catch (exc) {
      if (exc instanceof Stopped || (this.stopped && this.store === null)) return null;
      throw exc;
    } finally {
      await this.link.close();
    }
  }

  /**
   * The handshake, then the new game's store. Its link is this one, except that it stops
   * the handshake as soon as `stop()` is called (Stopped, which erases no record).
   */
  async agree() {
    const link = this.link;
    const guarded = {
      send: (message) => link.send(message),
      recv: async (timeout) => {
        this.check();
        const message = await link.recv(timeout);
        this.check();
        return message;
      },
      close: () => link.close(),
    };
    return handshake(guarded, this.cfg, this.answers, (s) => { this.store = s; });
  }

  /**
   * Stop at the next step: a pending `choose` is abandoned, the link closed, `run`
   * resolves to null. What was stored stays: the game resumes from it.
   */
  async stop() {
    this.stopped = true;
    this.wake();
    await this.link.close();
  }

  check() {
    if (this.stopped) throw new Stopped();
  }

  notify(event) {
    this.cfg.notify(event);
  }

  /** The rendezvous id handshake signatures cover: the invitation's, or the stored URL's. */
  async rid(store) {
    if (this.cfg.invitation) return this.cfg.invitation.rid;
    try {
      return rendezvousId(await store.meta("url"));
    } catch {
      return null;
    }
  }

  async play(store, resumed = false) {
    const cfg = this.cfg;
    const ref = await store.referee();
    const agent = new SeatAgent(ref.game, store.seat, cfg.identity, await store.secretSeed());
    try {   // a COMMIT sent before a crash is opened in time (mined-games.md D17)
      agent.restoreOpenings(ref.state, await store.openings());
    } catch (exc) {
      if (exc instanceof LocalError) throw new CorruptGame(store.name, exc.detail);
      throw exc;
    }
    this.ref = ref;
    this.agent = agent;
    this.forks = await Forks.of(store, cfg.log);
    this.ridBytes = await this.rid(store);
    try {
      this.keys = seatKeys(store.setup, await store.meta(KEYS_META));
    } catch {
      this.keys = null;   // a damaged store: the game goes on, a lost roster is not answered
    }
    if (cfg.onGame) cfg.onGame(ref.game, store);
    // The position as stored, at once: a seat that owes nothing would otherwise show no
    // table until another seat's next frame arrives (12.4).
    if (resumed) this.notify(viewEvent(ref, agent.view(ref.state)));
    await this.link.send(this.sync());
    for (;;) {
      const gaveUp = await this.untilEnd(store);
      if (gaveUp !== null) return gaveUp;
      if (ref.violation !== null) return finish(this, store, `stopped: ${ref.violation.describe()}`);
      if (await linger(this, store)) return finish(this, store, "game complete");
      // A rival took a place while we lingered (10.8): the game goes on from it.
    }
  }

  /** Play until complete or stopped by a violation (null), or give up on a seat (result). */
  async untilEnd(store) {
    const { cfg, ref, agent } = this;
    let deadline = monotonic() + cfg.moveTimeout;
    let wait = cfg.syncInterval;
    while (ref.violation === null && !ref.complete) {
      this.check();
      const due = ref.awaiting;
      this.absence.watch(ref, store.seat);
      const owed = agent.owed(ref.state);
      if (owed !== null) {
        await this.sendOwn(store, owed);
        deadline = monotonic() + cfg.moveTimeout;
        wait = cfg.syncInterval;
        continue;
      }
      // Checked on every pass: messages that make no progress must not keep a silent
      // seat from timing out.
      let left = deadline - monotonic();
      let declare = this.absence.declareIn(ref, agent);
      if (declare !== null && this.behind()) declare = Math.max(declare, cfg.syncInterval);
      if (declare !== null && declare <= 0 && due !== null) {
        cfg.log(`declaring seat ${due[0]} absent after ${cfg.moveTimeout.toFixed(1)} s`);
        await this.send(store, await agent.declareAbsent(ref.state, cfg.randomBytes("absent", 32)));
        deadline = monotonic() + cfg.moveTimeout;
        wait = cfg.syncInterval;
        continue;
      }
      const giveUp = this.absence.giveUpIn(ref);
      // A simultaneous game: wait while this seat or another may still declare.
      if (giveUp !== null) left = Math.max(left, giveUp);
      if (due !== null && left <= 0) return abandoned(this, store, due[0], due[1]);
      const nap = declare === null ? left : Math.min(left, declare);
      const message = await this.link.recv(Math.min(wait, Math.max(nap, 0.01)));
      this.check();
      if (message === null) {
        await this.link.send(this.sync());
        // Back off while the other side is thinking, but ask four times a timeout.
        wait = Math.min(wait * 1.5, MAX_SYNC_INTERVAL, cfg.moveTimeout / 4);
        continue;
      }
      if (await this.handle(store, message)) {
        deadline = monotonic() + cfg.moveTimeout;
        wait = cfg.syncInterval;
      }
    }
    return null;
  }

  /** SYNC: how many frames we hold and the hash the next one must carry. */
  sync() {
    return packMessage("sync", this.ref.frames.length, this.ref.state.prev);
  }

  async sendOwn(store, mtype) {
    const { ref, agent, cfg } = this;
    const state = ref.state;
    let wire;
    if (agent.asks(state, mtype)) {
      const view = agent.view(state);
      this.notify(viewEvent(ref, view));
      const move = await Promise.race([cfg.choose(view), this.halt]);
      this.check();
      if (ref.state !== state && !agent.owes(ref.state)) return;   // e.g. declared absent
      wire = await agent.nextFrame(ref.state, cfg.randomBytes("frame", 32), () => move);
    } else {
      wire = await agent.nextFrame(state, cfg.randomBytes("frame", 32));
    }
    await this.send(store, wire);
  }

  /** Commit our frame (with what opens a COMMIT), take it, then send it (12.4). */
  async send(store, wire) {
    const { ref } = this;
    await store.append(ref.state.seq, wire, this.agent.openings(ref.state));
    const frame = ref.receive(wire);
    await this.link.send(packMessage("frame", wire));
    if (frame !== null) this.progress(frame);
  }

  progress(frame) {
    this.notify(describe(this.ref, frame));
    this.notify(viewEvent(this.ref, this.agent.view(this.ref.state)));
  }

  /** Act on one message; true if the chain changed (a step forward, or a rival won). */
  async handle(store, message) {
    const { ref } = this;
    const obj = parseMessage(message);
    if (obj === null) {
      this.cfg.log(`dropped a malformed message (${message.length} bytes)`);
      return false;
    }
    const kind = obj[0];
    if (kind === "sync" && obj.length === 3) {
      await this.answerSync(store, obj[1], obj[2]);
      return false;
    }
    if (kind === "frame" && obj.length === 2 && obj[1] instanceof Uint8Array) {
      const progressed = await this.accept(store, obj[1]);
      while (progressed && this.pending.has(ref.frames.length) && ref.violation === null) {
        const next = this.pending.get(ref.frames.length);
        this.pending.delete(ref.frames.length);
        await this.accept(store, next);
      }
      return progressed;
    }
    if (["hello", "roster", "open"].includes(kind) && this.ridBytes && this.keys) {
      // A seat may have lost our last handshake message (12.3).
      await answerHandshake(this.link, { setup: store.setup, seat: store.seat, keys: this.keys },
        obj, this.answers, this.cfg.identity, this.ridBytes, this.cfg.log);
    }
    return false;   // done, reveal, full or unknown: nothing to do mid-game
  }

  /**
   * Send the frames the other side lacks; stale or repeated questions are ignored. A SYNC
   * showing that the other side holds more makes us ask at once; one whose head is not ours
   * at that length comes from a chain that parted from ours (10.8): we show it ours.
   */
  async answerSync(store, value, head) {
    const { ref } = this;
    const have = ref.frames.length;
    if (!Number.isInteger(value) || value < 0 || value >= 2 ** 32
        || !(head instanceof Uint8Array)) return;
    if (value > have) {
      this.behindAt = monotonic();
      if (this.answers.mayAnswer(`behind ${have}`)) await this.link.send(this.sync());
      return;
    }
    if (!bytesEqual(head, ref.stateBefore(value).prev)) {
      await this.showChain(value);
      return;
    }
    if (value < have) {
      await this.resend(`sync ${value}`, () => this.chainFrom(value));
    }
  }

  async showChain(have) {
    await this.resend(`fork ${this.ref.frames.length} ${have}`, () => Forks.shown(this.ref, have));
  }

  /**
   * Answer `question` with the frames `wires()` lists, as far as the link's answer limits
   * allow (net/pacing.js): the asker asks again for the rest. The frames come from the
   * referee's chain, which holds the same bytes as the store (each accepted frame is
   * committed before anything else runs), so answering costs no store read.
   */
  async resend(question, wires) {
    for (const wire of this.answers.resend(question, wires)) {
      await this.link.send(packMessage("frame", wire));
    }
  }

  /** The wires of our chain from seq `start` on, at most MAX_RESEND. */
  chainFrom(start) {
    return this.ref.frames.slice(start, start + MAX_RESEND).map((f) => f.wire);
  }

  async accept(store, wire) {
    const { ref, forks } = this;
    const found = forks.branchOf(ref, wire);
    if (found !== null) {
      const [place, frames] = found;
      const winner = forks.judge(ref, place, frames);
      if (winner === null) {
        // Ours keeps the place: show whoever sent the rival the chain from there.
        await this.resend(`rival ${place}`, () => this.chainFrom(place));
        return false;
      }
      this.cfg.log(`seat ${winner[0].seat}'s frame takes place ${place} (10.8): going on from it`);
      await forks.giveUp(store, ref, place);
      // Silence is judged afresh on the new chain.
      this.absence.restart();
      for (const frame of winner) if (!await this.take(store, frame.wire)) break;
      return true;
    }
    if (Forks.elsewhere(ref, wire)) {   // its sender parted from us
      await this.showChain(parseFrame(wire, ref.game.suite).seq);
      return false;
    }
    return this.take(store, wire);
  }

  /** Receive a frame in its place, then commit it; true if accepted. */
  async take(store, wire) {
    const { ref } = this;
    let frame;
    try {
      frame = ref.receive(wire);
    } catch (exc) {
      if (!(exc instanceof Violation)) throw exc;
      if (exc.authenticated) {
        await store.recordViolation(ref.offendingFrame, ref.evidence,
          `violation by seat ${exc.seat}: ${exc.code}`);
      } else {
        this.holdOrDrop(wire, exc);
      }
      return false;
    }
    if (frame === null) return false;
    await store.append(frame.seq, wire);
    this.progress(frame);
    return true;
  }

  /** Whether another seat showed lately that it holds frames we lack. */
  behind() {
    return monotonic() - this.behindAt < MAX_SYNC_INTERVAL;
  }

  holdOrDrop(wire, v) {
    const { ref } = this;
    if (v.code === "frame/sequence") {
      const seq = parseFrame(wire, ref.game.suite).seq;
      if (seq > ref.frames.length) this.behindAt = monotonic();
      if (ref.frames.length < seq && seq < ref.frames.length + MAX_PENDING) {
        this.pending.set(seq, wire);   // early: its turn will come
        return;
      }
    }
    this.cfg.log(`dropped a frame that is no evidence: ${v.describe()}`);
  }
}
