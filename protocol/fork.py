"""Two frames for one place: which one the chain keeps (spec/10-session.md 10.8).

In a simultaneous game two seats may each sign a valid frame on the same prefix: the
seat that owes a KEY, COMMIT or OPEN answers late while another seat declares it
absent, or two seats declare it absent at once. Such frames are rivals, not evidence
(10.7). Every seat settles the place with the same rule, from the rivals' **branches**:
each rival with the valid frames known to follow it on its chain.

1. An opened seal is final: the branch that opened more seals keeps the place (an OPEN,
   or the share that completes the table's opening of a withheld seal).
2. Then a shared one: the branch holding decryption shares of more seals it did not
   open keeps it. A share opens nothing, but a seat holding the missing ones can open
   the seal with it.
3. Then the branch more seats signed after the place: one that a minority kept back
   holds only its own members' frames.
4. Otherwise the owed KEY, COMMIT or OPEN comes before a declaration of its absence,
   then the lower seat.

That is one key per branch, so the rivals of a place are totally ordered, and the rule
reads only the branches: seats that hold the same frames hold the same chain, whatever
order the frames came in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import Violation
from .frames import Frame, MessageType
from .game import Game
from .messages import AbsentBody
from .session import apply_frame
from .state import PublicState
from .suite import Suite


def rivals(held: Frame, other: Frame) -> bool:
    """Whether `other` competes with `held` for its place: the same game, seq and prev,
    another seat, and at least one of the two an ABSENT. Any other second frame for a
    place is a duplicate, evidence (10.7) or built on another history."""
    return (other.game_id == held.game_id and other.seq == held.seq
            and other.prev == held.prev and other.seat != held.seat
            and MessageType.ABSENT in (held.type, other.type))


def rank(frame: Frame) -> tuple[bool, int]:
    """Rule 4, lower first: the owed KEY, COMMIT or OPEN before an ABSENT, then by seat."""
    return frame.type is MessageType.ABSENT, frame.seat


#: A seal: (its stage, its committer).
Seal = tuple[int, int]


def discloses(suite: Suite, frame: Frame, before: PublicState, after: PublicState
              ) -> tuple[bool, Seal] | None:
    """What the accepted `frame` discloses of a seal, given the states around it (10.8):
    (True, seal) when it opens the seal (an OPEN, or the share that completes the table's
    opening: the declarations are over in the state after it, even when that opening
    resolved the stage and the next stage holds no nonce), (False, seal) when it posts a
    share of it, None otherwise."""
    if frame.type is MessageType.OPEN:
        return True, (before.rules_state.stage, frame.seat)
    if frame.type is not MessageType.ABSENT:
        return None
    body = AbsentBody.decode(suite, frame.body, frame.seat)
    if body.share is None:
        return None
    return after.rules_state.absent is None, (body.stage, body.seat)


@dataclass(frozen=True)
class Branch:
    """A frame at a contested place and the valid frames known to follow it on its chain,
    in order (the frame at the place included): the seals they opened, the other seals
    they posted shares of, and the seats that signed them."""

    frames: tuple[Frame, ...]
    opened: int
    shared: int
    signers: int
    #: Why the frame after the last one kept is not part of the branch, if it broke a rule
    #: there: signed on a valid prefix, it proves its signer broke that rule.
    broken: Violation | None = None

    @classmethod
    def of(cls, suite: Suite, frames: tuple[Frame, ...], before: PublicState,
           states: Sequence[PublicState], broken: Violation | None = None) -> Branch:
        """The branch of `frames` on the state `before` the place, given the state after
        each frame."""
        opened: set[Seal] = set()
        shared: set[Seal] = set()
        priors = (before, *states)[:len(states)]
        for frame, prior, after in zip(frames, priors, states, strict=True):
            found = discloses(suite, frame, prior, after)
            if found is not None:
                (opened if found[0] else shared).add(found[1])
        return cls(frames, len(opened), len(shared - opened),
                   len({f.seat for f in frames}), broken)

    @property
    def head(self) -> Frame:
        """The frame at the place."""
        return self.frames[0]

    @property
    def revealing(self) -> int:
        """How many seals it disclosed, whole or in part."""
        return self.opened + self.shared

    @property
    def key(self) -> tuple[int, int, int, bool, int]:
        """The branch's place in the order of rivals (10.8): lowest keeps the place."""
        return (-self.opened, -self.shared, -self.signers, *rank(self.head))


def branch(game: Game, before: PublicState, frames: Iterable[Frame],
           known: dict[bytes, PublicState] | None = None) -> Branch:
    """The branch of `frames` (a rival, then the frames built on it, in order) on the
    state `before` the place: as far as they are valid there. A frame that breaks a rule
    ends the branch; nothing after it is part of any chain.

    `known` maps a frame's hash to the state after it, for frames found valid before: a
    frame's hash fixes its whole history, so its state is the same on every branch that
    holds it, and a branch that grows by one frame costs one check, not a replay."""
    kept: list[Frame] = []
    states: list[PublicState] = []
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
        kept.append(frame)
        states.append(after)
        state = after
    return Branch.of(game.suite, tuple(kept), before, states, broken)


def takes_place(challenger: Branch, held: Branch) -> bool:
    """Whether the rival branch `challenger` takes the place of `held` (10.8 "Two frames
    for one place", rules 1-4). Of two rival branches exactly one takes the place."""
    if not challenger.frames or not held.frames or not rivals(held.head, challenger.head):
        return False
    return challenger.key < held.key
