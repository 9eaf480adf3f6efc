#pragma version ~=0.4.3
"""
@title The single-step check, stage 1: the package and its setup (11.4 rules 1 to 4)
@notice The package (spec/11-verify.md 11.3) as an array of 7, its magic and version, the
        setup decoded by spec/08-wire.md 8.2 in the order of its table, N, and the
        state's bytes (the start of rule 5: its bytes, whose hash it computes, and
        unpack). A usable setup of
        another suite or rule set ends the check without a verdict (8.2 "Which rule sets
        a verifier knows"), as step.clsp's (2). Then step_state.vy goes on.
"""

import bls12381g1 as g1
import msgpack
import step_codes as c
import step_lib
import step_tx

initializes: step_tx
initializes: msgpack
initializes: step_lib[step_tx := step_tx]

MAX_PACKAGE: constant(uint256) = 1249280
OTHER: constant(uint8) = 255   # a usable setup this referee does not judge
G1MSM: constant(address) = 0x000000000000000000000000000000000000000C


@internal
@view
def _items(pos: uint256, n: uint256) -> uint256[7]:
    """Where each of the first n (<= 7) items of the array whose first item is at pos
    starts."""
    out: uint256[7] = empty(uint256[7])
    q: uint256 = pos
    for i: uint256 in range(7):
        if i == n:
            break
        out[i] = q
        q = msgpack.skip(q)
    return out


@internal
@view
def _bin(pos: uint256, most: uint256) -> (bool, uint256, uint256):
    """A byte string of at most `most` bytes at pos: ok, where its bytes start, its length."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    return kind == msgpack.K_BIN and n <= most, q, n


@internal
@view
def _text_max(pos: uint256, most: uint256) -> bool:
    """text(most): a str of at most `most` code points (its bytes that are not 10xxxxxx)."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    if kind != msgpack.K_STR:
        return False
    if n <= most:
        return True
    if n > 4 * most:
        return False
    count: uint256 = 0
    for i: uint256 in range(256):
        if i == n:
            break
        if (step_lib.word(q + i) >> 248) & 192 != 128:
            count += 1
    return count <= most


@internal
@view
def _uint(pos: uint256) -> (bool, uint256):
    """int(0, 2^64 - 1): a non-negative integer (no boolean)."""
    kind: uint8 = 0
    v: uint256 = 0
    q: uint256 = 0
    kind, v, q = msgpack.read_header(pos)
    return kind == msgpack.K_UINT, v


