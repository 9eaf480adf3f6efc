"""Bram's dominoes: moves, their encodings and the public state (spec/rules/bram.md
sections 2-4).

`BramState` is what everybody at the table sees (section 3): the line, the played
tiles, how many tiles each seat holds, whose turn it is and how many passes in a
row have been made. It is only constructible if it could arise from play (checked
in `_state_problem`, which is why the set, the seats and the hand size of section 2
are here). Moves and their integer ids and texts are state-free (section 4).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from ..errors import EncodingError, LocalError
from ..tiles import DOUBLE_SIX, Tile, tile
from .base import RuleViolation, json_int, json_int_pair, json_list

NAME = "bram"
SEATS = 2
HAND_SIZE = 13
TILE_SET = DOUBLE_SIX
START_TILE: Tile = (6, 6)
#: Ids run 0 (pass) to 2 * 28 (the double-six on the right end).
MAX_MOVE_ID = 2 * len(TILE_SET.tiles)

Placed = tuple[int, int]
"""A tile as it lies in the line: (left half, right half)."""
Reason = Literal["out", "blocked"]


class End(StrEnum):
    """Which end of the line a tile extends (spec/rules/bram.md section 4)."""

    LEFT = "L"
    RIGHT = "R"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to play; always legal while the hand is on (section 5)."""


@dataclass(frozen=True, slots=True)
class Play:
    """Put `tile` (normalised low-high) on `end` of the line."""

    tile: Tile
    end: End

    def __post_init__(self) -> None:
        t = self.tile
        if not (isinstance(t, tuple) and len(t) == 2
                and all(type(x) is int and x >= 0 for x in t) and t[0] <= t[1]):
            raise LocalError("rules/bad-move", f"{t!r} is not a normalised (low, high) tile")
        if not isinstance(self.end, End):
            raise LocalError("rules/bad-move", f"{self.end!r} is not an End")


Move = Pass | Play
PASS = Pass()


@dataclass(frozen=True, slots=True)
class BramState:
    """The public state of a hand (spec/rules/bram.md section 3); never a hand's contents."""

    line: tuple[Placed, ...]
    """The line from left to right, each tile oriented as it lies."""
    played: frozenset[Tile]
    """Every tile in the line, the double-six included."""
    hand_counts: tuple[int, ...]
    """How many tiles each seat still holds."""
    turn: int
    """The seat that owes the next move (while the hand is on)."""
    first_player: int
    """The seat that moved first; komi is added to its pips."""
    passes: int
    """Passes in a row just made: 0, 1, or 2 once blocked."""
    finished: Reason | None
    """None while the hand is on."""

    def __post_init__(self) -> None:
        problem = _state_problem(self)
        if problem:
            raise LocalError("rules/bad-state", problem)

    @property
    def ends(self) -> tuple[int, int]:
        """The open numbers (left, right)."""
        return self.line[0][0], self.line[-1][1]

    def to_json(self) -> dict[str, object]:
        """The state as JSON; `played` is left out because the line determines it."""
        return {"line": [list(p) for p in self.line], "hand_counts": list(self.hand_counts),
                "turn": self.turn, "first_player": self.first_player,
                "passes": self.passes, "finished": self.finished}

    @classmethod
    def from_json(cls, obj: Mapping[str, object]) -> BramState:
        """Inverse of to_json; anything else is an EncodingError."""
        try:
            if set(obj) != {"line", "hand_counts", "turn", "first_player", "passes",
                            "finished"}:
                raise TypeError("wrong keys")
            line = tuple(json_int_pair(p) for p in json_list(obj["line"]))
            counts = tuple(json_int(c) for c in json_list(obj["hand_counts"]))
            finished = obj["finished"]
            if finished not in (None, "out", "blocked"):
                raise TypeError("bad finished")
            return cls(line, frozenset(tile(*p) for p in line), counts, json_int(obj["turn"]),
                       json_int(obj["first_player"]), json_int(obj["passes"]),
                       "out" if finished == "out" else "blocked" if finished else None)
        except (TypeError, LocalError) as e:
            raise EncodingError("rules/state-json", str(e)) from None


def _state_problem(s: BramState) -> str | None:
    """Why `s` could not arise from play under these rules, or None."""
    if len(s.hand_counts) != SEATS or not all(0 <= c <= HAND_SIZE for c in s.hand_counts):
        return f"hand counts {s.hand_counts} are not {SEATS} counts in 0..{HAND_SIZE}"
    if s.turn not in range(SEATS) or s.first_player not in range(SEATS):
        return "turn and first player are seats 0 or 1"
    if not s.line or any(p[0] not in range(7) or p[1] not in range(7) for p in s.line):
        return "the line is a non-empty run of double-six tiles"
    if any(a[1] != b[0] for a, b in zip(s.line, s.line[1:], strict=False)):
        return "neighbours in the line must match"
    if len(s.played) != len(s.line) or s.played != {tile(*p) for p in s.line}:
        return "played tiles must be exactly the line's tiles, each once"
    if START_TILE not in s.played:
        return "the double-six is always on the table"
    if sum(s.hand_counts) != SEATS * HAND_SIZE - (len(s.line) - 1):
        return "every tile played came from a hand"
    out = min(s.hand_counts) == 0
    expected = "blocked" if s.passes == 2 else "out" if out else None
    if s.passes not in range(3) or (out and s.passes) or s.finished != expected:
        return f"finished={s.finished!r} does not follow from passes and hand counts"
    return None


def move_id(move: Move) -> int:
    """0 for pass; 1 + 2 * (tile index) + (0 for L, 1 for R) for a play (section 4)."""
    if isinstance(move, Pass):
        return 0
    index = TILE_SET.index.get(move.tile)
    if index is None:
        raise RuleViolation("rules/not-in-set", f"{move.tile} is not a double-six tile")
    return 1 + 2 * index + (move.end is End.RIGHT)


def move_from_id(value: int) -> Move:
    """Inverse of move_id; EncodingError outside 0..56 or for a non-int."""
    if type(value) is not int or not 0 <= value <= MAX_MOVE_ID:
        raise EncodingError("rules/move-id", f"{value!r} is not a move id in 0..{MAX_MOVE_ID}")
    if value == 0:
        return PASS
    index, right = divmod(value - 1, 2)
    return Play(TILE_SET.tiles[index], End.RIGHT if right else End.LEFT)


def move_text(move: Move) -> str:
    """"pass", or "low-high>L" / "low-high>R" (section 4)."""
    if isinstance(move, Pass):
        return "pass"
    move_id(move)  # refuse to name a tile outside the set
    return f"{move.tile[0]}-{move.tile[1]}>{move.end.value}"


# ASCII digits only and no leading zeros, so every move has exactly one text.
_PLAY_TEXT = re.compile(r"(0|[1-9][0-9]?)-(0|[1-9][0-9]?)>([LR])")


def parse_move(text: str) -> Move:
    """Inverse of move_text; EncodingError for anything but the canonical text."""
    if not isinstance(text, str):
        raise EncodingError("rules/move-text", f"{text!r} is not a string")
    if text == "pass":
        return PASS
    m = _PLAY_TEXT.fullmatch(text)
    if m is None:
        raise EncodingError("rules/move-text", f"{text!r} is not 'pass' or like '3-5>L'")
    t = (int(m[1]), int(m[2]))
    if t[0] > t[1] or t not in TILE_SET:
        raise EncodingError("rules/move-text", f"{text!r}: write a double-six tile low-high")
    return Play(t, End(m[3]))

