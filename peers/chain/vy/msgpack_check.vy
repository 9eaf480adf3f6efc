#pragma version ~=0.4.3
"""
@title msgpack.vy exposed for tests and measurement (peers/chain/evm_msgpack.py)
@notice The bytes to read are not ABI arguments (Vyper would copy them into memory):
        they follow the ABI-encoded arguments in calldata, up to its end, as a step
        contract would take a dispute package.
"""

import msgpack

initializes: msgpack

MAX_RECORDS: constant(uint256) = 512
MAX_TOKENS: constant(uint256) = 8192
MAX_HEADS: constant(uint256) = 256


@external
def unpack_code(max_size: uint256) -> uint8:
    """8.1's unpack of the bytes after the one argument."""
    return msgpack.unpack_code(36, len(msg.data), max_size)


@internal
@view
def _u32(pos: uint256) -> uint256:
    return msgpack.word_at(pos) >> 224


@external
def unpack_codes(count: uint256) -> DynArray[uint256, MAX_RECORDS]:
    """`count` records after the argument, each u32 length || u32 max_size || bytes: for
    each, its code | the gas unpack_code took << 8."""
    out: DynArray[uint256, MAX_RECORDS] = []
    pos: uint256 = 36
    for i: uint256 in range(count, bound=MAX_RECORDS):
        n: uint256 = self._u32(pos)
        max_size: uint256 = self._u32(pos + 4)
        start: uint256 = pos + 8
        gas: uint256 = msg.gas
        code: uint8 = msgpack.unpack_code(start, start + n, max_size)
        out.append(convert(code, uint256) | (gas - msg.gas) << 8)
        pos = start + n
    return out


@external
@view
def walk(count: uint256) -> DynArray[uint256, MAX_TOKENS]:
    """`count` records after the argument, each u32 length || an accepted value: for each,
    a token per header in order, kind | value << 8 | (next - start) << 96 (read_header),
    then (skip(start) - start) << 8, kind 0."""
    out: DynArray[uint256, MAX_TOKENS] = []
    pos: uint256 = 36
    kind: uint8 = 0
    value: uint256 = 0
    nxt: uint256 = 0
    for i: uint256 in range(count, bound=MAX_RECORDS):
        n: uint256 = self._u32(pos)
        start: uint256 = pos + 4
        end: uint256 = start + n
        p: uint256 = start
        for _: uint256 in range(MAX_TOKENS):
            if p >= end:
                break
            kind, value, nxt = msgpack.read_header(p)
            out.append(convert(kind, uint256) | value << 8 | (nxt - start) << 96)
            p = nxt
            if kind == msgpack.K_STR or kind == msgpack.K_BIN:
                p += value
        out.append((msgpack.skip(start) - start) << 8)
        pos = end
    return out


@external
@view
def find(start: uint256, key: Bytes[64]) -> (bool, uint256, bool, uint256):
    """In the value at `start` (after the arguments): str_equals(start, key), and
    map_find(start, key)."""
    same: bool = False
    after: uint256 = 0
    found: bool = False
    at: uint256 = 0
    same, after = msgpack.str_equals(start, key)
    found, at = msgpack.map_find(start, key)
    return same, after, found, at


@external
@pure
def encode(items: DynArray[uint256[2], MAX_HEADS]) -> DynArray[Bytes[9], MAX_HEADS]:
    """Each (what, v): 0 encode_uint(v), 1 encode_int(v as int256, two's complement),
    2 encode_bin_head, 3 encode_str_head, 4 encode_array_head, 5 encode_map_head."""
    out: DynArray[Bytes[9], MAX_HEADS] = []
    for item: uint256[2] in items:
        what: uint256 = item[0]
        v: uint256 = item[1]
        if what == 0:
            out.append(msgpack.encode_uint(v))
        elif what == 1:
            out.append(msgpack.encode_int(convert(convert(v, bytes32), int256)))
        elif what == 2:
            out.append(msgpack.encode_bin_head(v))
        elif what == 3:
            out.append(msgpack.encode_str_head(v))
        elif what == 4:
            out.append(msgpack.encode_array_head(v))
        else:
            out.append(msgpack.encode_map_head(v))
    return out
