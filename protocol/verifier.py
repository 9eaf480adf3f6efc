"""Replay a transcript to a verdict; dispute packages and the single-step check (spec/11-verify.md).

`replay` runs the same Referee the players ran, from nothing but the file, and
returns a Verdict value: valid and complete (with the outcome), a valid prefix
(naming the seat that owes the next frame and what it owes), or invalid (naming
the seat to blame where one can be named, the frame and the rule).

A valid prefix proves no forfeit: a file cut short and a seat that went silent look
the same, and the transcript holds no clock (11.1, rules/bram.md D14). What a prefix
can prove is a winner decided by public play, a seat that went out (`Decided`).

A dispute package holds the public state that frame N applies to, frame N, and
the setup (whose identity keys check the signature). `check_step` judges that
one step from the package alone with the same `step` function, so it reaches
the same verdict for the step as the full replay.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .canonical import as_array, as_bytes, as_int, as_list, pack, unpack
from .errors import EncodingError, LocalError, Violation
from .frames import MAX_FRAME_BYTES, Frame
from .game import Game
from .identity import fingerprint
from .referee import Referee, earlier_step_violation
from .rules.base import Outcome, halves_text
from .session import authenticate, awaiting, step
from .setup import MAX_SETUP_BYTES, GameSetup
from .state import BONEYARD, MAX_STATE_BYTES, Phase, PublicState
from .tiles import tile_text
from .transcript import MAX_EVIDENCE, Transcript
from .version import check_version

DISPUTE_MAGIC = "dealerless/dispute"
MAX_DISPUTE_BYTES = MAX_SETUP_BYTES + MAX_STATE_BYTES + (1 + MAX_EVIDENCE) * MAX_FRAME_BYTES


@dataclass(frozen=True)
class Decided:
    """A winner that public play proves before the last REVEAL (spec/11-verify.md 11.2 step 5).

    The seat played every tile dealt to it in public, so it went out and won
    (rules/bram.md D6, D14) whoever still owes a REVEAL. `margin_halves` is None
    while it depends on a hand that is not yet revealed.
    """

    winner: int
    reason: str
    margin_halves: int | None

    def to_json(self) -> dict[str, Any]:
        m = self.margin_halves
        return {"winner": self.winner, "reason": self.reason,
                "margin": None if m is None else halves_text(m), "margin_halves": m}


def decided_by_play(game: Game, state: PublicState) -> Decided | None:
    """The winner a valid prefix already proves, or None (spec/11-verify.md 11.2 step 5).

    Only in the REVEAL phase, and only for a seat that played every position dealt
    to it. The margin is known once every position except the hidden ones is open:
    the hidden positions then hold exactly the deck tiles that nothing opened (the
    deck is a proven permutation of the deck tiles, 7), which lets the rules check
    and score the hands (rules/bram.md 8, D9). Those tiles are still not opened, so
    they are not reported.
    """
    if state.phase is not Phase.REVEAL:
        return None
    out = [s for s in range(game.seats)
           if all(state.played[p] for p, o in enumerate(state.owners) if o == s)]
    if len(out) != 1:
        return None
    hides = game.rules.deal.hidden > 0
    if (any(t is None for t, o in zip(state.opened, state.owners, strict=True) if o >= 0)
            or (hides and BONEYARD in state.owners)):
        return Decided(out[0], "out", None)
    opened = set(state.opened)
    hands: list[list[Any]] = [[] for _ in range(game.seats)]
    for p, owner in enumerate(state.owners):
        if owner >= 0 and not state.played[p]:
            hands[owner].append(state.opened[p])
    left = [t for t in game.deck_tiles if t not in opened] if hides else []
    result = game.rules.outcome(state.rules_state, hands, left)
    return Decided(out[0], result.reason, result.margin_halves)


@dataclass(frozen=True)
class Verdict:
    valid: bool
    complete: bool
    frames: int
    setup: GameSetup | None = None
    violation: Violation | None = None
    awaiting: tuple[int, str] | None = None
    outcome: Outcome | Any | None = None  # Any: a simultaneous rule set's own verdict
    first_player: int | None = None
    moves: list[dict[str, Any]] = field(default_factory=list)
    decided: Decided | None = None

    @property
    def exit_code(self) -> int:
        """0 valid and complete, 1 invalid, 3 valid prefix (spec/11-verify.md 11.1).

        A prefix whose winner is `decided` is still 3: the transcript is not complete.
        """
        return 1 if not self.valid else 0 if self.complete else 3

    def to_json(self) -> dict[str, Any]:
        out = self.outcome
        if out is not None and not isinstance(out, Outcome):
            return {**self._common(), "outcome": out.to_json(), "hidden_tile": None,
                    "decided": None}
        return {
            **self._common(),
            "outcome": None if out is None else {
                "winner": out.winner, "winners": list(out.winners), "draw": out.winner is None,
                "reason": out.reason,
                "pips": [halves_text(h) for h in out.pips_halves],
                "pips_halves": list(out.pips_halves), "hand_pips": list(out.hand_pips),
                "margin": halves_text(out.margin_halves), "margin_halves": out.margin_halves},
            "hidden_tile": [tile_text(t) for t in out.hidden] if out else None,
            # No forfeit key: a transcript cannot prove silence (rules/bram.md D14).
            "decided": None if self.decided is None else self.decided.to_json(),
        }

    def _common(self) -> dict[str, Any]:
        """Every key but the game's result (outcome, hidden tile, decided: 11.1)."""
        setup = self.setup
        return {
            "valid": self.valid,
            "complete": self.complete,
            "frames": self.frames,
            "game_id": setup.game_id.hex() if setup else None,
            "rules": {"name": setup.rules, "params": dict(setup.params)} if setup else None,
            "seats": [{"seat": i, "fingerprint": fingerprint(k)}
                      for i, k in enumerate(setup.identities)] if setup else [],
            "first_player": self.first_player,
            "moves": self.moves,
            "violation": None if self.violation is None else {
                "seat": self.violation.seat, "frame": self.violation.frame,
                "rule": self.violation.code, "detail": self.violation.detail,
                "authenticated": self.violation.authenticated},
            "awaiting": None if self.awaiting is None else {
                "seat": self.awaiting[0], "message": self.awaiting[1]},
        }


