"""The groups of the coming ciphersuites in `dealerless bench` (spec/02-group.md 2.5,
spec/09-bench.md): what each operation of each group costs, in V.

V is one variable-base multiplication of edwards25519 through PyNaCl, sampled in the
same run (`sample_op_costs`), so the figures compare across machines. Each operation is
timed through protocol.groups, as a suite will call it: `mul` (a variable-base
multiplication), `base_mul`, `add`, `decode` (the strict decoding of a received element,
2.5), the hash to the group (`hash_to_group`, or edwards25519's `from_uniform` of 3.3),
and one term of a multi-scalar multiplication of MSM_TERMS points.
"""

from __future__ import annotations

import hashlib
import os
import statistics
from collections.abc import Callable
from typing import Any

from peers.bench.ops import clock, random_scalar, sample_op_costs
from protocol.groups import GROUPS, HashedGroup, group
from protocol.groups.edwards25519 import GROUP as EDWARDS

#: The MSM size timed: the points of a 91-tile shuffle verification's largest equation
#: (2N), about where a batched verifier's MSMs sit.
MSM_TERMS = 182


def _ops(name: str) -> dict[str, Callable[[], object]]:
    g = group(name)
    k = random_scalar()
    p = g.base_mul(random_scalar())
    q = g.base_mul(random_scalar())
    data = p.data
    scalars = [random_scalar() for _ in range(MSM_TERMS)]
    points = [g.base_mul(random_scalar()) for _ in range(MSM_TERMS)]
    msg = os.urandom(32)
    if isinstance(g, HashedGroup):
        def to_group() -> object:
            return g.hash_to_group(msg, b"dealerless-bench")
    else:   # edwards25519 derives points by 3.3's from_uniform
        uniform = hashlib.sha512(msg).digest()[:32]

        def to_group() -> object:
            return EDWARDS.from_uniform(uniform)
    return {
        "mul": lambda: g.mul(k, p),
        "base_mul": lambda: g.base_mul(k),
        "add": lambda: g.add(p, q),
        "decode": lambda: g.decode(data),
        "hash": to_group,
        "msm_term": lambda: g.msm(scalars, points),
    }


def run_groups(reps: int) -> dict[str, Any]:
    """`group_costs_V`: per group, the median cost of each operation in V (an MSM's per
    term), and the V they were measured against, in microseconds."""
    v_samples: dict[str, list[float]] = {}
    costs: dict[str, dict[str, float]] = {}
    for name in sorted(GROUPS):
        samples: dict[str, list[float]] = {}
        for op, fn in _ops(name).items():
            batch = 1 if op == "msm_term" else 50
            for _ in range(max(3, reps)):
                t0 = clock()
                for _ in range(batch):
                    fn()
                per = (clock() - t0) / batch
                samples.setdefault(op, []).append(per / MSM_TERMS if op == "msm_term"
                                                  else per)
            sample_op_costs(v_samples, batches=1)
        costs[name] = {op: statistics.median(s) for op, s in samples.items()}
    v = statistics.median(v_samples["var"])
    return {"group_costs_V": {name: {op: round(s / v, 3) for op, s in ops.items()}
                              for name, ops in costs.items()},
            "group_V_us": v * 1e6, "group_msm_terms": MSM_TERMS}


def group_lines(result: dict[str, Any]) -> list[str]:
    """The table of `run_groups` for the human-readable report."""
    table = result["group_costs_V"]
    ops = list(next(iter(table.values())))
    lines = [f"groups of the coming suites (V = {result['group_V_us']:.1f} us; msm_term at "
             f"{result['group_msm_terms']} points):",
             f"  {'group':<13}" + "".join(f"{op:>10}" for op in ops)]
    for name, row in table.items():
        lines.append(f"  {name:<13}" + "".join(f"{row[op]:10.3f}" for op in ops))
    return lines
