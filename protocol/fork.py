"""Two frames for one place: which one the chain keeps (spec/10-session.md 10.8).

In a simultaneous game two seats may each sign a valid frame on the same prefix: the
seat that owes a COMMIT or OPEN answers late while another seat declares it absent,
or two seats declare it absent at once. Such frames are rivals, not evidence (10.7).
Every seat settles the place with the same rule, from the two frames alone:

- an ABSENT takes the place from the owed COMMIT or OPEN;
- of two ABSENT frames, the one of the lower seat takes it;
- except that a rival whose own signer has already built on the frame holding the
  place conceded it: its signer signed a later frame on that chain.

The rule never lets a rival's signer switch away from its own frame, so the seat
whose frame wins a place keeps building on it and the other seats converge on it.
"""

from __future__ import annotations

from collections.abc import Iterable

from .frames import Frame, MessageType


def rivals(held: Frame, other: Frame) -> bool:
    """Whether `other` competes with `held` for its place: the same game, seq and prev,
    another seat, and at least one of the two an ABSENT. Any other second frame for a
    place is a duplicate, evidence (10.7) or built on another history."""
    return (other.game_id == held.game_id and other.seq == held.seq
            and other.prev == held.prev and other.seat != held.seat
            and MessageType.ABSENT in (held.type, other.type))


def rank(frame: Frame) -> tuple[bool, int]:
    """Lower ranks first: ABSENT frames before the COMMIT or OPEN, then by seat."""
    return frame.type is not MessageType.ABSENT, frame.seat


def takes_place(challenger: Frame, held: Frame, later: Iterable[Frame]) -> bool:
    """Whether the rival `challenger` takes the place of `held`, given the frames that
    follow `held` on the chain holding it (10.8 "Two frames for one place")."""
    if not rivals(held, challenger):
        return False
    if any(f.seat == challenger.seat for f in later):
        return False   # its signer built on `held`: it conceded the place
    return rank(challenger) < rank(held)
