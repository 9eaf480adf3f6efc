"""Mined Games bots: orders from the public mine and the seat's own miner only
(spec/rules/mined-games.md; peers/bots/registry.py dispatches here).

A bot sees the SeatView: the public rules' state (the mine, every miner, the stage) and,
when it must name the elimination candidate, the dead miners it may choose among. It
never sees another seat's orders before they are opened: there are none to see.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from protocol.rules.mined_map import B3, BOTTOM, KINDS, SELF_BONUS, SELF_BONUS_MONEY
from protocol.rules.mined_round import (
    ATTACKS,
    DIRS,
    FREE_MOVES,
    MINE_TARGETS,
    Pos,
    mine_target,
    neighbour,
)
from protocol.rules.mined_state import START_STAGE, MinedState
from protocol.seat import SeatView


def _dur(state: MinedState, p: Pos) -> int:
    mine = state.mine
    assert mine is not None
    return state.dur[p[0]][p[1] * mine.width + p[2]]


def _safe(state: MinedState, p: Pos) -> bool:
    """A tile to stand on: unbroken and not lava."""
    assert state.mine is not None
    return _dur(state, p) > 0 and state.mine.kind(*p) != "L"


def _lands_in_lava(state: MinedState, p: Pos) -> bool:
    """Whether a miner at p whose tile broke would fall into lava."""
    mine = state.mine
    assert mine is not None
    f, r, c = p
    f += 1
    while f < BOTTOM and _dur(state, (f, r, c)) == 0:
        f += 1
    return f <= BOTTOM and mine.kind(f, r, c) == "L" and _dur(state, (f, r, c)) > 0


def _paths(state: MinedState, start: Pos, steps: int) -> dict[Pos, str]:
    """Shortest safe step strings to every tile within `steps` on the miner's floor."""
    mine = state.mine
    assert mine is not None
    seen = {start: ""}
    queue = deque([start])
    while queue:
        p = queue.popleft()
        if len(seen[p]) == steps:
            continue
        for d, (dr, dc) in DIRS.items():
            q = neighbour(mine, p, dr, dc)
            if q is not None and q not in seen and _safe(state, q):
                seen[q] = seen[p] + d
                queue.append(q)
    return seen


def _value(state: MinedState, at: Pos, action: int) -> int:
    mine = state.mine
    assert mine is not None
    target = mine_target(mine, at, action)
    if target is None or _dur(state, target) == 0:
        return -1
    kind = mine.kind(*target)
    value = KINDS[kind][2]
    if value == 0:
        return -1
    if target == at:
        if _dur(state, at) == 1 and _lands_in_lava(state, at):
            return -1  # breaking the tile under us would drop us into lava
        if kind in SELF_BONUS:
            value += SELF_BONUS_MONEY
    return value


def _start(state: MinedState, rng: random.Random, greedy: bool) -> list[int]:
    mine = state.mine
    assert mine is not None
    tiles = [(0, r, c) for r in range(mine.height) for c in range(mine.width)
             if mine.kind(0, r, c) not in "AL"]
    if not greedy:
        p = rng.choice(tiles)
        return [p[1], p[2]]

    def score(p: Pos) -> tuple[int, float]:
        near = _paths(state, p, 2)
        return (max(_value(state, q, a) for q in near for a in MINE_TARGETS), rng.random())
    best = max(tiles, key=score)
    return [best[1], best[2]]


def _round(state: MinedState, seat: int, rng: random.Random, greedy: bool) -> list[Any]:
    mine = state.mine
    me = state.miners[seat]
    assert mine is not None and me.at is not None
    at = me.at
    others = [m.at for s, m in enumerate(state.miners) if s != seat and m.alive and m.at]
    if at[0] == B3 and rng.random() < (0.3 if greedy else 0.1):
        for code, d in ATTACKS.items():
            if neighbour(mine, at, *DIRS[d]) in others:
                return ["", code]
    budget = FREE_MOVES + min(me.garnets, 2)
    paths = _paths(state, at, budget if greedy else rng.randint(0, FREE_MOVES))
    options = [(_value(state, p, a), -len(path), rng.random(), path, a)
               for p, path in paths.items() for a in MINE_TARGETS]
    options = [o for o in options if o[0] > 0]
    if options:
        best = max(options) if greedy else rng.choice(options)
        return [best[3], best[4]]
    # Nothing to mine within reach: wander, away from where we stand.
    far = max(paths.items(), key=lambda kv: (len(kv[1]), rng.random()))
    return [far[1], 0]


def mined_orders(view: SeatView, rng: random.Random, greedy: bool) -> Any:
    """The bot's choice for the frame its seat owes: a start, orders, or a dead seat."""
    state = view.rules_state
    if view.legal:  # naming the elimination candidate among the dead
        if greedy:
            return min(view.legal, key=lambda s: (state.miners[s].money, s))
        return rng.choice(view.legal)
    if state.stage < START_STAGE:
        return None  # the map seed's stage: the orders are nil, only the nonce counts
    if state.stage == START_STAGE:
        return _start(state, rng, greedy)
    return _round(state, view.seat, rng, greedy)
