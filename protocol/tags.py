"""The domain tags and the encodings of hash inputs (spec/03-hashing.md 3.1, 3.2).

Every hash in dealerless is `H(tag, parts...)` of a suite (protocol/suite.py):

    HASH( lp(context) || lp(tag) || lp(part_1) || ... || lp(part_n) )

with lp(x) = 4-byte big-endian length of x, then x. The tag comes from the closed table
`Tag`; a hash call with anything else is a LocalError, so a new use of the hash cannot
forget its domain.
"""

from __future__ import annotations

from enum import Enum

from .errors import LocalError


class Tag(Enum):
    """The domain-tag table of spec/03-hashing.md section 3.2."""

    TILE = b"dealerless/h2p/tile"
    GENERATOR = b"dealerless/h2p/generator"
    SCHNORR = b"dealerless/challenge/schnorr"
    DLEQ = b"dealerless/challenge/dleq"
    CANNOT_PLAY = b"dealerless/challenge/cannot-play"
    SHUFFLE_U = b"dealerless/challenge/shuffle-u"
    SHUFFLE_C = b"dealerless/challenge/shuffle-c"
    NONCE = b"dealerless/nonce"
    SHUFFLE_WITNESS = b"dealerless/shuffle-witness"
    CONTEXT = b"dealerless/context"
    GAME = b"dealerless/game-id"
    FRAME = b"dealerless/frame"
    STATE = b"dealerless/state"
    COMMIT = b"dealerless/first-player-commit"
    FIRST_PLAYER = b"dealerless/first-player"
    KEY_SHARE = b"dealerless/key-share"
    SAS = b"dealerless/short-auth-string"
    HELLO_COMMIT = b"dealerless/hello-commit"
    MINED_NONCE = b"dealerless/mined/nonce"
    MINED_MAP_SEED = b"dealerless/mined/map-seed"
    MINED_MAP = b"dealerless/mined/map"
    MINED_TIE = b"dealerless/mined/tie"
    SEAL_GENERATOR = b"dealerless/h2p/seal"
    SEAL_KEY = b"dealerless/seal/key"
    SEAL_KEY_PROOF = b"dealerless/challenge/seal-key"
    SEAL_CONTEXT = b"dealerless/seal/context"
    SEAL_COEFF = b"dealerless/seal/coefficient"
    SEAL_SHARE = b"dealerless/challenge/seal-share"
    SEAL_DECRYPT = b"dealerless/challenge/seal-decrypt"
    SEAL_STREAM = b"dealerless/seal/stream"
    HOST_PIN = b"dealerless/host-pin"
    INVITE_ROOM = b"dealerless/invitation/room"
    INVITE_SEAT = b"dealerless/invitation/seat"
    PAKE_GENERATOR = b"dealerless/h2p/pake"
    PAKE_KEY = b"dealerless/pake/key"
    PAKE_CONFIRM = b"dealerless/pake/confirm"
    RELAY_WORK = b"dealerless/relay/work"
    RELAY_ROOM_KEY = b"dealerless/relay/room-key"
    RELAY_ENTRY = b"dealerless/relay/entry"
    FRAME_KEY = b"dealerless/frame-key"
    FRAME_SIGNATURE = b"dealerless/frame-signature"
    DLEQ_SEED = b"dealerless/dleq-batch/seed"
    DLEQ_WEIGHT = b"dealerless/dleq-batch/weight"
    DLEQ_BATCH = b"dealerless/challenge/dleq-batch"
    SHUFFLE_WEIGHT = b"dealerless/shuffle-weight"

    @property
    def since(self) -> int:
        """The first protocol version with this tag (3.2, 3.5)."""
        return 3 if self in _SINCE_3 else 2


_SINCE_3 = frozenset((Tag.FRAME_KEY, Tag.FRAME_SIGNATURE, Tag.DLEQ_SEED, Tag.DLEQ_WEIGHT,
                      Tag.DLEQ_BATCH, Tag.SHUFFLE_WEIGHT))


def tags(version: int) -> list[Tag]:
    """The domain tags of `version`, in table order."""
    return [t for t in Tag if t.since <= version]


def lp(part: bytes) -> bytes:
    if len(part) >= 1 << 32:
        raise LocalError("hash/part-too-long", "a hash input part is limited to 2^32-1 bytes")
    return len(part).to_bytes(4, "big") + part


def u64(n: int) -> bytes:
    """Fixed-width 8-byte big-endian encoding of a non-negative integer."""
    if not 0 <= n < 1 << 64:
        raise LocalError("hash/int-range", f"{n} does not fit in 64 bits")
    return n.to_bytes(8, "big")


MIN_FRESH_BYTES = 32


def require_fresh(fresh: bytes) -> None:
    """Fresh randomness (or a seed) is at least 32 bytes (spec/01-notation.md 1.3)."""
    if len(fresh) < MIN_FRESH_BYTES:
        raise LocalError("nonce/fresh-too-short", "fresh randomness must be at least 32 bytes")
