#pragma version ~=0.4.3
"""
@title The "cannot play" proof's verifier of bls12381g1-sha256 (EIP-2537, Prague)
@notice spec/06-proofs.md 6.5.5 for the format of 6.5.4 (h + f points K_j, Q_t, then c,
        z_r, z_a). Returns 0 or a verdict code of peers/chain/clsp/codes.clib, in 6.5.5's
        order: the statement's elements (Y_s, each position's c1_j, c2_j and shares),
        step 1's limits, step 2 (the length, then K, Q, then the scalars), step 3's
        challenge, step 4's pairs (cannot-play/identity).
@dev Every element is a received one here (the vectors hand the statement over as
     bytes), decoded by g1.decode_unchecked (rules 0-2 of 2.5) with its hint, in `hints`
     in that order: the statement's elements, then K_0..K_{h-1}, Q_0..Q_{f-1} as far as
     the proof's length lets them be read. Rules 3 and 4 are left to the precompiles:
     T_0''s G1MSM takes Y_s; T_j''s takes c1_j, K_j, c2_j and every share (it is written
     z_r*c2_j - sum z_r*D - z_a*c1_j - c*K_j: a G1ADD, which gives R_j = c2_j - sum D
     for the hash, refuses a point off the curve but not one outside the subgroup); U_t''s
     takes Q_t. Only when a precompile refuses, or a later rule is about to answer, are
     the points tested one by one, at the end of verify_cannot_play (inline: a helper
     would copy `pts`, 4,008 words). Vyper lays every variable out at its largest size,
     each function's frame below its caller's, and memory is priced quadratically: the
     G1MSMs go through _msm, sized for T_j''s 10 terms, not points.msm (920 words, three
     times over, about 90,000 gas more on every call).
     The tile points P_t come from tiles.vy (a contract of its own: the two would pass
     EIP-170's 24,576 bytes), which stores double-twelve's 91 (8,736 bytes of code) and
     hashes the other sets' (5.1, RFC 9380: two MAP_FP_TO_G1, a G1ADD, two MODEXP, five
     SHA-256). Measured there: about 18,900 gas a tile hashed against 1,600 read from the
     table, so some 1,300,000 saved on the 76 tiles of 6.5.7's worst claim. Vyper cannot
     grow a byte string in a loop: hand_bytes, forb_bytes and T' || U' are packed by
     points.put.
"""

import bls12381g1 as g1
import points

interface TilePoints:
    def tile_points(set_name: Bytes[16], forbidden: Bytes[5824]) -> Bytes[11712]: view

E_TILE_NOT_IN_SET: constant(uint8) = 18
E_CANNOT_PLAY_SIZE: constant(uint8) = 19
E_CANNOT_PLAY_ORDER: constant(uint8) = 20
E_CANNOT_PLAY_LENGTH: constant(uint8) = 21
E_CANNOT_PLAY_CHALLENGE: constant(uint8) = 22
E_CANNOT_PLAY_IDENTITY: constant(uint8) = 23
REFUSED: constant(uint8) = 255   # a precompile refused a point: the deferred rules answer

G1ADD: constant(address) = 0x000000000000000000000000000000000000000b
G1MSM: constant(address) = 0x000000000000000000000000000000000000000C

MAX_H: constant(uint256) = 91
MAX_F: constant(uint256) = 91
MAX_SHARES: constant(uint256) = 7   # 8 seats (spec/12-peers.md): 7 other seats' shares
MAX_ELEMENTS: constant(uint256) = 1 + MAX_H * (2 + MAX_SHARES)
MAX_POINTS: constant(uint256) = MAX_ELEMENTS + MAX_H + MAX_F
MAX_PROOF: constant(uint256) = 48 * (MAX_H + MAX_F) + 96
MAX_SET: constant(uint256) = 16
PACKED: constant(uint256) = points.MAX_PACKED // 32 + 1
MASK128: constant(uint256) = 2**128 - 1
U64: constant(uint256) = 2**64
MAX_TERM_WORDS: constant(uint256) = 5 * (3 + MAX_SHARES)   # T_j''s G1MSM at 7 shares

# tiles.vy, deployed beside this contract (the two would pass EIP-170's 24,576 bytes).
TILES: immutable(address)


@deploy
def __init__(tile_points: address):
    TILES = tile_points


