"""One interface over the groups of the ciphersuites (spec/02-group.md 2.5).

An element is kept as its canonical encoding and, where the backend has one, its native
object, so that a chain of operations decodes nothing twice. Received bytes become an
element only through `Group.decode`, which applies every rule of 2.5 for that group and
names the broken one (`point/*`); a received scalar only through `decode_scalar`
(`scalar/*`). Results of operations on valid elements are valid (the groups have prime
order), and may be the identity, which `decode` never returns.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Literal

from ..errors import EncodingError


class Element:
    """A group element: its canonical encoding, and the backend's object for it (not
    compared: the encoding is the element). Immutable by convention; a plain class with
    slots, because a verifier makes tens of thousands and a frozen dataclass takes three
    times as long to build one."""

    __slots__ = ("data", "native")

    def __init__(self, data: bytes, native: Any = None) -> None:
        self.data = data
        self.native = native

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Element) and other.data == self.data

    def __hash__(self) -> int:
        return hash(self.data)

    def __bytes__(self) -> bytes:
        return self.data

    def __repr__(self) -> str:
        return f"Element({self.data.hex()[:16]}...)"


class Group(ABC):
    """A group of prime order `order` with a fixed generator."""

    name: str
    order: int
    element_bytes: int
    scalar_bytes: int = 32
    byteorder: Literal["little", "big"]
    identity: Element
    generator: Element

    @abstractmethod
    def decode(self, data: bytes) -> Element:
        """A received element: the canonical encoding of a group element other than the
        identity; EncodingError naming the rule otherwise (2.5)."""

    @abstractmethod
    def add(self, p: Element, q: Element) -> Element: ...

    @abstractmethod
    def neg(self, p: Element) -> Element: ...

    @abstractmethod
    def mul(self, k: int, p: Element) -> Element:
        """k*P for any integer k (taken mod the order)."""

    def sub(self, p: Element, q: Element) -> Element:
        return self.add(p, self.neg(q))

    def base_mul(self, k: int) -> Element:
        return self.mul(k, self.generator)

    def sum(self, points: Sequence[Element]) -> Element:
        acc = self.identity
        for p in points:
            acc = p if acc is self.identity else self.add(acc, p)
        return acc

    def msm(self, scalars: Sequence[int], points: Sequence[Element]) -> Element:
        """The sum of k_i * P_i: here one multiplication a term, then the sum; a backend
        whose library has a multi-scalar multiplication (Pippenger's) overrides this. The
        lengths must match (a library that drops extra terms must not)."""
        if len(scalars) != len(points):
            raise ValueError("an MSM takes as many scalars as points")
        return self.sum([self.mul(k, p) for k, p in zip(scalars, points, strict=True)])

    def encode_scalar(self, k: int) -> bytes:
        """A scalar in [0, order) as `scalar_bytes` bytes in the group's byte order."""
        return (k % self.order).to_bytes(self.scalar_bytes, self.byteorder)

    def decode_scalar(self, data: bytes) -> int:
        """A received scalar: exactly `scalar_bytes` bytes, below the order (2.5)."""
        if not isinstance(data, bytes) or len(data) != self.scalar_bytes:
            raise EncodingError("scalar/length", f"a scalar is exactly {self.scalar_bytes} "
                                "bytes")
        k = int.from_bytes(data, self.byteorder)
        if k >= self.order:
            raise EncodingError("scalar/out-of-range", "a scalar must be less than the "
                                "group order")
        return k

    def _length(self, data: bytes) -> None:
        if not isinstance(data, bytes) or len(data) != self.element_bytes:
            raise EncodingError("point/length", f"a {self.name} element is exactly "
                                f"{self.element_bytes} bytes")


class HashedGroup(Group):
    """A group with a hash to the group that RFC 9380 defines (or RFC 9496 with it)."""

    #: The RFC 9380 suite identifier of `hash_to_group`.
    h2c_suite: str

    @abstractmethod
    def hash_to_group(self, msg: bytes, dst: bytes) -> Element:
        """hash_to_curve(msg) of `h2c_suite` under the domain separation tag `dst`."""
