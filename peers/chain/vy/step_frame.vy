#pragma version ~=0.4.3
"""
@title The single-step check, stage 3: frame N before its body, and the evidence
@notice Mode 0 (11.4 rule 9, spec/10-session.md 10.5 checks 1 to 9): the frame parsed
        (spec/08-wire.md 8.4), its seat and signature (8.3, Schnorr over G1), then the
        game, seq, prev, state hash, the end, the turn and the phase table; on success
        it leaves the frame's fields and the type, whose handler runs next. Mode 1 (rule
        10): each evidence record authenticated and judged against frame N as 11.2 step
        4 says (peers/chain/clsp/frame.clib).
"""

import bls12381g1 as g1
import msgpack
import step_codes as c
import step_lib
import step_tx

initializes: step_tx
initializes: msgpack
initializes: step_lib[step_tx := step_tx]

E_FRAME_BAD_SIGNATURE: constant(uint8) = 12
PREFIX: constant(Bytes[29]) = b"dealerless/frame-signature/3\x00"

# The phase that takes each type (10.2): KEY keys, NONCE nonces, SHUFFLE shuffle, DEAL
# deal, MOVE play, REVEAL reveal, DRAW draw (step_state's phase numbers).
PHASE_OF: constant(uint256[8]) = [99, 0, 1, 2, 3, 4, 6, 5]


struct Frame:
    code: uint8
    seat: uint256
    type: uint256
    gid: uint256
    seq: uint256
    prev: uint256
    sh: uint256
    body: uint256
    payload: uint256
    payload_len: uint256
    sig: uint256


@internal
@view
def _item(pos: uint256) -> (uint8, uint256, uint256):
    """The header at pos: kind, value, and where its bytes or its first item start."""
    kind: uint8 = 0
    v: uint256 = 0
    q: uint256 = 0
    kind, v, q = msgpack.read_header(pos)
    return kind, v, q


@internal
def _parse(at: uint256, n: uint256) -> Frame:
    """8.4's parse of the wire bytes calldata[at, at + n), in its table's order."""
    f: Frame = empty(Frame)
    f.seat = step_tx.ABSENT
    f.code = msgpack.unpack_code(at, at + n, 65536)
    if f.code != 0:
        return f
    kind: uint8 = 0
    v: uint256 = 0
    q: uint256 = 0
    kind, v, q = self._item(at)
    if kind != msgpack.K_ARRAY or v != 2:
        f.code = c.E_SCHEMA_ARRAY
        return f
    kind, f.payload_len, f.payload = self._item(q)
    if kind != msgpack.K_BIN or f.payload_len > 65536:
        f.code = c.E_SCHEMA_BYTES
        return f
    kind, v, f.sig = self._item(f.payload + f.payload_len)
    if kind != msgpack.K_BIN or v != 64:
        f.code = c.E_SCHEMA_BYTES
        return f
    f.code = msgpack.unpack_code(f.payload, f.payload + f.payload_len, 65536)
    if f.code != 0:
        return f
    kind, v, q = self._item(f.payload)
    if kind != msgpack.K_ARRAY or v != 8:
        f.code = c.E_SCHEMA_ARRAY
        return f
    item: uint256[8] = empty(uint256[8])
    for i: uint256 in range(8):
        item[i] = q
        q = msgpack.skip(q)
    f.body = item[7]
    kind, v, q = self._item(item[0])
    if kind != msgpack.K_UINT:
        f.code = c.E_SCHEMA_INT
        return f
    if v != 3:
        f.code = c.E_VERSION_UNSUPPORTED
        return f
    kind, f.type, q = self._item(item[5])
    if kind != msgpack.K_UINT:
        f.code = c.E_SCHEMA_INT
        return f
    if f.type < 1 or f.type > 11:
        f.code = c.E_FRAME_UNKNOWN_TYPE
        return f
    kind, v, q = self._item(item[1])
    if kind != msgpack.K_BIN or v != 32:
        f.code = c.E_SCHEMA_BYTES
        return f
    f.gid = step_lib.word(q)
    kind, f.seq, q = self._item(item[2])
    if kind != msgpack.K_UINT:
        f.code = c.E_SCHEMA_INT
        return f
    kind, v, q = self._item(item[3])
    if kind != msgpack.K_BIN or v != 32:
        f.code = c.E_SCHEMA_BYTES
        return f
    f.prev = step_lib.word(q)
    kind, v, q = self._item(item[4])
    if kind != msgpack.K_UINT or v > 255:
        f.code = c.E_SCHEMA_INT
        return f
    seat: uint256 = v
    kind, v, q = self._item(item[6])
    if kind != msgpack.K_BIN or v != 32:
        f.code = c.E_SCHEMA_BYTES
        return f
    f.sh = step_lib.word(q)
    f.seat = seat
    return f


