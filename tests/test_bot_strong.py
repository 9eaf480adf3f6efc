"""The strong bram bot (peers/bots/strong.py, peers/bots/bram_search.py).

What a person relies on: the bot never learns what its seat may not know, it plays
the exact best move once the search reaches the end of the hand (checked against a
plain minimax over the rules module, written here without alpha-beta or tables), and
it plays whole games legally through the real protocol.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from peers.bots.bram_search import BIT, EXACT_DEPTH, Searcher, mask_pips, world_values
from peers.bots.registry import make_bot
from peers.bots.strong import StrongBot, hand_mask
from peers.bots.tournament import Deal, deal, play
from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.errors import LocalError
from protocol.rules.bram import apply, initial_state, legal_moves, outcome
from protocol.rules.bram_state import START_TILE, TILE_SET, BramState, Play
from protocol.seat import SeatView
from protocol.tiles import Tile
from protocol.verifier import replay


def _tiles_in(value: Any) -> Iterator[Tile]:
    """Every tile-shaped pair anywhere inside `value` (dataclasses, containers, mappings)."""
    if isinstance(value, tuple) and len(value) == 2 and all(type(x) is int for x in value):
        yield (min(value), max(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _tiles_in(getattr(value, f.name))
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _tiles_in(k)
            yield from _tiles_in(v)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _tiles_in(item)


def test_a_real_game_shows_the_bot_no_opponent_tile_and_no_hidden_tile() -> None:
    """Through the real protocol: every view the strong bot is given holds, of the tiles
    not yet played, only its own; then the transcript verifies."""
    table = Table.create("bram", {"komi_halves": 3}, ["strong", "greedy"], Entropy(11))
    views: list[SeatView] = []
    bot = table.choosers[0]

    def spy(view: SeatView) -> Any:
        views.append(view)
        return bot(view)

    table.choosers[0] = spy
    verdict = replay(table.play().encode())
    assert verdict.valid and verdict.complete
    assert views and verdict.outcome is not None
    hidden = set(verdict.outcome.hidden)
    for view in views:
        state = view.rules_state
        assert isinstance(state, BramState)
        unplayed = set(TILE_SET.tiles) - state.played
        seen = set(_tiles_in(view)) & unplayed
        assert seen <= set(view.hand), "a view shows an unplayed tile that is not the seat's"
        assert not seen & hidden
        assert dict(view.params) == {"komi_halves": 3}


class _Enough(Exception):
    pass


def _first_choice(d: Deal) -> tuple[SeatView, Any]:
    """Seat 0's first view and the strong bot's answer to it, in a tournament game."""
    seen: list[tuple[SeatView, Any]] = []
    strong = make_bot("strong", random.Random(9), nodes=3000)

    def spy(view: SeatView) -> Any:
        seen.append((view, strong(view)))
        raise _Enough

    with pytest.raises(_Enough):
        play(d, [spy, make_bot("greedy", random.Random(0))], 0)
    return seen[0]


def test_the_bot_chooses_from_the_view_alone() -> None:
    """Two deals that agree on everything seat 0 can see (its hand, the public play) but
    differ in the other hand and the hidden tile give seat 0 the same view and the same
    move: nothing else reaches the bot."""
    for number in range(8):
        d = deal(21, number)
        if d.first_player != 0:
            continue
        # Swap the hidden tile with one of seat 1's: a deal seat 0 cannot tell apart.
        other = list(d.hands[1])
        other[0], hidden = d.hidden, other[0]
        twin = Deal((d.hands[0], tuple(sorted(other))), hidden, 0)
        view, move = _first_choice(d)
        twin_view, twin_move = _first_choice(twin)
        assert view == twin_view and move == twin_move
        assert d.hidden not in set(_tiles_in(view)) and hidden not in set(_tiles_in(view))


def _random_endgame(rng: random.Random, left_in_hands: int) -> tuple[BramState, list[set[Tile]],
                                                                     Tile]:
    """A position reached by random legal play with at most `left_in_hands` tiles in hands,
    where the seat to move has a choice (a play besides the pass)."""
    while True:
        tiles = [t for t in TILE_SET.tiles if t != START_TILE]
        rng.shuffle(tiles)
        hands = [set(tiles[1:14]), set(tiles[14:])]
        state = initial_state(rng.randrange(2))
        while state.finished is None and sum(state.hand_counts) > left_in_hands:
            moves = legal_moves(state, hands[state.turn])
            plays = [m for m in moves if isinstance(m, Play)]
            move = rng.choice(plays) if plays else moves[0]
            if isinstance(move, Play):
                hands[state.turn].remove(move.tile)
            state = apply(state, state.turn, move)
        if (state.finished is None and state.passes == 0
                and len(legal_moves(state, hands[state.turn])) > 1):
            return state, hands, tiles[0]


def brute_force(state: BramState, hands: list[set[Tile]], hidden: Tile, komi: int,
                seat: int) -> int:
    """`seat`'s signed margin (half pips) under perfect play by both, by plain minimax."""
    if state.finished is not None:
        result = outcome(state, hands, [hidden], komi)
        if result.winner is None:
            return 0
        return result.margin_halves if result.winner == seat else -result.margin_halves
    mover = state.turn
    values = []
    for move in legal_moves(state, hands[mover]):
        after = [set(h) for h in hands]
        if isinstance(move, Play):
            after[mover].remove(move.tile)
        values.append(brute_force(apply(state, mover, move), after, hidden, komi, seat))
    return max(values) if mover == seat else min(values)


