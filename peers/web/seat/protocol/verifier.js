// Replay a transcript to a verdict; dispute packages and the single-step check
// (spec/11-verify.md), as protocol/verifier.py.
//
// `replay` runs the same Referee the players ran, from nothing but the file, and returns a
// Verdict: valid and complete (with the outcome), a valid prefix (naming the seat that
// owes the next frame and what it owes), or invalid (naming the seat to blame where one
// can be named, the frame and the rule). A valid prefix proves no forfeit (11.1); what it
// can prove is a winner decided by public play (`Decided`). `checkStep` judges one frame
// from its dispute package alone with the same `step` function (11.4).

import { asArray, asBytes, asInt, asList, pack, unpack } from "./canonical.js";
import { EncodingError, LocalError, Violation } from "./errors.js";
import { MAX_FRAME_BYTES, bytesEqual, toHex, typeLabel } from "./frames.js";
import { Game } from "./game.js";
import { fingerprint } from "./identity.js";
import { Referee, earlierStepViolation } from "./referee.js";
import { Outcome, halvesText } from "./rules/base.js";
import { authenticate, awaiting, step } from "./session.js";
import { GameSetup, MAX_SETUP_BYTES } from "./setup.js";
import { BONEYARD, MAX_STATE_BYTES, Phase, PublicState, sameTile } from "./state.js";
import { tileText } from "./tiles.js";
import { MAX_EVIDENCE, Transcript } from "./transcript.js";
import { checkVersion } from "./version.js";

/** Item 0 of a dispute package (11.3). */
export const DISPUTE_MAGIC = "dealerless/dispute";
/** The largest dispute package: a setup, a state and 17 frames (11.3). */
export const MAX_DISPUTE_BYTES = MAX_SETUP_BYTES + MAX_STATE_BYTES
  + (1 + MAX_EVIDENCE) * MAX_FRAME_BYTES;

/** A winner that public play proves before the last REVEAL (11.2 step 5). */
export class Decided {
  constructor(winner, reason, marginHalves) {
    Object.assign(this, { winner, reason, marginHalves });
    Object.freeze(this);
  }

  toJson() {
    const m = this.marginHalves;
    return { winner: this.winner, reason: this.reason,
      margin: m === null ? null : halvesText(m), margin_halves: m };
  }
}

/**
 * The winner a valid prefix already proves, or null (11.2 step 5): only in the REVEAL
 * phase, and only for a seat that played every position dealt to it. The margin is known
 * once every position except the hidden ones is open.
 */
export function decidedByPlay(game, state) {
  if (state.phase !== Phase.REVEAL) return null;
  const out = [];
  for (let s = 0; s < game.seats; s++) {
    if (state.owners.every((o, p) => o !== s || state.played[p])) out.push(s);
  }
  if (out.length !== 1) return null;
  const hides = game.rules.deal.hidden > 0;
  if (state.opened.some((t, p) => t === null && state.owners[p] >= 0)
      || (hides && state.owners.includes(BONEYARD))) {
    return new Decided(out[0], "out", null);
  }
  const hands = Array.from({ length: game.seats }, () => []);
  state.owners.forEach((owner, p) => {
    if (owner >= 0 && !state.played[p]) hands[owner].push(state.opened[p]);
  });
  const left = hides ? game.deckTiles.filter((t) => !state.opened.some((o) => sameTile(o, t)))
    : [];
  const result = game.rules.outcome(state.rulesState, hands, left);
  return new Decided(out[0], result.reason, result.marginHalves);
}

const violationJson = (v) => ({ seat: v.seat, frame: v.frame, rule: v.code, detail: v.detail,
  authenticated: v.authenticated });

/** What 11.1 reports of a replay. */
export class Verdict {
  constructor(fields) {
    Object.assign(this, { setup: null, violation: null, awaiting: null, outcome: null,
      firstPlayer: null, moves: [], decided: null }, fields);
    Object.freeze(this);
  }

  /** 0 valid and complete, 1 invalid, 3 valid prefix (11.1). */
  get exitCode() { return !this.valid ? 1 : this.complete ? 0 : 3; }

  /** The verdict as 11.1's `--json`. */
  toJson() {
    const out = this.outcome;
    if (out !== null && !(out instanceof Outcome)) {
      // A simultaneous rule set's own verdict (10.8).
      return { ...this._common(), outcome: out.toJson(), hidden_tile: null, decided: null };
    }
    return {
      ...this._common(),
      outcome: out === null ? null : {
        winner: out.winner, winners: [...out.winners], draw: out.winner === null,
        reason: out.reason, pips: out.pipsHalves.map(halvesText),
        pips_halves: [...out.pipsHalves], hand_pips: [...out.handPips],
        margin: halvesText(out.marginHalves), margin_halves: out.marginHalves },
      hidden_tile: out ? out.hidden.map(tileText) : null,
      decided: this.decided === null ? null : this.decided.toJson(),
    };
  }

