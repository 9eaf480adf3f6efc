"""Mineshaft, one round, as pure functions (spec/rules/mineshaft.md).

Theory of operation: the round's starting double (the hub) lies face up; each
seat holds 5 tiles and the rest form the rubble pile (section 2). Tiles go on
the hub until it has six shafts, then on any open end; a double struck on an
end opens a vein, and until three tiles lie on the newest vein only its two
arms take tiles (section 5). Play is forced: a seat with a playable tile must
play one; without one it draws a single tile, plays it if it fits, and
otherwise passes (section 6). The round ends when a seat goes out, or when
every seat in a row has passed with the pile empty (section 7).

The rules never see a hand. A draw or a pass asserts "I have no legal play";
`must_play_if_able` says which moves assert it, and the session proves it in
zero knowledge against the forbidden set of `mexican_train_match.forbidden_tiles`
(section 6.1), which works for any rule set with `table_tiles`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from ..errors import EncodingError, LocalError
from ..tiles import DOUBLE_SIX, TILE_SETS, Tile, TileSet
from .base import (
    DealPlan,
    Outcome,
    ParamValue,
    RuleViolation,
    link_problem,
    lowest_pips_outcome,
)

# The forced-play and match helpers are rule-set generic; Mexican Train's are reused.
from .mexican_train_match import Standings, audit_claims, forbidden_tiles, match_standings
from .mineshaft_state import (
    DRAW,
    FIRST_ARM,
    HAND_SIZE,
    HUB,
    NAME,
    PASS,
    SHAFTS,
    Draw,
    Line,
    MineshaftState,
    Move,
    Pass,
    Placed,
    Play,
    Vein,
    arm_target,
    initial_boneyard,
    max_seats,
    move_from_id,
    move_id,
    move_text,
    parse_move,
    target_count,
    target_text,
)


def initial_state(ts: TileSet, seats: int, hub: int, first_player: int) -> MineshaftState:
    """The hub alone on the table, 5 tiles a seat, `first_player` to move (section 2)."""
    if type(first_player) is not int or first_player not in range(seats):
        raise LocalError("rules/first-player", f"seat {first_player!r} is not in 0..{seats - 1}")
    return MineshaftState(tile_set=ts, hub=hub, shafts=(), veins=(),
                          hand_counts=(HAND_SIZE,) * seats,
                          boneyard=initial_boneyard(ts, seats), turn=first_player,
                          first_player=first_player, phase="play", passes=0, finished=None)


def legal_moves(state: MineshaftState, hand: Collection[Tile]) -> tuple[Move, ...]:
    """Every legal move of the seat to move holding `hand`, in id order (section 6).

    Play is forced: if a tile of `hand` fits an open target, only plays are
    legal; otherwise a draw (pile not empty, not yet drawn) or else a pass.
    `hand` may be part of the hand: its plays are the plays of its tiles,
    which is what makes the forbidden set of section 6.1 well defined.
    """
    if state.finished is not None:
        return ()
    _check_hand(state, hand)
    targets = state.open_targets()
    plays = tuple(Play(t, x) for t in sorted(hand, key=state.tile_set.index.__getitem__)
                  for x in targets if state.open_end(x) in t)
    if plays:
        return plays
    return (DRAW,) if state.phase == "play" and state.boneyard else (PASS,)


def _check_hand(state: MineshaftState, hand: Collection[Tile]) -> None:
    tiles = set(hand)
    if len(tiles) != len(hand) or not all(t in state.tile_set for t in tiles):
        raise LocalError("rules/bad-hand", f"a hand is distinct tiles of the {state.tile_set.name}")
    if tiles & state.table() or len(tiles) > state.hand_counts[state.turn]:
        raise LocalError("rules/bad-hand",
                         f"seat {state.turn} holds {state.hand_counts[state.turn]} unplayed tiles")


def must_play_if_able(state: MineshaftState, seat: int, move: Move) -> bool:
    """Whether `move` asserts that `seat` has no legal play (section 6.1): every draw and pass.

    A pass after a draw asserts it of the whole hand, the drawn tile included
    (decision D10).
    """
    del state, seat  # the claim depends on the kind of move only; apply checks the turn
    return isinstance(move, Draw | Pass)


def apply(state: MineshaftState, seat: int, move: Move) -> MineshaftState:
    """The state after `seat` makes `move` (section 6.2), or RuleViolation.

    Checks run in the order of the spec's table so every implementation reports
    the same code. Possession of a played tile and the truth of a claim that no
    play was possible are for the session to prove.
    """
    if state.finished is not None:
        raise RuleViolation("rules/game-over", f"the round is over ({state.finished})", seat)
    if seat != state.turn:
        raise RuleViolation("rules/not-your-turn", f"seat {state.turn} is to move", seat)
    if isinstance(move, Draw):
        if state.phase == "drawn":
            raise RuleViolation("rules/already-drew", "one draw a turn", seat)
        if not state.boneyard:
            raise RuleViolation("rules/boneyard-empty", "the rubble pile is empty: pass", seat)
        counts = tuple(c + (s == seat) for s, c in enumerate(state.hand_counts))
        return replace(state, hand_counts=counts, boneyard=state.boneyard - 1, phase="drawn")
    if isinstance(move, Pass):
        if state.phase == "play" and state.boneyard:
            raise RuleViolation("rules/must-draw", "draw before passing", seat)
        passes = state.passes + 1 if not state.boneyard else 0
        return replace(state, turn=(seat + 1) % state.seats, phase="play", passes=passes,
                       finished="blocked" if passes == state.seats else None)
    if not isinstance(move, Play):
        raise LocalError("rules/bad-move", f"{move!r} is not a Mineshaft move")
    return _play(state, seat, move)


def _play(state: MineshaftState, seat: int, move: Play) -> MineshaftState:
    ts, x = state.tile_set, move.target
    text = f"{move.tile[0]}-{move.tile[1]}>{target_text(x)}"
    if move.tile not in ts:
        raise RuleViolation("rules/not-in-set", f"{text} is not a {ts.name} tile", seat)
    if x >= target_count(ts):
        raise RuleViolation("rules/no-such-target", f"{text}: {ts.name} has no such vein", seat)
    if move.tile in state.table():
        raise RuleViolation("rules/tile-already-played", f"{text}: already on the table", seat)
    if len(state.shafts) < SHAFTS and x != HUB:
        raise RuleViolation("rules/hub-only", f"{text}: dig six shafts off the hub first", seat)
    if len(state.shafts) == SHAFTS and x == HUB:
        raise RuleViolation("rules/hub-full", f"{text}: the hub has its six shafts", seat)
    line = state.line(x) if x != HUB else ()
    if line is None:
        raise RuleViolation("rules/no-such-line", f"{text}: that shaft or vein is not dug", seat)
    if line and line[-1][0] == line[-1][1]:
        raise RuleViolation("rules/line-closed", f"{text}: that line ends in a vein", seat)
    vein = state.exploring
    if vein is not None and x not in (arm_target(vein.double, 0), arm_target(vein.double, 1)):
        raise RuleViolation("rules/vein-unexplored", f"{text}: explore the vein of "
                            f"{vein.double}-{vein.double} first", seat)
    end = state.open_end(x)
    if end not in move.tile:
        raise RuleViolation("rules/tile-does-not-match", f"{text}: that end shows {end}", seat)
    a, b = move.tile
    placed = (a, b) if a == end else (b, a)
    shafts, veins = state.shafts, state.veins
    if x == HUB:
        shafts = (*shafts, (placed,))
    elif x < FIRST_ARM:
        shafts = tuple((*ln, placed) if k + 1 == x else ln for k, ln in enumerate(shafts))
    else:
        double, side = divmod(x - FIRST_ARM, 2)
        veins = tuple(replace(v, arms=_grow(v.arms, side, placed)) if v.double == double else v
                      for v in veins)
    if a == b:
        veins = (*veins, Vein(a, ((), ())))  # a double strikes a vein (D6)
    counts = tuple(c - (s == seat) for s, c in enumerate(state.hand_counts))
    return replace(state, shafts=shafts, veins=veins, hand_counts=counts,
                   turn=(seat + 1) % state.seats, phase="play", passes=0,
                   finished="out" if counts[seat] == 0 else None)


def _grow(arms: tuple[Line, Line], side: int, placed: Placed) -> tuple[Line, Line]:
    return ((*arms[0], placed), arms[1]) if side == 0 else (arms[0], (*arms[1], placed))


def outcome(state: MineshaftState, hands: Sequence[Collection[Tile]],
            hidden: Collection[Tile]) -> Outcome:
    """Winner, pips and margin of a finished round (section 8).

    A blocked round whose lowest total is shared has no single winner:
    `winner` is None and `round_winners` names the seats that share the win.
    """
    if state.finished is None:
        raise LocalError("rules/not-over", "the round is still on")
    _check_reveal(state, hands, hidden)
    return lowest_pips_outcome(state.finished, state.hand_counts, hands)


def round_winners(result: Outcome) -> tuple[int, ...]:
    """The seats that win a round: the winner, or every seat sharing the lowest pips (D12)."""
    return result.winners


def _check_reveal(state: MineshaftState, hands: Sequence[Collection[Tile]],
                  hidden: Collection[Tile]) -> None:
    if len(hands) != state.seats or hidden or any(
            len(h) != n for h, n in zip(hands, state.hand_counts, strict=True)):
        raise RuleViolation("rules/reveal-mismatch",
                            f"expected hands of {state.hand_counts} tiles and none hidden")
    seen = [t for h in hands for t in h]
    if len(set(seen)) != len(seen) or not all(t in state.tile_set for t in seen) \
            or set(seen) & state.table():
        raise RuleViolation("rules/reveal-mismatch",
                            f"hands hold distinct {state.tile_set.name} tiles not on the table")


def next_round(round_: int) -> int | None:
    """The long variant's next starting double: one lower, or None after 0-0 (section 9)."""
    if type(round_) is not int or round_ < 0:
        raise LocalError("rules/params", f"{round_!r} is not a double's number")
    return round_ - 1 if round_ else None


