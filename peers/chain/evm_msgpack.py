"""Canonical msgpack (spec/08-wire.md 8.1) inside the EVM: vy/msgpack.vy, the module a
step contract imports, through vy/msgpack_check.vy on the harness of evm.py.

- `unpack_code(data, max_size)`: 8.1's strict `unpack` as the contract judges it, the
  spec's code ("ok" or a `msgpack/*` code) and the gas of the whole call;
- `EvmMsgpack.unpack_codes`: many inputs in few calls, each with the gas the module's
  `unpack_code` alone took (what a step contract pays for it);
- `EvmMsgpack.walk`: the headers the module's cursor reader (`read_header`) gives for
  accepted values, and the length `skip` gives; `tokens_to_value` builds the value
  they describe, to compare with msgpack-python's;
- `EvmMsgpack.find`: `str_equals` and `map_find`; `EvmMsgpack.encode`: the canonical
  heads (`encode_uint`, `encode_int`, `encode_*_head`).

The module reads calldata, not memory (see its docstring), so the bytes go after the
ABI-encoded arguments, up to the end of calldata or as records of a batch. Like the rest
of peers/chain, nothing here imports protocol/.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

import msgpack

from .abi import WORD, Arg, Bytes, Word, WordsList, decode_word, encode_args
from .codes import code_of
from .evm import Contract, EvmGas, EvmHarness

#: read_header's kinds (vy/msgpack.vy K_*).
K_NIL, K_BOOL, K_UINT, K_NINT, K_BIN, K_STR, K_ARRAY, K_MAP, K_FLOAT, K_EXT, K_INVALID = \
    range(1, 12)
#: msgpack_check.vy's limits on one call.
MAX_RECORDS = 512
MAX_TOKENS = 8192
MAX_HEADS = 256
#: Calldata a batch carries at most: at 16 gas a byte, well inside a 30M block.
MAX_BATCH_BYTES = 240_000
#: The encoders of `EvmMsgpack.encode`, by the number msgpack_check.vy gives them.
ENCODERS = ("uint", "int", "bin", "str", "array", "map")

T = TypeVar("T")


@dataclass(frozen=True)
class Token:
    """One header as read_header reads it: kind (K_*), value (the integer, a negative
    integer's magnitude, a length or a count) and next (where the bytes, the first item
    or the next value start), relative to the start of the value walked."""

    kind: int
    value: int
    next: int


def _u32(n: int) -> bytes:
    if not 0 <= n < 1 << 32:
        raise ValueError("a record's length or max_size is a u32")
    return n.to_bytes(4, "big")


def decode_words(output: bytes, index: int = 0) -> list[int]:
    """The uint256[] whose offset is the index-th head word of a return value."""
    offset = decode_word(output, index)
    count = decode_word(output[offset:], 0)
    return [decode_word(output[offset + WORD:], i) for i in range(count)]


def decode_bytes_list(output: bytes, index: int = 0) -> list[bytes]:
    """The bytes[] whose offset is the index-th head word of a return value."""
    offset = decode_word(output, index)
    count = decode_word(output[offset:], 0)
    items = output[offset + WORD:]
    out = []
    for i in range(count):
        at = decode_word(items, i)
        length = decode_word(items[at:], 0)
        out.append(items[at + WORD:at + WORD + length])
    return out


def _batches(items: Sequence[T], size: Callable[[T], int], max_count: int, limit: int,
             nbytes: Callable[[T], int]) -> list[list[T]]:
    """Consecutive batches of at most max_count items whose sizes add up to at most
    limit, and their bytes to at most MAX_BATCH_BYTES (an item over either goes alone)."""
    batches: list[list[T]] = []
    batch: list[T] = []
    load = used = 0
    for item in items:
        cost, n = size(item), nbytes(item)
        if batch and (len(batch) == max_count or load + cost > limit
                      or used + n > MAX_BATCH_BYTES):
            batches.append(batch)
            batch, load, used = [], 0, 0
        batch.append(item)
        load += cost
        used += n
    if batch:
        batches.append(batch)
    return batches


class EvmMsgpack:
    """msgpack_check.vy deployed on a harness (a new one unless given)."""

    def __init__(self, harness: EvmHarness | None = None) -> None:
        self.harness = harness or EvmHarness()
        self.contract: Contract = self.harness.deploy("msgpack_check.vy")

    def _call(self, method: str, args: Sequence[Arg], tail: bytes = b"") -> tuple[bytes, EvmGas]:
        data = self.contract.selectors[method] + encode_args(args) + tail
        return self.harness.transact(self.contract.address, data,
                                     f"{self.contract.name}.{method}")

    def unpack_code(self, data: bytes, max_size: int) -> tuple[str, EvmGas]:
        """8.1's unpack of `data` (the last bytes of calldata): "ok" or its code, and
        the call's gas."""
        output, gas = self._call("unpack_code", [Word(max_size)], data)
        return code_of(decode_word(output, 0)), gas

    def unpack_codes(self, items: Sequence[tuple[bytes, int]]) -> list[tuple[str, int]]:
        """8.1's unpack of each (data, max_size), batched: "ok" or its code, and the
        execution gas of the module's unpack_code for it alone."""
        out: list[tuple[str, int]] = []
        for batch in _batches(items, lambda item: 1, MAX_RECORDS, MAX_RECORDS,
                              lambda item: len(item[0]) + 8):
            tail = b"".join(_u32(len(d)) + _u32(m) + d for d, m in batch)
            output, _ = self._call("unpack_codes", [Word(len(batch))], tail)
            out += [(code_of(w & 0xff), w >> 8) for w in decode_words(output)]
        return out

    def walk(self, values: Sequence[bytes]) -> list[tuple[list[Token], int]]:
        """For each value (one that unpack accepts), its headers in order as read_header
        reads them, and its length as skip() finds it. A call returns at most MAX_TOKENS
        tokens, a value's headers and one more."""
        out: list[tuple[list[Token], int]] = []
        for batch in _batches(values, lambda v: header_count(v) + 1, MAX_RECORDS,
                              MAX_TOKENS, lambda v: len(v) + 4):
            tail = b"".join(_u32(len(v)) + v for v in batch)
            output, _ = self._call("walk", [Word(len(batch))], tail)
            tokens: list[Token] = []
            for w in decode_words(output):
                if w & 0xff == 0:
                    out.append((tokens, w >> 8))
                    tokens = []
                else:
                    tokens.append(Token(w & 0xff, (w >> 8) & ((1 << 88) - 1), w >> 96))
        return out

    def find(self, data: bytes, key: bytes) -> tuple[bool, int, bool, int]:
        """For the value `data`: str_equals(key) (equal?, where the str ends, or 0 if the
        value is no str) and map_find(key) (found?, where its value starts, or 0),
        positions relative to `data`."""
        start = 4 + len(encode_args([Word(0), Bytes(key)]))
        output, _ = self._call("find", [Word(start), Bytes(key)], data)
        same, after, found, at = (decode_word(output, i) for i in range(4))
        return bool(same), after - start, bool(found), at - start

    def encode(self, items: Sequence[tuple[str, int]]) -> list[bytes]:
        """What msgpack.vy's encoder gives for each (name of ENCODERS, value)."""
        out: list[bytes] = []
        for i in range(0, len(items), MAX_HEADS):
            words = tuple((ENCODERS.index(what), v % (1 << 256))
                          for what, v in items[i:i + MAX_HEADS])
            output, _ = self._call("encode", [WordsList(words)])
            out += decode_bytes_list(output)
        return out


