#pragma version ~=0.4.3
"""
@title The shuffle proof's verifier of bls12381g1-sha256 (EIP-2537, Prague)
@notice spec/07-shuffle.md 7.5 and 7.5.1 for the proof format of dealerless/3 (7.6): 3N
        points (c, c^, t^) then 2N + 5 scalars (chal, s1..s4, s^, s'). Returns 0 or a
        verdict code of peers/chain/clsp/codes.clib, in 7.5's order: the output deck
        (deck/length, its points), the proof for N = |e| (shuffle/length, its points, its
        scalars), then shuffle/size, shuffle/repeated-c1 and shuffle/challenge.
@dev The joint key Y and the input deck e are the verifier's own values (decoded when
     they were received), the generators h, h_i constants (generators.vy). Every point
     comes with its decoding hint, in `hints` in this order: the output deck's, the
     proof's, then Y's, h's, the h_i's and the input deck's; a wrong hint, or an own value
     that does not decode, reverts. The sums of 7.5 are G1MSMs: t1' = chal*c_bar + s1*G
     (c_bar by G1ADDs, 375 gas each), t2' (3 terms), t3', t4_1', t4_2' (2N + 1 terms
     each), and 7.5.1's check one of 2N + 2 terms, its right side folded in, which must
     give the identity. Vyper passes arrays by value and lays out every variable at its
     largest size, and EVM memory is priced quadratically: the points stay in this one
     function, and only the hashes over stmt, which need copies of the decks and the
     proof, are helpers (their frames share memory with one another). Memory is laid out
     for N = 91 whatever N is. Inputs longer than N = 91 allows fail ABI decoding.
"""

import bls12381g1 as g1
import generators
import points

E_DECK_LENGTH: constant(uint8) = 13
E_SHUFFLE_LENGTH: constant(uint8) = 14
E_SHUFFLE_SIZE: constant(uint8) = 15
E_SHUFFLE_REPEATED_C1: constant(uint8) = 16
E_SHUFFLE_CHALLENGE: constant(uint8) = 17

G1ADD: constant(address) = 0x000000000000000000000000000000000000000b

MAX_N: constant(uint256) = 91
MAX_DECK: constant(uint256) = 96 * MAX_N
MAX_PROOF: constant(uint256) = 208 * MAX_N + 160
MAX_STMT: constant(uint256) = 144 + 48 * (MAX_N + 1) + 2 * MAX_DECK
# The points: e' (2N), the proof (3N), then Y, h, h_0..h_{N-1} (N + 1) and e (2N).
MAX_HINTS: constant(uint256) = 8 * MAX_N + 2
MAX_OWN_WORDS: constant(uint256) = 4 * (3 * MAX_N + 2)


