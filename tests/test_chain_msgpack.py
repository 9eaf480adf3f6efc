"""Canonical msgpack inside Chia's CLVM (spec/08-wire.md 8.1): clsp/msgpack.clib's strict
decoder and canonical encoder, the foundation of the on-chain single-step referee
(spec/11-verify.md 11.3, 11.4), agree with the reference, protocol/canonical.py.

Every vector of spec/vectors/msgpack.json gets its code (and for "ok" msgpack-python's
value); every dispute package of the bls12381g1-sha256 suite, and the setup, state and
frame inside it, decodes to msgpack-python's value and packs back to its bytes (the whole
corpus: a second or two); mutated encodings, of a real state and drawn by hypothesis (a
header made longer, keys swapped or repeated, a value cut short, a trailing byte, a
float, an ext, a deep nest, a byte changed), get protocol.canonical.unpack's code; and
each place where msgpack-python's own parser decides what is malformed is pinned by a
case checked against it. The typed reads of 8.1's accessors are run on tagged values.
Costs are measured and must fit a Chia block; `-s` prints them.

Needs the `[chain]` extra (chia_rs, clvm_tools_rs); skipped without it.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import msgpack
import pytest
from conftest import VECTORS, load_vectors, skip_without_chain

skip_without_chain()

import chia_rs  # noqa: E402
import clvm_tools_rs  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from peers.chain import clvm_msgpack  # noqa: E402
from peers.chain.clvm import BLOCK_COST_LIMIT, ClvmCost, compile_program, serialize  # noqa: E402
from peers.chain.codes import CLSP_DIR, code_of  # noqa: E402
from protocol.canonical import pack as reference_pack  # noqa: E402
from protocol.canonical import unpack as reference_unpack  # noqa: E402
from protocol.errors import DealerlessError  # noqa: E402

DISPUTES = VECTORS / "suites" / "bls12381g1-sha256" / "disputes"
BIG = 1 << 21


def reference(data: bytes, max_size: int) -> tuple[str, Any]:
    try:
        return "ok", reference_unpack(data, max_size)
    except DealerlessError as exc:
        return exc.code, None


def agrees(data: bytes, max_size: int | None = None) -> str:
    """The CLVM decoder's code for `data`, asserted equal to the reference's (and its
    value, and for a value the re-encoding)."""
    limit = len(data) if max_size is None else max_size
    code, value = reference(data, limit)
    got, got_value, _ = clvm_msgpack.unpack(data, limit)
    assert (got, got_value) == (code, value), data.hex()
    if code == "ok":
        assert clvm_msgpack.pack(value)[0] == data
    return code


# -- spec/vectors/msgpack.json -------------------------------------------------------------

VECTOR_CASES = load_vectors("msgpack")["vectors"]


@pytest.mark.parametrize("vec", VECTOR_CASES, ids=[v["name"] for v in VECTOR_CASES])
def test_vectors(vec: dict[str, Any]) -> None:
    data = bytes.fromhex(vec["data"])
    code, value, cost = clvm_msgpack.unpack(data, vec["max_size"])
    assert code == vec["expected"]
    if code == "ok":
        assert value == msgpack.unpackb(data, raw=False)
        assert clvm_msgpack.pack(value)[0] == data
    assert cost.total < BLOCK_COST_LIMIT


def test_not_bytes() -> None:
    """Rule 1: DATA is a pair, not an atom."""
    program = compile_program(clvm_msgpack.UNPACK)
    _, node = chia_rs.run_chia_program(program, serialize([[b"\xc0"], 16]),
                                       BLOCK_COST_LIMIT, chia_rs.MEMPOOL_MODE)
    assert code_of(int.from_bytes(node.pair[0].atom, "big")) == "msgpack/type"


# -- the dispute packages: every value of a real game ------------------------------------

def records(path: Path) -> list[bytes]:
    data, out, i = path.read_bytes(), [], 0
    while i < len(data):
        n = int.from_bytes(data[i:i + 4], "big")
        out.append(data[i + 4:i + 4 + n])
        i += 4 + n
    return out


@cache
def corpus() -> list[bytes]:
    """Each package, and the setup, state and frame items of each that has them: distinct
    byte strings, shortest first."""
    items: set[bytes] = set()
    for path in sorted(DISPUTES.glob("*.packages")):
        for package in records(path):
            items.add(package)
            try:
                obj = msgpack.unpackb(package, raw=False)
            except ValueError:
                continue
            if isinstance(obj, list) and len(obj) == 7:
                items.update(x for x in (obj[2], obj[4], obj[5]) if isinstance(x, bytes))
    return sorted(items, key=lambda x: (len(x), x))


def test_corpus() -> None:
    """The whole corpus (some 400 strings; a few crafted packages are not canonical) gets
    the reference's codes; each value msgpack-python's, and packs back to its bytes."""
    items = corpus()
    assert len(items) > 300
    codes = [agrees(item, BIG) for item in items]
    assert codes.count("ok") > 300


def cost_of(data: bytes) -> tuple[ClvmCost, ClvmCost]:
    code, value, unpack_cost = clvm_msgpack.unpack(data, BIG)
    assert code == "ok"
    out, pack_cost = clvm_msgpack.pack(value)
    assert out == data
    return unpack_cost, pack_cost


def states() -> list[bytes]:
    out = []
    for path in sorted(DISPUTES.glob("*.packages")):
        for package in records(path):
            try:
                obj = msgpack.unpackb(package, raw=False)
            except ValueError:
                continue
            if isinstance(obj, list) and len(obj) == 7 and isinstance(obj[4], bytes):
                out.append(obj[4])
    return out


def test_costs() -> None:
    """A Bram state of the valid game (its median size) and the largest state of the
    suite's disputes, each unpacked and packed again: each fits a Chia block."""
    valid = sorted(msgpack.unpackb(p, raw=False)[4] for p in records(DISPUTES / "valid.packages"))
    typical = sorted(valid, key=len)[len(valid) // 2]
    largest = max(states(), key=len)
    lines = []
    for name, data in (("typical Bram state", typical), ("largest dispute state", largest)):
        unpack_cost, pack_cost = cost_of(data)
        values = count_values(msgpack.unpackb(data, raw=False))
        for what, cost in (("unpack", unpack_cost), ("pack", pack_cost)):
            assert cost.total < BLOCK_COST_LIMIT
            lines.append(f"{name} ({len(data)} bytes, {values} values) {what}: run "
                         f"{cost.run:,}, program {cost.program_bytes} bytes, total "
                         f"{cost.total:,} ({cost.block_share:.2%} of a block)")
    print("\n" + "\n".join(lines))


def count_values(obj: Any) -> int:
    if isinstance(obj, list):
        return 1 + sum(count_values(x) for x in obj)
    if isinstance(obj, dict):
        return 1 + sum(1 + count_values(x) for x in obj.values())
    return 1


def entries(pairs: list[tuple[Any, Any]]) -> bytes:
    """A map of these entries, in this order, each key and value msgpack-python's."""
    n = len(pairs)
    head = b"\xde" + n.to_bytes(2, "big") if n > 15 else bytes([0x80 | n])
    return head + b"".join(msgpack.packb(k, use_bin_type=True) + msgpack.packb(v, use_bin_type=True)
                           for k, v in pairs)


Mutation = Callable[[bytes, list[tuple[Any, Any]]], bytes]

#: Changes to a state (a map of 18 keys, the first "claims", "commitments", "deck",
#: "drawing") and the code each must get.
STATE_MUTATIONS: dict[str, tuple[str, Mutation]] = {
    "unchanged": ("ok", lambda data, kv: entries(kv)),
    "map16 as map32": ("msgpack/non-canonical", lambda data, kv: b"\xdf\x00\x00" + data[1:]),
    "two keys swapped": ("msgpack/non-canonical",
                         lambda data, kv: entries([kv[1], kv[0], *kv[2:]])),
    "a key repeated": ("msgpack/non-canonical", lambda data, kv: entries([*kv, kv[3]])),
    "a key repeated, the dropped value a float": (
        "msgpack/non-canonical", lambda data, kv: entries([(kv[3][0], 1.5), *kv])),
    "a key repeated, the kept value a float": (
        "msgpack/type", lambda data, kv: entries([*kv, (kv[3][0], 1.5)])),
    "cut short": ("msgpack/malformed", lambda data, kv: data[:-1]),
    "cut in half": ("msgpack/malformed", lambda data, kv: data[:len(data) // 2]),
    "a trailing byte": ("msgpack/trailing-bytes", lambda data, kv: data + b"\xc0"),
    "a float": ("msgpack/type", lambda data, kv: entries([*kv[:5], (kv[5][0], 0.5), *kv[6:]])),
    "an empty ext": ("msgpack/ext", lambda data, kv: entries(
        [*kv[:5], (kv[5][0], msgpack.ExtType(5, b"")), *kv[6:]])),
    "an ext with a payload": ("msgpack/malformed", lambda data, kv: entries(
        [*kv[:5], (kv[5][0], msgpack.ExtType(5, b"x")), *kv[6:]])),
    "a bin key": ("msgpack/map-key", lambda data, kv: entries([*kv, (b"zz", None)])),
    "an int key": ("msgpack/malformed", lambda data, kv: entries([*kv, (7, None)])),
    "17 containers deep": ("msgpack/too-deep", lambda data, kv: entries(
        [*kv[:5], (kv[5][0], nest([], 16)), *kv[6:]])),
    "a float, then a deeper value with a lower key": (
        "msgpack/too-deep", lambda data, kv: entries(
            [*kv[:2], (kv[3][0], 0.5), (kv[2][0], nest(None, 17)), *kv[4:]])),
    "text that is not UTF-8": ("msgpack/malformed", lambda data, kv: data.replace(
        b"dealerless/state", b"dealerless/stat\xff")),
}


@pytest.mark.parametrize("mutation", sorted(STATE_MUTATIONS))
def test_state_mutations(mutation: str) -> None:
    """A Bram state of the valid game, changed: the reference's code, the one expected."""
    data = msgpack.unpackb(records(DISPUTES / "valid.packages")[20], raw=False)[4]
    pairs = list(msgpack.unpackb(data, raw=False).items())
    assert entries(pairs) == data
    expected, change = STATE_MUTATIONS[mutation]
    assert agrees(change(data, pairs), BIG) == expected


# -- where msgpack-python decides: each case against the reference ----------------------

PARSER_CASES = {
    # rule 3, text: Python's strict UTF-8 (no surrogate, overlong form, > U+10FFFF, cut)
    "a3eda080": "msgpack/malformed",          # a surrogate, U+D800
    "a2c0af": "msgpack/malformed",            # an overlong '/'
    "a3e09fbf": "msgpack/malformed",          # an overlong 3-byte form
    "a4f08fbfbf": "msgpack/malformed",        # an overlong 4-byte form
    "a4f4908080": "msgpack/malformed",        # U+110000
    "a1f5": "msgpack/malformed",              # no lead byte f5..ff
    "a2e282": "msgpack/malformed",            # a sequence cut by the string's end
    "a380e282": "msgpack/malformed",          # a continuation byte first
    "a4f48fbfbf": "ok",                       # U+10FFFF
    "a3ed9fbf": "ok",                         # U+D7FF
    "a3ee8080": "ok",                         # U+E000
    "a2c280": "ok",                           # U+0080
    "a4f09f9880": "ok",                       # U+1F600
    "a3e282ac": "ok",                         # U+20AC
    "a3f09f98": "msgpack/malformed",          # a 4-byte sequence with 2 bytes after its lead
    "a1c2": "msgpack/malformed",
    "a3e228a1": "msgpack/malformed",          # its second byte no continuation byte
    "a4f09f2880": "msgpack/malformed",        # its third
    "a4f09f9828": "msgpack/malformed",        # its fourth
    "a2c1bf": "msgpack/malformed",            # c0 and c1 lead only overlong forms
    # rule 3, map keys: str or bin, checked once the entry's value is parsed
    "81c001": "msgpack/malformed",            # nil
    "81c301": "msgpack/malformed",            # true
    "81ca0000000001": "msgpack/malformed",    # a float key is malformed, not msgpack/type
    "819001": "msgpack/malformed",            # an array
    "818001": "msgpack/malformed",            # a map
    "81c7000501": "msgpack/ext",              # an empty ext key fails where it is met
    "8190c70005": "msgpack/ext",              # an empty ext in the value of a bad key
    "81a161c700ff": "msgpack/malformed",      # an empty timestamp as a value
    # rule 3 and 3': ext
    "c8000005": "msgpack/ext",                # ext16, empty
    "c90000000005": "msgpack/ext",            # ext32, empty
    "c7000000": "msgpack/ext",                # fails where it is met, before the byte after
    "c70000": "msgpack/ext",                  # ext8 of type 0
    "c700": "msgpack/malformed",              # no type byte
    "c7010500": "msgpack/malformed",          # a payload
    "d5050000": "msgpack/malformed",          # fixext2
    "d8ff" + "00" * 16: "msgpack/malformed",  # fixext16 timestamp
    "d6ffffffffff": "msgpack/malformed",      # timestamp32 with a valid payload
    "9201c70005": "msgpack/ext",              # met before the array is cut short
    # rule 3: the header first (counts, then the containers around)
    "dd00001001" + "c0" * 4: "msgpack/malformed",
    "df00001001": "msgpack/malformed",
    "dc1001c70005": "msgpack/malformed",
    "c1c0": "msgpack/malformed",              # reserved, before trailing bytes
    "": "msgpack/malformed",
    "c6ffffffff": "msgpack/malformed",        # a length past the data
    # rule 4 after a whole value, whatever follows
    "c0c1": "msgpack/trailing-bytes",
    "c0c70005": "msgpack/trailing-bytes",
    # rule 5: floats are met in order, map values by key, the last of a repeated key
    "92ca000000009180": "msgpack/type",
    "cb3fe0000000000000": "msgpack/type",
    "81a161ca3fc00000": "msgpack/type",
    "82a162ca00000000a161" + "91" * 16 + "c0": "msgpack/too-deep",
    "82a161ca00000000a162" + "91" * 16 + "c0": "msgpack/type",
    "83a161c0a162ca00000000a161ca00000000": "msgpack/type",
    "83a161ca00000000a162c0a161c0": "msgpack/non-canonical",
    "82c40161c0a161c0": "msgpack/map-key",    # a bin key and a text key of the same bytes
    "82a161c0c40161c0": "msgpack/map-key",
    "82a161ca00000000c40161c0": "msgpack/map-key",  # keys before values
    # rule 6: headers
    "cf0000000100000000": "ok",
    "d30000000100000000": "msgpack/non-canonical",  # 2^32 as int64, as long as uint64's
    "ce00010000": "ok",
    "cf00000000ffffffff": "msgpack/non-canonical",
    "d2ffffff7f": "msgpack/non-canonical",    # -129 as int32
    "d2ffff7fff": "ok",                       # -32769
    "d1ff7f": "ok",
    "d9200000000000000000000000000000000000000000000000000000000000000000": "ok",
    "c50100" + "00" * 256: "ok",
    "c50000": "msgpack/non-canonical",        # the empty bin as bin16
    "dc0010" + "c0" * 16: "ok",
    "dc000f" + "c0" * 15: "msgpack/non-canonical",
    "82a161c0a161c0": "msgpack/non-canonical",
    "82a0c0a0c0": "msgpack/non-canonical",    # the empty key twice
}


@pytest.mark.parametrize("hexdata", sorted(PARSER_CASES))
def test_parser_cases(hexdata: str) -> None:
    data = bytes.fromhex(hexdata)
    assert reference(data, BIG)[0] == PARSER_CASES[hexdata]
    assert agrees(data, BIG) == PARSER_CASES[hexdata]


@pytest.mark.parametrize("depth", [1023, 1024, 1025])
def test_parser_depth(depth: int) -> None:
    """msgpack-python's stack holds 1024 containers; the 1025th fails where it starts,
    before anything after it, as an empty one or as a map key."""
    for data in (b"\x91" * (depth - 1) + b"\x90", b"\x81\xa1a" * (depth - 1) + b"\x80",
                 b"\x91" * (depth - 1) + b"\x90\xc7\x00\x05",
                 b"\x91" * (depth - 2) + b"\x81\x90\xc0"):
        agrees(data, BIG)


def test_max_size() -> None:
    data = bytes.fromhex("c403616263")
    assert agrees(data, 5) == "ok"
    assert agrees(data, 4) == "msgpack/too-large"
    assert agrees(data, -1) == "msgpack/too-large"
    assert agrees(b"", 0) == "msgpack/malformed"


# -- mutations ----------------------------------------------------------------------------

class Float(float):
    """A leaf that encodes as a float."""


class Ext(bytes):
    """A leaf that encodes as an ext of type 5 with this payload."""


WIDTHS = {"str": (0xd9, 0xda, 0xdb), "bin": (0xc4, 0xc5, 0xc6),
          "array": (None, 0xdc, 0xdd), "map": (None, 0xde, 0xdf)}


def header(kind: str, n: int, wider: int) -> bytes:
    """The canonical header of a string or container of n, or one `wider` steps longer."""
    forms = []
    fixed = {"str": (0xa0, 32), "array": (0x90, 16), "map": (0x80, 16)}.get(kind)
    if fixed and n < fixed[1]:
        forms.append(bytes([fixed[0] | n]))
    for code, size in zip(WIDTHS[kind], (1, 2, 4), strict=True):
        if code is not None and n < 1 << (8 * size):
            forms.append(bytes([code]) + n.to_bytes(size, "big"))
    return forms[min(wider, len(forms) - 1)]


def integer(n: int, wider: int) -> bytes:
    forms = [msgpack.packb(n)]
    for code, size in ((0xcc, 1), (0xcd, 2), (0xce, 4), (0xcf, 8), (0xd0, 1), (0xd1, 2),
                       (0xd2, 4), (0xd3, 8)):
        try:
            forms.append(bytes([code]) + n.to_bytes(size, "big", signed=code >= 0xd0))
        except OverflowError:
            continue
    return forms[min(wider, len(forms) - 1)]


def encode(obj: Any, choose: Callable[[int], int]) -> bytes:
    """An encoding of obj, mostly canonical: choose(n), a number below n, picks a longer
    header (3 times in 12), a map out of order or with a key repeated (once in 10 each)."""
    wider = max(0, choose(12) - 8)
    if isinstance(obj, Float):
        return struct.pack(">Bd", 0xcb, obj) if wider else struct.pack(">Bf", 0xca, obj)
    if isinstance(obj, Ext):
        return (b"\xc8" + len(obj).to_bytes(2, "big") if wider else bytes([0xc7, len(obj)])) \
            + b"\x05" + obj
    if obj is None or isinstance(obj, bool):
        return bytes(msgpack.packb(obj))
    if isinstance(obj, int):
        return integer(obj, wider)
    if isinstance(obj, bytes):
        return header("bin", len(obj), wider) + obj
    if isinstance(obj, str):
        raw = obj.encode()
        return header("str", len(raw), wider) + raw
    if isinstance(obj, list):
        return header("array", len(obj), wider) + b"".join(encode(x, choose) for x in obj)
    keys = sorted(obj, key=str.encode)
    if len(keys) > 1 and choose(10) == 0:
        keys = [keys.pop(choose(len(keys))) for _ in range(len(keys))]
    if keys and choose(10) == 0:
        keys.insert(choose(len(keys) + 1), keys[choose(len(keys))])
    return header("map", len(keys), wider) + b"".join(
        encode(k, choose) + encode(obj[k], choose) for k in keys)


def chooser(data: st.DataObject) -> Callable[[int], int]:
    return lambda n: data.draw(st.integers(0, n - 1))


leaves = st.one_of(
    st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1),
    st.sampled_from([0, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, -32, -33, -128,
                     -129, -32768, -32769, -2**31, -2**31 - 1]),
    st.binary(max_size=40), st.text(max_size=12),
    st.sampled_from(["", "a", "\uff61", "\U0001F600"]))
rare = st.one_of(st.floats(width=32, allow_nan=False).map(Float), st.binary(max_size=2).map(Ext))
keys = st.one_of(st.sampled_from(["", "a", "b", "ab", "\ufeffa", "\uff61", "\U0001F600"]),
                 st.text(max_size=4))
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=6)
                      | st.dictionaries(keys, inner, max_size=5), max_leaves=25)


