"""Identities: a seed, its Ed25519 key, its frame key in a suite, and fingerprints
(spec/08-wire.md 8.3).

A seat's identity is long-term and separate from its per-game key share. Its Ed25519
key signs the handshake and, in the suites for players, frames; key generation, which
needs randomness, lives in peers/.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field

from nacl.signing import SigningKey

from .errors import LocalError
from .hashing import H, Tag
from .signature import SIGNATURE_BYTES, SignatureError
from .suite import ED25519, Suite

__all__ = ["SIGNATURE_BYTES", "Identity", "SignatureError", "check_public_key",
           "fingerprint", "short_auth_string", "verify_signature"]


@dataclass(frozen=True)
class Identity:
    """A signing identity from its 32-byte Ed25519 seed. The seed never leaves it."""

    seed: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.seed, bytes) or len(self.seed) != 32:
            raise LocalError("identity/seed", "an Ed25519 seed is exactly 32 bytes")

    @property
    def public_key(self) -> bytes:
        return bytes(SigningKey(self.seed).verify_key)

    def frame_key(self, suite: Suite) -> bytes:
        """The key this identity signs frames with in `suite` (8.3): its Ed25519 key, or
        in `bls12381g1-sha256` a key of G1 from the same seed (2.6)."""
        return suite.signer.public_key(self.seed)

    def sign(self, message: bytes) -> bytes:
        return SigningKey(self.seed).sign(message).signature


def check_public_key(key: bytes) -> None:
    """EncodingError `point/*` unless `key` may be an Ed25519 identity key (8.2 rule 11)."""
    ED25519.check_key(key)


def verify_signature(public_key: bytes, message: bytes, signature: bytes) -> None:
    """SignatureError unless `signature` is an Ed25519 signature of `message` under
    `public_key` by 8.3's rules: for the handshake and the relay, and the frames of the
    suites that sign with Ed25519."""
    ED25519.verify(public_key, message, signature)


def fingerprint(public_key: bytes) -> str:
    """OpenSSH's SHA256 fingerprint of an ssh-ed25519 key: 'SHA256:' + unpadded base64."""
    name = b"ssh-ed25519"
    blob = len(name).to_bytes(4, "big") + name + len(public_key).to_bytes(4, "big") + public_key
    digest = hashlib.sha256(blob).digest()
    return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")


def short_auth_string(game_id: bytes) -> str:
    """Twelve digits both players compare out of band (spec/12-peers.md section 12.2).

    n = the first 8 bytes of H(SAS, game_id), big-endian, mod 10^12, written as 12
    digits grouped 4-4-4. Matching strings mean both players hold the same setup:
    the same rules, the same identity keys and the same nonces. A man in the middle
    would have to find two setups whose strings match, about one chance in 10^12
    per attempt, and could not try offline faster than the players' nonces allow.
    """
    if not isinstance(game_id, bytes) or not game_id:
        raise LocalError("identity/game-id", "the game id is non-empty bytes")
    digits = f"{int.from_bytes(H(Tag.SAS, game_id)[:8], 'big') % 10**12:012d}"
    return f"{digits[0:4]}-{digits[4:8]}-{digits[8:12]}"
