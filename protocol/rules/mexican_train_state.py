"""Mexican Train: moves, their encodings and the public state (spec/rules/mexican-train.md).

Theory of operation: a round is played with a double-twelve set. Every seat owns
a train that starts at the engine double (the round's double, 12-12 in the first
round); the optional public Mexican train starts there too. A train is the run
of tiles placed on it, each oriented (inner half, outer half), so its open end
is the last outer half, or the engine's number while it is empty.
`MexicanState` is what the whole table sees (section 3): trains, markers, the
pending double, hand counts, the boneyard count and where the turn stands. It is
only constructible if it could arise from play (checked in `_state_problem`).
Moves and their integer ids and texts are state-free (section 4).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ..errors import EncodingError, LocalError
from ..tiles import DOUBLE_TWELVE, Tile, tile
from .base import RuleViolation, json_int, json_int_pair, json_list

NAME = "mexican-train"
TILE_SET = DOUBLE_TWELVE
SET_SIZE = len(TILE_SET.tiles)  # 91
MIN_SEATS, MAX_SEATS = 2, 8
#: Train index of the public Mexican train in moves and in `pending`.
MEXICAN = MAX_SEATS
TRAINS_PER_ID = MAX_SEATS + 1
#: Ids run 0..2 (pass, draw, not-holding), then 3 + 9 * index(tile) + train.
FIRST_PLAY_ID = 3
MAX_MOVE_ID = FIRST_PLAY_ID + TRAINS_PER_ID * SET_SIZE - 1  # 821

Placed = tuple[int, int]
"""A tile as it lies in a train: (inner half, outer half)."""
Phase = Literal["declare", "search", "play"]
Reason = Literal["out", "blocked"]
PHASES: tuple[Phase, ...] = ("declare", "search", "play")


def hand_size(seats: int) -> int:
    """Section 2: up to 4 seats take 15 tiles each, 5 or 6 take 12, 7 or 8 take 10."""
    return 15 if seats <= 4 else 12 if seats <= 6 else 10


# -- moves (section 4) -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn unable to play; puts the mover's marker on its train if it owed a tile."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Take one tile from the boneyard (once a turn, only when unable to play)."""


@dataclass(frozen=True, slots=True)
class NotHolding:
    """Engine search: declare that one's hand does not hold the engine double."""


@dataclass(frozen=True, slots=True)
class Play:
    """Put `tile` (normalised low-high) on `train`: a seat's index 0..7, or 8, the Mexican train.

    Opening the round is the engine double played on the opener's own train index.
    """

    tile: Tile
    train: int

    def __post_init__(self) -> None:
        t = self.tile
        if not (isinstance(t, tuple) and len(t) == 2
                and all(type(x) is int and x >= 0 for x in t) and t[0] <= t[1]):
            raise LocalError("rules/bad-move", f"{t!r} is not a normalised (low, high) tile")
        if type(self.train) is not int or not 0 <= self.train <= MEXICAN:
            raise LocalError("rules/bad-move", f"{self.train!r} is not a train index 0..8")


Move = Pass | Draw | NotHolding | Play
PASS, DRAW, NOT_HOLDING = Pass(), Draw(), NotHolding()
_SIMPLE: tuple[tuple[Move, str], ...] = ((PASS, "pass"), (DRAW, "draw"),
                                         (NOT_HOLDING, "not-holding"))


def move_id(move: Move) -> int:
    """0 pass, 1 draw, 2 not-holding; 3 + 9 * index(tile) + train for a play."""
    for i, (m, _) in enumerate(_SIMPLE):
        if move == m:
            return i
    if not isinstance(move, Play):
        raise LocalError("rules/bad-move", f"{move!r} is not a Mexican Train move")
    index = TILE_SET.index.get(move.tile)
    if index is None:
        raise RuleViolation("rules/not-in-set", f"{move.tile} is not a double-twelve tile")
    return FIRST_PLAY_ID + TRAINS_PER_ID * index + move.train


def move_from_id(value: int) -> Move:
    """Inverse of move_id; EncodingError outside 0..821 or for a non-int."""
    if type(value) is not int or not 0 <= value <= MAX_MOVE_ID:
        raise EncodingError("rules/move-id", f"{value!r} is not a move id in 0..{MAX_MOVE_ID}")
    if value < FIRST_PLAY_ID:
        return _SIMPLE[value][0]
    index, train = divmod(value - FIRST_PLAY_ID, TRAINS_PER_ID)
    return Play(TILE_SET.tiles[index], train)


