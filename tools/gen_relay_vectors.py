#!/usr/bin/env python3
"""Generate spec/vectors/relay_work.json: the relay's proof of work (spec/12-peers.md 12.5).

Each case gives a challenge, a room id and a difficulty in bits, the first nonce (counting
from 0) that meets it with the hash it gives, and the nonce before it that does not, so a
checker reproduces both the hash and the rule "starts with B zero bits". The challenges
are `SHA-512("dealerless-vectors/" || label)[:16]`.

Usage: python tools/gen_relay_vectors.py [--check]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol.relay_work import solve, work_hash, zero_bits

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "relay_work.json"
CASES = [("relay-work/0", "0123456789abcdef", 0), ("relay-work/1", "ab" * 16, 4),
         ("relay-work/2", "ab" * 16, 9), ("relay-work/3", "f0" * 32, 12)]


def challenge(label: str) -> bytes:
    return hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest()[:16]


def build() -> dict[str, Any]:
    cases = []
    for label, room, bits in CASES:
        c = challenge(label)
        nonce = solve(c, room, bits)
        assert nonce is not None
        case: dict[str, Any] = {"challenge": c.hex(), "room": room, "bits": bits,
                                "nonce": nonce, "hash": work_hash(c, room, nonce).hex()}
        if nonce > 0:   # the nonce before it falls short
            before = work_hash(c, room, nonce - 1)
            assert zero_bits(before) < bits
            case["short_nonce"], case["short_hash"] = nonce - 1, before.hex()
        cases.append(case)
    return {"description": "relay proof of work (spec/12-peers.md 12.5): the first nonce "
                           "from 0 whose H(RELAY_WORK, challenge, room, u64(nonce)) starts "
                           "with `bits` zero bits", "cases": cases}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    text = json.dumps(build(), indent=1, sort_keys=True) + "\n"
    if ap.parse_args().check:
        if not OUT.exists() or OUT.read_text() != text:
            print("stale: relay_work.json (run python tools/gen_relay_vectors.py)")
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
