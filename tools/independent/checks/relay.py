"""relay_work.json: the relay's proof of work, from spec/12-peers.md 12.5 "Proof of work";
relay_entry.json: a relay room's key and entry signature, from 12.5 "Room key". Both hash
before a game, with H of edwards25519-sha512 at protocol version 3 (3.5 "What is not the
game's")."""

from __future__ import annotations

import json

from independent.checks.tally import VECTORS, Tally
from independent.group.suites import PRE_GAME
from independent.wire.ed25519 import ed25519_sign, ed25519_verify, public_key


def _zeros(digest: bytes) -> int:
    """Leading zero bits, the first byte's most significant bit first."""
    bits = 0
    for byte in digest:
        if byte:
            return bits + 8 - byte.bit_length()
        bits += 8
    return bits


def _work(challenge: bytes, room: str, nonce: int) -> bytes:
    return PRE_GAME.H("RELAY_WORK", challenge, room.encode("ascii"), nonce.to_bytes(8, "big"))


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


def _room_seed(secret: bytes, room: str) -> bytes:
    """12.5 "Room key": the first 32 bytes of H(RELAY_ROOM_KEY, SECRET, id), id as its
    ASCII hex digits (SECRET the invitation's 16 bytes, 12.3)."""
    return PRE_GAME.H("RELAY_ROOM_KEY", secret, room.encode("ascii"))[:32]


def _entry_message(challenge: bytes, room: str) -> bytes:
    """12.5 "Room key": what G signs for challenge C, H(RELAY_ENTRY, C, id); C as its 16
    bytes and id as its ASCII hex digits, as in the proof of work."""
    return PRE_GAME.H("RELAY_ENTRY", challenge, room.encode("ascii"))


def check_entry(t: Tally) -> None:
    t.file = "relay_entry.json"
    for i, case in enumerate(json.loads((VECTORS / t.file).read_text())["cases"]):
        secret, room = bytes.fromhex(case["secret"]), case["room"]
        challenge = bytes.fromhex(case["challenge"])
        t.eq(f"case {i} secret is 16 bytes", len(secret), 16)
        t.eq(f"case {i} challenge is 16 bytes", len(challenge), 16)
        seed = _room_seed(secret, room)
        t.eq(f"case {i} seed", seed.hex(), case["seed"])
        key = public_key(seed)
        t.eq(f"case {i} key", key.hex(), case["key"])
        message = _entry_message(challenge, room)
        t.eq(f"case {i} message", message.hex(), case["message"])
        sig = ed25519_sign(seed, message)  # 8.3 Sign: deterministic
        t.eq(f"case {i} signature", sig.hex(), case["signature"])
        given = bytes.fromhex(case["signature"])
        t.eq(f"case {i} signature verifies under key (8.3)",
             ed25519_verify(bytes.fromhex(case["key"]), message, given), "ok")
        other = bytes.fromhex(case["other_challenge"])
        t.ok(f"case {i} other_challenge differs", other != challenge)
        t.ok(f"case {i} signature fails for other_challenge",
             ed25519_verify(key, _entry_message(other, room), given) != "ok")
        other_room = case["other_room"]
        t.ok(f"case {i} other_room differs", other_room != room)
        moved = _entry_message(challenge, other_room)
        # the relay holds the other room's K; the signature fails under it and under K
        t.ok(f"case {i} signature fails for other_room under its key",
             ed25519_verify(public_key(_room_seed(secret, other_room)), moved, given) != "ok")
        t.ok(f"case {i} signature fails for other_room under this room's key",
             ed25519_verify(key, moved, given) != "ok")
