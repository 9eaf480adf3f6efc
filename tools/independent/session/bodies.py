"""Decoding frame bodies, spec/08-wire.md 8.5: points, two-scalar proofs and entries."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from independent.errors import fail_err
from independent.group.ops import accept_point, decode_scalar
from independent.wire.fields import f_array, f_bytes, f_int, f_list


def read_point(v: Any, what: str) -> bytes:
    """8.5: bytes of at most 33 (schema/bytes), then 2.3 (point/length first)."""
    return accept_point(f_bytes(v, what, at_most=33))


def read_proof64(v: Any, what: str, length_code: str) -> tuple[int, int]:
    """8.5: bytes of at most 65, then `length_code`, then two scalars (2.4)."""
    b = f_bytes(v, what, at_most=65)
    if len(b) != 64:
        fail_err(length_code, f"{what}: {len(b)} bytes")
    return decode_scalar(b[:32]), decode_scalar(b[32:])


@dataclass
class Entry:
    position: int
    share: bytes
    proof: tuple[int, int]


def read_entry(v: Any) -> Entry:
    e = f_array(v, 3, "entry")
    return Entry(f_int(e[0], "position", 0, 4095), read_point(e[1], "share"),
                 read_proof64(e[2], "share proof", "dleq/length"))


def read_entries(v: Any) -> list[Entry]:
    entries = [read_entry(x) for x in f_list(v, "entries")]
    pos = [e.position for e in entries]
    if any(a >= b for a, b in itertools.pairwise(pos)):
        fail_err("body/positions", "positions are not strictly ascending")
    return entries
