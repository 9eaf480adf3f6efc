"""Duplicate tournaments of Bram's game between bots, on the rules alone (`dealerless tournament`).

Theory of operation: a tournament measures bots, not the protocol, so it runs
protocol/rules/bram.py directly: no keys, shuffles, proofs or transcripts. Each
deal is a seeded shuffle of the 27 tiles besides the double-six (the first one
hidden, then 13 a seat) and a seeded first player (spec/rules/bram.md section 2).
Each deal is played twice, and the pair of games is the unit of the statistics,
which removes much of the luck of the deal. Two designs (`--design`):

- `seats`: the bots swap seats, the same seat moves first, so both bots play the
  same hand from the same position. It compares two different bots; with the same
  bot in both seats it mostly replays the identical game.
- `first`: the bots keep their seats and hands, and the other seat moves first in
  the second game. It measures the first player's edge (komi): each hand is played
  once moving first and once moving second.

Every bot sees only a SeatView (its hand, the public state and the rules'
parameters), exactly as in a real game. Deals, first players and every bot's
randomness come from `--seed`, so a run is reproducible whatever `--jobs` is,
as long as the bots think by nodes and not by the clock.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from protocol.rules.base import halves_text
from protocol.rules.bram import KOMI_LIMIT_HALVES, apply, initial_state, legal_moves, outcome
from protocol.rules.bram_state import HAND_SIZE, START_TILE, TILE_SET, Play
from protocol.seat import SeatView
from protocol.tiles import Tile

#: Two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054
#: Komi values (half pips) the same-bot sweep reports.
SWEEP = range(-40, 41)
#: --design: what differs between a deal's two games, in words.
DESIGNS = {
    "seats": "each deal played twice, the bots swapped between the seats, the same seat "
             "moving first",
    "first": "each deal played twice on the same hands, the bots in the same seats, the "
             "other seat moving first",
}


@dataclass(frozen=True)
class Deal:
    """Seat 0's and seat 1's hands, the hidden tile and the first player of one deal."""

    hands: tuple[tuple[Tile, ...], tuple[Tile, ...]]
    hidden: Tile
    first_player: int


def deal(seed: int, number: int) -> Deal:
    """Deal `number` of the run seeded by `seed`: a shuffle of the 27 tiles besides 6-6."""
    rng = random.Random(f"dealerless tournament {seed} deal {number}")
    tiles = [t for t in TILE_SET.tiles if t != START_TILE]
    rng.shuffle(tiles)
    hands = (tuple(sorted(tiles[1:1 + HAND_SIZE])), tuple(sorted(tiles[1 + HAND_SIZE:])))
    return Deal(hands, tiles[0], rng.randrange(2))


@dataclass(frozen=True)
class Game:
    """One game's result: the seat that won (None for a draw) and the pips left."""

    first_player: int
    winner: int | None
    reason: str
    margin_halves: int
    hand_pips: tuple[int, int]
    moves: int


BotFactory = Callable[[random.Random], Callable[[SeatView], Any]]


def play(d: Deal, bots: Sequence[Callable[[SeatView], Any]], komi_halves: int) -> Game:
    """Play one deal between `bots` (seat 0's, seat 1's) on the rules alone."""
    params = {"komi_halves": komi_halves}
    hands = [set(d.hands[0]), set(d.hands[1])]
    state = initial_state(d.first_player)
    moves = 0
    while state.finished is None:
        seat = state.turn
        hand = tuple(sorted(hands[seat]))
        legal = legal_moves(state, hand)
        move = bots[seat](SeatView(seat, state, hand, legal, params))
        if move not in legal:
            raise ValueError(f"bot of seat {seat} chose {move!r}, which is not legal")
        state = apply(state, seat, move)
        if isinstance(move, Play):
            hands[seat].remove(move.tile)
        moves += 1
    result = outcome(state, hands, [d.hidden], komi_halves)
    pips = (result.hand_pips[0], result.hand_pips[1])
    return Game(d.first_player, result.winner, result.reason, result.margin_halves, pips,
                moves)


@dataclass(frozen=True)
class Spec:
    """What one worker needs to play deals: picklable, so `--jobs` can use processes."""

    bots: tuple[str, str]
    komi_halves: int
    seed: int
    nodes: tuple[int | None, int | None]
    """Node budget of bot A and of bot B (None: the bot's default)."""
    think_ms: float | None
    design: str = "seats"
    """A key of DESIGNS."""


def a_seat(spec: Spec, game: int) -> int:
    """The seat of bot A in game 0 or 1 of a deal."""
    return game if spec.design == "seats" else 0


def make_bot(name: str, rng: random.Random, nodes: int | None = None,
             think_ms: float | None = None) -> Callable[[SeatView], Any]:
    from peers.bots.registry import THINKERS
    from peers.bots.registry import make_bot as build

    if name not in THINKERS:
        return build(name, rng)
    return build(name, rng, nodes=nodes, think_ms=think_ms)


