"""Two frames for one place: which one the chain keeps (spec/10-session.md 10.8).

In a simultaneous game two seats may each sign a valid frame on the same prefix: the
seat that owes a KEY, COMMIT or OPEN answers late while another seat declares it
absent, or two seats declare it absent at once. Such frames are rivals, not evidence
(10.7). Every seat settles the place with the same rule, from the rivals' **branches**:
each rival with the valid frames known to follow it on its chain.

1. A disclosed seal is final: the branch holding more revealing frames (an OPEN, or a
   declaration carrying a decryption share) keeps the place. So a frame held back
   while the table disclosed seals after the place cannot take it.
2. Otherwise the frame of lower rank: an ABSENT before the owed KEY, COMMIT or OPEN,
   then the lower seat.

That is one key per branch, so the rivals of a place are totally ordered, and the rule
reads only the branches: seats that hold the same frames hold the same chain, whatever
order the frames came in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import Violation
from .frames import Frame, MessageType
from .game import Game
from .messages import AbsentBody
from .session import apply_frame
from .state import PublicState


def rivals(held: Frame, other: Frame) -> bool:
    """Whether `other` competes with `held` for its place: the same game, seq and prev,
    another seat, and at least one of the two an ABSENT. Any other second frame for a
    place is a duplicate, evidence (10.7) or built on another history."""
    return (other.game_id == held.game_id and other.seq == held.seq
            and other.prev == held.prev and other.seat != held.seat
            and MessageType.ABSENT in (held.type, other.type))


def rank(frame: Frame) -> tuple[bool, int]:
    """Lower ranks first: ABSENT frames before the KEY, COMMIT or OPEN, then by seat."""
    return frame.type is not MessageType.ABSENT, frame.seat


def reveals(frame: Frame) -> bool:
    """Whether the accepted `frame` discloses a seal, whole or in part (10.8 "Two frames
    for one place"): an OPEN, or an ABSENT carrying a decryption share. A share alone
    opens nothing, but it lowers what the other holders still need: counting only the
    share that completes an opening let a seat holding the missing shares open a seal
    privately, then rewind the table to before it (issue 30's red-team review)."""
    if frame.type is MessageType.OPEN:
        return True
    return (frame.type is MessageType.ABSENT
            and AbsentBody.decode(frame.body, frame.seat).share is not None)


@dataclass(frozen=True)
class Branch:
    """A frame at a contested place and the valid frames known to follow it on its chain,
    in order (the frame at the place included), with how many of them disclosed a seal."""

    frames: tuple[Frame, ...]
    revealing: int
    #: Why the frame after the last one kept is not part of the branch, if it broke a rule
    #: there: signed on a valid prefix, it proves its signer broke that rule.
    broken: Violation | None = None

    @property
    def head(self) -> Frame:
        """The frame at the place."""
        return self.frames[0]

    @property
    def key(self) -> tuple[int, bool, int]:
        """The branch's place in the order of rivals (10.8): lowest keeps the place."""
        return (-self.revealing, *rank(self.head))


def branch(game: Game, before: PublicState, frames: Iterable[Frame],
           known: dict[bytes, PublicState] | None = None) -> Branch:
    """The branch of `frames` (a rival, then the frames built on it, in order) on the
    state `before` the place: as far as they are valid there. A frame that breaks a rule
    ends the branch; nothing after it is part of any chain.

    `known` maps a frame's hash to the state after it, for frames found valid before: a
    frame's hash fixes its whole history, so its state is the same on every branch that
    holds it, and a branch that grows by one frame costs one check, not a replay."""
    kept: list[Frame] = []
    revealing = 0
    broken = None
    state = before
    for frame in frames:
        if kept and frame.prev != kept[-1].hash:
            break
        after = known.get(frame.hash) if known is not None else None
        if after is None:
            try:
                after = apply_frame(game, state, frame)
            except Violation as v:
                broken = v
                break
            if known is not None:
                known[frame.hash] = after
        revealing += reveals(frame)
        kept.append(frame)
        state = after
    return Branch(tuple(kept), revealing, broken)


def takes_place(challenger: Branch, held: Branch) -> bool:
    """Whether the rival branch `challenger` takes the place of `held` (10.8 "Two frames
    for one place", rules 1-2). Of two rival branches exactly one takes the place."""
    if not challenger.frames or not held.frames or not rivals(held.head, challenger.head):
        return False
    return challenger.key < held.key
