"""The interface every rule set implements (spec/rules/bram.md sections 1, 2 and 8), and
the two families a session tells apart (spec/10-session.md 10.4 and 10.8).

A rule set is pure game logic: given the public state and, where needed, a
hand passed in by the caller, it lists legal moves, applies a move or raises,
and computes the outcome once the hand is over. It never sees the shuffle,
never draws randomness (chance comes from the deal) and never holds a private
hand in its state, so the same code judges every seat and the verifier.

The session only needs what `RuleSet` declares: the tile set and `DealPlan`
tell it what to shuffle and deal; `played_tile` tells it which tile a move
reveals (and so which deck opening the mover must prove); moves travel as
their integer id.

Two families add to it. `DrawingRules`: a deck game with a boneyard and forced play
(10.4). `SimultaneousRules` (in simultaneous.py): a game of simultaneous secret orders
with no deck, run by the session as stages of commit-reveal (10.8); the session only
ever asks the rules what is owed (`due`) and hands them each commitment, opening,
declaration of absence and choice. A new rule set of either family needs no session
code.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from ..errors import DealerlessError, LocalError
from ..tiles import Tile, TileSet

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")

#: Rule-set parameters are flat JSON objects of these scalars, so they hash
#: and serialise the same way in every implementation.
ParamValue = int | str | bool
Params = Mapping[str, ParamValue]


class RuleViolation(DealerlessError):
    """A move or a reveal breaks the rules of the game (spec/rules/bram.md section 6).

    `seat` names the culprit when the rules know it (the mover for `apply`).
    """

    def __init__(self, code: str, detail: str = "", seat: int | None = None) -> None:
        super().__init__(code, detail)
        self.seat = seat


@dataclass(frozen=True, slots=True)
class DealPlan:
    """What the deck holds and how it is dealt (spec/rules/bram.md section 2).

    `on_table` tiles start face up on the table, so they are left out of the
    shuffled deck; of the rest, each seat gets `hand_size` tiles, `hidden`
    tiles stay face down until the end, and whatever remains is the boneyard.
    """

    seats: int
    hand_size: int
    hidden: int
    on_table: tuple[Tile, ...]

    def __post_init__(self) -> None:
        if self.seats < 1 or self.hand_size < 1 or self.hidden < 0:
            raise LocalError("rules/deal-plan", "seats and hand size are positive, hidden >= 0")
        if len(set(self.on_table)) != len(self.on_table):
            raise LocalError("rules/deal-plan", "a tile is on the table twice")

    def deck_tiles(self, tile_set: TileSet) -> tuple[Tile, ...]:
        """The tiles to shuffle: the whole set minus `on_table`, in canonical order."""
        for t in self.on_table:
            if t not in tile_set:
                raise LocalError("rules/deal-plan", f"{t} is not in the {tile_set.name} set")
        deck = tuple(t for t in tile_set.tiles if t not in self.on_table)
        if self.seats * self.hand_size + self.hidden > len(deck):
            raise LocalError("rules/deal-plan", "the deal needs more tiles than the deck holds")
        return deck

    def boneyard_size(self, tile_set: TileSet) -> int:
        return len(self.deck_tiles(tile_set)) - self.seats * self.hand_size - self.hidden


# Strict readers for states decoded from JSON or msgpack: they raise TypeError,
# which a rule set's `state_from_json` turns into its EncodingError.


def json_list(x: object) -> list[object]:
    if not isinstance(x, list):
        raise TypeError(f"{x!r} is not a list")
    return x


def json_int(x: object) -> int:
    if type(x) is not int:  # bool is an int subclass, but JSON true is no count
        raise TypeError(f"{x!r} is not an integer")
    return x


def json_int_pair(x: object) -> tuple[int, int]:
    items = json_list(x)
    if len(items) != 2:
        raise TypeError(f"{x!r} is not a pair")
    return json_int(items[0]), json_int(items[1])


def link_problem(after: object) -> str | None:
    """What is wrong with an `after` parameter: a match's link to its previous round, the
    hex of that round's last frame hash, or "" (spec/11-verify.md 11.5)."""
    if type(after) is not str or not (after == "" or (
            len(after) == 64 and all(c in "0123456789abcdef" for c in after))):
        return "after is empty or 64 lowercase hex digits (spec/11-verify.md 11.5)"
    return None


def halves_text(halves: int) -> str:
    """An exact decimal for a count of half pips: 7 -> "3.5", -1 -> "-0.5", 6 -> "3"."""
    sign = "-" if halves < 0 else ""
    whole, half = divmod(abs(halves), 2)
    return f"{sign}{whole}.5" if half else f"{sign}{whole}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished hand ended (spec/rules/bram.md section 8).

    Pip quantities that may include komi are integers counting *half* pips
    (suffix `_halves`), so komi of half a pip stays exact; `halves_text`
    renders them for people. `hand_pips` are raw whole pips.
    """

    winner: int | None
    """The winning seat, or None for a draw."""
    reason: str
    """Why the hand ended: "out" (a seat played its last tile) or "blocked"."""
    hand_pips: tuple[int, ...]
    """Per seat: the sum of both halves of every tile left in hand (no komi)."""
    pips_halves: tuple[int, ...]
    """Per seat: 2 * hand_pips, plus komi_halves for the first player."""
    margin_halves: int
    """The winner's margin in half pips (how it is measured is rule-set specific); 0 if drawn."""
    hidden: tuple[Tile, ...]
    """The tiles that were out of play, now revealed."""

    @property
    def winners(self) -> tuple[int, ...]:
        """Every winning seat: the winner, or on a draw every seat tied at the fewest
        (komi-adjusted) pips (spec/11-verify.md 11.1)."""
        if self.winner is not None:
            return (self.winner,)
        best = min(self.pips_halves)
        return tuple(s for s, p in enumerate(self.pips_halves) if p == best)

    def __post_init__(self) -> None:
        if len(self.hand_pips) != len(self.pips_halves):
            raise LocalError("rules/outcome", "one pip count per seat")
        if self.margin_halves < 0 or (self.winner is None and self.margin_halves != 0):
            raise LocalError("rules/outcome", "the margin is >= 0, and 0 for a draw")
        if self.winner is not None and not 0 <= self.winner < len(self.hand_pips):
            raise LocalError("rules/outcome", f"no seat {self.winner}")

    def to_json(self) -> dict[str, object]:
        """A JSON object with the same field names; tiles as "low-high" text."""
        return {
            "winner": self.winner,
            "reason": self.reason,
            "hand_pips": list(self.hand_pips),
            "pips_halves": list(self.pips_halves),
            "margin_halves": self.margin_halves,
            "hidden": [f"{a}-{b}" for a, b in self.hidden],
        }


