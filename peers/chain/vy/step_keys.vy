#pragma version ~=0.4.3
"""
@title The single-step check, stage 4a: KEY, NONCE and SHUFFLE (10.5 check 10)
@notice The handlers of spec/10-session.md 10.4 for the frames before the deal, the body
        decoded as spec/08-wire.md 8.5 reads it (peers/chain/clsp/phases.clib): KEY's
        Schnorr proof (g1_checks.vy) and the joint key, NONCE's opening, the first
        player and the initial deck (5.4), SHUFFLE's proof (shuffle.vy). The changes to
        the state go to step_tx for step_next.vy.
@dev A received element is decoded by rules 0-3 at once and rule 4 (the subgroup) is
     left to the G1MSM of its proof's check, which refuses a point outside it; a check
     that answers before that one (a later field of the body) first asks for rule 4
     (g1.first_torsion), as the reference decodes each element whole, in order.
"""

import bls12381g1 as g1
import msgpack
import step_codes as c
import step_consts
import step_lib
import step_tx

initializes: step_tx
initializes: step_lib[step_tx := step_tx]

interface G1Checks:
    def verify_schnorr(game_id: bytes32, step: uint64, seat: uint64, key: Bytes[96],
                       key_w: uint256[2], proof: Bytes[128]) -> uint8: view

E_DECK_LENGTH: constant(uint8) = 13
DECK_IN: constant(uint256) = 2592        # Bram's deck: 27 ciphertexts of 96 bytes
N: constant(uint256) = 27
SHUFFLE_ID: constant(Bytes[4]) = method_id(
    "verify_shuffle(bytes32,uint64,uint64,bytes,bytes,bytes,bytes,uint256[2][])",
    output_type=Bytes[4])
MAX_SHUFFLE_HINTS: constant(uint256) = 2 * N + 3 * N + 3 * N + 2


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
def _key(i: uint256) -> Bytes[128]:
    """The state's key share Y_i (bin8 headers: c4 30)."""
    return step_lib.own(step_tx.fld[6] + 3 + 50 * i)


@internal
@view
def _joint(y1: Bytes[128]) -> Bytes[128]:
    """Y = Y_0 + Y_1."""
    return step_lib.add(self._key(0), y1)


@internal
def _on_key(seat: uint256, seq: uint256) -> uint8:
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = self._item(step_tx.fbody)
    if kind != msgpack.K_ARRAY or n != 3:
        return c.E_SCHEMA_ARRAY
    proof_item: uint256 = msgpack.skip(q)
    commit_item: uint256 = msgpack.skip(proof_item)
    at: uint256 = 0
    kind, n, at = self._item(q)
    if kind != msgpack.K_BIN or n > 49:
        return c.E_SCHEMA_BYTES
    code: uint8 = 0
    y: Bytes[128] = b""
    code, y = step_lib.element(at, n)
    if code != 0:
        return code
    if not g1.on_curve(y):
        return g1.E_POINT_NOT_ON_CURVE
    p: uint256 = 0
    kind, n, p = self._item(proof_item)
    if kind != msgpack.K_BIN or n > 65:
        return g1.first_torsion([y], c.E_SCHEMA_BYTES)
    if n != 64:
        return g1.first_torsion([y], 8)   # schnorr/length
    if step_lib.word(p) >= g1.R or step_lib.word(p + 32) >= g1.R:
        return g1.first_torsion([y], g1.E_SCALAR_OUT_OF_RANGE)
    com: uint256 = 0
    kind, n, com = self._item(commit_item)
    if kind != msgpack.K_BIN or n != 32:
        return g1.first_torsion([y], c.E_SCHEMA_BYTES)
    code = staticcall G1Checks(step_tx.a_g1).verify_schnorr(
        step_tx.gid, convert(seq, uint64), convert(seat, uint64), slice(msg.data, at, 48),
        step_lib.hint(at), slice(msg.data, p, 64))
    if code != 0:
        return code
    step_tx.a_key = at
    step_tx.a_com = com
    step_tx.n_phase = 0
    step_tx.n_turn = seat + 1
    if seat == 1:
        # The joint key must not be the identity (blamed on the last seat).
        joint: Bytes[128] = self._joint(y)
        if convert(extract32(joint, 0), uint256) | convert(extract32(joint, 32), uint256) \
                | convert(extract32(joint, 64), uint256) | convert(extract32(joint, 96), uint256) \
                == 0:
            return c.E_DECK_JOINT_KEY_IDENTITY
        step_tx.n_phase = 1
        step_tx.n_turn = 0
    return 0


