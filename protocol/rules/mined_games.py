"""Mined Games as a rule set refereed by commit-reveal (spec/rules/mined-games.md
sections 1, 2, 5, 6 and 8).

There is no deck: the session runs stages of commit-reveal instead (spec/10-session.md
10.8), asking this rule set what is owed (`due`) and handing it every commitment,
opening, declaration of absence and choice. Stage 0 draws the map seed (skipped when
a map is given), stage 1 places the miners on B1, stage r + 1 is round r. In every
stage each living seat, in seat order, commits to its orders, then each opens them;
once all are open the stage resolves. The state and its JSON are in mined_state.py,
a stage's resolution and the verdict in mined_stage.py.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..errors import EncodingError, LocalError
from ..suite import Suite, v2_suite
from ..tiles import DOUBLE_SIX, Tile, TileSet
from .base import DealPlan, Outcome, ParamValue, RuleViolation
from .mined_map import MAX_SIDE, MIN_SIDE, parse_map
from .mined_round import Miner, Orders, RoundReport, parse_orders
from .mined_stage import MinedOutcome, resolve_stage
from .mined_state import (
    MAX_ROUNDS,
    SEED_STAGE,
    START_STAGE,
    MinedState,
    check_stage_orders,
    decode_stage_orders,
    majority,
    state_from_json,
    state_to_json,
)
from .simultaneous import Carries, SimultaneousRules

NAME = "mined-games"
DEFAULT_SIDE = 7


def _params(params: Mapping[str, object]) -> tuple[int, int, int, str, int]:
    """Seats, width, height, map and rounds from a setup's parameters, defaults filled in
    (section 2); `rules/params` for anything else."""
    unknown = set(params) - {"seats", "width", "height", "map", "rounds"}
    if unknown:
        raise EncodingError("rules/params", f"unknown parameters {sorted(unknown)}")
    seats, rounds = params.get("seats", 5), params.get("rounds", MAX_ROUNDS)
    text = params.get("map", "")
    if not isinstance(text, str):
        raise EncodingError("rules/params", "map is the text of a map (section 2.2)")
    width, height = params.get("width"), params.get("height")
    if text:
        given = parse_map(text)
        if (width, height) not in ((None, None), (given.width, given.height)):
            raise EncodingError("rules/params", f"the map is {given.width} wide and "
                                f"{given.height} high; width and height must match")
        width, height = given.width, given.height
    width = DEFAULT_SIDE if width is None else width
    height = DEFAULT_SIDE if height is None else height
    for name, v, lo, hi in (("seats", seats, 2, 8), ("width", width, MIN_SIDE, MAX_SIDE),
                            ("height", height, MIN_SIDE, MAX_SIDE),
                            ("rounds", rounds, 1, MAX_ROUNDS)):
        if type(v) is not int or not lo <= v <= hi:
            raise EncodingError("rules/params", f"{name} is an integer {lo}..{hi}")
    assert isinstance(seats, int) and isinstance(width, int) and isinstance(height, int)
    assert isinstance(rounds, int)
    return seats, width, height, text, rounds


@dataclass(frozen=True)
class MinedGamesRules:
    """The rule set `mined-games` (spec/rules/mined-games.md section 1)."""

    seats: int = 5
    width: int = DEFAULT_SIDE
    height: int = DEFAULT_SIDE
    map: str = ""
    rounds: int = MAX_ROUNDS
    #: The game's suite, whose elements the state's share keys and decryption shares are
    #: (not a parameter: the setup names it).
    suite: Suite = field(default_factory=v2_suite, compare=False, repr=False)

    @classmethod
    def from_params(cls, params: Mapping[str, object],
                    suite: Suite | None = None) -> MinedGamesRules:
        return cls(*_params(params), suite=suite or v2_suite())

    @property
    def name(self) -> str:
        return NAME

    @property
    def params(self) -> dict[str, ParamValue]:
        return {"seats": self.seats, "width": self.width, "height": self.height,
                "map": self.map, "rounds": self.rounds}

    # -- the deck-game interface: a simultaneous game has no deck and no turns ----------

    @property
    def tile_set(self) -> TileSet:
        """Unused: the session never builds a deck for this rule set (10.8)."""
        return DOUBLE_SIX

    @property
    def deal(self) -> DealPlan:
        """Only `seats` is used: there is no deck to deal (10.8)."""
        return DealPlan(seats=self.seats, hand_size=1, hidden=0, on_table=())

    def first_player(self, drawn: int) -> int:
        return drawn

    def initial_state(self, first_player: int) -> MinedState:
        return self.start_state()

    def to_move(self, state: MinedState) -> int | None:
        due = self.due(state)
        return None if due is None else due[1]

    def legal_moves(self, state: MinedState, hand: Collection[Tile]) -> tuple[Any, ...]:
        return ()  # orders are checked by check_orders, never enumerated

    def apply(self, state: MinedState, seat: int, move: Any) -> MinedState:
        raise RuleViolation("rules/bad-move", "Mined Games takes orders by commit-reveal", seat)

    def outcome(self, state: MinedState, hands: Sequence[Collection[Tile]],
                hidden: Collection[Tile]) -> Outcome:
        raise LocalError("rules/not-a-deck-game", "use verdict")

    def played_tile(self, move: Any) -> Tile | None:
        return None

    def move_id(self, move: Any) -> int:
        raise LocalError("rules/not-a-deck-game", "Mined Games has no move ids")

    def move_from_id(self, move_id: int) -> Any:
        raise EncodingError("rules/move-id", "Mined Games has no move ids")

    def move_text(self, move: Any) -> str:
        return move.text() if isinstance(move, Orders) else str(move)

    def parse_move(self, text: str) -> Any:
        return parse_orders(text)

    # -- the stages ---------------------------------------------------------------------

    def start_state(self) -> MinedState:
        k = self.seats
        mine = parse_map(self.map) if self.map else None
        return MinedState(
            seats=k, stage=START_STAGE if mine else SEED_STAGE, mine=mine,
            dur=mine.fresh_durability() if mine else (), miners=(Miner(None),) * k,
            commits=(None,) * k, opened=(None,) * k, nonces=(None,) * k, keys=(None,) * k)

    def is_over(self, state: MinedState) -> bool:
        return state.end is not None

    def due(self, state: MinedState) -> tuple[str, int] | None:
        """What is owed next and by whom: ("keys" | "commit" | "open" | "choose", seat).
        While a seat is being declared absent it still owes its frame (10.8)."""
        if state.result is not None:
            return None if state.result.ec is not None else ("choose", _winner(state))
        playing = state.playing()
        for kind, missing in (("keys", state.keys), ("commit", state.commits),
                              ("open", state.nonces)):
            for s in playing:
                if missing[s] is None:
                    return kind, s
        raise LocalError("mined/state", "every seat has opened but the stage is unresolved")

    def takes_orders(self, state: MinedState) -> bool:
        """Every stage but the map seed's (section 4.1: its orders are nil)."""
        return state.stage > 0

    def decode_orders(self, state: MinedState, obj: Any) -> Any:
        """The wire orders of this stage, strictly (section 4.1); RuleViolation if malformed."""
        return decode_stage_orders(state, obj)

    def check(self, state: MinedState, seat: int, orders: Any) -> None:
        """RuleViolation if decoded `orders` break the rules for `seat` (section 4.2)."""
        check_stage_orders(state, seat, orders)

    def share_key(self, state: MinedState, seat: int, key: bytes) -> MinedState:
        """Record the seat's share key (10.8), which the session has checked."""
        keys = list(state.keys)
        keys[seat] = key
        return replace(state, keys=tuple(keys), absent=None)

    def commit(self, state: MinedState, seat: int, value: bytes) -> MinedState:
        """Record the seat's seal (10.8), which the session has checked."""
        commits = list(state.commits)
        commits[seat] = value
        return replace(state, commits=tuple(commits), absent=None)

    def open(self, game_id: bytes, state: MinedState, seat: int, orders: Any,
             nonce: bytes) -> MinedState:
        """Record an opening (the session checked it against the commitment); resolve the
        stage once every living seat has opened."""
        opened, nonces = list(state.opened), list(state.nonces)
        opened[seat], nonces[seat] = orders, nonce
        state = replace(state, opened=tuple(opened), nonces=tuple(nonces), absent=None)
        return self._maybe_resolve(game_id, state)

    def play_stage(self, game_id: bytes, state: MinedState, orders: Mapping[int, Any],
                   nonce: bytes = bytes(32)) -> tuple[MinedState, RoundReport | None]:
        """Check and resolve one stage from every living seat's wire orders, as if each
        had committed and opened them with `nonce` (the rules vectors, section 10).
        RuleViolation, with the seat, for the first seat whose orders break the rules."""
        if sorted(orders) != state.playing():
            raise LocalError("mined/orders", "one set of orders per living seat")
        for seat in state.playing():
            try:
                decoded = self.decode_orders(state, orders[seat])
                self.check(state, seat, decoded)
            except RuleViolation as exc:
                raise RuleViolation(exc.code, exc.detail, seat) from None
        k = self.seats
        state = replace(state, commits=tuple(bytes(32) if s in orders else None
                                             for s in range(k)),
                        opened=tuple(orders.get(s) for s in range(k)),
                        nonces=tuple(nonce if s in orders else None for s in range(k)))
        return resolve_stage(self.suite, game_id, state, self.width, self.height, self.rounds)

    def _maybe_resolve(self, game_id: bytes, state: MinedState) -> MinedState:
        if any(state.nonces[s] is None for s in state.playing()):
            return state
        return resolve_stage(self.suite, game_id, state, self.width, self.height,
                             self.rounds)[0]

    def declare_absent(self, game_id: bytes, state: MinedState, declarer: int, seat: int,
                       stage: int, share: bytes | None = None) -> MinedState:
        """`declarer` says `seat`, which owes the next KEY, COMMIT or OPEN of `stage`, missed
        its deadline (section 8, D16, D19, D20). Against a sealed OPEN the declarer is a
        holder of the seal, and `share` its decryption share (which the session checks),
        as `admits` allows: none until t holders have declared, then each holder's once;
        the session opens the seal once t shares are in. Otherwise, once a majority of
        the other living seats has declared, `seat` forfeits: it is dead, and the stage
        goes on without it."""
        due = self.due(state)
        if due is None or due[0] == "choose" or seat != due[1] or stage != state.stage:
            owing = "no seat owes" if due is None or due[0] == "choose" else \
                f"seat {due[1]} owes"
            raise RuleViolation("absent/wrong-seat", f"{owing} the next frame of stage "
                                f"{state.stage}; the declaration names seat {seat} in stage "
                                f"{stage}")
        eligible = self.declarers(state, seat)
        carries = state.admits(seat, declarer)
        if carries is None:
            raise RuleViolation("absent/declarer", f"seat {declarer} may not declare seat "
                                f"{seat} absent: " + (
                                    "it already has" if declarer in eligible else
                                    "only " + _seats(eligible) + " may" if eligible else
                                    "it is the only seat that could, and one seat's word "
                                    "alone makes nobody forfeit"))
        if not carries.allows(share):
            raise RuleViolation("absent/share", _SHARE_RULE[carries])
        declared = (*(state.absent[1] if state.absent is not None else ()), (declarer, share))
        if self.sealed(state, seat) or len(declared) < majority(len(eligible)):
            return replace(state, absent=(seat, declared))
        return self._forfeit(game_id, state, seat, tuple(sorted(d for d, _ in declared)))

    def admits(self, state: MinedState, seat: int, declarer: int) -> Carries | None:
        """What an ABSENT of `declarer` against `seat` may carry now (10.8)."""
        return state.admits(seat, declarer)

    def sealed(self, state: MinedState, seat: int) -> bool:
        """Whether the OPEN `seat` owes can be recovered from its seal without it: its seal
        is in and has shares (two holders or more, 10.8)."""
        return state.sealed(seat)

    def declarers(self, state: MinedState, seat: int) -> list[int]:
        """The seats that may declare `seat` absent (10.8); none if only one could."""
        return state.declarers(seat)

    def recovered(self, game_id: bytes, state: MinedState, seat: int, orders: Any,
                  nonce: bytes) -> MinedState:
        """The table opened `seat`'s seal from the holders' shares (D20): the orders count
        as if the seat had opened them, and the state records whose shares opened it."""
        assert state.absent is not None and state.absent[0] == seat
        openers = tuple(sorted(d for d, share in state.absent[1] if share is not None))
        state = replace(state, withheld=(*state.withheld, (seat, state.stage, openers)))
        return self.open(game_id, state, seat, orders, nonce)

    def _forfeit(self, game_id: bytes, state: MinedState, seat: int,
                 declared: tuple[int, ...]) -> MinedState:
        miners, commits = list(state.miners), list(state.commits)
        opened, nonces = list(state.opened), list(state.nonces)
        miners[seat] = replace(miners[seat], status="forfeit", died=state.stage)
        commits[seat] = opened[seat] = nonces[seat] = None
        state = replace(state, miners=tuple(miners), commits=tuple(commits),
                        opened=tuple(opened), nonces=tuple(nonces), absent=None,
                        forfeits=(*state.forfeits, (seat, state.stage, declared)))
        # Every declarer is alive, so someone is still playing.
        if all(state.commits[s] is not None for s in state.playing()):
            return self._maybe_resolve(game_id, state)
        return state

    def answered(self, state: MinedState) -> MinedState:
        """The seat declared absent sent its frame before the declarations were complete:
        they lapse (section 8)."""
        return replace(state, absent=None)

    def choose(self, state: MinedState, seat: int, chosen: int) -> MinedState:
        """The winner names the elimination candidate among the dead (D13)."""
        result = state.result
        assert result is not None
        if chosen not in result.choose_from:
            raise RuleViolation("mined/choice", f"seat {chosen} is not one of the dead "
                                f"miners {list(result.choose_from)}")
        return replace(state, result=replace(result, ec=chosen))

    def choices(self, state: MinedState) -> tuple[int, ...]:
        """The dead miners the winner chooses among (D13), once the verdict is reached."""
        return state.result.choose_from if state.result is not None else ()

    def verdict(self, state: MinedState) -> MinedOutcome:
        result = state.result
        if result is None or result.ec is None or state.end is None:
            raise LocalError("rules/not-over", "the game is not over")
        return MinedOutcome(result.winner, result.ec, state.end, result.how,
                            tuple(m.money for m in state.miners),
                            tuple(m.status for m in state.miners), state.forfeits, state.pool,
                            state.reports, tuple(m.iron_rounds for m in state.miners),
                            state.withheld)

    # -- the state as JSON (section 9) --------------------------------------------------

    def state_to_json(self, state: MinedState) -> dict[str, object]:
        return state_to_json(state)

    def state_from_json(self, obj: object) -> MinedState:
        return state_from_json(obj, self.seats, self.width, self.height, self.map, self.rounds,
                               self.suite)


_SHARE_RULE = {
    Carries.NOTHING: "a declaration carries a decryption share only against a sealed OPEN, "
                     "and there only once t holders have declared (the t-th may carry its "
                     "own)",
    Carries.SHARE: "once t holders have declared a sealed OPEN absent, an ABSENT only "
                   "posts its signer's decryption share",
}


def _seats(seats: list[int]) -> str:
    return "seats " + ", ".join(map(str, seats)) if seats else "no seat"


def _winner(state: MinedState) -> int:
    assert state.result is not None and state.result.winner is not None
    return state.result.winner


if TYPE_CHECKING:  # mypy proves that Mined Games is of the simultaneous family
    _FAMILY: type[SimultaneousRules[MinedState]] = MinedGamesRules