def move_text(move: Move) -> str:
    """"pass", "draw", "not-holding", or "low-high>T" with T a seat 0-7 or M."""
    if not isinstance(move, Play):
        return _SIMPLE[move_id(move)][1]
    move_id(move)  # refuse to name a tile outside the set
    train = "M" if move.train == MEXICAN else str(move.train)
    return f"{move.tile[0]}-{move.tile[1]}>{train}"


# ASCII digits only and no leading zeros, so every move has exactly one text.
_PLAY_TEXT = re.compile(r"(0|[1-9][0-9]?)-(0|[1-9][0-9]?)>([0-7M])")


def parse_move(text: str) -> Move:
    """Inverse of move_text; EncodingError for anything but the canonical text."""
    if not isinstance(text, str):
        raise EncodingError("rules/move-text", f"{text!r} is not a string")
    for m, name in _SIMPLE:
        if text == name:
            return m
    match = _PLAY_TEXT.fullmatch(text)
    if match is None:
        raise EncodingError("rules/move-text", f"{text!r} is not a move like '3-5>2' or 'draw'")
    t = (int(match[1]), int(match[2]))
    if t[0] > t[1] or t not in TILE_SET:
        raise EncodingError("rules/move-text", f"{text!r}: write a double-twelve tile low-high")
    return Play(t, MEXICAN if match[3] == "M" else int(match[3]))


# -- the public state (section 3) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MexicanState:
    """The public state of one round (spec/rules/mexican-train.md section 3); never a hand."""

    engine: int
    """The engine double's number: the round's double, where every train starts."""
    trains: tuple[tuple[Placed, ...], ...]
    """Per seat, its train from the engine outwards, each tile oriented as it lies."""
    mexican: tuple[Placed, ...] | None
    """The public Mexican train, or None when the rules parameter is off."""
    markers: tuple[bool, ...]
    """Per seat, whether its marker is on its train (the train is open to everyone)."""
    pending: int | None
    """The train whose open end is an unsatisfied double, or None."""
    hand_counts: tuple[int, ...]
    boneyard: int
    """Tiles left in the boneyard."""
    turn: int
    """The seat to move (after the round ends: the last mover or the seat after it)."""
    first_player: int
    """The seat the engine search started from."""
    phase: Phase
    """declare: first lap of the engine search; search: draw to find it; play: engine out."""
    drawn: bool
    """The seat to move has drawn this turn."""
    owes: bool
    """The seat to move must still play a tile (or draw, then pass with a marker)."""
    first_done: tuple[bool, ...]
    """Per seat, whether its first turn (the run on its own train) is over."""
    stalled: int
    """Passes in a row, with the boneyard empty, that changed nothing public."""
    finished: Reason | None

    def __post_init__(self) -> None:
        problem = _state_problem(self)
        if problem:
            raise LocalError("rules/bad-state", problem)

    @property
    def seats(self) -> int:
        return len(self.trains)

    def train(self, index: int) -> tuple[Placed, ...]:
        if index == MEXICAN:
            if self.mexican is None:
                raise LocalError("rules/bad-train", "this round has no Mexican train")
            return self.mexican
        return self.trains[index]

    def open_end(self, index: int) -> int:
        """The number a tile played on train `index` must show."""
        placed = self.train(index)
        return placed[-1][1] if placed else self.engine

    def table(self) -> frozenset[Tile]:
        """Every tile face up: all trains, and the engine once it is out."""
        placed = [tile(*p) for t in (*self.trains, self.mexican or ()) for p in t]
        engine = [(self.engine, self.engine)] if self.phase == "play" else []
        return frozenset(placed + engine)

    def to_json(self) -> dict[str, object]:
        return {
            "engine": self.engine, "trains": [[list(p) for p in t] for t in self.trains],
            "mexican": None if self.mexican is None else [list(p) for p in self.mexican],
            "markers": list(self.markers), "pending": self.pending,
            "hand_counts": list(self.hand_counts), "boneyard": self.boneyard,
            "turn": self.turn, "first_player": self.first_player, "phase": self.phase,
            "drawn": self.drawn, "owes": self.owes, "first_done": list(self.first_done),
            "stalled": self.stalled, "finished": self.finished,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, object]) -> MexicanState:
        """Inverse of to_json; anything else is an EncodingError."""
        try:
            if set(obj) != set(_KEYS):
                raise TypeError("wrong keys")
            mexican = obj["mexican"]
            pending, finished, phase = obj["pending"], obj["finished"], obj["phase"]
            if finished not in (None, "out", "blocked") or phase not in PHASES:
                raise TypeError("bad finished or phase")
            return cls(
                engine=json_int(obj["engine"]),
                trains=tuple(_json_train(t) for t in json_list(obj["trains"])),
                mexican=None if mexican is None else _json_train(mexican),
                markers=tuple(_json_bool(m) for m in json_list(obj["markers"])),
                pending=None if pending is None else json_int(pending),
                hand_counts=tuple(json_int(c) for c in json_list(obj["hand_counts"])),
                boneyard=json_int(obj["boneyard"]), turn=json_int(obj["turn"]),
                first_player=json_int(obj["first_player"]),
                phase="declare" if phase == "declare" else "search" if phase == "search"
                else "play",
                drawn=_json_bool(obj["drawn"]), owes=_json_bool(obj["owes"]),
                first_done=tuple(_json_bool(b) for b in json_list(obj["first_done"])),
                stalled=json_int(obj["stalled"]),
                finished="out" if finished == "out" else "blocked" if finished else None)
        except (TypeError, LocalError) as e:
            raise EncodingError("rules/state-json", str(e)) from None


