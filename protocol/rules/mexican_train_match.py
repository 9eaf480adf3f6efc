"""Around one round of Mexican Train: forced-play claims, their audit, match standings.

Theory of operation (spec/rules/mexican-train.md sections 6.1 and 8.2): a draw,
a pass or a not-holding declaration asserts that the mover has no legal play.
That is a statement about a private hand, so the session backs it with a
zero-knowledge proof that no tile of the hand lies in the forbidden set F: the
tiles t, not on the table, for which `legal_moves(state, {t})` contains a play
of t. F is computed from `legal_moves` alone, so it is exactly as right as the
rules. Once the hands are revealed, `audit_claims` re-judges every claim.

A match is a sequence of rounds (engine 12-12 down to 0-0); the rules judge one
round each, and `match_standings` adds up the penalties.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from ..errors import LocalError
from ..tiles import Tile, TileSet
from .base import playable_tiles

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
StateIn = TypeVar("StateIn", contravariant=True)


class ClaimRules(Protocol[StateIn, MoveT]):
    """What the claim helpers need of a rule set; `MexicanTrainRules` is one."""

    @property
    def tile_set(self) -> TileSet: ...

    def to_move(self, state: StateIn) -> int | None: ...

    def legal_moves(self, state: StateIn, hand: Collection[Tile]) -> tuple[MoveT, ...]: ...

    def played_tile(self, move: MoveT) -> Tile | None: ...

    def table_tiles(self, state: StateIn) -> frozenset[Tile]: ...

    def must_play_if_able(self, state: StateIn, seat: int, move: MoveT) -> bool: ...


def forbidden_tiles(rules: ClaimRules[StateT, MoveT], state: StateT) -> frozenset[Tile]:
    """F: the tiles not on the table that the seat to move could play if it held them.

    A seat that draws, passes or declares not holding proves its hand and F are
    disjoint. Empty once the round is over.
    """
    if rules.to_move(state) is None:
        return frozenset()
    table = rules.table_tiles(state)
    return frozenset(playable_tiles(rules, state,
                                    (t for t in rules.tile_set.tiles if t not in table)))


@dataclass(frozen=True, slots=True)
class ClaimPoint(Generic[StateT, MoveT]):
    """One move of a round as the audit sees it: the position, the mover and its hand then."""

    state: StateT
    seat: int
    move: MoveT
    hand: frozenset[Tile]
    """The mover's whole hand just before the move, as revealed after the round."""


@dataclass(frozen=True, slots=True)
class FalseClaim:
    """The first claim of "no legal play" that the revealed hand contradicts."""

    index: int
    """Position of the move in the sequence given to `audit_claims`."""
    seat: int
    playable: frozenset[Tile]
    """The tiles of the hand that were in the forbidden set."""


def audit_claims(rules: ClaimRules[StateT, MoveT],
                 points: Sequence[ClaimPoint[StateT, MoveT]]) -> FalseClaim | None:
    """Re-judge every claim of `points` against the revealed hands; the first false one.

    Moves that claim nothing are skipped. A point whose seat is not the one to
    move, or whose hand does not fit the state, is the caller's error.
    """
    for i, p in enumerate(points):
        if rules.to_move(p.state) != p.seat:
            raise LocalError("rules/audit", f"point {i}: seat {p.seat} is not to move")
        rules.legal_moves(p.state, p.hand)  # raises rules/bad-hand for a hand that cannot be
        if not rules.must_play_if_able(p.state, p.seat, p.move):
            continue
        playable = p.hand & forbidden_tiles(rules, p.state)
        if playable:
            return FalseClaim(index=i, seat=p.seat, playable=playable)
    return None


@dataclass(frozen=True, slots=True)
class Standings:
    """Totals over the rounds played so far; the lowest total wins (section 8.2)."""

    totals: tuple[int, ...]
    """Per seat, the sum of its round penalties."""
    ranks: tuple[int, ...]
    """Per seat, 1 + the number of seats with a strictly lower total (ties share a rank)."""

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats ranked first: the winners once the match is complete."""
        return tuple(s for s, r in enumerate(self.ranks) if r == 1)


def match_standings(round_penalties: Sequence[Sequence[int]]) -> Standings:
    """Sum each seat's penalties over the rounds given (one row per round) and rank the seats.

    Penalties are `Outcome.hand_pips` of each round (the winner's is 0 if it went out).
    """
    if not round_penalties:
        raise LocalError("rules/standings", "no rounds")
    seats = len(round_penalties[0])
    for row in round_penalties:
        if len(row) != seats or seats < 2 or not all(
                type(p) is int and p >= 0 for p in row):
            raise LocalError("rules/standings",
                             "every round gives one penalty >= 0 per seat, for 2 or more seats")
    totals = tuple(sum(row[s] for row in round_penalties) for s in range(seats))
    ranks = tuple(1 + sum(u < t for u in totals) for t in totals)
    return Standings(totals=totals, ranks=ranks)