def nest(obj: Any, n: int) -> Any:
    for _ in range(n):
        obj = [obj]
    return obj


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values, st.data())
def test_mutated_headers_and_orders(value: Any, data: st.DataObject) -> None:
    """Headers made longer, maps out of order or with a repeated key: the reference's code
    (non-canonical, or ok when nothing was changed)."""
    agrees(encode(value, chooser(data)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values, st.lists(rare | st.builds(nest, rare | st.just([]), st.integers(12, 17)),
                        min_size=1, max_size=3), st.data())
def test_mutated_rule_5(value: Any, extra: list[Any], data: st.DataObject) -> None:
    """Floats, exts and deep nests put into a value (as map values, so their order is
    the keys'), then its headers and orders changed: the reference's code."""
    obj = {"": value, **{k: v for k, v in zip(["b", "a", "c"], extra, strict=False)}}
    agrees(encode(obj, chooser(data)))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values, st.data())
def test_mutated_bytes(value: Any, data: st.DataObject) -> None:
    """A canonical encoding cut short, with a byte after it, with one byte changed or
    removed: the reference's code."""
    good = reference_pack(value)
    i = data.draw(st.integers(0, len(good)))
    action = data.draw(st.sampled_from(["cut", "trail", "change", "drop", "insert"]))
    if action == "cut":
        bad = good[:i]
    elif action == "trail":
        bad = good + bytes([data.draw(st.integers(0, 255))])
    elif action == "insert":
        bad = good[:i] + bytes([data.draw(st.integers(0, 255))]) + good[i:]
    elif i == len(good):
        bad = good[:-1]
    elif action == "change":
        bad = good[:i] + bytes([data.draw(st.integers(0, 255))]) + good[i + 1:]
    else:
        bad = good[:i] + good[i + 1:]
    agrees(bad, len(bad) + data.draw(st.sampled_from([0, 0, 0, 3])))


