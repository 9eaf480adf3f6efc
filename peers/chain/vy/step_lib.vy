#pragma version ~=0.4.3
"""
@title The stages' common reads: decoding hints, elements and hashes over calldata
@notice The transaction's calldata (step.vy) is judge's three words (the committed state
        hash, flags, and `table`, where the hint table starts), the package from byte
        100 to `table`, then the hint table.
@dev The hint table. EIP-2537 takes uncompressed points and the EVM has no square root,
     so each compressed element a stage decodes needs its decoding hint w (hints.py,
     bls12381g1.vy `decode`). The table is every 48-byte candidate of the package that
     passes rules 0-2 of spec/02-group.md 2.5, each once, as 80-byte entries
     keccak256(element) || w (48 bytes), sorted by the key: the contract finds an
     element's hint by a search that starts where the key's value puts it (keys are
     digests, spread evenly) and halves the range. Why keyed by content
     and not in the order the contract reads: the order is the contract's business (it
     depends on which check fails first, on the phase, on how far a body parses), and
     the driver need not replay it; it only collects what might be an element (every
     byte string and each 48-byte-aligned piece of one, nested encodings included). A
     full 32-byte key, because the package is the sender's: elements it could make to
     share a shorter key would make an honest table ambiguous. A missing or wrong hint
     can never change a verdict: every element is checked against its hint (MODEXP in
     `on_curve`, or a G1MSM or G1ADD that refuses the point, after which `on_curve`
     finds which), and a hint that is no square root of x^3 + 4 or of its negation
     reverts; a missing one reads as 0, which is neither.
"""

import bls12381g1 as g1
import msgpack
import step_tx

uses: step_tx

HEAD: constant(uint256) = 100      # the package's first byte
ENTRY: constant(uint256) = 80      # a hint entry: the key, then w in 48 bytes
# What a stage hashes in its own memory: every hash of an honest Bram step fits (the
# largest is a SHUFFLE frame, 6.4 kB, and the state, 6.1 kB); longer inputs go to
# step_hash.vy. Calldata is copied CHUNK bytes at a time (Vyper copies only constant
# lengths of msg.data, and a copy by the word costs some 300 gas a word).
BUF: constant(uint256) = 288
CHUNK: constant(uint256) = 1024
MAX_PRE: constant(uint256) = 352
MAX_POST: constant(uint256) = 64

G1ADD: constant(address) = 0x000000000000000000000000000000000000000b


@internal
@view
def word(pos: uint256) -> uint256:
    """32 bytes of calldata at pos, zero past its end."""
    if pos + 32 <= len(msg.data):
        return convert(slice(msg.data, pos, 32), uint256)
    return msgpack.word_at(pos)


@internal
@view
def hint(pos: uint256) -> uint256[2]:
    """The hint of the 48-byte element at pos, (0, 0) if the table has none. The keys are
    digests, spread evenly: the search starts where the key's value puts it and halves
    the range from there."""
    key: uint256 = convert(keccak256(slice(msg.data, pos, 48)), uint256)
    t: uint256 = convert(slice(msg.data, 68, 32), uint256)
    lo: uint256 = 0
    hi: uint256 = unsafe_div(len(msg.data) - t, ENTRY)
    mid: uint256 = unsafe_mul(key >> 128, hi) >> 128
    for _: uint256 in range(64):
        if lo >= hi:
            break
        at: uint256 = unsafe_add(t, unsafe_mul(ENTRY, mid))
        k: uint256 = convert(slice(msg.data, at, 32), uint256)
        if k == key:
            return [convert(slice(msg.data, unsafe_add(at, 32), 32), uint256) >> 128,
                    convert(slice(msg.data, unsafe_add(at, 48), 32), uint256)]
        if k < key:
            lo = unsafe_add(mid, 1)
        else:
            hi = mid
        mid = unsafe_add(lo, unsafe_sub(hi, lo) >> 1)
    return [0, 0]


@internal
@view
def element(pos: uint256, n: uint256) -> (uint8, Bytes[128]):
    """Rules 0-2 of 2.5 on the n bytes at pos, and with 0 the point (rules 3 and 4 are the
    caller's: on_curve, a G1MSM, or `full`)."""
    if n != 48:
        return g1.E_POINT_LENGTH, b""
    return g1.decode_unchecked(slice(msg.data, pos, 48), self.hint(pos))


@internal
@view
def full(pos: uint256, n: uint256) -> (uint8, Bytes[128]):
    """Every rule of 2.5 on the n bytes at pos (rule 4 by a one-term G1MSM)."""
    code: uint8 = 0
    xy: Bytes[128] = b""
    code, xy = self.element(pos, n)
    if code != 0:
        return code, b""
    if not g1.on_curve(xy):
        return g1.E_POINT_NOT_ON_CURVE, b""
    if not g1.subgroup_ok(xy):
        return g1.E_POINT_TORSION, b""
    return 0, xy


