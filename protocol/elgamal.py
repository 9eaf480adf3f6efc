"""ElGamal encryption of points (spec/05-deck.md section 5.2).

A ciphertext of a message point M under the joint key Y with randomness r is
(c1, c2) = (r*G, M + r*Y). Re-encryption adds an encryption of the identity,
(r'*G, r'*Y), which changes the bytes but not the plaintext.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import EncodingError
from .groups import Element
from .suite import Suite


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """(c1, c2): c1 = r*G, c2 = M + r*Y."""

    c1: Element
    c2: Element

    def encode(self) -> bytes:
        return self.c1.data + self.c2.data

    @classmethod
    def decode(cls, suite: Suite, data: bytes) -> Ciphertext:
        size = ciphertext_bytes(suite)
        if not isinstance(data, bytes) or len(data) != size:
            raise EncodingError("ciphertext/length", f"a ciphertext is exactly {size} bytes")
        half = suite.point_bytes
        return cls(suite.decode_point(data[:half]), suite.decode_point(data[half:]))


def ciphertext_bytes(suite: Suite) -> int:
    """Two elements."""
    return 2 * suite.point_bytes


def reencrypt(suite: Suite, ct: Ciphertext, r: int, joint_key: Element) -> Ciphertext:
    """ct + (r*G, r*Y)."""
    g = suite.group
    return Ciphertext(g.add(ct.c1, g.base_mul(r)), g.add(ct.c2, g.mul(r, joint_key)))


def encode_deck(deck: tuple[Ciphertext, ...] | list[Ciphertext]) -> bytes:
    """Concatenated ciphertext encodings, for hashing and the wire."""
    return b"".join(ct.c1.data + ct.c2.data for ct in deck)


def decode_deck(suite: Suite, data: bytes) -> tuple[Ciphertext, ...]:
    size = ciphertext_bytes(suite)
    if not isinstance(data, bytes) or len(data) % size:
        raise EncodingError("deck/length", f"a deck is a whole number of {size}-byte "
                            "ciphertexts")
    return tuple(Ciphertext.decode(suite, data[i:i + size]) for i in range(0, len(data), size))
