#pragma version ~=0.4.3
"""
@title The single-step check, stage 4b: DEAL, REVEAL, DRAW and MOVE (10.5 check 10)
@notice The handlers of spec/10-session.md 10.4 that publish decryption shares, their
        bodies decoded as spec/08-wire.md 8.5 reads them (peers/chain/clsp/phases.clib):
        the batched proof of a DEAL, REVEAL or DRAW (6.3.1) and the proof of a MOVE's
        opening (6.3) by g1_checks.vy, the decryption of opened positions (5.6), Bram's
        rules (step_bram.vy) and the reveal check (10.6). The changes to the state go to
        step_tx for step_next.vy.
@dev Each received share is decoded by rules 0-3 of 2.5 when the body is read; rule 4 is
     left to the G1MSM of the proof's check (which refuses a point outside the subgroup,
     and names the first such share), and any check that answers before it first tests
     the shares read so far one by one (`_deferred`), since the reference decodes every
     share whole, in order. A body has at most 27 shares that can be right; past that
     (a body that will fail `*/positions`), each share is tested whole as it is read.
"""

import bls12381g1 as g1
import msgpack
import step_bram
import step_codes as c
import step_consts
import step_lib
import step_tx

initializes: step_tx
initializes: step_lib[step_tx := step_tx]

interface G1Checks:
    def verify_dleq(game_id: bytes32, step: uint64, seat: uint64, key: Bytes[96],
                    key_w: uint256[2], c1: Bytes[96], c1_w: uint256[2], share: Bytes[96],
                    share_w: uint256[2], proof: Bytes[128]) -> uint8: view

E_DLEQ_LENGTH: constant(uint8) = 10
N: constant(uint256) = 27
BATCH_ID: constant(Bytes[4]) = method_id(
    "verify_dleq_batch(bytes32,uint64,uint64,bytes,uint256[2],bytes[],bytes[],uint256[2][],bytes)",
    output_type=Bytes[4])
NOT_A_TILE: constant(uint256) = 28


struct Pair:
    p: uint256
    at: uint256     # where the share's 48 bytes are
    xy: Bytes[128]


@internal
@view
def _item(pos: uint256) -> (uint8, uint256, uint256):
    kind: uint8 = 0
    v: uint256 = 0
    q: uint256 = 0
    kind, v, q = msgpack.read_header(pos)
    return kind, v, q


@internal
@view
def _deferred(pairs: DynArray[Pair, N], code: uint8) -> uint8:
    """point/torsion if a share read so far is outside the subgroup, else `code`."""
    for pair: Pair in pairs:
        if not g1.subgroup_ok(pair.xy):
            return g1.E_POINT_TORSION
    return code


@internal
@view
def _owner(p: uint256) -> uint256:
    """Bram's dealt owner of position p < 27: 0, 1, or 2 for the hidden one."""
    if p < 13:
        return 0
    if p < 26:
        return 1
    return 2


@internal
@view
def _state_share(p: uint256, seat: uint256) -> uint256:
    """Where the state's share shares[p][seat] (which is set) starts."""
    q: uint256 = step_tx.shares_at[p] + 1     # the row's fixarray header
    if seat == 1:
        q = msgpack.skip(q)
    return q + 2                              # bin8 header: c4 30


@internal
@view
def _decrypt(p: uint256, mine: Bytes[128], seat: uint256, table: Bytes[2688]) -> uint256:
    """The tile index whose point is c2 of deck[p] minus the shares of position p (the
    sender's new one and the other seat's if set), or NOT_A_TILE."""
    deck: uint256 = step_tx.fld[2] + 3
    m: Bytes[128] = step_lib.add(step_lib.own(deck + 96 * p + 48), step_lib.neg(mine))
    if step_tx.shmask & (1 << (2 * p + 1 - seat)) != 0:
        m = step_lib.add(m, step_lib.neg(step_lib.own(self._state_share(p, 1 - seat))))
    x_hi: uint256 = convert(extract32(m, 0), uint256)
    x_lo: uint256 = convert(extract32(m, 32), uint256)
    y_hi: uint256 = convert(extract32(m, 64), uint256)
    y_lo: uint256 = convert(extract32(m, 96), uint256)
    for t: uint256 in range(28):
        if convert(extract32(table, 96 * t), uint256) >> 128 == x_hi \
                and convert(extract32(table, 96 * t + 16), uint256) == x_lo \
                and convert(extract32(table, 96 * t + 48), uint256) >> 128 == y_hi \
                and convert(extract32(table, 96 * t + 64), uint256) == y_lo:
            return t
    return NOT_A_TILE


