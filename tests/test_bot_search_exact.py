"""A search that calls itself exact is exact (peers/bots/bram_search.py, issue 19).

What a person relies on: when the strong bot says a choice was searched to the end
(`last_exact`), every value behind it is the true minimax value, even though its
table holds estimates from earlier, shallower iterations. Checked against a plain
minimax over the rules module (tests/test_bot_strong.py brute_force) on small
endgames, and against a plain minimax over the same bit masks on a position where
the table once handed a shallow estimate back as exact.
"""

from __future__ import annotations

import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st
from test_bot_strong import _child_value, _random_endgame

from peers.bots.bram_search import FITS, PIPS, Searcher, mask_pips, world_values
from peers.bots.strong import StrongBot, _child, hand_mask
from protocol.rules.bram import legal_moves
from protocol.seat import SeatView


@cache
def minimax(me: int, opp: int, lo: int, hi: int, passes: int, kd: int) -> int:
    """The mover's value by plain minimax (no bounds, no depth limit), scored as
    spec/rules/bram.md section 8 scores a hand: out wins twice the other's pips, blocked
    wins the difference (doubled, so in half pips) with `kd` the komi difference."""
    pm, po = mask_pips(me), mask_pips(opp)
    # A pass is always legal (D2); after the other seat's pass it ends the hand.
    values = [2 * (po - pm) + kd if passes else -minimax(opp, me, lo, hi, 1, -kd)]
    for p, q in {(lo, hi), (hi, lo)}:
        for i, other in FITS[p]:
            if me >> i & 1:
                rest = me ^ 1 << i
                a, b = sorted((other, q))
                values.append(2 * po if not rest else -minimax(opp, rest, a, b, 0, -kd))
    return max(values)


def root_minimax(me: int, opp: int, children: list[tuple[int, int, int, int, int]],
                 kd: int) -> list[int]:
    out = []
    for bit, lo, hi, passes, _ in children:
        rest = me ^ bit
        if bit == 0 and passes == 2:
            out.append(2 * (mask_pips(opp) - mask_pips(me)) + kd)
        elif not rest:
            out.append(2 * mask_pips(opp))
        else:
            out.append(-minimax(opp, rest, lo, hi, passes, -kd))
    return out


def deepen(me: int, opp: int, children: list[tuple[int, int, int, int, int]], kd: int,
           searcher: Searcher, last: int = 40) -> list[tuple[int, bool, list[int]]]:
    """(depth, exact?, values) of each iteration of iterative deepening on one table."""
    rows = []
    for depth in range(1, last + 1):
        searcher.estimated = False
        values = world_values(me, opp, children, kd, depth, searcher)
        rows.append((depth, not searcher.estimated, values))
        if not searcher.estimated:
            break
    return rows


def test_a_shallow_estimate_in_the_table_is_never_reported_exact() -> None:
    """Found by searching the strong bot's own games (its self-play on the tournament deals
    of seed 2, 20,000 nodes, komi 1.5) for a choice reported exact whose values differ
    from a fresh search to the end: 7 tiles against 5, ends 2 and 6. The old table
    handed back an estimate stored by a shallower iteration, and the depth-14 iteration
    reported [1, -3, 7] as exact; the exact values are [1, -3, 9]."""
    me, opp, kd = 8398722, 4462596, 3
    children = [(0, 2, 6, 1, 0), (256, 1, 6, 0, 3), (8192, 2, 6, 0, 4)]
    truth = root_minimax(me, opp, children, kd)
    assert truth == [1, -3, 9]
    rows = deepen(me, opp, children, kd, Searcher())
    assert rows[-1][1], "the search reaches the end of every line"
    for depth, exact, values in rows:
        if exact:
            assert values == truth, f"depth {depth} claimed exact"
    assert not any(exact for depth, exact, _ in rows if depth <= 14)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), size=st.integers(4, 11),
       komi=st.sampled_from([0, 1, 3, -2]), shared=st.booleans())
def test_every_value_a_search_calls_exact_is_the_minimax_value(
        seed: int, size: int, komi: int, shared: bool) -> None:
    """Iterative deepening over every world of a small endgame, on one table for all
    worlds (as the bot searches) or one a world: each iteration that reports itself
    exact gives every move its minimax value (over the rules module itself while the
    endgame is small enough for a plain minimax there)."""
    rng = random.Random(seed)
    state, hands, hidden = _random_endgame(rng, size)
    seat = state.turn
    mine = tuple(sorted(hands[seat]))
    legal = legal_moves(state, mine)
    children = [_child(state, m) for m in legal]
    me = hand_mask(mine)
    kd = -komi if state.first_player == seat else komi
    unknown = sorted(hands[1 - seat] | {hidden})
    table = Searcher()
    for h in unknown:
        other = set(unknown) - {h}
        world = [set(mine), other] if seat == 0 else [other, set(mine)]
        truth = root_minimax(me, hand_mask(other), children, kd)
        if size <= 6:
            assert truth == [_child_value(state, world, h, komi, m) for m in legal]
        rows = deepen(me, hand_mask(other), children, kd, table if shared else Searcher())
        assert rows[-1][1]
        for depth, exact, values in rows:
            if exact:
                assert values == truth, f"depth {depth} claimed exact"
    minimax.cache_clear()


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**9), size=st.integers(4, 8), nodes=st.integers(50, 3000))
def test_when_the_bot_says_exact_its_choice_is_a_best_exact_choice(
        seed: int, size: int, nodes: int) -> None:
    """The bot under any node budget: if it reports its choice exact, the choice has the
    best mean minimax value over the worlds (weighted as the bot weighs them)."""
    rng = random.Random(seed)
    state, hands, hidden = _random_endgame(rng, size)
    seat = state.turn
    mine = tuple(sorted(hands[seat]))
    legal = legal_moves(state, mine)
    bot = StrongBot(random.Random(seed), nodes=nodes)
    choice = bot(SeatView(seat, state, mine, legal, {"komi_halves": 3}))
    if not bot.last_exact:
        return
    me = hand_mask(mine)
    kd = -3 if state.first_player == seat else 3
    children = [_child(state, m) for m in legal]
    totals = [0.0] * len(legal)
    for opp, weight in bot._worlds(hand_mask(hands[1 - seat] | {hidden})):
        for k, v in enumerate(root_minimax(me, opp, children, kd)):
            totals[k] += weight * v
    assert totals[legal.index(choice)] >= max(totals) - 1e-9
    assert mask_pips(me) == sum(PIPS[i] for i in range(28) if me >> i & 1)
