"""A small k-seat rule set with a boneyard and forced play, for session tests only.

Each seat gets two double-six tiles; the rest is the pile. A seat may shed a tile
whose pips add up to an even number, and must shed one if it can; otherwise it
draws one tile from the pile (claiming it cannot play), and once the pile is empty
it passes (claiming the same). The hand ends when a seat has shed its last tile,
or when every seat has passed in a row. It exercises what Mineshaft and Mexican
Train need from the session (spec/10-session.md 10.4): draws opened privately to
the drawer, and "cannot play" claims proven in zero knowledge.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import protocol.rules as rules_pkg
from protocol.errors import EncodingError
from protocol.rules.base import DealPlan, Outcome, RuleViolation
from protocol.tiles import DOUBLE_SIX, Tile

PASS_ID, DRAW_ID = 0, 1


@dataclass(frozen=True)
class Shed:
    tile: Tile


@dataclass(frozen=True)
class Draw:
    pass


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class PileState:
    counts: tuple[int, ...]
    pile: int
    turn: int
    passes: int
    shed: tuple[Tile, ...]
    finished: str | None


def even(tile: Tile) -> bool:
    return (tile[0] + tile[1]) % 2 == 0


@dataclass(frozen=True)
class PileRules:
    seats: int
    name = "pile"
    hand_size = 2

    @property
    def params(self) -> dict[str, Any]:
        return {"seats": self.seats}

    @property
    def tile_set(self) -> Any:
        return DOUBLE_SIX

    @property
    def deal(self) -> DealPlan:
        return DealPlan(seats=self.seats, hand_size=self.hand_size, hidden=0, on_table=())

    def first_player(self, drawn: int) -> int:
        return drawn   # the session's draw stands (spec/10-session.md 10.4)

    def initial_state(self, first_player: int) -> PileState:
        pile = len(DOUBLE_SIX.tiles) - self.seats * self.hand_size
        return PileState((self.hand_size,) * self.seats, pile, first_player, 0, (), None)

    def to_move(self, state: PileState) -> int | None:
        return None if state.finished else state.turn

    def legal_moves(self, state: PileState, hand: Collection[Tile]) -> tuple[Any, ...]:
        sheds = tuple(Shed(t) for t in sorted(hand) if even(t) and t not in state.shed)
        if sheds:
            return sheds
        return (Draw(),) if state.pile else (Pass(),)

    def apply(self, state: PileState, seat: int, move: Any) -> PileState:
        if state.finished or seat != state.turn:
            raise RuleViolation("rules/not-your-turn", "", seat)
        nxt = (seat + 1) % self.seats
        if isinstance(move, Draw):
            if not state.pile:
                raise RuleViolation("rules/empty-pile", "the pile is empty", seat)
            counts = list(state.counts)
            counts[seat] += 1
            return replace(state, counts=tuple(counts), pile=state.pile - 1, turn=nxt,
                           passes=0)
        if isinstance(move, Pass):
            if state.pile:
                raise RuleViolation("rules/must-draw", "draw while the pile lasts", seat)
            passes = state.passes + 1
            return replace(state, turn=nxt, passes=passes,
                           finished="blocked" if passes == self.seats else None)
        if not even(move.tile):
            raise RuleViolation("rules/odd-tile", "only even tiles may be shed", seat)
        if move.tile in state.shed:
            raise RuleViolation("rules/tile-already-played", "", seat)
        counts = list(state.counts)
        counts[seat] -= 1
        return replace(state, counts=tuple(counts), turn=nxt, passes=0,
                       shed=(*state.shed, move.tile),
                       finished="out" if counts[seat] == 0 else None)

    def draws(self, move: Any) -> bool:
        return isinstance(move, Draw)

    def must_play_if_able(self, state: PileState, seat: int, move: Any) -> bool:
        return isinstance(move, Draw | Pass)

    def is_over(self, state: PileState) -> bool:
        return state.finished is not None

    def state_to_json(self, state: PileState) -> dict[str, Any]:
        return {"counts": list(state.counts), "pile": state.pile, "turn": state.turn,
                "passes": state.passes, "shed": [list(t) for t in state.shed],
                "finished": state.finished}

    def state_from_json(self, obj: Mapping[str, Any]) -> PileState:
        return PileState(tuple(obj["counts"]), obj["pile"], obj["turn"], obj["passes"],
                         tuple((a, b) for a, b in obj["shed"]), obj["finished"])

    def outcome(self, state: PileState, hands: Sequence[Collection[Tile]],
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
        if isinstance(move, Pass):
            return PASS_ID
        if isinstance(move, Draw):
            return DRAW_ID
        return 2 + DOUBLE_SIX.index[move.tile]

    def move_from_id(self, move_id: int) -> Any:
        if move_id == PASS_ID:
            return Pass()
        if move_id == DRAW_ID:
            return Draw()
        if not 2 <= move_id < 2 + len(DOUBLE_SIX.tiles):
            raise EncodingError("rules/move-id", f"no move {move_id}")
        return Shed(DOUBLE_SIX.tiles[move_id - 2])

    def move_text(self, move: Any) -> str:
        if isinstance(move, Shed):
            return f"{move.tile[0]}-{move.tile[1]}"
        return "draw" if isinstance(move, Draw) else "pass"

    def parse_move(self, text: str) -> Any:
        raise EncodingError("rules/move-text", "the pile rules take move ids only")


def register(monkeypatch: Any) -> None:
    """Make `make_rules("pile", {"seats": k})` work for one test."""
    registry = dict(rules_pkg.RULESETS)
    registry["pile"] = lambda params, suite=None: PileRules(int(params.get("seats", 3)))
    monkeypatch.setattr(rules_pkg, "RULESETS", registry)
