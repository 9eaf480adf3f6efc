"""Sealed commitments in `dealerless bench` (spec/06-proofs.md 6.6.9, spec/09-bench.md).

For m recipients (4: a five-seat table; 7: an eight-seat one) every step of a seal is
timed against its operation-count floor: `deal`; `verify` (the seal from its wire bytes:
msgpack, strict decoding, every share proof); `open` (the committer's secret from its 32
bytes, the check against C_0, decryption, unpadding); `share` (one recipient's
decryption share and proof); `verify_share` (one share from its wire bytes); `combine`
(t verified shares to the unpadded plaintext). The plaintext is a COMMIT's: 192 bytes
(protocol.sealed.PLAINTEXT_BYTES, spec/10-session.md 10.8), filled to its end.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from peers.bench.ops import Step, random_scalar, sample_op_costs
from protocol.canonical import pack, unpack
from protocol.seal import (
    DecryptionShare,
    Seal,
    SealContext,
    combine,
    deal,
    decode_secret,
    decryption_share,
    open_with_secret,
    pad,
    seal_context,
    seal_generator,
    seal_secret,
    unpad,
    verify_decryption_share,
    verify_seal,
)
from protocol.sealed import PLAINTEXT_BYTES
from protocol.suite import Suite, v2_suite

RECIPIENTS = (4, 7)
SIZE = PLAINTEXT_BYTES
STEPS = ("deal", "verify", "open", "share", "verify_share", "combine")
#: Calls timed together as one sample: a single short step is too quick to time alone.
BATCH = {"deal": 5, "verify": 5, "open": 20, "share": 20, "verify_share": 20, "combine": 20}


def _step_calls(m: int, suite: Suite | None = None) -> dict[str, Callable[[], Any]]:
    """One call of each step on a fresh seal of seat 0 for seats 1..m."""
    suite = suite or v2_suite()
    xs = {j: random_scalar() for j in range(1, m + 1)}
    ctx: SealContext = seal_context(suite, os.urandom(32), 1, 0,
                                    [(j, suite.group.base_mul(x)) for j, x in xs.items()])
    nonce = os.urandom(32)
    plaintext = pad(os.urandom(SIZE - 2), SIZE)
    seal = deal(ctx, nonce, plaintext, os.urandom(32))
    wire = pack(seal.encode(suite))
    secret = suite.encode_scalar(seal_secret(ctx, nonce))
    shares = {j: decryption_share(ctx, seal, j, xs[j], os.urandom(32)) for j in xs}
    share_wire = pack(shares[1].encode(suite))
    points = {j: shares[j].point for j in list(xs)[:ctx.t]}

    def verify() -> None:
        verify_seal(ctx, Seal.decode(unpack(wire, 1 << 16), ctx, SIZE))

    def verify_share() -> None:
        verify_decryption_share(ctx, seal, 1, DecryptionShare.decode(suite, unpack(share_wire, 256),
                                                                       1))

    return {
        "deal": lambda: deal(ctx, nonce, plaintext, os.urandom(32)),
        "verify": verify,
        "open": lambda: unpad(open_with_secret(ctx, seal, decode_secret(ctx, secret)), 0),
        "share": lambda: decryption_share(ctx, seal, 1, xs[1], os.urandom(32)),
        "verify_share": verify_share,
        "combine": lambda: unpad(combine(ctx, seal, points), 0),
    }


def bench_seal(m: int, reps: int, op_samples: dict[str, dict[str, list[float]]],
               suite: Suite | None = None) -> dict[str, Step]:
    """Each step's samples alternate with samples of the operation costs, kept per step
    in `op_samples[step]`: one call lasts well under a millisecond, so a step is
    compared with the costs measured right next to it."""
    suite = suite or v2_suite()
    seal_generator(suite)  # Hs is a constant of the protocol, derived once per process
    steps = {name: Step() for name in STEPS}
    for rep in range(reps + 1):  # one untimed warm-up round
        for name, call in _step_calls(m, suite).items():
            sample_op_costs(op_samples.setdefault(name, {}), batch=50)
            steps[name].run_batch(call, BATCH[name])
        if rep == 0:
            for step in steps.values():
                step.samples.clear()
    return steps


def run_seal(reps: int, everything: dict[str, list[float]],
             medians: Callable[[dict[str, list[float]]], dict[str, float]]) -> dict[str, Any]:
    """The `seal` report (per m, per step) and `seal_floor_ratio`, the largest ratio."""
    out: dict[str, Any] = {}
    for m in RECIPIENTS:
        local: dict[str, dict[str, list[float]]] = {}
        steps = bench_seal(m, reps, local)
        out[str(m)] = {name: step.report(medians(local[name])) for name, step in steps.items()}
        pooled: dict[str, list[float]] = {}
        for per_step in local.values():
            for name, v in per_step.items():
                pooled.setdefault(name, []).extend(v)
                everything.setdefault(name, []).extend(v)
        out[str(m)].update({"m": m, "t": m // 2 + 1, "size": SIZE,
                            "op_costs_us": {k: v * 1e6 for k, v in medians(pooled).items()}})
    ratio = max(rep[name]["ratio"] for rep in out.values() for name in STEPS)
    return {"seal": out, "seal_floor_ratio": ratio}


def seal_lines(result: dict[str, Any]) -> list[str]:
    lines = ["", f"sealed commitments (6.6; {SIZE}-byte plaintext, median per call):"]
    for m, rep in result["seal"].items():
        lines.append(f"  m = {m}, t = {rep['t']}:")
        for name in STEPS:
            s = rep[name]
            lines.append(f"    {name:<13} {s['median_ms']:8.3f} ms  floor {s['floor_ms']:8.3f}"
                         f"  ratio {s['ratio']:5.2f}  ops {s['ops']}")
    lines.append(f"seal_floor_ratio   {result['seal_floor_ratio']:.2f}")
    return lines
