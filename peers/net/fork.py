"""A networked seat's side of two frames for one place (spec/10-session.md 10.8,
spec/12-peers.md 12.3).

In a simultaneous game two seats can sign valid frames on the same prefix (a late
COMMIT or OPEN and a declaration of its sender's absence, or two declarations), and
seats that receive them in different orders hold different chains for a while. Each
seat settles every such place by the rule of protocol/fork.py, which needs only the
two frames and the chain after the place. A seat that holds the loser rewinds its
referee and its store to the place, keeps the frames it gave up as records, and goes
on from the winner, re-signing what it still owes; a seat that holds the winner shows
it to whoever sent the loser. A seat that learns that another seat's chain differs
from its own (a SYNC or DONE with another head, a frame built on another history)
shows that seat its ABSENT frames, among which is the winner of every place where the
two chains part (a place is only ever contested by an ABSENT, and an ABSENT holds it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from peers.store.games import GameStore
from protocol.errors import EncodingError, Violation
from protocol.fork import rivals, takes_place
from protocol.frames import Frame, MessageType, frame_hash, parse_frame
from protocol.referee import Referee
from protocol.session import apply_frame, authenticate

#: The most ABSENT frames one answer to a diverged seat carries (12.3 step 3's limit).
MAX_SHOWN = 64


@dataclass
class Forks:
    """What this seat has settled: the frames that lost a place, and counts for tests."""

    settled: set[bytes] = field(default_factory=set)  # hashes of frames that lost a place
    seen: int = 0       # distinct rivals met
    switched: int = 0   # places this seat gave up to a rival

    @classmethod
    def of(cls, store: GameStore) -> Forks:
        return cls({frame_hash(w) for w in store.superseded()})

    def rival(self, ref: Referee, wire: bytes) -> Frame | None:
        """`wire` as a frame if it is a rival, signed by its seat, of the frame this seat
        holds at its place and not settled before; None otherwise."""
        try:
            frame = parse_frame(wire)
        except EncodingError:
            return None
        if (frame.game_id != ref.game.game_id or frame.seq >= len(ref.frames)
                or frame.hash in self.settled or not rivals(ref.frames[frame.seq], frame)):
            return None
        try:
            authenticate(ref.game, wire, frame.seq)
        except Violation:
            return None   # anyone can put a seat number on garbage
        return frame

    def takes(self, ref: Referee, frame: Frame) -> bool:
        """Whether the rival `frame` takes its place from the frame this seat holds: by
        the rule, or because it breaks the rules there (the referee then keeps the
        violation when it receives it, as a seat that saw it first would have)."""
        self.seen += 1
        seq = frame.seq
        if takes_place(frame, ref.frames[seq], ref.frames[seq + 1:]):
            return True
        try:
            apply_frame(ref.game, ref.state_before(seq), frame)
        except Violation as v:
            return v.authenticated
        self.settled.add(frame.hash)
        return False

    def give_up(self, store: GameStore, ref: Referee, seq: int) -> None:
        """Rewind the referee and the store to place `seq`, keeping what was dropped."""
        for lost in ref.rewind(seq):
            self.settled.add(lost.hash)
        store.rewind(seq)
        self.switched += 1

    @staticmethod
    def elsewhere(ref: Referee, wire: bytes) -> bool:
        """Whether `wire` is a frame of this game built on a history this seat does not
        hold (its prev is not the hash this chain has before its seq)."""
        try:
            frame = parse_frame(wire)
        except EncodingError:
            return False
        return (frame.game_id == ref.game.game_id and frame.seq <= len(ref.frames)
                and frame.prev != ref.state_before(frame.seq).prev)

    @staticmethod
    def shown(ref: Referee, have: int) -> list[bytes]:
        """What to send a seat whose chain of `have` frames differs from ours: our frame
        `have` - 1 (so that it sees the difference too, if it holds that many) and our
        last ABSENT frames in chain order (the winners of the places where we part)."""
        absent = [f.wire for f in ref.frames if f.type is MessageType.ABSENT][-MAX_SHOWN:]
        last = [ref.frames[have - 1].wire] if 0 < have <= len(ref.frames) else []
        return [*last, *absent]
