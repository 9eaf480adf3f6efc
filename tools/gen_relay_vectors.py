#!/usr/bin/env python3
"""Generate spec/vectors/relay_work.json and relay_entry.json: the relay's proof of work
and room key (spec/12-peers.md 12.5).

Each work case gives a challenge, a room id and a difficulty in bits, the first nonce
(counting from 0) that meets it with the hash it gives, and the nonce before it that does
not, so a checker reproduces both the hash and the rule "starts with B zero bits". Each
entry case gives an invitation secret and a room id, the room's seed and public key, a
challenge and the entry signature, and the same signature offered for another challenge
and another room, where it must fail. Challenges and secrets are
`SHA-512("dealerless-vectors/" || label)[:16]`.

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

from protocol.relay_entry import entry_message, entry_valid, room_key, room_seed, sign_entry
from protocol.relay_work import solve, work_hash, zero_bits

VECTORS = Path(__file__).resolve().parent.parent / "spec" / "vectors"
OUT, ENTRY_OUT = VECTORS / "relay_work.json", VECTORS / "relay_entry.json"
ENTRY_CASES = [("relay-entry/0", "0123456789abcdef" * 2), ("relay-entry/1", "ab" * 16)]
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


def build_entry() -> dict[str, Any]:
    cases = []
    for label, room in ENTRY_CASES:
        secret, c = challenge(label + "/secret"), challenge(label + "/challenge")
        seed = room_seed(secret, room)
        key, signature = room_key(seed), sign_entry(seed, c, room)
        other = challenge(label + "/other")
        assert entry_valid(key, c, room, signature)
        assert not entry_valid(key, other, room, signature)
        assert not entry_valid(key, c, "cd" * 16, signature)
        cases.append({"secret": secret.hex(), "room": room, "seed": seed.hex(),
                      "key": key.hex(), "challenge": c.hex(),
                      "message": entry_message(c, room).hex(),
                      "signature": signature.hex(), "other_challenge": other.hex(),
                      "other_room": "cd" * 16})
    return {"description": "relay room key (spec/12-peers.md 12.5 \"Room key\"): seed = "
                           "H(RELAY_ROOM_KEY, secret, room)[:32], key its Ed25519 public "
                           "key, signature the Ed25519 signature of H(RELAY_ENTRY, "
                           "challenge, room); the same signature fails for other_challenge "
                           "and for other_room", "cases": cases}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    check = ap.parse_args().check
    stale = 0
    for out, built in ((OUT, build()), (ENTRY_OUT, build_entry())):
        text = json.dumps(built, indent=1, sort_keys=True) + "\n"
        if not check:
            out.write_text(text)
        elif not out.exists() or out.read_text() != text:
            print(f"stale: {out.name} (run python tools/gen_relay_vectors.py)")
            stale = 1
    return stale


if __name__ == "__main__":
    sys.exit(main())
