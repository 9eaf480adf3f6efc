"""Canonical msgpack's strict decoding (spec/08-wire.md 8.1) inside the EVM agrees with the
reference, protocol/canonical.py: vy/msgpack.vy, the module the single-step contract
(spec/11-verify.md 11.4) imports, run by py-evm through vy/msgpack_check.vy.

- every vector of spec/vectors/msgpack.json gets its code;
- the dispute packages of spec/vectors/suites/bls12381g1-sha256/disputes/: every package
  and its setup and frame, and a sample of the states (all of them under -m slow), get
  the reference's code, and the cursor reader walks the accepted ones to the value
  msgpack-python decodes (skip() finds their length);
- mutations of a setup, a state and frames' payloads (a longer header, keys swapped or
  repeated, a bin or integer key, a float, an ext, bad UTF-8, truncation, a trailing
  byte, 17 levels), UTF-8 at its edges and seeded random encodings (more under -m slow)
  get the reference's code;
- msgpack-python's own behaviour, which the contract copies, is pinned here;
- the module's tables are what they say, read_header reads every kind of head, the head
  encoders give msgpack-python's heads, and the gas of a mid-game Bram state, the
  largest state and a SHUFFLE frame is measured (`-s` prints it).

Batched: one call judges many inputs; some 25 s. The slow tests run only when -m selects
them. Needs the `[chain]` extra; skipped without it.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import struct
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from conftest import VECTORS, skip_without_chain

skip_without_chain()

import msgpack  # noqa: E402

from peers.chain.codes import VY_DIR  # noqa: E402
from peers.chain.evm import TX_GAS_CAP  # noqa: E402
from peers.chain.evm_msgpack import (  # noqa: E402
    K_ARRAY,
    K_BIN,
    K_BOOL,
    K_EXT,
    K_FLOAT,
    K_INVALID,
    K_MAP,
    K_NIL,
    K_NINT,
    K_STR,
    K_UINT,
    EvmMsgpack,
    tokens_to_value,
    unpack_code,
)
from protocol.canonical import unpack  # noqa: E402
from protocol.errors import DealerlessError  # noqa: E402

MSGPACK = json.loads((VECTORS / "msgpack.json").read_text())["vectors"]
DISPUTES = VECTORS / "suites" / "bls12381g1-sha256" / "disputes"
MAX_PACKAGE, MAX_SETUP, MAX_STATE, MAX_FRAME = 1249280, 4096, 131072, 65536
#: States judged by default besides the mid-game one and the largest, and how many of
#: them and of the packages the cursor reader walks (all of them under -m slow).
STATE_SAMPLE = 4
WALKED_STATES = 3
WALKED_PACKAGES = 10


def only_under_slow(request: pytest.FixtureRequest) -> None:
    """Skip a slow test unless -m selects slow tests (the project's addopts deselect
    them; with addopts cleared, nothing would)."""
    if "slow" not in (request.config.option.markexpr or ""):
        pytest.skip("runs under -m slow")


@pytest.fixture(scope="module")
def evm() -> EvmMsgpack:
    return EvmMsgpack()


def reference(data: bytes, max_size: int) -> str:
    try:
        unpack(data, max_size)
    except DealerlessError as exc:
        return exc.code
    return "ok"


def same(a: Any, b: Any) -> bool:
    """Equal values of equal types (True is no 1), dict entries in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


# --- the vectors -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def vector_codes(evm: EvmMsgpack) -> list[str]:
    return [c for c, _ in evm.unpack_codes(
        [(bytes.fromhex(v["data"]), v["max_size"]) for v in MSGPACK])]


@pytest.mark.parametrize("i", range(len(MSGPACK)), ids=[v["name"] for v in MSGPACK])
def test_vector(vector_codes: list[str], i: int) -> None:
    assert vector_codes[i] == MSGPACK[i]["expected"]


def test_the_data_at_the_end_of_calldata() -> None:
    """unpack_code over bytes that end calldata: the last reads run past its end."""
    for v in MSGPACK[::4]:
        data = bytes.fromhex(v["data"])
        if len(data) < 64:
            code, gas = unpack_code(data, v["max_size"])
            assert code == v["expected"], v["name"]
            assert gas.execution > 0


