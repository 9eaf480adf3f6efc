"""edwards25519's prime-order subgroup behind the group interface (spec/02-group.md
2.3): the group of dealerless/2, through protocol/group.py, so both read one code."""

from __future__ import annotations

from .. import group as ed
from .base import Element, Group


def _el(p: ed.Point) -> Element:
    return Element(p.data)


class Edwards25519(Group):
    name = "edwards25519"
    order = ed.L
    element_bytes = 32
    byteorder = "little"
    identity = Element(ed.IDENTITY_BYTES)
    generator = Element(ed.G.data)

    def decode(self, data: bytes) -> Element:
        return _el(ed.decode_point(data))

    def add(self, p: Element, q: Element) -> Element:
        return _el(ed.add(ed.Point(p.data), ed.Point(q.data)))

    def neg(self, p: Element) -> Element:
        return _el(ed.sub(ed.IDENTITY, ed.Point(p.data)))

    def mul(self, k: int, p: Element) -> Element:
        return _el(ed.mul(k, ed.Point(p.data)))

    def base_mul(self, k: int) -> Element:
        return _el(ed.base_mul(k))

    def from_uniform(self, data: bytes) -> Element:
        """libsodium's Elligator 2 map with the cofactor cleared, on 32 bytes: the
        H2P of dealerless/2 (spec/03-hashing.md 3.3)."""
        return _el(ed.from_uniform(data))


GROUP = Edwards25519()
