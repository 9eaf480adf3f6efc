"""expand_message_xmd (RFC 9380 section 5.3.1), the uniform bytes under RFC 9380's
hashes to a group."""

from __future__ import annotations

import hashlib


def expand_message_xmd(name: str, msg: bytes, dst: bytes, length: int) -> bytes:
    """`length` uniform bytes from `msg` under the tag `dst`, with the hash `name` of
    hashlib (a Merkle-Damgard hash: "sha256" or "sha512")."""
    h = hashlib.new(name)
    b_in_bytes, r_in_bytes = h.digest_size, h.block_size
    ell = -(-length // b_in_bytes)
    if ell > 255 or length > 65535 or len(dst) > 255:
        raise ValueError("expand_message_xmd: output or tag too long (RFC 9380 5.3.1)")
    dst_prime = dst + bytes([len(dst)])
    b0 = hashlib.new(name, bytes(r_in_bytes) + msg + length.to_bytes(2, "big") + b"\0"
                     + dst_prime).digest()
    b = [hashlib.new(name, b0 + b"\1" + dst_prime).digest()]
    for i in range(2, ell + 1):
        mixed = bytes(x ^ y for x, y in zip(b0, b[-1], strict=True))
        b.append(hashlib.new(name, mixed + bytes([i]) + dst_prime).digest())
    return b"".join(b)[:length]