@external
@view
def verify_cannot_play(game_id: bytes32, step: uint64, seat: uint64, set_name: Bytes[MAX_SET],
                       positions: Bytes[32 * MAX_H], counts: Bytes[32 * MAX_H],
                       elements: Bytes[48 * MAX_ELEMENTS], forbidden: Bytes[64 * MAX_F],
                       proof: Bytes[MAX_PROOF],
                       hints: DynArray[uint256[2], MAX_POINTS]) -> uint8:
    """
    @notice 6.5.5 under the context (game_id, step, seat) of 6.1.
    @param positions j of each hand entry, one word each (2^64 for one out of range).
    @param counts The number of other seats' shares of each entry, one word each.
    @param elements Y_s, then each entry's c1_j, c2_j and shares, 48 bytes each (the
           caller's own values: a wrong length reverts).
    @param forbidden F's tiles, a then b, one word each.
    """
    h: uint256 = len(counts) // 32
    assert len(counts) == 32 * h and len(positions) == 32 * h, "a word an entry"
    assert len(forbidden) % 64 == 0, "two words a tile"
    f: uint256 = len(forbidden) // 64
    e: uint256 = 1
    for j: uint256 in range(h, bound=MAX_H):
        shares: uint256 = convert(extract32(counts, 32 * j), uint256)
        assert shares <= MAX_SHARES, "at most 7 shares an entry"
        e += 2 + shares
    assert len(elements) == 48 * e, "48 bytes an element"

    fail: uint8 = 0
    checked: uint256 = 0   # fail stands once the first `checked` points pass rules 3, 4
    code: uint8 = 0
    xy: Bytes[128] = b""
    pts: DynArray[uint256, 4 * MAX_POINTS] = []
    for once: uint256 in range(1):
        for k: uint256 in range(e, bound=MAX_ELEMENTS):
            code, xy = g1.decode_unchecked(slice(elements, 48 * k, 48), hints[k])
            if code != 0:
                fail = code
                checked = k
                break
            for w: uint256 in range(4):
                pts.append(convert(extract32(xy, 32 * w), uint256))
        if fail != 0:
            break
        n: uint256 = self._set_n(set_name)
        fail = self._limits(h, f, n, positions, forbidden)
        checked = e
        if fail != 0:
            break
        if len(proof) != 48 * (h + f) + 96:
            fail = E_CANNOT_PLAY_LENGTH
            break
        for k: uint256 in range(h + f, bound=MAX_H + MAX_F):
            code, xy = g1.decode_unchecked(slice(proof, 48 * k, 48), hints[e + k])
            if code != 0:
                fail = code
                checked = e + k
                break
            for w: uint256 in range(4):
                pts.append(convert(extract32(xy, 32 * w), uint256))
        if fail != 0:
            break
        checked = e + h + f
        s: uint256 = 48 * (h + f)
        c: uint256 = convert(extract32(proof, s), uint256)
        zr: uint256 = convert(extract32(proof, s + 32), uint256)
        za: uint256 = convert(extract32(proof, s + 64), uint256)
        if c >= g1.R or zr >= g1.R or za >= g1.R:
            fail = g1.E_SCALAR_OUT_OF_RANGE
            break

        # Step 3. Per entry: R_j = c2_j - sum D (G1ADDs), hand_bytes' u64(j) || c1 || R_j,
        # T_j' = z_r*R_j - z_a*c1_j - c*K_j; c2_j and the shares to the subgroup G1MSM.
        ok: bool = True
        out: Bytes[128] = b""
        enc: Bytes[48] = b""
        full: uint256 = 0
        done: bool = False
        hb: DynArray[uint256, PACKED] = []
        hb_cur: uint256 = 0
        hb_fill: uint256 = 0
        tu: DynArray[uint256, PACKED] = []
        tu_cur: uint256 = 0
        tu_fill: uint256 = 0
        terms: DynArray[uint256, MAX_TERM_WORDS] = []
        b: uint256 = 1   # the element index of c1_j
        for j: uint256 in range(h, bound=MAX_H):
            shares: uint256 = convert(extract32(counts, 32 * j), uint256)
            o2: uint256 = 4 * (b + 1)
            r_xy: Bytes[128] = concat(convert(pts[o2], bytes32), convert(pts[o2 + 1], bytes32),
                                      convert(pts[o2 + 2], bytes32), convert(pts[o2 + 3], bytes32))
            for i: uint256 in range(shares, bound=MAX_SHARES):
                o: uint256 = 4 * (b + 2 + i)
                y_hi: uint256 = 0
                y_lo: uint256 = 0
                y_hi, y_lo = g1.sub_from_p(pts[o + 2], pts[o + 3])
                ok, r_xy = raw_call(G1ADD, concat(r_xy, convert(pts[o], bytes32),
                                                  convert(pts[o + 1], bytes32),
                                                  convert(y_hi, bytes32), convert(y_lo, bytes32)),
                                    max_outsize=128, is_static_call=True,
                                    revert_on_failure=False)
                if not ok:
                    break
            if not ok:
                fail = REFUSED
                break
            hb_cur, hb_fill, full, done = points.put(
                hb_cur, hb_fill, convert(extract32(positions, 32 * j), uint256), 8)
            if done:
                hb.append(full)
            for part: uint256 in range(2):
                if part == 0:
                    enc = slice(elements, 48 * b, 48)
                else:
                    enc = g1.compress(r_xy)
                hb_cur, hb_fill, full, done = points.put(
                    hb_cur, hb_fill, convert(extract32(enc, 0), uint256), 32)
                if done:
                    hb.append(full)
                hb_cur, hb_fill, full, done = points.put(
                    hb_cur, hb_fill, convert(extract32(enc, 16), uint256) & MASK128, 16)
                if done:
                    hb.append(full)
            # T_j' = z_r*c2_j - sum z_r*D - z_a*c1_j - c*K_j: every point of the entry
            # goes into the G1MSM (a G1ADD checks no subgroup), R_j only into the hash.
            terms = []
            for q: uint256 in range(shares + 3, bound=MAX_SHARES + 3):
                k: uint256 = b + 1 + q   # c2_j, the shares, then c1_j = b, K_j = e + j
                x: uint256 = (g1.R - zr) % g1.R
                if q == 0:
                    x = zr
                elif q == shares + 1:
                    k = b
                    x = g1.R - za
                elif q == shares + 2:
                    k = e + j
                    x = g1.R - c
                for w: uint256 in range(4):
                    terms.append(pts[4 * k + w])
                terms.append(x % g1.R)
            ok, out = self._msm(terms)
            if not ok:
                fail = REFUSED
                break
            enc = g1.compress(out)
            tu_cur, tu_fill, full, done = points.put(
                tu_cur, tu_fill, convert(extract32(enc, 0), uint256), 32)
            if done:
                tu.append(full)
            tu_cur, tu_fill, full, done = points.put(
                tu_cur, tu_fill, convert(extract32(enc, 16), uint256) & MASK128, 16)
            if done:
                tu.append(full)
            b += 2 + shares
        if fail != 0:
            break

        # T_0' = z_a*G - z_r*Y_s.
        terms = []
        for w: uint256 in range(4):
            terms.append(convert(extract32(g1.G_XY, 32 * w), uint256))
        terms.append(za)
        for w: uint256 in range(4):
            terms.append(pts[w])
        terms.append((g1.R - zr) % g1.R)
        ok, out = self._msm(terms)
        if not ok:
            fail = REFUSED
            break
        t0: Bytes[48] = g1.compress(out)

        # Per tile: forb_bytes' a || b || P_t, U_t' = z_r*P_t - c*Q_t.
        fb: DynArray[uint256, PACKED] = []
        fb_cur: uint256 = 0
        fb_fill: uint256 = 0
        table: Bytes[128 * MAX_F + 64] = staticcall TilePoints(TILES).tile_points(set_name,
                                                                                  forbidden)
        for t: uint256 in range(f, bound=MAX_F):
            ta: uint256 = convert(extract32(forbidden, 64 * t), uint256)
            tb: uint256 = convert(extract32(forbidden, 64 * t + 32), uint256)
            p_xy: Bytes[128] = slice(table, 128 * t, 128)
            enc = g1.compress(p_xy)
            fb_cur, fb_fill, full, done = points.put(fb_cur, fb_fill, 256 * ta + tb, 2)
            if done:
                fb.append(full)
            fb_cur, fb_fill, full, done = points.put(
                fb_cur, fb_fill, convert(extract32(enc, 0), uint256), 32)
            if done:
                fb.append(full)
            fb_cur, fb_fill, full, done = points.put(
                fb_cur, fb_fill, convert(extract32(enc, 16), uint256) & MASK128, 16)
            if done:
                fb.append(full)
            terms = []
            for w: uint256 in range(4):
                terms.append(convert(extract32(p_xy, 32 * w), uint256))
            terms.append(zr)
            for w: uint256 in range(4):
                terms.append(pts[4 * (e + h + t) + w])
            terms.append(g1.R - c)
            ok, out = self._msm(terms)
            if not ok:
                fail = REFUSED
                break
            enc = g1.compress(out)
            tu_cur, tu_fill, full, done = points.put(
                tu_cur, tu_fill, convert(extract32(enc, 0), uint256), 32)
            if done:
                tu.append(full)
            tu_cur, tu_fill, full, done = points.put(
                tu_cur, tu_fill, convert(extract32(enc, 16), uint256) & MASK128, 16)
            if done:
                tu.append(full)
        if fail != 0:
            break

        # c = H_scalar(CANNOT_PLAY, stmt, K, Q, T_0', T', U'), six parts (6.5.3).
        hand_bytes: Bytes[32 * PACKED + 96] = points.as_bytes(hb, hb_cur, hb_fill)
        forb_bytes: Bytes[32 * PACKED + 96] = points.as_bytes(fb, fb_cur, fb_fill)
        tus: Bytes[32 * PACKED + 96] = points.as_bytes(tu, tu_cur, tu_fill)
        stmt_len: uint256 = 48 * 3 + 4 + len(set_name) + 4 + 104 * h + 4 + 50 * f
        if c != g1.scalar_from_b0(sha256(concat(
                g1.ZERO32, g1.ZERO32, g1.head(b"dealerless/challenge/cannot-play"),
                g1.lp(stmt_len), game_id, convert(step, bytes8), convert(seat, bytes8),
                g1.G_ENC, slice(elements, 0, 48), g1.lp(len(set_name)), set_name,
                g1.lp(104 * h), hand_bytes, g1.lp(50 * f), forb_bytes,
                g1.lp(48 * h), slice(proof, 0, 48 * h), g1.lp(48 * f), slice(proof, 48 * h, 48 * f),
                g1.LP48, t0, g1.lp(48 * h), slice(tus, 0, 48 * h), g1.lp(48 * f),
                slice(tus, 48 * h, 48 * f), g1.XMD48, g1.DST_SCALAR_PRIME))):
            return E_CANNOT_PLAY_CHALLENGE

        # Step 4: K_j = Q_t (equal points, so equal encodings) means C_{j,t} = O.
        for j: uint256 in range(h, bound=MAX_H):
            kj: uint256 = 4 * (e + j)
            for t: uint256 in range(f, bound=MAX_F):
                qt: uint256 = 4 * (e + h + t)
                if pts[kj + 1] == pts[qt + 1] and pts[kj] == pts[qt] \
                        and pts[kj + 3] == pts[qt + 3] and pts[kj + 2] == pts[qt + 2]:
                    return E_CANNOT_PLAY_IDENTITY
        return 0

    # A rule of 2.5 comes first for a point before `checked` (the reference decodes the
    # elements in order, each whole); a refusal must be one of them.
    for k: uint256 in range(checked, bound=MAX_POINTS):
        xy = concat(convert(pts[4 * k], bytes32), convert(pts[4 * k + 1], bytes32),
                    convert(pts[4 * k + 2], bytes32), convert(pts[4 * k + 3], bytes32))
        if not g1.on_curve(xy):
            return g1.E_POINT_NOT_ON_CURVE
        if not g1.subgroup_ok(xy):
            return g1.E_POINT_TORSION
    assert fail != REFUSED, "a precompile refused a stored or derived point"
    return fail


