#!/usr/bin/env python3
"""Independent implementation of the rule set `mined-games` (spec/rules/mined-games.md)
and of its commit-reveal stages (spec/10-session.md 10.8).

Written from the spec alone, for tools/independent_verify.py and (state_from_json, section
9) tools/independent_dispute.py: no code of the project is
read or imported except tools/independent_check.py (its SpecError base and the hash H).
Section numbers are those of spec/rules/mined-games.md unless another document is named.
Decisions where the document is ambiguous or silent are marked `# SPEC GAP:`.

Usage:
    python tools/independent_mined.py [FILE]
        replay every case of spec/vectors/rules/mined_games.json (section 10) and its map
        vectors; exit 0 iff all agree.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import independent_check as ic
import msgpack

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "spec" / "vectors" / "rules" / "mined_games.json"

# 2.1: letter -> (durability, money)
KIND = {"G": (2, 5000), "S": (2, 4000), "I": (3, 3000), "E": (2, 2000), "R": (1, 1000),
        "D": (3, 0), "A": (0, 0), "L": (3, 0)}
NAMES = {"G": "gold", "S": "silver", "I": "iron", "E": "emerald", "R": "garnet", "D": "dirt",
         "A": "air", "L": "lava"}
RESOURCE = "GSIER"
WEIGHTS = [[("D", 36), ("A", 6), ("S", 6), ("I", 8), ("E", 4), ("R", 3), ("G", 1)],
           [("D", 30), ("A", 8), ("S", 7), ("I", 8), ("E", 5), ("R", 3), ("G", 3)],
           [("D", 26), ("A", 8), ("L", 8), ("S", 6), ("I", 5), ("E", 4), ("R", 3), ("G", 4)],
           [("L", 44), ("D", 8), ("G", 6), ("S", 4), ("E", 2)]]
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
# 4.1 action codes
MINE = {1: (0, None), 2: (0, "U"), 3: (0, "D"), 4: (0, "L"), 5: (0, "R"), 6: (-1, None),
        7: (-1, "U"), 8: (-1, "D"), 9: (-1, "L"), 10: (-1, "R")}
ATTACK = {11: "U", 12: "D", 13: "L", 14: "R"}
ACTION_WORDS = {0: "", 1: "mine here", 2: "mine U", 3: "mine D", 4: "mine L", 5: "mine R",
                6: "mine above", 7: "mine above-U", 8: "mine above-D", 9: "mine above-L",
                10: "mine above-R", 11: "attack U", 12: "attack D", 13: "attack L",
                14: "attack R"}


class RuleError(ic.SpecError):
    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code)
        self.detail = detail or code


def fail(code: str, detail: str = "") -> NoReturn:
    raise RuleError(code, detail)


def H(tag: str, *parts: bytes) -> bytes:
    return ic.H(ic.T[tag], *parts)


def parse_map(text: str) -> tuple[int, int, list[str]]:
    """2.2 -> (width, height, floors as row-major letter strings); setup/params if bad."""
    floors = text.split("/")
    if len(floors) != 4:
        fail("setup/params", "four floors")
    rows = [f.split(",") for f in floors]
    h, w = len(rows[0]), len(rows[0][0])
    for f in rows:
        if len(f) != h or any(len(r) != w or set(r) - set(KIND) for r in f):
            fail("setup/params", "floors of equal size and known kinds")
    if not (3 <= w <= 12 and 3 <= h <= 12):
        fail("setup/params", "3..12 each way")
    if all(k in "AL" for k in "".join(rows[0])):
        fail("setup/params", "a B1 tile to start on")
    return w, h, ["".join(f) for f in rows]


def generate(seed: bytes, w: int, h: int) -> list[str]:
    """Section 3."""
    floors = []
    for f in range(4):
        out = ""
        for i in range(w * h):
            u = int.from_bytes(H("MINED_MAP", seed, ic.u64(f), ic.u64(i))[:8], "big") % 64
            for kind, weight in WEIGHTS[f]:
                if u < weight:
                    out += kind
                    break
                u -= weight
        floors.append(out)
    if all(k in "AL" for k in floors[0]):
        floors[0] = "D" + floors[0][1:]
    return floors


def map_text(w: int, floors: list[str]) -> str:
    return "/".join(",".join(f[i:i + w] for i in range(0, len(f), w)) for f in floors)


def msgpack_of(v: Any) -> bytes:
    """8.1 for the values orders can be (nil, integers, text, arrays)."""
    return msgpack.packb(v, use_bin_type=True)


class Miner:
    def __init__(self) -> None:
        self.at: list[int] | None = None
        self.money = 0
        self.garnets = 0
        self.iron = 0
        self.status = "alive"
        self.died: int | None = None

    def row(self) -> list[Any]:
        return [self.at, self.money, self.garnets, self.iron, self.status, self.died]


class State:
    """Section 9's fields."""

    def __init__(self, k: int) -> None:
        self.stage = 0
        self.w = self.h = 0
        self.floors: list[str] | None = None
        self.dur: list[list[int]] = []
        self.miners = [Miner() for _ in range(k)]
        self.commits: list[bytes | None] = [None] * k
        self.opened: list[Any] = [None] * k
        self.nonces: list[bytes | None] = [None] * k
        self.absent: list[Any] | None = None
        self.forfeits: list[list[Any]] = []
        self.pool = 0
        self.end: str | None = None
        self.result: list[Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage,
                "map": "" if self.floors is None else map_text(self.w, self.floors),
                "dur": self.dur, "miners": [m.row() for m in self.miners],
                "commits": [None if c is None else c.hex() for c in self.commits],
                "opened": self.opened,
                "nonces": [None if n is None else n.hex() for n in self.nonces],
                "absent": self.absent, "forfeits": self.forfeits, "pool": self.pool,
                "end": self.end, "result": self.result}

    def living(self) -> list[int]:
        return [s for s, m in enumerate(self.miners) if m.status == "alive"]

    def kind(self, p: tuple[int, int, int]) -> str:
        assert self.floors is not None
        return self.floors[p[0]][p[1] * self.w + p[2]]

    def d(self, p: tuple[int, int, int]) -> int:
        return self.dur[p[0]][p[1] * self.w + p[2]]

    def set_d(self, p: tuple[int, int, int], v: int) -> None:
        self.dur[p[0]][p[1] * self.w + p[2]] = max(v, 0)

    def on_mine(self, r: int, c: int) -> bool:
        return 0 <= r < self.h and 0 <= c < self.w