class _Plays(Protocol):
    def legal_moves(self, state: Any, hand: Collection[Tile]) -> tuple[Any, ...]: ...

    def played_tile(self, move: Any) -> Tile | None: ...


def playable_tiles(rules: _Plays, state: Any, candidates: Iterable[Tile]) -> list[Tile]:
    """The candidates the seat to move could play if it held them, in the order given:
    the forbidden set of a "cannot play" claim (spec/10-session.md 10.4 step 1a) is the
    playable tiles among those not yet public."""
    return [t for t in candidates
            if any(rules.played_tile(m) == t for m in rules.legal_moves(state, (t,)))]


def lowest_pips_outcome(reason: str, hand_counts: Sequence[int],
                        hands: Sequence[Collection[Tile]]) -> Outcome:
    """The outcome of a round where going out wins and otherwise the fewest pips do
    (Mexican Train and Mineshaft, section 8 of their rules): a seat with no tile left
    wins; else the lowest total wins alone, or nobody does (winner None) if it is
    shared. The margin is twice the gap to the next-lowest total; no komi, no hidden
    tiles."""
    pips = tuple(sum(a + b for a, b in h) for h in hands)
    if reason == "out":
        winner: int | None = list(hand_counts).index(0)
    else:
        best = min(pips)
        winner = pips.index(best) if pips.count(best) == 1 else None
    margin = 0
    if winner is not None:
        margin = 2 * (min(p for s, p in enumerate(pips) if s != winner) - pips[winner])
    return Outcome(winner=winner, reason=reason, hand_pips=pips,
                   pips_halves=tuple(2 * p for p in pips), margin_halves=margin, hidden=())


class RuleSet(Protocol[StateT, MoveT]):
    """What a session needs from a rule set; `protocol.rules.bram.BramRules` is one."""

    @property
    def name(self) -> str: ...

    @property
    def params(self) -> dict[str, ParamValue]:
        """The parameters as a flat JSON object; `RULESETS[name](params)` rebuilds self."""
        ...

    @property
    def tile_set(self) -> TileSet: ...

    @property
    def deal(self) -> DealPlan: ...

    def first_player(self, drawn: int) -> int:
        """The seat that plays first, given the session's draw (spec/10-session.md 10.4):
        the draw, unless the rules fix the seating for the rest of a long game
        (rules/mineshaft.md 9)."""
        ...

    def initial_state(self, first_player: int) -> StateT: ...

    def to_move(self, state: StateT) -> int | None:
        """The seat that owes the next move, or None once the hand is over."""
        ...

    def legal_moves(self, state: StateT, hand: Collection[Tile]) -> tuple[MoveT, ...]:
        """Every legal move of the seat to move holding `hand`, in id order."""
        ...

    def apply(self, state: StateT, seat: int, move: MoveT) -> StateT:
        """The state after `seat` makes `move`, or RuleViolation."""
        ...

    def is_over(self, state: StateT) -> bool: ...

    def state_to_json(self, state: StateT) -> dict[str, object]:
        """The public state as a JSON object (lists, ints, text, null), e.g. to hash it."""
        ...

    def state_from_json(self, obj: object) -> StateT:
        """Inverse of state_to_json; EncodingError for anything it would not produce."""
        ...

    def outcome(self, state: StateT, hands: Sequence[Collection[Tile]],
                hidden: Collection[Tile]) -> Outcome: ...

    def played_tile(self, move: MoveT) -> Tile | None:
        """The tile `move` takes from the mover's hand, which the mover must prove it holds."""
        ...

    def move_id(self, move: MoveT) -> int: ...

    def move_from_id(self, move_id: int) -> MoveT: ...

    def move_text(self, move: MoveT) -> str: ...

    def parse_move(self, text: str) -> MoveT: ...


@runtime_checkable
class DrawingRules(Protocol):
    """What a rule set with a boneyard and forced play adds (spec/10-session.md 10.4).

    `draws(move)`: the move takes the next boneyard position into the mover's hand;
    the session opens it privately to the mover (phase DRAW) before play goes on.
    `must_play_if_able(state, seat, move)`: making this move asserts that the seat
    has no legal play, so the session demands a zero-knowledge proof that no tile of
    its hand is one that `legal_moves` would let it play (its "cannot play" claim).
    """

    def draws(self, move: Any) -> bool: ...

    def must_play_if_able(self, state: Any, seat: int, move: Any) -> bool: ...