@view
def _msm(terms: DynArray[uint256, MAX_TERM_WORDS]) -> (bool, Bytes[128]):
    """points.msm for at most 10 terms: its frame is 920 words, three times over, and
    every frame here sits below verify_cannot_play's, whose memory is priced with it."""
    ok: bool = False
    out: Bytes[128] = b""
    ok, out = raw_call(G1MSM, slice(abi_encode(terms), 64, 32 * len(terms)),
                       max_outsize=128, gas=points.msm_gas(len(terms) // 5),
                       is_static_call=True, revert_on_failure=False)
    return ok, out


@pure
def _set_n(set_name: Bytes[MAX_SET]) -> uint256:
    """n of a double-n set by its name (5.1); any other name is the caller's bug."""
    if set_name == b"double-six":
        return 6
    if set_name == b"double-nine":
        return 9
    assert set_name == b"double-twelve", "an unknown tile set"
    return 12


@pure
def _limits(h: uint256, f: uint256, n: uint256, positions: Bytes[32 * MAX_H],
            forbidden: Bytes[64 * MAX_F]) -> uint8:
    """Step 1 (6.5.1's limits), in 6.5.5's order: h, then f; the positions; every tile in
    S; the order of F."""
    if h == 0 or h > MAX_H:
        return E_CANNOT_PLAY_SIZE
    if f == 0 or f > (n + 1) * (n + 2) // 2:
        return E_CANNOT_PLAY_SIZE
    least: uint256 = 0   # the previous position + 1
    for j: uint256 in range(h, bound=MAX_H):
        p: uint256 = convert(extract32(positions, 32 * j), uint256)
        if p >= U64 or p < least:
            return E_CANNOT_PLAY_ORDER
        least = p + 1
    for t: uint256 in range(f, bound=MAX_F):
        a: uint256 = convert(extract32(forbidden, 64 * t), uint256)
        b: uint256 = convert(extract32(forbidden, 64 * t + 32), uint256)
        if a > b or b > n:
            return E_TILE_NOT_IN_SET
    least = 0
    for t: uint256 in range(f, bound=MAX_F):
        key: uint256 = 256 * convert(extract32(forbidden, 64 * t), uint256) \
            + convert(extract32(forbidden, 64 * t + 32), uint256)
        if key < least:
            return E_CANNOT_PLAY_ORDER
        least = key + 1
    return 0
