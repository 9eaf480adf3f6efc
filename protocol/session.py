"""The session: one sans-IO state machine for every seat and the verifier (spec/10-session.md).

Theory of operation
-------------------
`step(game, state, wire)` is the whole protocol: it takes the public state and
one frame's bytes and returns the next state, or raises a Violation naming the
seat to blame, the frame and the rule. It never knows which seat "we" are, so
the same code judges our own frames, the other seats' frames, and a
transcript replayed by a stranger. A single step needs nothing but the state it
starts from, which is what makes the one-frame dispute check possible.

The phase machine is the table `PHASES`: (phase, message type) -> handler.
A frame whose (phase, type) pair is not in the table is a violation. Within a
phase the turn order is fixed (seat order, or the rules' turn in PLAY), so at
every point exactly one seat owes exactly one kind of message: `awaiting`.

The handlers live beside this table: the deck game's phases in deck_phases.py
(10.4), the stages of commit-reveal of a simultaneous rule set in commit_reveal.py
(10.8). The checks of `step` are numbered as in spec/10-session.md section 10.5;
the comments below quote those numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .commit_reveal import (
    on_absent,
    on_choose,
    on_commit,
    on_open,
    on_seal_key,
    out_of_turn_allowed,
)
from .deck_phases import (
    deck_outcome,
    on_deal,
    on_draw,
    on_key,
    on_move,
    on_nonce,
    on_reveal,
    on_shuffle,
)
from .errors import DealerlessError, EncodingError, LocalError, Violation
from .frames import Frame, MessageType, parse_frame, signed_message
from .game import Game
from .rules.base import Outcome
from .signature import SignatureError
from .state import Phase, PublicState

Handler = Callable[[Game, PublicState, Frame], PublicState]


def on_keys(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """KEY: a deck game's key share (10.4), or a simultaneous game's share key (10.8)."""
    return (on_seal_key if game.simultaneous else on_key)(game, state, frame)


#: The phase table (spec/10-session.md section 10.2). Nothing else is legal.
PHASES: dict[tuple[Phase, MessageType], Handler] = {
    (Phase.KEYS, MessageType.KEY): on_keys,
    (Phase.NONCES, MessageType.NONCE): on_nonce,
    (Phase.SHUFFLE, MessageType.SHUFFLE): on_shuffle,
    (Phase.DEAL, MessageType.DEAL): on_deal,
    (Phase.PLAY, MessageType.MOVE): on_move,
    (Phase.DRAW, MessageType.DRAW): on_draw,
    (Phase.REVEAL, MessageType.REVEAL): on_reveal,
    (Phase.COMMIT, MessageType.COMMIT): on_commit,
    (Phase.OPEN, MessageType.OPEN): on_open,
    (Phase.CHOOSE, MessageType.CHOOSE): on_choose,
    # Out of turn (10.8, see out_of_turn_allowed): a declaration that the seat owing a
    # simultaneous game's KEY, COMMIT or OPEN is absent, from any other seat.
    (Phase.KEYS, MessageType.ABSENT): on_absent,
    (Phase.COMMIT, MessageType.ABSENT): on_absent,
    (Phase.OPEN, MessageType.ABSENT): on_absent,
}

#: What the seat to send owes in each phase (an ABSENT frame is never owed: it is the
#: other seats' remedy against the owing seat's silence).
EXPECTED: dict[Phase, MessageType] = {
    phase: mtype for phase, mtype in PHASES if mtype is not MessageType.ABSENT}


def awaiting(state: PublicState) -> tuple[int, MessageType] | None:
    """The seat that owes the next frame and its type, or None once the game is done."""
    if state.phase is Phase.DONE or state.turn is None:
        return None
    return state.turn, EXPECTED[state.phase]


def authenticate(game: Game, wire: bytes, index: int | None) -> Frame:
    """Checks 1-2: parse the frame and verify its signature. Raises Violation."""
    try:
        frame = parse_frame(wire, game.suite)
    except EncodingError as exc:
        raise Violation(exc.code, exc.detail, seat=None, frame=index) from None
    if frame.seat >= game.seats:
        raise Violation("frame/unknown-seat", f"there is no seat {frame.seat}", None, index)
    try:
        game.suite.signer.verify(game.setup.identities[frame.seat],
                                 signed_message(frame.version, frame.payload),
                                 frame.signature)
    except SignatureError as exc:
        # Anyone can put a seat number on garbage: the claimed seat is named, but
        # the frame is not evidence against it (authenticated=False).
        raise Violation(exc.code, exc.detail, frame.seat, index, authenticated=False) from None
    return frame


def step(game: Game, state: PublicState, wire: bytes) -> tuple[PublicState, Frame]:
    """Apply one frame's bytes to `state` (spec/10-session.md 10.5). Raises Violation."""
    frame = authenticate(game, wire, state.seq)                                # 1-2
    return apply_frame(game, state, frame), frame


