"""`dealerless bench` for each ciphersuite (spec/09-bench.md, spec/03-hashing.md 3.5): the
shuffle at every N, the DLEQ share and the worst "cannot play" claim, each against the
floor of its own suite, its operation counts times its own operations' costs.

The costs are sampled through the suite's library beside each step (`sample_op_costs`
with the suite), and V, one variable-base multiplication of edwards25519 through PyNaCl,
is sampled with them, so that V per tile compares suites and machines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from peers.bench.steps import (
    _cannot_play_report,
    _medians,
    _shuffle_report,
    bench_cannot_play,
    bench_dleq,
    bench_shuffle,
)
from protocol.suite import SUITE_NAMES, suite
from protocol.version import PROTOCOL


def run_suite(name: str, reps: int, sizes: tuple[int, ...],
              tick: Callable[[], None]) -> dict[str, Any]:
    """One suite's figures, and its `floor_ratio_max` over every proof's prove and verify."""
    chosen = suite(name, PROTOCOL)
    shuffles = {}
    for n in sizes:
        tick()
        local: dict[str, list[float]] = {}
        steps, proof_len = bench_shuffle(n, reps, local, chosen)
        shuffles[str(n)] = _shuffle_report(n, steps, proof_len, _medians(local))
    tick()
    local = {}
    dleq_steps = bench_dleq(reps, local, suite=chosen)
    costs = _medians(local)
    dleq = {step: s.report(costs) for step, s in dleq_steps.items()}
    tick()
    local = {}
    cp_steps, cp_stmt, cp_size = bench_cannot_play(reps, local, chosen)
    cannot_play = _cannot_play_report(cp_steps, cp_stmt, cp_size, _medians(local))
    ratios = [*(s["ratio"] for s in dleq.values()),
              *(r[step]["ratio"] for r in (cannot_play, *shuffles.values())
                for step in ("prove", "verify"))]
    return {"floor_ratio_max": max(ratios),
            "shuffle_V_per_tile": {n: rep["V_per_tile"] for n, rep in shuffles.items()},
            "cannot_play_V": {step: cannot_play[step]["V"] for step in ("prove", "verify")},
            "shuffle": shuffles, "dleq": dleq, "cannot_play": cannot_play}


def run_suites(reps: int, sizes: tuple[int, ...], tick: Callable[[], None]) -> dict[str, Any]:
    """`suites`: every suite's figures, by name."""
    return {name: run_suite(name, reps, sizes, tick) for name in SUITE_NAMES}


def suite_lines(result: dict[str, Any]) -> list[str]:
    """The per-suite table of the human-readable report."""
    sizes = list(next(iter(result["suites"].values()))["shuffle_V_per_tile"])
    lines = ["ciphersuites (V per tile of a shuffle, prove and verify; each suite's own "
             "floor):",
             f"  {'suite':<20}" + "".join(f"{'N=' + n:>8}" for n in sizes)
             + f"{'floor max':>11}"]
    for name, rep in result["suites"].items():
        lines.append(f"  {name:<20}" + "".join(f"{rep['shuffle_V_per_tile'][n]:8.1f}"
                                               for n in sizes)
                     + f"{rep['floor_ratio_max']:11.2f}")
    return lines
