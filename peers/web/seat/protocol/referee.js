// The referee: one game's accepted chain of frames (spec/10-session.md 10.7), as
// protocol/referee.py.
//
// Every seat runs one Referee and feeds it every frame it sees, its own included; the
// verifier runs the same class over a transcript. It wraps the pure `applyFrame` with
// what a live table needs: the accepted frames, duplicate detection (a relay may deliver
// a frame twice), equivocation detection (two different frames signed by one seat for one
// step), and an absorbing error state once a seat is proven to have cheated.

import { openedOrders } from "./commit_reveal.js";
import { LocalError, Violation } from "./errors.js";
import { Branch } from "./fork.js";
import { MessageType, bytesEqual } from "./frames.js";
import { Game } from "./game.js";
import { AbsentBody, ChooseBody, MoveBody } from "./messages.js";
import { Orders } from "./rules/mined_round.js";
import { applyFrame, authenticate, awaiting, finalOutcome } from "./session.js";
import { Phase } from "./state.js";
import { Transcript } from "./transcript.js";

/**
 * What a second signed frame for an accepted step proves (10.7): the same seat signing
 * two different frames for one place is equivocation; another seat signing a frame on the
 * same chain position (same prev and state hash) signed out of turn, except the rivals of
 * 10.8. Anything else proves nothing (null).
 */
export function earlierStepViolation(accepted, other) {
  if (!bytesEqual(other.gameId, accepted.gameId) || other.seq !== accepted.seq) return null;
  // Built on another history: after a contested place an honest seat may have signed
  // this seq on both branches.
  if (!bytesEqual(other.prev, accepted.prev)) return null;
  if ((accepted.type === MessageType.ABSENT || other.type === MessageType.ABSENT)
      && other.seat !== accepted.seat) {
    return null; // rivals for one place (10.8): both were allowed there
  }
  if (other.seat === accepted.seat && !bytesEqual(other.wire, accepted.wire)) {
    return new Violation("frame/equivocation",
      `seat ${other.seat} signed two different frames for step ${other.seq}`, other.seat,
      other.seq);
  }
  if (other.seat !== accepted.seat && bytesEqual(other.stateHash, accepted.stateHash)) {
    return new Violation("frame/out-of-turn", `seat ${accepted.seat} owed step ${other.seq}, `
      + `but seat ${other.seat} signed a frame for it`, other.seat, other.seq);
  }
  return null;
}

/** Opened orders of a stage for people (rules/mined-games.md 4.1). */
export function ordersText(orders) {
  if (orders === null || orders === undefined) return "opens its map-seed nonce";
  if (typeof orders[0] === "number" || typeof orders[0] === "bigint") {
    return `starts on B1 r${orders[0]} c${orders[1]}`;
  }
  return new Orders(orders[0], orders[1]).text();
}

/** An accepted OPEN, ABSENT or CHOOSE frame for people (10.8), from the states around it. */
export function stageText(game, before, after, frame) {
  if (frame.type === MessageType.ABSENT) {
    const body = AbsentBody.decode(game.suite, frame.body, frame.seat);
    const absent = before.rulesState.absent;
    let text;
    if (absent !== null && absent[1].some(([d]) => d === frame.seat)) {
      text = `posts its share of seat ${body.seat}'s seal in stage ${body.stage}`;
    } else {
      text = `declares seat ${body.seat} absent in stage ${body.stage}`
        + (body.share !== null ? " with its share" : "");
    }
    const withheld = after.rulesState.withheld;
    if (withheld.length > before.rulesState.withheld.length) {
      const by = withheld[withheld.length - 1][2].join(", ");
      text += `; seats ${by} open its seal: ${ordersText(openedOrders(game, before, frame))}`;
    }
    return text;
  }
  if (frame.type === MessageType.CHOOSE) {
    return `names seat ${ChooseBody.decode(frame.body).seat} the elimination candidate`;
  }
  return ordersText(openedOrders(game, before, frame));
}

/**
 * One game's accepted chain (10.7): what a seat (or a verifier) holds of a game. Feed it
 * every frame seen, this seat's own included; `state` is the public state the next frame
 * applies to, `frames` the accepted frames, `violation` a proven cheat, kept for good.
 */
export class Referee {
  /** @param {import("./setup.js").GameSetup} setup the agreed setup (8.2) */
  constructor(setup) {
    this.game = new Game(setup);
    this.state = this.game.initialState();
    this.frames = [];
    this.evidence = [];
    this.violation = null;
    this._offending = null; // the frame that proved `violation`
    this._before = []; // the state each accepted frame applied to
    this._stageMoves = []; // a simultaneous game's moves for people (10.8)
  }

  /** [seat, type] owing the next frame, or null (done, or a violation is kept). */
  get awaiting() { return this.violation ? null : awaiting(this.state); }

  /** The frame that proved the kept violation (null when it is an evidence record). */
  get offendingFrame() { return this._offending; }

