#pragma version ~=0.4.3
"""
@title BLS12-381 G1 and the hash of bls12381g1-sha256 over EIP-2537
@notice Strict decoding of a received element and scalar (spec/02-group.md 2.5) and the
        suite's H_scalar (spec/03-hashing.md 3.5), for g1_checks.vy.
@dev A base-field element is a pair (hi, lo) of words, hi the top 128 bits: the pair's
     64 bytes are exactly EIP-2537's encoding of the element. The EVM has no square root,
     so decoding takes a hint w from the caller (2.6): a square root of x^3 + 4 when the
     point is on the curve, else of -(x^3 + 4), which proves that x^3 + 4 has none
     (p = 3 mod 4: -1 is not a square). Two MODEXP calls check it. A wrong hint reverts:
     it can withhold a verdict, never change one. Rule 4 (the subgroup) is left to the
     callers, which get it from the G1MSM they need anyway (subgroup_ok below otherwise);
     the checks over many elements leave rule 3 to it as well (decode_unchecked).
"""

# The verdict codes: the numbers of peers/chain/clsp/codes.clib (peers/chain/codes.py
# checks that both files agree).
E_POINT_LENGTH: constant(uint8) = 1
E_POINT_NON_CANONICAL: constant(uint8) = 2
E_POINT_IDENTITY: constant(uint8) = 3
E_POINT_NOT_ON_CURVE: constant(uint8) = 4
E_POINT_TORSION: constant(uint8) = 5
E_SCALAR_LENGTH: constant(uint8) = 6
E_SCALAR_OUT_OF_RANGE: constant(uint8) = 7

MODEXP: constant(address) = 0x0000000000000000000000000000000000000005
G1MSM: constant(address) = 0x000000000000000000000000000000000000000C
# EIP-2537: a one-term G1MSM costs 12,000 gas and a two-term one 2 * 12,000 * 949 / 1000.
# A failing precompile burns all the gas it was given, so it is given exactly this much.
G1MSM_1_GAS: constant(uint256) = 12000
G1MSM_2_GAS: constant(uint256) = 22776

# p, (p - 1) / 2 (above it, y is "the larger", the sort flag) and r.
# 0x1a0111ea397fe69a4b1ba7b6434bacd7
P_HI: constant(uint256) = 34565483545414906068789196026815425751
# 0x64774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
P_LO: constant(uint256) = 45442060874369865957053122457065728162598490762543039060009208264153100167851
# 0x0d0088f51cbff34d258dd3db21a5d66b
HALF_HI: constant(uint256) = 17282741772707453034394598013407712875
# 0xb23ba5c279c2895fb39869507b587b120f55ffff58a9ffffdcff7fffffffd555
HALF_LO: constant(uint256) = 80617075055843030690312053732876818007934237714091801549733396136033114903893
# 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
R: constant(uint256) = 52435875175126190479447740508185965837690552500527637822603658699938581184513
X_MASK: constant(uint256) = 2**125 - 1

# The generator: its 48-byte encoding, which challenges hash, and EIP-2537's 128 bytes.
G_ENC: constant(Bytes[48]) = x"97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
G_XY: constant(Bytes[128]) = x"0000000000000000000000000000000017f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb0000000000000000000000000000000008b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"

# lp(context) (3.5), and DST || "-scalar" with its length byte (RFC 9380's DST_prime).
LP_CONTEXT: constant(Bytes[34]) = b"\x00\x00\x00\x1edealerless/3/bls12381g1-sha256"
DST: constant(Bytes[45]) = b"dealerless-V3-BLS12381G1_XMD:SHA-256_SSWU_RO_"
DST_SCALAR_PRIME: constant(Bytes[53]) = b"dealerless-V3-BLS12381G1_XMD:SHA-256_SSWU_RO_-scalar\x34"
# 32 zero bytes; Z_pad of expand_message_xmd is two of them.
ZERO32: constant(bytes32) = empty(bytes32)
# lp() of a 48-byte element or context, of a 32-byte digest and of a u64 (spec/01 1.2).
LP48: constant(Bytes[4]) = x"00000030"
LP32: constant(Bytes[4]) = x"00000020"
LP8: constant(Bytes[4]) = x"00000008"
# I2OSP(48, 2) || I2OSP(0, 1): expand_message_xmd's length and zero byte for 48 bytes.
XMD48: constant(Bytes[3]) = x"003000"


@pure
def lp(n: uint256) -> Bytes[4]:
    """The 4-byte big-endian length n of lp() (spec/01-notation.md 1.2)."""
    return slice(convert(n, bytes32), 28, 4)


