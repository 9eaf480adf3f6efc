"""Mexican Train, one round, as pure functions (spec/rules/mexican-train.md).

Theory of operation: the round's engine double (12-12 in the first round) is
in somebody's hand or in the boneyard. The engine search (section 5.1) starts
at the session's first player: in seat order each seat opens with the engine
or declares it does not hold it; after a full lap of declarations the seats
draw in turn until one can open. The opener then takes the first turn.
In a first turn (section 5.2) a seat plays as many tiles as it can on its own
train; later turns are one tile (two after a double, section 5.3). A seat that
cannot play draws once, may play what it can, and otherwise passes, putting
its marker on its train, which opens that train to the others until someone
plays on it. The round ends when a seat goes out or nobody can play (section 7).

Every draw, pass and declaration asserts "I have no legal play"; the rules
cannot see hands, so `must_play_if_able` tells the session which moves need a
proof and `mexican_train_match.forbidden_tiles` computes the set the proof is against.
How a move changes the round (`apply`, section 6.2) is in mexican_train_turns.py.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ..errors import EncodingError, LocalError
from ..tiles import Tile, TileSet
from .base import (
    DealPlan,
    Outcome,
    ParamValue,
    RuleViolation,
    link_problem,
    lowest_pips_outcome,
)
from .mexican_train_state import (
    DRAW,
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    NOT_HOLDING,
    PASS,
    SET_SIZE,
    TILE_SET,
    Draw,
    MexicanState,
    Move,
    Play,
    hand_size,
    move_from_id,
    move_id,
    move_text,
    parse_move,
)
from .mexican_train_turns import apply, open_trains

#: The engine doubles of a 13-round match, in order (section 8).
MATCH_ROUNDS = tuple(range(TILE_SET.max_pip, -1, -1))


def initial_state(seats: int, engine: int, mexican_train: bool,
                  first_player: int) -> MexicanState:
    """Hands dealt, nothing on the table, the engine search starting at `first_player`."""
    if type(first_player) is not int or first_player not in range(seats):
        raise LocalError("rules/first-player", f"seat {first_player!r} is not in 0..{seats - 1}")
    size = hand_size(seats)
    return MexicanState(
        engine=engine, trains=((),) * seats, mexican=() if mexican_train else None,
        markers=(False,) * seats, pending=None, hand_counts=(size,) * seats,
        boneyard=SET_SIZE - seats * size, turn=first_player, first_player=first_player,
        phase="declare", drawn=False, owes=True, first_done=(False,) * seats, stalled=0,
        finished=None)


def legal_moves(state: MexicanState, hand: Collection[Tile]) -> tuple[Move, ...]:
    """Every legal move of the seat to move holding `hand`, in id order (section 6).

    Play is forced: a draw, pass or declaration is legal only without a play.
    `hand` may be part of the hand; the plays of a hand are then the union of
    the plays of its tiles, which is what makes the forbidden set well defined.
    """
    if state.finished is not None:
        return ()
    _check_hand(state, hand)
    seat = state.turn
    if state.phase != "play":
        if state.phase == "search" and not state.drawn:
            return (DRAW,) if state.boneyard else ()
        engine = (state.engine, state.engine)
        return (Play(engine, seat),) if engine in hand else (NOT_HOLDING,)
    trains = open_trains(state, seat)
    plays = tuple(Play(t, x) for t in sorted(hand, key=TILE_SET.index.__getitem__)
                  for x in trains if state.open_end(x) in t)
    if plays:
        return plays
    return (DRAW,) if state.owes and not state.drawn and state.boneyard else (PASS,)


def _check_hand(state: MexicanState, hand: Collection[Tile]) -> None:
    tiles = set(hand)
    if len(tiles) != len(hand) or not all(t in TILE_SET for t in tiles):
        raise LocalError("rules/bad-hand", "a hand is distinct tiles of the double-twelve set")
    if tiles & state.table() or len(tiles) > state.hand_counts[state.turn]:
        raise LocalError("rules/bad-hand",
                         f"seat {state.turn} holds {state.hand_counts[state.turn]} unplayed tiles")


def must_play_if_able(state: MexicanState, seat: int, move: Move) -> bool:
    """Whether `move` asserts that `seat` has no legal play (section 6.1).

    Every draw, pass and not-holding does, except the draw that starts a turn
    of the engine search, where no play is legal whatever the hand.
    """
    del seat  # the claim depends on the position only; apply checks the turn
    if isinstance(move, Play):
        return False
    return not (state.phase == "search" and not state.drawn)



def outcome(state: MexicanState, hands: Sequence[Collection[Tile]],
            hidden: Collection[Tile]) -> Outcome:
    """Penalties, winner and margin of a finished round (section 8)."""
    if state.finished is None:
        raise LocalError("rules/not-over", "the round is still on")
    _check_reveal(state, hands, hidden)
    return lowest_pips_outcome(state.finished, state.hand_counts, hands)


def _check_reveal(state: MexicanState, hands: Sequence[Collection[Tile]],
                  hidden: Collection[Tile]) -> None:
    if len(hands) != state.seats or hidden or any(
            len(h) != n for h, n in zip(hands, state.hand_counts, strict=True)):
        raise RuleViolation("rules/reveal-mismatch",
                            f"expected hands of {state.hand_counts} tiles and none hidden")
    seen = [t for h in hands for t in h]
    if len(set(seen)) != len(seen) or not all(t in TILE_SET for t in seen) \
            or set(seen) & state.table():
        raise RuleViolation("rules/reveal-mismatch",
                            "hands hold distinct double-twelve tiles that are not on the table")


def _params_problem(seats: object, round_: object, mexican_train: object) -> str | None:
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        return f"seats is an integer in {MIN_SEATS}..{MAX_SEATS}"
    if type(round_) is not int or round_ not in MATCH_ROUNDS:
        return f"round is the engine double's number, an integer in 0..{TILE_SET.max_pip}"
    if type(mexican_train) is not bool:
        return "mexican_train is a boolean"
    return None


@dataclass(frozen=True, slots=True)
class MexicanTrainRules:
    """One round of Mexican Train as a `RuleSet[MexicanState, Move]` (section 2).

    `round` is the engine double's number (12 in a match's first round, then
    down to 0); `mexican_train` adds the public train.
    """

    seats: int
    round: int = TILE_SET.max_pip
    mexican_train: bool = False
    after: str = ""
    """The previous round of the match, as the hash of its last frame (hex), or ""."""

    def __post_init__(self) -> None:
        problem = (_params_problem(self.seats, self.round, self.mexican_train)
                   or link_problem(self.after))
        if problem:
            raise LocalError("rules/params", problem)

    @classmethod
    def from_params(cls, params: Mapping[str, object]) -> MexicanTrainRules:
        """Rebuild from `params`; seats is required, unknown keys are refused."""
        unknown = set(params) - {"seats", "round", "mexican_train", "after"}
        if unknown:
            raise EncodingError("rules/params", f"unknown parameters {sorted(unknown)}")
        if "seats" not in params:
            raise EncodingError("rules/params", "seats is required")
        seats, round_ = params["seats"], params.get("round", TILE_SET.max_pip)
        mexican = params.get("mexican_train", False)
        after = params.get("after", "")
        problem = _params_problem(seats, round_, mexican) or link_problem(after)
        if (problem or not isinstance(seats, int) or not isinstance(round_, int)
                or not isinstance(after, str)):
            raise EncodingError("rules/params", problem or "")
        return cls(seats=seats, round=round_, mexican_train=mexican is True, after=after)

    @property
    def name(self) -> str:
        return NAME

    @property
    def params(self) -> dict[str, ParamValue]:
        return {"seats": self.seats, "round": self.round, "mexican_train": self.mexican_train,
                "after": self.after}

    @property
    def tile_set(self) -> TileSet:
        return TILE_SET

    @property
    def engine(self) -> Tile:
        return (self.round, self.round)

    @property
    def deal(self) -> DealPlan:
        return DealPlan(seats=self.seats, hand_size=hand_size(self.seats), hidden=0,
                        on_table=())

    def first_player(self, drawn: int) -> int:
        return drawn

    def initial_state(self, first_player: int) -> MexicanState:
        return initial_state(self.seats, self.round, self.mexican_train, first_player)

    def to_move(self, state: MexicanState) -> int | None:
        return None if state.finished else state.turn

    def legal_moves(self, state: MexicanState, hand: Collection[Tile]) -> tuple[Move, ...]:
        return legal_moves(state, hand)

    def apply(self, state: MexicanState, seat: int, move: Move) -> MexicanState:
        return apply(state, seat, move)

    def must_play_if_able(self, state: MexicanState, seat: int, move: Move) -> bool:
        return must_play_if_able(state, seat, move)

    def draws(self, move: Move) -> bool:
        """Whether `move` takes the next boneyard tile into the mover's hand."""
        return isinstance(move, Draw)

    def table_tiles(self, state: MexicanState) -> frozenset[Tile]:
        return state.table()

    def is_over(self, state: MexicanState) -> bool:
        return state.finished is not None

    def state_to_json(self, state: MexicanState) -> dict[str, object]:
        return state.to_json()

    def state_from_json(self, obj: object) -> MexicanState:
        if not isinstance(obj, Mapping):
            raise EncodingError("rules/state-json", "a Mexican Train state is a JSON object")
        state = MexicanState.from_json(obj)
        if (state.seats, state.engine, state.mexican is not None) != (
                self.seats, self.round, self.mexican_train):
            raise EncodingError("rules/state-json", "the state is not of these parameters")
        return state

    def outcome(self, state: MexicanState, hands: Sequence[Collection[Tile]],
                hidden: Collection[Tile]) -> Outcome:
        return outcome(state, hands, hidden)

    def played_tile(self, move: Move) -> Tile | None:
        return move.tile if isinstance(move, Play) else None

    def move_id(self, move: Move) -> int:
        return move_id(move)

    def move_from_id(self, move_id: int) -> Move:
        return move_from_id(move_id)

    def move_text(self, move: Move) -> str:
        return move_text(move)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)


__all__ = ["MATCH_ROUNDS", "MexicanTrainRules", "initial_state", "legal_moves",
           "must_play_if_able", "outcome"]
