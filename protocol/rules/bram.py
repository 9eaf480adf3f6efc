"""Bram Cohen's two-player dominoes as pure functions (spec/rules/bram.md).

Theory of operation: the double-six starts the line; the other 27 tiles are
shuffled, one stays hidden until the end and 13 go to each seat (section 2).
`BramState` is what everybody at the table sees (section 3): the line, the
played tiles, how many tiles each seat holds, whose turn it is and how many
passes in a row have been made. Hands never enter it: `legal_moves` and
`outcome` take them as arguments, and `apply` judges a move from public
information only (section 6). That a played tile really was in the mover's
hand is not a rule question; the session proves it from the deal.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

from ..errors import EncodingError, LocalError
from ..tiles import DOUBLE_SIX, Tile, TileSet, tile, tile_text
from .base import DealPlan, Outcome, ParamValue, RuleViolation, json_int, json_int_pair, json_list

NAME = "bram"
SEATS = 2
HAND_SIZE = 13
TILE_SET = DOUBLE_SIX
START_TILE: Tile = (6, 6)
DEAL = DealPlan(seats=SEATS, hand_size=HAND_SIZE, hidden=1, on_table=(START_TILE,))
#: 2 * 168, every pip of the set: a larger komi would decide every blocked hand alone.
KOMI_LIMIT_HALVES = 2 * sum(a + b for a, b in TILE_SET.tiles)
#: Komi when the setup names none: 1.5 pips, measured (section 11, D15).
DEFAULT_KOMI_HALVES = 3
#: Ids run 0 (pass) to 2 * 28 (the double-six on the right end).
MAX_MOVE_ID = 2 * len(TILE_SET.tiles)
#: No hand lasts longer (spec/rules/bram.md section 7).
MAX_MOVES = 50

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


def initial_state(first_player: int) -> BramState:
    """The double-six alone on the table, 13 tiles a seat, `first_player` to move."""
    if first_player not in range(SEATS):
        raise LocalError("rules/first-player", f"seat {first_player!r} is not 0 or 1")
    return BramState(line=(START_TILE,), played=frozenset({START_TILE}),
                     hand_counts=(HAND_SIZE,) * SEATS, turn=first_player,
                     first_player=first_player, passes=0, finished=None)


def legal_moves(state: BramState, hand: Collection[Tile]) -> tuple[Move, ...]:
    """Pass, then every placement of a tile of `hand`, in move-id order (section 5).

    With equal open ends a fitting tile yields one move, on the right end.
    """
    if state.finished is not None:
        return ()
    _check_hand(state, hand)
    left, right = state.ends
    moves: list[Move] = [PASS]
    for t in sorted(hand, key=TILE_SET.index.__getitem__):
        if left in t and left != right:
            moves.append(Play(t, End.LEFT))
        if right in t:
            moves.append(Play(t, End.RIGHT))
    return tuple(moves)


def _check_hand(state: BramState, hand: Collection[Tile]) -> None:
    tiles = set(hand)
    if len(tiles) != len(hand) or not all(t in TILE_SET for t in tiles):
        raise LocalError("rules/bad-hand", "a hand is distinct tiles of the double-six set")
    if tiles & state.played or len(tiles) != state.hand_counts[state.turn]:
        raise LocalError("rules/bad-hand",
                         f"seat {state.turn} holds {state.hand_counts[state.turn]} unplayed tiles")


def apply(state: BramState, seat: int, move: Move) -> BramState:
    """The state after `seat` makes `move` (section 6), or RuleViolation.

    Checks run in the order of section 6 so every implementation reports the
    same code. Whether `move.tile` was in `seat`'s hand cannot be checked here:
    the state holds no hands; the session proves it by opening the tile.
    """
    if state.finished is not None:
        raise RuleViolation("rules/game-over", f"the hand is over ({state.finished})", seat)
    if seat != state.turn:
        raise RuleViolation("rules/not-your-turn", f"seat {state.turn} is to move", seat)
    if isinstance(move, Pass):
        passes = state.passes + 1
        return replace(state, turn=1 - seat, passes=passes,
                       finished="blocked" if passes == 2 else None)
    if not isinstance(move, Play):
        raise LocalError("rules/bad-move", f"{move!r} is not a Bram move")
    line = _extend(state, move, seat)
    counts = tuple(c - (s == seat) for s, c in enumerate(state.hand_counts))
    return BramState(line=line, played=state.played | {move.tile}, hand_counts=counts,
                     turn=1 - seat, first_player=state.first_player, passes=0,
                     finished="out" if counts[seat] == 0 else None)


def _extend(state: BramState, move: Play, seat: int) -> tuple[Placed, ...]:
    t, text = move.tile, f"{tile_text(move.tile)}>{move.end.value}"
    if t not in TILE_SET:
        raise RuleViolation("rules/not-in-set", f"{text} is not a double-six tile", seat)
    if t in state.played:
        raise RuleViolation("rules/tile-already-played", f"{text}: already in the line", seat)
    left, right = state.ends
    pip = left if move.end is End.LEFT else right
    if pip not in t:
        raise RuleViolation("rules/tile-does-not-match", f"{text}: that end shows {pip}", seat)
    if move.end is End.LEFT and left == right:
        # Both placements give mirror-image lines, so only one is a move.
        raise RuleViolation("rules/non-canonical-end",
                            f"{text}: both ends show {pip}; play it on R", seat)
    a, b = t
    if move.end is End.LEFT:
        return ((a, b) if b == pip else (b, a), *state.line)
    return (*state.line, (a, b) if a == pip else (b, a))


def is_over(state: BramState) -> bool:
    return state.finished is not None


def outcome(state: BramState, hands: Sequence[Collection[Tile]], hidden: Collection[Tile],
            komi_halves: int = 0) -> Outcome:
    """Winner, pips and margin of a finished hand (section 8).

    `hands` and `hidden` are the revealed tiles; they must account for every
    tile not in the line, in the numbers the public state says.
    """
    if state.finished is None:
        raise LocalError("rules/not-over", "the hand is still on")
    if _komi_problem(komi_halves):
        raise LocalError("rules/params", _komi_problem(komi_halves) or "")
    _check_reveal(state, hands, hidden)
    pips = tuple(sum(a + b for a, b in h) for h in hands)
    totals = tuple(2 * p + (komi_halves if s == state.first_player else 0)
                   for s, p in enumerate(pips))
    winner: int | None
    if state.finished == "out":
        winner = state.hand_counts.index(0)
        # Going out wins outright; komi only weighs in a count of pips.
        margin = 2 * pips[1 - winner]
    elif totals[0] == totals[1]:
        winner, margin = None, 0
    else:
        winner = 0 if totals[0] < totals[1] else 1
        margin = abs(totals[0] - totals[1])
    return Outcome(winner=winner, reason=state.finished, hand_pips=pips, pips_halves=totals,
                   margin_halves=margin, hidden=tuple(sorted(hidden)))


def _check_reveal(state: BramState, hands: Sequence[Collection[Tile]],
                  hidden: Collection[Tile]) -> None:
    groups = [*hands, hidden]
    sizes = [*state.hand_counts, DEAL.hidden]
    if len(groups) != len(sizes) or any(len(g) != n for g, n in zip(groups, sizes, strict=True)):
        raise RuleViolation("rules/reveal-mismatch",
                            f"expected hands of {state.hand_counts} tiles and 1 hidden tile")
    seen = [t for g in groups for t in g] + list(state.played)
    if len(seen) != len(TILE_SET.tiles) or set(seen) != set(TILE_SET.tiles):
        raise RuleViolation("rules/reveal-mismatch",
                            "hands, hidden tile and line must hold each tile exactly once")


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


def _komi_problem(value: object) -> str | None:
    if type(value) is not int or abs(value) > KOMI_LIMIT_HALVES:
        return f"komi_halves is an integer in -{KOMI_LIMIT_HALVES}..{KOMI_LIMIT_HALVES}"
    return None


@dataclass(frozen=True, slots=True)
class BramRules:
    """Bram's rules with their one parameter, as a `RuleSet[BramState, Move]`.

    `komi_halves` is komi in half pips, added to the first player's total.
    """

    komi_halves: int = DEFAULT_KOMI_HALVES

    def __post_init__(self) -> None:
        problem = _komi_problem(self.komi_halves)
        if problem:
            raise LocalError("rules/params", problem)

    @classmethod
    def from_params(cls, params: Mapping[str, object]) -> BramRules:
        """Rebuild from `params`; a missing key takes its default, unknown keys are refused."""
        unknown = set(params) - {"komi_halves"}
        if unknown:
            raise EncodingError("rules/params", f"unknown parameters {sorted(unknown)}")
        komi = params.get("komi_halves", DEFAULT_KOMI_HALVES)
        problem = _komi_problem(komi)
        if problem or not isinstance(komi, int):
            raise EncodingError("rules/params", problem or "")
        return cls(komi_halves=komi)

    @property
    def name(self) -> str:
        return NAME

    @property
    def params(self) -> dict[str, ParamValue]:
        """Every parameter, defaults included, so equal rules encode equally."""
        return {"komi_halves": self.komi_halves}

    @property
    def tile_set(self) -> TileSet:
        return TILE_SET

    @property
    def deal(self) -> DealPlan:
        return DEAL

    def initial_state(self, first_player: int) -> BramState:
        return initial_state(first_player)

    def to_move(self, state: BramState) -> int | None:
        return None if state.finished else state.turn

    def legal_moves(self, state: BramState, hand: Collection[Tile]) -> tuple[Move, ...]:
        return legal_moves(state, hand)

    def apply(self, state: BramState, seat: int, move: Move) -> BramState:
        return apply(state, seat, move)

    def is_over(self, state: BramState) -> bool:
        return is_over(state)

    def state_to_json(self, state: BramState) -> dict[str, object]:
        return state.to_json()

    def state_from_json(self, obj: object) -> BramState:
        if not isinstance(obj, Mapping):
            raise EncodingError("rules/state-json", "a Bram state is a JSON object")
        return BramState.from_json(obj)

    def outcome(self, state: BramState, hands: Sequence[Collection[Tile]],
                hidden: Collection[Tile]) -> Outcome:
        return outcome(state, hands, hidden, self.komi_halves)

    def played_tile(self, move: Move) -> Tile | None:
        return None if isinstance(move, Pass) else move.tile

    def move_id(self, move: Move) -> int:
        return move_id(move)

    def move_from_id(self, move_id: int) -> Move:
        return move_from_id(move_id)

    def move_text(self, move: Move) -> str:
        return move_text(move)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)
