"""Mineshaft: targets, moves, their encodings and the public state (spec/rules/mineshaft.md).

Theory of operation: the round's starting double, the hub, lies face up from
the start. Up to six shafts are dug off it; each is a line of tiles growing
outwards, stored as (inner half, outer half) pairs, so its open end is the last
outer half (section 3). A double played on an open end closes that line and
strikes a vein: two new lines, its arms `a` and `b`, both starting at the
double's number (decision D6). Every place a tile can go is a *target* with a
state-free number: the hub, shafts S0..S5, and the arms of the vein of each
double (section 4). `MineshaftState` is what the whole table sees; it is only
constructible if it passes the checks of `_state_problem`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ..errors import EncodingError, LocalError
from ..tiles import TILE_SETS, Tile, TileSet, tile
from .base import RuleViolation, json_int, json_int_pair, json_list

NAME = "mineshaft"
HAND_SIZE = 5
SHAFTS = 6
#: Tiles that explore a vein (section 5.3).
VEIN_DEPTH = 3
HUB = 0
FIRST_ARM = 1 + SHAFTS
#: Move ids 0 and 1 are pass and draw; plays follow (section 4).
FIRST_PLAY_ID = 2

Placed = tuple[int, int]
"""A tile as it lies in a line: (inner half, outer half)."""
Line = tuple[Placed, ...]
Phase = Literal["play", "drawn"]
Reason = Literal["out", "blocked"]


def shaft_target(k: int) -> int:
    return 1 + k


def arm_target(double: int, side: int) -> int:
    """Arm `side` (0 for a, 1 for b) of the vein struck by double-`double`."""
    return FIRST_ARM + 2 * double + side


def target_count(ts: TileSet) -> int:
    """Targets of a set: the hub, six shafts, two arms per double of the set."""
    return FIRST_ARM + 2 * (ts.max_pip + 1)


def max_move_id(ts: TileSet) -> int:
    return FIRST_PLAY_ID + target_count(ts) * len(ts.tiles) - 1


def target_text(target: int) -> str:
    """"H", "S0".."S5", or "V<double>a" / "V<double>b"."""
    if target == HUB:
        return "H"
    if target < FIRST_ARM:
        return f"S{target - 1}"
    double, side = divmod(target - FIRST_ARM, 2)
    return f"V{double}{'ab'[side]}"


# -- moves (section 4) -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without a play: after a draw that did not match, or with the pile empty."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top tile of the rubble pile (once a turn, only without a legal play)."""


#: Largest target number of any set (double-twelve): validated per set by `apply`.
_MAX_TARGET = FIRST_ARM + 2 * 13 - 1


@dataclass(frozen=True, slots=True)
class Play:
    """Put `tile` (normalised low-high) on `target`: the hub, a shaft or a vein arm."""

    tile: Tile
    target: int

    def __post_init__(self) -> None:
        t = self.tile
        if not (isinstance(t, tuple) and len(t) == 2
                and all(type(x) is int and x >= 0 for x in t) and t[0] <= t[1]):
            raise LocalError("rules/bad-move", f"{t!r} is not a normalised (low, high) tile")
        if type(self.target) is not int or not 0 <= self.target <= _MAX_TARGET:
            raise LocalError("rules/bad-move", f"{self.target!r} is not a target 0..{_MAX_TARGET}")


Move = Pass | Draw | Play
PASS, DRAW = Pass(), Draw()


def move_id(ts: TileSet, move: Move) -> int:
    """0 pass, 1 draw; 2 + targets * index(tile) + target for a play."""
    if isinstance(move, Pass):
        return 0
    if isinstance(move, Draw):
        return 1
    if not isinstance(move, Play):
        raise LocalError("rules/bad-move", f"{move!r} is not a Mineshaft move")
    index = ts.index.get(move.tile)
    if index is None:
        raise RuleViolation("rules/not-in-set", f"{move.tile} is not a {ts.name} tile")
    if move.target >= target_count(ts):
        raise RuleViolation("rules/no-such-target", f"{target_text(move.target)}: not in {ts.name}")
    return FIRST_PLAY_ID + target_count(ts) * index + move.target