# --- the dispute packages ----------------------------------------------------------------

def records(name: str) -> list[bytes]:
    """A .packages file's records, u32be(len) || package."""
    blob, out, i = (DISPUTES / name).read_bytes(), [], 0
    while i < len(blob):
        (n,) = struct.unpack(">I", blob[i:i + 4])
        out.append(blob[i + 4:i + 4 + n])
        i += 4 + n
    return out


@cache
def corpus() -> dict[str, list[bytes]]:
    """Every package, and the setup, state and frame of those that decode as an array of
    seven, each once, in sha256 order."""
    found: dict[str, set[bytes]] = {"package": set(), "setup": set(), "state": set(),
                                    "frame": set()}
    for path in sorted(DISPUTES.glob("*.packages")):
        for package in records(path.name):
            found["package"].add(package)
            try:
                value = unpack(package, MAX_PACKAGE)
            except DealerlessError:
                continue
            if isinstance(value, list) and len(value) == 7:
                for kind, item in (("setup", value[2]), ("state", value[4]),
                                   ("frame", value[5])):
                    if isinstance(item, bytes):
                        found[kind].add(item)
    return {k: sorted(v, key=lambda b: hashlib.sha256(b).digest()) for k, v in found.items()}


def mid_game_state() -> bytes:
    """A 2-seat Bram state in mid-game: the state of valid.packages' record 20 (a PLAY)."""
    state: bytes = unpack(records("valid.packages")[20], MAX_PACKAGE)[4]
    assert unpack(state, MAX_STATE)["phase"] == "play"
    return state


def shuffle_frame() -> bytes:
    """A SHUFFLE frame: valid.packages' record 4."""
    frame: bytes = unpack(records("valid.packages")[4], MAX_PACKAGE)[5]
    return frame


def state_sample() -> list[bytes]:
    states = corpus()["state"]
    picked = [mid_game_state(), max(states, key=len)]
    step = len(states) // STATE_SAMPLE
    picked += [s for s in states[::step][:STATE_SAMPLE] if s not in picked]
    return picked


MAX_SIZES = {"package": MAX_PACKAGE, "setup": MAX_SETUP, "state": MAX_STATE,
             "frame": MAX_FRAME}


def check_corpus(evm: EvmMsgpack, judge: list[tuple[bytes, int]], walk: list[bytes]) -> None:
    got = evm.unpack_codes(judge)
    expected = [reference(d, m) for d, m in judge]
    assert [c for c, _ in got] == expected
    # The crafted packages hold a few that fail; the rest, and their items, are accepted.
    assert expected.count("ok") >= len(judge) - 8
    accepted = {d for (d, _), code in zip(judge, expected, strict=True) if code == "ok"}
    walk = [d for d in walk if d in accepted]
    for data, (tokens, length) in zip(walk, evm.walk(walk), strict=True):
        assert length == len(data)
        assert same(tokens_to_value(data, tokens), msgpack.unpackb(data, raw=False))


def test_the_packages_and_their_items(evm: EvmMsgpack) -> None:
    """Every package, setup and frame, and the state sample; the cursor reader walks the
    setups, the frames, some packages and the smaller states of the sample (test_gas
    judges the largest state)."""
    c = corpus()
    states = state_sample()
    judge = [(b, MAX_SIZES[k]) for k in ("package", "setup", "frame") for b in c[k]] + \
        [(s, MAX_STATE) for s in states if s != max(c["state"], key=len)]
    walk = c["setup"] + c["frame"] + c["package"][:WALKED_PACKAGES] + \
        sorted(states, key=len)[:WALKED_STATES]
    check_corpus(evm, judge, walk)


@pytest.mark.slow
def test_the_whole_corpus(evm: EvmMsgpack, request: pytest.FixtureRequest) -> None:
    only_under_slow(request)
    judge = [(b, MAX_SIZES[k]) for k, items in corpus().items() for b in items]
    check_corpus(evm, judge, [d for d, _ in judge])