@internal
@view
def own(pos: uint256) -> Bytes[128]:
    """An element the verifier holds already (a key share, a deck's point, a share of a
    decoded state): it reverts unless it passes rules 0-3 with its hint."""
    code: uint8 = 0
    xy: Bytes[128] = b""
    code, xy = self.element(pos, 48)
    assert code == 0 and g1.on_curve(xy), "an own element does not decode"
    return xy


@internal
@view
def add(p: Bytes[128], q: Bytes[128]) -> Bytes[128]:
    """p + q by G1ADD: both on the curve (it refuses a point off it)."""
    return raw_call(G1ADD, concat(p, q), max_outsize=128, is_static_call=True)


@internal
@pure
def neg(p: Bytes[128]) -> Bytes[128]:
    """-p (the identity's y is 0, and stays 0)."""
    y_hi: uint256 = convert(extract32(p, 64), uint256)
    y_lo: uint256 = convert(extract32(p, 96), uint256)
    if y_hi | y_lo != 0:
        y_hi, y_lo = g1.sub_from_p(y_hi, y_lo)
    return concat(slice(p, 0, 64), convert(y_hi, bytes32), convert(y_lo, bytes32))


@internal
@pure
def y_hint(p: Bytes[128]) -> uint256[2]:
    """A point's own y, a valid hint for its encoding."""
    return [convert(extract32(p, 64), uint256), convert(extract32(p, 96), uint256)]


@internal
@view
def chunk(at: uint256, n: uint256, k: uint256) -> Bytes[CHUNK]:
    """Bytes [CHUNK * k, CHUNK * (k + 1)) of calldata[at, at + n), as few as there are:
    Vyper copies calldata to memory only by a constant length, so a chunk is read whole
    and cut, from its start or, near the end of calldata, from its end."""
    off: uint256 = CHUNK * k
    if off >= n:
        return b""
    m: uint256 = min(CHUNK, n - off)
    if at + off + CHUNK <= len(msg.data):
        return slice(slice(msg.data, at + off, CHUNK), 0, m)
    e: uint256 = at + off + m
    if e >= CHUNK:
        return slice(slice(msg.data, e - CHUNK, CHUNK), CHUNK - m, m)
    words: DynArray[uint256, CHUNK // 32] = []
    for i: uint256 in range(CHUNK // 32):
        if 32 * i >= m:
            break
        words.append(self.word(at + off + 32 * i))
    # As ABI-encoded bytes of length m, which abi_decode reads back at this type.
    return abi_decode(concat(convert(32, bytes32), convert(m, bytes32),
                             slice(abi_encode(words), 64, 32 * len(words))), Bytes[CHUNK])


@internal
@view
def cd(at: uint256, n: uint256) -> Bytes[32 * BUF]:
    """calldata[at, at + n) in memory, n <= 32 * BUF."""
    assert n <= 32 * BUF, "too long for the buffer"
    if n <= CHUNK:
        return self.chunk(at, n, 0)
    return concat(self.chunk(at, n, 0), self.chunk(at, n, 1), self.chunk(at, n, 2),
                  self.chunk(at, n, 3), self.chunk(at, n, 4), self.chunk(at, n, 5),
                  self.chunk(at, n, 6), self.chunk(at, n, 7), self.chunk(at, n, 8))


@internal
def sha(pre: Bytes[MAX_PRE], at: uint256, n: uint256, post: Bytes[MAX_POST]) -> bytes32:
    """SHA-256 of pre || calldata[at, at + n) || post, in this contract's memory when it
    fits the buffer, else by step_hash.vy (a DELEGATECALL with this calldata)."""
    if n > 32 * BUF:
        step_tx.h_pre = pre
        step_tx.h_at = at
        step_tx.h_len = n
        step_tx.h_post = post
        raw_call(step_tx.a_hash, msg.data, is_delegate_call=True)
        return step_tx.h_out
    return sha256(concat(pre, self.cd(at, n), post))


@internal
def h1(tag: Bytes[32], at: uint256, n: uint256) -> bytes32:
    """H(tag, calldata[at, at + n)) of the suite (3.5)."""
    return self.sha(concat(g1.head(tag), g1.lp(n)), at, n, b"")


@internal
@pure
def tile_xy(table: Bytes[2688], t: uint256) -> Bytes[128]:
    """The message point of tile index t (step_consts.TILES) as EIP-2537's 128 bytes."""
    return concat(slice(g1.ZERO32, 0, 16), slice(table, 96 * t, 48), slice(g1.ZERO32, 0, 16),
                  slice(table, 96 * t + 48, 48))