def _child_value(state: BramState, hands: list[set[Tile]], hidden: Tile, komi: int,
                 move: Any) -> int:
    seat = state.turn
    after = [set(h) for h in hands]
    if isinstance(move, Play):
        after[seat].remove(move.tile)
    return brute_force(apply(state, seat, move), after, hidden, komi, seat)


@pytest.mark.parametrize("seed", range(12))
def test_with_both_hands_known_the_search_values_every_move_exactly(seed: int) -> None:
    rng = random.Random(seed)
    komi = rng.choice([0, 1, -3, 8])
    state, hands, hidden = _random_endgame(rng, rng.choice([5, 6, 7, 8]))
    seat = state.turn
    legal = legal_moves(state, hands[seat])
    from peers.bots.strong import _child

    me, opp = hand_mask(hands[seat]), hand_mask(hands[1 - seat])
    kd = -komi if state.first_player == seat else komi
    got = world_values(me, opp, [_child(state, m) for m in legal], kd, EXACT_DEPTH, Searcher())
    want = [_child_value(state, hands, hidden, komi, m) for m in legal]
    assert got == want
    lo, hi = sorted(state.ends)
    assert Searcher().value(me, opp, lo, hi, state.passes, kd, EXACT_DEPTH) == max(want)
    assert mask_pips(me) == sum(a + b for a, b in hands[seat])


@pytest.mark.parametrize("seed", range(10))
def test_in_small_endgames_the_bot_plays_the_exact_best_move(seed: int) -> None:
    """The bot cannot see the other hand, so the best move is the one with the best mean
    exact value over every tile that may be hidden; brute force finds it independently."""
    rng = random.Random(100 + seed)
    komi = rng.choice([0, 1, 5, -2])
    state, hands, hidden = _random_endgame(rng, rng.choice([4, 5, 6]))
    seat = state.turn
    mine = tuple(sorted(hands[seat]))
    legal = legal_moves(state, mine)
    unknown = sorted(hands[1 - seat] | {hidden})
    means = []
    for h in unknown:  # the world in which h is hidden
        other = set(unknown) - {h}
        world = [set(mine), other] if seat == 0 else [other, set(mine)]
        means.append([_child_value(state, world, h, komi, m) for m in legal])
    totals = [sum(row[k] for row in means) for k in range(len(legal))]
    best = {m for m, v in zip(legal, totals, strict=True) if v == max(totals)}
    bot = StrongBot(random.Random(seed))
    choice = bot(SeatView(seat, state, mine, legal, {"komi_halves": komi}))
    assert bot.last_exact, "a small endgame is searched to the end"
    assert choice in best


