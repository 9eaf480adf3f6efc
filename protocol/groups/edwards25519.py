"""edwards25519's prime-order subgroup through libsodium (PyNaCl): the group of
`edwards25519-sha512`, dealerless/2's only group (spec/02-group.md 2.3, 2.5).

libsodium is constant-time and checks its inputs; scalars stay Python ints, whose
arithmetic is faster than a binding's. Results of operations on valid elements may be
the identity (P - P), which libsodium refuses as a multiplication input, so `mul`
handles that case itself rather than fail.
"""

from __future__ import annotations

from nacl import bindings as _na
from nacl.exceptions import RuntimeError as _NaclRuntimeError

from ..errors import EncodingError
from .base import Element, Group
from .ops import OPS

#: The field prime.
P_FIELD = 2**255 - 19
IDENTITY_BYTES = b"\x01" + bytes(31)


class Edwards25519(Group):
    name = "edwards25519"
    order = 2**252 + 27742317777372353535851937790883648493   # RFC 8032 5.1
    element_bytes = 32
    byteorder = "little"
    identity = Element(IDENTITY_BYTES)
    #: The standard base point B of RFC 8032.
    generator = Element(_na.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little")))

    def decode(self, data: bytes) -> Element:
        """The canonical encoding of a non-identity element of the prime-order subgroup
        (2.3); anything else raises EncodingError naming the rule."""
        self._length(data)
        OPS.valid += 1
        if _na.crypto_core_ed25519_is_valid_point(data):
            return Element(data)
        raise EncodingError(_classify_invalid(data), "not a valid group element")

    def add(self, p: Element, q: Element) -> Element:
        OPS.add += 1
        return Element(_na.crypto_core_ed25519_add(p.data, q.data))

    def sub(self, p: Element, q: Element) -> Element:
        OPS.add += 1
        return Element(_na.crypto_core_ed25519_sub(p.data, q.data))

    def neg(self, p: Element) -> Element:
        return self.sub(self.identity, p)

    def mul(self, k: int, p: Element) -> Element:
        k %= self.order
        if k == 0 or p.data == IDENTITY_BYTES:
            return self.identity
        OPS.var += 1
        return Element(_na.crypto_scalarmult_ed25519_noclamp(k.to_bytes(32, "little"), p.data))

    def base_mul(self, k: int) -> Element:
        k %= self.order
        if k == 0:
            return self.identity
        OPS.base += 1
        return Element(_na.crypto_scalarmult_ed25519_base_noclamp(k.to_bytes(32, "little")))

    def from_uniform(self, data: bytes) -> Element:
        """libsodium's Elligator 2 map with the cofactor cleared, on 32 bytes: the
        hash to the group of 3.3."""
        OPS.h2p += 1
        return Element(_na.crypto_core_ed25519_from_uniform(data))


def _classify_invalid(data: bytes) -> str:
    """Name the rule an invalid encoding breaks; only runs on the failure path."""
    y = int.from_bytes(data, "little") & ((1 << 255) - 1)
    sign = data[31] >> 7
    if y >= P_FIELD or (sign and y in (1, P_FIELD - 1)):
        return "point/non-canonical"
    if data == IDENTITY_BYTES:
        return "point/identity"
    try:
        two = _na.crypto_core_ed25519_add(data, data)
    except _NaclRuntimeError:
        return "point/not-on-curve"
    eight = _na.crypto_core_ed25519_add(two, two)
    eight = _na.crypto_core_ed25519_add(eight, eight)
    if eight == IDENTITY_BYTES:
        return "point/small-order"
    return "point/torsion"


GROUP = Edwards25519()
