"""A small k-seat rule set for tests only: "shed" (never shipped in protocol/ or peers/).

Bram's rules are for two seats; the session, the referee, the seat agents, the
verifier and the network peers are built for k = 2..8. This rule set plugs into
them through the rule-set interface (spec/rules/bram.md section 1), the way
Mineshaft or Mexican Train will, so that k seats can be tested before those exist.

In a test, register it with the `shed` fixture of the test module (monkeypatch)
or `register()`. As a program, this file is `dealerless` with "shed" registered,
so tests can run real processes: `python tests/shed_rules.py host --rules shed ...`.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from protocol.errors import EncodingError
from protocol.rules.base import DealPlan, Outcome, RuleViolation
from protocol.suite import Suite
from protocol.tiles import DOUBLE_SIX, Tile

NAME = "shed"


@dataclass(frozen=True)
class Shed:
    """Play any tile (id 1 + its index in the set)."""

    tile: Tile
    end: str = "-"


@dataclass(frozen=True)
class Hold:
    """Pass."""


@dataclass(frozen=True)
class ShedState:
    counts: tuple[int, ...]
    turn: int
    passes: int
    played: tuple[Tile, ...]
    first: int
    finished: str | None

    @property
    def hand_counts(self) -> tuple[int, ...]:
        """Unplayed tiles per seat, as peers/table/driver.py shows them."""
        return self.counts


@dataclass(frozen=True)
class ShedRules:
    """k seats, 3 tiles each, 1 hidden; shed a tile or pass; first out, or fewest pips."""

    seats: int

    name = NAME

    @property
    def params(self) -> dict[str, Any]:
        return {"seats": self.seats}

    @property
    def tile_set(self) -> Any:
        return DOUBLE_SIX

    @property
    def deal(self) -> DealPlan:
        return DealPlan(seats=self.seats, hand_size=3, hidden=1, on_table=())

    def first_player(self, drawn: int) -> int:
        return drawn   # the session's draw stands (spec/10-session.md 10.4)

    def initial_state(self, first_player: int) -> ShedState:
        return ShedState((3,) * self.seats, first_player, 0, (), first_player, None)

    def to_move(self, state: ShedState) -> int | None:
        return None if state.finished else state.turn

    def legal_moves(self, state: ShedState, hand: Collection[Tile]) -> tuple[Any, ...]:
        return (Hold(), *(Shed(t) for t in sorted(hand)))

    def apply(self, state: ShedState, seat: int, move: Any) -> ShedState:
        if state.finished or seat != state.turn:
            raise RuleViolation("rules/not-your-turn", "", seat)
        nxt = (seat + 1) % self.seats
        if isinstance(move, Hold):
            passes = state.passes + 1
            return replace(state, turn=nxt, passes=passes,
                           finished="blocked" if passes == self.seats else None)
        if move.tile in state.played:
            raise RuleViolation("rules/tile-already-played", "", seat)
        counts = list(state.counts)
        counts[seat] -= 1
        return replace(state, counts=tuple(counts), turn=nxt, passes=0,
                       played=(*state.played, move.tile),
                       finished="out" if counts[seat] == 0 else None)

    def is_over(self, state: ShedState) -> bool:
        return state.finished is not None

    def state_to_json(self, state: ShedState) -> dict[str, Any]:
        return {"counts": list(state.counts), "turn": state.turn, "passes": state.passes,
                "played": [list(t) for t in state.played], "first": state.first,
                "finished": state.finished}

    def state_from_json(self, obj: Mapping[str, Any]) -> ShedState:
        return ShedState(tuple(obj["counts"]), obj["turn"], obj["passes"],
                         tuple(tuple(t) for t in obj["played"]), obj["first"], obj["finished"])

    def outcome(self, state: ShedState, hands: Sequence[Collection[Tile]],
                hidden: Collection[Tile]) -> Outcome:
        pips = tuple(sum(a + b for a, b in h) for h in hands)
        low = min(pips)
        winners = [s for s, p in enumerate(pips) if p == low]
        winner = winners[0] if len(winners) == 1 else None
        margin = 0 if winner is None else 2 * (sorted(pips)[1] - low)
        return Outcome(winner, state.finished or "", pips, tuple(2 * p for p in pips), margin,
                       tuple(sorted(hidden)))

    def played_tile(self, move: Any) -> Tile | None:
        return move.tile if isinstance(move, Shed) else None

    def move_id(self, move: Any) -> int:
        return 0 if isinstance(move, Hold) else 1 + DOUBLE_SIX.index[move.tile]

    def move_from_id(self, move_id: int) -> Any:
        if move_id == 0:
            return Hold()
        if not 1 <= move_id <= len(DOUBLE_SIX.tiles):
            raise EncodingError("rules/move-id", f"no move {move_id}")
        return Shed(DOUBLE_SIX.tiles[move_id - 1])

    def move_text(self, move: Any) -> str:
        return "pass" if isinstance(move, Hold) else f"{move.tile[0]}-{move.tile[1]}"

    def parse_move(self, text: str) -> Any:
        raise NotImplementedError


def factory(params: Mapping[str, object], suite: Suite | None = None) -> ShedRules:
    """`seats` (2..8, default 3) is the only parameter; anything else is refused. The
    rules hold no group element, so the game's suite changes nothing."""
    unknown = set(params) - {"seats"}
    if unknown:
        raise EncodingError("rules/params", f"unknown parameters {sorted(unknown)}")
    seats = params.get("seats", 3)
    if type(seats) is not int or not 2 <= seats <= 8:
        raise EncodingError("rules/params", f"seats is a whole number from 2 to 8, not {seats!r}")
    return ShedRules(seats)


def registry() -> Mapping[str, Any]:
    """protocol.rules.RULESETS with "shed" added."""
    import protocol.rules as rules_pkg
    return MappingProxyType({**rules_pkg.RULESETS, NAME: factory})


def register() -> None:
    """Add "shed" to the rule sets of this process (a test or a test's subprocess)."""
    import protocol.rules as rules_pkg
    rules_pkg.RULESETS = registry()  # type: ignore[misc]


if __name__ == "__main__":  # `dealerless` with "shed" registered, for subprocess tests
    register()
    from peers.cli.main import main
    sys.exit(main(sys.argv[1:]))
