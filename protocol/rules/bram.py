"""Bram Cohen's two-player dominoes as pure functions (spec/rules/bram.md sections 1,
2 and 5-8).

Theory of operation: the double-six starts the line; the other 27 tiles are
shuffled, one stays hidden until the end and 13 go to each seat (section 2).
`BramState` (bram_state.py, with the moves and their encodings) is what everybody
at the table sees (section 3). Hands never enter it: `legal_moves` and
`outcome` take them as arguments, and `apply` judges a move from public
information only (section 6). That a played tile really was in the mover's
hand is not a rule question; the session proves it from the deal.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from ..errors import EncodingError, LocalError
from ..tiles import Tile, TileSet, tile_text
from .base import DealPlan, Outcome, ParamValue, RuleViolation
from .bram_state import (
    HAND_SIZE,
    NAME,
    PASS,
    SEATS,
    START_TILE,
    TILE_SET,
    BramState,
    End,
    Move,
    Pass,
    Placed,
    Play,
    move_from_id,
    move_id,
    move_text,
    parse_move,
)

DEAL = DealPlan(seats=SEATS, hand_size=HAND_SIZE, hidden=1, on_table=(START_TILE,))
#: 2 * 168, every pip of the set: a larger komi would decide every blocked hand alone.
KOMI_LIMIT_HALVES = 2 * sum(a + b for a, b in TILE_SET.tiles)
#: Komi when the setup names none: 1.5 pips, measured (section 11, D15).
DEFAULT_KOMI_HALVES = 3
#: No hand lasts longer (spec/rules/bram.md section 7).
MAX_MOVES = 50


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

    def first_player(self, drawn: int) -> int:
        return drawn

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
