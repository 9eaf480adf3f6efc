"""Chaum-Pedersen proof of equal discrete logs (spec/06-proofs.md section 6.3).

Statement: log_G(Y_i) = log_{c1}(D_i), i.e. the decryption share D_i = x_i*c1 was
made with the secret behind the seat's published key share Y_i.
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import Context
from .errors import EncodingError, ProofError
from .groups import Element
from .suite import Suite
from .tags import Tag


def dleq_proof_bytes(suite: Suite) -> int:
    return 2 * suite.scalar_bytes


@dataclass(frozen=True, slots=True)
class DleqProof:
    """(c, s): challenge c and response s = k + c*x mod the order."""

    c: int
    s: int

    def encode(self, suite: Suite) -> bytes:
        return suite.encode_scalar(self.c) + suite.encode_scalar(self.s)

    @classmethod
    def decode(cls, suite: Suite, data: bytes) -> DleqProof:
        size = dleq_proof_bytes(suite)
        if not isinstance(data, bytes) or len(data) != size:
            raise EncodingError("dleq/length", f"a DLEQ proof is exactly {size} bytes")
        half = suite.scalar_bytes
        return cls(suite.decode_scalar(data[:half]), suite.decode_scalar(data[half:]))


def dleq_challenge(ctx: Context, key: Element, c1: Element, share: Element,
                   a: Element, b: Element) -> int:
    """c = H_scalar(DLEQ, ctx, G, Y_i, c1, D_i, A, B)."""
    s = ctx.suite
    return s.hash_to_scalar(Tag.DLEQ, ctx.encode(), s.group.generator.data, key.data,
                            c1.data, share.data, a.data, b.data)


def prove_dleq(secret: int, c1: Element, ctx: Context,
               fresh: bytes) -> tuple[Element, DleqProof]:
    """Return (D, proof) with D = secret*c1 and a proof that log_G(Y) = log_c1(D)."""
    s, g = ctx.suite, ctx.suite.group
    key = g.base_mul(secret)
    share = g.mul(secret, c1)
    (k,) = s.nonce_scalars(Tag.DLEQ.value, s.encode_scalar(secret),
                           ctx.encode() + key.data + c1.data, fresh, 1)
    c = dleq_challenge(ctx, key, c1, share, g.base_mul(k), g.mul(k, c1))
    return share, DleqProof(c, (k + c * secret) % s.order)


def verify_dleq(key: Element, c1: Element, share: Element, proof: DleqProof,
                ctx: Context) -> None:
    """Raise ProofError unless log_G(key) = log_c1(share), proven under `ctx`."""
    g = ctx.suite.group
    a = g.sub(g.base_mul(proof.s), g.mul(proof.c, key))
    b = g.sub(g.mul(proof.s, c1), g.mul(proof.c, share))
    if dleq_challenge(ctx, key, c1, share, a, b) != proof.c:
        raise ProofError("dleq/challenge", "recomputed challenge differs: share proof invalid")
