"""fork.json: contested places, from spec/10-session.md 10.8 "Two frames for one place".

Each case replays the setup and the first `prefix` frames of the chain, then each rival
branch (two or three) from that state (every frame valid there), counts the seals it
opened (an OPEN, or the share that completes the table's opening) and its other
decryption shares, checks that every two rivals are rivals at seq = prefix, and settles
the place by the one key per branch of 10.8: (minus its opened seals, minus its other
shares, the rank of its rival: the owed frame before an ABSENT, then the seat), the
lowest keeping the place. The rule that decided is the first of the three key items in
which the winner differs from the next branch. The order must be total (of every two
branches exactly one comes first) and must not depend on the order in which the
branches are listed."""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass

from independent.checks.tally import Tally, load
from independent.session.frames import Frame
from independent.session.game import Game, decode_setup
from independent.session.state import State, initial_state
from independent.session.step import Violation, step

OPEN, ABSENT = 9, 10   # 10.2 message types


@dataclass
class Branch:
    """A rival and the valid frames that follow it on its chain, in order (10.8)."""

    frames: list[Frame]
    opened: int
    shares: int

    @property
    def rival(self) -> Frame:
        return self.frames[0]


def replay(g: Game, st: State, wires: list[bytes]) -> Branch:
    """Every frame through 10.5 from `st` (a Violation if one is not valid there). An OPEN
    opens a seal; an ABSENT that carries a decryption share (the third item of its body,
    10.8 "Absence") opens the declared seat's seal if that seal is open after it (the
    table's opening completed), else it is a share."""
    frames: list[Frame] = []
    opened = shares = 0
    for wire in wires:
        st, fr = step(g, st, wire)
        frames.append(fr)
        if fr.type == OPEN:
            opened += 1
        elif fr.type == ABSENT and len(fr.body) == 3:
            if st.rules.nonces[fr.body[0]] is not None:
                opened += 1
            else:
                shares += 1
    return Branch(frames, opened, shares)


def key(b: Branch) -> tuple[int, int, int, int]:
    """10.8 rules 1-3: (minus opened seals, minus other shares, 1 for an ABSENT rival and
    0 for the owed frame, its seat); lowest first."""
    return (-b.opened, -b.shares, 1 if b.rival.type == ABSENT else 0, b.rival.seat)


def comes_first(x: Branch, y: Branch) -> bool:
    """Whether x's branch comes before y's."""
    return key(x) < key(y)


def settle(branches: list[Branch]) -> tuple[int, int]:
    """The index of the branch that keeps the place, and the rule that set it before the
    next branch: 1 (more opened seals), 2 (more shares) or 3 (rank)."""
    order = sorted(range(len(branches)), key=lambda i: key(branches[i]))
    first, second = branches[order[0]], branches[order[1]]
    rule = 1 if first.opened != second.opened else 2 if first.shares != second.shares else 3
    return order[0], rule


def rivals(x: Frame, y: Frame) -> bool:
    """10.8: same game id, seq and prev, different seats, at least one an ABSENT."""
    return (x.game_id == y.game_id and x.seq == y.seq and x.prev == y.prev
            and x.seat != y.seat and ABSENT in (x.type, y.type))


def check_fork(t: Tally) -> None:
    doc = load(t, "fork.json")
    g = decode_setup(bytes.fromhex(doc["setup"]))
    chain = [bytes.fromhex(w) for w in doc["chain"]]
    for case in doc["cases"]:
        name = case["name"]
        prefix = case["prefix"]
        st = initial_state(g)
        try:
            for wire in chain[:prefix]:
                st, _ = step(g, st, wire)
        except Violation as v:
            t.ok(f"{name}: the chain's prefix is valid ({v.rule} at frame {v.frame})", False)
            continue
        t.ok(f"{name}: two or three branches", len(case["branches"]) in (2, 3))
        branches: list[Branch] = []
        for i, wires in enumerate(case["branches"]):
            try:
                branches.append(replay(g, copy.deepcopy(st),
                                       [bytes.fromhex(w) for w in wires]))
            except Violation as v:
                t.ok(f"{name}: branch {i} is valid there ({v.rule} at frame {v.frame} "
                     f"by seat {v.seat})", False)
        if len(branches) < len(case["branches"]) or len(branches) < 2:
            continue
        t.eq(f"{name}: opened", [b.opened for b in branches], case["opened"])
        t.eq(f"{name}: shares", [b.shares for b in branches], case["shares"])
        for i, j in itertools.combinations(range(len(branches)), 2):
            x, y = branches[i].rival, branches[j].rival
            t.ok(f"{name}: branches {i} and {j} are rivals at seq {prefix}",
                 rivals(x, y) and x.seq == prefix)
            t.ok(f"{name}: of branches {i} and {j} exactly one comes first",
                 comes_first(branches[i], branches[j])
                 != comes_first(branches[j], branches[i]))
        won, rule = settle(branches)
        t.eq(f"{name}: winner and rule", [won, rule], [case["winner"], case["rule"]])
        t.ok(f"{name}: the winner comes before every other branch",
             all(comes_first(branches[won], b) for i, b in enumerate(branches) if i != won))
        for perm in itertools.permutations(range(len(branches))):
            if list(perm) == sorted(perm):
                continue
            w, r = settle([branches[i] for i in perm])
            t.eq(f"{name}: branches in the order {list(perm)}", [perm[w], r],
                 [case["winner"], case["rule"]])