# -- the typed reads ----------------------------------------------------------------------

FIELDS = """(mod (V N LO HI KEY)
  (include *standard-cl-21*)
  (include codes.clib)
  (include msgpack.clib)
  (list (mp_array_of V N) (mp_list_max V N) (mp_bytes_of V N) (mp_bytes_max V N)
        (mp_int_in V LO HI) (mp_text_max V N) (mp_bool V)
        (if (= (f V) 7) (mp_get (r V) KEY) ())))
"""


@cache
def fields_program() -> bytes:
    return bytes.fromhex(clvm_tools_rs.compile(FIELDS, [str(CLSP_DIR)]))


def fields(obj: Any, n: int, lo: int = 0, hi: int = 2**64 - 1, key: str = "") -> list[Any]:
    """The codes of array(n), list(n), bytes(n), bytes of at most n, int(lo, hi), text(n)
    and bool for obj, then its map's value at key (None without)."""
    args = serialize([clvm_msgpack.to_tagged(obj), n, lo, hi, key.encode()])
    _, node = chia_rs.run_chia_program(fields_program(), args, BLOCK_COST_LIMIT,
                                       chia_rs.MEMPOOL_MODE)
    out: list[Any] = []
    while node.pair is not None and len(out) < 7:
        out.append(code_of(int.from_bytes(node.pair[0].atom, "big")))
        node = node.pair[1]
    got = node.pair[0] if node.pair is not None else None
    found = clvm_msgpack.from_tagged(clvm_msgpack.tree(got)) if got is not None and got.pair \
        else None
    return [*out, found]