_KEYS = ("engine", "trains", "mexican", "markers", "pending", "hand_counts", "boneyard",
         "turn", "first_player", "phase", "drawn", "owes", "first_done", "stalled", "finished")


def _json_bool(x: object) -> bool:
    if type(x) is not bool:
        raise TypeError(f"{x!r} is not a boolean")
    return x


def _json_train(x: object) -> tuple[Placed, ...]:
    return tuple(json_int_pair(p) for p in json_list(x))


def _state_problem(s: MexicanState) -> str | None:
    """Why `s` could not arise from play under these rules, or None."""
    k = s.seats
    if not MIN_SEATS <= k <= MAX_SEATS or not all(
            len(x) == k for x in (s.markers, s.hand_counts, s.first_done)):
        return f"one train, marker, hand count and first-turn flag per seat, 2..{MAX_SEATS}"
    if s.engine not in range(TILE_SET.max_pip + 1):
        return "the engine is a double of the set"
    problem = _trains_problem(s)
    if problem:
        return problem
    if s.turn not in range(k) or s.first_player not in range(k):
        return "turn and first player are seats"
    dealt = k * hand_size(k)
    if min(s.hand_counts) < 0 or not 0 <= s.boneyard <= SET_SIZE - dealt:
        return "counts are >= 0 and the boneyard only shrinks from its deal"
    if sum(s.hand_counts) + s.boneyard + len(s.table()) != SET_SIZE:
        return "every tile is in a hand, the boneyard or on the table"
    if s.phase != "play":
        return _search_problem(s, dealt)
    if s.pending is not None:
        if s.pending != MEXICAN and s.pending not in range(k):
            return "pending names a train"
        placed = s.train(s.pending) if s.pending != MEXICAN or s.mexican is not None else ()
        if not placed or placed[-1][0] != placed[-1][1]:
            return "the pending train ends in a double"
    if not s.owes and (s.drawn or s.first_done[s.turn]):
        return "only a first turn's run, before any draw, owes no tile"
    if s.stalled and s.boneyard:
        return "stalled passes need an empty boneyard"
    out = min(s.hand_counts) == 0
    expected = "out" if out else "blocked" if s.stalled == k else None
    if not 0 <= s.stalled <= k or (out and s.stalled) or s.finished != expected:
        return f"finished={s.finished!r} does not follow from the counts and passes"
    return None


def _trains_problem(s: MexicanState) -> str | None:
    seen: set[Tile] = set()
    for placed in (*s.trains, s.mexican or ()):
        end = s.engine
        for a, b in placed:
            t = tile(a, b)
            if t not in TILE_SET or a != end or t in seen or t == (s.engine, s.engine):
                return "each train is a run of distinct set tiles matching from the engine"
            seen.add(t)
            end = b
    return None


def _search_problem(s: MexicanState, dealt: int) -> str | None:
    """The engine search (phases declare and search): nothing is on the table yet."""
    if s.table() or any(s.markers) or any(s.first_done) or s.pending is not None:
        return "before the engine is out nothing is on the table"
    if s.stalled or s.finished or not s.owes:
        return "the search neither stalls nor ends the round"
    if s.phase == "declare" and (s.drawn or s.boneyard != SET_SIZE - dealt
                                 or set(s.hand_counts) != {dealt // s.seats}):
        return "nobody draws in the first lap of the search"
    return None
