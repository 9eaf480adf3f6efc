#pragma version ~=0.4.3
"""
@title The single-step check, stage 5: the next state's encoding and its hash
@notice On success of 10.5 check 10 the next state is the handler's with seq + 1 and prev
        the frame's hash (8.4); its hash H(STATE, canonical encoding) (10.3) is the
        verdict's. The encoding is the package's state bytes (canonical: step_state.vy
        checked that they re-encode to themselves) with the changed values written in
        their place, in key order: the pieces are copied from calldata or written, then
        hashed in one buffer.
"""

import bls12381g1 as g1
import msgpack
import step_bram
import step_lib
import step_tx

initializes: step_tx
initializes: step_lib[step_tx := step_tx]

N: constant(uint256) = 27
# A splice of the encoding: [gap_at, gap_len, lit, lit_n, kind, x, n]: the old bytes
# calldata[gap_at, gap_at + gap_len), then the lit_n (<= 32) low bytes of lit, then: nothing
# (NOTHING), calldata [x, x + n) (CALLDATA), the rules' encoding (RULES), the deck
# step_keys.vy built (DECK), or the 32 bytes of x (WORD).
NOTHING: constant(uint256) = 0
CALLDATA: constant(uint256) = 1
RULES: constant(uint256) = 2
DECK: constant(uint256) = 3
WORD: constant(uint256) = 4
MAX_SPLICES: constant(uint256) = 80
# The longest encoding of a Bram state the step can make (about 6.2 kB).
ENCODING: constant(uint256) = 32 * step_lib.BUF
# Phase names as fixstr (step_state.PHASE_WORDS), and their sizes with the header.
PHASE_WORDS: constant(uint256[11]) = [
    706176448883, 46846271006401907, 12066102680094141541, 706059002220, 706260787577,
    706059854199, 46850626237587820, 706059660901, 46834176362375540, 706244273518,
    46834146331292517]
PHASE_SIZES: constant(uint256[11]) = [5, 7, 8, 5, 5, 5, 7, 5, 7, 5, 7]


@internal
@view
def _skip(pos: uint256) -> uint256:
    return msgpack.skip(pos)


