"""What the rule sets share: tiles in canonical order (spec 5.1) and the hand outcome.

The outcome is bram.md 8's, whose JSON (11.1 `outcome`) mexican-train and mineshaft reuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from independent.group.points import Tile


def set_tiles(m: int) -> tuple[Tile, ...]:
    """spec 5.1: the canonical order, by low then high."""
    return tuple((a, b) for a in range(m + 1) for b in range(a, m + 1))


def norm(t: Tile) -> Tile:
    return (min(t), max(t))


@dataclass
class Outcome:
    """A finished hand (bram.md 8, mexican-train.md 8.1, mineshaft.md 8); to_json is 11.1's
    `outcome`."""

    winner: int | None
    reason: str
    hand_pips: list[int]
    pips_halves: list[int]
    margin_halves: int
    hidden: list[Tile]

    def to_json(self) -> dict[str, Any]:
        # 11.1: `winners` is the winner alone, or on a draw every seat at the fewest
        # half pips (komi included).
        low = min(self.pips_halves)
        winners = ([self.winner] if self.winner is not None
                   else [s for s, h in enumerate(self.pips_halves) if h == low])
        return {"winner": self.winner, "winners": winners, "draw": self.winner is None,
                "reason": self.reason,
                "pips": [halves_text(x) for x in self.pips_halves],
                "pips_halves": self.pips_halves, "hand_pips": self.hand_pips,
                "margin": halves_text(self.margin_halves),
                "margin_halves": self.margin_halves}


def halves_text(h: int) -> str:
    """bram.md 8: a half-pip count as exact decimal text: "12.5", "-0.5", "3" [D10]."""
    sign, a = ("-" if h < 0 else ""), abs(h)
    return f"{sign}{a // 2}" + (".5" if a % 2 else "")