def test_str_equals_and_map_find(evm: EvmMsgpack) -> None:
    state: bytes = unpack(records("valid.packages")[0], MAX_PACKAGE)[4]
    value = msgpack.unpackb(state, raw=False)
    entries = [(len(msgpack.packb(k)), len(msgpack.packb(v, use_bin_type=True)))
               for k, v in value.items()]
    at_value, offset = {}, len(state) - sum(k + v for k, v in entries)   # after the head
    for key, (k, v) in zip(value, entries, strict=True):
        at_value[key] = offset + k
        offset += k + v
    for key in [*list(value)[::3], list(value)[-1], "absent", "", "phas", "phasex"]:
        same_, _, found, at = evm.find(state, key.encode())
        assert not same_
        assert (found, at) == ((True, at_value[key]) if key in value else (False, 0))
    text = msgpack.packb("dealerless/state")
    assert evm.find(text, b"dealerless/state")[:2] == (True, len(text))
    assert evm.find(text, b"dealerless/stat")[:2] == (False, len(text))
    assert evm.find(text, b"dealerless/statf")[:2] == (False, len(text))
    long_text = msgpack.packb("x" * 40 + "y")
    assert evm.find(long_text, b"x" * 40 + b"y")[:2] == (True, len(long_text))
    assert evm.find(long_text, b"x" * 40 + b"z")[:2] == (False, len(long_text))
    assert evm.find(msgpack.packb(7), b"a") == (False, 0, False, 0)


# --- mutations, against the reference ------------------------------------------------------

def head(prefix: int, n: int, width: int) -> bytes:
    return bytes([prefix]) + n.to_bytes(width, "big")


