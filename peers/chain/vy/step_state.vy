#pragma version ~=0.4.3
"""
@title The single-step check, stage 2: the state (11.4 rules 5 to 8)
@notice The state decoded as spec/10-session.md 10.3 says for Bram's rules (as
        peers/chain/clsp/state.clib), once step_package.vy has unpacked it: the map of exactly the 18 keys and the
        magic, every field by its accessor (state/schema), the elements (2.5) unless the
        state is the committed one, the reachability checks (state/inconsistent) and the
        re-encoding (state/non-canonical); then rule 6 (dispute/state), 7 and 8. What the
        later stages need of it goes to step_tx.
@dev The re-encoding: the bytes passed unpack, so they are canonical msgpack, and every
     field but two is read exactly as it is written. The two: a tile's text, read in
     either order ("6-5" is the tile 5-6, written "5-6"), and `rules`, which step_bram
     reads strictly (anything its encoder would not give back is state/schema, as
     bram.clib's bram_from_value). So the state re-encodes to its bytes exactly when no
     opened tile is written high-low, which is what is checked.
"""

import msgpack
import step_bram
import step_codes as c
import step_lib
import step_tx

initializes: step_tx

I_CLAIMS: constant(uint256) = 0
I_COMMITMENTS: constant(uint256) = 1
I_DECK: constant(uint256) = 2
I_DRAWING: constant(uint256) = 3
I_FIRST: constant(uint256) = 4
I_GAME_ID: constant(uint256) = 5
I_KEYS: constant(uint256) = 6
I_MAGIC: constant(uint256) = 7
I_NONCES: constant(uint256) = 8
I_OPENED: constant(uint256) = 9
I_OWNERS: constant(uint256) = 10
I_PHASE: constant(uint256) = 11
I_PLAYED: constant(uint256) = 12
I_PREV: constant(uint256) = 13
I_RULES: constant(uint256) = 14
I_SEQ: constant(uint256) = 15
I_SHARES: constant(uint256) = 16
I_TURN: constant(uint256) = 17

# The keys as fixstr, header byte first, in the map's order.
KEY_WORDS: constant(uint256[18]) = [46834163275885939, 53042146536850518241084077171, 706059002731, 12061891464945823335, 13658938901145842959420965348722, 12062717249415244132, 206024554415141349928101235, 181889204185443, 46846271006401907, 46847374662722916, 46847404877902451, 181902206137189, 46848456928093540, 706261181814, 181911014892915, 2742248817, 46851738282648947, 706328490606]
KEY_SIZES: constant(uint256[18]) = [7, 12, 5, 8, 13, 8, 11, 6, 7, 7, 7, 6, 7, 5, 6, 4, 7, 5]

# The phases (10.2, 10.8), as fixstr: keys, nonces, shuffle, deal, play, draw, reveal,
# done, commit, open, choose.
P_KEYS: constant(uint256) = 0
P_NONCES: constant(uint256) = 1
P_SHUFFLE: constant(uint256) = 2
P_DEAL: constant(uint256) = 3
P_PLAY: constant(uint256) = 4
P_DRAW: constant(uint256) = 5
P_REVEAL: constant(uint256) = 6
P_DONE: constant(uint256) = 7
P_UNKNOWN: constant(uint256) = 11
PHASE_WORDS: constant(uint256[11]) = [706176448883, 46846271006401907, 12066102680094141541, 706059002220, 706260787577, 706059854199, 46850626237587820, 706059660901, 46834176362375540, 706244273518, 46834146331292517]

# Bram's dealt owners (10.3), as written: dc 00 1b, thirteen 00, thirteen 01, ff.
BRAM_OWNERS: constant(uint256) = 1518387039725799084279687133487693058640936945993525699423047550519804415
BRAM_OWNERS_SIZE: constant(uint256) = 30
N: constant(uint256) = 27


struct Fields:
    n: uint256            # positions: the length of owners
    ncom: uint256
    nkeys: uint256
    nnonces: uint256
    deck: uint256         # the deck's length in bytes
    drawing: uint256      # ABSENT for nil
    first: uint256
    phase: uint256
    turn: uint256
    seq: uint256
    rules: uint256        # 0 for nil
    high_low: bool        # a tile written high-low
    opened: uint256       # positions 0-26, as step_tx.opened
    played: uint256
    shmask: uint256
    claims: uint256
    nopened: uint256
    nplayed: uint256
    nshares: uint256
    opened_at: uint256[N] # where each of the first 27 entries of opened starts
    shares_at: uint256[N] # and each row of shares
    played_at: uint256    # played's first entry (a byte each)


