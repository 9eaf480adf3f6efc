#pragma version ~=0.4.3
"""
@title Many elements at once: G1MSM, rules 3 and 4, and bytes built in a loop
@notice For the batched Chaum-Pedersen proof (spec/06-proofs.md 6.3.1, g1_checks.vy) and
        the shuffle (spec/07-shuffle.md 7.5, 7.5.1, shuffle.vy).
@dev Decoded elements are kept as words, four a point: EIP-2537's 128 bytes (x_hi, x_lo,
     y_hi, y_lo). A sum of products is one G1MSM, whose input (five words a term: the point
     and its scalar) a caller appends to a DynArray and `msm` sends; it is given exactly
     EIP-2537's price, so a refusal burns no more. Vyper lays memory out statically, each
     function's frame above those of the functions it calls, every variable at its
     largest size, and memory is priced quadratically: the helpers here take at most the
     points, once, and `msm`'s copies of the terms are paid once in a frame every
     caller's sits above (inlined at the call site they measured dearer). G1MSM refuses a point outside the
     subgroup, and one off the curve: it proves rules 3 and 4 of 2.5 for every point of an
     honest proof for free (a received point is decoded by g1.decode_unchecked, rules
     0-2, with no MODEXP), and only when it fails, or when a later rule is about to answer,
     are the points tested one by one (`deferred_or`), which is what the reference's order
     needs (the first bad element answers). Vyper cannot grow a byte string in a loop, so
     `put` packs bytes into words that a caller appends to a DynArray, and `as_bytes`
     reads them back.
"""

import bls12381g1 as g1

# The most terms of one G1MSM: 2N + 2 at N = 91 (7.5.1 with the base point folded in).
MAX_TERMS: constant(uint256) = 184
MAX_TERM_WORDS: constant(uint256) = 5 * MAX_TERMS
# The most points a check decodes from what it received: 2N + 3N for a shuffle at N = 91.
MAX_POINTS: constant(uint256) = 455
MAX_POINT_WORDS: constant(uint256) = 4 * MAX_POINTS
# The longest byte string `as_bytes` gives: a batch's pairs at n = 91, 104 bytes each.
MAX_PACKED: constant(uint256) = 9464

G1MSM: constant(address) = 0x000000000000000000000000000000000000000C
# EIP-2537's discount for k = 1..128 terms of G1MSM, in thousandths; 519 beyond.
DISCOUNT: constant(uint256[128]) = [
    1000, 949, 848, 797, 764, 750, 738, 728, 719, 712, 705, 698, 692, 687, 682, 677, 673,
    669, 665, 661, 658, 654, 651, 648, 645, 642, 640, 637, 635, 632, 630, 627, 625, 623, 621,
    619, 617, 615, 613, 611, 609, 608, 606, 604, 603, 601, 599, 598, 596, 595, 593, 592, 591,
    589, 588, 586, 585, 584, 582, 581, 580, 579, 577, 576, 575, 574, 573, 572, 570, 569, 568,
    567, 566, 565, 564, 563, 562, 561, 560, 559, 558, 557, 556, 555, 554, 553, 552, 551, 550,
    549, 548, 547, 547, 546, 545, 544, 543, 542, 541, 540, 540, 539, 538, 537, 536, 536, 535,
    534, 533, 532, 532, 531, 530, 529, 528, 528, 527, 526, 525, 525, 524, 523, 522, 522, 521,
    520, 520, 519]
MAX_DISCOUNT: constant(uint256) = 519


@pure
def msm_gas(k: uint256) -> uint256:
    """EIP-2537's price of a k-term G1MSM: k * 12000 * discount(k) / 1000."""
    discount: uint256 = MAX_DISCOUNT
    if k <= 128:
        discount = DISCOUNT[k - 1]
    return k * 12000 * discount // 1000


@view
def msm(terms: DynArray[uint256, MAX_TERM_WORDS]) -> (bool, Bytes[128]):
    """The sum of the terms (five words each: a point, then its scalar) by one G1MSM;
    False if it refuses a point (off the curve or outside the subgroup)."""
    ok: bool = False
    out: Bytes[128] = b""
    # abi_encode puts an offset and the length before the words.
    ok, out = raw_call(G1MSM, slice(abi_encode(terms), 64, 32 * len(terms)),
                       max_outsize=128, gas=self.msm_gas(len(terms) // 5),
                       is_static_call=True, revert_on_failure=False)
    return ok, out


@view
def deferred_or(pts: DynArray[uint256, MAX_POINT_WORDS], count: uint256,
                otherwise: uint8) -> uint8:
    """The code of the first of the first `count` points of `pts` (each past rules 0-2,
    g1.decode_unchecked) that is off the curve (rule 3) or outside the subgroup (rule
    4), else `otherwise`: a later rule must not answer for an element that came first
    (the reference decodes the elements in order, each whole)."""
    for k: uint256 in range(count, bound=MAX_POINTS):
        xy: Bytes[128] = concat(convert(pts[4 * k], bytes32), convert(pts[4 * k + 1], bytes32),
                                convert(pts[4 * k + 2], bytes32),
                                convert(pts[4 * k + 3], bytes32))
        if not g1.on_curve(xy):
            return g1.E_POINT_NOT_ON_CURVE
        if not g1.subgroup_ok(xy):
            return g1.E_POINT_TORSION
    return otherwise


@pure
def put(cur: uint256, fill: uint256, v: uint256, n: uint256) -> (uint256, uint256, uint256, bool):
    """
    @notice Write the n low bytes of v (0 < n <= 32) after the `fill` bytes already in the
            word `cur` (filled from its top). Gives the new partial word and its fill, and
            the word that was completed, if one was (the flag): the caller appends it.
    """
    room: uint256 = 32 - fill
    if n < room:
        return cur | (v << (8 * (room - n))), fill + n, 0, False
    spill: uint256 = n - room  # the bytes of v that start the next word
    full: uint256 = cur | (v >> (8 * spill))
    if spill == 0:
        return 0, 0, full, True
    return v << (8 * (32 - spill)), spill, full, True  # v's higher bytes drop off the top


@pure
def as_bytes(packed: DynArray[uint256, MAX_PACKED // 32 + 1], cur: uint256,
             fill: uint256) -> Bytes[32 * (MAX_PACKED // 32 + 1) + 96]:
    """The bytes written by `put`: the full words, then `fill` bytes of `cur`. (Its type
    is longer than MAX_PACKED: Vyper sizes it by abi_encode's offset and length words.)"""
    total: uint256 = 32 * len(packed) + fill
    return slice(concat(slice(abi_encode(packed), 64, 32 * len(packed)), convert(cur, bytes32)),
                 0, total)
