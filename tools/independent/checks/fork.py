"""fork.json: contested places, from spec/10-session.md 10.8 "Two frames for one place".

Each case replays the setup and the first `prefix` frames of the chain, then each rival
branch (two or three) from that state (every frame valid there), and counts the seals it
opened (by an OPEN, or by the share completing a table opening), the other seals it
posted decryption shares of, and the seats that signed it. It checks that every two
rivals are rivals at seq = prefix, and settles the place by the one key per branch of
10.8: (minus opened seals, minus the other shared seals, minus signers, the rank of its
rival: the owed frame before an ABSENT, then the seat), the lowest keeping the place.
The rule that decided is the first key item in which the winner differs from the next
branch (4 for the rank). The order must be total (of every two branches exactly one
comes first) and must not depend on the order in which the branches are listed.
dealerless/2's file and each suite's (checks.tally.VectorSet): the setup names the suite."""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass

from independent.checks.tally import V2_SET, Tally, VectorSet, load
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
    shared: int
    signers: int

    @property
    def rival(self) -> Frame:
        return self.frames[0]


def replay(g: Game, st: State, wires: list[bytes]) -> Branch:
    """Every frame through 10.5 from `st` (a Violation if one is not valid there). An OPEN
    opens its sender's seal; an ABSENT that carries a decryption share (the third item of
    its body, 10.8 "Absence") opens the declared seat's seal if the declarations are
    over after it (the table's opening completed, whether or not it ended the stage),
    else it shares that seal. A seal is its stage and its committer."""
    frames: list[Frame] = []
    opened: set[tuple[int, int]] = set()
    shared: set[tuple[int, int]] = set()
    for wire in wires:
        stage = st.rules.stage
        st, fr = step(g, st, wire)
        frames.append(fr)
        if fr.type == OPEN:
            opened.add((stage, fr.seat))
        elif fr.type == ABSENT and len(fr.body) == 3:
            seal = (fr.body[1], fr.body[0])
            (opened if st.rules.absent is None else shared).add(seal)
    return Branch(frames, len(opened), len(shared - opened), len({f.seat for f in frames}))


def key(b: Branch) -> tuple[int, int, int, int, int]:
    """10.8 rules 1-4; lowest first."""
    return (-b.opened, -b.shared, -b.signers, 1 if b.rival.type == ABSENT else 0,
            b.rival.seat)


def comes_first(x: Branch, y: Branch) -> bool:
    """Whether x's branch comes before y's."""
    return key(x) < key(y)


def settle(branches: list[Branch]) -> tuple[int, int]:
    """The index of the branch that keeps the place, and the rule that set it before the
    next branch: 1 opened seals, 2 shared seals, 3 signers, 4 rank."""
    order = sorted(range(len(branches)), key=lambda i: key(branches[i]))
    a, b = key(branches[order[0]]), key(branches[order[1]])
    rule = next((i + 1 for i in range(3) if a[i] != b[i]), 4)
    return order[0], rule


def rivals(x: Frame, y: Frame) -> bool:
    """10.8: same game id, seq and prev, different seats, at least one an ABSENT."""
    return (x.game_id == y.game_id and x.seq == y.seq and x.prev == y.prev
            and x.seat != y.seat and ABSENT in (x.type, y.type))


def check_fork(t: Tally, vs: VectorSet = V2_SET) -> None:
    doc = load(t, "fork.json", vs)
    g = decode_setup(bytes.fromhex(doc["setup"]))
    t.eq("the setup's suite and version", (g.suite.name, g.suite.version),
         (vs.suite.name, vs.suite.version))
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
        t.eq(f"{name}: shared", [b.shared for b in branches], case["shared"])
        t.eq(f"{name}: signers", [b.signers for b in branches], case["signers"])
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