def header_count(data: bytes) -> int:
    """How many headers the value `data` has (msgpack-python's count of its values)."""
    def count(value: Any) -> int:
        if isinstance(value, list):
            return 1 + sum(count(x) for x in value)
        if isinstance(value, dict):
            return 1 + sum(1 + count(v) for v in value.values())
        return 1

    try:
        return count(msgpack.unpackb(data, raw=False, strict_map_key=False))
    except (ValueError, TypeError, msgpack.UnpackException):
        return len(data)


def tokens_to_value(data: bytes, tokens: Sequence[Token]) -> Any:
    """The value that the tokens of `data` describe, as msgpack.unpackb(raw=False) gives
    it: lists for arrays, dicts for maps, later entries replacing earlier ones."""
    stream = iter(tokens)

    def value() -> Any:
        t = next(stream)
        if t.kind == K_NIL:
            return None
        if t.kind == K_BOOL:
            return bool(t.value)
        if t.kind == K_UINT:
            return t.value
        if t.kind == K_NINT:
            return -t.value
        if t.kind == K_BIN:
            return data[t.next:t.next + t.value]
        if t.kind == K_STR:
            return data[t.next:t.next + t.value].decode()
        if t.kind == K_ARRAY:
            return [value() for _ in range(t.value)]
        if t.kind == K_MAP:
            out = {}
            for _ in range(t.value):
                k = value()
                out[k] = value()
            return out
        raise ValueError(f"a header of kind {t.kind} has no value here")

    return value()


@cache
def shared() -> EvmMsgpack:
    """One deployment for this process's module-level calls."""
    return EvmMsgpack()


def unpack_code(data: bytes, max_size: int) -> tuple[str, EvmGas]:
    """8.1's unpack(data, max_size) as vy/msgpack.vy judges it: "ok" or the spec's code
    (peers.chain.codes.code_of), and the gas of the call, on this process's harness."""
    return shared().unpack_code(data, max_size)
