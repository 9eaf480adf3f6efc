#pragma version ~=0.4.3
"""
@title The primitive checks of bls12381g1-sha256 as a contract (EIP-2537, Prague)
@notice Decoding (spec/02-group.md 2.5), the suite's hashes (spec/03-hashing.md 3.5),
        Schnorr proofs (spec/06-proofs.md 6.2), Chaum-Pedersen proofs (6.3), one
        Chaum-Pedersen proof for a batch of shares (6.3.1) and the frame signature
        (spec/08-wire.md 8.3, 2.6). Each check returns 0 or a verdict code
        of peers/chain/clsp/codes.clib and checks in the reference code's order: the
        elements in the order of the statement, then the proof's length, its scalars c
        and s, and the equation.
@dev Every element comes with its decoding hint (bls12381g1.vy). Rule 4 (the subgroup) is
     proven by the G1MSM of the equation, which refuses a point outside it; only when
     that fails, or when a later rule is about to answer, are the elements tested one by
     one (12,000 gas each), so an honest proof pays for no separate subgroup check.
"""

import bls12381g1 as g1
import points

E_SCHNORR_LENGTH: constant(uint8) = 8
E_SCHNORR_CHALLENGE: constant(uint8) = 9
E_DLEQ_LENGTH: constant(uint8) = 10
E_DLEQ_CHALLENGE: constant(uint8) = 11
E_FRAME_BAD_SIGNATURE: constant(uint8) = 12

MAP_FP_TO_G1: constant(address) = 0x0000000000000000000000000000000000000010
G1ADD: constant(address) = 0x000000000000000000000000000000000000000b
MODEXP: constant(address) = 0x0000000000000000000000000000000000000005

# The most shares of one batch (6.3.1): a deck of 91 tiles.
MAX_BATCH: constant(uint256) = 91

# The largest message a frame signature covers: 8.3's 29-byte prefix and the payload of a
# frame, which is at most 65536 bytes (11.3).
MAX_MESSAGE: constant(uint256) = 65565


@external
@view
def decode_point(enc: Bytes[96], w: uint256[2]) -> uint8:
    """Every rule of 2.5 on one received element; rule 4 by a one-term G1MSM."""
    code: uint8 = 0
    xy: Bytes[128] = b""
    code, xy = g1.decode(enc, w)
    if code != 0:
        return code
    return g1.first_torsion([xy], 0)


@external
@pure
def decode_scalar(enc: Bytes[64]) -> uint8:
    return g1.scalar_code(enc)


@external
@view
def suite_hashes(tag: Bytes[32], parts: DynArray[Bytes[256], 4]) -> (bytes32, uint256, Bytes[48]):
    """H, H_scalar and the hash to G1 of one input (3.5)."""
    # Vyper's byte strings have a fixed largest size, which concat adds up (a loop cannot
    # grow one): the four parts' lp() are joined once.
    pre: Bytes[1110] = concat(g1.head(tag), self._lp_part(parts, 0),
                              self._lp_part(parts, 1), self._lp_part(parts, 2),
                              self._lp_part(parts, 3))
    zeros: bytes32 = g1.ZERO32
    scalar: uint256 = g1.scalar_from_b0(
        sha256(concat(zeros, zeros, pre, g1.XMD48, g1.DST_SCALAR_PRIME)))
    return sha256(pre), scalar, self._hash_to_g1(pre)


@pure
def _lp_part(parts: DynArray[Bytes[256], 4], i: uint256) -> Bytes[260]:
    """lp(parts[i]), or nothing past the end of `parts`."""
    if i >= len(parts):
        return b""
    return concat(g1.lp(len(parts[i])), parts[i])


@view
def _hash_to_g1(message: Bytes[1110]) -> Bytes[48]:
    """RFC 9380 hash_to_curve, BLS12381G1_XMD:SHA-256_SSWU_RO_, under the suite's DST:
    expand_message_xmd to 128 bytes, two field elements (64 bytes each mod p, by MODEXP
    with exponent 1), MAP_FP_TO_G1 of each (which clears the cofactor: a multiplication,
    so the sum of the cleared points is the cleared sum) and G1ADD."""
    dst_prime: Bytes[46] = concat(g1.DST, b"\x2d")  # 45 = len(DST)
    zeros: bytes32 = g1.ZERO32
    b0: uint256 = convert(sha256(concat(zeros, zeros, message, x"008000", dst_prime)), uint256)
    b1: uint256 = convert(sha256(concat(convert(b0, bytes32), b"\x01", dst_prime)), uint256)
    b2: uint256 = convert(sha256(concat(convert(b0 ^ b1, bytes32), b"\x02", dst_prime)), uint256)
    b3: uint256 = convert(sha256(concat(convert(b0 ^ b2, bytes32), b"\x03", dst_prime)), uint256)
    b4: uint256 = convert(sha256(concat(convert(b0 ^ b3, bytes32), b"\x04", dst_prime)), uint256)
    q0: Bytes[128] = self._map(b1, b2)
    q1: Bytes[128] = self._map(b3, b4)
    return g1.compress(raw_call(G1ADD, concat(q0, q1), max_outsize=128, is_static_call=True))


