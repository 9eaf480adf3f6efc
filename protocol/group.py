"""The prime-order group of edwards25519 (spec/02-group.md).

Theory of operation
-------------------
Points are kept as their 32-byte compressed encodings and every operation goes
through libsodium (via PyNaCl), which is constant-time and validates its inputs.
Scalars are Python ints reduced mod L: scalar arithmetic is faster in Python than
through the bindings, and only the group operations need libsodium.

Two kinds of point exist here. A *received* point comes from `decode_point`,
which applies every rejection rule of spec/02-group.md section 2.3. An
*internal* point is the result of an operation on valid points; it may be the
identity (e.g. P - P), which libsodium refuses as a scalar-multiplication input,
so `mul` handles that case itself instead of failing.

Every operation bumps `OPS`, a plain counter that the benchmark multiplies by
measured per-operation costs to get each step's cost floor.
"""

from __future__ import annotations

from dataclasses import dataclass

from nacl import bindings as _na
from nacl.exceptions import RuntimeError as _NaclRuntimeError

from .errors import EncodingError

#: Order of the prime-order subgroup (RFC 8032 section 5.1).
L = 2**252 + 27742317777372353535851937790883648493
#: The field prime.
P_FIELD = 2**255 - 19

POINT_BYTES = 32
SCALAR_BYTES = 32
IDENTITY_BYTES = b"\x01" + bytes(31)


@dataclass(frozen=True, slots=True)
class Point:
    """A group element as its canonical 32-byte compressed encoding."""

    data: bytes

    def __bytes__(self) -> bytes:
        return self.data

    def __add__(self, other: Point) -> Point:
        return add(self, other)

    def __sub__(self, other: Point) -> Point:
        return sub(self, other)

    def __rmul__(self, k: int) -> Point:
        return mul(k, self)

    @property
    def is_identity(self) -> bool:
        return self.data == IDENTITY_BYTES

    def __repr__(self) -> str:
        return f"Point({self.data.hex()[:16]}...)"


class OpCounter:
    """Counts group operations for the benchmark's cost floor (spec/09-bench.md)."""

    __slots__ = ("add", "base", "h2p", "hash_blocks", "hash_bytes", "hashes", "sig",
                 "sig_blocks", "valid", "var")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.var = 0
        self.base = 0
        self.add = 0
        self.valid = 0
        self.h2p = 0
        self.sig = 0  # Ed25519 signature verifications (protocol/identity.py)
        self.hashes = 0  # calls of H (protocol/hashing.py) and the bytes they hash,
        self.hash_bytes = 0  # length prefixes included: for on-chain cost estimates
        # SHA-512 compression blocks of those calls, and of the signatures' R || A || m:
        # what a chain without a SHA-512 syscall pays for (spec/09-bench.md 9.3). Not in
        # `snapshot`, whose keys the benchmark reports.
        self.hash_blocks = 0
        self.sig_blocks = 0

    def snapshot(self) -> dict[str, int]:
        return {"var": self.var, "base": self.base, "add": self.add,
                "valid": self.valid, "h2p": self.h2p, "sig": self.sig,
                "hashes": self.hashes, "hash_bytes": self.hash_bytes}


def sha512_blocks(size: int) -> int:
    """The SHA-512 compression blocks of a `size`-byte message: its padding adds a 0x80
    byte and a 16-byte length, rounded up to 128-byte blocks (FIPS 180-4 5.1.2)."""
    return (size + 17 + 127) // 128


OPS = OpCounter()

IDENTITY = Point(IDENTITY_BYTES)
#: The standard base point B of RFC 8032.
G = Point(_na.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little")))


def scalar_bytes(k: int) -> bytes:
    """Encode a scalar (already in [0, L)) as 32 bytes little-endian."""
    return k.to_bytes(SCALAR_BYTES, "little")


def decode_scalar(data: bytes) -> int:
    """Strictly decode a received scalar (spec/02-group.md section 2.4)."""
    if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
        raise EncodingError("scalar/length", "a scalar is exactly 32 bytes")
    k = int.from_bytes(data, "little")
    if k >= L:
        # libsodium's noclamp multiplication would silently treat k and k - L alike;
        # accepting both would make encodings malleable (RFC 8032 section 5.1.7).
        raise EncodingError("scalar/out-of-range", "a scalar must be less than L")
    return k


def decode_point(data: bytes) -> Point:
    """Strictly decode a received point (spec/02-group.md section 2.3).

    Accepts only the canonical encoding of a non-identity element of the
    prime-order subgroup; anything else raises EncodingError naming the rule.
    """
    if not isinstance(data, bytes) or len(data) != POINT_BYTES:
        raise EncodingError("point/length", "a point is exactly 32 bytes")
    OPS.valid += 1
    if _na.crypto_core_ed25519_is_valid_point(data):
        return Point(data)
    raise EncodingError(_classify_invalid(data), "not a valid group element")


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


def add(p: Point, q: Point) -> Point:
    OPS.add += 1
    return Point(_na.crypto_core_ed25519_add(p.data, q.data))


def sub(p: Point, q: Point) -> Point:
    OPS.add += 1
    return Point(_na.crypto_core_ed25519_sub(p.data, q.data))


def mul(k: int, p: Point) -> Point:
    """k*P for a scalar k in [0, L) and a point in the prime-order subgroup."""
    k %= L
    if k == 0 or p.data == IDENTITY_BYTES:
        return IDENTITY
    OPS.var += 1
    return Point(_na.crypto_scalarmult_ed25519_noclamp(k.to_bytes(32, "little"), p.data))


def base_mul(k: int) -> Point:
    """k*G for the standard base point G."""
    k %= L
    if k == 0:
        return IDENTITY
    OPS.base += 1
    return Point(_na.crypto_scalarmult_ed25519_base_noclamp(k.to_bytes(32, "little")))


def from_uniform(r: bytes) -> Point:
    """libsodium's Elligator 2 map with cofactor clearing (spec/03-hashing.md 3.3)."""
    OPS.h2p += 1
    return Point(_na.crypto_core_ed25519_from_uniform(r))


def point_sum(points: list[Point] | tuple[Point, ...]) -> Point:
    if not points:
        return IDENTITY
    acc = points[0]
    for pt in points[1:]:
        acc = add(acc, pt)
    return acc
