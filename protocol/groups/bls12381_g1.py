"""BLS12-381 G1 through arkworks (py-arkworks-bls12381), for the chains' suite (spec/02-group.md
2.5): elements in the 48-byte compressed encoding of ZCash, which Chia and EIP-2537
tools read; scalars big-endian, as both chains take them.

arkworks' checked decoding refuses points off the curve and outside the subgroup, but
accepts more than one encoding of the identity, and its MSM drops terms past the
shorter of its two lists: `decode` re-encodes and compares, and `msm` checks lengths.
"""

from __future__ import annotations

from collections.abc import Sequence

from py_arkworks_bls12381 import G1Point, Scalar

from ..errors import EncodingError
from .base import Element, HashedGroup
from .ops import OPS

#: The base field prime.
P = int("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9f"
        "effffffffaaab", 16)


def _el(p: G1Point) -> Element:
    return Element(bytes(p.to_compressed_bytes()), p)


def _native(p: Element) -> G1Point:
    return p.native if p.native is not None else G1Point.from_compressed_bytes(p.data)


_GENERATOR = G1Point()


class Bls12381G1(HashedGroup):
    name = "bls12381g1"
    order = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
    element_bytes = 48
    byteorder = "big"
    identity = _el(G1Point.identity())
    generator = _el(G1Point())
    h2c_suite = "BLS12381G1_XMD:SHA-256_SSWU_RO_"

    def decode(self, data: bytes) -> Element:
        """The compressed flag set, x below p, a point of the curve in the prime-order
        subgroup, in its one canonical encoding; not the identity (2.5)."""
        self._length(data)
        OPS.valid += 1
        if not data[0] & 0x80 or int.from_bytes(data, "big") & ((1 << 381) - 1) >= P:
            raise EncodingError("point/non-canonical", "not a canonical compressed "
                                "BLS12-381 G1 encoding")
        if data[0] & 0x40:
            raise EncodingError("point/identity" if data == self.identity.data else
                                "point/non-canonical", "the identity is not a valid "
                                "element here")
        try:
            point = G1Point.from_compressed_bytes(data)
        except Exception:   # arkworks raises its own error types; all mean "invalid"
            raise EncodingError(self._why(data), "not a point of BLS12-381 G1") from None
        element = _el(point)
        if element.data != data:
            raise EncodingError("point/non-canonical", "not the canonical encoding")
        return element

    @staticmethod
    def _why(data: bytes) -> str:
        """Name the rule a compressed encoding that arkworks refused breaks."""
        try:
            G1Point.from_compressed_bytes_unchecked(data)
        except Exception:
            return "point/not-on-curve"
        return "point/torsion"

    def add(self, p: Element, q: Element) -> Element:
        OPS.add += 1
        return _el(_native(p) + _native(q))

    def sub(self, p: Element, q: Element) -> Element:
        OPS.add += 1
        return _el(_native(p) - _native(q))

    def neg(self, p: Element) -> Element:
        return _el(-_native(p))

    def mul(self, k: int, p: Element) -> Element:
        OPS.var += 1
        return _el(_native(p) * Scalar(k % self.order))

    def base_mul(self, k: int) -> Element:
        # arkworks has no table for the generator: a multiplication like any other, counted
        # as the base one it stands for, so that every suite's steps count alike.
        OPS.base += 1
        return _el(_GENERATOR * Scalar(k % self.order))

    def msm(self, scalars: Sequence[int], points: Sequence[Element]) -> Element:
        """arkworks' multi-scalar multiplication (Pippenger)."""
        if len(scalars) != len(points):
            raise ValueError("an MSM takes as many scalars as points")
        if not points:
            return self.identity
        OPS.msm += 1
        OPS.msm_terms += len(points)
        OPS.msm_sizes[len(points)] = OPS.msm_sizes.get(len(points), 0) + 1
        return _el(G1Point.multiexp_unchecked([_native(p) for p in points],
                                              [Scalar(k % self.order) for k in scalars]))

    def hash_to_group(self, msg: bytes, dst: bytes) -> Element:
        """RFC 9380 8.8.1, BLS12381G1_XMD:SHA-256_SSWU_RO_."""
        OPS.h2p += 1
        return _el(G1Point.hash_to_curve(msg, dst))


GROUP = Bls12381G1()
