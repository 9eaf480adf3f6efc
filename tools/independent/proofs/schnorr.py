"""Schnorr proof of knowledge of a key, spec/06-proofs.md 6.2, in a game's suite (3.5).

schnorr_prove reproduces the vectors' proofs from their `fresh` (3.4 hedged nonce);
schnorr_verify reads a proof as the vectors give it and returns R'; check_schnorr is the
transcript verifier's, on a KEY body already decoded (8.5, 10.4).
"""

from __future__ import annotations

from typing import Any

from independent.errors import fail, fail_err
from independent.group.suites import Suite


def schnorr_prove(s: Suite, x: int, ctx: bytes, fresh: bytes) -> dict[str, Any]:
    o = s.ops
    y = o.base(x)
    k = s.nonce(b"dealerless/challenge/schnorr", o.sc(x), ctx + y, fresh, 0)
    r = o.base(k)
    c = s.H_scalar("SCHNORR", ctx, o.G, y, r)
    return {"nonce": k, "R": r, "c": c, "s": (k + c * x) % o.L}


def schnorr_verify(s: Suite, y_b: bytes, proof: bytes, ctx: bytes) -> bytes:
    o = s.ops
    y = o.accept(y_b)
    if len(proof) != 64:
        fail("schnorr/length")
    c, z = o.scalar(proof[:32]), o.scalar(proof[32:])
    r = o.sub(o.base(z), o.mul(c, y))
    if s.H_scalar("SCHNORR", ctx, o.G, y, r) != c:
        fail("schnorr/challenge")
    return r


def check_schnorr(s: Suite, y: bytes, proof: tuple[int, int], ctx: bytes) -> None:
    o = s.ops
    c, z = proof
    r = o.sub(o.base(z), o.mul(c, y))
    if s.H_scalar("SCHNORR", ctx, o.G, y, r) != c:
        fail_err("schnorr/challenge", "recomputed challenge differs: key proof invalid")