@internal
def _on_shares(seat: uint256, seq: uint256, typ: uint256) -> uint8:
    """DEAL (4), REVEAL (6), DRAW (7): [[[p, D], ...], proof or nil]."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = self._item(step_tx.fbody)
    if kind != msgpack.K_ARRAY or n != 2:
        return c.E_SCHEMA_ARRAY
    count: uint256 = 0
    kind, count, q = self._item(q)
    if kind != msgpack.K_ARRAY or count > 4096:
        return c.E_SCHEMA_ARRAY
    pairs: DynArray[Pair, N] = []
    last: uint256 = 0
    ascending: bool = True
    code: uint8 = 0
    xy: Bytes[128] = b""
    for j: uint256 in range(4096):
        if j == count:
            break
        kind, n, q = self._item(q)
        if kind != msgpack.K_ARRAY or n != 2:
            return self._deferred(pairs, c.E_SCHEMA_ARRAY)
        p: uint256 = 0
        kind, p, q = self._item(q)
        if kind != msgpack.K_UINT or p > 4095:
            return self._deferred(pairs, c.E_SCHEMA_INT)
        at: uint256 = 0
        kind, n, at = self._item(q)
        if kind != msgpack.K_BIN or n > 49:
            return self._deferred(pairs, c.E_SCHEMA_BYTES)
        q = at + n
        code, xy = step_lib.element(at, n)
        if code == 0 and not g1.on_curve(xy):
            code = g1.E_POINT_NOT_ON_CURVE
        if code == 0 and j >= N and not g1.subgroup_ok(xy):
            code = g1.E_POINT_TORSION
        if code != 0:
            return self._deferred(pairs, code)
        ascending = ascending and (j == 0 or p > last)
        last = p
        if j < N:
            pairs.append(Pair(p=p, at=at, xy=xy))
    # The proof: nil exactly when there are no pairs, else 64 bytes of two scalars.
    proof: uint256 = 0
    kind, n, proof = self._item(q)
    if kind == msgpack.K_NIL:
        if count != 0:
            return self._deferred(pairs, E_DLEQ_LENGTH)
    else:
        if kind != msgpack.K_BIN or n > 65:
            return self._deferred(pairs, c.E_SCHEMA_BYTES)
        if count == 0 or n != 64:
            return self._deferred(pairs, E_DLEQ_LENGTH)
        if step_lib.word(proof) >= g1.R or step_lib.word(proof + 32) >= g1.R:
            return self._deferred(pairs, g1.E_SCALAR_OUT_OF_RANGE)
    if not ascending:
        return self._deferred(pairs, c.E_BODY_POSITIONS)
    # The positions it must cover: DEAL every position dealt to the other seat, REVEAL
    # the sender's unopened ones and the hidden one, DRAW the one being drawn.
    opened: uint256 = step_tx.opened
    expected: DynArray[uint256, N] = []
    if typ == 7:
        expected.append(step_tx.drawing)
    else:
        for p: uint256 in range(N):
            o: uint256 = self._owner(p)
            if typ == 4 and o != 2 and o != seat:
                expected.append(p)
            elif typ == 6 and ((o == seat and (opened >> (5 * p)) & 31 == 0) or o == 2):
                expected.append(p)
    same: bool = count == len(expected)
    if same:
        for k: uint256 in range(N):
            if k == count:
                break
            same = same and pairs[k].p == expected[k]
    if not same:
        if typ == 4:
            return self._deferred(pairs, c.E_DEAL_POSITIONS)
        if typ == 6:
            return self._deferred(pairs, c.E_REVEAL_POSITIONS)
        return self._deferred(pairs, c.E_DRAW_POSITIONS)
    if count != 0:
        code = self._batch(seat, seq, pairs, proof)
        if code != 0:
            return code
    for pair: Pair in pairs:
        step_tx.n_share[pair.p] = pair.at
    step_tx.n_phase = step_tx.phase
    step_tx.n_turn = seat + 1
    if typ == 4:
        if seat == 1:
            rules: uint256 = step_bram.initial(step_tx.first)
            step_tx.n_rules = rules
            step_tx.n_phase = 4
            step_tx.n_turn = step_bram.to_move(rules)
        return 0
    if typ == 7:
        step_tx.n_undraw = True
        step_tx.n_phase = 4
        step_tx.n_turn = step_bram.to_move(step_tx.rules)
        return 0
    return self._revealed(seat, pairs, opened)


@internal
def _batch(seat: uint256, seq: uint256, pairs: DynArray[Pair, N], proof: uint256) -> uint8:
    """6.3.1 by g1_checks.vy: the shares against the sender's key and the c1 of each
    position."""
    deck: uint256 = step_tx.fld[2] + 3
    key: uint256 = step_tx.fld[6] + 3 + 50 * seat
    c1s: DynArray[Bytes[48], N] = []
    shares: DynArray[Bytes[48], N] = []
    hints: DynArray[uint256[2], 2 * N] = []
    for pair: Pair in pairs:
        c1s.append(slice(msg.data, deck + 96 * pair.p, 48))
        hints.append(step_lib.hint(deck + 96 * pair.p))
    for pair: Pair in pairs:
        shares.append(slice(msg.data, pair.at, 48))
        hints.append(step_lib.y_hint(pair.xy))
    out: Bytes[32] = raw_call(step_tx.a_g1, abi_encode(
        step_tx.gid, convert(seq, uint64), convert(seat, uint64), slice(msg.data, key, 48),
        step_lib.hint(key), c1s, shares, hints, slice(msg.data, proof, 64),
        method_id=BATCH_ID), max_outsize=32, is_static_call=True)
    return convert(convert(out, uint256), uint8)


@internal
def _revealed(seat: uint256, pairs: DynArray[Pair, N], opened: uint256) -> uint8:
    """REVEAL: each revealed position whose shares are all in opens; after the last seat,
    Bram's reveal check (10.6), and the game is done."""
    table: Bytes[2688] = step_consts.TILES
    now: uint256 = opened
    new: uint256 = 0
    for pair: Pair in pairs:
        if step_tx.shmask & (1 << (2 * pair.p + 1 - seat)) != 0:
            t: uint256 = self._decrypt(pair.p, pair.xy, seat, table)
            if t == NOT_A_TILE:
                return c.E_DECK_NOT_A_TILE
            new |= (t + 1) << (5 * pair.p)
            now = now & ~(31 << (5 * pair.p)) | (t + 1) << (5 * pair.p)
    step_tx.n_open = new
    if seat == 0:
        return 0
    # The unplayed opened tiles of each seat and the hidden ones.
    played: uint256 = step_tx.played
    counts: uint256[3] = empty(uint256[3])
    mask: uint256 = 0
    distinct: bool = True
    for p: uint256 in range(N):
        t: uint256 = (now >> (5 * p)) & 31
        if t != 0 and (played >> p) & 1 == 0:
            a: uint256 = 0
            b: uint256 = 0
            a, b = step_bram.tile_at(t - 1)
            bit: uint256 = step_bram.tile_bit(a, b)
            distinct = distinct and mask & bit == 0
            mask |= bit
            o: uint256 = self._owner(p)
            counts[(o + 1) % 3] += 1
    code: uint8 = step_bram.reveal_check(step_tx.rules, counts, mask, distinct)
    if code != 0:
        return code
    step_tx.n_phase = 7
    step_tx.n_turn = step_tx.ABSENT
    return 0


