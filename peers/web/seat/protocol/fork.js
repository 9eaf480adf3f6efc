// Two frames for one place: which one the chain keeps (spec/10-session.md 10.8), as
// protocol/fork.py.
//
// In a simultaneous game two seats may each sign a valid frame on the same prefix: the
// seat that owes a KEY, COMMIT or OPEN answers late while another declares it absent, or
// two seats declare it absent at once. Such frames are rivals, not evidence (10.7). Every
// seat settles the place with the same rule, from the rivals' branches (each rival with
// the valid frames known to follow it):
//   1. the branch that opened more seals keeps the place;
//   2. then the one holding decryption shares of more seals it did not open;
//   3. then the one more seats signed after the place;
//   4. otherwise the owed KEY, COMMIT or OPEN before a declaration, then the lower seat.

import { Violation } from "./errors.js";
import { MessageType, bytesEqual, toHex } from "./frames.js";
import { AbsentBody } from "./messages.js";
import { applyFrame } from "./session.js";

/**
 * Whether `other` competes with `held` for its place: the same game, seq and prev,
 * another seat, and at least one of the two an ABSENT.
 */
export function rivals(held, other) {
  return bytesEqual(other.gameId, held.gameId) && other.seq === held.seq
    && bytesEqual(other.prev, held.prev) && other.seat !== held.seat
    && (held.type === MessageType.ABSENT || other.type === MessageType.ABSENT);
}

/** Rule 4, lower first: [is an ABSENT, seat]. */
export function rank(frame) {
  return [frame.type === MessageType.ABSENT, frame.seat];
}

/**
 * What the accepted `frame` discloses of a seal, given the states around it (10.8):
 * [true, [stage, committer]] when it opens the seal (an OPEN, or the share that completes
 * the table's opening), [false, seal] when it posts a share of it, null otherwise.
 */
export function discloses(suite, frame, before, after) {
  if (frame.type === MessageType.OPEN) return [true, [before.rulesState.stage, frame.seat]];
  if (frame.type !== MessageType.ABSENT) return null;
  const body = AbsentBody.decode(suite, frame.body, frame.seat);
  if (body.share === null) return null;
  return [after.rulesState.absent === null, [body.stage, body.seat]];
}

/**
 * A frame at a contested place and the valid frames known to follow it on its chain, in
 * order: the seals they opened, the other seals they posted shares of, and the seats that
 * signed them. `broken`: why the frame after the last one kept is not part of the branch.
 */
export class Branch {
  constructor(frames, opened, shared, signers, broken = null) {
    Object.assign(this, { frames, opened, shared, signers, broken });
    Object.freeze(this);
  }

  /** The branch of `frames` on the state `before` the place, given the state after each. */
  static of(suite, frames, before, states, broken = null) {
    const opened = new Set();
    const shared = new Set();
    const priors = [before, ...states].slice(0, states.length);
    frames.forEach((frame, i) => {
      const found = discloses(suite, frame, priors[i], states[i]);
      if (found !== null) (found[0] ? opened : shared).add(found[1].join("/"));
    });
    const sharedOnly = [...shared].filter((s) => !opened.has(s)).length;
    return new Branch([...frames], opened.size, sharedOnly,
      new Set(frames.map((f) => f.seat)).size, broken);
  }

  /** The frame at the place. */
  get head() { return this.frames[0]; }

  /** How many seals it disclosed, whole or in part. */
  get revealing() { return this.opened + this.shared; }

  /** The branch's place in the order of rivals (10.8): lowest keeps the place. */
  get key() { return [-this.opened, -this.shared, -this.signers, ...rank(this.head)]; }
}

/** Lexicographic order of two keys (numbers and booleans). */
function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) {
    const x = Number(a[i]);
    const y = Number(b[i]);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * The branch of `frames` (a rival, then the frames built on it, in order) on the state
 * `before` the place: as far as they are valid there. `known` (a Map of a frame hash's
 * hex to the state after it) lets a growing branch cost one check a frame, not a replay.
 */
export function branch(game, before, frames, known = null) {
  const kept = [];
  const states = [];
  let broken = null;
  let state = before;
  for (const frame of frames) {
    if (kept.length && !bytesEqual(frame.prev, kept[kept.length - 1].hash)) break;
    const id = known === null ? null : toHex(frame.hash);
    let after = known === null ? undefined : known.get(id);
    if (after === undefined) {
      try {
        after = applyFrame(game, state, frame);
      } catch (exc) {
        if (!(exc instanceof Violation)) throw exc;
        broken = exc;
        break;
      }
      if (known !== null) known.set(id, after);
    }
    kept.push(frame);
    states.push(after);
    state = after;
  }
  return Branch.of(game.suite, kept, before, states, broken);
}

/**
 * Whether the rival branch `challenger` takes the place of `held` (10.8 rules 1-4). Of
 * two rival branches exactly one takes the place.
 */
export function takesPlace(challenger, held) {
  if (!challenger.frames.length || !held.frames.length || !rivals(held.head, challenger.head)) {
    return false;
  }
  return compareKeys(challenger.key, held.key) < 0;
}