  get complete() { return this.violation === null && this.state.phase === Phase.DONE; }

  outcome() { return finalOutcome(this.game, this.state); }

  /**
   * Apply one frame. Returns it, or null for an exact duplicate of an accepted frame.
   * Throws Violation. An authenticated violation is final: the referee keeps it and the
   * offending frame, and refuses everything after. A frame that is no evidence against its
   * seat (bad signature, another game, out of place) is reported but changes nothing.
   * With `dedupe` false (replaying a transcript) a repeated frame is out of place.
   * @param {Uint8Array} wire a frame's wire bytes (8.4)
   * @param {boolean} [dedupe]
   * @returns {import("./frames.js").Frame|null} the accepted frame, or null for a duplicate
   * @throws {Violation} `.code`, `.seat` (null if none can be named), `.frame`,
   *   `.authenticated` (false: the frame is no evidence against `.seat`)
   */
  receive(wire, dedupe = true) {
    if (this.violation !== null) throw this.violation;
    let frame;
    let before;
    let state;
    try {
      frame = authenticate(this.game, wire, this.frames.length);
      if (dedupe && bytesEqual(frame.gameId, this.game.gameId)
          && frame.seq < this.frames.length) {
        this._checkEarlier(frame);
        return null;
      }
      before = this.state;
      state = applyFrame(this.game, before, frame);
    } catch (exc) {
      if (exc instanceof Violation && exc.authenticated) {
        this.violation = exc;
        const last = this.evidence[this.evidence.length - 1];
        if (last === undefined || !bytesEqual(last, wire)) this._offending = wire;
      }
      throw exc;
    }
    this._before.push(before);
    this.state = state;
    this.frames.push(frame);
    if (this.game.simultaneous && [MessageType.OPEN, MessageType.ABSENT, MessageType.CHOOSE]
      .includes(frame.type)) {
      this._stageMoves.push({ frame: frame.seq, seat: frame.seat,
        move: stageText(this.game, before, this.state, frame) });
    }
    return frame;
  }

  /** The state accepted frame `seq` applied to (the current state for the next). */
  stateBefore(seq) {
    return seq === this.frames.length ? this.state : this._before[seq];
  }

  /** The branch this chain holds from place `seq` (10.8): its frames from there. */
  branch(seq) {
    const frames = this.frames.slice(seq);
    return Branch.of(this.game.suite, frames, this.stateBefore(seq),
      frames.map((f) => this.stateBefore(f.seq + 1)));
  }

  /**
   * Drop the accepted frames from `seq` on and return them: a rival took place `seq`
   * (10.8). Nothing is rewound past a kept violation.
   */
  rewind(seq) {
    if (this.violation !== null || !(seq >= 0 && seq <= this.frames.length)) {
      throw new LocalError("referee/rewind", `cannot rewind to step ${seq}`);
    }
    const dropped = this.frames.slice(seq);
    this.state = this.stateBefore(seq);
    this.frames.length = seq;
    this._before.length = seq;
    this._stageMoves = this._stageMoves.filter((m) => m.frame < seq);
    return dropped;
  }

  /** A frame for a step already taken: a harmless duplicate, or proof of cheating. */
  _checkEarlier(frame) {
    const accepted = this.frames[frame.seq];
    if (bytesEqual(frame.wire, accepted.wire)) return;
    if (!bytesEqual(frame.prev, accepted.prev)) {
      throw new Violation("frame/chain", `step ${frame.seq} of another history`, frame.seat,
        frame.seq, false);
    }
    const proof = earlierStepViolation(accepted, frame);
    if (proof === null) {
      throw new Violation("frame/sequence", `step ${frame.seq} was taken by seat `
        + `${accepted.seat}`, frame.seat, frame.seq, false);
    }
    this.evidence.push(frame.wire);
    throw proof;
  }

  /**
   * Accepted frames, then the frame that proved a violation, then any evidence (8.6);
   * `.encode()` gives the file's bytes.
   * @returns {Transcript}
   */
  transcript() {
    const frames = this.frames.map((f) => f.wire);
    if (this._offending !== null) frames.push(this._offending);
    return new Transcript(this.game.setup, frames, this.evidence);
  }

  /** The text of the accepted OPEN, ABSENT or CHOOSE frame `seq` (10.8). */
  stageMove(seq) {
    return String(this._stageMoves.find((m) => m.frame === seq).move);
  }

  /**
   * The moves made so far, in order, as {frame, seat, move} with the move's text; in a
   * simultaneous game, the opened orders, declarations and the winner's choice.
   */
  moves() {
    const rules = this.game.rules;
    if (this.game.simultaneous) return [...this._stageMoves];
    return this.frames.filter((f) => f.type === MessageType.MOVE).map((f) => ({
      frame: f.seq, seat: f.seat,
      move: rules.moveText(rules.moveFromId(MoveBody.decode(this.game.suite, f.body).moveId)),
    }));
  }
}
