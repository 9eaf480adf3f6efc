"""The rule set `bram` (spec/rules/bram.md): state (3), moves (4), apply (6), outcome (8).

Its failures are the verifier's Err (the other rule sets raise RuleError).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from independent.errors import fail_err
from independent.group.points import Tile, tile_text
from independent.rules.common import Outcome, set_tiles


@dataclass(frozen=True)
class BramState:
    """rules/bram.md 3 (without `played`, which the line determines)."""

    line: tuple[Tile, ...]
    hand_counts: tuple[int, ...]
    turn: int
    first_player: int
    passes: int
    finished: str | None

    @property
    def played(self) -> set[Tile]:
        return {(min(a, b), max(a, b)) for a, b in self.line}

    def to_json(self) -> dict[str, Any]:
        # 10.3 / bram.md 3; `turn` is this field, an integer even once over [D8].
        return {"finished": self.finished, "first_player": self.first_player,
                "hand_counts": list(self.hand_counts), "line": [list(x) for x in self.line],
                "passes": self.passes, "turn": self.turn}


@dataclass(frozen=True)
class Move:
    tile: Tile | None  # None: Pass
    end: str = ""      # "L" or "R"

    def text(self) -> str:  # bram.md 4
        return "pass" if self.tile is None else f"{tile_text(self.tile)}>{self.end}"


class Bram:
    """The rule set `bram` (rules/bram.md)."""

    name = "bram"
    drawing_rules = False    # 10.4: never draws, no forced play
    set_name = "double-six"
    seats, hand_size, hidden, on_table = 2, 13, 1, ((6, 6),)   # bram.md 2 DealPlan
    tiles: tuple[Tile, ...] = set_tiles(6)  # 5.1

    def __init__(self, params: dict[str, Any]) -> None:
        # bram.md 1/2, 8.2 row 9 [D3]: an omitted key takes its default (decode_setup then
        # refuses a map without every parameter spelled out, setup/params); an unknown key,
        # a wrong type or a value out of range is rules/params.
        k = params.get("komi_halves", 0) if isinstance(params, dict) else None
        if (not isinstance(params, dict) or set(params) - {"komi_halves"}
                or not isinstance(k, int) or isinstance(k, bool) or not -336 <= k <= 336):
            fail_err("rules/params", f"bram takes {{komi_halves: -336..336}}, got {params}")
        self.komi = k
        self.params = {"komi_halves": k}

    # bram.md 3
    def initial_state(self, first_player: int) -> BramState:
        return BramState(((6, 6),), (13, 13), first_player, first_player, 0, None)

    def to_move(self, s: BramState) -> int | None:
        return None if s.finished else s.turn

    def is_over(self, s: BramState) -> bool:
        return s.finished is not None

    # bram.md 4
    def move_from_id(self, move_id: int) -> Move | None:
        """None for an id that names no move: the session's move/unknown-id [D4]."""
        if not 0 <= move_id <= 56:
            return None
        if move_id == 0:
            return Move(None)
        return Move(self.tiles[(move_id - 1) // 2], "L" if (move_id - 1) % 2 == 0 else "R")

    def played_tile(self, m: Move) -> Tile | None:
        return m.tile

    # bram.md 6
    def apply(self, s: BramState, seat: int, m: Move) -> BramState:
        def violate(code: str, detail: str) -> NoReturn:
            fail_err(code, f"{m.text()}: {detail}")

        if s.finished is not None:
            violate("rules/game-over", "the hand is over")
        if seat != s.turn:
            violate("rules/not-your-turn", f"seat {s.turn} is to move")
        nxt = 1 - seat
        if m.tile is None:
            passes = s.passes + 1
            return BramState(s.line, s.hand_counts, nxt, s.first_player, passes,
                             "blocked" if passes == 2 else None)
        t = m.tile
        if t not in self.tiles:
            violate("rules/not-in-set", "not a double-six tile")
        if t in s.played:
            violate("rules/tile-already-played", "the tile is already on the table")
        left, right = s.line[0][0], s.line[-1][1]
        p = left if m.end == "L" else right
        if p not in t:
            violate("rules/tile-does-not-match", f"that end shows {p}")
        if m.end == "L" and left == right:
            violate("rules/non-canonical-end", "both ends are equal: play on the right")
        other = t[1] if t[0] == p else t[0]
        line = ((other, p), *s.line) if m.end == "L" else (*s.line, (p, other))
        counts = list(s.hand_counts)
        counts[seat] -= 1
        return BramState(line, tuple(counts), nxt, s.first_player, 0,
                         "out" if counts[seat] == 0 else None)

    # bram.md 8
    def outcome(self, s: BramState, hands: list[list[Tile]], hidden: list[Tile]) -> Outcome:
        if s.finished is None:
            raise RuntimeError("rules/not-over")
        every = [t for h in hands for t in h] + hidden + sorted(s.played)
        if (any(len(h) != c or len(set(h)) != len(h) for h, c in zip(
                hands, s.hand_counts, strict=True)) or len(hidden) != 1
                or sorted(every) != sorted(self.tiles)):
            fail_err("rules/reveal-mismatch", "the revealed tiles disagree with the public state")
        hand_pips = [sum(a + b for a, b in h) for h in hands]
        pips = [2 * p + (self.komi if s_ == s.first_player else 0)
                for s_, p in enumerate(hand_pips)]
        if s.finished == "out":
            winner = s.hand_counts.index(0)
            margin = 2 * hand_pips[1 - winner]
        elif pips[0] == pips[1]:
            winner, margin = None, 0
        else:
            winner = 0 if pips[0] < pips[1] else 1
            margin = abs(pips[0] - pips[1])
        return Outcome(winner, s.finished, hand_pips, pips, margin, list(hidden))