class MinedGames:
    """The rule set's parameters (section 2) and the stages (10.8)."""

    name = "mined-games"
    simultaneous = True

    def __init__(self, params: dict[str, Any]) -> None:
        if set(params) - {"seats", "width", "height", "map", "rounds"}:
            fail("setup/params", "unknown parameter")
        text = params.get("map", "")
        if not isinstance(text, str):
            fail("setup/params", "map is text")
        w, h = params.get("width"), params.get("height")
        if text:
            mw, mh, _ = parse_map(text)
            if (w, h) not in ((None, None), (mw, mh)):
                fail("setup/params", "width and height of the map")
            w, h = mw, mh
        self.width = 7 if w is None else w
        self.height = 7 if h is None else h
        self.seats = params.get("seats", 5)
        self.rounds = params.get("rounds", 10)
        self.map = text
        for v, lo, hi in ((self.seats, 2, 8), (self.width, 3, 12), (self.height, 3, 12),
                          (self.rounds, 1, 10)):
            if type(v) is not int or not lo <= v <= hi:
                fail("setup/params", "out of range")
        self.params = {"seats": self.seats, "width": self.width, "height": self.height,
                       "map": self.map, "rounds": self.rounds}

    # -- 10.8 -----------------------------------------------------------------------------
    def start(self) -> State:
        st = State(self.seats)
        st.w, st.h = self.width, self.height
        if self.map:
            _, _, st.floors = parse_map(self.map)
            st.dur = [[KIND[k][0] for k in f] for f in st.floors]
            st.stage = 1
        return st

    def due(self, st: State) -> tuple[str, int] | None:
        if st.result is not None:
            return None if st.result[1] is not None else ("choose", st.result[0])
        if st.absent is not None:
            rest = [s for s in st.living() if s != st.absent[0] and s not in st.absent[1]]
            return "absent", rest[0]
        for s in st.living():
            if st.commits[s] is None:
                return "commit", s
        for s in st.living():
            if st.nonces[s] is None:
                return "open", s
        raise AssertionError("nothing owed in an unresolved stage")

    def on_commit(self, st: State, seat: int, body: Any) -> None:
        if not isinstance(body, list) or len(body) != 1:
            fail("schema/array", "commit body")
        c = body[0]
        if not isinstance(c, bytes):
            fail("schema/bytes", "commitment")
        if len(c) != 32:
            fail("schema/bytes", "commitment")
        st.commits[seat] = c

    def on_open(self, gid: bytes, st: State, seat: int, body: Any) -> None:
        if not isinstance(body, list) or len(body) != 2:
            fail("schema/array", "open body")
        orders, nonce = body
        if len(msgpack_of(orders)) > 128:
            fail("body/orders-size")
        if not isinstance(nonce, bytes):
            fail("schema/bytes", "nonce")
        if len(nonce) != 32:
            fail("schema/bytes", "nonce")
        c = H("MINED_COMMIT", gid, ic.u64(st.stage), bytes([seat]), msgpack_of(orders),
              nonce)[:32]
        if c != st.commits[seat]:
            fail("open/commitment-mismatch")
        self.check(st, seat, self.shape(st, orders))
        st.opened[seat], st.nonces[seat] = orders, nonce
        if all(st.nonces[s] is not None for s in st.living()):
            self.resolve(gid, st)

    def shape(self, st: State, o: Any) -> Any:
        """4.1."""
        if st.stage == 0:
            if o is not None:
                fail("mined/orders-shape")
            return o
        if st.stage == 1:
            if not (isinstance(o, list) and len(o) == 2 and all(type(x) is int for x in o)):
                fail("mined/orders-shape")
            return o
        if not (isinstance(o, list) and len(o) == 2 and type(o[0]) is str
                and type(o[1]) is int and len(o[0]) <= 64 and set(o[0]) <= set("UDLR")
                and 0 <= o[1] <= 14):
            fail("mined/orders-shape")
        return o

    def check(self, st: State, seat: int, o: Any) -> None:
        """4.2."""
        if st.stage == 0:
            return
        if st.stage == 1:
            r, c = o
            if not st.on_mine(r, c):
                fail("mined/start-tile")
            if st.kind((0, r, c)) in "AL":
                fail("mined/start-tile")
            return
        m = st.miners[seat]
        steps, act = o
        if m.status != "alive" or m.at is None:
            fail("mined/not-playing")
        if len(steps) - 5 > m.garnets:
            fail("mined/too-many-moves")
        f, r, c = m.at
        if act in ATTACK:
            if f != 2:
                fail("mined/attack-off-b3")
            dr, dc = STEP[ATTACK[act]]
            if not st.on_mine(r + dr, c + dc):
                fail("mined/off-mine")
        for letter in steps:
            dr, dc = STEP[letter]
            r, c = r + dr, c + dc
            if not st.on_mine(r, c):
                fail("mined/off-mine")
        if act in MINE:
            df, d = MINE[act]
            dr, dc = STEP[d] if d else (0, 0)
            if f + df < 0 or not st.on_mine(r + dr, c + dc):
                fail("mined/off-mine")

    def on_absent(self, gid: bytes, st: State, seat: int, body: Any) -> None:
        if not isinstance(body, list) or len(body) != 2:
            fail("schema/array", "absent body")
        who, stage = body
        for x, hi in ((who, 255), (stage, 65536)):
            if type(x) is not int:
                fail("schema/int")
            if not 0 <= x <= hi:
                fail("schema/int")
        owing = st.absent[0] if st.absent else self.due(st)[1]  # type: ignore[index]
        if who != owing or stage != st.stage:
            fail("absent/wrong-seat")
        if seat == who or st.miners[seat].status != "alive":
            fail("absent/declarer")
        declared = (st.absent[1] if st.absent else []) + [seat]
        if set(declared) != set(st.living()) - {who}:
            st.absent = [who, declared]
            return
        st.absent = None
        m = st.miners[who]
        m.status, m.died = "forfeit", st.stage
        st.commits[who] = st.opened[who] = st.nonces[who] = None
        st.forfeits.append([who, st.stage, sorted(declared)])
        if all(st.commits[s] is not None for s in st.living()) and all(
                st.nonces[s] is not None for s in st.living()):
            self.resolve(gid, st)

    def on_choose(self, st: State, seat: int, body: Any) -> None:
        if not isinstance(body, list) or len(body) != 1:
            fail("schema/array", "choose body")
        chosen = body[0]
        if type(chosen) is not int:
            fail("schema/int")
        if not 0 <= chosen <= 255:
            fail("schema/int")
        assert st.result is not None
        if chosen not in st.result[3]:
            fail("mined/choice")
        st.result[1] = chosen

    # -- sections 5 and 6 -------------------------------------------------------------------
    def resolve(self, gid: bytes, st: State) -> None:
        living = st.living()
        died = any(m.died == st.stage for m in st.miners)
        if st.stage == 0:
            seed = H("MINED_MAP_SEED", gid, *[n for n in st.nonces if n is not None])[:32]
            st.floors = generate(seed, st.w, st.h)
            st.dur = [[KIND[k][0] for k in f] for f in st.floors]
        elif st.stage == 1:
            for s in living:
                st.miners[s].at = [0, *st.opened[s]]
        else:
            died = self.play_round(st, {s: st.opened[s] for s in living}) or died
        if not st.living():
            self.finish(gid, st, "every miner is dead")
        elif died:
            self.finish(gid, st, "a miner died")
        elif st.stage - 1 >= self.rounds:
            self.finish(gid, st, f"{self.rounds} rounds were played")
        elif st.stage > 1 and not self.reachable(st):
            self.finish(gid, st, "no resource is reachable")
        else:
            k = self.seats
            st.stage += 1
            st.commits, st.opened, st.nonces = [None] * k, [None] * k, [None] * k

    def reachable(self, st: State) -> bool:
        """D11."""
        floors = [m.at[0] for m in st.miners if m.status == "alive" and m.at is not None]
        if not floors:
            return False
        top = max(min(floors) - 1, 0)
        assert st.floors is not None
        return any(st.floors[f][i] in RESOURCE and st.dur[f][i] > 0
                   for f in range(top, 4) for i in range(st.w * st.h))

    def play_round(self, st: State, orders: dict[int, list[Any]]) -> bool:
        """Section 5; True if a miner died."""
        P = tuple[int, int, int]
        at: dict[int, P] = {s: tuple(st.miners[s].at) for s in orders}  # type: ignore[misc]
        dead: dict[int, str] = {}
        falling: set[int] = set()
        gain = dict.fromkeys(orders, 0)
        garnet_gain = dict.fromkeys(orders, 0)
        spent = dict.fromkeys(orders, 0)
        iron: set[int] = set()
        killers: set[int] = set()
        broke: dict[P, set[int]] = {}

        def moving() -> list[int]:
            return [s for s in sorted(orders) if s not in dead and s not in falling]

        def start_falls() -> None:
            for s in moving():
                if at[s][0] < 3 and st.d(at[s]) == 0:
                    falling.add(s)

        # 5.1
        for s in sorted(orders):
            a = orders[s][1]
            if a in ATTACK:
                dr, dc = STEP[ATTACK[a]]
                f, r, c = at[s]
                hit = [v for v in sorted(orders) if at[v] == (f, r + dr, c + dc)]
                for v in hit:
                    dead[v] = "attack"
                if hit:
                    killers.add(s)
        longest = max((len(orders[s][0]) for s in orders if s not in dead), default=0)
        for i in range(longest + 1):
            # 5.2 step 1
            movers = [s for s in moving() if i < len(orders[s][0])]
            for s in movers:
                st.set_d(at[s], st.d(at[s]) - 1)
            for s in movers:
                dr, dc = STEP[orders[s][0][i]]
                f, r, c = at[s]
                at[s] = (f, r + dr, c + dc)
                gain[s] += 400
                if i >= 5:
                    spent[s] += 1
                if st.kind(at[s]) == "L" and st.d(at[s]) > 0:
                    dead[s] = "lava"
            start_falls()                                            # step 2
            diggers = [s for s in moving() if orders[s][1] in MINE and len(orders[s][0]) == i]
            targets: dict[P, list[int]] = {}
            for s in diggers:                                        # step 3
                df, d = MINE[orders[s][1]]
                dr, dc = STEP[d] if d else (0, 0)
                f, r, c = at[s]
                targets.setdefault((f + df, r + dr, c + dc), []).append(s)
            pay: dict[int, tuple[P, int]] = {}
            for t, who in targets.items():
                before = st.d(t)
                st.set_d(t, before - len(who))
                if before > 0:
                    value = KIND[st.kind(t)][1]
                    for s in who:
                        pay[s] = (t, (2 * value + len(who)) // (2 * len(who)))
                    if st.d(t) == 0:
                        broke[t] = set(who)
            start_falls()                                            # step 4
            for s, (t, amount) in pay.items():                       # step 5
                others_mined_under = any(x != s for x in targets.get(at[s], []))
                if s in falling and others_mined_under:
                    continue
                gain[s] += amount
                kind = st.kind(t)
                if t == at[s] and kind in "GSIE" and targets[t] == [s]:
                    gain[s] += 1000
                if kind == "E":
                    st.pool += 4
                elif kind == "R":
                    garnet_gain[s] += 4
                elif kind == "I":
                    iron.add(s)
        # 5.4
        bonus_breakers: set[int] = set()
        for s in sorted(falling):
            if s in dead:
                continue
            f, r, c = at[s]
            while f < 3 and st.d((f, r, c)) == 0:
                bonus_breakers |= broke.get((f, r, c), set()) - {s}
                f += 1
            at[s] = (f, r, c)
            if st.kind(at[s]) == "L" and st.d(at[s]) > 0:
                dead[s] = "lava"
        for s in killers:
            gain[s] += 4000
        for s in bonus_breakers:
            gain[s] += 4000
        for s in orders:
            m = st.miners[s]
            m.at = list(at[s])
            m.money += gain[s]
            m.garnets += garnet_gain[s] - spent[s]
            m.iron += s in iron
            if s in dead:
                m.status, m.died = dead[s], st.stage
        return bool(dead)

    # -- section 7 ------------------------------------------------------------------------
    def finish(self, gid: bytes, st: State, end: str) -> None:
        ms = st.miners
        if st.stage > 1:   # 5.6
            most = max(m.iron for m in ms)
            if most > 0:
                top = [m for m in ms if m.iron == most]
                for m in top:
                    m.money += (2 * 6000 + len(top)) // (2 * len(top))
        nonces = [n for n in st.nonces if n is not None]

        def draw(tied: list[int]) -> int:
            if len(tied) == 1:
                return tied[0]
            u = int.from_bytes(H("MINED_TIE", gid, *nonces)[:8], "big")
            return sorted(tied)[u % len(tied)]

        living = st.living()
        forfeited = [s for s, m in enumerate(ms) if m.status == "forfeit"]
        dead = [s for s, m in enumerate(ms) if m.status != "alive"]
        pool = living or [s for s in range(len(ms)) if s not in forfeited] or list(
            range(len(ms)))
        best = max(ms[s].money for s in pool)
        winner = draw([s for s in pool if ms[s].money == best])
        cands = forfeited or dead
        if not cands:
            least = min(ms[s].money for s in living)
            result = [winner, draw([s for s in living if ms[s].money == least]),
                      "least money", []]
        elif len(cands) == 1:
            result = [winner, cands[0], "forfeited" if forfeited else "died", []]
        elif living:
            result = [winner, None, "chosen by the winner", cands]
        else:
            least = min(ms[s].money for s in cands)
            how = ("forfeited with the least money" if forfeited
                   else "died with the least money")
            result = [winner, draw([s for s in cands if ms[s].money == least]), how, []]
        st.end, st.result = end, result

    def outcome(self, st: State) -> dict[str, Any]:
        """11.1's outcome object for mined-games."""
        assert st.result is not None
        return {"token_winner": st.result[0], "elimination_candidate": st.result[1],
                "end": st.end, "how": st.result[2],
                "money": [m.money for m in st.miners],
                "status": [m.status for m in st.miners],
                "forfeits": [{"seat": s, "stage": t, "declared_by": d, "proven": False}
                             for s, t, d in st.forfeits],
                "prize_pool_added": st.pool}


ENDS = ("every miner is dead", "a miner died", "no resource is reachable")
HOWS = ("least money", "died", "forfeited", "chosen by the winner", "died with the least money",
        "forfeited with the least money")
STATUSES = ("alive", "lava", "attack", "forfeit")


def verdict_sets(ms: list[Miner]) -> tuple[list[int], list[int], str, list[int]]:
    """Section 7 without the tie draw: (seats the winner is drawn from, seats the EC is drawn
    from, how, seats the winner chooses among)."""
    k = len(ms)
    living = [s for s in range(k) if ms[s].status == "alive"]
    forfeited = [s for s in range(k) if ms[s].status == "forfeit"]
    dead = [s for s in range(k) if ms[s].status != "alive"]
    pool = living or [s for s in range(k) if s not in forfeited] or list(range(k))
    best = max(ms[s].money for s in pool)
    winners = [s for s in pool if ms[s].money == best]
    cands = forfeited or dead
    if not cands:
        least = min(ms[s].money for s in living)
        return winners, [s for s in living if ms[s].money == least], "least money", []
    if len(cands) == 1:
        return winners, cands, "forfeited" if forfeited else "died", []
    if living:
        return winners, [], "chosen by the winner", cands
    least = min(ms[s].money for s in cands)
    how = "forfeited with the least money" if forfeited else "died with the least money"
    return winners, [s for s in cands if ms[s].money == least], how, []


def state_from_json(rules: MinedGames, obj: Any) -> State:
    """Section 9: the state JSON back, refusing what state_to_json would not produce
    (rules/state-json), as far as the rules of sections 4 to 8 and 10.8 decide it.

    SPEC GAP: section 9 says "anything state_to_json would not produce" and lists examples.
    Read here as: the shape of every field, and the invariants sections 4, 6, 7, 8 and
    spec/10-session.md 10.8 give for the stage, the map, placement, deaths, commitments,
    openings, absences, forfeits, the end and the result. Amounts (money, garnets, the
    durabilities left after rounds) are only range-checked, and whether a commitment matches
    its opening is not checked (state_from_json has no game id)."""
    def need(ok: bool, why: str) -> None:
        if not ok:
            fail("rules/state-json", why)

    def integer(v: Any, lo: int, hi: int | None = None) -> int:
        need(type(v) is int and v >= lo and (hi is None or v <= hi), f"{v!r}: an integer")
        return v

    def arr(v: Any, n: int | None = None) -> list[Any]:
        need(type(v) is list and (n is None or len(v) == n), f"{v!r}: an array")
        return v

    def hex32(v: Any) -> bytes | None:
        if v is None:
            return None
        need(type(v) is str and len(v) == 64 and all(c in "0123456789abcdef" for c in v),
             "64 lowercase hex digits")
        return bytes.fromhex(v)

    keys = {"stage", "map", "dur", "miners", "commits", "opened", "nonces", "absent",
            "forfeits", "pool", "end", "result"}
    need(type(obj) is dict and set(obj) == keys, "an object with exactly the 12 keys")
    k, o = rules.seats, obj
    st = rules.start()
    stage = integer(o["stage"], 1 if rules.map else 0, rules.rounds + 1)   # 6, D2
    st.stage = stage
    end = o["end"]
    need(end is None or end in ENDS or end == f"{rules.rounds} rounds were played", "end")
    over = end is not None
    placed = stage >= 2 or (stage == 1 and over)            # stage 1 has resolved
    done = max(0, stage - 1) if over else max(0, stage - 2)  # rounds resolved
    # map (2.2, 3)
    text = o["map"]
    need(type(text) is str, "map: text")
    if rules.map:
        need(text == rules.map, "the given map")
    elif stage == 0 and not over:
        need(text == "", "a map before stage 0 has resolved")
    else:
        try:
            w, h, floors = parse_map(text)
        except RuleError:
            need(False, "map: not a map (2.2)")
        need((w, h) == (rules.width, rules.height), "map: another size")
        for f, kinds in enumerate(floors):
            need(set(kinds) <= {x for x, _ in WEIGHTS[f]}, "map: a kind the generator never "
                 "puts on this floor (3)")
        st.floors = floors
        need(map_text(w, floors) == text, "map: not as written")
    # dur
    if st.floors is None:
        need(arr(o["dur"]) == [], "dur before the map")
    else:
        full = [[KIND[x][0] for x in f] for f in st.floors]
        st.dur = [[integer(d, 0, full[f][i]) for i, d in enumerate(arr(row, st.w * st.h))]
                  for f, row in enumerate(arr(o["dur"], 4))]
        need(done > 0 or st.dur == full, "durability spent before any round")
    # miners
    for s, row in enumerate(arr(o["miners"], k)):
        at, money, garnets, iron, status, died = arr(row, 6)
        m = st.miners[s]
        need(status in STATUSES, "status")
        m.status = status
        m.money, m.garnets = integer(money, 0), integer(garnets, 0)
        m.iron = integer(iron, 0, done)
        if status == "alive":
            need(died is None, "a living miner with a death stage")
        else:
            # 6 rule 2: the game ends after the stage in which a miner died or forfeited.
            m.died = integer(died, 0)
            need(m.died == stage, "a miner that died in an earlier stage")
            need(status == "forfeit" or (over and stage >= 2), "a death outside a round")
        if at is not None:
            f, r, c = (integer(x, 0) for x in arr(at, 3))
            need(f <= 3 and st.on_mine(r, c), "at: off the mine")
            m.at = [f, r, c]
        need((m.at is not None) == (placed and not (status == "forfeit" and m.died <= 1)),
             "placed before stage 1 has resolved, or unplaced after")
        if m.at is not None and done == 0:
            need(m.at[0] == 0 and st.kind((0, m.at[1], m.at[2])) not in "AL",
                 "a start that is not legal (4.2)")
        if m.at is not None and status == "alive" and done > 0:
            p = (m.at[0], m.at[1], m.at[2])
            need(p[0] == 3 or st.d(p) > 0, "a living miner over a broken tile (5.4)")
            need(st.kind(p) != "L" or st.d(p) == 0, "a living miner on lava")
    need(done > 0 or all(m.money == m.garnets == 0 for m in st.miners), "money before round 1")
    living = st.living()
    need(over or bool(living), "nobody alive before the end")
    # commits, opened, nonces
    st.commits = [hex32(x) for x in arr(o["commits"], k)]
    st.nonces = [hex32(x) for x in arr(o["nonces"], k)]
    st.opened = [copy.deepcopy(x) for x in arr(o["opened"], k)]
    for s in range(k):
        need(st.nonces[s] is None or st.commits[s] is not None, "an opening without a "
             "commitment")
        if stage == 0:
            need(st.opened[s] is None, "orders in stage 0")
        else:
            need((st.opened[s] is None) == (st.nonces[s] is None), "orders without a nonce")
        if st.opened[s] is not None:
            try:
                rules.shape(st, st.opened[s])
            except RuleError:
                need(False, "opened orders that do not decode for the stage (4.1)")
        if st.miners[s].status == "forfeit":
            need(st.commits[s] is None and st.nonces[s] is None, "a forfeit's dropped frames")
        elif over:
            need(st.nonces[s] is not None, "an unopened seat after the stage resolved")
        else:
            need(st.miners[s].status == "alive" or st.commits[s] is None,
                 "a commitment of a dead seat before the end")
    if not over:
        com = [st.commits[s] is not None for s in living]
        opn = [st.nonces[s] is not None for s in living]
        need(com == sorted(com, reverse=True) and opn == sorted(opn, reverse=True),
             "commitments and openings out of seat order")
        need(all(com) or not any(opn), "an opening before every seat committed")
        need(not all(opn), "every seat opened and the stage did not resolve")
        for s in living:
            if st.opened[s] is not None:
                try:
                    rules.check(st, s, st.opened[s])
                except RuleError:
                    need(False, "opened orders that break the rules (4.2)")
    # absent (8, 10.8)
    ab = o["absent"]
    if ab is not None:
        need(not over, "a declaration after the end")
        who = integer(arr(ab, 2)[0], 0, k - 1)
        decl = [integer(x, 0, k - 1) for x in arr(ab[1])]
        need(rules.due(st) == ("commit" if not all(com) else "open", who),
             "absent: not the seat that owes a frame")
        others = [s for s in living if s != who]
        need(bool(decl) and decl[0] in others and len(decl) < len(others), "absent: declarers")
        rest = [s for s in others if s != decl[0]]
        need(decl[1:] == rest[: len(decl) - 1], "absent: declarers out of order")
        st.absent = [who, decl]
    # forfeits (8)
    gone: list[int] = []
    for x in arr(o["forfeits"]):
        s, t, decl = arr(x, 3)
        integer(s, 0, k - 1)
        need(s not in gone and st.miners[s].status == "forfeit" and t == stage,
             "forfeits: a seat that did not forfeit in this stage")
        need(decl == [d for d in range(k) if d != s and d not in gone],
             "forfeits: not declared by every other living seat")
        gone.append(s)
        st.forfeits.append([s, t, list(decl)])
    need(sorted(gone) == [s for s in range(k) if st.miners[s].status == "forfeit"],
         "forfeits: a forfeit not listed")
    st.pool = integer(o["pool"], 0)
    need(st.pool % 4 == 0 and (done > 0 or st.pool == 0), "pool")
    # end (6) and result (7)
    if over:
        want = ("every miner is dead" if not living else "a miner died"
                if len(living) < k else f"{rules.rounds} rounds were played"
                if stage - 1 >= rules.rounds else "no resource is reachable"
                if stage > 1 and not rules.reachable(st) else None)
        need(end == want, "end: not why this game ends (6)")
        st.end = end
        res = arr(o["result"], 4)
        winners, ecs, how, cands = verdict_sets(st.miners)
        need(res[0] in winners and type(res[0]) is int, "result: the winner (7)")
        need(res[2] == how and res[3] == cands, "result: how, or the candidates (7)")
        if cands:
            need(res[1] is None or (type(res[1]) is int and res[1] in cands), "result: EC")
        else:
            need(type(res[1]) is int and res[1] in ecs, "result: EC (7)")
        st.result = [res[0], res[1], res[2], list(res[3])]
    else:
        need(o["result"] is None, "a result before the end")
    return st


def orders_text(o: Any) -> str:
    """11.1 moves: the orders' text form (4.1)."""
    if o is None:
        return "opens its map-seed nonce"   # 11.1
    if type(o[0]) is int:
        return f"starts on B1 r{o[0]} c{o[1]}"
    words = ([o[0]] if o[0] else []) + ([ACTION_WORDS[o[1]]] if o[1] else [])
    return " ".join(words) or "stay"


def self_check(path: Path = VECTORS) -> tuple[int, int]:
    """Section 10's vectors through this implementation."""
    data = json.loads(path.read_text())
    gid = bytes.fromhex(data["game_id"])
    nonce = bytes.fromhex(data["nonce"])
    ok = bad = 0
    for case in data["cases"]:
        rules = MinedGames({"seats": case["seats"], "map": case["map"]})
        st = from_json(rules, case["before"])
        try:
            for s in st.living():
                rules.check(st, s, rules.shape(st, case["orders"][s]))
            for s in st.living():
                st.commits[s] = b"\0" * 32
                st.opened[s], st.nonces[s] = case["orders"][s], nonce
            rules.resolve(gid, st)
            got: Any = st.to_json()
            want = case.get("after")
        except RuleError as e:
            got = e.code
            want = case.get("error", {}).get("code")
            if want == got and case["error"]["seat"] != s:
                got = f"{got} blamed on seat {s}"
        if got == want:
            ok += 1
        else:
            bad += 1
            print(f"FAIL mined vector {case['name']}: got {got}, want {want}")
    for m in data["maps"]:
        seed = H("MINED_MAP_SEED", bytes.fromhex(m["game_id"]),
                 *[bytes.fromhex(n) for n in m["nonces"]])[:32]
        text = map_text(m["width"], generate(seed, m["width"], m["height"]))
        if seed.hex() == m["seed"] and text == m["map"]:
            ok += 1
        else:
            bad += 1
            print(f"FAIL mined map {m['label']}")
    return ok, bad


def from_json(rules: MinedGames, obj: dict[str, Any]) -> State:
    """Section 9, for the vectors' `before` states (trusted input)."""
    st = rules.start()
    st.stage = obj["stage"]
    if obj["map"]:
        st.w, st.h, st.floors = parse_map(obj["map"])
    st.dur = copy.deepcopy(obj["dur"])
    for m, row in zip(st.miners, obj["miners"], strict=True):
        m.at, m.money, m.garnets, m.iron, m.status, m.died = copy.deepcopy(row)
    st.commits = [None if c is None else bytes.fromhex(c) for c in obj["commits"]]
    st.opened = copy.deepcopy(obj["opened"])
    st.nonces = [None if n is None else bytes.fromhex(n) for n in obj["nonces"]]
    st.absent, st.forfeits = copy.deepcopy(obj["absent"]), copy.deepcopy(obj["forfeits"])
    st.pool, st.end, st.result = obj["pool"], obj["end"], copy.deepcopy(obj["result"])
    return st


if __name__ == "__main__":
    good, failed = self_check(Path(sys.argv[1]) if len(sys.argv) > 1 else VECTORS)
    print(f"mined-games vectors: {good} passed, {failed} failed")
    sys.exit(0 if failed == 0 else 1)
