/**
 * Typed errors, split by who is to blame (spec/01-notation.md 1.4); mirrors
 * protocol/errors.py.
 *
 * Nothing in `protocol/` reports failure with a bare boolean: a check returns nothing or
 * throws one of these. Each carries a stable machine-readable `code` (the rule that was
 * broken, as the spec lists it) and a human-readable `detail`.
 * @module protocol/errors
 */

/** Base of every error thrown by the protocol package (1.4). */
export class DealerlessError extends Error {
  /**
   * @param {string} code the spec's code, such as `point/length`
   * @param {string} [detail] what was wrong, for people
   */
  constructor(code, detail = "") {
    super(detail ? `${code}: ${detail}` : code);
    this.name = new.target.name;
    this.code = code;
    this.detail = detail;
  }
}

/** Received bytes or values do not decode under the strict rules of the spec. */
export class EncodingError extends DealerlessError {}

/** A zero-knowledge proof failed to verify. */
export class ProofError extends DealerlessError {}

/** A deck operation got inputs that break its preconditions (spec/05-deck.md). */
export class DeckError extends DealerlessError {}

/** Our own caller misused the API: a bug on this side, not a remote fault. */
export class LocalError extends DealerlessError {}

/**
 * A sealed commitment, its opening or a decryption share breaks a rule of
 * spec/06-proofs.md 6.6. `seat` is the seat to blame: the committer for the seal, its
 * opening and its plaintext, the sender for a decryption share.
 */
export class SealError extends DealerlessError {
  /**
   * @param {string} code
   * @param {string} detail
   * @param {number} seat
   */
  constructor(code, detail, seat) {
    super(code, detail);
    this.seat = seat;
  }
}

/**
 * A frame breaks the protocol (spec/10-session.md 10.5).
 *
 * `seat` is the seat to blame, or null when no seat can be named (bytes that do not even
 * parse). `frame` is the index (seq) of the offending frame. `authenticated` is false when
 * the frame's signature did not verify: then the seat is only the one the frame claims to
 * come from, and the frame is no evidence against it.
 */
export class Violation extends DealerlessError {
  /**
   * @param {string} code
   * @param {string} detail
   * @param {number|null} seat
   * @param {number|null} frame
   * @param {boolean} [authenticated]
   */
  constructor(code, detail, seat, frame, authenticated = true) {
    super(code, detail);
    this.seat = seat ?? null;
    this.frame = frame ?? null;
    this.authenticated = Boolean(authenticated) && this.seat !== null;
  }

  /**
   * One line for logs. A violation that is no evidence names no culprit
   * (spec/11-verify.md 11.1): the seat the frame claims is not proven to have sent it.
   * @returns {string}
   */
  describe() {
    let who;
    if (this.seat === null) who = "no seat can be named";
    else if (this.authenticated) who = `seat ${this.seat}`;
    else who = `not proven against any seat; the frame names seat ${this.seat}`;
    const where = this.frame !== null ? `frame ${this.frame}` : "the transcript";
    return `${where}: ${this.code} (${who}): ${this.detail}`;
  }
}