def move_from_id(ts: TileSet, value: int) -> Move:
    """Inverse of move_id; EncodingError outside 0..max_move_id(ts) or for a non-int."""
    top = max_move_id(ts)
    if type(value) is not int or not 0 <= value <= top:
        raise EncodingError("rules/move-id", f"{value!r} is not a move id in 0..{top}")
    if value < FIRST_PLAY_ID:
        return DRAW if value else PASS
    index, target = divmod(value - FIRST_PLAY_ID, target_count(ts))
    return Play(ts.tiles[index], target)


def move_text(ts: TileSet, move: Move) -> str:
    """"pass", "draw", or "low-high>T" with T as in `target_text`."""
    if isinstance(move, Pass | Draw):
        return "draw" if isinstance(move, Draw) else "pass"
    move_id(ts, move)  # refuse to name a tile or target outside the set
    return f"{move.tile[0]}-{move.tile[1]}>{target_text(move.target)}"


# ASCII digits only and no leading zeros, so every move has exactly one text.
_NUM = r"(0|[1-9][0-9]?)"
_PLAY_TEXT = re.compile(rf"{_NUM}-{_NUM}>(?:(H)|S([0-5])|V{_NUM}([ab]))")


def parse_move(ts: TileSet, text: str) -> Move:
    """Inverse of move_text; EncodingError for anything but the canonical text."""
    if not isinstance(text, str):
        raise EncodingError("rules/move-text", f"{text!r} is not a string")
    if text in ("pass", "draw"):
        return DRAW if text == "draw" else PASS
    m = _PLAY_TEXT.fullmatch(text)
    if m is None:
        raise EncodingError("rules/move-text", f"{text!r} is not 'pass', 'draw' or like '3-5>S2'")
    t = (int(m[1]), int(m[2]))
    if t[0] > t[1] or t not in ts:
        raise EncodingError("rules/move-text", f"{text!r}: write a {ts.name} tile low-high")
    if m[3]:
        return Play(t, HUB)
    if m[4]:
        return Play(t, shaft_target(int(m[4])))
    if int(m[5]) > ts.max_pip:
        raise EncodingError("rules/move-text", f"{text!r}: {ts.name} has no double-{m[5]}")
    return Play(t, arm_target(int(m[5]), "ab".index(m[6])))


# -- the public state (section 3) ----------------------------------------------------------


def _closed(line: Line) -> bool:
    """A line ends for good in a double: that double struck a vein (D6)."""
    return bool(line) and line[-1][0] == line[-1][1]


@dataclass(frozen=True, slots=True)
class Vein:
    """The vein struck by double-`double`: its two arms, growing away from the double."""

    double: int
    arms: tuple[Line, Line]

    @property
    def tiles(self) -> int:
        """Tiles played on the vein (on either arm), the double not counted."""
        return len(self.arms[0]) + len(self.arms[1])


