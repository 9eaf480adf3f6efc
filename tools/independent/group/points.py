"""The fixed points: tile points (spec/05-deck.md 5.1) and commitment generators (7.2).

Both are H2P of their labels (3.3); spec/vectors/tiles.json lists them all.
"""

from __future__ import annotations

from independent.errors import fail
from independent.group.hashing import H2P, T
from independent.group.ops import u64

Tile = tuple[int, int]


SETS = {"double-six": 6, "double-nine": 9, "double-twelve": 12}


def tile_points(set_name: str) -> dict[str, bytes]:
    n = SETS[set_name]
    return {f"{a}-{b}": H2P(T["TILE"], set_name.encode(), bytes([a, b]))
            for a in range(n + 1) for b in range(a, n + 1)}


def decode_tile(m: bytes, table: dict[str, bytes]) -> str:
    for name, pt in table.items():
        if pt == m:
            return name
    fail("deck/not-a-tile")


def tile_text(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


H_GEN = H2P(T["GENERATOR"], b"h")
_GENS: list[bytes] = []


def gens(n: int) -> list[bytes]:
    while len(_GENS) < n:
        _GENS.append(H2P(T["GENERATOR"], b"h_i", u64(len(_GENS))))
    return _GENS[:n]
