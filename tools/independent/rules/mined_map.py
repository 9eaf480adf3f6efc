"""Mined Games (spec/rules/mined-games.md): tile kinds (2.1), the map text (2.2), its
generation (3) and the state's fields (9)."""

from __future__ import annotations

from typing import Any

from independent.errors import fail_rule
from independent.group.ops import u64
from independent.group.suites import Suite

# 2.1: letter -> (durability, money)
KIND = {"G": (2, 5000), "S": (2, 4000), "I": (3, 3000), "E": (2, 2000), "R": (1, 1000),
        "D": (3, 0), "A": (0, 0), "L": (3, 0)}
NAMES = {"G": "gold", "S": "silver", "I": "iron", "E": "emerald", "R": "garnet", "D": "dirt",
         "A": "air", "L": "lava"}
RESOURCE = "GSIER"
WEIGHTS = [[("D", 36), ("A", 6), ("S", 6), ("I", 8), ("E", 4), ("R", 3), ("G", 1)],
           [("D", 30), ("A", 8), ("S", 7), ("I", 8), ("E", 5), ("R", 3), ("G", 3)],
           [("D", 26), ("A", 8), ("L", 8), ("S", 6), ("I", 5), ("E", 4), ("R", 3), ("G", 4)],
           [("L", 44), ("D", 8), ("G", 6), ("S", 4), ("E", 2)]]


def parse_map(text: str) -> tuple[int, int, list[str]]:
    """2.2 -> (width, height, floors as row-major letter strings); rules/params if bad (2)."""
    floors = text.split("/")
    if len(floors) != 4:
        fail_rule("rules/params", "four floors")
    rows = [f.split(",") for f in floors]
    h, w = len(rows[0]), len(rows[0][0])
    for f in rows:
        if len(f) != h or any(len(r) != w or set(r) - set(KIND) for r in f):
            fail_rule("rules/params", "floors of equal size and known kinds")
    if not (3 <= w <= 12 and 3 <= h <= 12):
        fail_rule("rules/params", "3..12 each way")
    if all(k in "AL" for k in "".join(rows[0])):
        fail_rule("rules/params", "a B1 tile to start on")
    return w, h, ["".join(f) for f in rows]


def generate(s: Suite, seed: bytes, w: int, h: int) -> list[str]:
    """Section 3, with the game's suite's H (3.5)."""
    floors = []
    for f in range(4):
        out = ""
        for i in range(w * h):
            u = int.from_bytes(s.H("MINED_MAP", seed, u64(f), u64(i))[:8], "big") % 64
            for kind, weight in WEIGHTS[f]:
                if u < weight:
                    out += kind
                    break
                u -= weight
        floors.append(out)
    if all(k in "AL" for k in floors[0]):
        floors[0] = "D" + floors[0][1:]
    return floors


def map_text(w: int, floors: list[str]) -> str:
    return "/".join(",".join(f[i:i + w] for i in range(0, len(f), w)) for f in floors)


class Miner:
    def __init__(self) -> None:
        self.at: list[int] | None = None
        self.money = 0
        self.garnets = 0
        self.iron = 0
        self.status = "alive"
        self.died: int | None = None

    def row(self) -> list[Any]:
        return [self.at, self.money, self.garnets, self.iron, self.status, self.died]


class State:
    """Section 9's fields."""

    def __init__(self, k: int) -> None:
        self.stage = 0
        self.w = self.h = 0
        self.floors: list[str] | None = None
        self.dur: list[list[int]] = []
        self.miners = [Miner() for _ in range(k)]
        self.commits: list[bytes | None] = [None] * k
        self.opened: list[Any] = [None] * k
        self.nonces: list[bytes | None] = [None] * k
        self.absent: list[Any] | None = None
        self.forfeits: list[list[Any]] = []
        self.pool = 0
        self.end: str | None = None
        self.result: list[Any] | None = None
        self.keys: list[bytes | None] = [None] * k           # 10.8 share keys
        self.withheld: list[list[Any]] = []                  # D20
        # Not in the JSON: the orders the last frame opened, by the seat or by the table
        # (11.1 moves).
        self.last_orders: Any = None
        self.opened_now = False

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage,
                "map": "" if self.floors is None else map_text(self.w, self.floors),
                "dur": self.dur, "miners": [m.row() for m in self.miners],
                "commits": [None if c is None else c.hex() for c in self.commits],
                "opened": self.opened,
                "nonces": [None if n is None else n.hex() for n in self.nonces],
                "absent": self.absent, "forfeits": self.forfeits, "pool": self.pool,
                "end": self.end, "result": self.result,
                "keys": [None if y is None else y.hex() for y in self.keys],
                "withheld": self.withheld}

    def living(self) -> list[int]:
        return [s for s, m in enumerate(self.miners) if m.status == "alive"]

    def kind(self, p: tuple[int, int, int]) -> str:
        assert self.floors is not None
        return self.floors[p[0]][p[1] * self.w + p[2]]

    def d(self, p: tuple[int, int, int]) -> int:
        return self.dur[p[0]][p[1] * self.w + p[2]]

    def set_d(self, p: tuple[int, int, int], v: int) -> None:
        self.dur[p[0]][p[1] * self.w + p[2]] = max(v, 0)

    def on_mine(self, r: int, c: int) -> bool:
        return 0 <= r < self.h and 0 <= c < self.w