def test_typed_fields() -> None:
    """8.1's accessors: array(n), list(m), bytes(n), bytes of at most m, int(lo, hi) (not
    a boolean), text(m) by code points, bool; and a map's value by key."""
    assert fields([1, 2], 2)[:2] == ["ok", "ok"]
    assert fields([1, 2], 1)[:2] == ["schema/array", "schema/array"]
    assert fields([1], 2)[:2] == ["schema/array", "ok"]
    assert fields(b"ab", 2)[:4] == ["schema/array", "schema/array", "ok", "ok"]
    assert fields(b"abc", 2)[2:4] == ["schema/bytes", "schema/bytes"]
    assert fields(b"a", 2)[2:4] == ["schema/bytes", "ok"]
    assert fields("ab", 2)[2] == "schema/bytes"
    assert fields(5, 0, 0, 5)[4] == "ok"
    assert fields(6, 0, 0, 5)[4] == "schema/int"
    assert fields(-1, 0)[4] == "schema/int"
    assert fields(-1, 0, -1, 0)[4] == "ok"
    assert fields(2**64 - 1, 0)[4] == "ok"
    assert fields(True, 0, 0, 1)[4:7] == ["schema/int", "schema/str", "ok"]
    assert fields(None, 0)[6] == "schema/bool"
    assert fields("\U0001F600" * 64, 64)[5] == "ok"       # 64 code points, 256 bytes
    assert fields("\U0001F600" * 65, 64)[5] == "schema/str"
    assert fields("a" * 64 + "\u00e9", 64)[5] == "schema/str"
    assert fields("", 0)[5] == "ok"
    assert fields(b"ab", 64)[5] == "schema/str"
    assert fields({"a": 1, "b": [2]}, 0, key="b")[7] == [2]
    assert fields({"a": 1}, 0, key="b")[7] is None


# -- the bridge ---------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values)
def test_tagged_round_trip(value: Any) -> None:
    assert clvm_msgpack.from_tagged(clvm_msgpack.to_tagged(value)) == value
    assert clvm_msgpack.pack(value)[0] == reference_pack(value)


def test_tagged_form() -> None:
    assert clvm_msgpack.to_tagged({"b": [None, False, True], "a": 2**64 - 1}) == (
        7, [(b"a", (3, 2**64 - 1)), (b"b", (6, [(1, b""), (2, 0), (2, 1)]))])
    with pytest.raises(TypeError):
        clvm_msgpack.to_tagged(1.5)
    with pytest.raises(TypeError):
        clvm_msgpack.to_tagged({b"a": 1})