def wider(value: Any) -> bytes | None:
    """`value` under the next longer header msgpack has (non-canonical), or None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        for lo, hi, fmt in ((0, 2 ** 8 - 1, ">BB"), (0, 2 ** 16 - 1, ">BH"),
                            (0, 2 ** 32 - 1, ">BI"), (0, 2 ** 64 - 1, ">BQ"),
                            (-2 ** 7, 2 ** 7 - 1, ">Bb"), (-2 ** 15, 2 ** 15 - 1, ">Bh"),
                            (-2 ** 31, 2 ** 31 - 1, ">Bi"), (-2 ** 63, 2 ** 63 - 1, ">Bq")):
            prefix = {">BB": 0xcc, ">BH": 0xcd, ">BI": 0xce, ">BQ": 0xcf, ">Bb": 0xd0,
                      ">Bh": 0xd1, ">Bi": 0xd2, ">Bq": 0xd3}[fmt]
            encoded = struct.pack(fmt, prefix, value) if lo <= value <= hi else None
            if encoded and len(encoded) > len(msgpack.packb(value)):
                return encoded
        return None
    canonical = msgpack.packb(value, use_bin_type=True)
    if isinstance(value, str | bytes):
        raw = value.encode() if isinstance(value, str) else value
        n = len(raw)
        widths = [(0xd9, 1), (0xda, 2), (0xdb, 4)] if isinstance(value, str) else \
            [(0xc4, 1), (0xc5, 2), (0xc6, 4)]
        for prefix, width in widths:
            if n < 1 << (8 * width) and 1 + width > len(canonical) - n:
                return head(prefix, n, width) + raw
        return None
    return None


class Mutator:
    """The canonical encoding of a value, but the `target`-th value in preorder (keys
    count) encoded as `how` says; `hit` tells whether it applied."""

    def __init__(self, target: int, how: str) -> None:
        self.target, self.how, self.index, self.hit = target, how, -1, False

    def encode(self, value: Any) -> bytes:
        self.index += 1
        if self.index == self.target:
            mutated = self.mutated(value)
            if mutated is not None:
                self.hit = True
                return mutated
        return self.plain(value)

    def container_head(self, value: Any, n: int, wide: bool) -> bytes:
        fix, h16, h32 = (0x90, 0xdc, 0xdd) if isinstance(value, list) else (0x80, 0xde, 0xdf)
        if wide:
            return head(h16, n, 2) if n < 16 else head(h32, n, 4)
        return bytes([fix | n]) if n < 16 else head(h16, n, 2) if n < 1 << 16 else \
            head(h32, n, 4)

    def plain(self, value: Any, wide: bool = False) -> bytes:
        if isinstance(value, list):
            return self.container_head(value, len(value), wide) + \
                b"".join(self.encode(x) for x in value)
        if isinstance(value, dict):
            return self.container_head(value, len(value), wide) + b"".join(
                self.encode(k) + self.encode(value[k]) for k in sorted(value))
        return bytes(msgpack.packb(value, use_bin_type=True))

    def entries(self, value: dict[str, Any]) -> list[tuple[bytes, bytes]]:
        return [(self.encode(k), self.encode(value[k])) for k in sorted(value)]

    def mutated(self, value: Any) -> bytes | None:
        how = self.how
        if how == "wide":
            if isinstance(value, list | dict):
                return self.plain(value, wide=True)
            return wider(value)
        if how in ("float", "ext", "ext-1", "fixext"):
            return {"float": b"\xca\0\0\0\0", "ext": b"\xc7\x00\x05", "ext-1": b"\xc7\x00\xff",
                    "fixext": b"\xd4\x01\x00"}[how]
        if how == "bad-utf8" and isinstance(value, str):
            return b"\xa4" + value.encode()[:1].ljust(1, b"a") + b"\xed\xa0\x80"
        if not isinstance(value, dict) or not value:
            return None
        items = self.entries(value)
        if how == "swap" and len(items) >= 2:
            items[0], items[1] = items[1], items[0]
        elif how == "repeat":
            items.append(items[0])
        elif how == "repeat-float":
            items.append((items[-1][0], b"\xcb" + bytes(8)))
        elif how == "bin-key":
            key = sorted(value)[0].encode()
            items[0] = (b"\xc4" + bytes([len(key)]) + key, items[0][1])
        elif how == "int-key":
            items[0] = (b"\x07", items[0][1])
        else:
            return None
        n = len(items)
        return self.container_head(value, n, False) + b"".join(k + v for k, v in items)


HOWS = ("wide", "float", "ext", "ext-1", "fixext", "bad-utf8", "swap", "repeat",
        "repeat-float", "bin-key", "int-key")


def values_count(value: Any) -> int:
    if isinstance(value, list):
        return 1 + sum(values_count(x) for x in value)
    if isinstance(value, dict):
        return 1 + sum(1 + values_count(v) for v in value.values())
    return 1


def mutations(data: bytes, max_size: int, per_kind: int) -> Iterator[tuple[str, bytes, int]]:
    """Mutations of an accepted value: each of HOWS at up to per_kind places (spread over
    the value), then cuts, a trailing byte, nesting and a size limit just too small."""
    value = msgpack.unpackb(data, raw=False)
    count = values_count(value)
    for how in HOWS:
        hits = []
        for target in range(count):
            m = Mutator(target, how)
            encoded = m.encode(value)
            if m.hit:
                hits.append(encoded)
        for encoded in hits[::max(1, len(hits) // per_kind)][:per_kind]:
            yield how, encoded, max_size + 16
    for cut in sorted({1, len(data) // 2, len(data) - 1}):
        yield "truncated", data[:cut], max_size
    yield "trailing byte", data + b"\xc0", max_size + 1
    yield "16 arrays around it", b"\x91" * 16 + data, max_size + 16
    yield "15 arrays around it", b"\x91" * 15 + data, max_size + 16
    yield "one byte too many", data, len(data) - 1


def mutation_bases() -> list[tuple[bytes, int, int]]:
    """(value, max_size, mutations of each kind): the largest setup, a game's first
    state, a PLAY's and a SHUFFLE's payloads."""
    setup = max(corpus()["setup"], key=lambda s: (len(s), s))
    small = unpack(records("valid.packages")[0], MAX_PACKAGE)[4]
    payload = unpack(shuffle_frame(), MAX_FRAME)[0]
    play_payload = unpack(unpack(records("valid.packages")[20], MAX_PACKAGE)[5], MAX_FRAME)[0]
    return [(setup, MAX_SETUP, 3), (small, MAX_STATE, 2), (play_payload, MAX_FRAME, 2),
            (payload, MAX_FRAME, 1)]


def test_mutations(evm: EvmMsgpack) -> None:
    cases = [(how, d, m) for base, max_size, per_kind in mutation_bases()
             for how, d, m in mutations(base, max_size, per_kind)]
    got = evm.unpack_codes([(d, m) for _, d, m in cases])
    seen: dict[str, set[str]] = {}
    for (how, data, max_size), (code, _) in zip(cases, got, strict=True):
        expected = reference(data, max_size)
        assert code == expected, (how, data.hex())
        seen.setdefault(how, set()).add(expected)
    # Each mutation reached the rule it aims at, somewhere.
    aims = {"wide": "non-canonical", "float": "type", "ext": "ext", "ext-1": "malformed",
            "fixext": "malformed", "bad-utf8": "malformed", "swap": "non-canonical",
            "repeat": "non-canonical", "repeat-float": "type", "bin-key": "map-key",
            "int-key": "malformed", "truncated": "malformed",
            "trailing byte": "trailing-bytes", "16 arrays around it": "too-deep",
            "one byte too many": "too-large"}
    for how, aim in aims.items():
        assert "msgpack/" + aim in seen[how], how


def utf8_cases() -> list[tuple[bytes, int]]:
    """Each lead byte at UTF-8's edges with its second byte at its edges, or its third or
    fourth byte out of range, in a fixstr and in a str8 across a 32-byte word; each lead
    with good continuation bytes, cut short."""
    leads = [0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef,
             0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff]
    cases: list[tuple[bytes, int]] = []
    for lead in leads:
        good = bytes([lead, {0xe0: 0xa0, 0xf0: 0x90}.get(lead, 0x80), 0xbf, 0x80])
        seqs = [bytes([lead, b1, 0x80, 0x80])
                for b1 in (0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0)]
        seqs += [good[:i] + bytes([b]) + good[i + 1:] for i in (2, 3) for b in (0x7f, 0xc0)]
        for seq in seqs:
            text = b"a" + seq + b"z"
            cases.append((bytes([0xa0 | len(text)]) + text, 64))
            text = b"x" * 29 + seq + b"y"
            cases.append((bytes([0xd9, len(text)]) + text, 64))
        for cut in (1, 2, 3):
            text = b"a" + good[:cut]
            cases.append((bytes([0xa0 | len(text)]) + text, 64))
    return cases


def test_utf8(evm: EvmMsgpack) -> None:
    cases = utf8_cases()
    got = evm.unpack_codes(cases)
    codes = [c for c, _ in got]
    assert codes == [reference(d, m) for d, m in cases]
    assert {"ok", "msgpack/malformed"} <= set(codes)


def random_encoding(rng: random.Random, depth: int = 0) -> bytes:
    """A value's encoding with, now and then, a longer header, keys out of order or
    repeated, a bin key, a float, an ext, bad UTF-8 or extra nesting."""
    r = rng.random()
    if r < 0.25 and depth < 18:
        n = rng.choice([0, 1, 2, 3, 16])
        if rng.random() < 0.5:
            body = b"".join(random_encoding(rng, depth + 1) for _ in range(n))
            return (bytes([0x90 | n]) if n < 16 and rng.random() < 0.95 else head(0xdc, n, 2)) \
                + body
        keys = sorted({rng.choice(["a", "b", "é", "\U0001f600", "\uff61", "zz" * 20])
                       for _ in range(n)}, key=str.encode)
        if rng.random() < 0.1:
            rng.shuffle(keys)
        if keys and rng.random() < 0.1:
            keys.append(rng.choice(keys))
        out = bytes([0x80 | len(keys)]) if len(keys) < 16 else head(0xde, len(keys), 2)
        for k in keys:
            key = msgpack.packb(k)
            if rng.random() < 0.04:
                key = b"\xc4" + bytes([len(k.encode())]) + k.encode()
            out += key + random_encoding(rng, depth + 1)
        return out
    if r < 0.9:
        value = rng.choice([None, True, False, 0, 127, 128, -32, -33, 2 ** 64 - 1, -2 ** 63,
                            b"", b"\x00" * 48, "", "abc", "é\U0001f600", "x" * 40])
        wide = wider(value) if rng.random() < 0.1 else None
        return wide or bytes(msgpack.packb(value, use_bin_type=True))
    return rng.choice([b"\xca\0\0\0\0", b"\xc7\x00\x05", b"\xc7\x00\xff", b"\xd4\x01\x00",
                       b"\xc1", b"\xa2\xc3\x28", b"\x91" * 17 + b"\xc0"])


def random_cases(seed: int, n: int) -> list[tuple[bytes, int]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        data = random_encoding(rng)
        if rng.random() < 0.1:
            data = data[:rng.randrange(len(data) + 1)]
        if rng.random() < 0.05:
            data += b"\xc0"
        cases.append((data, rng.choice([len(data), 4096, max(0, len(data) - 1)])))
    return cases


def test_random_encodings(evm: EvmMsgpack) -> None:
    cases = random_cases(1, 300)
    assert [c for c, _ in evm.unpack_codes(cases)] == [reference(d, m) for d, m in cases]


@pytest.mark.slow
def test_more_random_encodings(evm: EvmMsgpack, request: pytest.FixtureRequest) -> None:
    only_under_slow(request)
    for seed in range(2, 12):
        cases = random_cases(seed, 500)
        assert [c for c, _ in evm.unpack_codes(cases)] == [reference(d, m) for d, m in cases]


# --- msgpack-python's behaviour, which the contract copies ---------------------------------

class Ext(Exception):
    pass


def reference_parser(data: bytes) -> Any:
    """protocol.canonical's call of msgpack.unpackb, its ext hook raising Ext."""
    def no_ext(code: int, payload: bytes) -> Any:
        raise Ext(code)

    return msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True,
                           ext_hook=no_ext, max_str_len=len(data), max_bin_len=len(data),
                           max_array_len=4096, max_map_len=4096, max_ext_len=0)


