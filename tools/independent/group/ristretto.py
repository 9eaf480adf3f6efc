"""ristretto255 in pure Python (RFC 9496 4), with spec/02-group.md 2.5's decoding rules.

An element is an edwards25519 point in extended coordinates (group.curve), standing for its
coset; RFC 9496 4.3.1 decodes, 4.3.2 encodes, 4.3.3 compares, 4.3.4 derives an element from
64 uniform bytes, and RFC 9380 appendix B hashes to the group with expand_message_xmd
(SHA-512), suite `ristretto255_XMD:SHA-512_R255MAP_RO_`.
"""

from __future__ import annotations

from independent.errors import fail
from independent.group.curve import SQRT_M1, D, L, P, Point, pt_add, pt_neg
from independent.group.xmd import expand_message_xmd, short_dst

ORDER = L
H2C_SUITE = "ristretto255_XMD:SHA-512_R255MAP_RO_"
ELEMENT_BYTES = 32

# --- RFC 9496 4.1 constants, checked against their definitions below ----------------------
SQRT_AD_MINUS_ONE = 25063068953384623474111414158702152701244531502492656460079210482610430750235
INVSQRT_A_MINUS_D = 54469307008909316920995813868745141605393597292927456921205312896311721017578
ONE_MINUS_D_SQ = 1159843021668779879193775521855586647937357759715417654439879720876111806838
D_MINUS_ONE_SQ = 40440834346308536858101042469323190826248399146238708352240133220865137265952
assert SQRT_M1 == 19681161376707505956807079304988542015446066515923890162744021073123829784752
assert SQRT_AD_MINUS_ONE**2 % P == (-D - 1) % P  # sqrt(a*d - 1), a = -1
assert INVSQRT_A_MINUS_D**2 * (-1 - D) % P == 1  # 1/sqrt(a - d)
assert ONE_MINUS_D_SQ == (1 - D * D) % P and D_MINUS_ONE_SQ == (D - 1) ** 2 % P

IDENTITY: Point = (0, 1, 1, 0)


def is_negative(x: int) -> bool:
    """RFC 9496 2.1: a field element is negative iff its canonical encoding has the low bit set."""
    return x % P & 1 == 1


def ct_abs(x: int) -> int:
    """RFC 9496 4.2 CT_ABS (here not constant-time: a verifier handles public data)."""
    return (-x) % P if is_negative(x) else x % P


