"""Chaum-Pedersen proof of equal discrete logarithms (a decryption share), spec 6.3, and from
dealerless/3 the one proof of a batch of shares (6.3.1), in a game's suite (3.5).

dleq_prove and dleq_batch_prove reproduce the vectors' proofs; dleq_verify and
dleq_batch_verify read a proof as the vectors give it; check_dleq and check_dleq_batch are
the transcript verifier's, on a body already decoded (8.5, 10.4 DEAL, MOVE, DRAW, REVEAL).

[B1] 6.3.1 says the batch's elements are "all decoded by 2.3" but not in which order;
     dleq_batch_verify decodes Y, then every c1_j, then every D_j, then the proof (c, s).
"""

from __future__ import annotations

from typing import Any

from independent.errors import fail, fail_err
from independent.group.ops import u64
from independent.group.suites import Suite

BATCH_LABEL = b"dealerless/challenge/dleq-batch"  # 6.3.1: the nonce's label, DLEQ_BATCH's tag


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


# --- 6.3.1 one proof for a batch of shares (dealerless/3) -------------------------------------
def batch_seed(s: Suite, ctx: bytes, y: bytes, c1s: list[bytes], ds: list[bytes]) -> bytes:
    """seed = H(DLEQ_SEED, ctx, G, Y, c1_0, D_0, ..., c1_{n-1}, D_{n-1}): H's whole output,
    every point one part."""
    pairs = [p for c1, d in zip(c1s, ds, strict=True) for p in (c1, d)]
    return s.H("DLEQ_SEED", ctx, s.ops.G, y, *pairs)


def batch_weights(s: Suite, seed: bytes, n: int) -> list[int]:
    """w_0 = 1; w_j = H_scalar(DLEQ_WEIGHT, seed, u64(j)) for 0 < j < n."""
    return [1] + [s.H_scalar("DLEQ_WEIGHT", seed, u64(j)) for j in range(1, n)]


def dleq_batch_prove(s: Suite, x: int, c1s: list[bytes], ctx: bytes,
                     fresh: bytes) -> dict[str, Any]:
    """6.3.1 Prove, only to reproduce the vectors' seed, weights, challenge and proof."""
    o = s.ops
    y, ds = o.base(x), [o.mul(x, c1) for c1 in c1s]
    seed = batch_seed(s, ctx, y, c1s, ds)
    w = batch_weights(s, seed, len(c1s))
    m = o.msm(w, c1s)
    k = s.nonce(BATCH_LABEL, o.sc(x), ctx + seed, fresh, 0)
    a, b = o.base(k), o.mul(k, m)
    c = s.H_scalar("DLEQ_BATCH", ctx, seed, a, b)
    return {"shares": ds, "seed": seed, "weights": w, "nonce": k, "A": a, "B": b, "c": c,
            "s": (k + c * x) % o.L}


def _batch_challenge(s: Suite, y: bytes, c1s: list[bytes], ds: list[bytes], c: int, z: int,
                     ctx: bytes) -> dict[str, Any]:
    """A' = s*G - c*Y; B' = sum (s*w_j)*c1_j + sum (-c*w_j)*D_j (one MSM of 2n terms)."""
    o = s.ops
    seed = batch_seed(s, ctx, y, c1s, ds)
    w = batch_weights(s, seed, len(c1s))
    a = o.sub(o.base(z), o.mul(c, y))
    b = o.msm([z * wj for wj in w] + [-c * wj for wj in w], c1s + ds)
    return {"seed": seed, "weights": w, "A": a, "B": b,
            "ok": s.H_scalar("DLEQ_BATCH", ctx, seed, a, b) == c}


def dleq_batch_verify(s: Suite, y_b: bytes, c1s_b: list[bytes], ds_b: list[bytes],
                      proof: bytes, ctx: bytes) -> dict[str, Any]:
    """6.3.1 Verify of n >= 1 shares, decoding order [B1]; returns seed, weights, A', B'."""
    o = s.ops
    if not c1s_b or len(c1s_b) != len(ds_b):
        raise ValueError("a batch of n >= 1 shares, one c1 for each")
    y = o.accept(y_b)
    c1s, ds = [o.accept(b) for b in c1s_b], [o.accept(b) for b in ds_b]
    if len(proof) != 64:
        fail("dleq/length")
    c, z = o.scalar(proof[:32]), o.scalar(proof[32:])
    got = _batch_challenge(s, y, c1s, ds, c, z, ctx)
    if not got["ok"]:
        fail("dleq/challenge")
    return got


def check_dleq_batch(s: Suite, y: bytes, c1s: list[bytes], ds: list[bytes],
                     proof: tuple[int, int], ctx: bytes) -> None:
    """10.4 DEAL, REVEAL, DRAW from dealerless/3: the batch proof of the pairs in order."""
    if not _batch_challenge(s, y, c1s, ds, proof[0], proof[1], ctx)["ok"]:
        fail_err("dleq/challenge", "recomputed batch challenge differs: a share proof invalid")
