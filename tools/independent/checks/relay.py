"""relay_work.json: the relay's proof of work, from spec/12-peers.md 12.5 "Proof of work"."""

from __future__ import annotations

import json

from independent.checks.tally import VECTORS, Tally
from independent.group.hashing import H


def _zeros(digest: bytes) -> int:
    """Leading zero bits, the first byte's most significant bit first."""
    bits = 0
    for byte in digest:
        if byte:
            return bits + 8 - byte.bit_length()
        bits += 8
    return bits


def _work(challenge: bytes, room: str, nonce: int) -> bytes:
    return H("RELAY_WORK", challenge, room.encode("ascii"), nonce.to_bytes(8, "big"))


def check_relay(t: Tally) -> None:
    t.file = "relay_work.json"
    for i, case in enumerate(json.loads((VECTORS / t.file).read_text())["cases"]):
        challenge, room, bits = bytes.fromhex(case["challenge"]), case["room"], case["bits"]
        found = _work(challenge, room, case["nonce"])
        t.eq(f"case {i} hash", found.hex(), case["hash"])
        t.ok(f"case {i} meets {bits} bits", _zeros(found) >= bits)
        t.ok(f"case {i} is the first nonce from 0",
             all(_zeros(_work(challenge, room, n)) < bits for n in range(case["nonce"])))
        if "short_nonce" in case:
            short = _work(challenge, room, case["short_nonce"])
            t.eq(f"case {i} short hash", short.hex(), case["short_hash"])
            t.ok(f"case {i} short nonce falls short", _zeros(short) < bits)
