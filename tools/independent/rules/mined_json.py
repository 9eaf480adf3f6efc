"""Mined Games (spec/rules/mined-games.md 9): state_from_json, the state JSON read back,
refusing what state_to_json would not produce (rules/state-json); used by 10.3 decoding."""

from __future__ import annotations

import copy
from typing import Any

from independent.errors import RuleError, SpecError, fail_rule
from independent.rules.mined_games import MinedGames
from independent.rules.mined_map import KIND, WEIGHTS, Miner, State, map_text, parse_map
from independent.rules.mined_seals import holders, majority, may_carry, sealed
from independent.wire.msgpack_lib import pack, unpack

ENDS = ("every miner is dead", "a miner died", "no resource is reachable")
HOWS = ("least money", "died", "forfeited", "chosen by the winner", "died with the least money",
        "forfeited with the least money")
STATUSES = ("alive", "lava", "attack", "forfeit")


def seal_hex(v: Any) -> bytes:
    """9 `commits`: a seal's msgpack as lowercase hex."""
    if not (type(v) is str and len(v) % 2 == 0 and 0 < len(v) <= 8192
            and all(c in "0123456789abcdef" for c in v)):
        fail_rule("rules/state-json", "a seal as lowercase hex")
    return bytes.fromhex(v)


def seal_shape(data: bytes, m: int, w: int) -> bool:
    """The shape of 6.6.5 for m holders: t commitments, n shares of 3, 192 bytes; canonical;
    points of w bytes (the suite's, 3.5), scalars of 32."""
    try:
        v = unpack(data, len(data))
    except SpecError:
        return False
    t, n = (m // 2 + 1, m) if m >= 2 else (1, 0)
    return (type(v) is list and len(v) == 3 and type(v[0]) is list and len(v[0]) == t
            and type(v[1]) is list and len(v[1]) == n and type(v[2]) is bytes
            and len(v[2]) == 192 and pack(v) == data
            and all(type(c) is bytes and len(c) == w for c in v[0])
            and all(type(e) is list and len(e) == 3
                    and [type(b) is bytes and len(b) for b in e] == [w, 32, 32] for e in v[1]))


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
            fail_rule("rules/state-json", why)

    def integer(v: Any, lo: int, hi: int | None = None) -> int:
        need(type(v) is int and v >= lo and (hi is None or v <= hi), f"{v!r}: an integer")
        return v

    def arr(v: Any, n: int | None = None) -> list[Any]:
        need(type(v) is list and (n is None or len(v) == n), f"{v!r}: an array")
        return v

    def hex32(v: Any, n: int = 32) -> bytes | None:
        if v is None:
            return None
        need(type(v) is str and len(v) == 2 * n and all(c in "0123456789abcdef" for c in v),
             f"{2 * n} lowercase hex digits")
        return bytes.fromhex(v)

    # SPEC GAP: section 9 writes a share key and a decryption share as 64 hex digits; in a
    # suite whose points are P bytes (3.5: 48 in G1) they are read as 2P hex digits.
    ops = rules.suite.ops

    keys = {"stage", "map", "dur", "miners", "commits", "opened", "nonces", "absent",
            "forfeits", "pool", "end", "result", "keys", "withheld"}
    need(type(obj) is dict and set(obj) == keys, "an object with exactly the 14 keys")
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
    # keys (10.8): points
    st.keys = [hex32(x, ops.P) for x in arr(o["keys"], k)]
    for y in st.keys:
        if y is not None:
            try:
                ops.accept(y)
            except SpecError:
                need(False, "keys: not a point (2.3)")
    # commits (seals), opened, nonces
    st.commits = [None if x is None else seal_hex(x) for x in arr(o["commits"], k)]
    st.nonces = [hex32(x) for x in arr(o["nonces"], k)]
    st.opened = [copy.deepcopy(x) for x in arr(o["opened"], k)]
    for s in range(k):
        need(over or st.nonces[s] is None or st.commits[s] is not None, "an opening without "
             "a seal")
        if st.commits[s] is not None:
            need(not over and st.keys[s] is not None and st.miners[s].status == "alive",
                 "a seal after the end, of a dead seat, or without a share key")
            need(seal_shape(st.commits[s], len(holders(st, s)), ops.P), "a seal of another shape "
                 "than 6.6.5 for its holders")
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
    if not over:
        com = [st.commits[s] is not None for s in living]
        opn = [st.nonces[s] is not None for s in living]
        need(com == sorted(com, reverse=True) and opn == sorted(opn, reverse=True),
             "commitments and openings out of seat order")
        need(all(com) or not any(opn), "an opening before every seat committed")
        need(not all(opn), "every seat opened and the stage did not resolve")
        kys = [st.keys[s] is not None for s in living]
        need(kys == sorted(kys, reverse=True) and (all(kys) or not any(com)),
             "share keys out of seat order, or a seal before every share key (10.8)")
        for s in living:
            if st.opened[s] is not None:
                try:
                    rules.check(st, s, st.opened[s])
                except RuleError:
                    need(False, "opened orders that break the rules (4.2)")
    # absent (8, 10.8): [seat, [[declarer, share hex or null], ...]]
    ab = o["absent"]
    if ab is not None:
        need(not over, "a declaration after the end")
        who = integer(arr(ab, 2)[0], 0, k - 1)
        need(rules.due(st) is not None and rules.due(st)[1] == who  # type: ignore[index]
             and rules.due(st)[0] in ("keys", "commit", "open"),  # type: ignore[index]
             "absent: not the seat that owes a frame")
        is_sealed = sealed(st, who)
        eligible = holders(st, who) if is_sealed else [s for s in living if s != who]
        if len(eligible) < 2:   # 10.8: nobody declares when only one seat could
            eligible = []
        decl: list[Any] = []
        for x in arr(ab[1]):
            d, share = arr(x, 2)
            integer(d, 0, k - 1)
            allowed = may_carry(eligible, is_sealed, decl, d)
            need(allowed is not None, "absent: a declarer")
            need(allowed is not None and (share is not None) in allowed,
                 "absent: a share where none belongs, or none where one must be")
            if share is not None:
                try:
                    ops.accept(hex32(share, ops.P) or b"")
                except SpecError:
                    need(False, "absent: a share that is not a point")
            decl.append([d, share])
        done = (sum(sh is not None for _, sh in decl) if is_sealed else len(decl)) >= \
            majority(len(eligible))
        need(bool(decl) and not done, "absent: declarations")
        st.absent = [who, decl]
    # forfeits (8, D19): a majority of the other living seats, ascending
    gone: list[int] = []
    for x in arr(o["forfeits"]):
        s, t, decl = arr(x, 3)
        integer(s, 0, k - 1)
        need(s not in gone and st.miners[s].status == "forfeit" and t == stage,
             "forfeits: a seat that did not forfeit in this stage")
        others = [d for d in range(k) if d != s and d not in gone]
        need(type(decl) is list and decl == sorted(set(decl)) and set(decl) <= set(others)
             and len(decl) == majority(len(others)) and len(decl) >= 2,
             "forfeits: not declared by a majority of the other living seats")
        gone.append(s)
        st.forfeits.append([s, t, list(decl)])
    need(sorted(gone) == [s for s in range(k) if st.miners[s].status == "forfeit"],
         "forfeits: a forfeit not listed")
    # withheld (D20): [seat, stage, openers ascending], t of its seal's m holders
    for x in arr(o["withheld"]):
        s, t, by = arr(x, 3)
        integer(s, 0, k - 1)
        integer(t, 0, stage)
        hs = holders(st, s)
        need(type(by) is list and by == sorted(set(by)) and set(by) <= set(hs)
             and len(hs) >= 2 and len(by) == majority(len(hs)), "withheld: openers")
        st.withheld.append([s, t, list(by)])
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