@internal
@view
def _tile(pos: uint256) -> (bool, uint256, uint256, uint256):
    """A tile's text at pos (10.3): two digits 0-6 around "-": ok, low, high, and where
    the value ends."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    if kind != msgpack.K_STR or n != 3:
        return False, 0, 0, q
    w: uint256 = step_lib.word(q) >> 232
    a: uint256 = w >> 16
    b: uint256 = w & 255
    if a < 48 or a > 54 or b < 48 or b > 54 or (w >> 8) & 255 != 45:
        return False, 0, 0, q + 3
    return True, a - 48, b - 48, q + 3


@internal
@view
def _opt_uint(pos: uint256, hi: uint256) -> (bool, uint256, uint256):
    """nil (ABSENT) or an integer in [0, hi]; and where it ends."""
    kind: uint8 = 0
    v: uint256 = 0
    q: uint256 = 0
    kind, v, q = msgpack.read_header(pos)
    if kind == msgpack.K_NIL:
        return True, step_tx.ABSENT, q
    return kind == msgpack.K_UINT and v <= hi, v, q


@internal
@view
def _byte_list(pos: uint256, size: uint256) -> (bool, uint256, uint256):
    """An array of at most 2 byte strings of `size` bytes: ok, count, end."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    if kind != msgpack.K_ARRAY or n > 2:
        return False, 0, q
    for i: uint256 in range(2):
        if i == n:
            break
        m: uint256 = 0
        kind, m, q = msgpack.read_header(q)
        if kind != msgpack.K_BIN or m != size:
            return False, 0, q
        q += m
    return True, n, q


