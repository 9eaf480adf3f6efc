"""The raw group-operation costs and the timer of one protocol step (spec/09-bench.md).

A step's *floor* is the number of group operations it made (counted by
protocol.groups.ops.OPS) times the measured cost of each; `Step.report` gives its median
time, its floor and their ratio.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from nacl import bindings as na
from nacl.signing import SigningKey, VerifyKey

from protocol.groups import Group
from protocol.groups.ops import OPS
from protocol.suite import Suite, v2_suite
from protocol.tags import Tag

OP_NAMES = ("var", "base", "add", "valid", "h2p", "sig")
#: One term of a multi-scalar multiplication, in a suite whose library has one.
MSM_TERM = "msm_term"

#: Every cost and step is timed in this process's CPU time, not wall time: on a shared
#: machine the wall time of a call grows with the other load (seen here under load:
#: wall/CPU 1.0 for an add, 2.0 for a variable-base mult, 6.0 for a base mult), which
#: skewed the floor ratios; CPU time gives the same ratios on a busy machine as on a
#: quiet one (spec/09-bench.md).
clock = time.process_time


def random_scalar() -> int:
    return int.from_bytes(os.urandom(64), "little") % v2_suite().order


def msm_key(size: int) -> str:
    """The cost key of one term of an MSM of `size` terms."""
    return f"{MSM_TERM}/{size}"


def _suite_table(suite: Suite, msm_sizes: Sequence[int]) -> dict[str, Callable[[], object]]:
    """The operations of a suite as its proofs call them (2.5, 3.5, 8.3), and V: the
    floor of a suite's step counts its own operations, timed through its own library.
    Where the library has a multi-scalar multiplication, `msm_term/S` times one term of
    an MSM of S terms for each size S the step uses (Pippenger's cost a term falls as S
    grows, so each size is priced at its own cost)."""
    g, sign = suite.group, suite.signer
    k = random_scalar()
    p, q = g.base_mul(random_scalar()), g.base_mul(random_scalar())
    data, label, seed, message = p.data, os.urandom(16), os.urandom(32), os.urandom(256)
    key, signature = sign.public_key(seed), sign.sign(seed, message, os.urandom(32))
    v_k = k.to_bytes(32, "little")
    v_p = na.crypto_scalarmult_ed25519_base_noclamp(v_k)
    table: dict[str, Callable[[], object]] = {
        "var": lambda: g.mul(k, p),
        "base": lambda: g.base_mul(k),
        "add": lambda: g.add(p, q),
        "valid": lambda: g.decode(data),
        "h2p": lambda: suite.hash_to_point(Tag.GENERATOR, label),
        "sig": lambda: sign.verify(key, message, signature),
        "V": lambda: na.crypto_scalarmult_ed25519_noclamp(v_k, v_p),
    }
    if type(g).msm is not Group.msm:
        for size in msm_sizes:
            scalars = [random_scalar() for _ in range(size)]
            points = [g.base_mul(random_scalar()) for _ in range(size)]
            table[msm_key(size)] = partial(g.msm, scalars, points)
    return table


def _op_table() -> dict[str, Callable[[], object]]:
    k = random_scalar().to_bytes(32, "little")
    p = na.crypto_scalarmult_ed25519_base_noclamp(k)
    q = na.crypto_core_ed25519_from_uniform(os.urandom(32))
    label = os.urandom(16)
    signer = SigningKey(os.urandom(32))
    message = os.urandom(256)
    signature = signer.sign(message).signature
    verifier = bytes(signer.verify_key)
    return {
        "var": lambda: na.crypto_scalarmult_ed25519_noclamp(k, p),
        "base": lambda: na.crypto_scalarmult_ed25519_base_noclamp(k),
        "add": lambda: na.crypto_core_ed25519_add(p, q),
        "valid": lambda: na.crypto_core_ed25519_is_valid_point(p),
        "h2p": lambda: v2_suite().hash_to_point(Tag.GENERATOR, label),
        "sig": lambda: VerifyKey(verifier).verify(message, signature),
    }


def sample_op_costs(samples: dict[str, list[float]], batch: int = 100, batches: int = 2,
                    suite: Suite | None = None, msm_sizes: Sequence[int] = ()) -> None:
    """Append per-call seconds of each raw group operation, one sample per batch: of
    edwards25519 through PyNaCl, or of `suite` through its library (and V beside; and a
    term's share of an MSM of each of `msm_sizes`, where the library has one)."""
    table = _op_table() if suite is None else _suite_table(suite, msm_sizes)
    for name, fn in table.items():
        size = int(name.split("/")[1]) if name.startswith(MSM_TERM) else 1
        calls = max(1, batch // size)
        for _ in range(batches):
            t0 = clock()
            for _ in range(calls):
                fn()
            samples.setdefault(name, []).append((clock() - t0) / calls / size)


class Step:
    """Timing samples and operation counts of one protocol step."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self.ops: dict[str, int] = {}
        self.msm_sizes: dict[int, int] = {}

    def run(self, fn: Callable[[], Any]) -> Any:
        OPS.reset()
        t0 = clock()
        out = fn()
        self.samples.append(clock() - t0)
        self.ops, self.msm_sizes = OPS.snapshot(), dict(OPS.msm_sizes)
        return out

    def run_batch(self, fn: Callable[[], Any], count: int) -> None:
        """Time `count` calls as one sample (per call), for steps too short to time alone."""
        OPS.reset()
        t0 = clock()
        for _ in range(count):
            fn()
        self.samples.append((clock() - t0) / count)
        self.ops = {name: n // count for name, n in OPS.snapshot().items()}
        self.msm_sizes = {size: n // count for size, n in OPS.msm_sizes.items()}

    def report(self, costs: dict[str, float]) -> dict[str, Any]:
        """The median against the floor: the counts times each operation's cost, an MSM's
        terms at the cost a term of its size (KeyError if that size was not sampled)."""
        median = statistics.median(self.samples)
        floor = sum(self.ops[name] * costs[name] for name in OP_NAMES)
        floor += sum(n * size * costs[msm_key(size)] for size, n in self.msm_sizes.items())
        return {"median_ms": median * 1e3, "floor_ms": floor * 1e3,
                "ratio": median / floor if floor else None, "ops": dict(self.ops),
                "runs": len(self.samples)}