@internal
@view
def _first(pos: uint256) -> (uint256, uint256):
    """An array's count and where its first item starts."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    return n, q


@internal
def _splices() -> (DynArray[uint256[7], MAX_SPLICES], Bytes[176]):
    fld: uint256[18] = step_tx.fld
    fend: uint256[18] = step_tx.fend
    out: DynArray[uint256[7], MAX_SPLICES] = []
    cur: uint256 = step_tx.st
    n: uint256 = 0
    e: uint256 = 0
    # Arrays that gain an item: commitments (1), key_shares (6), nonces (8). Their
    # count (at most 2) is a fixarray header; the item goes after the last.
    for k: uint256 in [1, 6, 8]:
        at: uint256 = step_tx.a_com
        size: uint256 = 32
        if k == 6:
            at = step_tx.a_key
            size = 48
        elif k == 8:
            at = step_tx.a_non
        if at != 0:
            n, e = self._first(fld[k])
            out.append([cur, fld[k] - cur, 144 | (n + 1), 1, NOTHING, 0, 0])
            out.append([fld[k] + 1, fend[k] - fld[k] - 1, 50176 | size, 2, CALLDATA, at, size])
            cur = fend[k]
        if k == 1 and step_tx.n_deck != 0:
            # c5 0a 20: bin16 of 2592 bytes
            kind: uint256 = CALLDATA
            if step_tx.n_deck == 2:
                kind = DECK
            out.append([cur, fld[2] - cur, 12913184, 3, kind, step_tx.deck_at, 2592])
            cur = fend[2]
        if k == 1 and step_tx.n_undraw:
            out.append([cur, fld[3] - cur, 192, 1, NOTHING, 0, 0])
            cur = fend[3]
        if k == 1 and step_tx.n_first != 0:
            out.append([cur, fld[4] - cur, step_tx.n_first - 1, 1, NOTHING, 0, 0])
            cur = fend[4]
    # opened (9): the tiles this step opened, as "a-b".
    opened: uint256 = step_tx.n_open
    if opened != 0:
        at: uint256[N] = step_tx.opened_at
        for p: uint256 in range(N):
            t: uint256 = (opened >> (5 * p)) & 31
            if t != 0:
                a: uint256 = 0
                b: uint256 = 0
                a, b = step_bram.tile_at(t - 1)
                # a3 '0' '-' '0'
                out.append([cur, at[p] - cur, 2737843504 | (a << 16) | b, 4, NOTHING, 0, 0])
                cur = self._skip(at[p])
    # phase (11)
    out.append([cur, fld[11] - cur, PHASE_WORDS[step_tx.n_phase], PHASE_SIZES[step_tx.n_phase],
                NOTHING, 0, 0])
    cur = fend[11]
    # played (12), a byte an entry
    played: uint256 = step_tx.n_play
    if played != 0:
        e = step_tx.played_at
        for p: uint256 in range(N):
            if (played >> p) & 1 == 1:
                out.append([cur, e + p - cur, 195, 1, NOTHING, 0, 0])
                cur = e + p + 1
    # prev (13): c4 20 and the frame's hash.
    out.append([cur, fld[13] - cur, 50208, 2, WORD,
                convert(step_lib.h1(b"dealerless/frame", step_tx.wire, step_tx.wiren), uint256),
                32])
    cur = fend[13]
    # rules (14)
    rules: Bytes[176] = b""
    if step_tx.n_rules != 0:
        rules = step_bram.encode(step_tx.n_rules)
        out.append([cur, fld[14] - cur, 0, 0, RULES, 0, 0])
        cur = fend[14]
    # seq (15)
    seq: Bytes[9] = msgpack.encode_uint(step_tx.seq + 1)
    out.append([cur, fld[15] - cur, convert(seq, uint256), len(seq), NOTHING, 0, 0])
    cur = fend[15]
    # shares (16): the sender's new share of each position, in its slot of the row.
    seat: uint256 = step_tx.fseat
    shares: uint256[27] = step_tx.n_share
    rows: uint256[N] = step_tx.shares_at
    for p: uint256 in range(N):
        if shares[p] != 0:
            slot: uint256 = rows[p] + 1
            if seat == 1:
                slot = self._skip(slot)
            out.append([cur, slot - cur, 50224, 2, CALLDATA, shares[p], 48])   # c4 30
            cur = self._skip(slot)
    # turn (17)
    turn: uint256 = step_tx.n_turn
    if turn == step_tx.ABSENT:
        turn = 192   # nil
    out.append([cur, fld[17] - cur, turn, 1, NOTHING, 0, 0])
    cur = fend[17]
    out.append([cur, step_tx.st + step_tx.stn - cur, 0, 0, NOTHING, 0, 0])
    return out, rules


@internal
@view
def _content(kind: uint256, x: uint256, n: uint256, rules: Bytes[176]) -> Bytes[3072]:
    if kind == CALLDATA:
        if n <= step_lib.CHUNK:
            return step_lib.chunk(x, n, 0)
        return concat(step_lib.chunk(x, n, 0), step_lib.chunk(x, n, 1),
                      step_lib.chunk(x, n, 2))
    if kind == RULES:
        return rules
    if kind == DECK:
        words: uint256[81] = step_tx.deck_words
        return slice(abi_encode(words), 0, 2592)
    if kind == WORD:
        return concat(convert(x, bytes32), b"")
    return b""


@external
def judge(committed: bytes32, flags: uint256, table: uint256):
    splices: DynArray[uint256[7], MAX_SPLICES] = []
    rules: Bytes[176] = b""
    splices, rules = self._splices()
    # The splices joined: a buffer that concat grows, kept at its type by abi_decode.
    out: Bytes[ENCODING] = b""
    for sp: uint256[7] in splices:
        lit: Bytes[32] = b""
        if sp[3] != 0:
            lit = slice(convert(sp[2] << (8 * (32 - sp[3])), bytes32), 0, sp[3])
        out = abi_decode(abi_encode(concat(out, step_lib.cd(sp[0], sp[1]), lit,
                                           self._content(sp[4], sp[5], sp[6], rules))),
                         Bytes[ENCODING])
    step_tx.next_hash = sha256(concat(g1.head(b"dealerless/state"), g1.lp(len(out)), out))
