"""Chaum-Pedersen proof of equal discrete logs (spec/06-proofs.md section 6.3).

Statement: log_G(Y_i) = log_{c1}(D_i), i.e. the decryption share D_i = x_i*c1 was
made with the secret behind the seat's published key share Y_i.
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import Context
from .errors import EncodingError, ProofError
from .group import SCALAR_BYTES, G, L, Point, base_mul, decode_scalar, mul, scalar_bytes, sub
from .hashing import Tag, hash_to_scalar, nonce_scalars

DLEQ_PROOF_BYTES = 2 * SCALAR_BYTES


@dataclass(frozen=True, slots=True)
class DleqProof:
    """(c, s): challenge c and response s = k + c*x mod L."""

    c: int
    s: int

    def encode(self) -> bytes:
        return scalar_bytes(self.c) + scalar_bytes(self.s)

    @classmethod
    def decode(cls, data: bytes) -> DleqProof:
        if not isinstance(data, bytes) or len(data) != DLEQ_PROOF_BYTES:
            raise EncodingError("dleq/length", "a DLEQ proof is exactly 64 bytes")
        return cls(decode_scalar(data[:32]), decode_scalar(data[32:]))


def dleq_challenge(ctx: Context, key: Point, c1: Point, share: Point,
                   a: Point, b: Point) -> int:
    """c = H_scalar(DLEQ, ctx, G, Y_i, c1, D_i, A, B)."""
    return hash_to_scalar(Tag.DLEQ, ctx.encode(), G.data, key.data, c1.data, share.data,
                          a.data, b.data)


def prove_dleq(secret: int, c1: Point, ctx: Context, fresh: bytes) -> tuple[Point, DleqProof]:
    """Return (D, proof) with D = secret*c1 and a proof that log_G(Y) = log_c1(D)."""
    key = base_mul(secret)
    share = mul(secret, c1)
    (k,) = nonce_scalars(Tag.DLEQ.value, scalar_bytes(secret),
                         ctx.encode() + key.data + c1.data, fresh, 1)
    c = dleq_challenge(ctx, key, c1, share, base_mul(k), mul(k, c1))
    return share, DleqProof(c, (k + c * secret) % L)


def verify_dleq(key: Point, c1: Point, share: Point, proof: DleqProof, ctx: Context) -> None:
    """Raise ProofError unless log_G(key) = log_c1(share), proven under `ctx`."""
    a = sub(base_mul(proof.s), mul(proof.c, key))
    b = sub(mul(proof.s, c1), mul(proof.c, share))
    if dleq_challenge(ctx, key, c1, share, a, b) != proof.c:
        raise ProofError("dleq/challenge", "recomputed challenge differs: share proof invalid")