def _evidence(ref: Referee, wires: tuple[bytes, ...]) -> Violation | None:
    """Every evidence record must prove a violation against an accepted frame (11.2)."""
    accepted = dict(enumerate(ref.frames))
    found: Violation | None = None
    for wire in wires:
        proof = judge_evidence(ref.game, accepted, wire)
        if not proof.authenticated:
            return proof
        found = found or proof
    return found


def replay(data: bytes) -> Verdict:
    """Verify a transcript file from nothing (spec/11-verify.md section 11.2)."""
    try:
        transcript = Transcript.decode(data)
    except EncodingError as exc:
        return Verdict(False, False, 0, violation=Violation(exc.code, exc.detail, None, None))
    ref = Referee(transcript.setup)
    for wire in transcript.frames:
        try:
            ref.receive(wire, dedupe=False)
        except Violation as v:
            if v.authenticated:
                return _verdict(ref, violation=v)
            # A frame that is no evidence (e.g. built on another branch of a fork)
            # still ends the chain; a proven cheat in the evidence records names the
            # seat really to blame, such as the equivocator who made the fork.
            proven = _evidence(ref, transcript.evidence)
            return _verdict(ref, violation=proven if proven and proven.authenticated else v)
    bad = _evidence(ref, transcript.evidence)
    if bad is not None:
        return _verdict(ref, violation=bad)
    return _verdict(ref)


def _verdict(ref: Referee, violation: Violation | None = None) -> Verdict:
    state = ref.state
    due = None if violation else awaiting(state)
    return Verdict(
        valid=violation is None, complete=violation is None and ref.complete,
        frames=len(ref.frames), setup=ref.game.setup, violation=violation,
        awaiting=None if due is None else (due[0], due[1].label),
        outcome=ref.outcome() if violation is None and ref.complete else None,
        first_player=state.first_player, moves=ref.moves(),
        decided=None if violation else decided_by_play(ref.game, state))


# -- dispute packages ---------------------------------------------------------------------

def committed_state_hashes(data: bytes) -> list[bytes]:
    """The hash of the state before each frame, as the replay computes it, until it stops:
    what a referee holding the chain passes to `check_step` (11.4)."""
    transcript = Transcript.decode(data)
    ref = Referee(transcript.setup)
    hashes = [ref.state.hash(ref.game.rules, ref.game.suite)]
    for wire in transcript.frames:
        try:
            ref.receive(wire, dedupe=False)
        except Violation:
            break
        hashes.append(ref.state.hash(ref.game.rules, ref.game.suite))
    return hashes


def dispute_package(data: bytes, index: int) -> bytes:
    """The package for frame `index`: [magic, 1, setup, index, state, frame, evidence].

    `evidence` holds the transcript's evidence records for that step, if any.

    Raises LocalError when the transcript does not reach that frame with a
    committed state (it is shorter, or the replay stopped at an earlier violation).
    """
    transcript = Transcript.decode(data)
    if not 0 <= index < len(transcript.frames):
        raise LocalError("dispute/no-frame", f"the transcript has {len(transcript.frames)} "
                         f"frames; there is no frame {index}")
    ref = Referee(transcript.setup)
    for i, wire in enumerate(transcript.frames[:index]):
        try:
            ref.receive(wire, dedupe=False)
        except Violation as v:
            raise LocalError("dispute/after-violation",
                             f"the replay stops at frame {i} ({v.code}); frame {index} has "
                             "no committed state to judge it against") from None
    return _package(transcript, ref, index, _evidence_by_step(ref.game, transcript.evidence))