@dataclass(frozen=True, slots=True)
class MineshaftState:
    """The public state of one round (spec/rules/mineshaft.md section 3); never a hand."""

    tile_set: TileSet
    hub: int
    """The number of the starting double, which lies face up from the start."""
    shafts: tuple[Line, ...]
    """The shafts dug so far (at most six), in the order dug, each from the hub outwards."""
    veins: tuple[Vein, ...]
    """The veins struck so far, in the order struck."""
    hand_counts: tuple[int, ...]
    boneyard: int
    """Tiles left in the rubble pile."""
    turn: int
    """The seat to move (after the round ends: the seat after the last mover)."""
    first_player: int
    phase: Phase
    """play: the seat may play, or else draw or pass; drawn: it has drawn this turn."""
    passes: int
    """Passes in a row made with the pile empty; `seats` of them end the round blocked."""
    finished: Reason | None

    def __post_init__(self) -> None:
        problem = _state_problem(self)
        if problem:
            raise LocalError("rules/bad-state", problem)

    @property
    def seats(self) -> int:
        return len(self.hand_counts)

    def line(self, target: int) -> Line | None:
        """The line at `target`, or None if that shaft is not dug or that vein not struck."""
        if HUB < target < FIRST_ARM:
            return self.shafts[target - 1] if target - 1 < len(self.shafts) else None
        double, side = divmod(target - FIRST_ARM, 2)
        vein = next((v for v in self.veins if v.double == double), None)
        return None if vein is None else vein.arms[side]

    def open_end(self, target: int) -> int:
        """The number a tile played on `target` must show."""
        if target == HUB:
            return self.hub
        line = self.line(target)
        if line is None:
            raise LocalError("rules/bad-target", f"{target_text(target)} is not on the table")
        if line:
            return line[-1][1]
        return self.hub if target < FIRST_ARM else (target - FIRST_ARM) // 2

    @property
    def exploring(self) -> Vein | None:
        """The vein being explored: the newest, until it holds three tiles (D7)."""
        if self.veins and self.veins[-1].tiles < VEIN_DEPTH:
            return self.veins[-1]
        return None

    def open_targets(self) -> tuple[int, ...]:
        """The targets a tile may go on now, ascending (section 5)."""
        if len(self.shafts) < SHAFTS:
            return (HUB,)
        vein = self.exploring
        if vein is not None:
            return (arm_target(vein.double, 0), arm_target(vein.double, 1))
        shafts = [shaft_target(k) for k, ln in enumerate(self.shafts) if not _closed(ln)]
        arms = [arm_target(v.double, s) for v in self.veins for s in (0, 1)
                if not _closed(v.arms[s])]
        return tuple(shafts + sorted(arms))

    def table(self) -> frozenset[Tile]:
        """Every tile face up: the hub, the shafts and the veins' arms."""
        lines = (*self.shafts, *(a for v in self.veins for a in v.arms))
        return frozenset([(self.hub, self.hub), *(tile(*p) for ln in lines for p in ln)])

    def to_json(self) -> dict[str, object]:
        return {
            "set": self.tile_set.name, "hub": self.hub,
            "shafts": [_line_json(ln) for ln in self.shafts],
            "veins": [{"double": v.double, "a": _line_json(v.arms[0]),
                       "b": _line_json(v.arms[1])} for v in self.veins],
            "hand_counts": list(self.hand_counts), "boneyard": self.boneyard,
            "turn": self.turn, "first_player": self.first_player, "phase": self.phase,
            "passes": self.passes, "finished": self.finished,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, object]) -> MineshaftState:
        """Inverse of to_json; anything else is an EncodingError."""
        try:
            if set(obj) != set(_KEYS):
                raise TypeError("wrong keys")
            name, phase, finished = obj["set"], obj["phase"], obj["finished"]
            if not isinstance(name, str) or name not in TILE_SETS:
                raise TypeError(f"{name!r} is not a tile set")
            if phase not in ("play", "drawn") or finished not in (None, "out", "blocked"):
                raise TypeError("bad phase or finished")
            return cls(
                tile_set=TILE_SETS[name], hub=json_int(obj["hub"]),
                shafts=tuple(_json_line(x) for x in json_list(obj["shafts"])),
                veins=tuple(_json_vein(x) for x in json_list(obj["veins"])),
                hand_counts=tuple(json_int(c) for c in json_list(obj["hand_counts"])),
                boneyard=json_int(obj["boneyard"]), turn=json_int(obj["turn"]),
                first_player=json_int(obj["first_player"]),
                phase="drawn" if phase == "drawn" else "play",
                passes=json_int(obj["passes"]),
                finished="out" if finished == "out" else "blocked" if finished else None)
        except (TypeError, LocalError) as e:
            raise EncodingError("rules/state-json", str(e)) from None


