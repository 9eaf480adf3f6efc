"""edwards25519 in pure Python: RFC 8032 5.1 arithmetic and the 2.3 decoding rules.

Spec 1.1 (constants), 2.3 (which rule a refused encoding breaks) and RFC 8032 5.1.2-5.1.4
(encoding, decoding, addition), with no library. Used by group.ops to name the rule a point
breaks, by group.hashing for 3.3's pseudocode, and by wire.ed25519 and wire.setup_pure.

[W7] 8.3 step 5: RFC 8032 5.1.3 step 4 (x = 0 with the sign bit set fails) is applied;
     it cannot be reached, since y = 1 and y = p - 1 already fail step 3.
"""

from __future__ import annotations

# --- 1.1 constants, RFC 8032 5.1 ---------------------------------------------------------
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
MASK255 = 2**255 - 1


def int_le(b: bytes) -> int:
    return int.from_bytes(b, "little")


# --- edwards25519: -x^2 + y^2 = 1 + d x^2 y^2, extended coordinates (X, Y, Z, T) ---------
Point = tuple[int, int, int, int]
NEUTRAL: Point = (0, 1, 1, 0)


def pt_add(a: Point, b: Point) -> Point:
    """RFC 8032 5.1.4 addition (complete for a = -1)."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa, bb = (y1 - x1) * (y2 - x2) % P, (y1 + x1) * (y2 + x2) % P
    cc, dd = 2 * D * t1 * t2 % P, 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def pt_neg(a: Point) -> Point:
    return (-a[0] % P, a[1], a[2], -a[3] % P)


def pt_mul(k: int, a: Point) -> Point:
    acc = NEUTRAL
    for bit in bin(k)[2:] if k > 0 else "":
        acc = pt_add(acc, acc)
        if bit == "1":
            acc = pt_add(acc, a)
    return acc


def pt_eq(a: Point, b: Point) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def encode(a: Point) -> bytes:
    """RFC 8032 5.1.2: y little-endian, bit 255 the low bit of x."""
    zi = pow(a[2], P - 2, P)
    x, y = a[0] * zi % P, a[1] * zi % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def recover_x(y: int, sign: int) -> int | None:
    """RFC 8032 5.1.3 steps 2-4 for a y < p: x from y and its sign bit, or None."""
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if v * x * x % P == u:
        pass
    elif v * x * x % P == -u % P:
        x = x * SQRT_M1 % P
    else:
        return None  # no square root
    if x == 0 and sign:
        return None  # [W7]
    if x & 1 != sign:
        x = P - x
    return x


def decode(b: bytes) -> Point | None:
    """RFC 8032 5.1.3 decoding of 32 bytes; None on failure (non-canonical y or no root)."""
    if len(b) != 32 or (y := int_le(b) & MASK255) >= P:
        return None
    x = recover_x(y, b[31] >> 7)
    return None if x is None else (x, y, 1, x * y % P)


_B = decode((4 * pow(5, P - 2, P) % P).to_bytes(32, "little"))  # y = 4/5, x even
assert _B is not None
B: Point = _B
assert encode(B) == bytes.fromhex("58" + "66" * 31)  # the RFC 8032 base point


# --- 2.3 which rule a refused point breaks -------------------------------------------------
def point_rule(b: bytes) -> str | None:
    """2.3: the first broken rule in table order (None: accepted)."""
    if len(b) != 32:
        return "point/length"
    y, sign = int_le(b) & MASK255, b[31] >> 7
    if y >= P or (y in (1, P - 1) and sign):
        return "point/non-canonical"
    if b == bytes([1]) + bytes(31):
        return "point/identity"
    x = recover_x(y, sign)
    if x is None:
        return "point/not-on-curve"
    a = (x, y, 1, x * y % P)
    if pt_eq(pt_mul(8, a), NEUTRAL):
        return "point/small-order"
    if not pt_eq(pt_mul(L, a), NEUTRAL):
        return "point/torsion"
    return None