def sqrt_ratio_m1(u: int, v: int) -> tuple[bool, int]:
    """RFC 9496 4.2 SQRT_RATIO_M1: (was_square, r) with r the non-negative sqrt(u/v), or
    sqrt(i*u/v) when u/v is not a square."""
    u, v = u % P, v % P
    v3 = v * v * v % P
    r = u * v3 * pow(u * v3 * v3 * v % P, (P - 5) // 8, P) % P
    check = v * r * r % P
    correct = check == u
    flipped = check == (-u) % P
    flipped_i = check == (-u * SQRT_M1) % P
    if flipped or flipped_i:
        r = r * SQRT_M1 % P
    return correct or flipped, ct_abs(r)


# --- 2.5 decoding rules, RFC 9496 4.3.1 ----------------------------------------------------
def decode(b: bytes) -> Point:
    """spec 2.5 "Decoding a received ristretto255 element": the first broken rule, in order
    point/length, point/non-canonical, point/identity, point/not-on-curve (SpecError)."""
    if len(b) != ELEMENT_BYTES:
        fail("point/length")
    s = int.from_bytes(b, "little")
    if s >= P or is_negative(s):  # rule 1: s >= p includes the top bit set
        fail("point/non-canonical")
    if s == 0:
        fail("point/identity")  # rule 2
    pt = decode_value(s)
    if pt is None:
        fail("point/not-on-curve")  # rule 3
    return pt


def decode_value(s: int) -> Point | None:
    """RFC 9496 4.3.1 steps 2-4 for a canonical, non-negative s; None when decoding fails
    (no square root, t negative, or y = 0)."""
    ss = s * s % P
    u1, u2 = (1 - ss) % P, (1 + ss) % P
    u2_sqr = u2 * u2 % P
    v = (-(D * u1 * u1) - u2_sqr) % P
    was_square, invsqrt = sqrt_ratio_m1(1, v * u2_sqr)
    den_x = invsqrt * u2 % P
    den_y = invsqrt * den_x * v % P
    x = ct_abs(2 * s * den_x)
    y = u1 * den_y % P
    t = x * y % P
    if not was_square or is_negative(t) or y == 0:
        return None
    return (x, y, 1, t)


def encode(pt: Point) -> bytes:
    """RFC 9496 4.3.2: the canonical 32-byte encoding of the element (the identity is 0)."""
    x0, y0, z0, t0 = pt
    u1 = (z0 + y0) * (z0 - y0) % P
    u2 = x0 * y0 % P
    _, invsqrt = sqrt_ratio_m1(1, u1 * u2 * u2)
    den1, den2 = invsqrt * u1 % P, invsqrt * u2 % P
    z_inv = den1 * den2 * t0 % P
    ix0, iy0 = x0 * SQRT_M1 % P, y0 * SQRT_M1 % P
    enchanted_denominator = den1 * INVSQRT_A_MINUS_D % P
    rotate = is_negative(t0 * z_inv)
    x, y = (iy0, ix0) if rotate else (x0, y0)
    den_inv = enchanted_denominator if rotate else den2
    if is_negative(x * z_inv):
        y = -y
    s = ct_abs(den_inv * (z0 - y))
    return s.to_bytes(32, "little")


def equal(a: Point, b: Point) -> bool:
    """RFC 9496 4.3.3: x1*y2 == y1*x2 or y1*y2 == x1*x2."""
    return (a[0] * b[1] - a[1] * b[0]) % P == 0 or (a[1] * b[1] - a[0] * b[0]) % P == 0


# --- the group law (RFC 9496 4.4: that of edwards25519) ------------------------------------
add = pt_add
neg = pt_neg


def mul(k: int, pt: Point) -> Point:
    """k*P for any integer k (reduced mod L), by 4-bit fixed windows."""
    k %= L
    table = [IDENTITY, pt]
    for _ in range(14):
        table.append(pt_add(table[-1], pt))
    acc = IDENTITY
    for shift in range((k.bit_length() + 3) // 4 * 4 - 4, -4, -4):
        for _ in range(4):
            acc = pt_add(acc, acc)
        acc = pt_add(acc, table[(k >> shift) & 15])
    return acc


GENERATOR = decode(bytes.fromhex(
    "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76"))  # RFC 9496 4.4


# --- RFC 9496 4.3.4 element derivation and RFC 9380 appendix B ----------------------------
def map_to_point(t: int) -> Point:
    """RFC 9496 4.3.4 MAP: one field element to an edwards25519 point (Elligator)."""
    r = SQRT_M1 * t * t % P
    u = (r + 1) * ONE_MINUS_D_SQ % P
    v = (-1 - r * D) * (r + D) % P
    was_square, s = sqrt_ratio_m1(u, v)
    s_prime = -ct_abs(s * t) % P
    s = s if was_square else s_prime
    c = P - 1 if was_square else r
    n = (c * (r - 1) * D_MINUS_ONE_SQ - v) % P
    w0 = 2 * s * v % P
    w1 = n * SQRT_AD_MINUS_ONE % P
    w2 = (1 - s * s) % P
    w3 = (1 + s * s) % P
    return (w0 * w3 % P, w2 * w1 % P, w1 * w3 % P, w0 * w2 % P)


def from_uniform_bytes(b: bytes) -> Point:
    """RFC 9496 4.3.4: 64 bytes; each half with its top bit masked is a field element
    (reduced mod p), and the element is MAP(r0) + MAP(r1)."""
    if len(b) != 64:
        fail("h2p/length")
    mask = (1 << 255) - 1
    r0 = (int.from_bytes(b[:32], "little") & mask) % P
    r1 = (int.from_bytes(b[32:], "little") & mask) % P
    return pt_add(map_to_point(r0), map_to_point(r1))


def hash_to_group(msg: bytes, dst: bytes) -> Point:
    """RFC 9380 appendix B hash_to_ristretto255: the one-way map of 64 bytes of
    expand_message_xmd(msg, DST, 64) with SHA-512."""
    return from_uniform_bytes(expand_message_xmd(msg, short_dst(dst, "sha512"), 64, "sha512"))