def test_msgpack_python_behaviour() -> None:
    """What 8.1's rule 3 takes from the reference parser, by experiment."""
    # 1024 open containers, empty or not and map keys included, and no more.
    assert reference_parser(b"\x91" * 1023 + b"\x90") is not None
    assert reference_parser(b"\x91" * 1023 + b"\x81\xa1a\xc0") is not None
    for deeper in (b"\x91" * 1024 + b"\x90", b"\x91" * 1023 + b"\x81\xa1a\x90",
                   b"\x91" * 1023 + b"\x81\x90\xc0"):
        with pytest.raises(ValueError):
            reference_parser(deeper)
    # A key's type is checked once its value is parsed: an ext in the value comes first.
    with pytest.raises(Ext):
        reference_parser(b"\x81\x01\xc7\x00\x05")
    with pytest.raises(Ext):
        reference_parser(b"\x81\x91\x01\xc7\x00\x05")
    with pytest.raises(ValueError):
        reference_parser(b"\x82\x01\xc0\xa1a\xc7\x00\x05")
    # An ext with a payload fails (max_ext_len) before the hook, even of type -1, and an
    # empty one of type -1 fails as a timestamp.
    for ext in (b"\xd4\x05\x00", b"\xc7\x01\x05\x00", b"\xd6\xff\0\0\0\0", b"\xc7\x00\xff",
                b"\xc8\x00\x00\xff", b"\xc9\x00\x00\x00\x00\xff"):
        with pytest.raises(ValueError):
            reference_parser(ext)
    for ext in (b"\xc8\x00\x00\x05", b"\xc9\x00\x00\x00\x00\x00"):
        with pytest.raises(Ext):
            reference_parser(ext)
    # An entry count is checked at its header.
    with pytest.raises(ValueError):
        reference_parser(b"\xdd\x00\x00\x10\x01\xc7\x00\x05")
    # Floats and bin keys pass the parser (rule 5 is the re-encoding's).
    assert reference_parser(b"\x81\xc4\x01a\xca\0\0\0\0") == {b"a": 0.0}
    with pytest.raises(ValueError):
        reference_parser(b"\x81\xca\0\0\0\0\xc0")
    # A repeated key keeps the last value, in the first key's place.
    assert list(reference_parser(b"\x83\xa1b\x01\xa1a\x02\xa1b\x03").items()) == \
        [("b", 3), ("a", 2)]
    # Strict UTF-8: no surrogates, no overlong forms, nothing above U+10FFFF; U+FFFF and
    # U+FEFF are characters.
    for bad in (b"\xa3\xed\xa0\x80", b"\xa2\xc0\x80", b"\xa4\xf4\x90\x80\x80", b"\xa1\x80"):
        with pytest.raises(ValueError):
            reference_parser(bad)
    assert reference_parser(b"\xa3\xef\xbf\xbf") == "\uffff"
    # Bytes after the value, and a value cut short.
    with pytest.raises(msgpack.ExtraData):
        reference_parser(b"\xc0\xc0")
    with pytest.raises(ValueError):
        reference_parser(b"\x92\x01")


