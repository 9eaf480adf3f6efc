"""Chaum-Pedersen proof of equal discrete logarithms (a decryption share), spec 6.3, in a
game's suite (3.5).

dleq_prove reproduces the vectors' proofs; dleq_verify reads a proof as the vectors give it
and returns A', B'; check_dleq is the transcript verifier's, on an entry already decoded
(8.5, 10.4 DEAL, MOVE, DRAW, REVEAL).
"""

from __future__ import annotations

from typing import Any

from independent.errors import fail, fail_err
from independent.group.suites import Suite


def dleq_prove(s: Suite, x: int, c1: bytes, ctx: bytes, fresh: bytes) -> dict[str, Any]:
    o = s.ops
    y, d = o.base(x), o.mul(x, c1)
    k = s.nonce(b"dealerless/challenge/dleq", o.sc(x), ctx + y + c1, fresh, 0)
    a, b = o.base(k), o.mul(k, c1)
    c = s.H_scalar("DLEQ", ctx, o.G, y, c1, d, a, b)
    return {"share": d, "nonce": k, "A": a, "B": b, "c": c, "s": (k + c * x) % o.L}


def _commitments(s: Suite, y: bytes, c1: bytes, d: bytes, c: int,
                 z: int) -> tuple[bytes, bytes]:
    o = s.ops
    return o.sub(o.base(z), o.mul(c, y)), o.msm([z, -c], [c1, d])


def dleq_verify(s: Suite, y_b: bytes, c1_b: bytes, d_b: bytes, proof: bytes,
                ctx: bytes) -> tuple[bytes, bytes]:
    o = s.ops
    y, c1, d = o.accept(y_b), o.accept(c1_b), o.accept(d_b)
    if len(proof) != 64:
        fail("dleq/length")
    c, z = o.scalar(proof[:32]), o.scalar(proof[32:])
    a, b = _commitments(s, y, c1, d, c, z)
    if s.H_scalar("DLEQ", ctx, o.G, y, c1, d, a, b) != c:
        fail("dleq/challenge")
    return a, b


def check_dleq(s: Suite, y: bytes, c1: bytes, d: bytes, proof: tuple[int, int],
               ctx: bytes) -> None:
    c, z = proof
    a, b = _commitments(s, y, c1, d, c, z)
    if s.H_scalar("DLEQ", ctx, s.ops.G, y, c1, d, a, b) != c:
        fail_err("dleq/challenge", "recomputed challenge differs: share proof invalid")
