// The session: one sans-IO state machine for every seat and the verifier
// (spec/10-session.md), as protocol/session.py.
//
// Theory of operation: `step(game, state, wire)` is the whole protocol. It takes the
// public state and one frame's bytes and returns the next state, or throws a Violation
// naming the seat to blame, the frame and the rule. It never knows which seat "we" are,
// so the same code judges our own frames, the other seats' frames, and a transcript
// replayed by a stranger. The phase machine is the table `PHASES`: (phase, message type)
// -> handler; a pair not in the table is a violation. Within a phase exactly one seat owes
// exactly one kind of message: `awaiting`. The checks of `applyFrame` are numbered as in
// 10.5.

import {
  onAbsent, onChoose, onCommit, onOpen, onSealKey, outOfTurnAllowed,
} from "./commit_reveal.js";
import {
  deckOutcome, onDeal, onDraw, onKey, onMove, onNonce, onReveal, onShuffle,
} from "./deck_phases.js";
import { DealerlessError, EncodingError, LocalError, Violation } from "./errors.js";
import { MessageType, bytesEqual, parseFrame, signedMessage, typeLabel } from "./frames.js";
import { SignatureError } from "./signature.js";
import { Phase } from "./state.js";

/** KEY: a deck game's key share (10.4), or a simultaneous game's share key (10.8). */
export function onKeys(game, state, frame) {
  return (game.simultaneous ? onSealKey : onKey)(game, state, frame);
}

const key = (phase, mtype) => `${phase}/${mtype}`;

/** The phase table (spec/10-session.md 10.2). Nothing else is legal. */
export const PHASES = new Map([
  [key(Phase.KEYS, MessageType.KEY), onKeys],
  [key(Phase.NONCES, MessageType.NONCE), onNonce],
  [key(Phase.SHUFFLE, MessageType.SHUFFLE), onShuffle],
  [key(Phase.DEAL, MessageType.DEAL), onDeal],
  [key(Phase.PLAY, MessageType.MOVE), onMove],
  [key(Phase.DRAW, MessageType.DRAW), onDraw],
  [key(Phase.REVEAL, MessageType.REVEAL), onReveal],
  [key(Phase.COMMIT, MessageType.COMMIT), onCommit],
  [key(Phase.OPEN, MessageType.OPEN), onOpen],
  [key(Phase.CHOOSE, MessageType.CHOOSE), onChoose],
  // Out of turn (10.8): a declaration that the seat owing a simultaneous game's KEY,
  // COMMIT or OPEN is absent, from any other seat.
  [key(Phase.KEYS, MessageType.ABSENT), onAbsent],
  [key(Phase.COMMIT, MessageType.ABSENT), onAbsent],
  [key(Phase.OPEN, MessageType.ABSENT), onAbsent],
]);

/** What the seat to send owes in each phase (an ABSENT is never owed). */
export const EXPECTED = Object.freeze({
  [Phase.KEYS]: MessageType.KEY, [Phase.NONCES]: MessageType.NONCE,
  [Phase.SHUFFLE]: MessageType.SHUFFLE, [Phase.DEAL]: MessageType.DEAL,
  [Phase.PLAY]: MessageType.MOVE, [Phase.DRAW]: MessageType.DRAW,
  [Phase.REVEAL]: MessageType.REVEAL, [Phase.COMMIT]: MessageType.COMMIT,
  [Phase.OPEN]: MessageType.OPEN, [Phase.CHOOSE]: MessageType.CHOOSE,
});

/** [seat, message type] that owes the next frame, or null once the game is done. */
export function awaiting(state) {
  if (state.phase === Phase.DONE || state.turn === null) return null;
  return [state.turn, EXPECTED[state.phase]];
}

/** Checks 1-2 of 10.5: parse the frame and verify its signature. Throws Violation. */
export function authenticate(game, wire, index) {
  let frame;
  try {
    frame = parseFrame(wire, game.suite);
  } catch (exc) {
    if (!(exc instanceof EncodingError)) throw exc;
    throw new Violation(exc.code, exc.detail, null, index);
  }
  if (frame.seat >= game.seats) {
    throw new Violation("frame/unknown-seat", `there is no seat ${frame.seat}`, null, index);
  }
  try {
    game.suite.signer.verify(game.setup.identities[frame.seat],
      signedMessage(frame.version, frame.payload), frame.signature);
  } catch (exc) {
    if (!(exc instanceof SignatureError)) throw exc;
    // Anyone can put a seat number on garbage: the claimed seat is named, but the frame
    // is not evidence against it.
    throw new Violation(exc.code, exc.detail, frame.seat, index, false);
  }
  return frame;
}

/**
 * Apply one frame's bytes to `state` (10.5). Throws Violation.
 * @returns {[import("./state.js").PublicState, import("./frames.js").Frame]}
 */
export function step(game, state, wire) {
  const frame = authenticate(game, wire, state.seq); // 1-2
  return [applyFrame(game, state, frame), frame];
}

/** Checks 3-10 of 10.5 on an authenticated frame; the next state, or throws Violation. */
export function applyFrame(game, state, frame) {
  const index = state.seq;
  const seat = frame.seat;
  const blame = (code, detail) => new Violation(code, detail, seat, index);
  if (!bytesEqual(frame.gameId, game.gameId)) { // 3
    // Identity keys are long-term: a frame of another game proves nothing here.
    throw new Violation("frame/wrong-game", "the frame belongs to another game", seat, index,
      false);
  }
  if (frame.seq !== state.seq) { // 4
    // Out of place (lost, reordered or repeated by the network): not evidence either.
    throw new Violation("frame/sequence", `expected seq ${state.seq}, got ${frame.seq}`, seat,
      index, false);
  }
  if (!bytesEqual(frame.prev, state.prev)) { // 5
    // Built on another history: an honest seat may have signed on another branch.
    throw new Violation("frame/chain", "prev is not the hash of the previous frame", seat,
      index, false);
  }
  if (!bytesEqual(frame.stateHash, state.hash(game.rules, game.suite))) { // 6
    // Same history, different state: that is the sender's doing.
    throw blame("state/hash-mismatch", "the frame commits to a different public state");
  }
  if (state.phase === Phase.DONE) throw blame("frame/after-end", "the game is over"); // 7
  if (seat !== state.turn && !outOfTurnAllowed(game, state, frame)) { // 8
    throw blame("frame/out-of-turn", `seat ${state.turn} owes the next frame`);
  }
  const handler = PHASES.get(key(state.phase, frame.type)); // 9
  if (handler === undefined) {
    throw blame("frame/unexpected-type",
      `${typeLabel(frame.type)} is not allowed in the ${state.phase} phase`);
  }
  let next;
  try {
    next = handler(game, state, frame); // 10
  } catch (exc) {
    // A bug on this side is never blamed on the sender; a Violation names its own.
    if (exc instanceof LocalError || exc instanceof Violation
        || !(exc instanceof DealerlessError)) throw exc;
    throw blame(exc.code, exc.detail);
  }
  return next.with_({ seq: state.seq + 1, prev: frame.hash });
}

/**
 * The result once every seat has revealed (10.6), or for a simultaneous rule set the
 * verdict of its last stage (10.8). Throws RuleViolation (rules/reveal-mismatch) if the
 * opened tiles do not fit the public state.
 */
export function finalOutcome(game, state) {
  if (state.phase !== Phase.DONE) throw new LocalError("session/not-done", "the game is not over");
  if (game.simultaneous) return game.stages.verdict(state.rulesState);
  return deckOutcome(game, state);
}