@external
@view
def verify_shuffle(game_id: bytes32, step: uint64, seat: uint64, key: Bytes[48],
                   deck_in: Bytes[MAX_DECK], deck_out: Bytes[MAX_DECK],
                   proof: Bytes[MAX_PROOF], hints: DynArray[uint256[2], MAX_HINTS]) -> uint8:
    """7.5 and 7.5.1 under the context (game_id, step, seat) of 6.1."""
    if len(deck_out) % 96 != 0:
        return E_DECK_LENGTH
    assert len(deck_in) % 96 == 0, "the input deck is the verifier's own: whole ciphertexts"
    n: uint256 = len(deck_in) // 96
    m: uint256 = len(deck_out) // 48
    code: uint8 = 0
    xy: Bytes[128] = b""

    # What the shuffler sent, 2.5's rules 0-2 in order (rules 3, 4 are left to the
    # G1ADDs and G1MSMs, which take every point, and to points.deferred_or).
    # pts: e' (c1'_i = 2i, c2'_i = 2i + 1), then c_j = 2N + j, c^_i = 3N + i and
    # t^_i = 4N + i, four words a point.
    pts: DynArray[uint256, points.MAX_POINT_WORDS] = []
    for k: uint256 in range(m, bound=2 * MAX_N):
        code, xy = g1.decode_unchecked(slice(deck_out, 48 * k, 48), hints[k])
        if code != 0:
            return points.deferred_or(pts, k, code)
        for w: uint256 in range(4):
            pts.append(convert(extract32(xy, 32 * w), uint256))
    if len(proof) != 208 * n + 160:
        return points.deferred_or(pts, m, E_SHUFFLE_LENGTH)
    for k: uint256 in range(3 * n, bound=3 * MAX_N):
        code, xy = g1.decode_unchecked(slice(proof, 48 * k, 48), hints[m + k])
        if code != 0:
            return points.deferred_or(pts, m + k, code)
        for w: uint256 in range(4):
            pts.append(convert(extract32(xy, 32 * w), uint256))
    sent: uint256 = m + 3 * n
    for k: uint256 in range(2 * n + 5, bound=2 * MAX_N + 5):
        if convert(extract32(proof, 144 * n + 32 * k), uint256) >= g1.R:
            return points.deferred_or(pts, sent, g1.E_SCALAR_OUT_OF_RANGE)
    if n == 0 or m != 2 * n:
        return points.deferred_or(pts, sent, E_SHUFFLE_SIZE)
    # Two c1 of e' alike: a table of 256 slots keyed by x's low byte, probed in turn, holds
    # 1 + the index of each c1 (equal decoded points have equal encodings).
    slots: uint256[256] = empty(uint256[256])
    for i: uint256 in range(n, bound=MAX_N):
        for probe: uint256 in range(256):
            slot: uint256 = (pts[8 * i + 1] % 256 + probe) % 256
            if slots[slot] == 0:
                slots[slot] = i + 1
                break
            o: uint256 = 8 * (slots[slot] - 1)
            if pts[o] == pts[8 * i] and pts[o + 1] == pts[8 * i + 1] \
                    and pts[o + 2] == pts[8 * i + 2] and pts[o + 3] == pts[8 * i + 3]:
                return points.deferred_or(pts, sent, E_SHUFFLE_REPEATED_C1)

    # The verifier's own points. own: Y = 0, h = 1, h_i = 2 + i, then e as pts holds e':
    # c1(e_j) = N + 2 + 2j, c2(e_j) = N + 3 + 2j.
    gens: Bytes[48 * (MAX_N + 1)] = self._generators()
    own: DynArray[uint256, MAX_OWN_WORDS] = []
    for k: uint256 in range(3 * n + 2, bound=3 * MAX_N + 2):
        if k == 0:
            code, xy = g1.decode_unchecked(key, hints[sent])
        elif k <= n + 1:
            code, xy = g1.decode_unchecked(slice(gens, 48 * (k - 1), 48), hints[sent + k])
        else:
            code, xy = g1.decode_unchecked(slice(deck_in, 48 * (k - n - 2), 48),
                                           hints[sent + k])
        assert code == 0, "an own value or a generator does not decode"  # rules 0-2
        for w: uint256 in range(4):
            own.append(convert(extract32(xy, 32 * w), uint256))

    # u_j = H_scalar(SHUFFLE_U, seed_u, u64(j)), seed_u = H(SHUFFLE_U, stmt, c) (7.4).
    seed_u: bytes32 = empty(bytes32)
    seed_w: bytes32 = empty(bytes32)
    seed_u, seed_w = self._seeds(game_id, step, seat, key, deck_in, deck_out, proof)
    chal: uint256 = convert(extract32(proof, 144 * n), uint256)
    cu: DynArray[uint256, MAX_N] = []   # chal*u_j
    u_prod: uint256 = 1
    for j: uint256 in range(n, bound=MAX_N):
        u: uint256 = self._seeded(b"dealerless/challenge/shuffle-u", seed_u, j)
        u_prod = uint256_mulmod(u_prod, u, g1.R)
        cu.append(uint256_mulmod(chal, u, g1.R))

    # 7.5.1's weights: a_0 = 1, a_i = H_scalar(SHUFFLE_WEIGHT, seed_w, u64(i)); and
    # sum_i a_i*s^_i.
    s_hat: uint256 = 144 * n + 160   # where s^_0 starts; s'_0 follows s^_{N-1}
    a: DynArray[uint256, MAX_N] = [1]
    a_s_hat: uint256 = convert(extract32(proof, s_hat), uint256)
    for i: uint256 in range(1, MAX_N):
        if i == n:
            break
        a.append(self._seeded(b"dealerless/shuffle-weight", seed_w, i))
        a_s_hat = uint256_addmod(a_s_hat, uint256_mulmod(
            a[i], convert(extract32(proof, s_hat + 32 * i), uint256), g1.R), g1.R)
    s_prime: uint256 = s_hat + 32 * n

    # c_bar = sum_j c_j - sum_i h_i by G1ADDs, for t1'. G1ADD refuses a point off the
    # curve (not one outside the subgroup: the c_j go into t3' too).
    ok: bool = True
    c_bar: Bytes[128] = concat(convert(pts[8 * n], bytes32), convert(pts[8 * n + 1], bytes32),
                               convert(pts[8 * n + 2], bytes32), convert(pts[8 * n + 3], bytes32))
    for k: uint256 in range(1, 2 * MAX_N):
        if k == 2 * n:
            break
        o: uint256 = 4 * (2 * n + k)
        if k >= n:
            o = 4 * (2 + k - n)   # h_{k-n}, negated
        x_hi: uint256 = pts[o]
        x_lo: uint256 = pts[o + 1]
        y_hi: uint256 = pts[o + 2]
        y_lo: uint256 = pts[o + 3]
        if k >= n:
            x_hi = own[o]
            x_lo = own[o + 1]
            y_hi, y_lo = g1.sub_from_p(own[o + 2], own[o + 3])
        ok, c_bar = raw_call(G1ADD, concat(c_bar, convert(x_hi, bytes32), convert(x_lo, bytes32),
                                           convert(y_hi, bytes32), convert(y_lo, bytes32)),
                             max_outsize=128, is_static_call=True, revert_on_failure=False)
        if not ok:
            return self._deferred(pts, sent)

    # t1'..t4_2' and 7.5.1's combination, one G1MSM each, laid out by _term.
    ts: DynArray[Bytes[48], 5] = []
    out: Bytes[128] = b""
    terms: DynArray[uint256, points.MAX_TERM_WORDS] = []
    for t: uint256 in range(6):
        terms = []
        for q: uint256 in range(2 * MAX_N + 2):
            where: uint256 = 0
            k: uint256 = 0
            kind: uint256 = 0
            i: uint256 = 0
            where, k, kind, i = self._term(t, q, n)
            if where == 4:
                break
            for w: uint256 in range(4):
                if where == 0:
                    terms.append(pts[4 * k + w])
                elif where == 1:
                    terms.append(own[4 * k + w])
                elif where == 2:
                    terms.append(convert(extract32(g1.G_XY, 32 * w), uint256))
                else:
                    terms.append(convert(extract32(c_bar, 32 * w), uint256))
            x: uint256 = 0
            if kind == 0:
                x = chal
            elif kind <= 3:
                x = convert(extract32(proof, 144 * n + 32 * kind), uint256)   # s1, s2, s3
            elif kind == 4:
                x = g1.R - convert(extract32(proof, 144 * n + 128), uint256)  # -s4
            elif kind == 5:
                x = g1.R - uint256_mulmod(chal, u_prod, g1.R)
            elif kind == 6:
                x = cu[i]
            elif kind == 7:
                x = convert(extract32(proof, s_prime + 32 * i), uint256)
            elif kind == 8:
                x = a[i]
            elif kind == 9:   # -(a_i*chal + a_{i+1}*s'_{i+1}), a_N*s'_N read as 0
                x = uint256_mulmod(a[i], chal, g1.R)
                if i + 1 < n:
                    x = uint256_addmod(x, uint256_mulmod(
                        a[i + 1], convert(extract32(proof, s_prime + 32 * (i + 1)), uint256),
                        g1.R), g1.R)
                x = g1.R - x
            elif kind == 10:
                x = g1.R - convert(extract32(proof, s_prime), uint256)   # -(a_0*s'_0)
            else:
                x = g1.R - a_s_hat
            terms.append(x % g1.R)
        ok, out = points.msm(terms)
        if not ok:
            return self._deferred(pts, sent)
        if t < 5:
            ts.append(g1.compress(out))
    # Step 2 (7.5.1): the combination, its right side folded in, is the identity.
    combined: bool = (convert(extract32(out, 0), uint256) | convert(extract32(out, 32), uint256)
                      | convert(extract32(out, 64), uint256)
                      | convert(extract32(out, 96), uint256)) == 0
    # Step 1: chal = H_scalar(SHUFFLE_C, stmt, c, c^, t1'||..||t4_2'||t^_0||..||t^_{N-1}).
    recomputed: uint256 = self._challenge(game_id, step, seat, key, deck_in, deck_out, proof,
                                          concat(ts[0], ts[1], ts[2], ts[3], ts[4]))
    if recomputed != chal or not combined:
        return E_SHUFFLE_CHALLENGE
    return 0