@pure
def head(tag: Bytes[32]) -> Bytes[70]:
    """lp(context) || lp(tag): the start of every H (3.5)."""
    return concat(LP_CONTEXT, self.lp(len(tag)), tag)


@pure
def lt(a_hi: uint256, a_lo: uint256, b_hi: uint256, b_lo: uint256) -> bool:
    return a_hi < b_hi or (a_hi == b_hi and a_lo < b_lo)


@pure
def sub_from_p(a_hi: uint256, a_lo: uint256) -> (uint256, uint256):
    """p - a for 0 <= a <= p."""
    borrow: uint256 = 0
    if a_lo > P_LO:
        borrow = 1
    return P_HI - a_hi - borrow, unsafe_sub(P_LO, a_lo)


@pure
def sub_p(a_hi: uint256, a_lo: uint256) -> (uint256, uint256):
    """a - p for p <= a < 2p."""
    borrow: uint256 = 0
    if a_lo < P_LO:
        borrow = 1
    return a_hi - P_HI - borrow, unsafe_sub(a_lo, P_LO)


@view
def modexp(b_hi: uint256, b_lo: uint256, e: uint256) -> (uint256, uint256):
    """b^e mod p by the MODEXP precompile (EIP-198): 64-byte base and modulus, 1-byte e."""
    out: Bytes[64] = raw_call(
        MODEXP,
        concat(convert(64, bytes32), convert(1, bytes32), convert(64, bytes32),
               convert(b_hi, bytes32), convert(b_lo, bytes32), convert(convert(e, uint8), bytes1),
               convert(P_HI, bytes32), convert(P_LO, bytes32)),
        max_outsize=64, is_static_call=True)
    return convert(extract32(out, 0), uint256), convert(extract32(out, 32), uint256)


@view
def decode(enc: Bytes[96], w: uint256[2]) -> (uint8, Bytes[128]):
    """
    @notice Rules 0-3 of 2.5 on a received element, in order; with 0, the element as
            EIP-2537's 128 bytes. Rule 5 cannot fail after rules 1-3: with the infinity
            flag clear, the compressed flag set and x < p the encoding is the only one.
    @param w The hint: a square root of x^3 + 4 or of -(x^3 + 4), below p.
    """
    code: uint8 = 0
    xy: Bytes[128] = b""
    code, xy = self.decode_unchecked(enc, w)
    if code != 0:
        return code, b""
    if not self.on_curve(xy):
        return E_POINT_NOT_ON_CURVE, b""
    return 0, xy


@pure
def decode_unchecked(enc: Bytes[96], w: uint256[2]) -> (uint8, Bytes[128]):
    """
    @notice Rules 0-2 of 2.5, in order; with 0, (x, y) with y the hint or p minus it, as
            the sort flag says. Rule 3 is then `on_curve`; or a G1ADD or G1MSM that takes
            the point, which refuses a point off the curve, checks rules 3 and 4 at once,
            and only when one refuses need they be told apart.
    """
    if len(enc) != 48:
        return E_POINT_LENGTH, b""
    hi: uint256 = convert(extract32(enc, 0), uint256) >> 128
    lo: uint256 = convert(extract32(enc, 16), uint256)
    flags: uint256 = hi >> 125  # compressed 4, infinity 2, sort 1
    x_hi: uint256 = hi & X_MASK
    if flags & 4 == 0 or not self.lt(x_hi, lo, P_HI, P_LO):
        return E_POINT_NON_CANONICAL, b""
    if flags & 2 != 0:
        if flags == 6 and x_hi == 0 and lo == 0:
            return E_POINT_IDENTITY, b""
        return E_POINT_NON_CANONICAL, b""
    assert self.lt(w[0], w[1], P_HI, P_LO), "hint: not below p"
    y_hi: uint256 = w[0]
    y_lo: uint256 = w[1]
    if self.lt(HALF_HI, HALF_LO, y_hi, y_lo) != (flags & 1 == 1):
        y_hi, y_lo = self.sub_from_p(y_hi, y_lo)
    return 0, concat(convert(x_hi, bytes32), convert(lo, bytes32),
                     convert(y_hi, bytes32), convert(y_lo, bytes32))


