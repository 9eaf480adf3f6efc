"""The relay's proof of work (spec/12-peers.md 12.5) against spec/vectors/relay_work.json,
and the difficulty rule."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from peers.net.relay_admission import Admission
from peers.net.relay_limits import Limits
from protocol.errors import LocalError
from protocol.relay_entry import entry_message, entry_valid, room_key, room_seed, sign_entry
from protocol.relay_work import MAX_WORK_BITS, meets, solve, work_hash, zero_bits

VECTORS = json.loads((Path(__file__).resolve().parent.parent / "spec" / "vectors"
                      / "relay_work.json").read_text())["cases"]


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: f"{c['bits']}-bits")
def test_the_vectors_hash_meet_and_fall_short_as_listed(case: dict[str, object]) -> None:
    challenge, room = bytes.fromhex(str(case["challenge"])), str(case["room"])
    bits, nonce = int(str(case["bits"])), int(str(case["nonce"]))
    assert work_hash(challenge, room, nonce).hex() == case["hash"]
    assert solve(challenge, room, bits) == nonce and meets(challenge, room, nonce, bits)
    if "short_nonce" in case:
        short = int(str(case["short_nonce"]))
        assert work_hash(challenge, room, short).hex() == case["short_hash"]
        assert not meets(challenge, room, short, bits)


def test_an_answer_is_bound_to_its_challenge_and_room() -> None:
    challenge = os.urandom(16)
    nonce = solve(challenge, "ab" * 16, 10)
    assert nonce is not None and zero_bits(work_hash(challenge, "ab" * 16, nonce)) >= 10
    other = bytes(16) if challenge != bytes(16) else b"\x01" * 16
    # another challenge or room asks for other work (each fails with odds 1023/1024)
    tries = [meets(other, "ab" * 16, nonce, 10), meets(challenge, "cd" * 16, nonce, 10)]
    assert tries.count(True) <= 1
    assert not meets(challenge[:15], "ab" * 16, nonce, 10)     # a short challenge
    with pytest.raises(LocalError):
        solve(challenge, "ab" * 16, MAX_WORK_BITS + 1)


def test_difficulty_grows_steeply_with_load_and_with_the_rooms_a_network_holds() -> None:
    admission = Admission(Limits(work_bits=16, max_rooms=256))
    assert [admission.work_bits(0, n) for n in (0, 85, 128, 192, 230, 256)] == \
        [16, 16, 18, 20, 22, 24]
    assert [admission.work_bits(n, 0) for n in (1, 2, 3, 4, 15)] == [17, 18, 18, 19, 20]
    assert Admission(Limits(work_bits=27)).work_bits(15, 255) == MAX_WORK_BITS


ENTRY = json.loads((Path(__file__).resolve().parent.parent / "spec" / "vectors"
                    / "relay_entry.json").read_text())["cases"]


@pytest.mark.parametrize("case", ENTRY, ids=lambda c: str(c["room"])[:8])
def test_the_room_key_vectors_derive_sign_and_fail_as_listed(case: dict[str, str]) -> None:
    secret, room = bytes.fromhex(case["secret"]), case["room"]
    seed = room_seed(secret, room)
    assert seed.hex() == case["seed"] and room_key(seed).hex() == case["key"]
    challenge, signature = bytes.fromhex(case["challenge"]), bytes.fromhex(case["signature"])
    assert entry_message(challenge, room).hex() == case["message"]
    assert sign_entry(seed, challenge, room) == signature
    key = bytes.fromhex(case["key"])
    assert entry_valid(key, challenge, room, signature)
    assert not entry_valid(key, bytes.fromhex(case["other_challenge"]), room, signature)
    assert not entry_valid(key, challenge, case["other_room"], signature)
    assert not entry_valid(bytes(32), challenge, room, signature)        # a small-order key
    assert not entry_valid(key, challenge, room, signature[:63])          # a short one