# --- the module's tables, the cursor reader on every header, and the encoders ---------------

def test_the_module_tables() -> None:
    """msgpack.vy's tables, written as decimal numbers, are what their comments say."""
    source = (VY_DIR / "msgpack.vy").read_text()
    found = dict(re.findall(r"^(\w+): constant\(uint256\) = (\d+)$", source, re.M))
    kinds = {name: number for name, number in re.findall(
        r"^(K_\w+|T_FIXEXT): constant\(uint\d+\) = (\d+)", source, re.M)}
    k = {name: int(number) for name, number in kinds.items()}
    heads = {0xc0: ("K_NIL", 0), 0xc1: ("K_INVALID", 0), 0xc2: ("K_BOOL", 0),
             0xc3: ("K_BOOL", 0), 0xca: ("K_FLOAT", 4), 0xcb: ("K_FLOAT", 8)}
    for first, (kind, sizes) in {0xc4: ("K_BIN", (1, 2, 4)), 0xc7: ("K_EXT", (1, 2, 4)),
                                 0xcc: ("K_UINT", (1, 2, 4, 8)), 0xd0: ("K_NINT", (1, 2, 4, 8)),
                                 0xd9: ("K_STR", (1, 2, 4)), 0xdc: ("K_ARRAY", (2, 4)),
                                 0xde: ("K_MAP", (2, 4))}.items():
        heads |= {first + i: (kind, size) for i, size in enumerate(sizes)}
    heads |= {b: ("T_FIXEXT", 0) for b in range(0xd4, 0xd9)}
    table = sum((k[kind] << 4 | size) << (8 * (b - 0xc0)) for b, (kind, size) in heads.items())
    assert int(found["TABLE"]) == table
    assert re.search(rf"^# 0x{table:064x}$", source, re.M)
    one_byte = [b for b in range(256) if b < 0x80 or b >= 0xe0 or b in (0xc0, 0xc2, 0xc3)]
    assert int(found["ONE_BYTE"]) == sum(1 << b for b in one_byte)
    for name, byte in (("HIGH_BITS", 0x80), ("LOW7_BYTES", 0x7f), ("C0_BYTES", 0xc0),
                       ("C1_BYTES", 0xc1), ("FC_BYTES", 0xfc)):
        assert int(found[name]) == int.from_bytes(bytes([byte]) * 32, "big")
    assert (k["K_NIL"], k["K_BOOL"], k["K_UINT"], k["K_NINT"], k["K_BIN"], k["K_STR"],
            k["K_ARRAY"], k["K_MAP"], k["K_FLOAT"], k["K_EXT"], k["K_INVALID"]) == \
        (K_NIL, K_BOOL, K_UINT, K_NINT, K_BIN, K_STR, K_ARRAY, K_MAP, K_FLOAT, K_EXT,
         K_INVALID)


