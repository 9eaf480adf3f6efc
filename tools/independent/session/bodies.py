"""Decoding frame bodies, spec/08-wire.md 8.5: points, two-scalar proofs and entries, in
the game's suite (3.5: a point is P bytes, 32 or 48; a scalar 32)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from independent.errors import fail_err
from independent.group.suites import Suite
from independent.wire.fields import f_array, f_bytes, f_int, f_list


def read_point(s: Suite, v: Any, what: str) -> bytes:
    """8.5: bytes of at most P + 1 (schema/bytes), then 2.3 / 2.5 (point/length first)."""
    return s.ops.accept(f_bytes(v, what, at_most=s.ops.P + 1))


def read_proof64(s: Suite, v: Any, what: str, length_code: str) -> tuple[int, int]:
    """8.5: bytes of at most 65, then `length_code`, then two scalars (2.4, 2.5)."""
    b = f_bytes(v, what, at_most=65)
    if len(b) != 64:
        fail_err(length_code, f"{what}: {len(b)} bytes")
    return s.ops.scalar(b[:32]), s.ops.scalar(b[32:])


@dataclass
class Entry:
    position: int
    share: bytes
    proof: tuple[int, int]


def read_entry(s: Suite, v: Any) -> Entry:
    e = f_array(v, 3, "entry")
    return Entry(f_int(e[0], "position", 0, 4095), read_point(s, e[1], "share"),
                 read_proof64(s, e[2], "share proof", "dleq/length"))


def read_entries(s: Suite, v: Any) -> list[Entry]:
    entries = [read_entry(s, x) for x in f_list(v, "entries")]
    pos = [e.position for e in entries]
    if any(a >= b for a, b in itertools.pairwise(pos)):
        fail_err("body/positions", "positions are not strictly ascending")
    return entries
