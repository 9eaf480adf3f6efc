"""Mined Games as a rule set refereed by commit-reveal (spec/rules/mined-games.md).

There is no deck: the session runs stages of commit-reveal instead (spec/10-session.md
10.8). Stage 0 draws the map seed (skipped when a map is given), stage 1 places the
miners on B1, stage r + 1 is round r. In every stage each living seat, in seat order,
commits to its orders, then each opens them; once all are open the stage resolves.
The state here holds the mine, the miners and the stage's commitments and openings,
so the session's state hash covers them all.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..errors import DealerlessError, EncodingError, LocalError
from ..hashing import H, Tag
from ..tiles import DOUBLE_SIX, Tile, TileSet
from .base import DealPlan, Outcome, ParamValue, RuleViolation, SimultaneousRules
from .mined_map import (
    KINDS,
    MAX_SIDE,
    MIN_SIDE,
    MineMap,
    generate_map,
    map_seed,
    parse_map,
)
from .mined_round import (
    ACTION_TEXT,
    ALIVE,
    DEATHS,
    IRON_BONUS,
    MAX_MOVES,
    Miner,
    Orders,
    Pos,
    RoundReport,
    check_orders,
    resolve_round,
    resources_reachable,
    rounded_share,
)

NAME = "mined-games"
SEED_STAGE, START_STAGE = 0, 1
DEFAULT_SIDE = 7
MAX_ROUNDS = 10
COMMITMENT_BYTES = NONCE_BYTES = 32


@dataclass(frozen=True)
class Result:
    """The verdict of a finished game (section 7): the token winner, the elimination
    candidate (None while the winner still owes its choice), how each was found, and the
    seats the winner chooses among."""

    winner: int | None
    ec: int | None
    how: str
    choose_from: tuple[int, ...] = ()


@dataclass(frozen=True)
class MinedState:
    seats: int
    stage: int
    mine: MineMap | None                   # None until the map seed is drawn
    dur: tuple[tuple[int, ...], ...]       # durability per floor, row-major
    miners: tuple[Miner, ...]
    commits: tuple[bytes | None, ...]      # this stage's commitments, per seat
    opened: tuple[Any, ...]                # this stage's opened orders (wire form) or None
    nonces: tuple[bytes | None, ...]       # this stage's opened nonces
    absent: tuple[int, tuple[int, ...]] | None = None  # (seat declared absent, declarers)
    forfeits: tuple[tuple[int, int, tuple[int, ...]], ...] = ()  # (seat, stage, declarers)
    pool: int = 0                          # dollars the emeralds added to the prize pool
    end: str | None = None                 # why the game ended, once it has
    result: Result | None = None

    @property
    def round(self) -> int:
        return self.stage - START_STAGE

    def playing(self) -> list[int]:
        """The seats that commit and open in this stage: alive, in seat order."""
        return [s for s, m in enumerate(self.miners) if m.alive]

    @property
    def hand_counts(self) -> tuple[int, ...]:
        """No hands in this game (the driver's view shows none)."""
        return ()


@dataclass(frozen=True)
class MinedOutcome:
    """The end of a game of Mined Games, as the verifier reports it (section 7)."""

    winner: int | None
    elimination_candidate: int | None
    end: str
    how: str
    money: tuple[int, ...]
    status: tuple[str, ...]
    forfeits: tuple[tuple[int, int, tuple[int, ...]], ...]
    pool: int

    def to_json(self) -> dict[str, Any]:
        return {"token_winner": self.winner, "elimination_candidate": self.elimination_candidate,
                "end": self.end, "how": self.how, "money": list(self.money),
                "status": list(self.status),
                "forfeits": [{"seat": s, "stage": t, "declared_by": list(d),
                              "proven": False} for s, t, d in self.forfeits],
                "prize_pool_added": self.pool}


def _draw(game_id: bytes, state: MinedState, tied: list[int]) -> int:
    """A tie broken by the stage's opened nonces (D14): nobody can steer it, since every
    nonce was committed before any was opened."""
    if len(tied) == 1:
        return tied[0]
    nonces = [n for n in state.nonces if n is not None]
    u = int.from_bytes(H(Tag.MINED_TIE, game_id, *nonces)[:8], "big")
    return sorted(tied)[u % len(tied)]


def final_result(game_id: bytes, state: MinedState) -> Result:
    """The token winner and elimination candidate (section 7, D12-D15)."""
    miners = state.miners
    forfeited = [s for s, m in enumerate(miners) if m.status == "forfeit"]
    dead = [s for s, m in enumerate(miners) if not m.alive]
    living = [s for s, m in enumerate(miners) if m.alive]
    pool = [s for s in range(state.seats) if s not in forfeited] or list(range(state.seats))
    if living:
        best = max(miners[s].money for s in living)
        winner = _draw(game_id, state, [s for s in living if miners[s].money == best])
    else:
        best = max(miners[s].money for s in pool)
        winner = _draw(game_id, state, [s for s in pool if miners[s].money == best])
    candidates = forfeited or dead
    if not candidates:
        least = min(miners[s].money for s in living)
        tied = [s for s in living if miners[s].money == least]
        return Result(winner, _draw(game_id, state, tied), "least money")
    if len(candidates) == 1:
        return Result(winner, candidates[0], "forfeited" if forfeited else "died")
    if living:
        return Result(winner, None, "chosen by the winner", tuple(candidates))
    least = min(miners[s].money for s in candidates)
    tied = [s for s in candidates if miners[s].money == least]
    return Result(winner, _draw(game_id, state, tied),
                  "forfeited with the least money" if forfeited else "died with the least money")


def _iron_bonus(miners: tuple[Miner, ...]) -> tuple[Miner, ...]:
    most = max(m.iron_rounds for m in miners)
    if most == 0:
        return miners
    top = [s for s, m in enumerate(miners) if m.iron_rounds == most]
    share = rounded_share(IRON_BONUS, len(top))
    return tuple(replace(m, money=m.money + share) if s in top else m
                 for s, m in enumerate(miners))


@dataclass(frozen=True)
class MinedGamesRules:
    """The rule set `mined-games` (spec/rules/mined-games.md section 1)."""

    seats: int = 5
    width: int = DEFAULT_SIDE
    height: int = DEFAULT_SIDE
    map: str = ""
    rounds: int = MAX_ROUNDS

    @classmethod
    def from_params(cls, params: Mapping[str, object]) -> MinedGamesRules:
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
        return cls(seats, width, height, text, rounds)

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
        from .mined_round import parse_orders
        return parse_orders(text)

    # -- the stages ---------------------------------------------------------------------

    def start_state(self) -> MinedState:
        k = self.seats
        mine = parse_map(self.map) if self.map else None
        return MinedState(
            seats=k, stage=START_STAGE if mine else SEED_STAGE, mine=mine,
            dur=mine.fresh_durability() if mine else (), miners=(Miner(None),) * k,
            commits=(None,) * k, opened=(None,) * k, nonces=(None,) * k)

    def is_over(self, state: MinedState) -> bool:
        return state.end is not None

    def due(self, state: MinedState) -> tuple[str, int] | None:
        """What is owed next and by whom: ("commit" | "open" | "absent" | "choose", seat)."""
        if state.result is not None:
            return None if state.result.ec is not None else ("choose", _winner(state))
        if state.absent is not None:
            seat, declared = state.absent
            rest = [s for s in state.playing() if s != seat and s not in declared]
            return "absent", rest[0]
        playing = state.playing()
        for s in playing:
            if state.commits[s] is None:
                return "commit", s
        for s in playing:
            if state.nonces[s] is None:
                return "open", s
        raise LocalError("mined/state", "every seat has opened but the stage is unresolved")

    def decode_orders(self, state: MinedState, obj: Any) -> Any:
        """The wire orders of this stage, strictly (section 4.1); RuleViolation if malformed."""
        if state.stage == SEED_STAGE:
            if obj is not None:
                raise RuleViolation("mined/orders-shape", "the seed stage's orders are nil")
            return None
        if not isinstance(obj, list) or len(obj) != 2 or any(type(x) not in (int, str)
                                                             for x in obj):
            raise RuleViolation("mined/orders-shape", "orders are a pair")
        if state.stage == START_STAGE:
            if not all(type(x) is int for x in obj):
                raise RuleViolation("mined/orders-shape", "a start is [row, column]")
            return [obj[0], obj[1]]
        moves, action = obj
        if type(moves) is not str or type(action) is not int or len(moves) > MAX_MOVES \
                or set(moves) - set("UDLR") or action not in ACTION_TEXT:
            raise RuleViolation("mined/orders-shape", "orders are [steps of U/D/L/R (at most "
                                f"{MAX_MOVES}), an action code 0..14]")
        return [moves, action]

    def check(self, state: MinedState, seat: int, orders: Any) -> None:
        """RuleViolation if decoded `orders` break the rules for `seat` (section 4.2)."""
        if state.stage == SEED_STAGE:
            return
        mine = state.mine
        assert mine is not None
        if state.stage == START_STAGE:
            r, c = orders
            if not (0 <= r < mine.height and 0 <= c < mine.width):
                raise RuleViolation("mined/start-tile", f"r{r} c{c} is not on B1")
            if mine.kind(0, r, c) in "AL":
                raise RuleViolation("mined/start-tile", f"B1 r{r} c{c} is "
                                    f"{KINDS[mine.kind(0, r, c)][0]}: a miner starts on "
                                    "solid ground (D5)")
            return
        check_orders(mine, state.miners[seat], Orders(orders[0], orders[1]))

    def commit(self, state: MinedState, seat: int, value: bytes) -> MinedState:
        commits = list(state.commits)
        commits[seat] = value
        return replace(state, commits=tuple(commits))

    def open(self, game_id: bytes, state: MinedState, seat: int, orders: Any,
             nonce: bytes) -> MinedState:
        """Record an opening (the session checked it against the commitment); resolve the
        stage once every living seat has opened."""
        opened, nonces = list(state.opened), list(state.nonces)
        opened[seat], nonces[seat] = orders, nonce
        state = replace(state, opened=tuple(opened), nonces=tuple(nonces))
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
        return self.resolve(game_id, state)

    def _maybe_resolve(self, game_id: bytes, state: MinedState) -> MinedState:
        if any(state.nonces[s] is None for s in state.playing()):
            return state
        return self.resolve(game_id, state)[0]

    def declare_absent(self, game_id: bytes, state: MinedState, declarer: int, seat: int,
                       stage: int) -> MinedState:
        """`declarer` says `seat` missed its deadline in `stage` (section 8, D16). When
        every other living seat has said so, `seat` forfeits: it is dead, and the stage
        goes on without it."""
        due = self.due(state)
        owing = state.absent[0] if state.absent else due[1] if due else None
        if seat != owing or stage != state.stage:
            raise RuleViolation("absent/wrong-seat", f"seat {owing} owes the next frame of "
                                f"stage {state.stage}; the declaration names seat {seat} in "
                                f"stage {stage}")
        if declarer == seat or not state.miners[declarer].alive:
            raise RuleViolation("absent/declarer", "only another living seat may declare")
        declared = (*(state.absent[1] if state.absent else ()), declarer)
        if set(declared) != set(state.playing()) - {seat}:
            return replace(state, absent=(seat, declared))
        miners, commits = list(state.miners), list(state.commits)
        opened, nonces = list(state.opened), list(state.nonces)
        miners[seat] = replace(miners[seat], status="forfeit", died=state.stage)
        commits[seat] = opened[seat] = nonces[seat] = None
        state = replace(state, miners=tuple(miners), commits=tuple(commits),
                        opened=tuple(opened), nonces=tuple(nonces), absent=None,
                        forfeits=(*state.forfeits, (seat, state.stage, tuple(sorted(declared)))))
        # Every declarer is alive, so someone is still playing.
        if all(state.commits[s] is not None for s in state.playing()):
            return self._maybe_resolve(game_id, state)
        return state

    def answered(self, state: MinedState) -> MinedState:
        """The seat declared absent sent its frame before every other seat had declared:
        the declarations lapse (section 8)."""
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

    def resolve(self, game_id: bytes, state: MinedState) -> tuple[MinedState,
                                                                  RoundReport | None]:
        """Resolve the stage from its openings and start the next (or end the game)."""
        playing = state.playing()
        report = None
        died_now = any(m.died == state.stage for m in state.miners)
        if state.stage == SEED_STAGE:
            seed = map_seed(game_id, [n for n in state.nonces if n is not None])
            mine = generate_map(seed, self.width, self.height)
            state = replace(state, mine=mine, dur=mine.fresh_durability())
        elif state.stage == START_STAGE:
            state = replace(state, miners=tuple(
                replace(m, at=(0, *state.opened[s])) if s in playing else m
                for s, m in enumerate(state.miners)))
        else:
            assert state.mine is not None
            orders = {s: Orders(*state.opened[s]) for s in playing}
            dur, miners, report = resolve_round(state.mine, state.dur, state.miners, orders,
                                                state.stage)
            state = replace(state, dur=dur, miners=miners, pool=state.pool + report.pool)
            died_now = died_now or bool(report.killed)
        end = None
        if not state.playing():
            end = "every miner is dead"
        elif died_now:
            end = "a miner died"
        elif state.round >= self.rounds:
            end = f"{self.rounds} rounds were played"
        elif state.stage > START_STAGE and state.mine is not None and \
                not resources_reachable(state.mine, state.dur, state.miners):
            end = "no resource is reachable"
        if end is not None:
            return self._finish(game_id, state, end), report
        k = self.seats
        return replace(state, stage=state.stage + 1, commits=(None,) * k,
                       opened=(None,) * k, nonces=(None,) * k), report

    def _finish(self, game_id: bytes, state: MinedState, end: str) -> MinedState:
        if state.stage > START_STAGE:
            state = replace(state, miners=_iron_bonus(state.miners))
        return replace(state, end=end, result=final_result(game_id, state))

    def verdict(self, state: MinedState) -> MinedOutcome:
        result = state.result
        if result is None or result.ec is None or state.end is None:
            raise LocalError("rules/not-over", "the game is not over")
        return MinedOutcome(result.winner, result.ec, state.end, result.how,
                            tuple(m.money for m in state.miners),
                            tuple(m.status for m in state.miners), state.forfeits, state.pool)

    # -- the state as JSON (section 9) --------------------------------------------------

    def state_to_json(self, state: MinedState) -> dict[str, object]:
        def hexes(xs: tuple[bytes | None, ...]) -> list[str | None]:
            return [None if x is None else x.hex() for x in xs]

        res = state.result
        return {
            "stage": state.stage,
            "map": "" if state.mine is None else state.mine.text(),
            "dur": [list(f) for f in state.dur],
            "miners": [[None if m.at is None else list(m.at), m.money, m.garnets,
                        m.iron_rounds, m.status, m.died] for m in state.miners],
            "commits": hexes(state.commits),
            "opened": list(state.opened),
            "nonces": hexes(state.nonces),
            "absent": None if state.absent is None else [state.absent[0],
                                                         list(state.absent[1])],
            "forfeits": [[s, t, list(d)] for s, t, d in state.forfeits],
            "pool": state.pool,
            "end": state.end,
            "result": None if res is None else [res.winner, res.ec, res.how,
                                                list(res.choose_from)],
        }

    def state_from_json(self, obj: object) -> MinedState:
        try:
            state = self._from_json(obj)
        except (TypeError, ValueError, KeyError, IndexError, AssertionError,
                DealerlessError) as exc:
            # A state from a dispute package may be forged: anything this code would not
            # produce is refused here, so that no later step trips over it.
            raise EncodingError("rules/state-json", f"not a Mined Games state: {exc}") from None
        if self.state_to_json(state) != obj:
            raise EncodingError("rules/state-json", "the state does not re-encode exactly")
        return state

    def _from_json(self, obj: object) -> MinedState:
        assert isinstance(obj, dict) and sorted(obj) == sorted(
            ["stage", "map", "dur", "miners", "commits", "opened", "nonces", "absent",
             "forfeits", "pool", "end", "result"])
        k = self.seats
        stage = _int(obj["stage"], 0, self.rounds + START_STAGE)
        text = obj["map"]
        assert isinstance(text, str)
        mine = parse_map(text) if text else None
        end = obj["end"]
        assert (mine is None) == (stage == SEED_STAGE and end is None)
        if mine is not None:
            assert (mine.width, mine.height) == (self.width, self.height)
            assert not self.map or text == self.map
        dur = tuple(tuple(_int(x, 0, 9) for x in _list(f)) for f in _list(obj["dur"]))
        assert (mine is None and not dur) or (mine is not None and len(dur) == len(mine.kinds)
                                              and all(len(f) == len(kf) for f, kf in
                                                      zip(dur, mine.kinds, strict=True)))
        miners = tuple(self._miner(m, mine) for m in _list(obj["miners"]))
        commits = tuple(None if c is None else _hex(c, COMMITMENT_BYTES)
                        for c in _list(obj["commits"]))
        nonces = tuple(None if n is None else _hex(n, NONCE_BYTES) for n in _list(obj["nonces"]))
        opened = tuple(_list(obj["opened"]))
        assert len(miners) == len(commits) == len(nonces) == len(opened) == k
        absent_obj = obj["absent"]
        absent = None
        if absent_obj is not None:
            who, by = _list(absent_obj)
            absent = (_int(who, 0, k - 1), tuple(_int(x, 0, k - 1) for x in _list(by)))
        forfeits = tuple((_int(s, 0, k - 1), _int(t, 0, stage),
                          tuple(_int(x, 0, k - 1) for x in _list(d)))
                         for s, t, d in (_list(f) for f in _list(obj["forfeits"])))
        assert end is None or isinstance(end, str)
        res_obj = obj["result"]
        result = None
        if res_obj is not None:
            w, ec, how, among = _list(res_obj)
            assert isinstance(how, str)
            result = Result(None if w is None else _int(w, 0, k - 1),
                            None if ec is None else _int(ec, 0, k - 1), how,
                            tuple(_int(x, 0, k - 1) for x in _list(among)))
        assert (end is None) == (result is None)
        state = MinedState(k, stage, mine, dur, miners, commits, opened, nonces, absent,
                           forfeits, _int(obj["pool"], 0, 1 << 40), end, result)
        for s in range(k):
            m = miners[s]
            placed = stage > START_STAGE or (stage == START_STAGE and end is not None)
            never = m.died is not None and m.died <= START_STAGE  # forfeited before placing
            assert (m.at is None) == (not placed or never)
            assert m.alive == (m.died is None)
            # Until the game ends, only the living commit; the last stage's stay in the end.
            assert miners[s].alive or commits[s] is None or end is not None
            assert commits[s] is not None or nonces[s] is None
            if nonces[s] is None:
                assert opened[s] is None
            else:
                assert self.decode_orders(state, opened[s]) == opened[s]
                if end is None:  # opened orders passed the rules' checks (4.2)
                    self.check(state, s, opened[s])
        living = state.playing()
        if absent is not None:
            who, by = absent
            assert who in living and state.nonces[who] is None and end is None
            assert len(set(by)) == len(by) and set(by) < set(living) - {who}
        if result is not None and result.ec is None:
            dead = [s for s in range(k) if s not in living]
            assert result.winner in living and len(result.choose_from) > 1
            assert set(result.choose_from) <= set(dead)
        return state

    def _miner(self, obj: object, mine: MineMap | None) -> Miner:
        at, money, garnets, iron, status, died = _list(obj)
        pos: Pos | None = None
        if at is not None:
            assert mine is not None
            f, r, c = (_int(x, 0, MAX_SIDE) for x in _list(at))
            assert f < len(mine.kinds) and r < mine.height and c < mine.width
            pos = (f, r, c)
        assert status == ALIVE or status in DEATHS
        return Miner(pos, _int(money, 0, 1 << 40), _int(garnets, 0, 1 << 20),
                     _int(iron, 0, MAX_ROUNDS), str(status),
                     None if died is None else _int(died, 0, MAX_ROUNDS + START_STAGE))


def _winner(state: MinedState) -> int:
    assert state.result is not None and state.result.winner is not None
    return state.result.winner


def _int(x: object, lo: int, hi: int) -> int:
    if type(x) is not int or not lo <= x <= hi:
        raise ValueError(f"{x!r} is not an integer {lo}..{hi}")
    return x


def _list(x: object) -> list[Any]:
    if not isinstance(x, list):
        raise TypeError(f"{x!r} is not a list")
    return x


def _hex(x: object, n: int) -> bytes:
    if not isinstance(x, str) or len(x) != 2 * n or x != x.lower():
        raise ValueError(f"{x!r} is not {n} bytes of lowercase hex")
    return bytes.fromhex(x)


if TYPE_CHECKING:  # mypy proves that Mined Games is of the simultaneous family
    _FAMILY: type[SimultaneousRules[MinedState]] = MinedGamesRules