def _params_problem(set_name: object, seats: object, round_: object, long: object) -> str | None:
    if not isinstance(set_name, str) or set_name not in TILE_SETS:
        return f"set is one of {sorted(TILE_SETS)}"
    ts = TILE_SETS[set_name]
    if type(seats) is not int or not 2 <= seats <= max_seats(ts):
        return f"seats is an integer in 2..{max_seats(ts)} on {set_name}"
    if type(long) is not bool:
        return "long is a boolean"
    if type(round_) is not int or round_ not in range(ts.max_pip + 1):
        return f"round is the starting double's number, an integer in 0..{ts.max_pip}"
    if not long and round_ != ts.max_pip:
        return f"a short game is one round on {ts.max_pip}-{ts.max_pip} (D13)"
    return None


def _long_only_problem(after: object, first: object, seats: object,
                       long: object) -> str | None:
    """Checks 9-11 of section 2 "Checking the parameters": what only a long game's
    rounds may set. `first` is a seat of the `seats` parameter, never of the identities."""
    if after and long is not True:
        return "a short game follows no round: after is empty (D13)"
    if type(first) is not int or type(seats) is not int or not -1 <= first < seats:
        return "first is -1 (drawn) or a seat"
    if first != -1 and long is not True:
        return "only the rounds of a long game keep the first round's first player (D19)"
    return None


