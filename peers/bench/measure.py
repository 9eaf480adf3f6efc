"""`dealerless bench`: measured costs, operation-count floors and their ratios.

Theory of operation
-------------------
First the cost of each group operation is measured in isolation (median of
several batches). Then each protocol step runs several times; its median time
is compared with its *floor*: the number of group operations it performed
(counted by protocol.groups.ops.OPS) times the measured cost of each. The ratio
says how much the step spends beyond the unavoidable group arithmetic (Python
overhead, hashing, encoding). See spec/09-bench.md for every figure's meaning.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from typing import Any

from peers.bench.groups import run_groups
from peers.bench.ops import Step, sample_op_costs
from peers.bench.seal import run_seal
from peers.bench.steps import (
    _cannot_play_report,
    _medians,
    _shuffle_report,
    bench_cannot_play,
    bench_dleq,
    bench_shuffle,
)
from peers.bench.suites import run_suites
from peers.entropy import Entropy
from peers.table.selfplay import Table, selfplay
from protocol.state import Phase
from protocol.suite import SUITE_NAMES, v2_suite
from protocol.verifier import replay


def bench_game(reps: int, op_samples: dict[str, list[float]]) -> dict[str, Any]:
    """Self-play a Bram game, then verify its transcript (spec/09-bench.md)."""
    play, verify = Step(), Step()
    size = frames = 0
    for _ in range(reps):
        sample_op_costs(op_samples)
        transcript = play.run(lambda: selfplay("bram", {}, ("greedy", "greedy"),
                                                   in_suite=v2_suite()))
        data = transcript.encode()
        size, frames = len(data), len(transcript.frames)
        verdict = verify.run(partial(replay, data))
        if verdict.exit_code != 0:
            raise RuntimeError(f"bench game did not verify: {verdict.violation}")
    costs = _medians(op_samples)
    return {"selfplay": play.report(costs), "verify": verify.report(costs),
            "transcript_bytes": size, "frames": frames,
            "op_costs_us": {name: us * 1e6 for name, us in costs.items()}}


TABLE_RULES = "mexican-train"


def _table_round(seats: int, setup: Step) -> bytes:
    """One Mexican Train round for `seats` greedy bots, every frame checked once by one
    referee (what the slowest seat waits for: each seat's own work, then everyone's check
    of it, in turn); `setup` times keys, nonces, every shuffle and the deal."""
    table = Table.create(TABLE_RULES, {"seats": seats}, ("greedy",) * seats, Entropy(),
                         in_suite=v2_suite())
    ref = table.referees[0]

    def until(phase: Phase | None) -> None:
        while (due := ref.awaiting) is not None and ref.state.phase is not phase:
            seat = due[0]
            ref.receive(table.agents[seat].next_frame(ref.state, os.urandom(32),
                                                      table.choosers[seat]))

    setup.run(partial(until, Phase.PLAY))
    until(None)
    return ref.transcript().encode()


def bench_table(seats: int, reps: int, op_samples: dict[str, list[float]]) -> dict[str, Any]:
    """A k-seat double-twelve table (spec/09-bench.md): the set-up, then verifying a whole
    round from its transcript."""
    setup, verify = Step(), Step()
    data = b""
    for _ in range(reps):
        sample_op_costs(op_samples)
        data = _table_round(seats, setup)
    for _ in range(reps):
        sample_op_costs(op_samples)
        verdict = verify.run(partial(replay, data))
        if verdict.exit_code != 0:
            raise RuntimeError(f"bench round did not verify: {verdict.violation}")
    costs = _medians(op_samples)
    return {"rules": TABLE_RULES, "seats": seats, "tiles": 91, "setup": setup.report(costs),
            "round_verify": verify.report(costs), "transcript_bytes": len(data),
            "frames": verdict.frames}


def run(reps: int = 9, sizes: tuple[int, ...] = (28, 55, 91), game: bool = True,
        table_seats: int = 8, progress: Callable[[int, int, str], None] | None = None,
        ) -> dict[str, Any]:
    """Every figure of spec/09-bench.md; `progress(steps done, steps, the next step)`."""
    # Clock speed drifts on shared machines, so the operation costs are sampled
    # between the runs of each step, and each step is compared with the costs
    # measured alongside it.
    names = [f"shuffle N={n}" for n in sizes] + ["DLEQ", "cannot play"]
    names += [f"{s}: {step}" for s in SUITE_NAMES
              for step in (*(f"shuffle N={n}" for n in sizes), "DLEQ", "cannot play")]
    names += ["a Bram game", f"a {table_seats}-seat table"] if game else []
    counter = iter(range(len(names) + 1))

    def tick() -> None:
        done = next(counter)
        if progress is not None:
            progress(done, len(names), names[done] if done < len(names) else "")

    everything: dict[str, list[float]] = {}
    shuffles = {}
    for n in sizes:
        tick()
        local: dict[str, list[float]] = {}
        steps, proof_len = bench_shuffle(n, reps, local)
        shuffles[str(n)] = _shuffle_report(n, steps, proof_len, _medians(local))
        for name, v in local.items():
            everything.setdefault(name, []).extend(v)
    tick()
    local = {}
    dleq_steps = bench_dleq(reps, local)
    dleq_costs = _medians(local)
    dleq = {name: step.report(dleq_costs) for name, step in dleq_steps.items()}
    for name, v in local.items():
        everything.setdefault(name, []).extend(v)
    tick()
    local = {}
    cp_steps, cp_stmt, cp_size = bench_cannot_play(reps, local)
    cannot_play = _cannot_play_report(cp_steps, cp_stmt, cp_size, _medians(local))
    for name, v in local.items():
        everything.setdefault(name, []).extend(v)
    sealed = run_seal(reps, everything, _medians)
    groups = run_groups(reps)
    suites = run_suites(reps, sizes, tick)
    ratios = [*(s["ratio"] for s in dleq.values()),
              cannot_play["prove"]["ratio"], cannot_play["verify"]["ratio"]]
    for rep in shuffles.values():
        ratios += [rep["prove"]["ratio"], rep["verify"]["ratio"]]
    extra: dict[str, Any] = {}
    if game:
        tick()
        local = {}
        extra["game"] = bench_game(max(3, reps // 2), local)
        extra["game_verify_floor_ratio"] = extra["game"]["verify"]["ratio"]
        tick()
        extra["table"] = bench_table(table_seats, max(2, reps // 3), local)
        extra["table_setup_ms"] = extra["table"]["setup"]["median_ms"]
        extra["table_verify_floor_ratio"] = extra["table"]["round_verify"]["ratio"]
        for name, v in local.items():
            everything.setdefault(name, []).extend(v)
    tick()
    return {
        **extra,
        "floor_ratio_max": max(ratios),
        "shuffle_V_per_tile": {n: rep["V_per_tile"] for n, rep in shuffles.items()},
        "op_costs_us": {name: us * 1e6 for name, us in _medians(everything).items()},
        "shuffle": shuffles,
        "dleq": dleq,
        "cannot_play": cannot_play,
        "cannot_play_V": {step: cannot_play[step]["V"] for step in ("prove", "verify")},
        "cannot_play_floor_ratio": max(cannot_play["prove"]["ratio"],
                                       cannot_play["verify"]["ratio"]),
        **sealed,
        **groups,
        "suites": suites,
        "reps": reps,
    }

