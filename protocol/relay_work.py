"""The proof of work that pays for a relay room (spec/12-peers.md 12.5, "Proof of work").

A relay asks whoever opens a room to find a `nonce` such that

    H(RELAY_WORK, challenge, room, u64(nonce))

starts with `bits` zero bits (read big-endian, first byte first), where `challenge` is
16 bytes the relay drew for this one connection and `room` is the room's rendezvous id
in ASCII hex. Checking costs one hash; finding takes 2^bits hashes on average, so
filling a relay costs the filler real CPU while a host opening one room barely notices.

Sans-IO like the rest of protocol/: the relay draws the challenge and picks `bits`;
this module only hashes, checks and searches (deterministically, from nonce 0 up).
"""

from __future__ import annotations

import hashlib

from .errors import LocalError
from .hashing import PEER, H, Tag, lp, u64

CHALLENGE_BYTES = 16
#: A seat refuses a relay that asks for more: 2^28 hashes is minutes of CPU, and the relay
#: is untrusted (it could otherwise make a host burn its CPU for nothing).
MAX_WORK_BITS = 28


def work_hash(challenge: bytes, room: str, nonce: int) -> bytes:
    return H(Tag.RELAY_WORK, challenge, room.encode("ascii"), u64(nonce))


def zero_bits(digest: bytes) -> int:
    """How many zero bits `digest` starts with."""
    value = int.from_bytes(digest, "big")
    return len(digest) * 8 - value.bit_length()


def meets(challenge: bytes, room: str, nonce: int, bits: int) -> bool:
    """Whether `nonce` answers the challenge at `bits` (one hash)."""
    if len(challenge) != CHALLENGE_BYTES or not 0 <= nonce < 1 << 64:
        return False
    return zero_bits(work_hash(challenge, room, nonce)) >= bits


def solve(challenge: bytes, room: str, bits: int, start: int = 0,
          count: int = 1 << 64) -> int | None:
    """The first nonce in [start, start + count) that meets `bits`, or None.

    Hashes exactly what `work_hash` hashes, but keeps the SHA-512 state of everything
    before the nonce and copies it for each try: about twice as fast in Python."""
    if not 0 <= bits <= MAX_WORK_BITS or len(challenge) != CHALLENGE_BYTES:
        raise LocalError("work/bits", f"a proof of work takes 0 to {MAX_WORK_BITS} bits "
                                      f"and a {CHALLENGE_BYTES}-byte challenge")
    parts = (PEER.context, Tag.RELAY_WORK.value, challenge, room.encode("ascii"))
    prefix = hashlib.sha512(b"".join(lp(p) for p in parts) + (8).to_bytes(4, "big"))
    below = 1 << (512 - bits)   # a digest meets `bits` iff, read as a number, it is below
    for nonce in range(start, min(start + count, 1 << 64)):
        h = prefix.copy()
        h.update(nonce.to_bytes(8, "big"))
        if int.from_bytes(h.digest(), "big") < below:
            return nonce
    return None
