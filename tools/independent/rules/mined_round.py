"""Mined Games (spec/rules/mined-games.md): the orders' action codes (4.1) and one round
of play (5): attacks, moves, mining, falls, and what each miner gains."""

from __future__ import annotations

from typing import Any

from independent.rules.mined_map import KIND, State

STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
# 4.1 action codes
MINE = {1: (0, None), 2: (0, "U"), 3: (0, "D"), 4: (0, "L"), 5: (0, "R"), 6: (-1, None),
        7: (-1, "U"), 8: (-1, "D"), 9: (-1, "L"), 10: (-1, "R")}
ATTACK = {11: "U", 12: "D", 13: "L", 14: "R"}


def play_round(st: State, orders: dict[int, list[Any]]) -> bool:
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
    due: dict[int, tuple[P, int]] = {}
    everyone_who_mined: dict[P, set[int]] = {}

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
        for t, who in targets.items():
            everyone_who_mined.setdefault(t, set()).update(who)
            before = st.d(t)
            st.set_d(t, before - len(who))
            if before > 0:
                value = KIND[st.kind(t)][1]
                for s in who:
                    due[s] = (t, (2 * value + len(who)) // (2 * len(who)))
                if st.d(t) == 0:
                    broke[t] = set(who)
        start_falls()                                            # step 4
    # 5.3: settled after the last index; nothing for a miner falling then (D22)
    for s, (t, amount) in sorted(due.items()):
        if s in falling:
            continue
        gain[s] += amount
        kind = st.kind(t)
        if t == at[s] and kind in "GSIE" and everyone_who_mined[t] == {s}:   # D23
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