@view
def _map(hi: uint256, lo: uint256) -> Bytes[128]:
    """MAP_FP_TO_G1 of the 64 bytes hi || lo reduced mod p."""
    fp: Bytes[64] = raw_call(
        MODEXP,
        concat(convert(64, bytes32), convert(1, bytes32), convert(64, bytes32),
               convert(hi, bytes32), convert(lo, bytes32), b"\x01",
               convert(g1.P_HI, bytes32), convert(g1.P_LO, bytes32)),
        max_outsize=64, is_static_call=True)
    return raw_call(MAP_FP_TO_G1, fp, max_outsize=128, is_static_call=True)


@pure
def _context(game_id: bytes32, step: uint64, seat: uint64) -> Bytes[48]:
    """ctx = game_id || u64(step) || u64(seat) (6.1)."""
    return concat(game_id, convert(step, bytes8), convert(seat, bytes8))


@pure
def _proof_scalars(proof: Bytes[128]) -> (uint256, uint256, bool):
    """c and s of a 64-byte proof, and whether both are below r."""
    c: uint256 = convert(extract32(proof, 0), uint256)
    s: uint256 = convert(extract32(proof, 32), uint256)
    return c, s, c < g1.R and s < g1.R


@external
@view
def verify_schnorr(game_id: bytes32, step: uint64, seat: uint64, key: Bytes[96],
                   key_w: uint256[2], proof: Bytes[128]) -> uint8:
    """6.2: c = H_scalar(SCHNORR, ctx, G, Y, s*G - c*Y)."""
    code: uint8 = 0
    y: Bytes[128] = b""
    code, y = g1.decode(key, key_w)
    if code != 0:
        return code
    if len(proof) != 64:
        return g1.first_torsion([y], E_SCHNORR_LENGTH)
    c: uint256 = 0
    s: uint256 = 0
    in_range: bool = False
    c, s, in_range = self._proof_scalars(proof)
    if not in_range:
        return g1.first_torsion([y], g1.E_SCALAR_OUT_OF_RANGE)
    ok: bool = False
    r: Bytes[48] = b""
    ok, r = g1.commitment(g1.G_XY, y, c, s)
    if not ok:
        return g1.E_POINT_TORSION  # G is in the subgroup: Y is not
    zeros: bytes32 = g1.ZERO32
    b0: bytes32 = sha256(concat(
        zeros, zeros, g1.head(b"dealerless/challenge/schnorr"),
        g1.LP48, self._context(game_id, step, seat), g1.LP48, g1.G_ENC, g1.LP48, key, g1.LP48, r,
        g1.XMD48, g1.DST_SCALAR_PRIME))
    if g1.scalar_from_b0(b0) != c:
        return E_SCHNORR_CHALLENGE
    return 0


@external
@view
def verify_dleq(game_id: bytes32, step: uint64, seat: uint64, key: Bytes[96],
                key_w: uint256[2], c1: Bytes[96], c1_w: uint256[2], share: Bytes[96],
                share_w: uint256[2], proof: Bytes[128]) -> uint8:
    """6.3: c = H_scalar(DLEQ, ctx, G, Y, c1, D, s*G - c*Y, s*c1 - c*D)."""
    code: uint8 = 0
    y: Bytes[128] = b""
    c1_xy: Bytes[128] = b""
    d: Bytes[128] = b""
    code, y = g1.decode(key, key_w)
    if code != 0:
        return code
    code, c1_xy = g1.decode(c1, c1_w)
    if code != 0:
        return g1.first_torsion([y], code)
    code, d = g1.decode(share, share_w)
    if code != 0:
        return g1.first_torsion([y, c1_xy], code)
    if len(proof) != 64:
        return g1.first_torsion([y, c1_xy, d], E_DLEQ_LENGTH)
    c: uint256 = 0
    s: uint256 = 0
    in_range: bool = False
    c, s, in_range = self._proof_scalars(proof)
    if not in_range:
        return g1.first_torsion([y, c1_xy, d], g1.E_SCALAR_OUT_OF_RANGE)
    ok: bool = False
    a: Bytes[48] = b""
    b: Bytes[48] = b""
    ok, a = g1.commitment(g1.G_XY, y, c, s)
    if not ok:
        return g1.E_POINT_TORSION  # G is in the subgroup: Y is not
    ok, b = g1.commitment(c1_xy, d, c, s)
    if not ok:
        return g1.E_POINT_TORSION  # c1 or D: Y passed the first G1MSM
    zeros: bytes32 = g1.ZERO32
    b0: bytes32 = sha256(concat(
        zeros, zeros, g1.head(b"dealerless/challenge/dleq"),
        g1.LP48, self._context(game_id, step, seat), g1.LP48, g1.G_ENC, g1.LP48, key, g1.LP48, c1,
        g1.LP48, share, g1.LP48, a, g1.LP48, b, g1.XMD48, g1.DST_SCALAR_PRIME))
    if g1.scalar_from_b0(b0) != c:
        return E_DLEQ_CHALLENGE
    return 0


