"""Alpha-beta search of Bram's game with every hand known (spec/rules/bram.md sections 5-8).

Theory of operation: the strong bot (peers/bots/strong.py) fixes a world, that is
which unknown tile is the hidden one and so the opponent's whole hand, and asks
this module for the value of each of its legal moves in that world. Here the
game is one of perfect information, searched by negamax alpha-beta with a
transposition table. Tiles are bit positions 0..27 in the set's canonical order,
so a hand is an int and a position is (mover's hand, other hand, the two open
numbers low-high, passes in a row). Only the multiset of open numbers matters to
the rest of the hand (section 9, D4), so the ends are kept sorted.

Values are in half pips from the mover's point of view, komi included, exactly
as section 8 scores the hand: going out wins twice the loser's pips, a blocked
hand wins or loses the difference of the totals. A search that reaches the end
of every line is exact; a depth-limited one scores its leaves by `estimate`. The
table outlives an iteration, so each entry records whether an estimate lies below
it (its depth, or SOLVED when none does): an iteration that uses an entry of a
shallower one is an estimate too, and only a search resting on no estimate at all,
directly or through the table, reports itself exact (tests/test_bot_search_exact.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from protocol.rules.bram_state import TILE_SET

TILES = TILE_SET.tiles
PIPS = tuple(a + b for a, b in TILES)
BIT = {t: 1 << i for i, t in enumerate(TILES)}
#: FITS[p]: the tiles with a half p, as (index, other half), heaviest first.
FITS = tuple(tuple(sorted(((i, b if a == p else a) for i, (a, b) in enumerate(TILES)
                           if p in (a, b)), key=lambda e: -PIPS[e[0]]))
             for p in range(7))
FIT_MASK = tuple(sum(1 << i for i, _ in FITS[p]) for p in range(7))
#: Half pips a leaf estimate credits per tile fewer in hand: the seat with fewer tiles
#: is nearer to going out, which wins all of the other hand's pips (section 8).
TILE_WEIGHT = 6
INF = 10**6
EXACT_DEPTH = 99
#: The depth a table entry records when no leaf below it was scored by `estimate`: such a
#: value (or bound) holds at any depth, so a deeper search may use it too.
SOLVED = 1 << 20


class Stop(Exception):
    """The node or clock budget ran out in the middle of an iteration."""


def mask_pips(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += PIPS[low.bit_length() - 1]
        mask ^= low
    return total


def _first(entry: tuple[int, tuple[int, int, int]]) -> int:
    return entry[0]


def estimate(me: int, opp: int, pm: int, po: int, kd: int) -> int:
    """A leaf's value for the mover: the blocked score now, plus a tempo term."""
    return 2 * (po - pm) + kd + TILE_WEIGHT * (opp.bit_count() - me.bit_count())


