"""Canonical msgpack, spec/08-wire.md 8.1, on a hand-written parser and encoder.

Strict decoding (rules 1 to 6) and the canonical encoding, with no library; checks
spec/vectors/msgpack.json and decodes setups for wire.setup_pure. The transcript verifier
uses msgpack-python instead (wire.msgpack_lib).

Decisions where the spec is ambiguous or silent (cited below as [Wn]):
[W1] 8.1 rule 5: on meeting a container the re-encoding first checks its depth
     (msgpack/too-deep), then, for a map, all its keys (msgpack/map-key), then walks the
     entries in ascending key order (the order it writes them).
[W2] 8.1 rule 3/3': an ext of type -1 with an empty payload is neither "an ext value with
     a payload" (rule 3) nor covered by rule 3' ("other than type -1"); it is taken as
     msgpack/malformed (a timestamp of length 0 is not a well-formed msgpack value).
[W3] 8.1 rule 3: the 1024 limit and rule 5's 16 count containers, empty ones included
     (so "91" * 15 + "90" is 16 deep), as the vectors' "16 nested containers" says.
[W4] 8.1: a map with a repeated key keeps the last value (rule 6 rejects it anyway).
[W8] 8.1 rule 3: a map entry's key type is checked when the entry is complete, after its
     value is parsed (so an empty ext in that value is msgpack/ext); an entry count is
     checked at its header.
"""

from __future__ import annotations

import struct
from typing import Any

from independent.errors import fail

MAX_ENTRIES = 4096
MAX_PARSE_DEPTH = 1024
MAX_DEPTH = 16


def pack(v: Any, depth: int = 0) -> bytes:
    """8.1 Encoding: the canonical encoding; `depth` containers enclose v (rule 5)."""
    if v is None:
        return b"\xc0"
    if isinstance(v, bool):
        return b"\xc3" if v else b"\xc2"
    if isinstance(v, int):
        return _pack_int(v)
    if isinstance(v, str):
        raw = v.encode("utf-8")
        return _header(len(raw), 0xA0, 31, b"\xd9\xda\xdb") + raw
    if isinstance(v, bytes):
        return _header(len(v), None, 0, b"\xc4\xc5\xc6") + v
    if isinstance(v, list):
        if depth + 1 > MAX_DEPTH:
            fail("msgpack/too-deep")
        return _header(len(v), 0x90, 15, b"\xdc\xdd") + b"".join(pack(x, depth + 1) for x in v)
    if isinstance(v, dict):
        if depth + 1 > MAX_DEPTH:
            fail("msgpack/too-deep")
        if any(not isinstance(key, str) for key in v):  # [W1]
            fail("msgpack/map-key")
        body = b"".join(pack(key, depth + 1) + pack(v[key], depth + 1) for key in sorted(v))
        return _header(len(v), 0x80, 15, b"\xde\xdf") + body
    fail("msgpack/type")  # a float, or anything else


def _pack_int(v: int) -> bytes:
    if not -(2**63) <= v <= 2**64 - 1:
        fail("msgpack/unencodable")
    if 0 <= v <= 127:
        return bytes([v])
    if v >= 0:
        for tag, n in ((0xCC, 1), (0xCD, 2), (0xCE, 4), (0xCF, 8)):
            if v < 2 ** (8 * n):
                return bytes([tag]) + v.to_bytes(n, "big")
    if v >= -32:
        return bytes([v & 0xFF])
    for tag, n in ((0xD0, 1), (0xD1, 2), (0xD2, 4), (0xD3, 8)):
        if v >= -(2 ** (8 * n - 1)):
            return bytes([tag]) + v.to_bytes(n, "big", signed=True)
    raise AssertionError(v)


def _header(n: int, fix: int | None, fix_max: int, tags: bytes) -> bytes:
    """The shortest header for a length n: fix form, then 8-, 16-, 32-bit lengths."""
    if fix is not None and n <= fix_max:
        return bytes([fix | n])
    widths = (1, 2, 4) if len(tags) == 3 else (2, 4)
    for tag, w in zip(tags, widths, strict=True):
        if n < 2 ** (8 * w):
            return bytes([tag]) + n.to_bytes(w, "big")
    fail("msgpack/unencodable")


class _Open:
    """A container header just read: its kind and entry count."""

    def __init__(self, is_map: bool, n: int) -> None:
        self.is_map, self.n = is_map, n


