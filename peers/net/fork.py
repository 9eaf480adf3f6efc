"""A networked seat's side of two frames for one place (spec/10-session.md 10.8,
spec/12-peers.md 12.3).

In a simultaneous game two seats can sign valid frames on the same prefix (a late KEY,
COMMIT or OPEN and a declaration of its sender's absence, or two declarations), and
seats that receive them in different orders hold different chains for a while. Each
seat settles every such place by the rule of protocol/fork.py, which compares the two
branches: each rival with the frames known to follow it.

So a seat keeps the validly signed frames of other histories it meets (the frames it
gave up included, a bounded number per signer, so that one seat signing frames on
branches it makes up forgets only its own), links each one back through them to the
place where it parts from the chain this seat holds, and judges that branch against its
own whenever it grows. A seat that signed a frame breaking the rules on a valid prefix
of another history has proven that it cheats: its frames of other histories are no
longer kept. A seat that holds the losing branch rewinds its referee and its
store to the place, keeps what it gave up as records, and goes on along the winning
branch, re-signing what it still owes; a seat that holds the winner shows its branch
to whoever sent the loser. A seat that learns that another seat's chain differs from
its own (a SYNC or DONE with another head, a frame built on another history) shows that
seat its chain around where they part, and its ABSENT frames.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field

from peers.store.games import GameStore
from protocol.errors import EncodingError, Violation
from protocol.fork import branch, rivals, takes_place
from protocol.frames import Frame, MessageType, parse_frame
from protocol.referee import Referee
from protocol.session import authenticate
from protocol.state import PublicState

#: The most ABSENT frames one answer to a diverged seat carries (12.3 step 3's limit).
MAX_SHOWN = 64
#: The most frames of a branch a seat judges: a stage's frames, absences included, and
#: more, so that a rival branch shows its revealing frames; a longer one is cut there.
MAX_BRANCH = 128
#: The frames of other histories a seat keeps per signer (its oldest forgotten first):
#: one whole branch's worth. Any seat can sign frames on branches it makes up, but only
#: its own are forgotten for it, never another seat's.
MAX_FOREIGN_PER_SEAT = MAX_BRANCH

log = logging.getLogger(__name__)
#: The branches judged a seat remembers, so as not to judge them again (then forgotten).
MAX_JUDGED = 4096


@dataclass
class Forks:
    """The frames of other histories this seat knows, what it has judged, and counts."""

    foreign: dict[bytes, Frame] = field(default_factory=dict)   # by hash, oldest first
    # The hashes of each signer's frames in `foreign`, oldest first (its quota).
    signed: defaultdict[int, dict[bytes, None]] = field(
        default_factory=lambda: defaultdict(dict))
    # Seats proven to have signed a frame that breaks the rules on a valid prefix of
    # another history, with the rule: none of their frames of other histories is kept.
    barred: dict[int, str] = field(default_factory=dict)
    # The state after each foreign frame found valid, so that judging a branch again as
    # it grows checks only its new frames (any seat can sign frames onto a branch).
    states: dict[bytes, PublicState] = field(default_factory=dict)
    judged: set[tuple[bytes, bytes]] = field(default_factory=set)  # (their tip, our head)
    met: set[bytes] = field(default_factory=set)   # the rivals met, by hash
    switched: int = 0   # places this seat gave up to a rival

    @property
    def seen(self) -> int:
        """How many distinct rivals this seat has met."""
        return len(self.met)

    @classmethod
    def of(cls, store: GameStore) -> Forks:
        forks = cls()
        for wire in store.superseded():
            forks._keep(parse_frame(wire, store.setup.suite))
        return forks

    def _keep(self, frame: Frame) -> None:
        if frame.seat in self.barred:
            return
        self.foreign[frame.hash] = frame
        mine = self.signed[frame.seat]
        mine[frame.hash] = None
        while len(mine) > MAX_FOREIGN_PER_SEAT:
            self._forget(next(iter(mine)))

    def _forget(self, h: bytes) -> None:
        frame = self.foreign.pop(h)
        del self.signed[frame.seat][h]
        self.states.pop(h, None)

    def _bar(self, frame: Frame, why: Violation) -> None:
        """`frame` broke the rules after a valid prefix of another history: its signer
        cheats (an honest seat signs only frames its own referee accepted), so none of
        its frames of other histories is kept from now on. Not evidence in the
        transcript, which holds one chain (10.8)."""
        self.barred[frame.seat] = why.code
        log.warning("seat %d signed frame %d of another history breaking %s; its frames "
                    "of other histories are no longer kept", frame.seat, frame.seq, why.code)
        for h in list(self.signed[frame.seat]):
            self._forget(h)

    def branch_of(self, ref: Referee, wire: bytes) -> tuple[int, list[Frame]] | None:
        """If `wire` is a validly signed frame of another history, keep it; if it and the
        frames kept before link it back to a rival of a frame this seat holds, return that
        place and the rival's branch: the rival, then the chain the frames kept after it
        give, taking at every later fork the frame the rule keeps there (10.8). None
        otherwise."""
        try:
            frame = parse_frame(wire, ref.game.suite)
        except EncodingError:
            return None
        n = len(ref.frames)
        if (frame.game_id != ref.game.game_id
                or (frame.seq < n and frame.hash == ref.frames[frame.seq].hash)
                or (frame.seq == n and frame.prev == ref.state.prev)):
            return None   # not of this game, ours, or simply the next frame
        if frame.seat in self.barred:
            return None
        try:
            authenticate(ref.game, wire, frame.seq)
        except Violation:
            return None   # anyone can put a seat number on garbage
        self._keep(frame)   # early frames too: a branch may come in any order
        path = [frame]
        while path[0].seq > n or path[0].prev != ref.state_before(path[0].seq).prev:
            parent = self.foreign.get(path[0].prev)
            if parent is None or parent.seq != path[0].seq - 1 or len(path) > MAX_BRANCH:
                return None   # where it parts from our chain is not known (yet)
            path.insert(0, parent)
        root = path[0]
        if root.seq >= n or not rivals(ref.frames[root.seq], root):
            return None
        return root.seq, self._chain(ref, root)[:MAX_BRANCH]

    def _chain(self, ref: Referee, root: Frame) -> list[Frame]:
        """`root` and the chain its kept successors give: where they fork, the successor
        whose own chain comes first by the rule at that place, so that the same frames
        give the same branch whatever order they came in."""
        children: defaultdict[bytes, list[Frame]] = defaultdict(list)
        for f in self.foreign.values():
            children[f.prev].append(f)
        game, before = ref.game, ref.state_before(root.seq)
        best: dict[bytes, list[Frame]] = {}

        def tail(frames: list[Frame]) -> list[Frame]:
            """The chain after the last of `frames` (a valid path from the place)."""
            last = frames[-1]
            if last.hash in best:
                return best[last.hash]
            best[last.hash] = []
            if last.hash not in self.states:
                branch(game, before, frames, self.states)   # keeps the state if valid
            state = self.states.get(last.hash)
            if state is None or len(frames) >= MAX_BRANCH:
                return []
            found: tuple[tuple[object, ...], list[Frame]] | None = None
            for kid in children.get(last.hash, []):
                sub = branch(game, state, [kid, *tail([*frames, kid])], self.states)
                broken = sub.broken
                # Only the frame's own fault bars its signer: a share that opens a seal
                # of garbage blames the seal's committer, not the declarer that signed it.
                if not sub.frames and broken is not None and broken.authenticated \
                        and broken.seat == kid.seat:
                    self._bar(kid, broken)
                elif sub.frames and (found is None or (sub.key, kid.hash) < found[0]):
                    found = ((sub.key, kid.hash), list(sub.frames))
            best[last.hash] = [] if found is None else found[1]
            return best[last.hash]

        return [root, *tail([root])]

    def judge(self, ref: Referee, place: int, frames: list[Frame]) -> list[Frame] | None:
        """The frames to go on with if the branch `frames` takes `place` from the chain
        this seat holds (protocol/fork.py), or if its first frame breaks the rules there
        (the referee then keeps the violation, as a seat that saw it first would have);
        None if ours keeps the place. A branch judged before, against the same head of
        ours, is not judged again."""
        key = (frames[-1].hash, ref.state.prev)
        if key in self.judged:
            return None
        self.met.add(frames[0].hash)
        before = ref.state_before(place)
        theirs = branch(ref.game, before, frames, self.states)
        if not theirs.frames:
            if theirs.broken is not None and theirs.broken.authenticated:
                return frames[:1]
        elif takes_place(theirs, ref.branch(place)):
            return list(theirs.frames)
        if len(self.judged) >= MAX_JUDGED:
            self.judged.clear()
        self.judged.add(key)
        return None

    def give_up(self, store: GameStore, ref: Referee, seq: int) -> None:
        """Rewind the referee and the store to place `seq`, keeping what was dropped."""
        for lost in ref.rewind(seq):
            self._keep(lost)
        store.rewind(seq)
        self.switched += 1

    @staticmethod
    def elsewhere(ref: Referee, wire: bytes) -> bool:
        """Whether `wire` is a frame of this game built on a history this seat does not
        hold (its prev is not the hash this chain has before its seq)."""
        try:
            frame = parse_frame(wire, ref.game.suite)
        except EncodingError:
            return False
        return (frame.game_id == ref.game.game_id and frame.seq <= len(ref.frames)
                and frame.prev != ref.state_before(frame.seq).prev)

    @staticmethod
    def shown(ref: Referee, have: int) -> list[bytes]:
        """What to send a seat whose chain of `have` frames differs from ours: our chain
        from a little before its length on (so that it can link our branch to the place
        where we part, and judge it), then our ABSENT frames before that (the winners of
        places where we parted longer ago)."""
        start = max(0, min(have, len(ref.frames)) - MAX_SHOWN // 2)
        near = [f.wire for f in ref.frames[start:start + MAX_SHOWN]]
        absent = [f.wire for f in ref.frames[:start] if f.type is MessageType.ABSENT]
        return [*near, *absent[-MAX_SHOWN:]]
