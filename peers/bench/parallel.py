"""How much faster a match verifies on several cores (spec/09-bench.md 9.5).

The rounds of a match are replayed independently and their chain checked after
(protocol/match.py), so `verify --jobs N` hands the rounds to N worker processes.
This measures the same: the wall time of `verify_match` replaying the rounds here,
one after another, and on a fresh pool of N processes (its start-up counted, as the
command pays it too), and checks that both give the same verdict.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from protocol.errors import LocalError
from protocol.match import decode_match, verify_match
from protocol.verifier import replay


def _on_pool(jobs: int, data: bytes) -> Any:
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return verify_match(data, lambda files: list(pool.map(replay, files)))


def measure_parallel_verify(data: bytes, jobs: int, reps: int = 1,
                            progress: Callable[[int, int, str], None] | None = None,
                            ) -> dict[str, Any]:
    """Median wall time of verifying the match `data` with 1 and with `jobs` processes."""
    if jobs < 2:
        raise LocalError("bench/jobs", "a speed-up is measured with 2 jobs or more")
    rounds = len(decode_match(data))
    times: dict[int, list[float]] = {1: [], jobs: []}
    verdicts = {}
    total = 2 * reps
    for rep in range(reps):
        for n in (1, jobs):
            if progress is not None:
                progress(len(times[1]) + len(times[jobs]), total,
                         f"run {rep + 1} with {n} job{'s' if n > 1 else ''}")
            started = time.perf_counter()
            verdict = verify_match(data) if n == 1 else _on_pool(n, data)
            times[n].append(time.perf_counter() - started)
            verdicts[n] = verdict.to_json()
    if progress is not None:
        progress(total, total, "")
    if verdicts[1] != verdicts[jobs]:
        raise LocalError("bench/verdicts", f"--jobs {jobs} gave another verdict than 1 job")
    one, many = statistics.median(times[1]), statistics.median(times[jobs])
    return {"rounds": rounds, "bytes": len(data), "jobs": jobs, "cpus": os.cpu_count(),
            "runs": reps, "verify_1_job_s": round(one, 2),
            "verify_n_jobs_s": round(many, 2), "speedup": round(one / many, 2),
            "exit_code": verdict.exit_code}