@view
def _deferred(pts: DynArray[uint256, points.MAX_POINT_WORDS], sent: uint256) -> uint8:
    """A G1ADD or G1MSM refused a point: the first sent one that breaks rule 3 or 4. If
    none does, an own value was bad: the caller's fault, a revert."""
    code: uint8 = points.deferred_or(pts, sent, 0)
    assert code != 0, "a precompile refused the own values or the generators"
    return code


@pure
def _term(t: uint256, q: uint256, n: uint256) -> (uint256, uint256, uint256, uint256):
    """
    @notice Term q of sum t (t1', t2', t3', t4_1', t4_2', then 7.5.1's combination): where
            its point is (0: pts, 1: own, 2: G, 3: c_bar; 4: no such term), its index
            there, and its scalar: 0 chal, 1..3 s1..s3, 4 -s4, 5 -(chal*prod u),
            6 chal*u_i, 7 s'_i, 8 a_i, 9 -(a_i*chal + a_{i+1}*s'_{i+1}), 10 -a_0*s'_0,
            11 -sum a_i*s^_i; and the i of the last five.
    """
    if t == 0:   # t1' = chal*c_bar + s1*G
        if q < 2:
            return 3 - q, 0, q, 0
    elif t == 1:   # t2' = chal*c^_{N-1} - (chal*prod u)*h + s2*G
        if q == 0:
            return 0, 4 * n - 1, 0, 0
        if q == 1:
            return 1, 1, 5, 0
        if q == 2:
            return 2, 0, 2, 0
    elif t == 2:   # t3' = sum (chal*u_j)*c_j + s3*G + sum s'_i*h_i
        if q < n:
            return 0, 2 * n + q, 6, q
        if q == n:
            return 2, 0, 3, 0
        if q <= 2 * n:
            return 1, 1 + q - n, 7, q - n - 1
    elif t < 5:   # t4_1', t4_2' = sum (chal*u_j)*e_j + sum s'_i*e'_i - s4*(G or Y)
        if q < n:
            return 1, n + 2 + 2 * q + t - 3, 6, q
        if q < 2 * n:
            return 0, 2 * (q - n) + t - 3, 7, q - n
        if q == 2 * n:
            if t == 3:
                return 2, 0, 4, 0
            return 1, 0, 4, 0
    else:   # sum a_i*t^_i + sum coef_i*c^_i - (a_0*s'_0)*h - (sum a_i*s^_i)*G
        if q < n:
            return 0, 4 * n + q, 8, q
        if q < 2 * n:
            return 0, 2 * n + q, 9, q - n
        if q == 2 * n:
            return 1, 1, 10, 0
        if q == 2 * n + 1:
            return 2, 0, 11, 0
    return 4, 0, 0, 0