@dataclass
class Searcher:
    """One world's perfect-information search; the table persists across iterations."""

    node_limit: int = INF * INF
    deadline: float | None = None
    clock: Callable[[], float] = time.monotonic
    """What `deadline` is read against: wall time for a person waiting; a study of
    strength on a shared machine passes the process's CPU time."""
    nodes: int = 0
    estimated: bool = False
    """Whether the current iteration rests on any leaf scored by estimate (not exact),
    found in this iteration or inside a table entry from an earlier one."""

    def __post_init__(self) -> None:
        # key -> (depth searched, or SOLVED; bound kind: 0 exact value, 1 lower bound,
        # -1 upper bound; value; best move). The bound kind says what the value is within
        # the search window; the depth says whether estimates are inside it. A value is
        # exact only when both say so.
        self.table: dict[int, tuple[int, int, int, tuple[int, int, int] | None]] = {}

    def _tick(self) -> None:
        if self.nodes > self.node_limit:
            raise Stop
        if self.deadline is not None and not self.nodes & 255 and self.clock() > self.deadline:
            raise Stop

    def value(self, me: int, opp: int, lo: int, hi: int, passes: int, kd: int, depth: int,
              alpha: int = -INF, beta: int = INF) -> int:
        """Negamax value for the seat to move holding `me`, the other holding `opp`.

        `kd` is (komi on the other seat) - (komi on the mover) in half pips; `depth` is
        plies left before the estimate (EXACT_DEPTH: search to the end).
        """
        return self._negamax(me, opp, lo, hi, passes, mask_pips(me), mask_pips(opp), kd,
                             depth, alpha, beta)

    def _negamax(self, me: int, opp: int, lo: int, hi: int, passes: int, pm: int, po: int,
                 kd: int, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 1023 or self.nodes > self.node_limit:
            self._tick()
        if depth <= 0:
            self.estimated = True
            value = estimate(me, opp, pm, po, kd)
            if passes:  # the mover may end the hand by passing
                value = max(value, 2 * (po - pm) + kd)
            return value
        key = me | opp << 28 | lo << 56 | hi << 59 | passes << 62
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            if entry[0] >= depth:
                flag, stored = entry[1], entry[2]
                if flag == 0 or (flag > 0 and stored >= beta) or (flag < 0 and stored <= alpha):
                    if entry[0] != SOLVED:
                        # An earlier, shallower iteration's estimate: so is what it decides.
                        self.estimated = True
                    return stored
            hint = entry[3]
        # Whether this subtree rests on an estimate, apart from the rest of the iteration.
        outer, self.estimated = self.estimated, False
        alpha0 = alpha
        best = -INF
        best_move: tuple[int, int, int] | None = None
        if passes:
            # A second pass in a row ends the hand: score it first, a cheap bound.
            best = 2 * (po - pm) + kd
            if best > alpha:
                alpha = best
        if best < beta:
            # Plays as (tile, low end, high end) after the play: first those that leave the
            # other hand the fewest answers (none forces a pass), heaviest first among equals;
            # the table's best move of an earlier search before them; None, a pass, last.
            ranked: list[tuple[int, tuple[int, int, int]]] = []
            for p, q in ((lo, hi),) if lo == hi else ((lo, hi), (hi, lo)):
                if me & FIT_MASK[p]:
                    for i, other in FITS[p]:
                        if me >> i & 1:
                            answers = (opp & (FIT_MASK[other] | FIT_MASK[q])).bit_count()
                            ranked.append((answers, (i, other, q) if other <= q else (i, q, other)))
            ranked.sort(key=_first)
            moves: list[tuple[int, int, int] | None] = [m for _, m in ranked]
            if not passes:
                moves.append(None)
            if hint is not None and hint != moves[0] and hint in moves:
                moves.remove(hint)
                moves.insert(0, hint)
            child = depth - 1
            for move in moves:
                if move is None:
                    v = -self._negamax(opp, me, lo, hi, 1, po, pm, -kd, child, -beta, -alpha)
                else:
                    i = move[0]
                    rest = me ^ 1 << i
                    if not rest:
                        v = 2 * po
                    else:
                        v = -self._negamax(opp, rest, move[1], move[2], 0, po, pm - PIPS[i],
                                           -kd, child, -beta, -alpha)
                if v > best:
                    best, best_move = v, move
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        flag = 1 if best >= beta else -1 if best <= alpha0 else 0
        self.table[key] = (depth if self.estimated else SOLVED, flag, best, best_move)
        self.estimated |= outer
        return best


def world_values(me: int, opp: int, children: list[tuple[int, int, int, int, int]],
                 kd: int, depth: int, searcher: Searcher) -> list[int]:
    """The mover's value of each root child in one world.

    Each child is (tile bit or 0 for a pass, low end, high end, passes, tile pips) after
    the move; a child that ends the hand is scored directly.
    """
    pm, po = mask_pips(me), mask_pips(opp)
    out: list[int] = []
    for bit, lo, hi, passes, pips in children:
        if bit == 0 and passes == 2:
            out.append(2 * (po - pm) + kd)
            continue
        rest = me ^ bit
        if not rest:
            out.append(2 * po)
            continue
        out.append(-searcher._negamax(opp, rest, lo, hi, passes, po, pm - pips, -kd,
                                      depth - 1, -INF, INF))
    return out

