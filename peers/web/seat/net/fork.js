/**
 * A networked seat's side of two frames for one place (spec/10-session.md 10.8,
 * spec/12-peers.md 12.3 "Play" steps 3 and 4); mirrors peers/net/fork.py.
 *
 * In a simultaneous game two seats can sign valid frames on the same prefix (a late KEY,
 * COMMIT or OPEN and a declaration of its sender's absence, or two declarations), and
 * seats that receive them in different orders hold different chains for a while. Each
 * seat settles every such place by the rule of protocol/fork.js, which compares the two
 * branches: each rival with the frames known to follow it.
 *
 * So a seat keeps the validly signed frames of other histories it meets (the frames it
 * gave up included, a bounded number per signer, so that one seat signing frames on
 * branches it makes up forgets only its own), links each one back through them to the
 * place where it parts from the chain this seat holds, and judges that branch against its
 * own whenever it grows. A seat that signed a frame breaking the rules on a valid prefix
 * of another history has proven that it cheats: its frames of other histories are no
 * longer kept. A seat that holds the losing branch rewinds its referee and its store to
 * the place, keeps what it gave up as records, and goes on along the winning branch; a
 * seat that holds the winner shows its branch to whoever sent the loser.
 * @module net/fork
 */

import { EncodingError, Violation } from "../protocol/errors.js";
import { branch, rivals, takesPlace } from "../protocol/fork.js";
import { MessageType, bytesEqual, parseFrame, toHex } from "../protocol/frames.js";
import { authenticate } from "../protocol/session.js";

/** The most ABSENT frames one answer to a diverged seat carries (12.3 step 3's limit). */
export const MAX_SHOWN = 64;
/** The most frames of a branch a seat judges; a longer one is cut there. */
export const MAX_BRANCH = 128;
/** The frames of other histories a seat keeps per signer (its oldest forgotten first). */
export const MAX_FOREIGN_PER_SEAT = MAX_BRANCH;
/** The branches judged a seat remembers, so as not to judge them again (then forgotten). */
export const MAX_JUDGED = 4096;

/** Lexicographic order of [key array, hash hex] pairs, as Python compares tuples. */
function before(a, b) {
  for (let i = 0; i < a[0].length; i++) {
    const x = Number(a[0][i]);
    const y = Number(b[0][i]);
    if (x !== y) return x < y;
  }
  return a[1] < b[1];
}

/** The frames of other histories this seat knows, what it has judged, and counts. */
export class Forks {
  /** @param {(text: string) => void} [log] what is worth a line in a log */
  constructor(log = null) {
    this.foreign = new Map();   // hash hex -> Frame, oldest first
    this.signed = new Map();    // seat -> Set of its frames' hash hex in `foreign`, oldest first
    this.barred = new Map();    // seat -> the rule it broke on another history
    this.states = new Map();    // hash hex -> the state after that foreign frame, if valid
    this.judged = new Set();    // "their tip hex our head hex"
    this.met = new Set();       // the rivals met, by hash hex
    this.switched = 0;          // places this seat gave up to a rival
    this.log = log ?? (() => {});
  }

  /** How many distinct rivals this seat has met. */
  get seen() {
    return this.met.size;
  }

  /**
   * The frames a store superseded (12.4), kept as frames of other histories.
   * @param {{superseded: () => Promise<Uint8Array[]>, setup: {suite: object}}} store
   */
  static async of(store, log = null) {
    const forks = new Forks(log);
    for (const wire of await store.superseded()) forks.keep(parseFrame(wire, store.setup.suite));
    return forks;
  }

  keep(frame) {
    if (this.barred.has(frame.seat)) return;
    const id = toHex(frame.hash);
    this.foreign.set(id, frame);
    if (!this.signed.has(frame.seat)) this.signed.set(frame.seat, new Set());
    const mine = this.signed.get(frame.seat);
    mine.add(id);   // a frame kept again keeps its place in the order, as in a dict
    while (mine.size > MAX_FOREIGN_PER_SEAT) this.forget(mine.values().next().value);
  }

  forget(id) {
    const frame = this.foreign.get(id);
    this.foreign.delete(id);
    this.signed.get(frame.seat).delete(id);
    this.states.delete(id);
  }

  /** `frame` broke the rules after a valid prefix of another history: its signer cheats. */
  bar(frame, why) {
    this.barred.set(frame.seat, why.code);
    this.log(`seat ${frame.seat} signed frame ${frame.seq} of another history breaking `
      + `${why.code}; its frames of other histories are no longer kept`);
    for (const id of [...(this.signed.get(frame.seat) ?? [])]) this.forget(id);
  }

