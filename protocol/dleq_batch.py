"""One Chaum-Pedersen proof for a batch of decryption shares (spec/06-proofs.md 6.3.1).

From dealerless/3 a DEAL, REVEAL or DRAW carries its shares D_j = x*c1_j and a single
proof that log_G(Y) = log_{c1_j}(D_j) for every j, instead of one proof per share. The
shares are folded by a random linear combination whose weights the verifier could not
have been cheated on: they are hashed from the whole batch (the seed) after the prover
has fixed it, and the first weight is 1 so a batch of one is a plain DLEQ in cost.
The verifier's second commitment is then one multi-scalar multiplication of 2n terms.
"""

from __future__ import annotations

from collections.abc import Sequence

from .context import Context
from .dleq import DleqProof
from .errors import LocalError, ProofError
from .groups import Element
from .suite import Suite
from .tags import Tag, u64


def batch_seed(ctx: Context, key: Element, c1s: Sequence[Element],
               shares: Sequence[Element]) -> bytes:
    """seed = H(DLEQ_SEED, ctx, G, Y, c1_0, D_0, ..., c1_{n-1}, D_{n-1})."""
    s = ctx.suite
    pairs = [p.data for c1, d in zip(c1s, shares, strict=True) for p in (c1, d)]
    return s.H(Tag.DLEQ_SEED, ctx.encode(), s.group.generator.data, key.data, *pairs)


def batch_weights(suite: Suite, seed: bytes, n: int) -> list[int]:
    """w_0 = 1, w_j = H_scalar(DLEQ_WEIGHT, seed, u64(j)) for 0 < j < n."""
    return [1] + [suite.hash_to_scalar(Tag.DLEQ_WEIGHT, seed, u64(j)) for j in range(1, n)]


def batch_challenge(ctx: Context, seed: bytes, a: Element, b: Element) -> int:
    """c = H_scalar(DLEQ_BATCH, ctx, seed, A, B)."""
    return ctx.suite.hash_to_scalar(Tag.DLEQ_BATCH, ctx.encode(), seed, a.data, b.data)


def prove_dleq_batch(secret: int, c1s: Sequence[Element], ctx: Context,
                     fresh: bytes) -> tuple[list[Element], DleqProof]:
    """Return the shares D_j = secret*c1_j and one proof for all of them."""
    if not c1s:
        raise LocalError("dleq/empty-batch", "an empty batch has no proof")
    s, g = ctx.suite, ctx.suite.group
    key = g.base_mul(secret)
    shares = [g.mul(secret, c1) for c1 in c1s]
    seed = batch_seed(ctx, key, c1s, shares)
    m = g.msm(batch_weights(s, seed, len(c1s)), c1s)
    (k,) = s.nonce_scalars(Tag.DLEQ_BATCH.value, s.encode_scalar(secret),
                           ctx.encode() + seed, fresh, 1)
    c = batch_challenge(ctx, seed, g.base_mul(k), g.mul(k, m))
    return shares, DleqProof(c, (k + c * secret) % s.order)


def verify_dleq_batch(key: Element, c1s: Sequence[Element], shares: Sequence[Element],
                      proof: DleqProof, ctx: Context) -> None:
    """Raise ProofError unless every share is log_G(key) times its c1, proven under ctx.

    B' = s*M - c*Z with M = sum w_j c1_j and Z = sum w_j D_j is computed as one MSM of
    the 2n terms (s w_j) c1_j and (-c w_j) D_j.
    """
    if not c1s or len(c1s) != len(shares):
        raise LocalError("dleq/empty-batch", "a batch proof covers one or more shares")
    s, g = ctx.suite, ctx.suite.group
    seed = batch_seed(ctx, key, c1s, shares)
    w = batch_weights(s, seed, len(c1s))
    a = g.sub(g.base_mul(proof.s), g.mul(proof.c, key))
    b = g.msm([proof.s * wj % s.order for wj in w] + [-proof.c * wj % s.order for wj in w],
              [*c1s, *shares])
    if batch_challenge(ctx, seed, a, b) != proof.c:
        raise ProofError("dleq/challenge",
                         "recomputed challenge differs: a share of the batch is invalid")