def test_read_header_on_every_kind(evm: EvmMsgpack) -> None:
    """read_header's (kind, value, next) for heads a canonical value never has too."""
    cases = [(b"\xc0", (K_NIL, 0, 1)), (b"\xc2", (K_BOOL, 0, 1)), (b"\xc3", (K_BOOL, 1, 1)),
             (b"\xd0\x05", (K_UINT, 5, 2)), (b"\xd1\xff\xdf", (K_NINT, 33, 3)),
             (b"\xd3" + (-2 ** 63).to_bytes(8, "big", signed=True), (K_NINT, 2 ** 63, 9)),
             (b"\xcf" + bytes([255] * 8), (K_UINT, 2 ** 64 - 1, 9)), (b"\xe0", (K_NINT, 32, 1)),
             (b"\xca\x3f\x80\0\0", (K_FLOAT, 0x3f800000, 5)), (b"\xc7\x00\x05", (K_EXT, 0, 3)),
             (b"\xd8\x05" + bytes(16), (K_EXT, 0, 18)), (b"\xc1", (K_INVALID, 0, 1))]
    walked = evm.walk([data for data, _ in cases])
    for (data, expected), (tokens, length) in zip(cases, walked, strict=True):
        t = tokens[0]
        assert (t.kind, t.value, t.next) == expected, data.hex()
        assert length == len(data)


