/**
 * When a peer speaks again: back-off for repeats, a limit on answers (spec/12-peers.md
 * 12.3, "Handshake" last paragraph and "Play" step 2); mirrors peers/net/pacing.py.
 *
 * Every peer message is idempotent, so a lost one is simply sent again; these clocks keep
 * the repeats from flooding a link, and a peer's answers from being an amplifier for
 * whoever asks questions on it (anyone on a link may ask: a relay room admits strangers):
 * - a question is answered at most once per half sync interval;
 * - frames are resent in answer to at most RESENDS questions per half interval, and draw on
 *   a byte budget (RESEND_RATE a second, RESEND_BURST at once); an answer is the prefix of
 *   what was asked for that the budget allows;
 * - the other answers (a handshake message repeated, our SYNC, our DONE) are small, and at
 *   most REPLIES per half interval.
 * Times are in seconds; `clock` defaults to a monotonic one.
 * @module net/pacing
 */

/** The longest wait between two SYNCs (or handshake repeats) of a waiting peer, seconds. */
export const MAX_SYNC_INTERVAL = 2.0;
/** Questions answered with frames, and other answers, per half sync interval on a link. */
export const RESENDS = 4;
export const REPLIES = 8;
/** Bytes of frames resent on one link a second, and at most this many at once. */
export const RESEND_RATE = 64 << 10;
export const RESEND_BURST = 256 << 10;

/** Seconds on a monotonic clock. */
export const monotonic = () => performance.now() / 1000;

/** When to send a message again: now, then backing off (x1.5) up to `cap`. */
export class Backoff {
  /** @param {number} first @param {number} cap */
  constructor(first, cap) {
    this.first = first;
    this.cap = cap;
    this.reset();
  }

  reset() {
    this.wait = this.first;
    this.at = 0;
  }

  /** Whether to send now (if so, the next time is set). @param {number} now */
  due(now) {
    if (now < this.at) return false;
    this.at = now + this.wait;
    this.wait = Math.min(this.wait * 1.5, this.cap);
    return true;
  }

  /** Seconds until the next send (at least 0.01). @param {number} now */
  left(now) {
    return Math.max(this.at - now, 0.01);
  }
}

/**
 * A token bucket: `rate` a second, holding at most `burst`. A take may overdraw it; it is
 * then empty until repaid.
 */
export class Bucket {
  constructor(rate, burst, clock = monotonic) {
    this.rate = rate;
    this.burst = burst;
    this.clock = clock;
    this.level = burst;
    this.at = clock();
  }

  left() {
    const now = this.clock();
    this.level = Math.min(this.level + (now - this.at) * this.rate, this.burst);
    this.at = now;
    return this.level;
  }

  take(amount) {
    this.left();
    this.level -= amount;
  }
}

/**
 * The answers of one seat on its link: each question once per half sync interval; RESENDS
 * answers with frames per half interval and RESEND_RATE bytes of them a second; REPLIES
 * other answers per half interval. A question is any string (its key).
 */
export class AnswerLimit {
  constructor(syncInterval, clock = monotonic) {
    this.gap = syncInterval / 2;
    this.clock = clock;
    this.answered = new Map();
    this.replies = new Bucket(REPLIES / this.gap, 2 * REPLIES, clock);
    this.resends = new Bucket(RESENDS / this.gap, 2 * RESENDS, clock);
    this.bytes = new Bucket(RESEND_RATE, RESEND_BURST, clock);
  }

  /** Whether to answer `question` with a small message now (it then counts as answered). */
  mayAnswer(question) {
    return this.fresh(question, this.replies);
  }

  /**
   * The frames to resend in answer to `question`: the longest prefix of `wires()` that the
   * byte budget allows (at least one frame), or none if the question may not be answered
   * now. `wires` is called only for an answer.
   * @param {string} question
   * @param {() => Uint8Array[]} wires
   * @returns {Uint8Array[]}
   */
  resend(question, wires) {
    if (this.bytes.left() <= 0 || !this.fresh(question, this.resends)) return [];
    const out = [];
    for (const wire of wires()) {
      if (this.bytes.left() <= 0) break;
      this.bytes.take(wire.length);
      out.push(wire);
    }
    return out;
  }

  fresh(question, bucket) {
    const now = this.clock();
    if (now - (this.answered.get(question) ?? -1e9) < this.gap || bucket.left() < 1) {
      return false;
    }
    if (this.answered.size > 1024) {   // forget what no longer holds back an answer
      for (const [q, t] of this.answered) if (now - t >= this.gap) this.answered.delete(q);
    }
    this.answered.set(question, now);
    bucket.take(1);
    return true;
  }
}