@pure
def _statement(game_id: bytes32, step: uint64, seat: uint64, key: Bytes[48],
               deck_in: Bytes[MAX_DECK], deck_out: Bytes[MAX_DECK]) -> Bytes[MAX_STMT]:
    """stmt = ctx || G || Y || h || h_0 .. h_{N-1} || deck(e) || deck(e') (7.4)."""
    return concat(game_id, convert(step, bytes8), convert(seat, bytes8), g1.G_ENC, key,
                  slice(self._generators(), 0, len(deck_in) // 2 + 48), deck_in, deck_out)


@pure
def _generators() -> Bytes[48 * (MAX_N + 1)]:
    """h, h_0..h_90 (generators.vy): one copy of the table in the code, whoever reads it."""
    return generators.GENERATORS


# The hashes over stmt are helpers of their own, though they must copy the decks and the
# proof: their frames share memory with one another (and with points.msm's), where
# verify_shuffle's own temporaries would each take their own.
@pure
def _seeds(game_id: bytes32, step: uint64, seat: uint64, key: Bytes[48],
           deck_in: Bytes[MAX_DECK], deck_out: Bytes[MAX_DECK],
           proof: Bytes[MAX_PROOF]) -> (bytes32, bytes32):
    """seed_u = H(SHUFFLE_U, stmt, c) (7.4 step 2) and H(SHUFFLE_WEIGHT, stmt, proof)
    (7.5.1)."""
    stmt: Bytes[MAX_STMT] = self._statement(game_id, step, seat, key, deck_in, deck_out)
    n48: uint256 = len(deck_in) // 2
    return (sha256(concat(g1.head(b"dealerless/challenge/shuffle-u"), g1.lp(len(stmt)), stmt,
                          g1.lp(n48), slice(proof, 0, n48))),
            sha256(concat(g1.head(b"dealerless/shuffle-weight"), g1.lp(len(stmt)), stmt,
                          g1.lp(len(proof)), proof)))


@pure
def _challenge(game_id: bytes32, step: uint64, seat: uint64, key: Bytes[48],
               deck_in: Bytes[MAX_DECK], deck_out: Bytes[MAX_DECK], proof: Bytes[MAX_PROOF],
               ts: Bytes[240]) -> uint256:
    """H_scalar(SHUFFLE_C, stmt, c, c^, t1'||..||t4_2'||t^_0||..||t^_{N-1}) with the t^ as
    sent (7.5.1 step 1); `ts` holds t1'..t4_2'."""
    stmt: Bytes[MAX_STMT] = self._statement(game_id, step, seat, key, deck_in, deck_out)
    n48: uint256 = len(deck_in) // 2
    return g1.scalar_from_b0(sha256(concat(
        g1.ZERO32, g1.ZERO32, g1.head(b"dealerless/challenge/shuffle-c"), g1.lp(len(stmt)),
        stmt, g1.lp(n48), slice(proof, 0, n48), g1.lp(n48), slice(proof, n48, n48),
        g1.lp(240 + n48), ts, slice(proof, 2 * n48, n48), g1.XMD48, g1.DST_SCALAR_PRIME)))


@pure
def _seeded(tag: Bytes[32], seed: bytes32, j: uint256) -> uint256:
    """H_scalar(tag, seed, u64(j)): 7.4's u_j and 7.5.1's a_i."""
    return g1.scalar_from_b0(sha256(concat(
        g1.ZERO32, g1.ZERO32, g1.head(tag), g1.LP32, seed, g1.LP8,
        convert(convert(j, uint64), bytes8), g1.XMD48, g1.DST_SCALAR_PRIME)))
