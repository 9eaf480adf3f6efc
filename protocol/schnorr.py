"""Schnorr proof of knowledge of a key share (spec/06-proofs.md section 6.2).

Statement: Y = x*G. Each seat proves knowledge of x for its published key
share, bound to the game, step and seat, which rules out rogue-key attacks on
the joint key (a seat cannot publish Y' = Z - sum(others) without knowing log Z).
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import Context
from .errors import EncodingError, ProofError
from .groups import Element
from .suite import Suite
from .tags import Tag


def schnorr_proof_bytes(suite: Suite) -> int:
    return 2 * suite.scalar_bytes


@dataclass(frozen=True, slots=True)
class SchnorrProof:
    """(c, s): challenge c and response s = k + c*x mod the order."""

    c: int
    s: int

    def encode(self, suite: Suite) -> bytes:
        return suite.encode_scalar(self.c) + suite.encode_scalar(self.s)

    @classmethod
    def decode(cls, suite: Suite, data: bytes) -> SchnorrProof:
        size = schnorr_proof_bytes(suite)
        if not isinstance(data, bytes) or len(data) != size:
            raise EncodingError("schnorr/length", f"a Schnorr proof is exactly {size} bytes")
        half = suite.scalar_bytes
        return cls(suite.decode_scalar(data[:half]), suite.decode_scalar(data[half:]))


def schnorr_challenge(ctx: Context, key: Element, commitment: Element) -> int:
    """c = H_scalar(SCHNORR, ctx, G, Y, R)."""
    s = ctx.suite
    return s.hash_to_scalar(Tag.SCHNORR, ctx.encode(), s.group.generator.data, key.data,
                            commitment.data)


def prove_key(secret: int, ctx: Context, fresh: bytes) -> SchnorrProof:
    """Prove knowledge of `secret` = log_G(secret*G) under `ctx`."""
    s = ctx.suite
    key = s.group.base_mul(secret)
    (k,) = s.nonce_scalars(Tag.SCHNORR.value, s.encode_scalar(secret),
                           ctx.encode() + key.data, fresh, 1)
    c = schnorr_challenge(ctx, key, s.group.base_mul(k))
    return SchnorrProof(c, (k + c * secret) % s.order)


def verify_key(key: Element, proof: SchnorrProof, ctx: Context) -> None:
    """Raise ProofError unless `proof` shows knowledge of log_G(key) under `ctx`."""
    g = ctx.suite.group
    commitment = g.sub(g.base_mul(proof.s), g.mul(proof.c, key))
    if schnorr_challenge(ctx, key, commitment) != proof.c:
        raise ProofError("schnorr/challenge", "recomputed challenge differs: key proof invalid")
