"""Schnorr proof of knowledge of a key share (spec/06-proofs.md section 6.2).

Statement: Y = x*G. Each seat proves knowledge of x for its published key
share, bound to the game, step and seat, which rules out rogue-key attacks on
the joint key (a seat cannot publish Y' = Z - sum(others) without knowing log Z).
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import Context
from .errors import EncodingError, ProofError
from .group import SCALAR_BYTES, G, L, Point, base_mul, decode_scalar, mul, scalar_bytes, sub
from .hashing import Tag, hash_to_scalar, nonce_scalars

SCHNORR_PROOF_BYTES = 2 * SCALAR_BYTES


@dataclass(frozen=True, slots=True)
class SchnorrProof:
    """(c, s): challenge c and response s = k + c*x mod L."""

    c: int
    s: int

    def encode(self) -> bytes:
        return scalar_bytes(self.c) + scalar_bytes(self.s)

    @classmethod
    def decode(cls, data: bytes) -> SchnorrProof:
        if not isinstance(data, bytes) or len(data) != SCHNORR_PROOF_BYTES:
            raise EncodingError("schnorr/length", "a Schnorr proof is exactly 64 bytes")
        return cls(decode_scalar(data[:32]), decode_scalar(data[32:]))


def schnorr_challenge(ctx: Context, key: Point, commitment: Point) -> int:
    """c = H_scalar(SCHNORR, ctx, G, Y, R)."""
    return hash_to_scalar(Tag.SCHNORR, ctx.encode(), G.data, key.data, commitment.data)


def prove_key(secret: int, ctx: Context, fresh: bytes) -> SchnorrProof:
    """Prove knowledge of `secret` = log_G(secret*G) under `ctx`."""
    key = base_mul(secret)
    (k,) = nonce_scalars(Tag.SCHNORR.value, scalar_bytes(secret),
                         ctx.encode() + key.data, fresh, 1)
    c = schnorr_challenge(ctx, key, base_mul(k))
    return SchnorrProof(c, (k + c * secret) % L)


def verify_key(key: Point, proof: SchnorrProof, ctx: Context) -> None:
    """Raise ProofError unless `proof` shows knowledge of log_G(key) under `ctx`."""
    commitment = sub(base_mul(proof.s), mul(proof.c, key))
    if schnorr_challenge(ctx, key, commitment) != proof.c:
        raise ProofError("schnorr/challenge", "recomputed challenge differs: key proof invalid")
