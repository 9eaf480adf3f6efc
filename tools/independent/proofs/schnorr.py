"""Schnorr proof of knowledge of a key, spec/06-proofs.md 6.2.

schnorr_prove reproduces the vectors' proofs from their `fresh` (3.4 hedged nonce);
schnorr_verify reads a proof as the vectors give it and returns R'; check_schnorr is the
transcript verifier's, on a KEY body already decoded (8.5, 10.4).
"""

from __future__ import annotations

from typing import Any

from independent.errors import fail, fail_err
from independent.group.hashing import H_scalar, T, nonce
from independent.group.ops import G, L, bmul, decode_point, decode_scalar, sc, smul, sub


def schnorr_prove(x: int, ctx: bytes, fresh: bytes) -> dict[str, Any]:
    y = bmul(x)
    k = nonce(T["SCHNORR"], sc(x), ctx + y, fresh, 0)
    r = bmul(k)
    c = H_scalar(T["SCHNORR"], ctx, G, y, r)
    return {"nonce": k, "R": r, "c": c, "s": (k + c * x) % L}


def schnorr_verify(y_b: bytes, proof: bytes, ctx: bytes) -> bytes:
    y = decode_point(y_b)
    if len(proof) != 64:
        fail("schnorr/length")
    c, s = decode_scalar(proof[:32]), decode_scalar(proof[32:])
    r = sub(bmul(s), smul(c, y))
    if H_scalar(T["SCHNORR"], ctx, G, y, r) != c:
        fail("schnorr/challenge")
    return r


def check_schnorr(y: bytes, proof: tuple[int, int], ctx: bytes) -> None:
    c, s = proof
    r = sub(bmul(s), smul(c, y))
    if H_scalar(T["SCHNORR"], ctx, G, y, r) != c:
        fail_err("schnorr/challenge", "recomputed challenge differs: key proof invalid")