  /**
   * If `wire` is a validly signed frame of another history, keep it; if it and the frames
   * kept before link it back to a rival of a frame this seat holds, return that place and
   * the rival's branch: [place, frames]. Null otherwise.
   * @param {import("../protocol/referee.js").Referee} ref
   * @param {Uint8Array} wire
   */
  branchOf(ref, wire) {
    let frame;
    try {
      frame = parseFrame(wire, ref.game.suite);
    } catch (exc) {
      if (exc instanceof EncodingError) return null;
      throw exc;
    }
    const n = ref.frames.length;
    if (!bytesEqual(frame.gameId, ref.game.gameId)
        || (frame.seq < n && bytesEqual(frame.hash, ref.frames[frame.seq].hash))
        || (frame.seq === n && bytesEqual(frame.prev, ref.state.prev))) {
      return null;   // not of this game, ours, or simply the next frame
    }
    if (this.barred.has(frame.seat)) return null;
    try {
      authenticate(ref.game, wire, frame.seq);
    } catch (exc) {
      if (exc instanceof Violation) return null;   // anyone can put a seat number on garbage
      throw exc;
    }
    this.keep(frame);   // early frames too: a branch may come in any order
    const path = [frame];
    while (path[0].seq > n || !bytesEqual(path[0].prev, ref.stateBefore(path[0].seq).prev)) {
      const parent = this.foreign.get(toHex(path[0].prev));
      if (parent === undefined || parent.seq !== path[0].seq - 1 || path.length > MAX_BRANCH) {
        return null;   // where it parts from our chain is not known (yet)
      }
      path.unshift(parent);
    }
    const root = path[0];
    if (root.seq >= n || !rivals(ref.frames[root.seq], root)) return null;
    return [root.seq, this.chain(ref, root).slice(0, MAX_BRANCH)];
  }

  /**
   * `root` and the chain its kept successors give: where they fork, the successor whose
   * own chain comes first by the rule at that place, so that the same frames give the
   * same branch whatever order they came in.
   */
  chain(ref, root) {
    const children = new Map();
    for (const f of this.foreign.values()) {
      const id = toHex(f.prev);
      if (!children.has(id)) children.set(id, []);
      children.get(id).push(f);
    }
    const game = ref.game;
    const start = ref.stateBefore(root.seq);
    const best = new Map();

    const tail = (frames) => {
      const last = frames[frames.length - 1];
      const id = toHex(last.hash);
      if (best.has(id)) return best.get(id);
      best.set(id, []);
      if (!this.states.has(id)) branch(game, start, frames, this.states);   // keeps it if valid
      const state = this.states.get(id);
      if (state === undefined || frames.length >= MAX_BRANCH) return [];
      let found = null;
      for (const kid of children.get(id) ?? []) {
        const sub = branch(game, state, [kid, ...tail([...frames, kid])], this.states);
        const broken = sub.broken;
        // Only the frame's own fault bars its signer: a share that opens a seal of
        // garbage blames the seal's committer, not the declarer that signed it.
        if (!sub.frames.length && broken !== null && broken.authenticated
            && broken.seat === kid.seat) {
          this.bar(kid, broken);
        } else if (sub.frames.length) {
          const rank = [sub.key, toHex(kid.hash)];
          if (found === null || before(rank, found[0])) found = [rank, [...sub.frames]];
        }
      }
      best.set(id, found === null ? [] : found[1]);
      return best.get(id);
    };

    return [root, ...tail([root])];
  }

  /**
   * The frames to go on with if the branch `frames` takes `place` from the chain this seat
   * holds (protocol/fork.js), or if its first frame breaks the rules there (the referee
   * then keeps the violation, as a seat that saw it first would have); null if ours keeps
   * the place. A branch judged before, against the same head of ours, is not judged again.
   */
  judge(ref, place, frames) {
    const key = `${toHex(frames[frames.length - 1].hash)} ${toHex(ref.state.prev)}`;
    if (this.judged.has(key)) return null;
    this.met.add(toHex(frames[0].hash));
    const theirs = branch(ref.game, ref.stateBefore(place), frames, this.states);
    if (!theirs.frames.length) {
      if (theirs.broken !== null && theirs.broken.authenticated) return frames.slice(0, 1);
    } else if (takesPlace(theirs, ref.branch(place))) {
      return [...theirs.frames];
    }
    if (this.judged.size >= MAX_JUDGED) this.judged.clear();
    this.judged.add(key);
    return null;
  }

  /** Rewind the referee and the store to place `seq`, keeping what was dropped. */
  async giveUp(store, ref, seq) {
    for (const lost of ref.rewind(seq)) this.keep(lost);
    await store.rewind(seq);
    this.switched += 1;
  }

  /**
   * Whether `wire` is a frame of this game built on a history this seat does not hold (its
   * prev is not the hash this chain has before its seq).
   */
  static elsewhere(ref, wire) {
    let frame;
    try {
      frame = parseFrame(wire, ref.game.suite);
    } catch (exc) {
      if (exc instanceof EncodingError) return false;
      throw exc;
    }
    return bytesEqual(frame.gameId, ref.game.gameId) && frame.seq <= ref.frames.length
      && !bytesEqual(frame.prev, ref.stateBefore(frame.seq).prev);
  }

  /**
   * What to send a seat whose chain of `have` frames differs from ours: our chain from a
   * little before its length on, then our ABSENT frames before that.
   */
  static shown(ref, have) {
    const start = Math.max(0, Math.min(have, ref.frames.length) - MAX_SHOWN / 2);
    const near = ref.frames.slice(start, start + MAX_SHOWN).map((f) => f.wire);
    const absent = ref.frames.slice(0, start).filter((f) => f.type === MessageType.ABSENT)
      .map((f) => f.wire);
    return [...near, ...absent.slice(-MAX_SHOWN)];
  }
}