  _common() {
    const setup = this.setup;
    return {
      valid: this.valid, complete: this.complete, frames: this.frames,
      game_id: setup ? toHex(setup.gameId) : null,
      rules: setup ? { name: setup.rules, params: Object.fromEntries(setup.params) } : null,
      seats: setup ? setup.identities.map((k, i) => ({ seat: i, fingerprint: fingerprint(k) }))
        : [],
      first_player: this.firstPlayer,
      moves: this.moves,
      violation: this.violation === null ? null : violationJson(this.violation),
      awaiting: this.awaiting === null ? null
        : { seat: this.awaiting[0], message: this.awaiting[1] },
    };
  }
}

/** Every evidence record must prove a violation against an accepted frame (11.2). */
function evidenceFinding(ref, wires) {
  const accepted = new Map(ref.frames.map((f, i) => [i, f]));
  let found = null;
  for (const wire of wires) {
    const proof = judgeEvidence(ref.game, accepted, wire);
    if (!proof.authenticated) return proof;
    found ??= proof;
  }
  return found;
}

/**
 * Verify a transcript file from nothing (11.2).
 * @param {Uint8Array} data the file's bytes (8.6)
 * @returns {Verdict} `.valid`, `.complete`, `.violation`, `.awaiting`, `.outcome`; `.toJson()`
 */
export function replay(data) {
  let transcript;
  try {
    transcript = Transcript.decode(data);
  } catch (exc) {
    if (!(exc instanceof EncodingError)) throw exc;
    return new Verdict({ valid: false, complete: false, frames: 0,
      violation: new Violation(exc.code, exc.detail, null, null) });
  }
  const ref = new Referee(transcript.setup);
  for (const wire of transcript.frames) {
    try {
      ref.receive(wire, false);
    } catch (exc) {
      if (!(exc instanceof Violation)) throw exc;
      if (exc.authenticated) return verdictOf(ref, exc);
      // A frame that is no evidence still ends the chain; a proven cheat in the evidence
      // records names the seat really to blame, such as the equivocator of a fork.
      const proven = evidenceFinding(ref, transcript.evidence);
      return verdictOf(ref, proven && proven.authenticated ? proven : exc);
    }
  }
  return verdictOf(ref, evidenceFinding(ref, transcript.evidence));
}

function verdictOf(ref, violation = null) {
  const state = ref.state;
  const due = violation ? null : awaiting(state);
  const complete = violation === null && ref.complete;
  return new Verdict({
    valid: violation === null, complete, frames: ref.frames.length, setup: ref.game.setup,
    violation, awaiting: due === null ? null : [due[0], typeLabel(due[1])],
    outcome: complete ? ref.outcome() : null, firstPlayer: state.firstPlayer,
    moves: ref.moves(), decided: violation ? null : decidedByPlay(ref.game, state),
  });
}

// -- dispute packages (11.3, 11.4) ------------------------------------------------------

/** The hash of the state before each frame, as the replay computes it, until it stops. */
export function committedStateHashes(data) {
  const transcript = Transcript.decode(data);
  const ref = new Referee(transcript.setup);
  const hashes = [ref.state.hash(ref.game.rules, ref.game.suite)];
  for (const wire of transcript.frames) {
    try {
      ref.receive(wire, false);
    } catch (exc) {
      if (exc instanceof Violation) break;
      throw exc;
    }
    hashes.push(ref.state.hash(ref.game.rules, ref.game.suite));
  }
  return hashes;
}

/** The evidence records by the step they were signed for. */
function evidenceBySteps(game, records) {
  const steps = new Map();
  for (const wire of records) {
    try {
      const seq = authenticate(game, wire, null).seq;
      if (!steps.has(seq)) steps.set(seq, []);
      steps.get(seq).push(wire);
    } catch (exc) {
      if (!(exc instanceof Violation)) throw exc;
    }
  }
  return steps;
}

/** The dispute package judging `wire` against `state` (11.3). */
export function makePackage(game, state, wire, evidence = []) {
  return pack([DISPUTE_MAGIC, game.setup.version, game.setup.encode(), state.seq,
    state.encode(game.rules), wire, [...evidence]]);
}

/**
 * The packages of every frame the replay reaches with a committed state, in order (one
 * per frame up to and including the first that fails).
 */
