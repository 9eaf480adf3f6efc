"""The session is built for k = 2..8 seats: full games with 3 and 5 seats (spec/10-session.md).

Bram's rules are for two; this file plugs a small k-seat rule set into the same
session, referee, seat agents and verifier through the rule-set interface
(spec/rules/bram.md section 1), the way Mineshaft or Mexican Train will.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

import protocol.rules as rules_pkg
from peers.entropy import Entropy
from peers.selfplay import Table
from protocol.errors import EncodingError
from protocol.rules.base import DealPlan, Outcome, RuleViolation
from protocol.tiles import DOUBLE_SIX, Tile
from protocol.verifier import replay


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


@dataclass(frozen=True)
class ShedRules:
    """k seats, 3 tiles each, 1 hidden; shed a tile or pass; first out, or fewest pips."""

    seats: int

    name = "shed"

    @property
    def params(self) -> dict[str, Any]:
        return {"seats": self.seats}

    @property
    def tile_set(self) -> Any:
        return DOUBLE_SIX

    @property
    def deal(self) -> DealPlan:
        return DealPlan(seats=self.seats, hand_size=3, hidden=1, on_table=())

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


@pytest.fixture
def shed(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = dict(rules_pkg.RULESETS)
    registry["shed"] = lambda params: ShedRules(int(params.get("seats", 3)))
    monkeypatch.setattr(rules_pkg, "RULESETS", registry)


@pytest.mark.parametrize("seats", [3, 5])
def test_a_full_game_with_k_seats_verifies(shed: None, seats: int) -> None:
    table = Table.create("shed", {"seats": seats}, ["random"] * seats, Entropy(seats))
    data = table.play().encode()
    verdict = replay(data)
    assert verdict.exit_code == 0, verdict.violation
    state = table.referees[0].state
    # Every seat shuffled and dealt, the hidden tile and every hand were opened.
    assert len(state.key_shares) == seats and len(state.deck) == 28
    opened = [t for t in state.opened if t is not None]
    assert len(opened) == len(set(opened)) == 3 * seats + 1
    assert len(verdict.outcome.hidden) == 1
