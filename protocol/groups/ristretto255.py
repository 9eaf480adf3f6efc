"""ristretto255 (RFC 9496) through libsodium, as the rbcl wheel bundles it (spec/02-group.md
2.5).

The wheel carries libsodium as bytes and writes them to a temporary file on every import
(rbcl/_sodium.py); the library stays loaded once it is mapped, so the file is removed
here at once, and no run leaves one behind. Its libsodium (1.0.18) accepts an encoding
with the top bit set as if the bit were clear; RFC 9496 4.3.1 refuses it, and so does
`decode`, first.
"""

from __future__ import annotations

import contextlib
import os
import sys

import rbcl

from ..errors import EncodingError
from .base import Element, HashedGroup
from .ops import OPS
from .xmd import expand_message_xmd

with contextlib.suppress(OSError, AttributeError):
    os.unlink(sys.modules["rbcl._sodium"].lib_path)

#: The field prime 2^255 - 19 (an encoding is a field element below it).
P = 2**255 - 19


class Ristretto255(HashedGroup):
    name = "ristretto255"
    order = 2**252 + 27742317777372353535851937790883648493
    element_bytes = 32
    byteorder = "little"
    identity = Element(bytes(32))
    generator = Element(rbcl.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little")))
    h2c_suite = "ristretto255_XMD:SHA-512_R255MAP_RO_"

    def decode(self, data: bytes) -> Element:
        """RFC 9496 4.3.1: s is a canonical field element (below p, top bit clear), not
        negative (even), and decodes; the identity is refused (2.5)."""
        self._length(data)
        OPS.valid += 1
        s = int.from_bytes(data, "little")
        if s >= P or s & 1:
            raise EncodingError("point/non-canonical", "not the canonical encoding of a "
                                "ristretto255 element")
        if s == 0:
            raise EncodingError("point/identity", "the identity is not a valid element here")
        if not rbcl.crypto_core_ristretto255_is_valid_point(data):
            raise EncodingError("point/not-on-curve", "not the encoding of a ristretto255 "
                                "element")
        return Element(data)

    def add(self, p: Element, q: Element) -> Element:
        OPS.add += 1
        return Element(rbcl.crypto_core_ristretto255_add(p.data, q.data))

    def sub(self, p: Element, q: Element) -> Element:
        OPS.add += 1
        return Element(rbcl.crypto_core_ristretto255_sub(p.data, q.data))

    def neg(self, p: Element) -> Element:
        return self.sub(self.identity, p)

    def mul(self, k: int, p: Element) -> Element:
        k %= self.order
        if k == 0 or p == self.identity:
            return self.identity   # libsodium refuses to return the identity
        OPS.var += 1
        return Element(rbcl.crypto_scalarmult_ristretto255(k.to_bytes(32, "little"), p.data))

    def base_mul(self, k: int) -> Element:
        k %= self.order
        if k == 0:
            return self.identity
        OPS.base += 1
        return Element(rbcl.crypto_scalarmult_ristretto255_base(k.to_bytes(32, "little")))

    def from_uniform(self, data: bytes) -> Element:
        """RFC 9496 4.3.4, the one-way map of 64 uniform bytes."""
        if len(data) != 64:
            raise ValueError("the one-way map takes 64 bytes")
        OPS.h2p += 1
        return Element(rbcl.crypto_core_ristretto255_from_hash(data))

    def hash_to_group(self, msg: bytes, dst: bytes) -> Element:
        """RFC 9380 appendix B: the one-way map of 64 bytes from expand_message_xmd with
        SHA-512."""
        return self.from_uniform(expand_message_xmd("sha512", msg, dst, 64))


GROUP = Ristretto255()