_KEYS = ("set", "hub", "shafts", "veins", "hand_counts", "boneyard", "turn", "first_player",
         "phase", "passes", "finished")


def _line_json(line: Line) -> list[list[int]]:
    return [list(p) for p in line]


def _json_line(x: object) -> Line:
    return tuple(json_int_pair(p) for p in json_list(x))


def _json_vein(x: object) -> Vein:
    if not isinstance(x, dict) or set(x) != {"double", "a", "b"}:
        raise TypeError(f"{x!r} is not a vein object")
    return Vein(json_int(x["double"]), (_json_line(x["a"]), _json_line(x["b"])))


def max_seats(ts: TileSet) -> int:
    """Section 2 (D3): the pile keeps a quarter of the shuffled tiles; 8 seats at most."""
    deck = len(ts.tiles) - 1
    return max(k for k in range(2, 9) if 4 * (deck - HAND_SIZE * k) >= deck)


def initial_boneyard(ts: TileSet, seats: int) -> int:
    return len(ts.tiles) - 1 - HAND_SIZE * seats


def _state_problem(s: MineshaftState) -> str | None:
    """Why `s` could not arise from play (section 3's checks), or None."""
    ts, k = s.tile_set, s.seats
    if not isinstance(ts, TileSet) or TILE_SETS.get(ts.name) != ts:
        return "the tile set is double-six, double-nine or double-twelve"
    if not 2 <= k <= max_seats(ts) or s.hub not in range(ts.max_pip + 1):
        return f"2..{max_seats(ts)} seats and a hub that is a double of the set"
    problem = _layout_problem(s)
    if problem:
        return problem
    if s.turn not in range(k) or s.first_player not in range(k):
        return "turn and first player are seats"
    if min(s.hand_counts) < 0 or not 0 <= s.boneyard <= initial_boneyard(ts, k):
        return "counts are >= 0 and the pile only shrinks from its deal"
    if sum(s.hand_counts) + s.boneyard + len(s.table()) != len(ts.tiles):
        return "every tile is in a hand, the pile or on the table"
    out = min(s.hand_counts) == 0
    if s.phase == "drawn" and (out or s.passes or s.boneyard == initial_boneyard(ts, k)):
        return "a seat that just drew has tiles, and someone has drawn"
    if not 0 <= s.passes <= k or (s.passes and s.boneyard) or (out and s.passes):
        return "passes count only with the pile empty, at most one a seat"
    expected = "out" if out else "blocked" if s.passes == k else None
    if s.finished != expected:
        return f"finished={s.finished!r} does not follow from the counts and passes"
    return None


def _layout_problem(s: MineshaftState) -> str | None:
    seen = {(s.hub, s.hub)}
    starts = [(s.hub, ln) for ln in s.shafts] + [(v.double, a) for v in s.veins for a in v.arms]
    for start, line in starts:
        end = start
        for i, (a, b) in enumerate(line):
            t = tile(a, b)
            if t not in s.tile_set or a != end or t in seen or (a == b and i != len(line) - 1):
                return "each line is a run of distinct set tiles, a double only at its end"
            seen.add(t)
            end = b
    if len(s.shafts) > SHAFTS or not all(s.shafts):
        return "at most six shafts, each with a tile"
    if len(s.shafts) < SHAFTS and (s.veins or any(len(ln) != 1 for ln in s.shafts)):
        return "until six shafts are dug, tiles go on the hub only"
    ends = sorted(ln[-1][0] for _, ln in starts if _closed(ln))
    if ends != sorted(v.double for v in s.veins):
        return "each double on the table struck exactly one vein"
    for older, newer in zip(s.veins, s.veins[1:], strict=False):
        # A vein left with fewer than three tiles was cut short by a double on its own arm.
        if older.tiles < VEIN_DEPTH and not any(
                _closed(a) and a[-1][0] == newer.double for a in older.arms):
            return f"the vein of {older.double}-{older.double} was not explored"
    return None
