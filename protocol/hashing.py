"""Domain-separated hashing (spec/03-hashing.md).

Every hash in dealerless is `H(tag, parts...)`:

    SHA-512( lp(VERSION) || lp(tag) || lp(part_1) || ... || lp(part_n) )

with lp(x) = 4-byte big-endian length of x, then x. The tag comes from the
closed table `Tag`; a hash call with a string outside it is a LocalError, so a
new use of the hash cannot forget its domain.
"""

from __future__ import annotations

import hashlib
from enum import Enum

from .errors import DeckError, LocalError
from .group import IDENTITY_BYTES, OPS, L, Point, from_uniform, sha512_blocks
from .version import VERSION  # hashed into every hash (spec/03-hashing.md 3.1)


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


def lp(part: bytes) -> bytes:
    if len(part) >= 1 << 32:
        raise LocalError("hash/part-too-long", "a hash input part is limited to 2^32-1 bytes")
    return len(part).to_bytes(4, "big") + part


def H(tag: Tag, *parts: bytes) -> bytes:
    """The 64-byte hash of spec/03-hashing.md section 3.1."""
    if not isinstance(tag, Tag):
        raise LocalError("hash/untagged", "every hash needs a tag from the domain table")
    h = hashlib.sha512(lp(VERSION))
    h.update(lp(tag.value))
    size = 8 + len(VERSION) + len(tag.value)
    for part in parts:
        h.update(lp(part))
        size += 4 + len(part)
    OPS.hashes += 1
    OPS.hash_bytes += size
    OPS.hash_blocks += sha512_blocks(size)
    return h.digest()


def hash_to_scalar(tag: Tag, *parts: bytes) -> int:
    """H(...) read as a 512-bit little-endian integer, reduced mod L (bias < 2^-259)."""
    return int.from_bytes(H(tag, *parts), "little") % L


def hash_to_point(tag: Tag, *parts: bytes) -> Point:
    """from_uniform of the first 32 bytes of H(...) (spec/03-hashing.md 3.3)."""
    pt = from_uniform(H(tag, *parts)[:32])
    if pt.data == IDENTITY_BYTES:  # probability ~2^-252; refuse rather than use it
        raise DeckError("h2p/identity", "hash-to-point gave the identity")
    return pt


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


def nonce_scalars(label: bytes, secret: bytes, public: bytes, fresh: bytes,
                  count: int) -> list[int]:
    """Hedged nonces (spec/03-hashing.md 3.4).

    k_j = H_scalar(NONCE, label, secret, public, fresh, u64(j)). Mixing the secret
    and the whole public statement in means a repeated or weak `fresh` still
    gives distinct nonces for distinct statements; `fresh` (from the OS CSPRNG in
    peers/) protects against fault and side-channel attacks on a pure derivation.
    """
    require_fresh(fresh)
    prefix = hashlib.sha512(lp(VERSION))
    prefix.update(lp(Tag.NONCE.value))
    for part in (label, secret, public, fresh):
        prefix.update(lp(part))
    out = []
    for j in range(count):
        h = prefix.copy()
        h.update(lp(u64(j)))
        out.append(int.from_bytes(h.digest(), "little") % L)
    return out
