"""Mined Games: the state, the orders of a stage, and the state as JSON
(spec/rules/mined-games.md sections 4 and 9).

`MinedState` holds the mine, the miners and the stage's commitments, openings
and declarations of absence, so the session's state hash covers them all. The
orders of a stage decode strictly from their wire form (4.1) and are checked
against the state (4.2); `state_from_json` refuses any state that
`state_to_json` would not produce, since a dispute package's state may be forged.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import DealerlessError, EncodingError
from ..sealed import check_seal_bytes
from ..suite import Suite
from .base import RuleViolation
from .mined_map import KINDS, MAX_SIDE, MineMap, parse_map
from .mined_round import (
    ACTION_TEXT,
    ALIVE,
    DEATHS,
    MAX_MOVES,
    Miner,
    Orders,
    Pos,
    RoundReport,
    check_orders,
)
from .simultaneous import Carries

SEED_STAGE, START_STAGE = 0, 1
MAX_ROUNDS = 10
NONCE_BYTES = 32
#: A stage's COMMIT is a seal (spec/10-session.md 10.8): at most this many bytes of msgpack.
MAX_SEAL_BYTES = 4096

#: One declaration of absence: the declarer and, against a withheld OPEN, its decryption
#: share of the silent seat's seal (None against a missing KEY or COMMIT).
Declaration = tuple[int, bytes | None]


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
    commits: tuple[bytes | None, ...]      # this stage's seals (msgpack), per seat
    opened: tuple[Any, ...]                # this stage's opened orders (wire form) or None
    nonces: tuple[bytes | None, ...]       # this stage's opened nonces
    # (the seat declared absent, its declarations in the order they came)
    absent: tuple[int, tuple[Declaration, ...]] | None = None
    forfeits: tuple[tuple[int, int, tuple[int, ...]], ...] = ()  # (seat, stage, declarers)
    pool: int = 0                          # dollars the emeralds added to the prize pool
    end: str | None = None                 # why the game ended, once it has
    result: Result | None = None
    keys: tuple[bytes | None, ...] = ()    # per seat, its share key (a point), once sent
    # (seat, stage, declarers whose shares opened its seal): OPENs the table recovered
    withheld: tuple[tuple[int, int, tuple[int, ...]], ...] = ()
    # The rounds played, for the verifier's account (section 5.7): what a replay saw, not
    # part of the state's JSON or its hash (a state read from JSON has none).
    reports: tuple[tuple[int, RoundReport], ...] = field(default=(), compare=False)

    @property
    def round(self) -> int:
        return self.stage - START_STAGE

    def playing(self) -> list[int]:
        """The seats that commit and open in this stage: alive, in seat order."""
        return [s for s, m in enumerate(self.miners) if m.alive]

    def holders(self, seat: int) -> list[int]:
        """The recipients of `seat`'s seal (10.8): every other seat with a share key. A
        forfeit or a death ends the game after its stage (6), so within a stage this set
        never changes, and a seat that forfeits in it still holds its shares."""
        return [s for s in range(self.seats) if s != seat and self.keys[s] is not None]

    def sealed(self, seat: int) -> bool:
        """Whether the OPEN `seat` owes can be recovered without it (10.8): its seal is in
        and has shares (two holders or more)."""
        return (self.commits[seat] is not None and self.nonces[seat] is None
                and len(self.holders(seat)) >= 2)

    def declarers(self, seat: int) -> list[int]:
        """The seats that may declare `seat`, which owes the next frame, absent (10.8):
        against a sealed OPEN its seal's holders, otherwise the other living seats; and
        nobody when that leaves one seat, whose word alone settles nothing (with two
        seats its declaration and the owed frame could each be released late, and no
        rule on the frames alone can tell which one was)."""
        seats = self.holders(seat) if self.sealed(seat) else [
            s for s in self.playing() if s != seat]
        return seats if len(seats) >= 2 else []

    def admits(self, seat: int, declarer: int) -> Carries | None:
        """What an ABSENT of `declarer` against `seat`, which owes the next frame, may
        carry now (10.8), or None if it may send none. Against a KEY or COMMIT each
        declarer declares once, with no share. Against a sealed OPEN the declarations
        carry no share until t are in (the t-th may carry its own), and then each holder
        posts its share once: a minority's branch kept back from before the stage's OPENs
        then never holds a share, however many the table's branch has disclosed."""
        eligible = self.declarers(seat)
        if declarer not in eligible:
            return None
        entries = self.absent[1] if self.absent is not None else ()
        declared = {d for d, _ in entries}
        if not self.sealed(seat):
            return None if declarer in declared else Carries.NOTHING
        t = majority(len(eligible))
        if len(declared) < t:
            return None if declarer in declared else (
                Carries.EITHER if len(declared) == t - 1 else Carries.NOTHING)
        return None if any(d == declarer and s is not None for d, s in entries) \
            else Carries.SHARE

    @property
    def hand_counts(self) -> tuple[int, ...]:
        """No hands in this game (the driver's view shows none)."""
        return ()