@internal
def _on_move(seat: uint256, seq: uint256) -> uint8:
    """MOVE: [move_id, p, D, proof] or [move_id, nil, nil, nil], a fifth item a claim."""
    kind: uint8 = 0
    count: uint256 = 0
    q: uint256 = 0
    kind, count, q = self._item(step_tx.fbody)
    if kind != msgpack.K_ARRAY or count > 5:
        return c.E_SCHEMA_ARRAY
    item: uint256[5] = empty(uint256[5])
    for i: uint256 in range(5):
        if i == count:
            break
        item[i] = q
        q = msgpack.skip(q)
    n: uint256 = 0
    v: uint256 = 0
    if count == 5:
        kind, n, q = self._item(item[4])
        if kind != msgpack.K_BIN or n > 4465:
            return c.E_SCHEMA_BYTES
    if count < 4:
        return c.E_SCHEMA_ARRAY
    move_id: uint256 = 0
    kind, move_id, q = self._item(item[0])
    if kind != msgpack.K_UINT or move_id > 1048576:
        return c.E_SCHEMA_INT
    # The opening, unless its three items are nil.
    opening: bool = False
    for i: uint256 in range(1, 4):
        kind, v, q = self._item(item[i])
        opening = opening or kind != msgpack.K_NIL
    p: uint256 = 0
    at: uint256 = 0
    proof: uint256 = 0
    d: Bytes[128] = b""
    code: uint8 = 0
    if opening:
        kind, p, q = self._item(item[1])
        if kind != msgpack.K_UINT or p > 4095:
            return c.E_SCHEMA_INT
        kind, n, at = self._item(item[2])
        if kind != msgpack.K_BIN or n > 49:
            return c.E_SCHEMA_BYTES
        code, d = step_lib.element(at, n)
        if code != 0:
            return code
        if not g1.on_curve(d):
            return g1.E_POINT_NOT_ON_CURVE
        kind, n, proof = self._item(item[3])
        code = 0
        if kind != msgpack.K_BIN or n > 65:
            code = c.E_SCHEMA_BYTES
        elif n != 64:
            code = E_DLEQ_LENGTH
        elif step_lib.word(proof) >= g1.R or step_lib.word(proof + 32) >= g1.R:
            code = g1.E_SCALAR_OUT_OF_RANGE
        elif move_id > 56:
            code = c.E_MOVE_UNKNOWN_ID
        elif count == 5:
            code = c.E_MOVE_UNEXPECTED_CLAIM
        elif move_id == 0:
            code = c.E_MOVE_UNEXPECTED_OPENING
        elif p >= N or self._owner(p) != seat:
            code = c.E_MOVE_NOT_DEALT_TO_SEAT
        elif (step_tx.opened >> (5 * p)) & 31 != 0:
            code = c.E_MOVE_ALREADY_PLAYED
        if code != 0:
            return g1.first_torsion([d], code)
        deck: uint256 = step_tx.fld[2] + 3
        key: uint256 = step_tx.fld[6] + 3 + 50 * seat
        code = staticcall G1Checks(step_tx.a_g1).verify_dleq(
            step_tx.gid, convert(seq, uint64), convert(seat, uint64), slice(msg.data, key, 48),
            step_lib.hint(key), slice(msg.data, deck + 96 * p, 48),
            step_lib.hint(deck + 96 * p), slice(msg.data, at, 48), step_lib.y_hint(d),
            slice(msg.data, proof, 64))
        if code != 0:
            return code
        t: uint256 = self._decrypt(p, d, seat, step_consts.TILES)
        if t == NOT_A_TILE:
            return c.E_DECK_NOT_A_TILE
        if t != (move_id - 1) >> 1:
            return c.E_MOVE_TILE_MISMATCH
        step_tx.n_share[p] = at
        step_tx.n_open = (t + 1) << (5 * p)
        step_tx.n_play = 1 << p
    else:
        if move_id > 56:
            return c.E_MOVE_UNKNOWN_ID
        if count == 5:
            return c.E_MOVE_UNEXPECTED_CLAIM
        if move_id != 0:
            return c.E_MOVE_MISSING_OPENING
    rules: uint256 = 0
    code, rules = step_bram.apply(step_tx.rules, seat, move_id)
    if code != 0:
        return code
    step_tx.n_rules = rules
    step_tx.n_phase = 4
    step_tx.n_turn = step_bram.to_move(rules)
    if step_bram.is_over(rules):
        step_tx.n_phase = 6
        step_tx.n_turn = 0
    return 0


@external
def judge(committed: bytes32, flags: uint256, table: uint256):
    seat: uint256 = step_tx.fseat
    t: uint256 = step_tx.ftype
    code: uint8 = 0
    if t == 5:
        code = self._on_move(seat, step_tx.seq)
    else:
        code = self._on_shares(seat, step_tx.seq, t)
    if code != 0:
        step_tx.violation(code, seat, True)