@external
@view
def verify_dleq_batch(game_id: bytes32, step: uint64, seat: uint64, key: Bytes[96],
                      key_w: uint256[2], c1s: DynArray[Bytes[96], MAX_BATCH],
                      shares: DynArray[Bytes[96], MAX_BATCH],
                      hints: DynArray[uint256[2], 2 * MAX_BATCH], proof: Bytes[128]) -> uint8:
    """
    @notice 6.3.1: seed = H(DLEQ_SEED, ctx, G, Y, c1_0, D_0, ..., c1_{n-1}, D_{n-1}),
            w_0 = 1, w_j = H_scalar(DLEQ_WEIGHT, seed, u64(j)), and
            c = H_scalar(DLEQ_BATCH, ctx, seed, s*G - c*Y, B') with
            B' = sum_j (s*w_j)*c1_j + sum_j (-c*w_j)*D_j, one G1MSM of 2n terms.
    @dev The elements decode in the order Y, every c1_j, every D_j (the reference's),
         rules 3 and 4 left to the G1MSMs (points.vy); `hints` holds those of the c1_j,
         then those of the D_j. n >= 1 shares, one c1 each, is the caller's to keep (a
         LocalError of the reference): else a revert.
    """
    n: uint256 = len(c1s)
    assert n >= 1 and len(shares) == n and len(hints) == 2 * n, "a batch of n >= 1 shares"
    code: uint8 = 0
    xy: Bytes[128] = b""
    code, xy = g1.decode_unchecked(key, key_w)
    if code != 0:
        return code
    y: Bytes[128] = xy
    pts: DynArray[uint256, 4 * (2 * MAX_BATCH + 1)] = []   # Y, the c1_j, the D_j
    for k: uint256 in range(2 * MAX_BATCH + 1):
        for i: uint256 in range(4):
            pts.append(convert(extract32(xy, 32 * i), uint256))
        if k == 2 * n:
            break
        if k < n:
            code, xy = g1.decode_unchecked(c1s[k], hints[k])
        else:
            code, xy = g1.decode_unchecked(shares[k - n], hints[k])
        if code != 0:
            return points.deferred_or(pts, k + 1, code)
    if len(proof) != 64:
        return points.deferred_or(pts, 2 * n + 1, E_DLEQ_LENGTH)
    c: uint256 = 0
    s: uint256 = 0
    in_range: bool = False
    c, s, in_range = self._proof_scalars(proof)
    if not in_range:
        return points.deferred_or(pts, 2 * n + 1, g1.E_SCALAR_OUT_OF_RANGE)
    seed: bytes32 = self._batch_seed(game_id, step, seat, key, c1s, shares)
    # B': the c1_j with s*w_j, then the D_j with -c*w_j (w_0 = 1).
    ws: DynArray[uint256, MAX_BATCH] = [1]
    for j: uint256 in range(1, MAX_BATCH):
        if j == n:
            break
        ws.append(self._weight(seed, j))
    terms: DynArray[uint256, points.MAX_TERM_WORDS] = []
    for k: uint256 in range(2 * n, bound=2 * MAX_BATCH):
        for i: uint256 in range(4):
            terms.append(pts[4 * (k + 1) + i])
        if k < n:
            terms.append(uint256_mulmod(s, ws[k], g1.R))
        else:
            terms.append(uint256_mulmod(g1.R - c, ws[k - n], g1.R))
    ok: bool = False
    a: Bytes[48] = b""
    b: Bytes[128] = b""
    ok, a = g1.commitment(g1.G_XY, y, c, s)
    if ok:
        ok, b = points.msm(terms)
    if not ok:
        code = points.deferred_or(pts, 2 * n + 1, 0)
        assert code != 0, "G1MSM refused points that pass one by one"
        return code
    b0: bytes32 = sha256(concat(
        g1.ZERO32, g1.ZERO32, g1.head(b"dealerless/challenge/dleq-batch"),
        g1.LP48, self._context(game_id, step, seat), g1.LP32, seed, g1.LP48, a,
        g1.LP48, g1.compress(b), g1.XMD48, g1.DST_SCALAR_PRIME))
    if g1.scalar_from_b0(b0) != c:
        return E_DLEQ_CHALLENGE
    return 0


