"""The referee: one game's accepted chain of frames (spec/10-session.md section 10.7).

Every seat runs one Referee and feeds it every frame it sees, its own
included; the verifier runs the same class over a transcript. It wraps the
pure `step` with what a live table needs: the accepted frames, duplicate
detection (a relay may deliver a frame twice), equivocation detection (two
different frames signed by one seat for one step), and an absorbing error
state once a seat is proven to have cheated.
"""

from __future__ import annotations

from typing import Any

from .commit_reveal import opened_orders
from .errors import LocalError, Violation
from .fork import Branch
from .frames import Frame, MessageType
from .game import Game
from .messages import AbsentBody, ChooseBody, MoveBody
from .rules.base import Outcome
from .rules.mined_round import Orders
from .session import apply_frame, authenticate, awaiting, final_outcome
from .setup import GameSetup
from .state import Phase, PublicState
from .transcript import Transcript


def earlier_step_violation(accepted: Frame, other: Frame) -> Violation | None:
    """What a second signed frame for an accepted step proves (spec/10-session.md 10.7).

    The same seat signing two different frames for one place (seq and prev) is
    equivocation. Another seat signing a frame on the same chain position (same prev
    and state hash) signed out of turn: only one seat owes each step, except for the
    rivals of 10.8. Anything else proves nothing.
    """
    if other.game_id != accepted.game_id or other.seq != accepted.seq:
        return None
    if other.prev != accepted.prev:
        # Built on another history: after a place was contested (10.8) an honest seat
        # may have signed this seq on both branches. Only one place is equivocal.
        return None
    if MessageType.ABSENT in (accepted.type, other.type) and other.seat != accepted.seat:
        # Rivals for one place (a late COMMIT or OPEN racing a declaration of its
        # sender's absence, or two declarations): both were allowed there (10.8).
        return None
    if other.seat == accepted.seat and other.wire != accepted.wire:
        return Violation("frame/equivocation", f"seat {other.seat} signed two different "
                         f"frames for step {other.seq}", other.seat, other.seq)
    if (other.seat != accepted.seat and other.prev == accepted.prev
            and other.state_hash == accepted.state_hash):
        return Violation("frame/out-of-turn", f"seat {accepted.seat} owed step {other.seq}, "
                         f"but seat {other.seat} signed a frame for it", other.seat, other.seq)
    return None


def orders_text(orders: Any) -> str:
    """Opened orders of a stage for people (rules/mined-games.md 4.1)."""
    if orders is None:
        return "opens its map-seed nonce"
    if type(orders[0]) is int:
        return f"starts on B1 r{orders[0]} c{orders[1]}"
    return Orders(orders[0], orders[1]).text()


def stage_text(game: Game, before: PublicState, after: PublicState, frame: Frame) -> str:
    """An accepted OPEN, ABSENT or CHOOSE frame for people (10.8), from the states before
    and after it: the orders an OPEN opened, and the orders a seal the table opened held."""
    if frame.type is MessageType.ABSENT:
        body = AbsentBody.decode(game.suite, frame.body, frame.seat)
        absent = before.rules_state.absent
        if absent is not None and any(d == frame.seat for d, _ in absent[1]):
            text = f"posts its share of seat {body.seat}'s seal in stage {body.stage}"
        else:
            text = f"declares seat {body.seat} absent in stage {body.stage}" + (
                " with its share" if body.share is not None else "")
        withheld = after.rules_state.withheld
        if len(withheld) > len(before.rules_state.withheld):
            by = ", ".join(map(str, withheld[-1][2]))
            orders = opened_orders(game, before, frame)
            text += f"; seats {by} open its seal: {orders_text(orders)}"
        return text
    if frame.type is MessageType.CHOOSE:
        return f"names seat {ChooseBody.decode(frame.body).seat} the elimination candidate"
    return orders_text(opened_orders(game, before, frame))


