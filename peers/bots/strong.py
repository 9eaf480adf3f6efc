"""The strong bot for Bram's game: expected margin over every world its seat cannot rule out.

Theory of operation: all a seat cannot see is the other hand and the hidden tile,
and together they are exactly the tiles neither played nor in its own hand (at
most 14). Which of them is hidden fixes the other hand, so there are at most 14
worlds, and the bot enumerates them all. Passing is legal at any time
(spec/rules/bram.md section 9, D2), so no world is ever impossible. A pass is
weighed as evidence the way the bot itself plays: a world in which the other seat
passed while holding a fitting tile is weighted by PASS_WITH_PLAY for each such
pass, the rate at which this bot passes holding a play (a forced pass has rate 1).
In each world peers/bots/bram_search.py values every legal move by alpha-beta; the
bot plays the best weighted mean. Searches deepen together over all worlds until
the budget (nodes, deterministic; or milliseconds, for play against a person) runs
out or every line reaches the end of the hand (exact); between depths, once the
hands are small enough, the endgame solver tries to search every world to the end
with as many nodes again as spent so far, and takes over when it succeeds.

It sees only a SeatView (protocol/seat.py): the public state and its own hand.
Its memory of earlier turns holds only public facts (the other seat's passes).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from peers.bots.bram_search import (
    BIT,
    EXACT_DEPTH,
    FIT_MASK,
    PIPS,
    Searcher,
    Stop,
    world_values,
)
from protocol.errors import LocalError
from protocol.rules.bram import DEFAULT_KOMI_HALVES
from protocol.rules.bram_state import BramState, End, Pass
from protocol.seat import SeatView

ALL_TILES = (1 << len(BIT)) - 1
#: Default node budget per move: deterministic, and a few ms to tens of ms a move.
DEFAULT_NODES = 20000
#: Relative weight of a world for each pass the other seat made while holding a play in it:
#: the likelihood of that pass against a forced one. It is the rate at which this bot passes
#: while holding a fitting tile with no pass just made, measured by its self-play
#: (`python tools/bot_study.py pass-rate --deals 150`: 0.084, 95% CI 0.075 .. 0.094, over
#: 4,360 such choices; about half of its passes are such passes).
PASS_WITH_PLAY = 0.08
MAX_DEPTH = 60
#: Tiles in both hands at most for the endgame solver to be tried between iterations.
SOLVER_TILES = 22


def hand_mask(tiles: Any) -> int:
    mask = 0
    for t in tiles:
        mask |= BIT[t]
    return mask


def _child(state: BramState, move: Any) -> tuple[int, int, int, int, int]:
    """(tile bit or 0, low end, high end, passes, tile pips) after `move`."""
    left, right = state.ends
    if isinstance(move, Pass):
        lo, hi = sorted((left, right))
        return 0, lo, hi, state.passes + 1, 0
    a, b = move.tile
    if move.end is End.LEFT:
        left = b if a == left else a
    else:
        right = b if a == right else a
    lo, hi = sorted((left, right))
    bit = BIT[move.tile]
    return bit, lo, hi, 0, PIPS[bit.bit_length() - 1]


class StrongBot:
    """A chooser (SeatView -> move) for `bram`; see the module docstring."""

    def __init__(self, rng: random.Random, nodes: int = DEFAULT_NODES,
                 think_ms: float | None = None, pass_weight: float = PASS_WITH_PLAY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if nodes < 1:
            raise LocalError("bot/budget", f"the node budget must be at least 1, not {nodes}")
        if think_ms is not None and not think_ms > 0:
            raise LocalError("bot/budget", f"the thinking time must be above 0 ms, not "
                                           f"{think_ms}")
        self.rng, self.nodes, self.think_ms = rng, nodes, think_ms
        self.pass_weight, self.clock = pass_weight, clock
        self._seen: list[tuple[int, int]] = []  # (fitting tiles, unknown tiles) at each pass
        self._played = 0
        self.last_depth = 0
        self.last_exact = False

    def __call__(self, view: SeatView) -> Any:
        state = view.rules_state
        if not isinstance(state, BramState):
            raise LocalError("bot/rules", "the strong bot plays bram only")
        if len(view.legal) == 1:
            self.last_depth, self.last_exact = 0, True  # nothing to choose
            return view.legal[0]
        me = hand_mask(view.hand)
        unknown = ALL_TILES & ~hand_mask(state.played) & ~me
        if len(state.played) < self._played:
            self._seen.clear()  # a new hand
        self._played = len(state.played)
        if state.passes:
            left, right = state.ends
            self._seen.append((FIT_MASK[left] | FIT_MASK[right], unknown))
        worlds = self._worlds(unknown)
        komi = view.params.get("komi_halves", DEFAULT_KOMI_HALVES)
        if type(komi) is not int:
            raise LocalError("bot/rules", "the strong bot plays bram, whose komi is an int")
        kd = -komi if state.first_player == view.seat else komi
        children = [_child(state, m) for m in view.legal]
        totals = self._search(me, worlds, children, kd)
        best = max(totals)
        choices = [m for m, v in zip(view.legal, totals, strict=True) if v >= best - 1e-9]
        return choices[0] if len(choices) == 1 else self.rng.choice(choices)

    def _worlds(self, unknown: int) -> list[tuple[int, float]]:
        """(the other hand, weight) for each tile that may be the hidden one."""
        worlds = []
        rest = unknown
        while rest:
            hidden = rest & -rest
            rest ^= hidden
            weight = 1.0
            for fits, then in self._seen:
                if (then & ~hidden) & fits:
                    weight *= self.pass_weight
            worlds.append((unknown ^ hidden, weight))
        return worlds

    def _search(self, me: int, worlds: list[tuple[int, float]],
                children: list[tuple[int, int, int, int, int]], kd: int) -> list[float]:
        """Iterative deepening over all worlds at once; after each depth the endgame
        solver tries to finish every world with as many nodes again as spent so far, and
        when it does, its exact values are the answer. Nodes it spends are not lost when
        it fails: the positions it solved stay in the table as exact."""
        searcher = Searcher(clock=self.clock)
        deadline = None if self.think_ms is None else self.clock() + self.think_ms / 1000
        limit = self.nodes if deadline is None else 10**12
        totals = [0.0] * len(children)
        self.last_depth, self.last_exact = 0, False
        for depth in range(1, MAX_DEPTH + 1):
            # The first iteration always completes, so every move has a value.
            if depth > 1:
                searcher.node_limit, searcher.deadline = limit, deadline
            sums = self._iteration(searcher, me, worlds, children, kd, depth)
            if sums is None:
                break
            totals = sums
            self.last_depth, self.last_exact = depth, not searcher.estimated
            if self.last_exact:
                break
            if self._tiles(me, worlds) > SOLVER_TILES:
                continue
            searcher.node_limit = min(limit, 2 * searcher.nodes)
            solved = self._iteration(searcher, me, worlds, children, kd, EXACT_DEPTH)
            if solved is not None:
                totals, self.last_exact = solved, True
                break
            if searcher.nodes > limit or (deadline is not None and self.clock() > deadline):
                break
        total_weight = sum(w for _, w in worlds)
        return [t / total_weight for t in totals]

    @staticmethod
    def _tiles(me: int, worlds: list[tuple[int, float]]) -> int:
        return me.bit_count() + worlds[0][0].bit_count()

    @staticmethod
    def _iteration(searcher: Searcher, me: int, worlds: list[tuple[int, float]],
                   children: list[tuple[int, int, int, int, int]], kd: int,
                   depth: int) -> list[float] | None:
        """Weighted sums of every move's value over the worlds searched to `depth`; None
        if the budget ran out first."""
        searcher.estimated = False
        sums = [0.0] * len(children)
        try:
            for opp, weight in worlds:
                values = world_values(me, opp, children, kd, depth, searcher)
                for k, v in enumerate(values):
                    sums[k] += weight * v
        except Stop:
            return None
        return sums


def strong_bot(rng: random.Random, nodes: int = DEFAULT_NODES,
               think_ms: float | None = None) -> StrongBot:
    return StrongBot(rng, nodes, think_ms)

