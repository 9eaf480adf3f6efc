"""The Mineshaft rule vectors, spec/rules/mineshaft.md 11 (mineshaft_perft.json): the
prefix, the state and hands reached, the legal moves there, every perft[d] and the
terminal counts; and the move encoding of section 4."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from independent.checks.tally import VECTORS
from independent.errors import RuleError, SpecError
from independent.group.points import SETS, Tile
from independent.rules.mineshaft import DRAW, PLAY, MineMove, Mineshaft, MineState, round_winners

PERFT = VECTORS / "rules" / "mineshaft_perft.json"


def parse_tile(text: str) -> Tile:
    a, b = text.split("-")
    return (int(a), int(b))


@dataclass
class Position:
    """A position with every hand and the pile order known (section 11)."""

    rules: Mineshaft
    state: MineState
    hands: list[list[Tile]]
    pile: list[Tile]

    def play(self, m: MineMove) -> Position:
        s, seat = self.state, self.state.turn
        hands, pile = [list(h) for h in self.hands], list(self.pile)
        if m.kind == PLAY:
            if m.tile not in hands[seat]:
                raise AssertionError(f"seat {seat} does not hold {m.text()}")
            hands[seat].remove(m.tile)
        elif m.kind == DRAW:
            hands[seat].append(pile.pop(0))
        return Position(self.rules, self.rules.apply(s, seat, m), hands, pile)

    def legal(self) -> list[MineMove]:
        s = self.state
        return self.rules.legal_moves(s, self.hands[s.turn]) if s.finished is None else []


def perft_walk(pos: Position, depth: int, counts: list[int],
               terminals: dict[str, int] | None, d: int = 0) -> None:
    """counts[d] += the sequences of exactly d moves; terminals (full walk) by outcome."""
    # SPEC GAP: 11 says the endgame cases count "every finished round reachable from their
    # position by `reason/winning seats`" without saying whether a round is a move sequence
    # or a distinct final state, nor up to what depth. Read as: every legal move sequence
    # ending the round, at any depth, keyed `reason/` + the winning seats (round_winners)
    # ascending joined by `+` (the vectors' counts agree).
    counts[d] += 1
    if pos.state.finished is not None:
        if terminals is not None:
            o = pos.rules.outcome(pos.state, pos.hands, [])
            key = f"{o.reason}/{'+'.join(map(str, round_winners(o)))}"
            terminals[key] = terminals.get(key, 0) + 1
        return
    if d == depth and terminals is None:
        return
    for m in pos.legal():
        perft_walk(pos.play(m), depth, counts, terminals, d + 1)


def check_perft(path: Path = PERFT, verbose: bool = True) -> tuple[int, int]:
    """Every case of the perft file; returns (passed, failed) checks."""
    data = json.loads(path.read_text())
    passed = failed = 0

    def check(label: str, ok: bool, why: str = "") -> None:
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        if verbose or not ok:
            print(f"{'PASS' if ok else 'FAIL'} {label}" + ("" if ok else f": {why}"))

    for case in data["cases"]:
        name = case["name"]
        try:
            rules = Mineshaft(case["params"])
            hands = [[parse_tile(t) for t in h] for h in case["hands"]]
            pile = [parse_tile(t) for t in case["pile"]]
            pos = Position(rules, rules.initial_state(case["first_player"]), hands, pile)
            check(f"{name}: deal", sorted([*(t for h in hands for t in h), *pile,
                                           *rules.on_table])
                  == sorted(rules.tiles), "the deal is not the whole set")
            for text in case["prefix"]:
                m = rules.parse_move(text)
                legal = pos.legal()
                if m not in legal:
                    raise AssertionError(f"prefix move {text} is not legal "
                                         f"({[x.text() for x in legal]})")
                pos = pos.play(m)
        except (SpecError, AssertionError) as e:
            check(f"{name}: prefix", False, f"{type(e).__name__}: {getattr(e, 'detail', e)}")
            continue
        got_state = pos.state.to_json()
        check(f"{name}: state after {len(case['prefix'])} moves", got_state == case["state"],
              f"got {got_state}")
        got_hands = [sorted(f"{a}-{b}" for a, b in sorted(h)) for h in pos.hands]
        want_hands = [sorted(h) for h in case["hands_now"]]
        check(f"{name}: hands", got_hands == want_hands, f"got {got_hands}")
        legal_text = [m.text() for m in pos.legal()]
        check(f"{name}: legal {legal_text}", legal_text == case["legal"],
              f"want {case['legal']}")
        for m in pos.legal():   # the move ids round-trip
            if rules.move_from_id(rules.move_id(m)) != m:
                check(f"{name}: id of {m.text()}", False, "does not round-trip")
        want = case["perft"]
        counts = [0] * len(want)
        perft_walk(pos, len(want) - 1, counts, None)
        check(f"{name}: perft {counts}", counts == want, f"want {want}")
        if "terminals" in case:
            terms: dict[str, int] = {}
            perft_walk(pos, 10**6, [0] * 1000, terms)
            check(f"{name}: terminals {dict(sorted(terms.items()))}",
                  terms == case["terminals"], f"want {case['terminals']}")
    return passed, failed


def self_check() -> tuple[int, int]:
    """The encoding table of section 4 and the texts it refuses."""
    r = Mineshaft({"set": "double-six", "seats": 2, "round": 6, "long": False, "after": ""})
    table = {"pass": 0, "draw": 1, "0-0>H": 2, "0-0>S0": 3, "0-0>S5": 8, "0-0>V0a": 9,
             "0-1>H": 23, "2-6>H": 359, "3-4>V3a": 414, "3-5>S2": 425, "6-6>V6b": 589}
    ok = bad = 0
    for text, i in table.items():
        m = r.parse_move(text)
        good = r.move_id(m) == i and r.move_from_id(i) == m and m.text() == text
        ok, bad = ok + good, bad + (not good)
        if not good:
            print(f"FAIL encoding {text} <-> {i}")
    for text in ("5-3>H", "03-5>H", "3-5>h", "3-5>S6", "3-5>V3", "3-5>V03a", "DRAW",
                 "3-5>V7a", "٣-5>H"):
        try:
            r.parse_move(text)
            print(f"FAIL encoding {text!r} accepted")
            bad += 1
        except RuleError:
            ok += 1
    ends = {"double-six": 589, "double-nine": 1486, "double-twelve": 3004}
    for name, last in ends.items():
        rr = Mineshaft({"set": name, "seats": 2, "round": SETS[name], "long": False,
                        "after": ""})
        good = rr.move_from_id(last) is not None and rr.move_from_id(last + 1) is None
        ok, bad = ok + good, bad + (not good)
        if not good:
            print(f"FAIL the last id of {name} is not {last}")
    return ok, bad
