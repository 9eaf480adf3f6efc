"""Chaum-Pedersen proof of equal discrete logarithms (a decryption share), spec 6.3.

dleq_prove reproduces the vectors' proofs; dleq_verify reads a proof as the vectors give
it and returns A', B'; check_dleq is the transcript verifier's, on an entry already decoded
(8.5, 10.4 DEAL, MOVE, DRAW, REVEAL).
"""

from __future__ import annotations

from typing import Any

from independent.errors import fail, fail_err
from independent.group.hashing import H_scalar, T, nonce
from independent.group.ops import G, L, bmul, decode_point, decode_scalar, sc, smul, sub


def dleq_prove(x: int, c1: bytes, ctx: bytes, fresh: bytes) -> dict[str, Any]:
    y, d = bmul(x), smul(x, c1)
    k = nonce(T["DLEQ"], sc(x), ctx + y + c1, fresh, 0)
    a, b = bmul(k), smul(k, c1)
    c = H_scalar(T["DLEQ"], ctx, G, y, c1, d, a, b)
    return {"share": d, "nonce": k, "A": a, "B": b, "c": c, "s": (k + c * x) % L}


def dleq_verify(y_b: bytes, c1_b: bytes, d_b: bytes, proof: bytes, ctx: bytes) -> tuple:
    y, c1, d = decode_point(y_b), decode_point(c1_b), decode_point(d_b)
    if len(proof) != 64:
        fail("dleq/length")
    c, s = decode_scalar(proof[:32]), decode_scalar(proof[32:])
    a = sub(bmul(s), smul(c, y))
    b = sub(smul(s, c1), smul(c, d))
    if H_scalar(T["DLEQ"], ctx, G, y, c1, d, a, b) != c:
        fail("dleq/challenge")
    return a, b


def check_dleq(y: bytes, c1: bytes, d: bytes, proof: tuple[int, int], ctx: bytes) -> None:
    c, s = proof
    a = sub(bmul(s), smul(c, y))
    b = sub(smul(s, c1), smul(c, d))
    if H_scalar(T["DLEQ"], ctx, G, y, c1, d, a, b) != c:
        fail_err("dleq/challenge", "recomputed challenge differs: share proof invalid")