def apply_frame(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """Checks 3-10 on an authenticated frame; returns the next state or raises Violation."""
    index = state.seq
    seat = frame.seat

    def blame(code: str, detail: str) -> Violation:
        return Violation(code, detail, seat, index)

    if frame.game_id != game.game_id:                                          # 3
        # Identity keys are long-term: anyone holding a frame of another game can
        # replay it here. It proves nothing against its signer in this game.
        raise Violation("frame/wrong-game", "the frame belongs to another game", seat, index,
                        authenticated=False)
    if frame.seq != state.seq:                                                 # 4
        # A frame out of place (lost, reordered or repeated by the network) is not
        # evidence either: the seat signed it for another position in the chain.
        raise Violation("frame/sequence", f"expected seq {state.seq}, got {frame.seq}",
                        seat, index, authenticated=False)
    if frame.prev != state.prev:                                               # 5
        # Built on another history: if someone else equivocated earlier, an honest
        # seat may have signed on the other branch. Not evidence against this seat.
        raise Violation("frame/chain", "prev is not the hash of the previous frame", seat,
                        index, authenticated=False)
    if frame.state_hash != state.hash(game.rules, game.suite):                             # 6
        # Same history, different state: the sender computed or claimed a state
        # that this history does not give. That is the sender's doing.
        raise blame("state/hash-mismatch", "the frame commits to a different public state")
    if state.phase is Phase.DONE:                                              # 7
        raise blame("frame/after-end", "the game is over")
    if seat != state.turn and not out_of_turn_allowed(game, state, frame):          # 8
        raise blame("frame/out-of-turn", f"seat {state.turn} owes the next frame")
    handler = PHASES.get((state.phase, frame.type))                            # 9
    if handler is None:
        raise blame("frame/unexpected-type",
                    f"{frame.type.label} is not allowed in the {state.phase} phase")
    try:
        new = handler(game, state, frame)                                      # 10
    except (LocalError, Violation):
        raise  # a bug on this side is never blamed on the sender; a Violation names its own
    except DealerlessError as exc:
        raise blame(exc.code, exc.detail) from None
    return new.with_(seq=state.seq + 1, prev=frame.hash)


def final_outcome(game: Game, state: PublicState) -> Outcome | Any:
    """The result once every seat has revealed (spec/10-session.md 10.6), or for a
    simultaneous rule set the verdict of its last stage (10.8): a SimultaneousOutcome of
    the rule set's own type, which a caller that knows the rule set narrows by isinstance.

    Raises RuleViolation (rules/reveal-mismatch) if the opened tiles do not fit
    the public state, which the proofs make impossible for a game that got here.
    """
    if state.phase is not Phase.DONE:
        raise LocalError("session/not-done", "the game is not over")
    if game.simultaneous:
        return game.stages.verdict(state.rules_state)
    return deck_outcome(game, state)
