"""Domino sets and the message point of each tile (spec/05-deck.md section 5.1).

A tile is a normalised pair (low, high) with 0 <= low <= high <= max pip. Its
message point is M_t = H2P(TILE, set name, bytes([low, high])): nobody knows a
discrete-log relation between tile points, and they decode back by table lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from .errors import DeckError, LocalError
from .groups import Element
from .suite import Suite
from .tags import Tag

Tile = tuple[int, int]


def tile(a: int, b: int) -> Tile:
    """The normalised tile with ends a and b."""
    return (a, b) if a <= b else (b, a)


def tile_text(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def parse_tile(text: str) -> Tile:
    """Inverse of tile_text; accepts either order ("6-3" is "3-6") and nothing else: two
    ASCII decimal numbers without leading zeros, so every port reads the same texts
    (spec/10-session.md 10.3)."""
    parts = text.split("-")
    if len(parts) != 2 or not all(
            p.isascii() and p.isdigit() and (p == "0" or not p.startswith("0")) for p in parts):
        raise LocalError("tile/syntax", f"{text!r} is not a tile like '3-5'")
    return tile(int(parts[0]), int(parts[1]))


@dataclass(frozen=True)
class TileSet:
    """A complete double-n set: (n+1)(n+2)/2 tiles in canonical (low, high) order."""

    name: str
    max_pip: int

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple((a, b) for a in range(self.max_pip + 1)
                     for b in range(a, self.max_pip + 1))

    @cached_property
    def index(self) -> dict[Tile, int]:
        return {t: i for i, t in enumerate(self.tiles)}

    def __contains__(self, t: object) -> bool:
        return t in self.index

    def points(self, suite: Suite) -> tuple[Element, ...]:
        """The message points of the tiles in `suite`, in tile order."""
        return _points(suite, self)[0]

    def point(self, suite: Suite, t: Tile) -> Element:
        if t not in self.index:
            raise LocalError("tile/not-in-set", f"{t} is not a tile of the {self.name} set")
        return self.points(suite)[self.index[t]]

    def decode(self, suite: Suite, pt: Element) -> Tile:
        """The tile whose message point is `pt`, or DeckError."""
        try:
            return _points(suite, self)[1][pt.data]
        except KeyError:
            raise DeckError("deck/not-a-tile",
                            f"the opened point is no tile of the {self.name} set") from None


def tile_point(suite: Suite, ts: TileSet, t: Tile) -> Element:
    return suite.hash_to_point(Tag.TILE, ts.name.encode(), bytes(t))


@lru_cache(maxsize=16)
def _points(suite: Suite, ts: TileSet) -> tuple[tuple[Element, ...], dict[bytes, Tile]]:
    points = tuple(tile_point(suite, ts, t) for t in ts.tiles)
    return points, {p.data: t for p, t in zip(points, ts.tiles, strict=True)}


DOUBLE_SIX = TileSet("double-six", 6)
DOUBLE_NINE = TileSet("double-nine", 9)
DOUBLE_TWELVE = TileSet("double-twelve", 12)
TILE_SETS = {ts.name: ts for ts in (DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE)}