@view
def on_curve(xy: Bytes[128]) -> bool:
    """Rule 3 for (x, y) from decode_unchecked: y^2 = x^3 + 4, by two MODEXP. y was a
    hint: if y^2 is neither x^3 + 4 nor its negation the hint was wrong, and it reverts."""
    sq_hi: uint256 = 0
    sq_lo: uint256 = 0
    sq_hi, sq_lo = self.modexp(convert(extract32(xy, 64), uint256),
                               convert(extract32(xy, 96), uint256), 2)
    rhs_hi: uint256 = 0
    rhs_lo: uint256 = 0
    rhs_hi, rhs_lo = self.modexp(convert(extract32(xy, 0), uint256),
                                 convert(extract32(xy, 32), uint256), 3)
    # x^3 + 4 mod p: add with carry, then subtract p once if needed.
    rhs_lo = unsafe_add(rhs_lo, 4)
    if rhs_lo < 4:
        rhs_hi += 1
    if not self.lt(rhs_hi, rhs_lo, P_HI, P_LO):
        rhs_hi, rhs_lo = self.sub_p(rhs_hi, rhs_lo)
    if sq_hi != rhs_hi or sq_lo != rhs_lo:
        neg_hi: uint256 = 0
        neg_lo: uint256 = 0
        neg_hi, neg_lo = self.sub_from_p(rhs_hi, rhs_lo)
        assert sq_hi == neg_hi and sq_lo == neg_lo, "hint: not a square root"
        return False
    return True


@view
def subgroup_ok(xy: Bytes[128]) -> bool:
    """Rule 4: the point 1*Q through G1MSM, which refuses a point outside the subgroup."""
    ok: bool = False
    out: Bytes[128] = b""
    ok, out = raw_call(G1MSM, concat(xy, convert(1, bytes32)), max_outsize=128,
                       gas=G1MSM_1_GAS, is_static_call=True, revert_on_failure=False)
    return ok


@view
def first_torsion(points: DynArray[Bytes[128], 3], otherwise: uint8) -> uint8:
    """E_POINT_TORSION if one of `points` (each past rules 0-3) is outside the subgroup,
    else `otherwise`: rule 4 was deferred to a G1MSM, and a later rule must not answer
    for an element that came first (the reference decodes every element first)."""
    for xy: Bytes[128] in points:
        if not self.subgroup_ok(xy):
            return E_POINT_TORSION
    return otherwise


@view
def commitment(base: Bytes[128], key: Bytes[128], c: uint256, s: uint256) -> (bool, Bytes[48]):
    """s*base - c*key by one two-term G1MSM (the scalar r - c for -c); False when the
    precompile refuses a point: one of the two is outside the subgroup."""
    ok: bool = False
    out: Bytes[128] = b""
    ok, out = raw_call(G1MSM, concat(base, convert(s, bytes32), key, convert((R - c) % R, bytes32)),
                       max_outsize=128, gas=G1MSM_2_GAS, is_static_call=True,
                       revert_on_failure=False)
    if not ok:
        return False, b""
    return True, self.compress(out)


@pure
def compress(xy: Bytes[128]) -> Bytes[48]:
    """The 48-byte encoding (2.5) of a point given as EIP-2537's 128 bytes."""
    x_hi: uint256 = convert(extract32(xy, 0), uint256)
    x_lo: uint256 = convert(extract32(xy, 32), uint256)
    y_hi: uint256 = convert(extract32(xy, 64), uint256)
    y_lo: uint256 = convert(extract32(xy, 96), uint256)
    flags: uint256 = 192  # 0xc0, the identity: compressed and infinity
    if x_hi | x_lo | y_hi | y_lo != 0:
        flags = 128  # 0x80: compressed
        if self.lt(HALF_HI, HALF_LO, y_hi, y_lo):
            flags = 160  # 0xa0: compressed, the larger y
    return concat(slice(convert(x_hi | (flags << 120), bytes32), 16, 16), convert(x_lo, bytes32))


@pure
def scalar_code(enc: Bytes[64]) -> uint8:
    """A received scalar (2.5): 32 bytes big-endian, below r."""
    if len(enc) != 32:
        return E_SCALAR_LENGTH
    if convert(extract32(enc, 0), uint256) >= R:
        return E_SCALAR_OUT_OF_RANGE
    return 0


@pure
def scalar_from_b0(b0: bytes32) -> uint256:
    """H_scalar (3.5) from b_0 of expand_message_xmd: b_1 = H(b_0 || 1 || DST_prime),
    b_2 = H((b_0 XOR b_1) || 2 || DST_prime), and the 48 bytes b_1 || b_2[0:16] read
    big-endian mod r, which is b_1 * 2^128 + (b_2 >> 128) mod r."""
    b1: bytes32 = sha256(concat(b0, b"\x01", DST_SCALAR_PRIME))
    mixed: uint256 = convert(b0, uint256) ^ convert(b1, uint256)
    b2: bytes32 = sha256(concat(convert(mixed, bytes32), b"\x02", DST_SCALAR_PRIME))
    return uint256_addmod(uint256_mulmod(convert(b1, uint256), 2**128, R),
                          convert(b2, uint256) >> 128, R)