@internal
def _on_nonce(seat: uint256) -> uint8:
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = self._item(step_tx.fbody)
    if kind != msgpack.K_ARRAY or n != 1:
        return c.E_SCHEMA_ARRAY
    at: uint256 = 0
    kind, n, at = self._item(q)
    if kind != msgpack.K_BIN or n != 32:
        return c.E_SCHEMA_BYTES
    gid: bytes32 = step_tx.gid
    nonce: Bytes[32] = slice(msg.data, at, 32)
    opened: bytes32 = sha256(concat(g1.head(b"dealerless/first-player-commit"), g1.LP32, gid,
                                    x"00000001", convert(convert(seat, uint8), bytes1),
                                    g1.LP32, nonce))
    fld: uint256[18] = step_tx.fld
    if convert(opened, uint256) != step_lib.word(fld[1] + 3 + 34 * seat):
        return c.E_NONCE_COMMITMENT_MISMATCH
    step_tx.a_non = at
    step_tx.n_phase = 1
    step_tx.n_turn = seat + 1
    if seat == 1:
        # first_player = int_be(H(FIRST_PLAYER, game_id, n_0, n_1)) mod 2, and the deck
        # (G, P_t + Y) of each deck tile in order (5.4).
        first: bytes32 = sha256(concat(g1.head(b"dealerless/first-player"), g1.LP32, gid,
                                       g1.LP32, slice(msg.data, fld[8] + 3, 32), g1.LP32,
                                       nonce))
        step_tx.n_first = (convert(first, uint256) & 1) + 1
        y: Bytes[128] = self._joint(self._key(1))
        table: Bytes[2688] = step_consts.TILES
        g_lo: uint256 = convert(extract32(g1.G_ENC, 16), uint256)
        for t: uint256 in range(N):
            c2: Bytes[48] = g1.compress(step_lib.add(step_lib.tile_xy(table, t), y))
            # G (48 bytes) then c2: three words.
            step_tx.deck_words[3 * t] = convert(extract32(g1.G_ENC, 0), uint256)
            step_tx.deck_words[3 * t + 1] = g_lo << 128 | convert(extract32(c2, 0), uint256) >> 128
            step_tx.deck_words[3 * t + 2] = convert(extract32(c2, 16), uint256)
        step_tx.n_deck = 2
        step_tx.n_phase = 2
        step_tx.n_turn = 0
    return 0


@internal
@view
def _first_bad(at: uint256, count: uint256) -> uint8:
    """The code of the first of `count` elements from `at` that breaks 2.5, else 0."""
    code: uint8 = 0
    xy: Bytes[128] = b""
    for k: uint256 in range(2 * N):
        if k == count:
            break
        code, xy = step_lib.full(at + 48 * k, 48)
        if code != 0:
            return code
    return 0


@internal
def _on_shuffle(seat: uint256, seq: uint256) -> uint8:
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = self._item(step_tx.fbody)
    if kind != msgpack.K_ARRAY or n != 2:
        return c.E_SCHEMA_ARRAY
    deck: uint256 = 0
    m: uint256 = 0
    kind, m, deck = self._item(q)
    if kind != msgpack.K_BIN or m > DECK_IN + 1:
        return c.E_SCHEMA_BYTES
    if m % 96 != 0:
        return E_DECK_LENGTH
    proof: uint256 = 0
    kind, n, proof = self._item(deck + m)
    if kind != msgpack.K_BIN or n > 208 * N + 161:
        code: uint8 = self._first_bad(deck, m // 48)
        if code != 0:
            return code
        return c.E_SCHEMA_BYTES
    # shuffle.vy's hints: the output deck's points, the proof's (if its length lets it
    # read them), the joint key's, h and h_i's, the input deck's.
    y: Bytes[128] = self._joint(self._key(1))
    hints: DynArray[uint256[2], MAX_SHUFFLE_HINTS] = []
    for k: uint256 in range(2 * N):
        if k == m // 48:
            break
        hints.append(step_lib.hint(deck + 48 * k))
    for k: uint256 in range(3 * N):
        if n == 208 * N + 160:
            hints.append(step_lib.hint(proof + 48 * k))
        else:
            hints.append([0, 0])
    hints.append(step_lib.y_hint(y))
    gens: Bytes[1344] = step_consts.GEN_HINTS
    for k: uint256 in range(N + 1):
        hints.append([convert(extract32(gens, 48 * k), uint256) >> 128,
                      convert(extract32(gens, 48 * k + 16), uint256)])
    fld: uint256[18] = step_tx.fld
    own: uint256 = fld[2] + 3   # bin16 header: c5 0a 20
    for k: uint256 in range(2 * N):
        hints.append(step_lib.hint(own + 48 * k))
    out: Bytes[32] = raw_call(step_tx.a_shuffle, abi_encode(
        step_tx.gid, convert(seq, uint64), convert(seat, uint64), g1.compress(y),
        slice(msg.data, own, DECK_IN), step_lib.cd(deck, m), step_lib.cd(proof, n), hints,
        method_id=SHUFFLE_ID), max_outsize=32, is_static_call=True)
    code: uint8 = convert(convert(out, uint256), uint8)
    if code != 0:
        return code
    step_tx.n_deck = 1
    step_tx.deck_at = deck
    step_tx.n_phase = 2
    step_tx.n_turn = seat + 1
    if seat == 1:
        step_tx.n_phase = 3
        step_tx.n_turn = 0
    return 0


@external
def judge(committed: bytes32, flags: uint256, table: uint256):
    seat: uint256 = step_tx.fseat
    code: uint8 = 0
    t: uint256 = step_tx.ftype
    if t == 1:
        code = self._on_key(seat, step_tx.seq)
    elif t == 2:
        code = self._on_nonce(seat)
    else:
        code = self._on_shuffle(seat, step_tx.seq)
    if code != 0:
        step_tx.violation(code, seat, True)
