"""fork.json: contested places, from spec/10-session.md 10.8 "Two frames for one place".

Each case replays the setup and the first `prefix` frames of the chain, then each rival
branch from that state (every frame valid there), counts its revealing frames and settles
the place between the two branches by rules 1 to 3."""

from __future__ import annotations

import copy
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

    def signed_after_rival(self, seat: int) -> bool:
        return any(f.seat == seat for f in self.frames[1:])


def replay(g: Game, st: State, wires: list[bytes]) -> Branch:
    """Every frame through 10.5 from `st` (a Violation if one is not valid there); a frame
    is revealing when it is an OPEN, or an ABSENT after which the rules' state `withheld`
    has grown (its share completed the table's opening of a seal)."""
    frames: list[Frame] = []
    revealing = 0
    for wire in wires:
        before = len(st.rules.withheld)
        st, fr = step(g, st, wire)
        frames.append(fr)
        if fr.type == OPEN or (fr.type == ABSENT and len(st.rules.withheld) > before):
            revealing += 1
    return Branch(frames, revealing)


def rank(fr: Frame) -> tuple[int, int]:
    """Rule 3: (0 for an ABSENT, 1 otherwise; then its seat)."""
    return (0 if fr.type == ABSENT else 1, fr.seat)


def takes_place(x: Branch, y: Branch) -> tuple[str, int]:
    """Rules 1 to 3 of 10.8 between the branches of rivals X and Y: which keeps the place
    ("x" or "y") and the rule that decided."""
    if x.revealing != y.revealing:                                            # 1
        return ("x" if x.revealing > y.revealing else "y"), 1
    sx, sy = x.rival.seat, y.rival.seat                                       # 2
    x_conceded = y.signed_after_rival(sx)
    y_conceded = x.signed_after_rival(sy)
    if x_conceded and not y_conceded:
        return "y", 2
    if y_conceded and not x_conceded:
        return "x", 2
    return ("x" if rank(x.rival) < rank(y.rival) else "y"), 3                 # 3


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
        st = initial_state(g)
        try:
            for wire in chain[: case["prefix"]]:
                st, _ = step(g, st, wire)
        except Violation as v:
            t.ok(f"{name}: the chain's prefix is valid ({v.rule} at frame {v.frame})", False)
            continue
        branches: dict[str, Branch] = {}
        for side in ("a", "b"):
            try:
                branches[side] = replay(g, copy.deepcopy(st),
                                        [bytes.fromhex(w) for w in case[side]])
            except Violation as v:
                t.ok(f"{name}: branch {side} is valid there ({v.rule} at frame {v.frame} "
                     f"by seat {v.seat})", False)
        if len(branches) < 2:
            continue
        a, b = branches["a"], branches["b"]
        t.ok(f"{name}: a and b are rivals at seq {case['prefix']}",
             rivals(a.rival, b.rival) and a.rival.seq == case["prefix"])
        t.eq(f"{name}: revealing", [a.revealing, b.revealing], case["revealing"])
        won, rule = takes_place(a, b)
        t.eq(f"{name}: winner and rule", [{"x": "a", "y": "b"}[won], rule],
             [case["winner"], case["rule"]])
        swapped, rule2 = takes_place(b, a)
        t.eq(f"{name}: a and b swapped", [{"x": "b", "y": "a"}[swapped], rule2],
             [case["winner"], case["rule"]])