def decode_stage_orders(state: MinedState, obj: Any) -> Any:
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


def check_stage_orders(state: MinedState, seat: int, orders: Any) -> None:
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


# -- the state as JSON (section 9) ------------------------------------------------------

def state_to_json(state: MinedState) -> dict[str, object]:
    """The state as a JSON object of exactly the 14 keys of section 9."""

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
        "absent": None if state.absent is None else [state.absent[0], [
            [d, None if share is None else share.hex()] for d, share in state.absent[1]]],
        "forfeits": [[s, t, list(d)] for s, t, d in state.forfeits],
        "pool": state.pool,
        "end": state.end,
        "result": None if res is None else [res.winner, res.ec, res.how,
                                            list(res.choose_from)],
        "keys": hexes(state.keys),
        "withheld": [[s, t, list(d)] for s, t, d in state.withheld],
    }


def state_from_json(obj: object, seats: int, width: int, height: int, map_text: str,
                    rounds: int, suite: Suite) -> MinedState:
    """Inverse of state_to_json for a game of these parameters in `suite`; EncodingError
    for anything it would not produce."""
    try:
        state = _from_json(obj, seats, width, height, map_text, rounds, suite)
    except (TypeError, ValueError, KeyError, IndexError, AssertionError,
            DealerlessError) as exc:
        # A state from a dispute package may be forged: anything this code would not
        # produce is refused here, so that no later step trips over it.
        raise EncodingError("rules/state-json", f"not a Mined Games state: {exc}") from None
    if state_to_json(state) != obj:
        raise EncodingError("rules/state-json", "the state does not re-encode exactly")
    return state