@internal
def _signed(f: Frame) -> bool:
    """8.3's Schnorr signature over G1 by the seat's frame key: c = H_scalar(FRAME_SIGNATURE,
    Y, s*G - c*Y, m), m the 8.3 prefix, a zero byte and the payload."""
    c_: uint256 = step_lib.word(f.sig)
    s_: uint256 = step_lib.word(f.sig + 32)
    if c_ >= g1.R or s_ >= g1.R:
        return False
    ids: uint256[8] = step_tx.ids
    k: uint256 = 4 * f.seat
    key: Bytes[128] = concat(convert(ids[k], bytes32), convert(ids[k + 1], bytes32),
                             convert(ids[k + 2], bytes32), convert(ids[k + 3], bytes32))
    ok: bool = False
    r: Bytes[48] = b""
    ok, r = g1.commitment(g1.G_XY, key, c_, s_)
    assert ok, "a setup key outside the subgroup"
    b0: bytes32 = step_lib.sha(
        concat(g1.ZERO32, g1.ZERO32, g1.head(b"dealerless/frame-signature"), g1.LP48,
               slice(msg.data, step_tx.idpos[f.seat], 48), g1.LP48, r,
               g1.lp(29 + f.payload_len), PREFIX),
        f.payload, f.payload_len, concat(g1.XMD48, g1.DST_SCALAR_PRIME))
    return g1.scalar_from_b0(b0) == c_


@internal
def _authenticate(at: uint256, n: uint256) -> Frame:
    """10.5 checks 1 and 2: parsed, a seat of the game (else no seat is named), signed by
    it (else frame/bad-signature names it)."""
    f: Frame = self._parse(at, n)
    if f.code != 0:
        return f
    if f.seat > 1:
        f.code = c.E_FRAME_UNKNOWN_SEAT
        f.seat = step_tx.ABSENT
    elif not self._signed(f):
        f.code = E_FRAME_BAD_SIGNATURE
    return f


@internal
def _step(flags: uint256):
    """Checks 1 to 9 of 10.5; on success frame N's fields go to step_tx."""
    f: Frame = self._authenticate(step_tx.wire, step_tx.wiren)
    if f.code != 0:
        step_tx.violation(f.code, f.seat, False)
        return
    prev: uint256 = step_lib.word(step_tx.fld[13] + 2)
    phase: uint256 = step_tx.phase
    code: uint8 = 0
    auth: bool = True
    if f.gid != convert(step_tx.gid, uint256):
        code = c.E_FRAME_WRONG_GAME
        auth = False
    elif f.seq != step_tx.seq:
        code = c.E_FRAME_SEQUENCE
        auth = False
    elif f.prev != prev:
        code = c.E_FRAME_CHAIN
        auth = False
    elif f.sh != convert(step_tx.shash, uint256):
        # Without the committed hash the state is the package's word (11.4).
        code = c.E_STATE_HASH_MISMATCH
        auth = flags & 1 == 1
    elif phase == 7:
        code = c.E_FRAME_AFTER_END
    elif f.seat != step_tx.turn:
        code = c.E_FRAME_OUT_OF_TURN
    elif f.type > 7 or PHASE_OF[f.type] != phase:
        code = c.E_FRAME_UNEXPECTED_TYPE
    if code != 0:
        step_tx.violation(code, f.seat, auth)
        return
    step_tx.fseat = f.seat
    step_tx.ftype = f.type
    step_tx.fbody = f.body
    step_tx.fsh = convert(f.sh, bytes32)
    step_tx.fprev = convert(f.prev, bytes32)


@internal
@view
def _same_bytes(a: uint256, an: uint256, b: uint256, bn: uint256) -> bool:
    if an != bn:
        return False
    for i: uint256 in range(2048):
        if 32 * i >= an:
            break
        size: uint256 = min(32, an - 32 * i)
        if step_lib.word(a + 32 * i) >> (8 * (32 - size)) \
                != step_lib.word(b + 32 * i) >> (8 * (32 - size)):
            return False
    return True


@internal
def _evidence():
    """11.4 rule 10: each record's finding against frame N; the first that proves nothing
    (transcript/bad-evidence, no seat, no frame), else the first proof."""
    kind: uint8 = 0
    count: uint256 = 0
    q: uint256 = 0
    kind, count, q = self._item(step_tx.evid_item)
    if count == 0:
        return
    seat: uint256 = step_tx.fseat
    typ: uint256 = step_tx.ftype
    first: uint256 = 0
    for i: uint256 in range(16):
        if i == count:
            break
        n: uint256 = 0
        at: uint256 = 0
        kind, n, at = self._item(q)
        q = at + n
        e: Frame = self._authenticate(at, n)
        code: uint8 = c.E_TRANSCRIPT_BAD_EVIDENCE
        if e.code == 0 and e.gid == convert(step_tx.gid, uint256) and e.seq == step_tx.seq \
                and e.prev == convert(step_tx.fprev, uint256) \
                and ((typ != 10 and e.type != 10) or e.seat == seat):
            if e.seat == seat:
                if not self._same_bytes(at, n, step_tx.wire, step_tx.wiren):
                    code = c.E_FRAME_EQUIVOCATION
            elif e.sh == convert(step_tx.fsh, uint256):
                code = c.E_FRAME_OUT_OF_TURN
        if code == c.E_TRANSCRIPT_BAD_EVIDENCE:
            step_tx.finish(step_tx.K_VERDICT, code, step_tx.ABSENT, max_value(uint256), False)
            return
        if first == 0:
            first = convert(code, uint256) | e.seat << 8 | e.seq << 16
    step_tx.finish(step_tx.K_VERDICT, convert(first & 255, uint8), (first >> 8) & 255,
                   first >> 16, True)


@external
def judge(committed: bytes32, flags: uint256, table: uint256):
    if step_tx.mode == 0:
        self._step(flags)
    else:
        self._evidence()
