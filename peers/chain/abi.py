"""The few Solidity-ABI encodings the contracts of peers/chain/vy take and give.

Only what their functions use: words (uint, bytes32), a fixed array of words
(`uint256[2]`, a decoding hint), `bytes`, `bytes[]` and `uint256[2][]` (many hints). A
head holds each static value or, for a dynamic one, the offset of its tail from the start
of the arguments; a tail is a length word and the bytes padded to whole words, or the
items in place for an array of static items (the ABI specification, "Formal
Specification of the Encoding").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WORD = 32


@dataclass(frozen=True)
class Word:
    """A uint of any width up to 256 bits, or a bytes32 given as an integer."""

    value: int


@dataclass(frozen=True)
class Words:
    """A fixed-size array of words such as uint256[2]: static, encoded in place."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class Bytes:
    """`bytes`: dynamic."""

    data: bytes


@dataclass(frozen=True)
class BytesList:
    """`bytes[]`: dynamic, each element dynamic too."""

    items: tuple[bytes, ...]


@dataclass(frozen=True)
class WordsList:
    """A dynamic array of fixed-size word arrays, such as uint256[2][]: its tail is the
    count, then every item's words in place."""

    items: tuple[tuple[int, ...], ...]


Arg = Word | Words | Bytes | BytesList | WordsList


def word(value: int) -> bytes:
    if not 0 <= value < 1 << 256:
        raise ValueError("an ABI word holds 0 <= value < 2^256")
    return value.to_bytes(WORD, "big")


def _padded(data: bytes) -> bytes:
    return word(len(data)) + data + bytes(-len(data) % WORD)


def _tail(arg: Bytes | BytesList | WordsList) -> bytes:
    if isinstance(arg, Bytes):
        return _padded(arg.data)
    if isinstance(arg, WordsList):
        return word(len(arg.items)) + b"".join(word(v) for item in arg.items for v in item)
    encoded = [_padded(item) for item in arg.items]
    head, offset = b"", WORD * len(encoded)
    for item in encoded:
        head += word(offset)
        offset += len(item)
    return word(len(encoded)) + head + b"".join(encoded)


def encode_args(args: Sequence[Arg]) -> bytes:
    """The arguments of a call, after its 4-byte selector."""
    head_size = sum(WORD * len(a.values) if isinstance(a, Words) else WORD for a in args)
    head, tail = b"", b""
    for arg in args:
        if isinstance(arg, Word):
            head += word(arg.value)
        elif isinstance(arg, Words):
            head += b"".join(word(v) for v in arg.values)
        else:
            head += word(head_size + len(tail))
            tail += _tail(arg)
    return head + tail


def decode_word(output: bytes, index: int) -> int:
    """The index-th head word of a return value."""
    if len(output) < WORD * (index + 1):
        raise ValueError("the return value is shorter than its head")
    return int.from_bytes(output[WORD * index:WORD * (index + 1)], "big")


def decode_bytes(output: bytes, index: int) -> bytes:
    """The `bytes` whose offset is the index-th head word of a return value."""
    offset = decode_word(output, index)
    length = decode_word(output[offset:], 0)
    data = output[offset + WORD:offset + WORD + length]
    if len(data) != length:
        raise ValueError("a bytes value runs past the end of the return value")
    return data
