/**
 * What a seat's game loop reports to the page (spec/12-peers.md 12.6, 12.8); mirrors the
 * events and helpers of peers/table/driver.py. The loop (net/peer.js) runs one seat and
 * reports what happens as events; when its seat must choose, it awaits an async chooser
 * (a person on the page, or a bot). The page never touches the protocol objects beyond
 * the SeatView it is shown.
 *
 * Each event is a frozen object with a `type`: "step", "view", "end", "notice", "setup"
 * or "lobby"; its other fields are the Python dataclass's, in camelCase.
 * @module table/driver
 */

import { MessageType, typeLabel } from "../protocol/frames.js";
import { MoveBody } from "../protocol/messages.js";

/**
 * A frame was accepted; `note` says what was checked (shown as verification status).
 * @param {number} seq @param {number} seat @param {string} kind @param {string} note
 */
export function StepEvent(seq, seat, kind, note) {
  return Object.freeze({ type: "step", seq, seat, kind, note });
}

/**
 * The position changed: what this seat may see now (`view` a protocol/seat.js SeatView),
 * the hand sizes, and [seat, frame label] of who owes the next frame, or null.
 */
export function ViewEvent(view, handCounts, awaiting) {
  return Object.freeze({ type: "view", view, handCounts: Object.freeze([...handCounts]),
    awaiting: awaiting === null ? null : Object.freeze([...awaiting]) });
}

/**
 * The game is over (or stopped): the verdict of the saved transcript (a
 * protocol/verifier.js Verdict), the transcript's bytes, and what to tell the person.
 */
export function EndEvent(verdict, transcript, message) {
  return Object.freeze({ type: "end", verdict, transcript, message });
}

/** Something the person should read (a line for the log). */
export function NoticeEvent(text) {
  return Object.freeze({ type: "notice", text });
}

/**
 * A networked game's setup is agreed: who the opponents are and what to compare (12.2).
 * `gameId` in hex; `rules` the rules with their parameters; `opponent` the opponent's
 * fingerprint (with more than two seats every other seat's, "seat 2: SHA256:..."); `sas`
 * the short authentication string every player reads out; `seats`; `suite` (3.5).
 */
export function SetupEvent(gameId, seat, rules, opponent, sas, seats = 2,
                           suite = "ristretto255-sha512") {
  return Object.freeze({ type: "setup", gameId, seat, rules, opponent, sas, seats, suite });
}

/**
 * A host's table filling up: for each joining seat 1..seats-1 the fingerprint of the
 * player who first asked for it (null while nobody has), and how many seats there are.
 */
export function LobbyEvent(joined, seats) {
  return Object.freeze({ type: "lobby", joined: Object.freeze([...joined]), seats });
}

/** What each accepted frame's check proved, by type (the Python's NOTES). */
export const NOTES = Object.freeze({
  [MessageType.KEY]: "key share and Schnorr proof verified",
  [MessageType.NONCE]: "first-player commitment opened",
  [MessageType.SHUFFLE]: "shuffle proof verified",
  [MessageType.DEAL]: "decryption shares of the deal verified",
  [MessageType.MOVE]: "move checked",
  [MessageType.REVEAL]: "reveal shares verified",
  [MessageType.DRAW]: "share of the drawn tile verified (only the drawer can open it)",
  [MessageType.COMMIT]: "seal of secret orders verified (a majority of the others can open it)",
  [MessageType.OPEN]: "the seal opened, and its orders obey the rules",
  [MessageType.ABSENT]: "the owing seat missed its deadline (any decryption share proven)",
  [MessageType.CHOOSE]: "the winner named the elimination candidate",
});

/**
 * The StepEvent of an accepted frame.
 * @param {import("../protocol/referee.js").Referee} referee
 * @param {import("../protocol/frames.js").Frame} frame
 */
export function describe(referee, frame) {
  let note = NOTES[frame.type];
  if (frame.type === MessageType.SHUFFLE) {
    note = `${note} (${referee.game.deckTiles.length} tiles)`;
  } else if ([MessageType.OPEN, MessageType.ABSENT, MessageType.CHOOSE].includes(frame.type)) {
    note = `${referee.stageMove(frame.seq)}: ${note}`;
  } else if (frame.type === MessageType.MOVE) {
    const rules = referee.game.rules;
    const body = MoveBody.decode(referee.game.suite, frame.body);   // the step has checked it
    const move = rules.moveFromId(body.moveId);
    const text = rules.moveText(move);
    const tile = rules.playedTile(move);
    if (tile !== null && tile !== undefined) {
      note = `${text}: tile opened with a proven share, placement legal`;
    } else if (body.claim !== null) {
      note = `${text}: proven in zero knowledge that no tile in hand could be played`;
    } else {
      note = text;
    }
  }
  return StepEvent(frame.seq, frame.seat, typeLabel(frame.type), note);
}

/**
 * The ViewEvent of `view` at the referee's present position.
 * @param {import("../protocol/referee.js").Referee} referee
 * @param {import("../protocol/seat.js").SeatView} view
 */
export function viewEvent(referee, view) {
  const due = referee.awaiting;
  const rs = referee.state.rulesState;
  const counts = rs !== null && rs !== undefined && Array.isArray(rs.handCounts)
    ? rs.handCounts : [];
  return ViewEvent(view, counts, due === null ? null : [due[0], typeLabel(due[1])]);
}

/**
 * A rule set's name with its parameters as `dealerless` prints them in a SetupEvent (the
 * Python's `f"{setup.rules} {dict(setup.params)}"`): `bram {'komi_halves': 1}`.
 * @param {{rules: string, params: Array<[string, *]>}} setup
 */
export function rulesText(setup) {
  const repr = (v) => {
    if (v === null || v === undefined) return "None";
    if (typeof v === "boolean") return v ? "True" : "False";
    if (typeof v === "string") return `'${v.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
    if (v instanceof Uint8Array) return `b'${[...v].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}'`;
    if (Array.isArray(v)) return `[${v.map(repr).join(", ")}]`;
    return String(v);
  };
  const params = setup.params instanceof Map ? [...setup.params] : setup.params;
  return `${setup.rules} {${params.map(([k, v]) => `${repr(k)}: ${repr(v)}`).join(", ")}}`;
}
