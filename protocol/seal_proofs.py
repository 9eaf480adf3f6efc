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
from .groups import Element
from .suite import Suite
from .tags import Tag, require_fresh, u64


@cache
def seal_generator(suite: Suite) -> Element:
    """Hs = H2P(SEAL_GENERATOR) with no parts (6.6.1): nobody knows log_B Hs."""
    return suite.hash_to_point(Tag.SEAL_GENERATOR)


@dataclass(frozen=True, slots=True)
class SealProof:
    """(c, z): challenge c and response z = k + c*x mod the order (6.6.1)."""

    c: int
    z: int

    def encode(self, suite: Suite) -> list[bytes]:
        """[c, z]: two scalars (2.4), two items on the wire."""
        return [suite.encode_scalar(self.c), suite.encode_scalar(self.z)]

    @classmethod
    def decode(cls, suite: Suite, c: bytes, z: bytes) -> SealProof:
        """Strict: two canonical scalars (2.4); EncodingError `scalar/*` otherwise."""
        return cls(suite.decode_scalar(c), suite.decode_scalar(z))


def _times(suite: Suite, k: int, base: Element) -> Element:
    g = suite.group
    return g.base_mul(k) if base == g.generator else g.mul(k, base)


def prove_equal_logs(suite: Suite, tag: Tag, statement: tuple[bytes, ...], x: int,
                     bases: tuple[Element, ...], k: int) -> SealProof:
    """The sigma proof of 6.6.1 with nonce k (hedged by the caller, 3.4)."""
    announcements = [_times(suite, k, b).data for b in bases]
    c = suite.hash_to_scalar(tag, *statement, *announcements)
    return SealProof(c, (k + c * x) % suite.order)


def require_equal_logs(suite: Suite, tag: Tag, statement: tuple[bytes, ...],
                       bases: tuple[Element, ...], images: tuple[Element, ...],
                       proof: SealProof, failure: SealError) -> None:
    """Raise `failure` unless `proof` shows one x with images[b] = x*bases[b] for every b
    (6.6.1): a check that cannot be ignored, as a returned bool could be."""
    g = suite.group
    announcements = [g.sub(_times(suite, proof.z, b), g.mul(proof.c, img)).data
                     for b, img in zip(bases, images, strict=True)]
    if suite.hash_to_scalar(tag, *statement, *announcements) != proof.c:
        raise failure


def share_key(suite: Suite, secret_seed: bytes, game_id: bytes) -> int:
    """A seat's seal key x_j = H_scalar(SEAL_KEY, seed, game_id) (6.6.2; informative:
    nobody can check how a seat derives its key)."""
    require_fresh(secret_seed)
    x = suite.hash_to_scalar(Tag.SEAL_KEY, secret_seed, game_id)
    if x == 0:  # probability 2^-252
        raise LocalError("seal/zero-key", "the seal key derived to zero")
    return x


def _key_statement(suite: Suite, game_id: bytes, seat: int, key: Element) -> tuple[bytes, ...]:
    return (game_id, u64(seat), suite.group.generator.data, key.data)


def prove_share_key(suite: Suite, x: int, game_id: bytes, seat: int,
                    fresh: bytes) -> tuple[Element, SealProof]:
    """(y_j, proof of possession of x_j) for seat j's share key (6.6.2)."""
    g = suite.group
    key = g.base_mul(x)
    statement = _key_statement(suite, game_id, seat, key)
    (k,) = suite.nonce_scalars(Tag.SEAL_KEY_PROOF.value, suite.encode_scalar(x),
                               b"".join(statement), fresh, 1)
    return key, prove_equal_logs(suite, Tag.SEAL_KEY_PROOF, statement, x, (g.generator,), k)


def verify_share_key(suite: Suite, key: Element, proof: SealProof, game_id: bytes,
                     seat: int) -> None:
    """Raise SealError `seal/key-proof` (blaming `seat`) unless `proof` shows that seat
    knows log_B `key` (6.6.2). `key` is a decoded point (2.3)."""
    require_equal_logs(suite, Tag.SEAL_KEY_PROOF, _key_statement(suite, game_id, seat, key),
                       (suite.group.generator,), (key,), proof,
                       SealError("seal/key-proof",
                                 f"seat {seat}'s seal key proof does not verify", seat))