def test_a_pass_with_a_play_in_hand_makes_the_bot_think_the_fitting_tile_is_hidden() -> None:
    """The only inference the bot draws: the other seat passed while (in some worlds) it
    held a fitting tile, so the worlds where it held none weigh more."""
    bot = StrongBot(random.Random(1))
    # Ends 2 and 3; the unknown tiles: only 2-5 fits, so a pass says 2-5 is likely hidden.
    unknown = BIT[(2, 5)] | BIT[(0, 0)] | BIT[(1, 1)]
    from peers.bots.bram_search import FIT_MASK

    bot._seen.append((FIT_MASK[2] | FIT_MASK[3], unknown))
    weights = dict(bot._worlds(unknown))
    assert weights[unknown ^ BIT[(2, 5)]] == 1.0
    assert weights[unknown ^ BIT[(0, 0)]] < 1.0


def test_strong_beats_random_and_plays_legally_through_whole_games() -> None:
    wins = 0
    for number in range(6):
        d = deal(5, number)
        for seat in (0, 1):
            bots = [make_bot("random", random.Random(number)) for _ in range(2)]
            bots[seat] = make_bot("strong", random.Random(number), nodes=2000)
            game = play(d, bots, 0)  # raises on an illegal choice
            wins += game.winner == seat
    assert wins >= 9


def test_the_strong_bot_refuses_other_rules_and_bad_budgets() -> None:
    with pytest.raises(LocalError, match="bram only"):
        make_bot("strong", random.Random(0))(SeatView(0, object(), (), ("x", "y")))
    with pytest.raises(LocalError, match="node budget"):
        make_bot("strong", random.Random(0), nodes=0)
    with pytest.raises(LocalError, match="above 0 ms"):
        make_bot("strong", random.Random(0), think_ms=0.0)
    with pytest.raises(LocalError, match="no thinking budget"):
        make_bot("greedy", random.Random(0), nodes=10)
    with pytest.raises(LocalError, match="bram only, not mexican-train"):
        Table.create("mexican-train", {}, ["strong", "greedy"], Entropy(1))


def test_a_clock_budget_still_answers_with_a_legal_move() -> None:
    d = deal(9, 0)
    bots = [make_bot("strong", random.Random(0), think_ms=5.0), make_bot("greedy",
                                                                        random.Random(0))]
    game = play(d, bots, 0)
    assert game.moves > 0


def test_the_thinking_time_is_read_on_the_clock_the_bot_is_given() -> None:
    """A study passes the process's CPU time (tools/bot_study.py --cpu-clock): the bot
    must read its deadline there, not on the wall. A clock that leaps an hour a reading
    leaves time for the first depths only; one that stands still for its first 40
    readings (one every 256 nodes) lets the search go deeper."""
    view, _ = _first_choice(deal(9, 0))

    def clock(still: int) -> Callable[[], float]:
        readings = itertools.count()
        return lambda: float(max(0, next(readings) - still) * 3600)

    leaping = StrongBot(random.Random(0), think_ms=1000.0, clock=clock(0))
    later = StrongBot(random.Random(0), think_ms=1000.0, clock=clock(40))
    assert leaping(view) in view.legal and later(view) in view.legal
    assert leaping.last_depth <= 2 < later.last_depth and not later.last_exact


def test_selfplay_with_the_strong_bot_on_a_clock_verifies(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    from peers.cli.main import main

    out = tmp_path / "g.transcript"
    assert main(["selfplay", "--bots", "strong,greedy", "--think-ms", "5", "--seed", "3",
                 "--out", str(out)]) == 0
    assert main(["verify", str(out)]) == 0
    assert "VALID and complete" in capsys.readouterr().out


def test_against_a_person_the_bot_thinks_a_second_a_move_and_elsewhere_by_nodes() -> None:
    """`play` and `web` (LocalDriver) give the strong bot PERSON_THINK_MS a move unless told
    otherwise; selfplay keeps the node budget, so its games are reproducible."""
    from peers.bots.registry import PERSON_THINK_MS
    from peers.table.driver import LocalDriver

    assert PERSON_THINK_MS == 1000.0
    person = LocalDriver(["strong"], seat=1, seed=1).table.choosers[0]
    assert isinstance(person, StrongBot) and person.think_ms == PERSON_THINK_MS
    told = LocalDriver(["strong"], seat=1, seed=1, think_ms=40.0).table.choosers[0]
    assert isinstance(told, StrongBot) and told.think_ms == 40.0
    bots = Table.create("bram", {"komi_halves": 3}, ["strong", "greedy"], Entropy(2)).choosers
    assert isinstance(bots[0], StrongBot) and bots[0].think_ms is None
