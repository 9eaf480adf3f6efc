"""Ed25519 identity keys: frame signatures and fingerprints (spec/08-wire.md 8.3).

A seat's identity key is long-term and separate from its per-game key share.
Signing is deterministic (RFC 8032), so it needs no randomness here; key
generation, which does, lives in peers/.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from .errors import EncodingError, LocalError
from .groups.edwards25519 import GROUP as EDWARDS25519
from .groups.ops import OPS, sha512_blocks
from .hashing import H, Tag

PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64


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

    def sign(self, message: bytes) -> bytes:
        return SigningKey(self.seed).sign(message).signature


def check_public_key(key: bytes) -> None:
    """EncodingError `point/*` unless `key` is a canonical point of edwards25519's
    prime-order subgroup (8.2): a key of small or mixed order verifies differently under
    cofactored and cofactorless Ed25519, and refusing it keeps every port's verdicts the
    same."""
    EDWARDS25519.decode(key)


class SignatureError(EncodingError):
    """A signature does not verify under the claimed identity key."""


def verify_signature(public_key: bytes, message: bytes, signature: bytes) -> None:
    """Raise SignatureError unless `signature` is valid for `message` under `public_key`.

    libsodium's verification rejects non-canonical S, small-order keys and
    small-order R, so a signature cannot be mauled into a second valid one.
    """
    if len(public_key) != PUBLIC_KEY_BYTES or len(signature) != SIGNATURE_BYTES:
        raise SignatureError("frame/bad-signature", "key or signature has the wrong length")
    OPS.sig += 1
    OPS.sig_blocks += sha512_blocks(64 + len(message))  # SHA-512(R || A || m), RFC 8032
    try:
        VerifyKey(public_key).verify(message, signature)
    except (BadSignatureError, ValueError, TypeError):
        raise SignatureError("frame/bad-signature", "the signature does not verify") from None


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
