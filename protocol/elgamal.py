"""ElGamal encryption of points (spec/05-deck.md section 5.2).

A ciphertext of a message point M under the joint key Y with randomness r is
(c1, c2) = (r*G, M + r*Y). Re-encryption adds an encryption of the identity,
(r'*G, r'*Y), which changes the bytes but not the plaintext.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import EncodingError
from .group import POINT_BYTES, Point, add, base_mul, decode_point, mul

CIPHERTEXT_BYTES = 2 * POINT_BYTES


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """(c1, c2): c1 = r*G, c2 = M + r*Y."""

    c1: Point
    c2: Point

    def encode(self) -> bytes:
        return self.c1.data + self.c2.data

    @classmethod
    def decode(cls, data: bytes) -> Ciphertext:
        if not isinstance(data, bytes) or len(data) != CIPHERTEXT_BYTES:
            raise EncodingError("ciphertext/length", "a ciphertext is exactly 64 bytes")
        return cls(decode_point(data[:POINT_BYTES]), decode_point(data[POINT_BYTES:]))


def reencrypt(ct: Ciphertext, r: int, joint_key: Point) -> Ciphertext:
    """ct + (r*G, r*Y)."""
    return Ciphertext(add(ct.c1, base_mul(r)), add(ct.c2, mul(r, joint_key)))


def encode_deck(deck: tuple[Ciphertext, ...] | list[Ciphertext]) -> bytes:
    """Concatenated ciphertext encodings, for hashing and the wire."""
    return b"".join(ct.c1.data + ct.c2.data for ct in deck)


def decode_deck(data: bytes) -> tuple[Ciphertext, ...]:
    if not isinstance(data, bytes) or len(data) % CIPHERTEXT_BYTES:
        raise EncodingError("deck/length", "a deck is a whole number of 64-byte ciphertexts")
    return tuple(Ciphertext.decode(data[i:i + CIPHERTEXT_BYTES])
                 for i in range(0, len(data), CIPHERTEXT_BYTES))