@dataclass(frozen=True, slots=True)
class MineshaftRules:
    """One round of Mineshaft as a `RuleSet[MineshaftState, Move]` (section 2).

    `round` is the starting double's number: the set's highest in a short game,
    and from there down to 0 in the rounds of the long variant (`long`).
    """

    seats: int
    set: str = DOUBLE_SIX.name
    round: int = -1
    """-1 stands for the set's highest double, which the constructor puts in its place."""
    long: bool = False
    after: str = ""
    """The previous round of a long game, as the hash of its last frame (hex), or ""."""
    first: int = -1
    """-1: the session draws the first player (D2); a seat: the first player the first
    round of this long game drew, who plays first in every round (D19)."""

    def __post_init__(self) -> None:
        if self.round == -1 and self.set in TILE_SETS:
            object.__setattr__(self, "round", TILE_SETS[self.set].max_pip)
        problem = (_params_problem(self.set, self.seats, self.round, self.long)
                   or link_problem(self.after)
                   or _long_only_problem(self.after, self.first, self.seats, self.long))
        if problem:
            raise LocalError("rules/params", problem)

    @classmethod
    def from_params(cls, params: Mapping[str, object]) -> MineshaftRules:
        """Rebuild from `params`; seats is required, unknown keys are refused."""
        unknown = set(params) - {"set", "seats", "round", "long", "after", "first"}
        if unknown:
            raise EncodingError("rules/params", f"unknown parameters {sorted(unknown)}")
        if "seats" not in params:
            raise EncodingError("rules/params", "seats is required")
        name, seats = params.get("set", DOUBLE_SIX.name), params["seats"]
        ts = TILE_SETS.get(name) if isinstance(name, str) else None
        round_ = params.get("round", ts.max_pip if ts else None)
        long = params.get("long", False)
        after = params.get("after", "")
        first = params.get("first", -1)
        problem = (_params_problem(name, seats, round_, long) or link_problem(after)
                   or _long_only_problem(after, first, seats, long))
        if problem or not isinstance(name, str) or not isinstance(seats, int) \
                or not isinstance(round_, int) or not isinstance(after, str) \
                or not isinstance(first, int):
            raise EncodingError("rules/params", problem or "")
        return cls(seats=seats, set=name, round=round_, long=long is True, after=after,
                   first=first)

    @property
    def name(self) -> str:
        return NAME

    @property
    def params(self) -> dict[str, ParamValue]:
        return {"set": self.set, "seats": self.seats, "round": self.round, "long": self.long,
                "after": self.after, "first": self.first}

    @property
    def tile_set(self) -> TileSet:
        return TILE_SETS[self.set]

    @property
    def hub(self) -> Tile:
        return (self.round, self.round)

    @property
    def deal(self) -> DealPlan:
        return DealPlan(seats=self.seats, hand_size=HAND_SIZE, hidden=0, on_table=(self.hub,))

    def next_rules(self) -> MineshaftRules | None:
        """The rules of the next round: None in a short game and after the 0-0 round. Its
        `after` is left empty: only the match knows the link (spec/11-verify.md 11.5)."""
        nxt = next_round(self.round) if self.long else None
        return None if nxt is None else replace(self, round=nxt, after="")

    def first_player(self, drawn: int) -> int:
        """The drawn seat, or in a long game's later rounds the first round's (D19)."""
        return drawn if self.first == -1 else self.first

    def initial_state(self, first_player: int) -> MineshaftState:
        return initial_state(self.tile_set, self.seats, self.round, first_player)

    def to_move(self, state: MineshaftState) -> int | None:
        return None if state.finished else state.turn

    def legal_moves(self, state: MineshaftState, hand: Collection[Tile]) -> tuple[Move, ...]:
        return legal_moves(state, hand)

    def apply(self, state: MineshaftState, seat: int, move: Move) -> MineshaftState:
        return apply(state, seat, move)

    def draws(self, move: Move) -> bool:
        """Whether `move` takes the next pile position into the mover's hand."""
        return isinstance(move, Draw)

    def must_play_if_able(self, state: MineshaftState, seat: int, move: Move) -> bool:
        return must_play_if_able(state, seat, move)

    def table_tiles(self, state: MineshaftState) -> frozenset[Tile]:
        return state.table()

    def is_over(self, state: MineshaftState) -> bool:
        return state.finished is not None

    def state_to_json(self, state: MineshaftState) -> dict[str, object]:
        return state.to_json()

    def state_from_json(self, obj: object) -> MineshaftState:
        if not isinstance(obj, Mapping):
            raise EncodingError("rules/state-json", "a Mineshaft state is a JSON object")
        state = MineshaftState.from_json(obj)
        if (state.tile_set.name, state.seats, state.hub) != (self.set, self.seats, self.round):
            raise EncodingError("rules/state-json", "the state is not of these parameters")
        return state

    def outcome(self, state: MineshaftState, hands: Sequence[Collection[Tile]],
                hidden: Collection[Tile]) -> Outcome:
        return outcome(state, hands, hidden)

    def played_tile(self, move: Move) -> Tile | None:
        return move.tile if isinstance(move, Play) else None

    def move_id(self, move: Move) -> int:
        return move_id(self.tile_set, move)

    def move_from_id(self, move_id: int) -> Move:
        return move_from_id(self.tile_set, move_id)

    def move_text(self, move: Move) -> str:
        return move_text(self.tile_set, move)

    def parse_move(self, text: str) -> Move:
        return parse_move(self.tile_set, text)


__all__ = ["DRAW", "PASS", "Draw", "MineshaftRules", "MineshaftState", "Move", "Pass", "Play",
           "Standings", "apply", "audit_claims", "forbidden_tiles", "initial_state",
           "legal_moves", "match_standings", "must_play_if_able", "next_round", "outcome",
           "round_winners"]