@internal
@view
def _byte_list(pos: uint256, size: uint256) -> (uint8, uint256, uint256):
    """list(8) of bytes(size): 0 or its code, its count and its first item."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    if kind != msgpack.K_ARRAY or n > 8:
        return c.E_SCHEMA_ARRAY, 0, 0
    first: uint256 = q
    for i: uint256 in range(8):
        if i == n:
            break
        m: uint256 = 0
        kind, m, q = msgpack.read_header(q)
        if kind != msgpack.K_BIN or m != size:
            return c.E_SCHEMA_BYTES, 0, 0
        q += m
    return 0, n, first


@internal
@view
def _msm2(terms: DynArray[uint256, 10]) -> (bool, uint256):
    ok: bool = False
    out: Bytes[128] = b""
    ok, out = raw_call(G1MSM, slice(abi_encode(terms), 64, 320), max_outsize=128,
                       gas=g1.G1MSM_2_GAS, is_static_call=True, revert_on_failure=False)
    return ok, 0


@internal
def _setup(at: uint256, n: uint256) -> uint8:
    """8.2's checks of the setup bytes calldata[at, at + n), in its table's order: 0 for a
    Bram game of bls12381g1-sha256 (its game id and keys then in step_tx), OTHER for a
    usable setup of another suite or rule set, else the code."""
    code: uint8 = msgpack.unpack_code(at, at + n, 4096)
    if code != 0:
        return code
    kind: uint8 = 0
    count: uint256 = 0
    q: uint256 = 0
    kind, count, q = msgpack.read_header(at)
    if kind != msgpack.K_ARRAY or (count != 6 and count != 7):
        return c.E_SCHEMA_ARRAY
    item: uint256[7] = self._items(q, count)
    ok: bool = False
    end: uint256 = 0
    ok, end = msgpack.str_equals(item[0], b"dealerless/setup")
    if not ok:
        return c.E_SETUP_VERSION
    version: uint256 = 0
    ok, version = self._uint(item[1])
    if not ok:
        return c.E_SCHEMA_INT
    if version != 2 and version != 3:
        return c.E_VERSION_UNSUPPORTED
    if count != 4 + version:
        return c.E_SCHEMA_ARRAY
    if version == 2:
        return OTHER   # dealerless/2 plays edwards25519-sha512
    if not self._text_max(item[6], 64):
        return c.E_SCHEMA_STR
    ok, end = msgpack.str_equals(item[6], b"bls12381g1-sha256")
    if not ok:
        for other: String[19] in ["edwards25519-sha512", "ristretto255-sha512"]:
            ok, end = msgpack.str_equals(item[6], convert(other, Bytes[19]))
            if ok:
                return OTHER
        return c.E_SETUP_SUITE
    if not self._text_max(item[2], 64):
        return c.E_SCHEMA_STR
    # params: a map of integers, text and booleans.
    entries: uint256 = 0
    kind, entries, q = msgpack.read_header(item[3])
    if kind != msgpack.K_MAP:
        return c.E_SETUP_PARAMS
    first_key: uint256 = q
    for i: uint256 in range(msgpack.MAX_CONTAINER):
        if i == entries:
            break
        v: uint256 = 0
        nxt: uint256 = 0
        kind, v, nxt = msgpack.read_header(msgpack.skip(q))
        if kind != msgpack.K_BOOL and kind != msgpack.K_UINT and kind != msgpack.K_NINT \
                and kind != msgpack.K_STR:
            return c.E_SETUP_PARAMS
        q = msgpack.skip(msgpack.skip(q))
    ids: uint256 = 0
    ids_at: uint256 = 0
    nonces: uint256 = 0
    nonces_at: uint256 = 0
    code, ids, ids_at = self._byte_list(item[4], 48)
    if code != 0:
        return code
    code, nonces, nonces_at = self._byte_list(item[5], 32)
    if code != 0:
        return code
    if ids < 2:
        return c.E_SCHEMA_INT
    ok, end = msgpack.str_equals(item[2], b"bram")
    if not ok:
        for other: String[13] in ["mexican-train", "mineshaft", "mined-games"]:
            ok, end = msgpack.str_equals(item[2], convert(other, Bytes[13]))
            if ok:
                return OTHER
        return c.E_RULES_UNKNOWN_RULESET
    # Bram's one parameter: komi_halves, an integer in [-336, 336].
    if entries != 0:
        ok, end = msgpack.str_equals(first_key, b"komi_halves")
        v: uint256 = 0
        kind, v, q = msgpack.read_header(end)
        if entries != 1 or not ok or not (kind == msgpack.K_UINT or kind == msgpack.K_NINT) \
                or v > 336:
            return c.E_RULES_PARAMS
    else:
        return c.E_SETUP_PARAMS
    id0: uint256 = ids_at + 2   # bin8 headers: c4 30
    id1: uint256 = id0 + 50
    if ids != 2 or nonces != 2 or keccak256(slice(msg.data, id0, 48)) == \
            keccak256(slice(msg.data, id1, 48)):
        return c.E_SETUP_SEATS
    # Rules 0-2 of each key, then 3 and 4 of both by one G1MSM (each by itself only if
    # that refuses them).
    words: uint256[8] = empty(uint256[8])
    terms: DynArray[uint256, 10] = []
    for k: uint256 in range(2):
        xy: Bytes[128] = b""
        code, xy = step_lib.element(id0 + 50 * k, 48)
        if code != 0:
            return c.E_SETUP_IDENTITY
        for w: uint256 in range(4):
            words[4 * k + w] = convert(extract32(xy, 32 * w), uint256)
            terms.append(words[4 * k + w])
        terms.append(1)
    ok, end = self._msm2(terms)
    if not ok:
        for k: uint256 in range(2):
            xy: Bytes[128] = b""
            code, xy = step_lib.full(id0 + 50 * k, 48)
            if code != 0:
                return c.E_SETUP_IDENTITY
        raise "G1MSM refused keys that pass one by one"
    step_tx.ids = words
    step_tx.idpos = [id0, id1]
    step_tx.gid = step_lib.h1(b"dealerless/game-id", at, n)
    return 0


@internal
def _run() -> uint8:
    """Rules 1 to 4 and the state's bytes: 0 to go on, else the answer is set."""
    end: uint256 = convert(slice(msg.data, 68, 32), uint256)
    assert step_lib.HEAD <= end and end <= len(msg.data), "the hint table is misplaced"
    code: uint8 = msgpack.unpack_code(step_lib.HEAD, end, MAX_PACKAGE)
    if code != 0:
        return code
    kind: uint8 = 0
    count: uint256 = 0
    q: uint256 = 0
    kind, count, q = msgpack.read_header(step_lib.HEAD)
    if kind != msgpack.K_ARRAY or count != 7:
        return c.E_SCHEMA_ARRAY
    item: uint256[7] = self._items(q, 7)
    ok: bool = False
    at: uint256 = 0
    ok, at = msgpack.str_equals(item[0], b"dealerless/dispute")
    if not ok:
        return c.E_DISPUTE_MAGIC
    version: uint256 = 0
    ok, version = self._uint(item[1])
    if not ok:
        return c.E_SCHEMA_INT
    if version != 2 and version != 3:
        return c.E_VERSION_UNSUPPORTED
    n: uint256 = 0
    ok, at, n = self._bin(item[2], 4096)
    if not ok:
        return c.E_SCHEMA_BYTES
    code = self._setup(at, n)
    if code != 0:
        return code
    if version != 3:
        return c.E_VERSION_UNSUPPORTED
    seq: uint256 = 0
    ok, seq = self._uint(item[3])
    if not ok:
        return c.E_SCHEMA_INT
    ok, at, n = self._bin(item[4], 131072)
    if not ok:
        return c.E_SCHEMA_BYTES
    step_tx.seq = seq
    step_tx.st = at
    step_tx.stn = n
    step_tx.shash = step_lib.h1(b"dealerless/state", at, n)
    # Rule 5 begins here: unpack the state (step_state.vy reads what it holds).
    code = msgpack.unpack_code(at, at + n, 131072)
    if code != 0:
        return code
    step_tx.frame_item = item[5]
    step_tx.evid_item = item[6]
    return 0


@external
def judge(committed: bytes32, flags: uint256, table: uint256):
    code: uint8 = self._run()
    if code == OTHER:
        step_tx.finish(step_tx.K_UNSUPPORTED, 0, step_tx.ABSENT, max_value(uint256), False)
    elif code != 0:
        step_tx.unusable(code)