class _Parser:
    """8.1 rules 3 and 3': one front-to-back pass, the first failure in the bytes wins.

    Iterative (an explicit stack of open containers), so 1024 levels need no recursion.
    """

    def __init__(self, data: bytes, max_size: int) -> None:
        self.data, self.pos, self.max_size = data, 0, max_size

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            fail("msgpack/malformed")  # truncated
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def uint(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big")

    def item(self) -> Any:
        """One header: a complete scalar value, or an _Open for a container."""
        b = self.take(1)[0]
        if b <= 0x7F:
            return b
        if b >= 0xE0:
            return b - 256
        if 0x80 <= b <= 0x8F:
            return _Open(True, b & 0x0F)
        if 0x90 <= b <= 0x9F:
            return _Open(False, b & 0x0F)
        if 0xA0 <= b <= 0xBF:
            return self.text(b & 0x1F)
        simple = {0xC0: None, 0xC2: False, 0xC3: True}
        if b in simple:
            return simple[b]
        if b in (0xC4, 0xC5, 0xC6):
            n = self.uint({0xC4: 1, 0xC5: 2, 0xC6: 4}[b])
            if n > self.max_size:
                fail("msgpack/malformed")
            return self.take(n)
        if b in (0xC7, 0xC8, 0xC9):
            n = self.uint({0xC7: 1, 0xC8: 2, 0xC9: 4}[b])
            if n > 0:
                fail("msgpack/malformed")  # an ext with a payload
            ext_type = struct.unpack(">b", self.take(1))[0]
            fail("msgpack/malformed" if ext_type == -1 else "msgpack/ext")  # [W2]
        if b == 0xCA:
            return struct.unpack(">f", self.take(4))[0]
        if b == 0xCB:
            return struct.unpack(">d", self.take(8))[0]
        if 0xCC <= b <= 0xCF:
            return self.uint(1 << (b - 0xCC))
        if 0xD0 <= b <= 0xD3:
            return int.from_bytes(self.take(1 << (b - 0xD0)), "big", signed=True)
        if 0xD4 <= b <= 0xD8:
            fail("msgpack/malformed")  # fixext: always a payload of 1 to 16 bytes
        if b in (0xD9, 0xDA, 0xDB):
            return self.text(self.uint({0xD9: 1, 0xDA: 2, 0xDB: 4}[b]))
        if b in (0xDC, 0xDD):
            return _Open(False, self.uint(2 if b == 0xDC else 4))
        if b in (0xDE, 0xDF):
            return _Open(True, self.uint(2 if b == 0xDE else 4))
        fail("msgpack/malformed")  # 0xc1, the reserved byte

    def text(self, n: int) -> str:
        if n > self.max_size:
            fail("msgpack/malformed")
        try:
            return self.take(n).decode("utf-8")
        except UnicodeDecodeError:
            fail("msgpack/malformed")

    def value(self) -> Any:
        """One whole value from the current position."""
        # Each open container: [the list or dict, entries left, the pending map key or
        # _NO_KEY]; a map entry counts once, when its value is attached.
        stack: list[list[Any]] = []
        while True:
            v = self.item()
            if isinstance(v, _Open):
                if v.n > MAX_ENTRIES or len(stack) + 1 > MAX_PARSE_DEPTH:  # [W3]
                    fail("msgpack/malformed")
                if v.n:
                    stack.append([{} if v.is_map else [], v.n, _NO_KEY])
                    continue
                v = {} if v.is_map else []
            while True:  # attach the completed value v to the innermost open container
                if not stack:
                    return v
                top = stack[-1]
                if isinstance(top[0], dict) and top[2] is _NO_KEY:
                    top[2] = _Key(v)  # its type is checked when the entry is complete [W8]
                    break
                if isinstance(top[0], dict):
                    key = top[2].value
                    if not isinstance(key, str | bytes):
                        fail("msgpack/malformed")  # map keys are str or bin
                    top[0][key] = v  # [W4]
                    top[2] = _NO_KEY
                else:
                    top[0].append(v)
                top[1] -= 1
                if top[1]:
                    break
                v = stack.pop()[0]


_NO_KEY = object()


class _Key:
    """A map key read but not yet checked (any value, a container included)."""

    def __init__(self, value: Any) -> None:
        self.value = value


def unpack(data: Any, max_size: int) -> Any:
    """8.1 strict decoding, rules 1 to 6 in order."""
    if not isinstance(data, bytes):
        fail("msgpack/type")  # 1
    if len(data) > max_size:
        fail("msgpack/too-large")  # 2, before any parsing
    parser = _Parser(data, max_size)
    value = parser.value()  # 3 and 3'
    if parser.pos != len(data):
        fail("msgpack/trailing-bytes")  # 4
    if pack(value) != data:  # 5 (pack raises), then 6
        fail("msgpack/non-canonical")
    return value
