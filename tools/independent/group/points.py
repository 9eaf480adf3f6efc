"""The fixed points: tile points (spec/05-deck.md 5.1) and commitment generators (7.2).

Both are the suite's hash to the group of their labels (3.3, 3.5), as encodings;
spec/vectors/tiles.json lists them all for dealerless/2.
"""

from __future__ import annotations

from independent.errors import fail
from independent.group.ops import u64
from independent.group.suites import Suite

Tile = tuple[int, int]


SETS = {"double-six": 6, "double-nine": 9, "double-twelve": 12}
_TABLES: dict[tuple[str, int, str], dict[str, bytes]] = {}
_GENS: dict[tuple[str, int], list[bytes]] = {}


def tile_points(s: Suite, set_name: str) -> dict[str, bytes]:
    """5.1: "a-b" -> H2P(TILE, set name, bytes([a, b])) in the suite, canonical order."""
    key = (s.name, s.version, set_name)
    if key not in _TABLES:
        n = SETS[set_name]
        _TABLES[key] = {f"{a}-{b}": s.H2P("TILE", set_name.encode(), bytes([a, b]))
                        for a in range(n + 1) for b in range(a, n + 1)}
    return _TABLES[key]


def decode_tile(m: bytes, table: dict[str, bytes]) -> str:
    for name, pt in table.items():
        if pt == m:
            return name
    fail("deck/not-a-tile")


def tile_text(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def h_gen(s: Suite) -> bytes:
    """7.2: h = H2P(GENERATOR, "h")."""
    return gens(s, 0, with_h=True)[0]


def gens(s: Suite, n: int, with_h: bool = False) -> list[bytes]:
    """7.2: h_i = H2P(GENERATOR, "h_i", u64(i)) for i < n (or [h] with `with_h`)."""
    key = (s.name, s.version)
    got = _GENS.setdefault(key, [s.H2P("GENERATOR", b"h")])
    while len(got) < n + 1:
        got.append(s.H2P("GENERATOR", b"h_i", u64(len(got) - 1)))
    return got[:1] if with_h else got[1 : n + 1]