@pure
def _weight(seed: bytes32, j: uint256) -> uint256:
    """w_j = H_scalar(DLEQ_WEIGHT, seed, u64(j)) (6.3.1)."""
    return g1.scalar_from_b0(sha256(concat(
        g1.ZERO32, g1.ZERO32, g1.head(b"dealerless/dleq-batch/weight"), g1.LP32, seed,
        g1.LP8, convert(convert(j, uint64), bytes8), g1.XMD48, g1.DST_SCALAR_PRIME)))


@pure
def _batch_seed(game_id: bytes32, step: uint64, seat: uint64, key: Bytes[96],
                c1s: DynArray[Bytes[96], MAX_BATCH],
                shares: DynArray[Bytes[96], MAX_BATCH]) -> bytes32:
    """seed = H(DLEQ_SEED, ctx, G, Y, c1_0, D_0, ...): each pair lp(c1_j) || c1_j ||
    lp(D_j) || D_j, 104 bytes, packed into words by points.put."""
    packed: DynArray[uint256, points.MAX_PACKED // 32 + 1] = []
    cur: uint256 = 0
    fill: uint256 = 0
    full: uint256 = 0
    done: bool = False
    for j: uint256 in range(len(c1s), bound=MAX_BATCH):
        pair: Bytes[104] = concat(g1.LP48, slice(c1s[j], 0, 48), g1.LP48, slice(shares[j], 0, 48))
        for i: uint256 in range(4):
            size: uint256 = 32
            word: uint256 = 0
            if i < 3:
                word = convert(extract32(pair, 32 * i), uint256)
            else:
                size = 8
                word = convert(extract32(pair, 72), uint256) & (2**64 - 1)
            cur, fill, full, done = points.put(cur, fill, word, size)
            if done:
                packed.append(full)
    return sha256(concat(
        g1.head(b"dealerless/dleq-batch/seed"), g1.LP48, self._context(game_id, step, seat),
        g1.LP48, g1.G_ENC, g1.LP48, key, points.as_bytes(packed, cur, fill)))


@external
@view
def verify_frame_signature(key: Bytes[96], key_w: uint256[2], message: Bytes[MAX_MESSAGE],
                           signature: Bytes[128]) -> uint8:
    """
    @notice 8.3, Schnorr over G1: c = H_scalar(FRAME_SIGNATURE, Y, s*G - c*Y, m); every
            failure is frame/bad-signature, so no rule needs to answer before another.
    @dev Vyper lays out memory for the largest `message` and touches memory past it, so
         every call pays for expanding memory past 64 KiB (some 15,000 gas, measured
         against a 1,024-byte bound) whatever the message's length. Moving the decoding
         into a call to this contract (a fresh memory) did not change that.
    """
    code: uint8 = 0
    y: Bytes[128] = b""
    code, y = g1.decode(key, key_w)
    if code != 0 or len(signature) != 64:
        return E_FRAME_BAD_SIGNATURE
    c: uint256 = 0
    s: uint256 = 0
    in_range: bool = False
    c, s, in_range = self._proof_scalars(signature)
    if not in_range:
        return E_FRAME_BAD_SIGNATURE
    ok: bool = False
    r: Bytes[48] = b""
    ok, r = g1.commitment(g1.G_XY, y, c, s)
    if not ok:
        return E_FRAME_BAD_SIGNATURE
    b0: bytes32 = sha256(concat(
        g1.ZERO32, g1.ZERO32, g1.head(b"dealerless/frame-signature"), g1.LP48, key, g1.LP48, r,
        g1.lp(len(message)), message, g1.XMD48, g1.DST_SCALAR_PRIME))
    if g1.scalar_from_b0(b0) != c:
        return E_FRAME_BAD_SIGNATURE
    return 0
