"""expand_message_xmd (RFC 9380 section 5.3.1), the uniform bytes under RFC 9380's
hashes to a group."""

from __future__ import annotations

import hashlib


def expand_message_xmd(name: str, msg: bytes, dst: bytes, length: int) -> bytes:
    """`length` uniform bytes from `msg` under the tag `dst`, with the hash `name` of
    hashlib (a Merkle-Damgard hash: "sha256" or "sha512")."""
    return XmdPrefix(name, msg, dst, length).expand(b"")


class XmdPrefix:
    """expand_message_xmd of messages that share the prefix `head`: b_0's hash state is
    kept after Z_pad || head, so that each message hashes only its own tail (a prover's
    nonces share kilobytes of statement, 3.4)."""

    def __init__(self, name: str, head: bytes, dst: bytes, length: int) -> None:
        h = hashlib.new(name)
        self.name, self.length = name, length
        self.ell = -(-length // h.digest_size)
        if self.ell > 255 or length > 65535 or len(dst) > 255:
            raise ValueError("expand_message_xmd: output or tag too long (RFC 9380 5.3.1)")
        self.dst_prime = dst + bytes([len(dst)])
        h.update(bytes(h.block_size) + head)
        self.state = h

    def expand(self, tail: bytes) -> bytes:
        """expand_message_xmd(head || tail)."""
        h0 = self.state.copy()
        h0.update(tail + self.length.to_bytes(2, "big") + b"\0" + self.dst_prime)
        b0 = h0.digest()
        b = [hashlib.new(self.name, b0 + b"\1" + self.dst_prime).digest()]
        for i in range(2, self.ell + 1):
            mixed = bytes(x ^ y for x, y in zip(b0, b[-1], strict=True))
            b.append(hashlib.new(self.name, mixed + bytes([i]) + self.dst_prime).digest())
        return b"".join(b)[:self.length]
