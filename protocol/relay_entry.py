"""The room key: who may take a place in a relay room (spec/12-peers.md 12.5 "Room key").

A room's path is no secret: the relay's operator sees every one, and so does anyone on
a ws:// path. So that nobody without the invitation can take a room's connections,
each room has an Ed25519 key pair derived from the room secret every invitation of the
table carries (R, 12.3 "The invitation") and the room's id:

    seed = H(RELAY_ROOM_KEY, R, room)[:32]

Whoever opens the room hands the relay the public key; whoever enters a room that
exists signs H(RELAY_ENTRY, challenge, room), for a challenge the relay drew for that
one connection. The relay checks the signature and so learns nothing that would let
it, or anyone who watched, enter: a recorded signature answers no other challenge, and
the seed gives nothing back of R.

Sans-IO like the rest of protocol/: the relay draws the challenge; this module derives,
signs and checks (RFC 8032 signing is deterministic).
"""

from __future__ import annotations

from nacl.bindings import crypto_core_ed25519_is_valid_point

from .hashing import H, Tag
from .identity import Identity, SignatureError, verify_signature

ROOM_SEED_BYTES = 32
#: A room's public key and an entry signature, as 12.5's text lines carry them (hex).
ROOM_KEY_BYTES, ENTRY_SIGNATURE_BYTES = 32, 64


def room_seed(secret: bytes, room: str) -> bytes:
    """The seed of room `room`'s key pair (`room`: its id in ASCII hex; `secret`: R)."""
    return H(Tag.RELAY_ROOM_KEY, secret, room.encode("ascii"))[:ROOM_SEED_BYTES]


def room_key(seed: bytes) -> bytes:
    """The public key the opener hands the relay."""
    return Identity(seed).public_key


def key_valid(key: bytes) -> bool:
    """Whether `key` may be a room's key: a canonical point of edwards25519, not of small
    order (libsodium's check), so that no signature verifies under it by accident."""
    return len(key) == ROOM_KEY_BYTES and bool(crypto_core_ed25519_is_valid_point(key))


def entry_message(challenge: bytes, room: str) -> bytes:
    return H(Tag.RELAY_ENTRY, challenge, room.encode("ascii"))


def sign_entry(seed: bytes, challenge: bytes, room: str) -> bytes:
    """The answer to the relay's `prove challenge` for room `room`."""
    return Identity(seed).sign(entry_message(challenge, room))


def entry_valid(key: bytes, challenge: bytes, room: str, signature: bytes) -> bool:
    """Whether `signature` proves the room's seed for this challenge (libsodium's check:
    it refuses small-order keys and non-canonical signatures)."""
    try:
        verify_signature(key, entry_message(challenge, room), signature)
    except SignatureError:
        return False
    return True