class Referee:
    def __init__(self, setup: GameSetup) -> None:
        self.game = Game(setup)
        self.state: PublicState = self.game.initial_state()
        self.frames: list[Frame] = []
        self.evidence: list[bytes] = []
        self.violation: Violation | None = None
        self._offending: bytes | None = None  # the frame that proved `violation`
        self._before: list[PublicState] = []  # the state each accepted frame applied to
        # A simultaneous game's moves for people (10.8): an OPEN's orders are in its seal,
        # so they are read when the frame is accepted, from the state before it.
        self._stage_moves: list[dict[str, Any]] = []

    @property
    def awaiting(self) -> tuple[int, MessageType] | None:
        return None if self.violation else awaiting(self.state)

    @property
    def offending_frame(self) -> bytes | None:
        """The frame that proved the kept violation (None when it is an evidence record)."""
        return self._offending

    @property
    def complete(self) -> bool:
        return self.violation is None and self.state.phase is Phase.DONE

    def outcome(self) -> Outcome | Any:  # Any: a simultaneous rule set's own verdict
        return final_outcome(self.game, self.state)

    def receive(self, wire: bytes, dedupe: bool = True) -> Frame | None:
        """Apply one frame. Returns it, or None for an exact duplicate of an accepted frame.

        Raises Violation. An authenticated violation is final: the referee keeps
        it, and the offending frame, and refuses everything after. A frame that
        is no evidence against its seat (bad signature, another game, out of
        place) is reported but changes nothing, since anyone could have sent it.
        With `dedupe` False (replaying a transcript) a repeated frame is out of
        place like any other.
        """
        if self.violation is not None:
            raise self.violation
        try:
            frame = authenticate(self.game, wire, len(self.frames))
            if (dedupe and frame.game_id == self.game.game_id
                    and frame.seq < len(self.frames)):
                self._check_earlier(frame)
                return None
            before = self.state
            state = apply_frame(self.game, before, frame)
        except Violation as v:
            if v.authenticated:
                self.violation = v
                if not self.evidence or self.evidence[-1] != wire:
                    self._offending = wire
            raise
        self._before.append(before)
        self.state = state
        self.frames.append(frame)
        if self.game.simultaneous and frame.type in (MessageType.OPEN, MessageType.ABSENT,
                                                     MessageType.CHOOSE):
            self._stage_moves.append({"frame": frame.seq, "seat": frame.seat, "move":
                                      stage_text(self.game, before, self.state, frame)})
        return frame

    def state_before(self, seq: int) -> PublicState:
        """The state accepted frame `seq` applied to (the current state for the next)."""
        return self.state if seq == len(self.frames) else self._before[seq]

    def branch(self, seq: int) -> Branch:
        """The branch this chain holds from place `seq` (10.8): its frames from there."""
        frames = tuple(self.frames[seq:])
        return Branch.of(self.game.suite, frames, self.state_before(seq),
                         [self.state_before(f.seq + 1) for f in frames])

    def rewind(self, seq: int) -> list[Frame]:
        """Drop the accepted frames from `seq` on and return them: a rival took place
        `seq` (10.8). Nothing is rewound past a kept violation."""
        if self.violation is not None or not 0 <= seq <= len(self.frames):
            raise LocalError("referee/rewind", f"cannot rewind to step {seq}")
        dropped = self.frames[seq:]
        self.state = self.state_before(seq)
        del self.frames[seq:], self._before[seq:]
        self._stage_moves = [m for m in self._stage_moves if m["frame"] < seq]
        return dropped

    def _check_earlier(self, frame: Frame) -> None:
        """A frame for a step already taken: a harmless duplicate, or proof of cheating."""
        accepted = self.frames[frame.seq]
        if frame.wire == accepted.wire:
            return
        if frame.prev != accepted.prev:
            raise Violation("frame/chain", f"step {frame.seq} of another history",
                            frame.seat, frame.seq, authenticated=False)
        proof = earlier_step_violation(accepted, frame)
        if proof is None:
            raise Violation("frame/sequence", f"step {frame.seq} was taken by seat "
                            f"{accepted.seat}", frame.seat, frame.seq, authenticated=False)
        self.evidence.append(frame.wire)
        raise proof

    def transcript(self) -> Transcript:
        """Accepted frames, then the frame that proved a violation, then any evidence."""
        frames = tuple(f.wire for f in self.frames)
        if self._offending is not None:
            frames += (self._offending,)
        return Transcript(self.game.setup, frames, tuple(self.evidence))

    def stage_move(self, seq: int) -> str:
        """The text of the accepted OPEN, ABSENT or CHOOSE frame `seq` (10.8)."""
        return str(next(m["move"] for m in self._stage_moves if m["frame"] == seq))

    def moves(self) -> list[dict[str, Any]]:
        """The moves made so far, in order, as {frame, seat, move} with the move's text;
        in a simultaneous game, the opened orders, declarations and the winner's choice."""
        rules = self.game.rules
        if self.game.simultaneous:
            return list(self._stage_moves)
        return [{"frame": f.seq, "seat": f.seat,
                 "move": rules.move_text(rules.move_from_id(
                     MoveBody.decode(self.game.suite, f.body).move_id))}
                for f in self.frames if f.type is MessageType.MOVE]
