"""The frame signature of a suite (spec/08-wire.md 8.3, spec/02-group.md 2.6).

A seat's identity is one 32-byte seed. In a suite signed by Ed25519 its frame key is the
seed's Ed25519 key (8.3); in `bls12381g1-sha256` it is a key of G1, x*G1 with x the
seed's H_scalar, and a frame is signed by Schnorr over G1, which a chain checks with the
same operators as the proofs of 6.2 (2.6). Both sign the same message (8.3's prefix and
the payload) and refuse a bad signature as `frame/bad-signature`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from .errors import EncodingError
from .groups import Element, Group
from .groups.edwards25519 import GROUP as EDWARDS25519
from .groups.ops import OPS, sha512_blocks
from .tags import Tag

SIGNATURE_BYTES = 64


class SignatureError(EncodingError):
    """A signature does not verify under the claimed key."""


def bad_signature(detail: str) -> SignatureError:
    return SignatureError("frame/bad-signature", detail)


class FrameSigner(ABC):
    """One suite's way to make a frame key from a seed, sign and verify."""

    #: The length of a frame key.
    key_bytes: int

    @abstractmethod
    def public_key(self, seed: bytes) -> bytes:
        """The frame key of the identity whose seed is `seed`."""

    @abstractmethod
    def sign(self, seed: bytes, message: bytes, fresh: bytes) -> bytes:
        """The 64-byte signature of `message`; `fresh` hedges a scheme's nonce (3.4)."""

    @abstractmethod
    def verify(self, key: bytes, message: bytes, signature: bytes) -> None:
        """SignatureError `frame/bad-signature` unless `signature` is valid."""

    @abstractmethod
    def check_key(self, key: bytes) -> None:
        """EncodingError `point/*` unless `key` may be a seat's frame key (8.2 rule 11)."""


class Ed25519Signer(FrameSigner):
    """RFC 8032's Ed25519, verified by libsodium's rules (8.3)."""

    key_bytes = 32

    def public_key(self, seed: bytes) -> bytes:
        return bytes(SigningKey(seed).verify_key)

    def sign(self, seed: bytes, message: bytes, fresh: bytes) -> bytes:
        # Ed25519 signing is deterministic (RFC 8032 5.1.6): `fresh` is not needed.
        return SigningKey(seed).sign(message).signature

    def verify(self, key: bytes, message: bytes, signature: bytes) -> None:
        """libsodium's verification rejects non-canonical S, small-order keys and
        small-order R, so a signature cannot be mauled into a second valid one."""
        if len(key) != self.key_bytes or len(signature) != SIGNATURE_BYTES:
            raise bad_signature("key or signature has the wrong length")
        OPS.sig += 1
        OPS.sig_blocks += sha512_blocks(64 + len(message))  # SHA-512(R || A || m)
        try:
            VerifyKey(key).verify(message, signature)
        except (BadSignatureError, ValueError, TypeError):
            raise bad_signature("the signature does not verify") from None

    def check_key(self, key: bytes) -> None:
        # A key of small or mixed order verifies differently under cofactored and
        # cofactorless Ed25519: refusing it keeps every port's verdicts the same.
        EDWARDS25519.decode(key)


class SchnorrSuite(Protocol):
    """What Schnorr signing takes of a suite (protocol/suite.py, which builds the signer
    and so is not imported here)."""

    @property
    def group(self) -> Group: ...
    @property
    def order(self) -> int: ...
    @property
    def point_bytes(self) -> int: ...
    def hash_to_scalar(self, tag: Tag, *parts: bytes) -> int: ...
    def nonce_scalars(self, label: bytes, secret: bytes, public: bytes, fresh: bytes,
                      count: int) -> list[int]: ...
    def encode_scalar(self, k: int) -> bytes: ...
    def decode_scalar(self, data: bytes) -> int: ...
    def decode_point(self, data: bytes) -> Element: ...


class SchnorrSigner(FrameSigner):
    """Schnorr over the suite's group (2.6): key Y = x*G with x = H_scalar(FRAME_KEY,
    seed); signature c || s with R = k*G, c = H_scalar(FRAME_SIGNATURE, Y, R, m),
    s = k + c*x; valid exactly when c = H_scalar(FRAME_SIGNATURE, Y, s*G - c*Y, m)."""

    def __init__(self, suite: SchnorrSuite) -> None:
        self.suite = suite
        self.key_bytes = suite.point_bytes

    def _secret(self, seed: bytes) -> int:
        x = self.suite.hash_to_scalar(Tag.FRAME_KEY, seed)
        return x or 1   # probability 2^-254: any fixed nonzero key serves

    def public_key(self, seed: bytes) -> bytes:
        return self.suite.group.base_mul(self._secret(seed)).data

    def _challenge(self, key: bytes, commitment: bytes, message: bytes) -> int:
        return self.suite.hash_to_scalar(Tag.FRAME_SIGNATURE, key, commitment, message)

    def sign(self, seed: bytes, message: bytes, fresh: bytes) -> bytes:
        """Without `fresh` the nonce comes from the key and the message alone, as
        Ed25519's does (RFC 8032); a seat always passes its own."""
        s, g = self.suite, self.suite.group
        fresh = fresh or bytes(32)
        x = self._secret(seed)
        key = g.base_mul(x).data
        (k,) = s.nonce_scalars(Tag.FRAME_SIGNATURE.value, s.encode_scalar(x), key + message,
                               fresh, 1)
        c = self._challenge(key, g.base_mul(k).data, message)
        return s.encode_scalar(c) + s.encode_scalar((k + c * x) % s.order)

    def verify(self, key: bytes, message: bytes, signature: bytes) -> None:
        s, g = self.suite, self.suite.group
        if len(key) != self.key_bytes or len(signature) != SIGNATURE_BYTES:
            raise bad_signature("key or signature has the wrong length")
        OPS.sig += 1
        try:
            y = s.decode_point(key)
            c = s.decode_scalar(signature[:32])
            z = s.decode_scalar(signature[32:])
        except EncodingError:
            raise bad_signature("the key or a scalar of the signature does not decode") \
                from None
        commitment = g.sub(g.base_mul(z), g.mul(c, y))
        if self._challenge(key, commitment.data, message) != c:
            raise bad_signature("the signature does not verify")

    def check_key(self, key: bytes) -> None:
        self.suite.decode_point(key)