def test_encoders(evm: EvmMsgpack) -> None:
    ints = [0, 1, 127, 128, 255, 256, 2 ** 16 - 1, 2 ** 16, 2 ** 32 - 1, 2 ** 32, 2 ** 63,
            2 ** 64 - 1]
    negatives = [-1, -32, -33, -128, -129, -2 ** 15, -2 ** 15 - 1, -2 ** 31, -2 ** 31 - 1,
                 -2 ** 63]
    lengths = [0, 1, 15, 16, 31, 32, 255, 256, 2 ** 16 - 1, 2 ** 16]
    items = [("uint", v) for v in ints] + [("int", v) for v in ints + negatives] + \
        [(what, n) for what in ("bin", "str", "array", "map") for n in lengths]
    got = evm.encode(items)

    def expected(what: str, v: int) -> bytes:
        if what in ("uint", "int"):
            return bytes(msgpack.packb(v))
        value: Any = {"bin": b"\0" * v, "str": "a" * v, "array": [None] * v,
                      "map": {f"{i:05}": None for i in range(v)}}[what]
        encoded = msgpack.packb(value, use_bin_type=True)
        body = {"bin": v, "str": v, "array": v, "map": 7 * v}[what]
        return bytes(encoded[:len(encoded) - body])

    assert got == [expected(what, v) for what, v in items]
    assert evm.encode([("bin", 2 ** 32 - 1), ("map", 2 ** 32 - 1)]) == \
        [b"\xc6\xff\xff\xff\xff", b"\xdf\xff\xff\xff\xff"]


# --- gas -----------------------------------------------------------------------------------

def test_gas(evm: EvmMsgpack) -> None:
    """What validating costs, the module's unpack_code alone and the whole call
    (transaction gas: 21,000, calldata and execution)."""
    states = corpus()["state"]
    cases = {"mid-game Bram state (2 seats)": (mid_game_state(), MAX_STATE),
             "largest state": (max(states, key=len), MAX_STATE),
             "SHUFFLE frame": (shuffle_frame(), MAX_FRAME),
             "SHUFFLE frame's payload": (unpack(shuffle_frame(), MAX_FRAME)[0], MAX_FRAME)}
    inner = evm.unpack_codes(list(cases.values()))
    for (name, (data, max_size)), (code, gas) in zip(cases.items(), inner, strict=True):
        assert code == "ok"
        assert gas < TX_GAS_CAP // 8
        line = f"{name}: {len(data)} bytes, unpack_code {gas} gas"
        if name != "largest state":    # (its call would take as long again)
            _, call = evm.unpack_code(data, max_size)
            line += f"; the call {call.execution} execution, {call.transaction} transaction"
        print(line)