def play_pair(spec: Spec, number: int) -> tuple[Deal, Game, Game]:
    """Deal `number` played twice, as `spec.design` says (DESIGNS)."""
    if spec.design not in DESIGNS:
        raise ValueError(f"no tournament design {spec.design!r}")
    d = deal(spec.seed, number)
    games = []
    for swap in (0, 1):
        # who[s]: the bot (0 for A, 1 for B) in seat s.
        who = (0, 1) if a_seat(spec, swap) == 0 else (1, 0)
        bots = [make_bot(spec.bots[who[s]], random.Random(
            f"dealerless tournament {spec.seed} deal {number} game {swap} seat {s}"),
            spec.nodes[who[s]], spec.think_ms) for s in range(2)]
        moved = d if spec.design == "seats" or not swap else \
            dataclasses.replace(d, first_player=1 - d.first_player)
        games.append(play(moved, bots, spec.komi_halves))
    return d, games[0], games[1]


def _play_chunk(args: tuple[Spec, list[int]]) -> list[tuple[Deal, Game, Game]]:
    spec, numbers = args
    return [play_pair(spec, n) for n in numbers]


def run_pairs(spec: Spec, hands: int, jobs: int = 1,
              progress: Callable[[int], None] | None = None,
              executor: Executor | None = None) -> list[tuple[Deal, Game, Game]]:
    """Every deal's pair of games, in deal order: here, on `jobs` processes, or on
    `executor` (a Dask cluster's, say) with chunks sized for `jobs` workers."""
    out: list[tuple[Deal, Game, Game]] = []
    step = max(1, min(25, hands // (8 * jobs) or 1))
    chunks = [(spec, list(range(i, min(i + step, hands)))) for i in range(0, hands, step)]
    with contextlib.ExitStack() as stack:
        if executor is None and jobs > 1:
            executor = stack.enter_context(ProcessPoolExecutor(max_workers=jobs))
        results: Iterator[list[tuple[Deal, Game, Game]]] = (
            map(_play_chunk, chunks) if executor is None
            else executor.map(_play_chunk, chunks))
        for chunk in results:
            out += chunk
            if progress:
                progress(len(out))
    return out


def interval(values: Sequence[float]) -> dict[str, float | None]:
    """Mean and its 95% normal-approximation interval (mean +- 1.96 standard errors); one
    value gives no interval (low and high None), not an infinite one."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return {"mean": mean, "low": None, "high": None}
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return {"mean": mean, "low": mean - half, "high": mean + half}


def budgets(spec: Spec) -> list[dict[str, Any] | None]:
    """What each bot thought with: its node budget (given, or the strong bot's default) or
    its time a move; None for a bot that does not search."""
    from peers.bots.registry import THINKERS
    from peers.bots.strong import DEFAULT_NODES

    return [None if name not in THINKERS else {"think_ms": spec.think_ms}
            if spec.think_ms is not None else {"nodes": nodes or DEFAULT_NODES}
            for name, nodes in zip(spec.bots, spec.nodes, strict=True)]


def _score(game: Game, seat: int) -> float:
    return 0.5 if game.winner is None else float(game.winner == seat)


def _signed(game: Game, seat: int) -> int:
    return 0 if game.winner is None else game.margin_halves * (1 if game.winner == seat else -1)


def first_player_result(game: Game, komi_halves: int) -> tuple[float, int]:
    """(score, signed margin in half pips) of the first player had komi been `komi_halves`.

    Komi only weighs in a blocked hand's pip count (section 8, D6), so a game played at
    komi 0 is rescored exactly; the bots' play, which may depend on komi, is not.
    """
    fp = game.first_player
    if game.reason == "out":
        return _score(game, fp), _signed(game, fp)
    diff = 2 * game.hand_pips[1 - fp] - (2 * game.hand_pips[fp] + komi_halves)
    return (1.0 if diff > 0 else 0.0 if diff < 0 else 0.5), diff


def summarize(spec: Spec, pairs: list[tuple[Deal, Game, Game]]) -> dict[str, Any]:
    """The run's figures; every interval is over deals (a deal's two games are one unit)."""
    s0, s1 = a_seat(spec, 0), a_seat(spec, 1)
    a_scores = [(_score(g0, s0) + _score(g1, s1)) / 2 for _, g0, g1 in pairs]
    a_margins = [(_signed(g0, s0) + _signed(g1, s1)) / 2 for _, g0, g1 in pairs]
    games = [g for _, g0, g1 in pairs for g in (g0, g1)]
    fp_scores = [(_score(g0, g0.first_player) + _score(g1, g1.first_player)) / 2
                 for _, g0, g1 in pairs]
    fp_margins = [(_signed(g0, g0.first_player) + _signed(g1, g1.first_player)) / 2
                  for _, g0, g1 in pairs]
    result: dict[str, Any] = {
        "rules": "bram",
        "engine": "rules only: no keys, shuffles, proofs or transcripts",
        "bots": list(spec.bots),
        "komi_halves": spec.komi_halves,
        "seed": spec.seed,
        "nodes": list(spec.nodes),
        "budgets": budgets(spec),
        "think_ms": spec.think_ms,
        "deals": len(pairs),
        "games": len(games),
        "design": {"name": spec.design, "text": DESIGNS[spec.design]},
        "population": population(spec),
        "ci_method": "normal approximation, mean +- 1.96 standard errors over deals, "
                     f"each deal's two games (design {spec.design}) averaged into one unit",
        "ties": "a draw counts half a win",
        "a": {"win_rate": interval(a_scores), "margin_halves": interval(a_margins),
              "wins": sum(_score(g0, s0) == 1 for _, g0, _ in pairs)
              + sum(_score(g1, s1) == 1 for _, _, g1 in pairs),
              "draws": sum(g.winner is None for g in games)},
        "first_player": {"win_rate": interval(fp_scores), "margin_halves": interval(fp_margins)},
        "reasons": {r: sum(g.reason == r for g in games) for r in ("out", "blocked")},
        "mean_moves": statistics.fmean(g.moves for g in games),
    }
    if same_bot(spec):
        result["komi_sweep"] = komi_sweep(pairs, spec.komi_halves)
    return result


def same_bot(spec: Spec) -> bool:
    """Whether both seats hold the same bot with the same budget (a population)."""
    return spec.bots[0] == spec.bots[1] and spec.nodes[0] == spec.nodes[1]


def population(spec: Spec) -> str:
    """Who plays, in words: one bot in both seats, or two bots against each other."""
    def named(name: str, budget: dict[str, Any] | None) -> str:
        if budget is None:
            return name
        if "think_ms" in budget:
            return f"{name} ({budget['think_ms']:g} ms a move)"
        return f"{name} ({budget['nodes']:,} nodes a move)"

    a, b = (named(n, x) for n, x in zip(spec.bots, budgets(spec), strict=True))
    return f"{a} in both seats" if same_bot(spec) else f"{a} against {b}"


def komi_sweep(pairs: list[tuple[Deal, Game, Game]], played_at: int) -> dict[str, Any]:
    """The first player's win rate rescored at other komi values, and the komi that comes
    closest to 50%. Exact rescoring of the same games, valid as a measurement only near
    the komi they were played at (the bots' play may change with komi)."""
    rows: list[dict[str, Any]] = []
    for k in SWEEP:
        if abs(played_at + k) > KOMI_LIMIT_HALVES:
            continue
        komi = played_at + k
        scores = []
        for _, g0, g1 in pairs:
            # Rescore relative to the komi played: the pips do not change, komi does.
            s0 = first_player_result(g0, komi)[0]
            s1 = first_player_result(g1, komi)[0]
            scores.append((s0 + s1) / 2)
        rows.append({"komi_halves": komi, "first_player_win_rate": interval(scores)})
    best = min(rows, key=lambda r: (abs(r["first_player_win_rate"]["mean"] - 0.5),
                                    abs(r["komi_halves"])))
    return {"played_at_komi_halves": played_at, "closest_to_even": best, "rows": rows}


def render(result: dict[str, Any]) -> str:
    """The figures as a few lines of text."""
    def ci(x: dict[str, Any], scale: float = 1.0, fmt: str = ".3f") -> str:
        if x["low"] is None:
            return f"{x['mean'] * scale:{fmt}} (no interval from one deal)"
        return (f"{x['mean'] * scale:{fmt}} (95% CI {x['low'] * scale:{fmt}} .. "
                f"{x['high'] * scale:{fmt}})")

    a, b = result["bots"]
    design = result["design"]
    lines = [
        f"bram, {a} vs {b}: {result['deals']} deals x 2 games (design {design['name']}), "
        f"komi {halves_text(result['komi_halves'])} pips, seed {result['seed']}; "
        f"{result['engine']}",
        f"design {design['name']}: {design['text']}; every figure below is over this design",
        f"population: {result['population']}",
        f"{a} win rate {ci(result['a']['win_rate'])}, draws count half",
        f"{a} mean margin {ci(result['a']['margin_halves'], 0.5, '.2f')} pips",
        f"first player win rate {ci(result['first_player']['win_rate'])}, mean margin "
        f"{ci(result['first_player']['margin_halves'], 0.5, '.2f')} pips",
        f"games ended: {result['reasons']['out']} out, {result['reasons']['blocked']} "
        f"blocked; {result['mean_moves']:.1f} moves a game",
        f"intervals: {result['ci_method']}",
    ]
    thought = [f"{bot} {', '.join(f'{v} {k}' for k, v in b.items())}"
               for bot, b in zip(result["bots"], result["budgets"], strict=True) if b]
    if thought:
        lines.append(f"search budget: {'; '.join(thought).replace('think_ms', 'ms a move')}")
    sweep = result.get("komi_sweep")
    if sweep:
        best = sweep["closest_to_even"]
        lines.append(f"komi closest to an even first-player win rate: {best['komi_halves']} "
                     f"half pips, first player {ci(best['first_player_win_rate'])} "
                     "(games rescored, not replayed)")
    return "\n".join(lines)