export function* disputePackages(data) {
  const transcript = Transcript.decode(data);
  const ref = new Referee(transcript.setup);
  const evidence = evidenceBySteps(ref.game, transcript.evidence);
  for (const [index, wire] of transcript.frames.entries()) {
    yield makePackage(ref.game, ref.state, wire, evidence.get(index) ?? []);
    try {
      ref.receive(wire, false);
    } catch (exc) {
      if (exc instanceof Violation) return;
      throw exc;
    }
  }
}

/** The package of frame `index` (11.3); LocalError when the replay does not reach it. */
export function disputePackage(data, index) {
  const transcript = Transcript.decode(data);
  if (!(index >= 0 && index < transcript.frames.length)) {
    throw new LocalError("dispute/no-frame", `the transcript has ${transcript.frames.length} `
      + `frames; there is no frame ${index}`);
  }
  let n = 0;
  for (const pkg of disputePackages(data)) if (n++ === index) return pkg;
  throw new LocalError("dispute/after-violation", `the replay stops before frame ${index}; `
    + "it has no committed state to judge it against");
}

/** The verdict of one step (11.4): its violation, or the next state's hash. */
export class StepVerdict {
  constructor(index, violation, nextStateHash) {
    Object.assign(this, { index, violation, nextStateHash });
    Object.freeze(this);
  }

  get valid() { return this.violation === null; }
}

/**
 * Judge one frame from its dispute package alone (11.4). A referee that holds the
 * committed state hash passes it: a package whose state does not match is refused.
 */
export function checkStep(pkg, committedStateHash = null) {
  const obj = asArray(unpack(pkg, MAX_DISPUTE_BYTES), 7, "dispute package");
  if (obj[0] !== DISPUTE_MAGIC) {
    throw new EncodingError("dispute/magic", "not a dealerless dispute package");
  }
  const version = checkVersion(Number(asInt(obj[1], "package version")), "dispute package");
  const setup = GameSetup.decode(asBytes(obj[2], "setup", null, MAX_SETUP_BYTES));
  checkVersion(setup.version, "setup", version);
  const index = asInt(obj[3], "frame index");
  const game = new Game(setup);
  const state = PublicState.decode(asBytes(obj[4], "state", null, MAX_STATE_BYTES),
    game.rules, setup.seats, game.suite);
  if (!bytesEqual(state.gameId, setup.gameId) || state.seq !== index
      || !game.ownersReachable(state.owners)) {
    throw new EncodingError("dispute/state", "the state is not of this game at this frame");
  }
  if (committedStateHash !== null
      && !bytesEqual(state.hash(game.rules, game.suite), committedStateHash)) {
    throw new EncodingError("dispute/state", "the package's state is not the committed one");
  }
  const wire = asBytes(obj[5], "frame", null, MAX_FRAME_BYTES);
  const evidence = asList(obj[6], "evidence", MAX_EVIDENCE)
    .map((e) => asBytes(e, "evidence", null, MAX_FRAME_BYTES));
  let next;
  let frame;
  try {
    [next, frame] = step(game, state, wire);
  } catch (exc) {
    if (!(exc instanceof Violation)) throw exc;
    let v = exc;
    if (committedStateHash === null && v.authenticated
        && (v.code === "state/hash-mismatch" || v.frame !== index)) {
      // Without the committed hash the state is the package's word: such a finding
      // could be a forger's.
      v = new Violation(v.code, `${v.detail} (the package's state is not proven to be the `
        + "committed one)", v.seat, v.frame, false);
    }
    return new StepVerdict(index, v, null);
  }
  // Rule 10, as 11.2 step 4: a record that proves nothing is the verdict, else the first.
  const findings = evidence.map((e) => judgeEvidence(game, new Map([[frame.seq, frame]]), e));
  if (findings.length) {
    return new StepVerdict(index, findings.find((f) => !f.authenticated) ?? findings[0], null);
  }
  return new StepVerdict(index, null, next.hash(game.rules, game.suite));
}

/**
 * What an evidence frame proves against the accepted frame of its step (11.2 step 4): the
 * violation it proves, or `transcript/bad-evidence` (not authenticated). `accepted` is a
 * Map of seq to frame.
 */
export function judgeEvidence(game, accepted, wire) {
  let frame;
  try {
    frame = authenticate(game, wire, null);
  } catch (exc) {
    if (!(exc instanceof Violation)) throw exc;
    return new Violation("transcript/bad-evidence", exc.detail, null, null);
  }
  const taken = accepted.get(frame.seq);
  const proof = taken === undefined ? null : earlierStepViolation(taken, frame);
  return proof ?? new Violation("transcript/bad-evidence",
    "an evidence record proves nothing against an accepted step", null, null);
}
