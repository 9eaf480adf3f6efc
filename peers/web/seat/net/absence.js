/**
 * When a seat declares a silent seat absent (spec/10-session.md 10.8, spec/12-peers.md
 * 12.3 "Play" step 5); mirrors peers/net/absence.py.
 *
 * Only simultaneous games declare absence: a seat that owes a KEY, COMMIT or OPEN past the
 * timeout may be declared absent by any other eligible seat, in any order (against a
 * sealed OPEN, once t holders have declared, each posts its decryption share soon after).
 * Every eligible seat declares once the owing seat has been silent for the whole timeout
 * by its own clock, so that one seat declaring too early cannot make the others act on a
 * seat still in time; the eligible seats are staggered by a fraction of the timeout,
 * counted from the seat after the owing one, so that two honest seats rarely race for the
 * same step. Times are seconds on net/pacing.js's monotonic clock.
 * @module net/absence
 */

import { MessageType } from "../protocol/frames.js";
import { monotonic } from "./pacing.js";

/** The frames whose silence a declaration of absence answers. */
export const ANSWERED = Object.freeze([MessageType.KEY, MessageType.COMMIT, MessageType.OPEN]);
/** The stagger between two eligible declarers, as a fraction of the timeout. */
export const STAGGER = 0.5;
/** The stagger between two holders posting their decryption shares, likewise. */
export const SHARE_STAGGER = 0.1;

/** `map.get(key)`, first setting it to `value` if it has none (Python's setdefault). */
function setDefault(map, key, value) {
  if (!map.has(key)) map.set(key, value);
  return map.get(key);
}

/** This seat's clock on the other seats' silence. */
export class AbsenceClock {
  /**
   * @param {number} moveTimeout seconds
   * @param {() => number} [clock] monotonic seconds
   */
  constructor(moveTimeout, clock = monotonic) {
    this.timeout = moveTimeout;
    this.clock = clock;
    // "stage seat type" -> when this seat first saw that seat owe that frame.
    this.silentSince = new Map();
    // The same key -> when this seat first saw t holders declare it (10.8).
    this.sharingSince = new Map();
  }

  /**
   * Forget every clock: after a rewind silence and the t-th declaration are judged afresh
   * on the new chain, so that this seat never acts at once on a frame it has not seen there.
   */
  restart() {
    this.silentSince.clear();
    this.sharingSince.clear();
  }

  /** The clock's key for the frame the game now waits for, or null if none is answered. */
  key(ref) {
    const due = ref.awaiting;
    if (!ref.game.simultaneous || due === null || !ANSWERED.includes(due[1])) return null;
    return `${ref.state.rulesState.stage} ${due[0]} ${due[1]}`;
  }

  /**
   * Start the clock on the seat the game now waits for, if it owes another's frame.
   * @param {import("../protocol/referee.js").Referee} ref
   * @param {number} me
   */
  watch(ref, me) {
    const key = this.key(ref);
    if (key !== null && ref.awaiting[0] !== me) setDefault(this.silentSince, key, this.clock());
  }

  /**
   * The seats that may declare the owing seat absent (10.8), from the seat after it (none
   * when only one could: the game then stalls).
   */
  eligible(ref) {
    const owing = ref.awaiting[0];
    const k = ref.game.seats;
    const seats = [...ref.game.stages.declarers(ref.state.rulesState, owing)];
    return seats.sort((a, b) => ((a - owing + k) % k) - ((b - owing + k) % k));
  }

  /**
   * Seconds until this seat declares the owing seat absent (0 or less: now), or null if it
   * may not (it owes the frame itself, is not eligible, or has declared).
   * @param {import("../protocol/referee.js").Referee} ref
   * @param {import("../protocol/seat.js").SeatAgent} agent
   */
  declareIn(ref, agent) {
    const key = this.key(ref);
    if (key === null || !agent.mayDeclare(ref.state)) return null;
    const slot = this.eligible(ref).indexOf(agent.seat);
    if (agent.sharesNow(ref.state)) {
      // t holders have declared, so the deadline has passed: the shares only complete
      // what they agreed on, a short stagger apart so that holders rarely race.
      const since = setDefault(this.sharingSince, key, this.clock());
      return since + this.timeout * SHARE_STAGGER * slot - this.clock();
    }
    const since = setDefault(this.silentSince, key, this.clock());
    return since + this.timeout * (1 + STAGGER * slot) - this.clock();
  }

  /**
   * Seconds until this seat stops waiting for the owing seat: every eligible seat has had
   * its turn to declare and a timeout more. Null for a frame no declaration answers (a
   * deck game's, which only its own seat can send).
   */
  giveUpIn(ref) {
    const key = this.key(ref);
    if (key === null) return null;
    const since = setDefault(this.silentSince, key, this.clock());
    const slots = this.eligible(ref).length;
    return since + this.timeout * (2 + STAGGER * slots) - this.clock();
  }
}
