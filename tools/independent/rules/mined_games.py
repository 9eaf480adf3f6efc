"""The rule set `mined-games` (spec/rules/mined-games.md) and its commit-reveal stages
(spec/10-session.md 10.8): parameters (2), orders (4), stages (6, 10.8), the end and the
verdict (7), absences (8).

Section numbers are those of spec/rules/mined-games.md unless another document is named.
Decisions where the document is ambiguous or silent are marked `# SPEC GAP:`.
"""

from __future__ import annotations

from typing import Any

from independent.errors import SpecError, fail_rule
from independent.group.suites import Suite
from independent.rules import mined_seals as seals
from independent.rules.mined_map import KIND, RESOURCE, State, generate, parse_map
from independent.rules.mined_round import ATTACK, MINE, STEP, play_round

ACTION_WORDS = {0: "", 1: "mine here", 2: "mine U", 3: "mine D", 4: "mine L", 5: "mine R",
                6: "mine above", 7: "mine above-U", 8: "mine above-D", 9: "mine above-L",
                10: "mine above-R", 11: "attack U", 12: "attack D", 13: "attack L",
                14: "attack R"}


class MinedGames:
    """The rule set's parameters (section 2) and the stages (10.8). `suite` is the game's
    (3.5: every hash of the game is the suite's, the map seed, the map generator's stream
    and the tie draw included); the setup (session.game) sets it."""

    name = "mined-games"
    simultaneous = True
    suite: Suite

    def __init__(self, params: dict[str, Any]) -> None:
        if set(params) - {"seats", "width", "height", "map", "rounds"}:
            fail_rule("rules/params", "unknown parameter")
        text = params.get("map", "")
        if not isinstance(text, str):
            fail_rule("rules/params", "map is text")
        w, h = params.get("width"), params.get("height")
        if text:
            mw, mh, _ = parse_map(text)
            if (w, h) not in ((None, None), (mw, mh)):
                fail_rule("rules/params", "width and height of the map")
            w, h = mw, mh
        self.width = 7 if w is None else w
        self.height = 7 if h is None else h
        self.seats = params.get("seats", 5)
        self.rounds = params.get("rounds", 10)
        self.map = text
        for v, lo, hi in ((self.seats, 2, 8), (self.width, 3, 12), (self.height, 3, 12),
                          (self.rounds, 1, 10)):
            if type(v) is not int or not lo <= v <= hi:
                fail_rule("rules/params", "out of range")
        self.params = {"seats": self.seats, "width": self.width, "height": self.height,
                       "map": self.map, "rounds": self.rounds}

    # -- 10.8 -----------------------------------------------------------------------------
    def start(self) -> State:
        st = State(self.seats)
        st.keys = [None] * self.seats
        st.w, st.h = self.width, self.height
        if self.map:
            _, _, st.floors = parse_map(self.map)
            st.dur = [[KIND[k][0] for k in f] for f in st.floors]
            st.stage = 1
        return st

    def due(self, st: State) -> tuple[str, int] | None:
        """10.8: keys, then seals, then openings, each in seat order; a seat being declared
        absent still owes its frame."""
        if st.result is not None:
            return None if st.result[1] is not None else ("choose", st.result[0])
        for kind, have in (("keys", st.keys), ("commit", st.commits), ("open", st.nonces)):
            for s in st.living():
                if have[s] is None:
                    return kind, s
        raise AssertionError("nothing owed in an unresolved stage")

    def on_key(self, gid: bytes, st: State, seat: int, body: Any) -> None:
        seals.on_key(self.suite, gid, st, seat, body)

    def on_commit(self, gid: bytes, st: State, seat: int, body: Any) -> None:
        seals.on_commit(self.suite, gid, st, seat, body)

    def on_open(self, gid: bytes, st: State, seat: int, body: Any) -> None:
        orders, nonce = seals.on_open(self.suite, gid, st, seat, body)
        self.record(gid, st, seat, orders, nonce)

    def record(self, gid: bytes, st: State, seat: int, orders: Any, nonce: bytes) -> None:
        """An opening, by the seat or by the table: 4.1, 4.2, then resolve once all are in."""
        self.check(st, seat, self.shape(st, orders))
        st.opened[seat], st.nonces[seat] = orders, nonce
        st.last_orders, st.opened_now = orders, True
        if all(st.nonces[s] is not None for s in st.living()):
            self.resolve(gid, st)

    def shape(self, st: State, o: Any) -> Any:
        """4.1."""
        if st.stage == 0:
            if o is not None:
                fail_rule("mined/orders-shape")
            return o
        if st.stage == 1:
            if not (isinstance(o, list) and len(o) == 2 and all(type(x) is int for x in o)):
                fail_rule("mined/orders-shape")
            return o
        if not (isinstance(o, list) and len(o) == 2 and type(o[0]) is str
                and type(o[1]) is int and len(o[0]) <= 64 and set(o[0]) <= set("UDLR")
                and 0 <= o[1] <= 14):
            fail_rule("mined/orders-shape")
        return o

    def check(self, st: State, seat: int, o: Any) -> None:
        """4.2."""
        if st.stage == 0:
            return
        if st.stage == 1:
            r, c = o
            if not st.on_mine(r, c):
                fail_rule("mined/start-tile")
            if st.kind((0, r, c)) in "AL":
                fail_rule("mined/start-tile")
            return
        m = st.miners[seat]
        steps, act = o
        if m.status != "alive" or m.at is None:
            fail_rule("mined/not-playing")
        if len(steps) - 5 > m.garnets:
            fail_rule("mined/too-many-moves")
        f, r, c = m.at
        if act in ATTACK:
            if f != 2:
                fail_rule("mined/attack-off-b3")
            dr, dc = STEP[ATTACK[act]]
            if not st.on_mine(r + dr, c + dc):
                fail_rule("mined/off-mine")
        for letter in steps:
            dr, dc = STEP[letter]
            r, c = r + dr, c + dc
            if not st.on_mine(r, c):
                fail_rule("mined/off-mine")
        if act in MINE:
            df, d = MINE[act]
            dr, dc = STEP[d] if d else (0, 0)
            if f + df < 0 or not st.on_mine(r + dr, c + dc):
                fail_rule("mined/off-mine")

    def on_absent(self, gid: bytes, st: State, seat: int, body: Any) -> None:
        """8 and 10.8: a declaration; a forfeit, or the table opens the seal (D20)."""
        st.opened_now = False
        result, value = seals.on_absent(self.suite, gid, st, seat, body, self.due(st))
        who = body[0]
        if result == "forfeit":
            m = st.miners[who]
            m.status, m.died = "forfeit", st.stage
            st.commits[who] = st.opened[who] = st.nonces[who] = None
            st.forfeits.append([who, st.stage, value])
            if all(st.commits[s] is not None for s in st.living()) and all(
                    st.nonces[s] is not None for s in st.living()):
                self.resolve(gid, st)
        elif result == "opened":
            orders, nonce, openers = value
            st.withheld.append([who, st.stage, openers])
            try:
                self.check(st, who, self.shape(st, orders))
            except SpecError as e:   # D21: the committer's, not the declarer's
                raise seals.Blame(e.code, who) from None
            self.record(gid, st, who, orders, nonce)

    def on_choose(self, st: State, seat: int, body: Any) -> None:
        if not isinstance(body, list) or len(body) != 1:
            fail_rule("schema/array", "choose body")
        chosen = body[0]
        if type(chosen) is not int:
            fail_rule("schema/int")
        if not 0 <= chosen <= 255:
            fail_rule("schema/int")
        assert st.result is not None
        if chosen not in st.result[3]:
            fail_rule("mined/choice")
        st.result[1] = chosen

    # -- sections 5 and 6 -------------------------------------------------------------------
    def resolve(self, gid: bytes, st: State) -> None:
        living = st.living()
        died = any(m.died == st.stage for m in st.miners)
        if st.stage == 0:
            seed = self.suite.H("MINED_MAP_SEED", gid,
                                *[n for n in st.nonces if n is not None])[:32]
            st.floors = generate(self.suite, seed, st.w, st.h)
            st.dur = [[KIND[k][0] for k in f] for f in st.floors]
        elif st.stage == 1:
            for s in living:
                st.miners[s].at = [0, *st.opened[s]]
        else:
            died = play_round(st, {s: st.opened[s] for s in living}) or died
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
        st.absent = None

    def reachable(self, st: State) -> bool:
        """D11."""
        floors = [m.at[0] for m in st.miners if m.status == "alive" and m.at is not None]
        if not floors:
            return False
        top = max(min(floors) - 1, 0)
        assert st.floors is not None
        return any(st.floors[f][i] in RESOURCE and st.dur[f][i] > 0
                   for f in range(top, 4) for i in range(st.w * st.h))

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
            u = int.from_bytes(self.suite.H("MINED_TIE", gid, *nonces)[:8], "big")
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
        st.commits = [None] * len(ms)   # 9: the seals go at the end; the openings stay

    def outcome(self, st: State) -> dict[str, Any]:
        """11.1's outcome object for mined-games."""
        assert st.result is not None
        # 11.1 `winners`: the seats at the most money among those section 7 draws the
        # token winner from (living; else not forfeited; else all).
        ms = st.miners
        among = (st.living() or [s for s, m in enumerate(ms) if m.status != "forfeit"]
                 or list(range(len(ms))))
        top = max(ms[s].money for s in among)
        return {"token_winner": st.result[0],
                "winners": [s for s in among if ms[s].money == top],
                "elimination_candidate": st.result[1],
                "end": st.end, "how": st.result[2],
                "money": [m.money for m in st.miners],
                "status": [m.status for m in st.miners],
                "forfeits": [{"seat": s, "stage": t, "declared_by": d, "proven": False}
                             for s, t, d in st.forfeits],
                "withheld": [{"seat": s, "stage": t, "opened_by": d}
                             for s, t, d in st.withheld],
                "prize_pool_added": st.pool}


def orders_text(o: Any) -> str:
    """11.1 moves: the orders' text form (4.1)."""
    if o is None:
        return "opens its map-seed nonce"   # 11.1
    if type(o[0]) is int:
        return f"starts on B1 r{o[0]} c{o[1]}"
    words = ([o[0]] if o[0] else []) + ([ACTION_WORDS[o[1]]] if o[1] else [])
    return " ".join(words) or "stay"
