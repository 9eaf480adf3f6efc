"""BLS12-381 G1 in pure Python, with spec/02-group.md 2.5's encoding and decoding rules.

E: y^2 = x^3 + 4 over GF(p); G1 is its subgroup of prime order r (cofactor h). Points are
Jacobian triples (X, Y, Z) standing for (X/Z^2, Y/Z^3); Z = 0 is the identity. The element
encoding is the compressed form of ZCash's BLS12-381 serialisation (48 bytes, x big-endian,
flags 0x80 compressed, 0x40 infinity, 0x20 "y is the larger of y and p - y"). Constants:
RFC 9380 8.8.1 and draft-irtf-cfrg-pairing-friendly-curves (BLS12-381).
"""

from __future__ import annotations

from independent.errors import fail

P = int("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf"
        "6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16)
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
B = 4
H_COFACTOR = 0x396C8C005555E1568C00AAAB0000AAAB  # #E(GF(p)) = h * r
ORDER = R
ELEMENT_BYTES = 48
GX = int("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905"
         "a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb", 16)
GY = int("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af6"
         "00db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1", 16)
assert (GY * GY - GX**3 - B) % P == 0

Jac = tuple[int, int, int]
INFINITY: Jac = (1, 1, 0)
GENERATOR: Jac = (GX, GY, 1)
X_MASK = (1 << 381) - 1
IDENTITY_BYTES = bytes([0xC0]) + bytes(47)


def inv(a: int) -> int:
    """1/a mod p (0 for 0, RFC 9380's inv0)."""
    return pow(a, P - 2, P)


def sqrt(a: int) -> int | None:
    """A square root mod p (p = 3 mod 4), or None if a is not a square."""
    y = pow(a, (P + 1) // 4, P)
    return y if y * y % P == a % P else None


# --- the group law, Jacobian coordinates (EFD dbl-2009-l, add-2007-bl; a = 0) -------------
def double(pt: Jac) -> Jac:
    x1, y1, z1 = pt
    if z1 == 0 or y1 == 0:
        return INFINITY
    a, b = x1 * x1 % P, y1 * y1 % P
    c = b * b % P
    d = 2 * ((x1 + b) ** 2 - a - c) % P
    e = 3 * a % P
    x3 = (e * e - 2 * d) % P
    return x3, (e * (d - x3) - 8 * c) % P, 2 * y1 * z1 % P


def add(p1: Jac, p2: Jac) -> Jac:
    """P1 + P2, complete: the identity, P + P and P + (-P) are handled."""
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    if z1 == 0:
        return p2
    if z2 == 0:
        return p1
    z1z1, z2z2 = z1 * z1 % P, z2 * z2 % P
    u1, u2 = x1 * z2z2 % P, x2 * z1z1 % P
    s1, s2 = y1 * z2 * z2z2 % P, y2 * z1 * z1z1 % P
    h = (u2 - u1) % P
    if h == 0:
        return double(p1) if s1 == s2 else INFINITY
    i = 4 * h * h % P
    j = h * i % P
    rr = 2 * (s2 - s1) % P
    v = u1 * i % P
    x3 = (rr * rr - j - 2 * v) % P
    y3 = (rr * (v - x3) - 2 * s1 * j) % P
    return x3, y3, ((z1 + z2) ** 2 - z1z1 - z2z2) * h % P


def neg(pt: Jac) -> Jac:
    return pt[0], -pt[1] % P, pt[2]


def mul_raw(k: int, pt: Jac) -> Jac:
    """k*P for an integer k >= 0, not reduced mod r (the subgroup check needs r*P), by
    4-bit fixed windows: a table of 0..15 P, four doublings and one addition per window."""
    table = [INFINITY, pt]
    for _ in range(14):
        table.append(add(table[-1], pt))
    acc = INFINITY
    for shift in range((k.bit_length() + 3) // 4 * 4 - 4, -4, -4):
        acc = double(double(double(double(acc))))
        acc = add(acc, table[(k >> shift) & 15])
    return acc


def mul(k: int, pt: Jac) -> Jac:
    """k*P in G1: k is reduced mod r first."""
    return mul_raw(k % R, pt)


def to_affine(pt: Jac) -> tuple[int, int] | None:
    """(x, y), or None for the identity."""
    x, y, z = pt
    if z == 0:
        return None
    zi = inv(z)
    zi2 = zi * zi % P
    return x * zi2 % P, y * zi2 * zi % P


def is_identity(pt: Jac) -> bool:
    return pt[2] == 0


def equal(p1: Jac, p2: Jac) -> bool:
    return is_identity(add(p1, neg(p2)))


def on_curve(pt: Jac) -> bool:
    a = to_affine(pt)
    return a is None or (a[1] * a[1] - a[0] ** 3 - B) % P == 0


# --- 2.5 encoding and decoding -------------------------------------------------------------
def encode(pt: Jac) -> bytes:
    """The compressed ZCash encoding: c0 00 .. 00 for the identity, otherwise x big-endian
    with the compressed flag and, if y > p - y, the sort flag."""
    a = to_affine(pt)
    if a is None:
        return IDENTITY_BYTES
    x, y = a
    flags = 0x80 | (0x20 if y > P - y else 0)
    out = bytearray(x.to_bytes(48, "big"))
    out[0] |= flags
    return bytes(out)


def decode(b: bytes) -> Jac:
    """spec 2.5 "Decoding a received bls12381g1 element": the first broken rule, in order
    point/length, point/non-canonical (flag, x >= p), point/identity or point/non-canonical
    (infinity flag), point/not-on-curve, point/torsion, point/non-canonical (re-encoding)."""
    if len(b) != ELEMENT_BYTES:
        fail("point/length")  # rule 0
    x = int.from_bytes(b, "big") & X_MASK
    if not b[0] & 0x80 or x >= P:
        fail("point/non-canonical")  # rule 1
    if b[0] & 0x40:  # rule 2
        fail("point/identity" if b == IDENTITY_BYTES else "point/non-canonical")
    y = sqrt(x * x * x + B)
    if y is None:
        fail("point/not-on-curve")  # rule 3
    if (y > P - y) != bool(b[0] & 0x20):
        y = P - y
    pt = (x, y, 1)
    if not is_identity(mul_raw(R, pt)):
        fail("point/torsion")  # rule 4
    if encode(pt) != b:
        fail("point/non-canonical")  # rule 5
    return pt
