#!/usr/bin/env python3
"""Measurements of the strong bram bot behind spec/rules/bram.md section 11 and the README.

    python tools/bot_study.py versus --deals 200 --nodes 20000 --base-nodes 20000
    python tools/bot_study.py versus --deals 200 --nodes 20000 --pass-weight 0.25 \\
        --baseline current
    python tools/bot_study.py versus --deals 1000 --first 1000 --think-ms 1000 \\
        --cpu-clock --out versus-b.jsonl
    python tools/bot_study.py report versus-a.jsonl versus-b.jsonl
    python tools/bot_study.py pass-rate --deals 100
    python tools/bot_study.py komi-table --deals 2000 --strong-deals 2000,600 \\
        --budgets 2000,20000

`versus` plays duplicate deals (tournament design `seats`) between the strong bot of
this tree (A) and a baseline (B): the strong bot as it is at a git revision (its
peers/bots/strong.py and bram_search.py loaded from `git show`, so the comparison
needs no copy of the old code), or `current` with its own settings. It prints A's
win rate and mean margin with 95% intervals over deals, and the share of A's choices
(moves with more than one legal option) that were searched to the end of the hand.

`pass-rate` plays the strong bot against itself and counts, over its choices while
the hand goes on after a pass (no pass just made), how often it passed while holding
a tile that fits: the rate the bot's pass model (PASS_WITH_PLAY) should weigh a
world by in which the other seat passed holding a fitting tile.

`komi-table` measures the first player's win rate by komi for each population (the
same bot in both seats): random, greedy and the strong bot at each budget, over deals
played in tournament design `first` (the same hands, each seat moving first once) at
the rules' default komi and rescored at the others (exact for random and greedy,
which ignore komi; for the strong bot, which knows the komi, exact only at the komi
played). It prints the markdown table of spec/rules/bram.md section 11.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from peers.bots import tournament  # noqa: E402
from peers.bots.strong import PASS_WITH_PLAY, StrongBot  # noqa: E402
from protocol.rules.base import halves_text  # noqa: E402
from protocol.rules.bram import DEFAULT_KOMI_HALVES  # noqa: E402
from protocol.rules.bram_state import Pass, Play  # noqa: E402
from protocol.seat import SeatView  # noqa: E402

#: The strong bot before issue 19 (the table fix, the solver between iterations, the pass
#: model): the default baseline of `versus`.
BEFORE_19 = "93efcaa"
#: Komi values (half pips) of the komi table's rows.
KOMI_ROWS = range(0, 7)


def load_strong(revision: str) -> type:
    """StrongBot as peers/bots/strong.py and bram_search.py were at `revision`."""
    def source(path: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:{path}"],
                              check=True, capture_output=True, text=True).stdout

    search_name = f"strong_at_{revision}_search"
    modules: list[ModuleType] = []
    for name, text in ((search_name, source("peers/bots/bram_search.py")),
                       (f"strong_at_{revision}", source("peers/bots/strong.py").replace(
                           "peers.bots.bram_search", search_name))):
        spec = importlib.util.spec_from_loader(name, loader=None)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up by name
        exec(compile(text, f"{revision}:{name}", "exec"), module.__dict__)
        modules.append(module)
    bot: type = modules[1].StrongBot
    return bot


class Recorder:
    """Wraps a strong bot: its choices (views with more than one legal move), how many
    it searched to the end, its depths and its time a move, read on `clock`."""

    def __init__(self, bot: Any, clock: Callable[[], float]) -> None:
        self.bot, self.clock, self.choices, self.exact = bot, clock, 0, 0
        self.depths: list[int] = []
        self.seconds: list[float] = []

    def __call__(self, view: SeatView) -> Any:
        start = self.clock()
        move = self.bot(view)
        if len(view.legal) > 1:
            self.seconds.append(self.clock() - start)
            self.choices += 1
            self.exact += bool(self.bot.last_exact)
            self.depths.append(self.bot.last_depth)
        return move

    def record(self) -> dict[str, Any]:
        return {"choices": self.choices, "exact": self.exact, "depths": self.depths,
                "ms": [round(s * 1000, 1) for s in self.seconds]}


def _ci(values: list[float], scale: float = 1.0, fmt: str = ".3f") -> str:
    x = tournament.interval(values)
    mean, low, high = x["mean"], x["low"], x["high"]
    assert mean is not None
    if low is None or high is None:
        return f"{mean * scale:{fmt}}"
    return f"{mean * scale:{fmt}} (95% CI {low * scale:{fmt}} .. {high * scale:{fmt}})"


def _score(game: tournament.Game, seat: int) -> float:
    return 0.5 if game.winner is None else float(game.winner == seat)


def _signed(game: tournament.Game, seat: int) -> int:
    if game.winner is None:
        return 0
    return game.margin_halves if game.winner == seat else -game.margin_halves


def versus(args: argparse.Namespace) -> None:
    """Plays deals --first .. --first + --deals - 1, one JSON line each to --out (deals
    already there are skipped, so a run can be stopped, resumed and split across
    processes), then reports over every deal in --out (`report` joins several)."""
    base = StrongBot if args.baseline == "current" else load_strong(args.baseline)
    clock = time.process_time if args.cpu_clock else time.monotonic
    b_clock = {}
    if args.base_think_ms is not None:
        if "clock" not in inspect.signature(base).parameters:
            raise SystemExit(f"the strong bot at {args.baseline} reads its thinking time on "
                             f"the wall only; give it --base-nodes")
        b_clock = {"clock": clock}

    def budget(nodes: int, think: float | None) -> dict[str, Any]:
        return {"nodes": nodes} if think is None else {"think_ms": think}  # nodes unused

    a_budget = budget(args.nodes, args.think_ms)
    b_budget = budget(args.base_nodes, args.base_think_ms)
    a_extra = {} if args.pass_weight is None else {"pass_weight": args.pass_weight}
    b_extra = {} if args.base_pass_weight is None else {"pass_weight": args.base_pass_weight}
    setting = {"A": f"the strong bot of this tree, {a_budget}{a_extra or ''}",
               "B": f"the strong bot at {args.baseline}, {b_budget}{b_extra or ''}",
               "clock": "process CPU time" if args.cpu_clock else "wall time",
               "komi": args.komi, "seed": args.seed}
    out = Path(args.out) if args.out else None
    earlier = _records([out], resume=True) if out and out.exists() else []
    if any(r["setting"] != setting for r in earlier):
        raise SystemExit(f"{out} holds deals played with another setting; give another --out")
    done = {r["deal"] for r in earlier}
    records = []
    for number in range(args.first, args.first + args.deals):
        if number in done:
            continue
        d = tournament.deal(args.seed, number)
        record: dict[str, Any] = {"deal": number, "setting": setting, "score": 0.0,
                                  "margin": 0.0, "A": [], "B": []}
        for a_seat in (0, 1):
            rng = [random.Random(f"bot_study {args.seed} deal {number} game {a_seat} seat {s}")
                   for s in (0, 1)]
            a = Recorder(StrongBot(rng[a_seat], **a_budget, **a_extra, clock=clock), clock)
            b = Recorder(base(rng[1 - a_seat], **b_budget, **b_extra, **b_clock), clock)
            bots = [a, b] if a_seat == 0 else [b, a]
            game = tournament.play(d, bots, args.komi)
            record["score"] += _score(game, a_seat) / 2
            record["margin"] += _signed(game, a_seat) / 2
            record["A"].append(a.record())
            record["B"].append(b.record())
        records.append(record)
        if out:
            with out.open("a") as f:
                f.write(json.dumps(record) + "\n")
    report(records if not out else _records([out]))


def _records(paths: list[Path], resume: bool = False) -> list[dict[str, Any]]:
    """Every deal in the files, in order; a deal found twice is refused. A last line cut
    short (a run killed while writing it) is skipped; a run resuming (`resume`) also
    drops it from its file, so the deal is played again."""
    by_deal: dict[int, dict[str, Any]] = {}
    for path in paths:
        text = path.read_text()
        if not text.endswith("\n"):
            text = text[:text.rfind("\n") + 1]
            if resume:
                path.write_text(text)
        for line in text.splitlines():
            r = json.loads(line)
            if r["deal"] in by_deal:
                raise SystemExit(f"deal {r['deal']} is in the files twice ({path})")
            by_deal[r["deal"]] = r
    return [by_deal[k] for k in sorted(by_deal)]


def _ratio(per_deal: list[tuple[int, int]], fmt: str) -> str:
    """A ratio of sums over deals (the unit of sampling) of (of how many, how many), with
    its 95% interval by the delta method when there are two deals or more."""
    whole = sum(n for n, _ in per_deal)
    if not whole:
        raise SystemExit("nothing to count: no choices in these deals")
    rate = sum(k for _, k in per_deal) / whole
    if len(per_deal) < 2:
        return f"{rate:{fmt}}"
    resid = [k - rate * n for n, k in per_deal]
    half = tournament.Z95 * statistics.stdev(resid) * len(per_deal) ** 0.5 / whole
    return f"{rate:{fmt}} (95% CI {max(0.0, rate - half):{fmt}} .. {min(1.0, rate + half):{fmt}})"


def report(records: list[dict[str, Any]]) -> None:
    if not records:
        raise SystemExit("no deals to report")
    settings = {json.dumps(r["setting"], sort_keys=True) for r in records}
    if len(settings) != 1:
        raise SystemExit(f"the records mix {len(settings)} settings; report one at a time")
    setting = records[0]["setting"]
    numbers = [r["deal"] for r in records]
    print(f"A: {setting['A']}; B: {setting['B']}; thinking times read on {setting['clock']}")
    print(f"{len(records)} deals x 2 games (design seats; deals {min(numbers)} .. "
          f"{max(numbers)}), komi {halves_text(setting['komi'])} pips, seed {setting['seed']}")
    print(f"A win rate {_ci([r['score'] for r in records])}, draws count half; A mean margin "
          f"{_ci([r['margin'] for r in records], 0.5, '.2f')} pips")
    for who in ("A", "B"):
        games = [g for r in records for g in r[who]]
        choices = sum(g["choices"] for g in games)
        exact = sum(g["exact"] for g in games)
        per_deal = [(sum(g["choices"] for g in r[who]), sum(g["exact"] for g in r[who]))
                    for r in records]
        ms = [m for g in games for m in g["ms"]]
        depths = [x for g in games for x in g["depths"]]
        print(f"{who}'s choices searched to the end (as {who} reports it): {exact} of {choices}: "
              f"{_ratio(per_deal, '.1%')}; median depth {statistics.median(depths)}; median "
              f"{statistics.median(ms):.0f} ms, mean {statistics.fmean(ms):.0f} ms a choice")


def report_files(args: argparse.Namespace) -> None:
    report(_records([Path(p) for p in args.files]))


def pass_rate(args: argparse.Namespace) -> None:
    """Over the strong bot's self-play: how often it passes holding a play, no pass just
    made (the only pass the other seat can see and the hand survive)."""
    counts = {"play_in_hand": 0, "passed_with_play": 0, "passes": 0}
    per_deal: list[tuple[int, int]] = []

    def counting(bot: Callable[[SeatView], Any]) -> Callable[[SeatView], Any]:
        def choose(view: SeatView) -> Any:
            move = bot(view)
            if getattr(view.rules_state, "passes", 1) == 0:
                held = any(isinstance(m, Play) for m in view.legal)
                counts["play_in_hand"] += held
                counts["passes"] += isinstance(move, Pass)
                counts["passed_with_play"] += held and isinstance(move, Pass)
            return move
        return choose

    for number in range(args.deals):
        before = counts["play_in_hand"], counts["passed_with_play"]
        d = tournament.deal(args.seed, number)
        for game in (0, 1):
            bots = [counting(StrongBot(random.Random(f"pass_rate {args.seed} {number} {game} {s}"),
                                       args.nodes, pass_weight=args.pass_weight))
                    for s in (0, 1)]
            tournament.play(d if not game else tournament.Deal(
                d.hands, d.hidden, 1 - d.first_player), bots, args.komi)
        per_deal.append((counts["play_in_hand"] - before[0],
                         counts["passed_with_play"] - before[1]))
    held, passed = counts["play_in_hand"], counts["passed_with_play"]
    print(f"strong bot ({args.nodes} nodes, pass weight {args.pass_weight}) against itself: "
          f"{args.deals} deals x 2 games (design first), komi {halves_text(args.komi)} pips, "
          f"seed {args.seed}")
    print(f"choices with no pass just made, holding a play: {held}; passed: {passed}; "
          f"rate {_ratio(per_deal, '.3f')}, over deals")
    print(f"passes with no pass just made: {counts['passes']}, of which holding a play "
          f"{passed / max(1, counts['passes']):.1%}")


def komi_table(args: argparse.Namespace) -> None:
    populations: list[tuple[str, int | None, int]] = [("random", None, args.deals),
                                                      ("greedy", None, args.deals)]
    budgets = [int(b) for b in args.budgets.split(",")]
    strong = [int(n) for n in args.strong_deals.split(",")]
    if len(strong) not in (1, len(budgets)):
        raise SystemExit("--strong-deals: one number of deals, or one a budget")
    strong *= len(budgets) // len(strong)
    populations += [("strong", b, n) for b, n in zip(budgets, strong, strict=True)]
    columns = []
    for name, nodes, deals in populations:
        spec = tournament.Spec((name, name), DEFAULT_KOMI_HALVES, args.seed, (nodes, nodes),
                               None, "first")
        started = time.perf_counter()
        pairs = tournament.run_pairs(spec, deals)
        sweep = tournament.komi_sweep(pairs, DEFAULT_KOMI_HALVES)
        rows = {r["komi_halves"]: r["first_player_win_rate"] for r in sweep["rows"]}
        even = [k for k, r in sorted(rows.items()) if r["low"] <= 0.5 <= r["high"]]
        label = name if nodes is None else f"strong, {nodes:,} nodes"
        columns.append((label, deals, rows, even))
        swept = min(rows), max(rows)
        print(f"{label}: {deals} deals in {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
    print("| komi (pips) | " + " | ".join(f"{c[0]} ({c[1]:,} deals)" for c in columns) + " |")
    print("| --- |" + " --- |" * len(columns))
    for k in KOMI_ROWS:
        cells = []
        for _, _, rows, _ in columns:
            r = rows[k]
            mark = "**" if k == DEFAULT_KOMI_HALVES else ""
            cells.append(f"{mark}{r['mean']:.2%} ({r['low']:.2%} .. {r['high']:.2%}){mark}")
        print(f"| {halves_text(k)} | " + " | ".join(cells) + " |")
    print()
    for label, _, _, even in columns:
        runs = _runs(even)
        print(f"- {label}: 95% interval contains 50% at komi "
              f"{', '.join(runs) if runs else 'none'} (of {halves_text(swept[0])} .. "
              f"{halves_text(swept[1])} pips)")


def _runs(komis: list[int]) -> list[str]:
    """Consecutive komi values (half pips) as ranges of pips."""
    out: list[list[int]] = []
    for k in komis:
        if out and k == out[-1][-1] + 1:
            out[-1].append(k)
        else:
            out.append([k])
    return [halves_text(r[0]) if len(r) == 1 else f"{halves_text(r[0])} .. {halves_text(r[-1])}"
            for r in out]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(required=True)
    p = sub.add_parser("versus", help="this tree's strong bot against a baseline")
    p.add_argument("--baseline", default=BEFORE_19,
                   help=f"a git revision, or current (default {BEFORE_19}, before issue 19)")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--komi", type=int, default=DEFAULT_KOMI_HALVES, help="half pips")
    p.add_argument("--nodes", type=int, default=20000)
    p.add_argument("--think-ms", type=float, default=None)
    p.add_argument("--pass-weight", type=float, default=None)
    p.add_argument("--base-nodes", type=int, default=20000)
    p.add_argument("--base-think-ms", type=float, default=None)
    p.add_argument("--base-pass-weight", type=float, default=None)
    p.add_argument("--first", type=int, default=0, help="the first deal's number")
    p.add_argument("--out", help="a JSON-lines file of deals played: appended to, resumed from")
    p.add_argument("--cpu-clock", action="store_true",
                   help="read --think-ms on the process's CPU time, so a busy machine does "
                        "not weaken the bot (wall time otherwise, as against a person)")
    p.set_defaults(func=versus)
    p = sub.add_parser("report", help="the versus report over the deals in JSON-lines files")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=report_files)
    p = sub.add_parser("pass-rate", help="how often the strong bot passes holding a play")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--komi", type=int, default=DEFAULT_KOMI_HALVES, help="half pips")
    p.add_argument("--nodes", type=int, default=20000)
    p.add_argument("--pass-weight", type=float, default=PASS_WITH_PLAY)
    p.set_defaults(func=pass_rate)
    p = sub.add_parser("komi-table", help="the first player's win rate by komi, by population")
    p.add_argument("--deals", type=int, default=2000, help="deals for random and greedy")
    p.add_argument("--strong-deals", default="200",
                   help="deals for the strong bot: one number, or one a budget (N,N)")
    p.add_argument("--budgets", default="2000,20000", help="the strong bot's node budgets")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=komi_table)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
