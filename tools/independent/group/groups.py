"""The three prime-order groups of the ciphersuites behind one interface (spec/02-group.md 2.5).

Each group gives strict decoding of a received element and scalar (with 2.3-2.5's error
codes), the encoding, the group law, a*P, a*G, sum a_i*P_i, and its map to the group:
- `edwards25519`: libsodium through PyNaCl, exactly as group.ops (2.1-2.4); elements are
  their 32-byte encodings, and the map is 3.3's from_uniform of 32 bytes;
- `ristretto255`: group.ristretto, pure Python (RFC 9496); the map is RFC 9380 appendix B;
- `bls12381g1`: group.bls12381 and group.bls_h2c, pure Python; the map is RFC 9380's
  `BLS12381G1_XMD:SHA-256_SSWU_RO_`.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from nacl import bindings as nb

from independent.errors import fail
from independent.group import bls12381 as bls
from independent.group import bls_h2c, ops, ristretto
from independent.group.curve import L, Point

E = TypeVar("E")


class Group(Generic[E]):
    """One group of 2.5's table; E is the type of its elements."""

    name: str
    element_bytes: int
    order: int
    scalar_byteorder: Literal["little", "big"]
    h2c_suite: str  # the RFC 9380 suite identifier of its hash ("" for edwards25519)
    identity: E
    generator: E

    # --- elements -------------------------------------------------------------------------
    def decode(self, b: bytes) -> E:
        raise NotImplementedError

    def encode(self, a: E) -> bytes:
        raise NotImplementedError

    def add(self, a: E, b: E) -> E:
        raise NotImplementedError

    def neg(self, a: E) -> E:
        raise NotImplementedError

    def mul(self, k: int, a: E) -> E:
        """k*P; k is reduced mod the order; 0*P and k*O are the identity (2.2)."""
        raise NotImplementedError

    def hash_to_group(self, msg: bytes, dst: bytes) -> E:
        """The group's RFC 9380 hash_to_curve of msg under dst."""
        raise NotImplementedError

    def sub(self, a: E, b: E) -> E:
        return self.add(a, self.neg(b))

    def double(self, a: E) -> E:
        return self.add(a, a)

    def base_mul(self, k: int) -> E:
        return self.mul(k, self.generator)

    def msm(self, scalars: list[int], points: list[E]) -> E:
        """sum a_i*P_i; the two lists must have the same length (2.5's repair)."""
        if len(scalars) != len(points):
            fail("group/msm-length")
        acc = self.identity
        for k, pt in zip(scalars, points, strict=True):
            acc = self.add(acc, self.mul(k, pt))
        return acc

    def equal(self, a: E, b: E) -> bool:
        return self.encode(a) == self.encode(b)

    def is_identity(self, a: E) -> bool:
        return self.equal(a, self.identity)

    # --- scalars (2.4, 2.5) ---------------------------------------------------------------
    def decode_scalar(self, b: bytes) -> int:
        """Exactly 32 bytes (scalar/length), value below the order (scalar/out-of-range)."""
        if len(b) != 32:
            fail("scalar/length")
        v = int.from_bytes(b, self.scalar_byteorder)
        if v >= self.order:
            fail("scalar/out-of-range")
        return v

    def encode_scalar(self, k: int) -> bytes:
        return (k % self.order).to_bytes(32, self.scalar_byteorder)


class Edwards25519(Group[bytes]):
    """2.1-2.4, through group.ops (libsodium with the special cases for O)."""

    name, element_bytes, order, scalar_byteorder, h2c_suite = (
        "edwards25519", 32, L, "little", "")
    identity, generator = ops.IDENT, ops.G

    def decode(self, b: bytes) -> bytes:
        return ops.decode_point(b)

    def encode(self, a: bytes) -> bytes:
        return a

    def add(self, a: bytes, b: bytes) -> bytes:
        return ops.add(a, b)

    def neg(self, a: bytes) -> bytes:
        return ops.sub(ops.IDENT, a)

    def sub(self, a: bytes, b: bytes) -> bytes:
        return ops.sub(a, b)

    def mul(self, k: int, a: bytes) -> bytes:
        return ops.smul(k, a)

    def base_mul(self, k: int) -> bytes:
        return ops.bmul(k)

    def from_uniform(self, r: bytes) -> bytes:
        """3.3: libsodium's crypto_core_ed25519_from_uniform of 32 bytes."""
        return nb.crypto_core_ed25519_from_uniform(r)

    def hash_to_group(self, msg: bytes, dst: bytes) -> bytes:
        fail("h2p/undefined")  # 3.5: edwards25519-sha512 keeps 3.3's H2P, no RFC 9380 hash


class Ristretto255(Group[Point]):
    """RFC 9496, pure Python (group.ristretto)."""

    name, element_bytes, order, scalar_byteorder, h2c_suite = (
        "ristretto255", 32, ristretto.ORDER, "little", ristretto.H2C_SUITE)
    identity, generator = ristretto.IDENTITY, ristretto.GENERATOR

    def decode(self, b: bytes) -> Point:
        return ristretto.decode(b)

    def encode(self, a: Point) -> bytes:
        return ristretto.encode(a)

    def add(self, a: Point, b: Point) -> Point:
        return ristretto.add(a, b)

    def neg(self, a: Point) -> Point:
        return ristretto.neg(a)

    def mul(self, k: int, a: Point) -> Point:
        return ristretto.mul(k, a)

    def equal(self, a: Point, b: Point) -> bool:
        return ristretto.equal(a, b)

    def from_uniform(self, b: bytes) -> Point:
        """RFC 9496 4.3.4: the element derived from 64 uniform bytes."""
        return ristretto.from_uniform_bytes(b)

    def hash_to_group(self, msg: bytes, dst: bytes) -> Point:
        return ristretto.hash_to_group(msg, dst)


class Bls12381G1(Group[bls.Jac]):
    """BLS12-381 G1, pure Python (group.bls12381, group.bls_h2c)."""

    name, element_bytes, order, scalar_byteorder, h2c_suite = (
        "bls12381g1", 48, bls.ORDER, "big", bls_h2c.SUITE)
    identity, generator = bls.INFINITY, bls.GENERATOR

    def decode(self, b: bytes) -> bls.Jac:
        return bls.decode(b)

    def encode(self, a: bls.Jac) -> bytes:
        return bls.encode(a)

    def add(self, a: bls.Jac, b: bls.Jac) -> bls.Jac:
        return bls.add(a, b)

    def neg(self, a: bls.Jac) -> bls.Jac:
        return bls.neg(a)

    def mul(self, k: int, a: bls.Jac) -> bls.Jac:
        return bls.mul(k, a)

    def equal(self, a: bls.Jac, b: bls.Jac) -> bool:
        return bls.equal(a, b)

    def is_identity(self, a: bls.Jac) -> bool:
        return bls.is_identity(a)

    def double(self, a: bls.Jac) -> bls.Jac:
        return bls.double(a)

    def hash_to_group(self, msg: bytes, dst: bytes) -> bls.Jac:
        return bls_h2c.hash_to_curve(msg, dst)


EDWARDS25519, RISTRETTO255, BLS12381G1 = Edwards25519(), Ristretto255(), Bls12381G1()
GROUPS: dict[str, Group[Any]] = {g.name: g for g in (EDWARDS25519, RISTRETTO255, BLS12381G1)}
