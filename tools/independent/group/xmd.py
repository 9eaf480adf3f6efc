"""RFC 9380 5.3.1 expand_message_xmd and 5.2 hash_to_field, for SHA-256 and SHA-512.

Used by the hashes to the group of spec/02-group.md 2.5 (ristretto255, bls12381g1) and by
the H_scalar of a SHA-256 suite (spec/03-hashing.md 3.5). Pure Python over hashlib.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from independent.errors import fail

#: name -> (constructor, b_in_bytes, s_in_bytes): output and block sizes (RFC 9380 5.3.1).
HASHES: dict[str, tuple[Callable[[bytes], Any], int, int]] = {
    "sha256": (hashlib.sha256, 32, 64),
    "sha512": (hashlib.sha512, 64, 128),
}
OVERSIZE_PREFIX = b"H2C-OVERSIZE-DST-"  # RFC 9380 5.3.3


def short_dst(dst: bytes, hash_name: str) -> bytes:
    """RFC 9380 5.3.3: a DST longer than 255 bytes is replaced by H("H2C-OVERSIZE-DST-" ||
    DST); a shorter one is used as it is."""
    if len(dst) <= 255:
        return dst
    return bytes(HASHES[hash_name][0](OVERSIZE_PREFIX + dst).digest())


def expand_message_xmd(msg: bytes, dst: bytes, len_in_bytes: int, hash_name: str) -> bytes:
    """RFC 9380 5.3.1, steps 1-12. `dst` must already be at most 255 bytes (short_dst)."""
    h, b_in_bytes, s_in_bytes = HASHES[hash_name]
    ell = -(-len_in_bytes // b_in_bytes)
    if ell > 255 or len_in_bytes > 65535 or len(dst) > 255:
        fail("h2c/expand-abort")  # step 2
    dst_prime = dst + bytes([len(dst)])
    msg_prime = bytes(s_in_bytes) + msg + len_in_bytes.to_bytes(2, "big") + b"\x00" + dst_prime
    b0 = h(msg_prime).digest()
    bi = h(b0 + b"\x01" + dst_prime).digest()
    out = [bi]
    for i in range(2, ell + 1):
        bi = h(bytes(x ^ y for x, y in zip(b0, bi, strict=True)) + bytes([i]) + dst_prime).digest()
        out.append(bi)
    return b"".join(out)[:len_in_bytes]


def hash_to_field(msg: bytes, dst: bytes, count: int, modulus: int, length: int,
                  hash_name: str) -> list[int]:
    """RFC 9380 5.2 for a prime field (m = 1): `count` elements, each `length` (L) bytes of
    expand_message_xmd read big-endian (OS2IP) and reduced mod `modulus`."""
    uniform = expand_message_xmd(msg, dst, count * length, hash_name)
    return [int.from_bytes(uniform[i * length:(i + 1) * length], "big") % modulus
            for i in range(count)]