def _from_json(obj: object, seats: int, width: int, height: int, map_text: str,
               rounds: int, suite: Suite) -> MinedState:
    assert isinstance(obj, dict) and sorted(obj) == sorted(
        ["stage", "map", "dur", "miners", "commits", "opened", "nonces", "absent",
         "forfeits", "pool", "end", "result", "keys", "withheld"])
    k = seats
    stage = _int(obj["stage"], 0, rounds + START_STAGE)
    text = obj["map"]
    assert isinstance(text, str)
    mine = parse_map(text) if text else None
    end = obj["end"]
    assert (mine is None) == (stage == SEED_STAGE and end is None)
    if mine is not None:
        assert (mine.width, mine.height) == (width, height)
        assert not map_text or text == map_text
    dur = tuple(tuple(_int(x, 0, 9) for x in _list(f)) for f in _list(obj["dur"]))
    assert (mine is None and not dur) or (mine is not None and len(dur) == len(mine.kinds)
                                          and all(len(f) == len(kf) for f, kf in
                                                  zip(dur, mine.kinds, strict=True)))
    miners = tuple(_miner(m, mine) for m in _list(obj["miners"]))
    commits = tuple(None if c is None else _hex(c, 0, MAX_SEAL_BYTES)
                    for c in _list(obj["commits"]))
    nonces = tuple(None if n is None else _hex(n, NONCE_BYTES) for n in _list(obj["nonces"]))
    keys = tuple(None if y is None else suite.decode_point(_hex(y, suite.point_bytes)).data
                 for y in _list(obj["keys"]))
    opened = tuple(_list(obj["opened"]))
    assert len(miners) == len(commits) == len(nonces) == len(opened) == len(keys) == k
    absent_obj = obj["absent"]
    absent = None
    if absent_obj is not None:
        who, by = _list(absent_obj)
        absent = (_int(who, 0, k - 1), tuple(
            (_int(d, 0, k - 1), None if sh is None else _hex(sh, suite.point_bytes))
            for d, sh in (_list(x) for x in _list(by))))
    forfeits, withheld = (tuple((_int(s, 0, k - 1), _int(t, 0, stage),
                                 tuple(_int(x, 0, k - 1) for x in _list(d)))
                                for s, t, d in (_list(f) for f in _list(obj[key])))
                          for key in ("forfeits", "withheld"))
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
                       forfeits, _int(obj["pool"], 0, 1 << 40), end, result, keys, withheld)
    for s in range(k):
        m = miners[s]
        placed = stage > START_STAGE or (stage == START_STAGE and end is not None)
        never = m.died is not None and m.died <= START_STAGE  # forfeited before placing
        assert (m.at is None) == (not placed or never)
        assert m.alive == (m.died is None)
        # Only the living commit; at the end the seals go and the openings stay.
        assert miners[s].alive or commits[s] is None
        assert commits[s] is not None or nonces[s] is None or end is not None
        if nonces[s] is None:
            assert opened[s] is None
        else:
            assert decode_stage_orders(state, opened[s]) == opened[s]
            if end is None:  # opened orders passed the rules' checks (4.2)
                check_stage_orders(state, s, opened[s])
    living = state.playing()
    for s, c in enumerate(commits):  # a seal needs its sender's share key first (10.8)
        if c is not None:
            assert keys[s] is not None and end is None
            check_seal_bytes(suite, c, len(state.holders(s)))
    if absent is not None:
        _check_absent(suite, state, absent)
    if result is not None and result.ec is None:
        dead = [s for s in range(k) if s not in living]
        assert result.winner in living and len(result.choose_from) > 1
        assert set(result.choose_from) <= set(dead)
    return state


def majority(m: int) -> int:
    """t = m // 2 + 1 of m seats (10.8): the declarations a forfeit needs, and the shares
    that open a seal of m holders."""
    return m // 2 + 1


def _check_absent(suite: Suite, state: MinedState,
                  absent: tuple[int, tuple[Declaration, ...]]) -> None:
    """A declaration under way names a living seat that owes a frame of the stage, and
    each of its frames was admitted in turn (10.8): it is not complete yet."""
    who, by = absent
    living = state.playing()
    owing = next((s for have in (state.keys, state.commits, state.nonces) for s in living
                  if have[s] is None), None)
    assert who == owing and state.end is None and by
    so_far = replace(state, absent=None)
    for i, (d, share) in enumerate(by):
        carries = so_far.admits(who, d)
        assert carries is not None and carries.allows(share)
        if share is not None:
            suite.decode_point(share)
        so_far = replace(state, absent=(who, by[:i + 1]))
    t = majority(len(state.declarers(who)))
    if state.sealed(who):                           # t shares open the seal
        assert sum(share is not None for _, share in by) < t
    else:                                           # a majority completes a forfeit
        assert len(by) < t


def _miner(obj: object, mine: MineMap | None) -> Miner:
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


def _int(x: object, lo: int, hi: int) -> int:
    if type(x) is not int or not lo <= x <= hi:
        raise ValueError(f"{x!r} is not an integer {lo}..{hi}")
    return x


def _list(x: object) -> list[Any]:
    if not isinstance(x, list):
        raise TypeError(f"{x!r} is not a list")
    return x


def _hex(x: object, n: int, most: int | None = None) -> bytes:
    """`n` bytes of lowercase hex, or n..most bytes if `most` is given."""
    hi = n if most is None else most
    if not isinstance(x, str) or not 2 * n <= len(x) <= 2 * hi or len(x) % 2 \
            or x != x.lower():
        raise ValueError(f"{x!r} is not {n}..{hi} bytes of lowercase hex")
    return bytes.fromhex(x)