@internal
@view
def _array(pos: uint256, most: uint256) -> (bool, uint256, uint256):
    """An array of at most `most` items: ok, count, first item."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    return kind == msgpack.K_ARRAY and n <= most, n, q


@internal
@view
def _bin(pos: uint256, size: uint256) -> (bool, uint256):
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    return kind == msgpack.K_BIN and n == size, q + n


@internal
@view
def _phase(pos: uint256) -> (uint256, uint256):
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    if kind != msgpack.K_STR or n > 7:
        return P_UNKNOWN, q
    w: uint256 = step_lib.word(pos) >> (8 * (31 - n))
    for i: uint256 in range(11):
        if w == PHASE_WORDS[i]:
            return i, q + n
    return P_UNKNOWN, q


@internal
@view
def _claims(pos: uint256, n: uint256) -> bool:
    """10.3's claims: each [seq, seat, positions (at most n, each below n), tiles (at
    most 28)]."""
    ok: bool = False
    count: uint256 = 0
    q: uint256 = 0
    ok, count, q = self._array(pos, 4096)
    if not ok:
        return False
    kind: uint8 = 0
    v: uint256 = 0
    m: uint256 = 0
    for i: uint256 in range(4096):
        if i == count:
            break
        kind, m, q = msgpack.read_header(q)
        if kind != msgpack.K_ARRAY or m != 4:
            return False
        kind, v, q = msgpack.read_header(q)
        if kind != msgpack.K_UINT:
            return False
        kind, v, q = msgpack.read_header(q)
        if kind != msgpack.K_UINT or v > 1:
            return False
        ok, m, q = self._array(q, n)
        if not ok:
            return False
        for j: uint256 in range(4096):
            if j == m:
                break
            kind, v, q = msgpack.read_header(q)
            if kind != msgpack.K_UINT or v >= n:
                return False
        ok, m, q = self._array(q, 28)
        if not ok:
            return False
        for j: uint256 in range(28):
            if j == m:
                break
            a: uint256 = 0
            b: uint256 = 0
            ok, a, b, q = self._tile(q)
            if not ok:
                return False
    return True


@internal
@view
def _fields(start: uint256) -> (bool, Fields, uint256[18], uint256[18]):
    """The 18 keys in order and every field by its accessor (10.3), in one pass; False is
    state/schema. Also where each value starts and ends."""
    f: Fields = empty(Fields)
    fld: uint256[18] = empty(uint256[18])
    fend: uint256[18] = empty(uint256[18])
    ok: bool = True
    kind: uint8 = 0
    v: uint256 = 0
    m: uint256 = 0
    q: uint256 = start
    for k: uint256 in range(18):
        size: uint256 = KEY_SIZES[k]
        if step_lib.word(q) >> (8 * (32 - size)) != KEY_WORDS[k]:
            return False, f, fld, fend
        q += size
        fld[k] = q
        if k == I_CLAIMS:
            # read once owners gives N (below)
            kind, f.claims, m = msgpack.read_header(q)
            ok = kind == msgpack.K_ARRAY
            if f.claims == 0:
                q = m
            else:
                q = msgpack.skip(q)
        elif k == I_COMMITMENTS:
            ok, f.ncom, q = self._byte_list(q, 32)
        elif k == I_DECK:
            kind, f.deck, q = msgpack.read_header(q)
            ok = kind == msgpack.K_BIN and f.deck <= 393216 and f.deck % 96 == 0
            q += f.deck
        elif k == I_DRAWING:
            ok, f.drawing, q = self._opt_uint(q, 4095)   # below N: checked below
        elif k == I_FIRST:
            ok, f.first, q = self._opt_uint(q, 1)
        elif k == I_GAME_ID or k == I_PREV:
            ok, q = self._bin(q, 32)
        elif k == I_KEYS:
            ok, f.nkeys, q = self._byte_list(q, 48)
        elif k == I_MAGIC:
            ok, q = msgpack.str_equals(q, b"dealerless/state")
        elif k == I_NONCES:
            ok, f.nnonces, q = self._byte_list(q, 32)
        elif k == I_OPENED:
            # nil (c0) or a tile's text (a3 and three bytes), read by the byte: the bytes
            # are canonical msgpack, so no other encoding of either can occur.
            ok, f.nopened, q = self._array(q, 4096)
            for i: uint256 in range(4096):
                if i == f.nopened or not ok:
                    break
                if i < N:
                    f.opened_at[i] = q
                w: uint256 = step_lib.word(q)
                if w >> 248 == 192:
                    q += 1
                    continue
                a: uint256 = (w >> 240) & 255
                b: uint256 = (w >> 224) & 255
                ok = w >> 248 == 163 and a >= 48 and a <= 54 and b >= 48 and b <= 54 \
                    and (w >> 232) & 255 == 45
                q += 4
                if ok:
                    f.high_low = f.high_low or a > b
                    if i < N:
                        a -= 48
                        b -= 48
                        f.opened |= (step_bram.tile_index(min(a, b), max(a, b)) + 1) << (5 * i)
        elif k == I_OWNERS:
            ok, f.n, q = self._array(q, 4096)
            if f.n == N and step_lib.word(fld[k]) >> 16 == BRAM_OWNERS:
                q = fld[k] + BRAM_OWNERS_SIZE   # Bram's own, every entry in range
            else:
                for i: uint256 in range(4096):
                    if i == f.n or not ok:
                        break
                    kind, v, q = msgpack.read_header(q)
                    ok = (kind == msgpack.K_UINT and v <= 1) or \
                        (kind == msgpack.K_NINT and v <= 2)
        elif k == I_PHASE:
            f.phase, q = self._phase(q)
            ok = f.phase != P_UNKNOWN
        elif k == I_PLAYED:
            # c2 or c3 each
            ok, f.nplayed, q = self._array(q, 4096)
            f.played_at = q
            for i: uint256 in range(4096):
                if i == f.nplayed or not ok:
                    break
                v = step_lib.word(q) >> 248
                ok = v == 194 or v == 195
                if ok and i < N:
                    f.played |= (v - 194) << i
                q += 1
        elif k == I_RULES:
            kind, v, m = msgpack.read_header(q)
            if kind == msgpack.K_NIL:
                q = m
            else:
                ok, f.rules, q = step_bram.parse(q)
        elif k == I_SEQ:
            kind, f.seq, q = msgpack.read_header(q)
            ok = kind == msgpack.K_UINT
        elif k == I_SHARES:
            # rows 92, then two slots: c0, or c4 30 and 48 bytes
            ok, f.nshares, q = self._array(q, 4096)
            for i: uint256 in range(4096):
                if i == f.nshares or not ok:
                    break
                if i < N:
                    f.shares_at[i] = q
                ok = step_lib.word(q) >> 248 == 146
                q += 1
                for j: uint256 in range(2):
                    if not ok:
                        break
                    w: uint256 = step_lib.word(q) >> 240
                    if w == 50224:
                        q += 50
                        if i < N:
                            f.shmask |= 1 << (2 * i + j)
                    else:
                        ok = w >> 8 == 192
                        q += 1
        else:
            ok, f.turn, q = self._opt_uint(q, 1)
        if not ok:
            return False, f, fld, fend
        fend[k] = q
    if f.drawing != step_tx.ABSENT and f.drawing >= f.n:
        return False, f, fld, fend
    if f.claims != 0 and not self._claims(fld[I_CLAIMS], f.n):
        return False, f, fld, fend
    return True, f, fld, fend


@internal
@view
def _nth(pos: uint256, i: uint256) -> uint256:
    """Where item i of the array at pos starts."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    for j: uint256 in range(4096):
        if j == i:
            break
        q = msgpack.skip(q)
    return q


