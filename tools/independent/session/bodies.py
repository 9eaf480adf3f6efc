"""Decoding frame bodies, spec/08-wire.md 8.5: points, two-scalar proofs and entries, in
the game's suite (3.5: a point is P bytes, 32 or 48; a scalar 32); the shares of a DEAL,
REVEAL or DRAW as dealerless/2's entries or, from dealerless/3, as pairs with one batch
proof (6.3.1).

[P1] 8.5 (dealerless/3): "the proof: nil with no pairs, else bytes of at most 65
     (`schema/bytes`) of exactly 64 (`dleq/length`, which is also the code of nil with
     pairs and of bytes with none)". Read as: any proof other than nil is first read as
     bytes of at most 65 (`schema/bytes`: a text, an integer, or more than 65 bytes, with
     or without pairs); then nil with pairs, bytes with no pairs, or bytes of another
     length than 64 are `dleq/length`; then its two scalars (2.4)."""

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

@dataclass
class Shares:
    """A DEAL, REVEAL or DRAW body: its positions (strictly ascending) and shares, with one
    proof per entry (dealerless/2) or one batch proof, None with no pairs (dealerless/3)."""

    positions: list[int]
    shares: list[bytes]
    proofs: list[tuple[int, int]]
    batch: tuple[int, int] | None


def read_pair(s: Suite, v: Any) -> tuple[int, bytes]:
    """8.5 pair (dealerless/3): array(2), position int(0, 4095), share (a point)."""
    e = f_array(v, 2, "pair")
    return f_int(e[0], "position", 0, 4095), read_point(s, e[1], "share")


def read_batch_proof(s: Suite, v: Any, pairs: int) -> tuple[int, int] | None:
    """8.5 (dealerless/3): nil exactly when there are no pairs, else c || s [P1]."""
    if v is None:
        if pairs:
            fail_err("dleq/length", f"batch proof: nil with {pairs} pairs")
        return None
    b = f_bytes(v, "batch proof", at_most=65)
    if not pairs or len(b) != 64:
        fail_err("dleq/length", f"batch proof: {len(b)} bytes with {pairs} pairs")
    return s.ops.scalar(b[:32]), s.ops.scalar(b[32:])


def read_shares(s: Suite, v: Any) -> Shares:
    """8.5 DEAL, REVEAL, DRAW: list(4096) of entries (dealerless/2), or from dealerless/3
    array(2) of list(4096) of pairs and the batch proof; then body/positions."""
    if s.version == 2:
        entries = [read_entry(s, x) for x in f_list(v, "entries")]
        out = Shares([e.position for e in entries], [e.share for e in entries],
                     [e.proof for e in entries], None)
    else:
        b = f_array(v, 2, "shares body")
        pairs = [read_pair(s, x) for x in f_list(b[0], "pairs")]
        out = Shares([p for p, _ in pairs], [d for _, d in pairs], [],
                     read_batch_proof(s, b[1], len(pairs)))
    if any(a >= b for a, b in itertools.pairwise(out.positions)):
        fail_err("body/positions", "positions are not strictly ascending")
    return out
