"""The generator and the proofs of sealed commitments (spec/06-proofs.md 6.6).

All three proofs are one sigma protocol, knowledge of x with image_b = x*base_b for
every base b (one base: Schnorr; two: Chaum-Pedersen), each under its own challenge
tag and with its whole statement hashed (3.1):

    share key       x*B = y_j                                 SEAL_KEY_PROOF (6.6.2)
    encrypted share p(e)*Hs = X_e  and  p(e)*y_e = Y_e        SEAL_SHARE     (6.6.4)
    decryption      x*B = y_e  and  x*S_e = Y_e               SEAL_DECRYPT   (6.6.7)

A proof is (c, z): announcements A_b = k*base_b, c = H_scalar(tag, statement...,
A_1, ..., A_n), z = k + c*x. The verifier recomputes A_b' = z*base_b - c*image_b.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .errors import LocalError, SealError
from .group import (
    G,
    L,
    Point,
    base_mul,
    decode_scalar,
    mul,
    scalar_bytes,
    sub,
)
from .hashing import Tag, hash_to_point, hash_to_scalar, nonce_scalars, require_fresh, u64


@cache
def seal_generator() -> Point:
    """Hs = H2P(SEAL_GENERATOR) with no parts (6.6.1): nobody knows log_B Hs."""
    return hash_to_point(Tag.SEAL_GENERATOR)


@dataclass(frozen=True, slots=True)
class SealProof:
    """(c, z): challenge c and response z = k + c*x mod L (6.6.1)."""

    c: int
    z: int

    def encode(self) -> list[bytes]:
        """[c, z]: two 32-byte little-endian scalars (2.4), two items on the wire."""
        return [scalar_bytes(self.c), scalar_bytes(self.z)]

    @classmethod
    def decode(cls, c: bytes, z: bytes) -> SealProof:
        """Strict: two canonical scalars (2.4); EncodingError `scalar/*` otherwise."""
        return cls(decode_scalar(c), decode_scalar(z))


def _times(k: int, base: Point) -> Point:
    return base_mul(k) if base == G else mul(k, base)


def prove_equal_logs(tag: Tag, statement: tuple[bytes, ...], x: int,
                     bases: tuple[Point, ...], k: int) -> SealProof:
    """The sigma proof of 6.6.1 with nonce k (hedged by the caller, 3.4)."""
    announcements = [_times(k, b).data for b in bases]
    c = hash_to_scalar(tag, *statement, *announcements)
    return SealProof(c, (k + c * x) % L)


def require_equal_logs(tag: Tag, statement: tuple[bytes, ...], bases: tuple[Point, ...],
                       images: tuple[Point, ...], proof: SealProof, failure: SealError) -> None:
    """Raise `failure` unless `proof` shows one x with images[b] = x*bases[b] for every b
    (6.6.1): a check that cannot be ignored, as a returned bool could be."""
    announcements = [sub(_times(proof.z, b), mul(proof.c, img)).data
                     for b, img in zip(bases, images, strict=True)]
    if hash_to_scalar(tag, *statement, *announcements) != proof.c:
        raise failure


def share_key(secret_seed: bytes, game_id: bytes) -> int:
    """A seat's seal key x_j = H_scalar(SEAL_KEY, seed, game_id) (6.6.2; informative:
    nobody can check how a seat derives its key)."""
    require_fresh(secret_seed)
    x = hash_to_scalar(Tag.SEAL_KEY, secret_seed, game_id)
    if x == 0:  # probability 2^-252
        raise LocalError("seal/zero-key", "the seal key derived to zero")
    return x


def _key_statement(game_id: bytes, seat: int, key: Point) -> tuple[bytes, ...]:
    return (game_id, u64(seat), G.data, key.data)


def prove_share_key(x: int, game_id: bytes, seat: int, fresh: bytes) -> tuple[Point, SealProof]:
    """(y_j, proof of possession of x_j) for seat j's share key (6.6.2)."""
    key = base_mul(x)
    statement = _key_statement(game_id, seat, key)
    (k,) = nonce_scalars(Tag.SEAL_KEY_PROOF.value, scalar_bytes(x), b"".join(statement),
                         fresh, 1)
    return key, prove_equal_logs(Tag.SEAL_KEY_PROOF, statement, x, (G,), k)


def verify_share_key(key: Point, proof: SealProof, game_id: bytes, seat: int) -> None:
    """Raise SealError `seal/key-proof` (blaming `seat`) unless `proof` shows that seat
    knows log_B `key` (6.6.2). `key` is a decoded point (2.3)."""
    require_equal_logs(Tag.SEAL_KEY_PROOF, _key_statement(game_id, seat, key), (G,), (key,),
                       proof, SealError("seal/key-proof",
                                        f"seat {seat}'s seal key proof does not verify", seat))
