"""fork.json: contested places, from spec/10-session.md 10.8 "Two frames for one place".

Each case replays the setup and the first `prefix` frames of the chain, then each rival
branch (two or three) from that state (every frame valid there), counts its revealing
frames, checks that every two rivals are rivals at seq = prefix, and settles the place by
the one key per branch of 10.8: (minus its count of revealing frames, the rank of its
rival), the lowest keeping the place. The rule that decided is 1 when the winner holds
strictly more revealing frames than every other branch, else 2 (rank). The order must be
total (of every two branches exactly one comes first) and must not depend on the order in
which the branches are listed."""

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
    revealing: int

    @property
    def rival(self) -> Frame:
        return self.frames[0]


def replay(g: Game, st: State, wires: list[bytes]) -> Branch:
    """Every frame through 10.5 from `st` (a Violation if one is not valid there); a frame
    is revealing when it discloses a seal, whole or in part: an OPEN, or an ABSENT that
    carries a decryption share (the third item of its body, 10.8 "Absence")."""
    frames: list[Frame] = []
    revealing = 0
    for wire in wires:
        st, fr = step(g, st, wire)
        frames.append(fr)
        if fr.type == OPEN or (fr.type == ABSENT and len(fr.body) == 3):
            revealing += 1
    return Branch(frames, revealing)


def rank(fr: Frame) -> tuple[int, int]:
    """Rule 2: (0 for an ABSENT, 1 otherwise; then its seat)."""
    return (0 if fr.type == ABSENT else 1, fr.seat)


def key(b: Branch) -> tuple[int, tuple[int, int]]:
    """10.8: (minus its count of revealing frames, the rank of its rival); lowest first."""
    return (-b.revealing, rank(b.rival))


def comes_first(x: Branch, y: Branch) -> bool:
    """Whether x's branch comes before y's (rule 1, then rule 2)."""
    return key(x) < key(y)


def settle(branches: list[Branch]) -> tuple[int, int]:
    """The index of the branch that keeps the place, and the rule that decided: 1 if it
    holds strictly more revealing frames than every other branch, else 2."""
    won = min(range(len(branches)), key=lambda i: key(branches[i]))
    most = branches[won].revealing
    rule = 1 if all(b.revealing < most for i, b in enumerate(branches) if i != won) else 2
    return won, rule


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
        t.eq(f"{name}: revealing", [b.revealing for b in branches], case["revealing"])
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