@internal
@view
def _inconsistent(fld: uint256[18], f: Fields) -> bool:
    """10.3's reachability checks (state.clib's `unreachable`)."""
    if f.nshares != f.n or f.nopened != f.n or f.nplayed != f.n:
        return True
    if (f.turn == step_tx.ABSENT) != (f.phase == P_DONE):
        return True
    if f.phase != P_KEYS and (f.nkeys != 2 or f.ncom != 2):
        return True
    if f.nkeys != f.ncom:
        return True
    early: bool = f.phase == P_KEYS or f.phase == P_NONCES
    full: bool = f.nnonces == 2 and f.first != step_tx.ABSENT and f.deck == 96 * f.n
    if early == full:
        return True
    if early and (f.deck != 0 or f.first != step_tx.ABSENT):
        return True
    if (f.rules == 0) != (early or f.phase == P_SHUFFLE or f.phase == P_DEAL):
        return True
    if f.phase == P_KEYS and f.nkeys != f.turn:
        return True
    if f.phase == P_NONCES and f.nnonces != f.turn:
        return True
    if (f.drawing != step_tx.ABSENT) != (f.phase == P_DRAW):
        return True
    if f.drawing != step_tx.ABSENT:
        kind: uint8 = 0
        owner: uint256 = 0
        q: uint256 = 0
        kind, owner, q = msgpack.read_header(self._nth(fld[I_OWNERS], f.drawing))
        nil: uint256 = 0
        kind2: uint8 = 0
        kind2, nil, q = msgpack.read_header(self._nth(fld[I_OPENED], f.drawing))
        if kind == msgpack.K_NINT or kind2 != msgpack.K_NIL or owner == f.turn:
            return True
    if f.claims != 0:
        return True
    if f.rules != 0 and step_bram.is_over(f.rules) != (f.phase == P_REVEAL or f.phase == P_DONE):
        return True
    return False


@internal
def _run(committed: bytes32, flags: uint256) -> uint8:
    at: uint256 = step_tx.st
    kind: uint8 = 0
    count: uint256 = 0
    q: uint256 = 0
    kind, count, q = msgpack.read_header(at)
    if kind != msgpack.K_MAP or count != 18:
        return c.E_STATE_SCHEMA
    fld: uint256[18] = empty(uint256[18])
    fend: uint256[18] = empty(uint256[18])
    f: Fields = empty(Fields)
    ok: bool = False
    ok, f, fld, fend = self._fields(q)
    if not ok:
        return c.E_STATE_SCHEMA
    # A committed state's elements were each accepted when a frame brought them.
    committed_one: bool = flags & 1 == 1 and step_tx.shash == committed
    if not committed_one:
        step_tx.fld = fld
        step_tx.elements = [f.deck, f.nkeys, f.nshares]
        raw_call(step_tx.a_elements, msg.data, is_delegate_call=True)
        if step_tx.elements_bad:
            return c.E_STATE_SCHEMA
    if self._inconsistent(fld, f):
        return c.E_STATE_INCONSISTENT
    if f.high_low:
        return c.E_STATE_NON_CANONICAL
    # Rule 6: this game's state at frame N, with the dealt owners; the committed one.
    if step_lib.word(fld[I_GAME_ID] + 2) != convert(step_tx.gid, uint256) \
            or f.seq != step_tx.seq or fend[I_OWNERS] - fld[I_OWNERS] != BRAM_OWNERS_SIZE \
            or step_lib.word(fld[I_OWNERS]) >> 16 != BRAM_OWNERS:
        return c.E_DISPUTE_STATE
    if flags & 1 == 1 and not committed_one:
        return c.E_DISPUTE_STATE
    # Rules 7 and 8: the frame's bytes, the evidence records.
    n: uint256 = 0
    kind, n, q = msgpack.read_header(step_tx.frame_item)
    if kind != msgpack.K_BIN or n > 65536:
        return c.E_SCHEMA_BYTES
    step_tx.wire = q
    step_tx.wiren = n
    kind, count, q = msgpack.read_header(step_tx.evid_item)
    if kind != msgpack.K_ARRAY or count > 16:
        return c.E_SCHEMA_ARRAY
    for i: uint256 in range(16):
        if i == count:
            break
        kind, n, q = msgpack.read_header(q)
        if kind != msgpack.K_BIN or n > 65536:
            return c.E_SCHEMA_BYTES
        q += n
    step_tx.fld = fld
    step_tx.fend = fend
    step_tx.phase = f.phase
    step_tx.turn = f.turn
    step_tx.first = f.first
    step_tx.drawing = f.drawing
    step_tx.nkeys = f.nkeys
    step_tx.nnonces = f.nnonces
    step_tx.rules = f.rules
    step_tx.opened = f.opened
    step_tx.played = f.played
    step_tx.shmask = f.shmask
    step_tx.opened_at = f.opened_at
    step_tx.shares_at = f.shares_at
    step_tx.played_at = f.played_at
    return 0


@external
def judge(committed: bytes32, flags: uint256, table: uint256):
    code: uint8 = self._run(committed, flags)
    if code != 0:
        step_tx.unusable(code)