def dispute_packages(data: bytes) -> Iterator[bytes]:
    """`dispute_package(data, n)` for every n the replay reaches with a committed state, in
    order, from one replay (one package per frame up to and including the first that
    fails)."""
    transcript = Transcript.decode(data)
    ref = Referee(transcript.setup)
    evidence = _evidence_by_step(ref.game, transcript.evidence)
    for index, wire in enumerate(transcript.frames):
        yield _package(transcript, ref, index, evidence)
        try:
            ref.receive(wire, dedupe=False)
        except Violation:
            return


def _evidence_by_step(game: Game, records: tuple[bytes, ...]) -> dict[int, list[bytes]]:
    """The transcript's evidence records by the step they were signed for."""
    steps: dict[int, list[bytes]] = {}
    for wire in records:
        try:
            steps.setdefault(authenticate(game, wire, None).seq, []).append(wire)
        except Violation:
            continue
    return steps


def _package(transcript: Transcript, ref: Referee, index: int,
             evidence: dict[int, list[bytes]]) -> bytes:
    return make_package(ref.game, ref.state, transcript.frames[index], evidence.get(index, []))


def make_package(game: Game, state: PublicState, wire: bytes,
                 evidence: list[bytes] | tuple[bytes, ...] = ()) -> bytes:
    """The dispute package judging `wire` against `state` (spec/11-verify.md 11.3)."""
    return pack([DISPUTE_MAGIC, game.setup.version, game.setup.encode(), state.seq,
                 state.encode(game.rules),
                 wire, list(evidence)])


@dataclass(frozen=True)
class StepVerdict:
    index: int
    violation: Violation | None
    next_state_hash: bytes | None

    @property
    def valid(self) -> bool:
        return self.violation is None


def check_step(package: bytes, committed_state_hash: bytes | None = None) -> StepVerdict:
    """Judge one frame from its dispute package alone (spec/11-verify.md section 11.4).

    Nothing in a package proves that its state is the committed one. A referee that
    holds the committed state hash (an on-chain contract does) passes it: a package
    whose state does not match is refused, and a frame that commits to another state
    is then the sender's violation. Without it, that one finding is reported as not
    authenticated, since a forged package could produce it against an honest frame.
    """
    obj = as_array(unpack(package, MAX_DISPUTE_BYTES), 7, "dispute package")
    if obj[0] != DISPUTE_MAGIC:
        raise EncodingError("dispute/magic", "not a dealerless dispute package")
    version = check_version(as_int(obj[1], "package version"), "dispute package")
    setup = GameSetup.decode(as_bytes(obj[2], "setup", max_len=MAX_SETUP_BYTES))
    check_version(setup.version, "setup", version)
    index = as_int(obj[3], "frame index")
    game = Game(setup)
    state = PublicState.decode(as_bytes(obj[4], "state", max_len=MAX_STATE_BYTES),
                               game.rules, setup.seats, game.suite)
    if (state.game_id != setup.game_id or state.seq != index
            or not game.owners_reachable(state.owners)):
        raise EncodingError("dispute/state", "the state is not of this game at this frame")
    if committed_state_hash is not None and \
            state.hash(game.rules, game.suite) != committed_state_hash:
        raise EncodingError("dispute/state", "the package's state is not the committed one")
    wire = as_bytes(obj[5], "frame", max_len=MAX_FRAME_BYTES)
    evidence = [as_bytes(e, "evidence", max_len=MAX_FRAME_BYTES)
                for e in as_list(obj[6], "evidence", MAX_EVIDENCE)]
    try:
        new, frame = step(game, state, wire)
    except Violation as v:
        if committed_state_hash is None and v.authenticated and (
                v.code == "state/hash-mismatch" or v.frame != index):
            # Without the committed hash the state is the package's word: a finding of
            # a state other than the signed one, or against another frame than this one
            # (a claim the state says an earlier frame made), could be a forger's.
            v = Violation(v.code, v.detail + " (the package's state is not proven to be the "
                          "committed one)", v.seat, v.frame, authenticated=False)
        return StepVerdict(index, v, None)
    # Rule 10, as 11.2 step 4: a record that proves nothing is the verdict, else the
    # first proof; either way the step is invalid.
    findings = [judge_evidence(game, {frame.seq: frame}, wire) for wire in evidence]
    if findings:
        return StepVerdict(index, next((f for f in findings if not f.authenticated),
                                       findings[0]), None)
    return StepVerdict(index, None, new.hash(game.rules, game.suite))


def judge_evidence(game: Game, accepted: Mapping[int, Frame], wire: bytes) -> Violation:
    """What an evidence frame proves against the accepted frame of its step (11.2 step 4):
    the violation it proves, or `transcript/bad-evidence` (not authenticated)."""
    try:
        frame = authenticate(game, wire, None)
    except Violation as v:
        return Violation("transcript/bad-evidence", v.detail, None, None)
    taken = accepted.get(frame.seq)
    proof = None if taken is None else earlier_step_violation(taken, frame)
    return proof or Violation("transcript/bad-evidence",
                              "an evidence record proves nothing against an accepted step",
                              None, None)
