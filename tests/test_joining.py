"""A joiner's handshake record (spec/12-peers.md 12.3, "Restarting a joiner"): written
0600 under <home>/joining, taken up by the same key's `join` of the same invitation,
refused in one sentence naming the file (exit 1, left for the user to remove) when it
does not decode. The restart itself,
with real processes, is in test_crash_commitments.py."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from invites import table_of

from peers.entropy import Entropy
from peers.net.config import JOIN, PeerConfig
from peers.net.handshake import Handshake
from peers.net.joining import Joining
from peers.net.messages import PROTOCOL_VERSION, Roster, hello_commitment, pack_message
from peers.net.pacing import AnswerLimit
from peers.net.records import RecordError
from peers.store.games import GameStore, StoreError
from peers.table.selfplay import Table, rule_params
from protocol.canonical import pack, unpack
from protocol.identity import Identity
from protocol.setup import GameSetup

URL = "ws://127.0.0.1:9/dealerless/" + "ab" * 16
HOST_KEY, KEY, OTHER = (Identity(bytes([i]) * 32).public_key for i in range(3))
SHARE = Identity(bytes([9]) * 32).public_key   # any point of the group will do here
SIGNATURE = bytes(64)   # records keep messages as they arrived, signature last


def host_hello(round_: int = 0) -> bytes:
    return pack(["hello", PROTOCOL_VERSION, "host", HOST_KEY, hello_commitment(b"h" * 32),
                 "mined-games", {"seats": 3}, 3, round_, [SHARE, SHARE], "ristretto255-sha512",
                 SIGNATURE])


def _roster_of(setup: GameSetup) -> Roster:
    """The roster of a stored game of a suite signed by Ed25519 (no bindings)."""
    return Roster.of(setup, setup.identities, (b"",) * setup.seats)


def roster(nonce: bytes, key: bytes = KEY) -> bytes:
    """The host's roster seating `key` with the commitment to `nonce` in seat 1."""
    return pack([*Roster((HOST_KEY, key, OTHER),
                         (hello_commitment(b"h" * 32), hello_commitment(nonce), bytes(32)),
                         (HOST_KEY, key, OTHER), (b"",) * 3).body(), SIGNATURE])


def test_a_record_is_taken_up_by_the_same_key_and_invitation_only(tmp_path: Path) -> None:
    games = tmp_path / "games"
    first = Joining.take_up(games, KEY, URL)
    assert first.path is not None and not first.path.exists()   # not written yet
    first.keep()
    assert first.path.parent == tmp_path / "joining"
    assert stat.S_IMODE(os.stat(first.path).st_mode) == 0o600
    first.offer, first.roster = host_hello(2), roster(first.nonce)
    first.keep()
    again = Joining.take_up(games, KEY, URL)
    assert (again.nonce, again.offer, again.roster) == (first.nonce, host_hello(2),
                                                        roster(first.nonce))
    assert again.offered().round == 2 and again.offered().seats == 3
    assert again.seated().keys[1] == KEY
    for key, url in ((OTHER, URL), (KEY, URL + "0")):
        assert Joining.take_up(games, key, url).nonce != first.nonce
    assert again.path is not None
    leftover = again.path.parent / f".{again.path.name}.x1y2z3.tmp"   # a write cut short
    leftover.write_bytes(b"nonce")
    Joining.take_up(games, KEY, URL)
    assert not leftover.exists()
    leftover.write_bytes(b"nonce")
    again.remove()
    again.remove()   # gone already: nothing to do
    assert not list(again.path.parent.iterdir())
    assert Joining.take_up(games, KEY, URL).nonce != first.nonce


def test_without_an_invitation_url_nothing_is_written(tmp_path: Path) -> None:
    kept = Joining.take_up(tmp_path / "games", KEY, "")
    kept.keep()
    kept.remove()
    assert kept.path is None and not (tmp_path / "joining").exists()


@pytest.mark.parametrize(("data", "why"), [
    (b"\xc1", "does not decode"),
    (pack(["joining", 1, b"short", None, None]), "does not decode"),
    (pack(["joining", 2, bytes(32), None, None]), "not a joining record of version 1"),
    (pack(["joining", 1, bytes(32), None, -1]), "does not decode"),
    (pack(["joining", 1, bytes(32), None, roster(bytes(32))]), "hello that does not"),
    (pack(["joining", 1, bytes(32), host_hello(), roster(bytes(32), HOST_KEY)]),
     "does not decode"),
    (pack(["joining", 1, bytes(32), host_hello(), roster(bytes(32), SHARE)]),
     "does not seat this key"),
    (pack(["joining", 1, bytes(32), host_hello(), roster(b"n" * 32)]), "does not seat"),
    (pack(["joining", 1, bytes(32), host_hello(), host_hello()]), "roster that does not"),
    (pack(["joining", 1, bytes(32), b"not a hello", None]), "hello that does not decode"),
    (pack(["joining", 1, bytes(32), pack_message("hello"), None]), "hello that does not"),
    (pack(["joining", 1, bytes(32), pack_message("roster", 1, 2), None]), "hello that does"),
])
def test_a_record_that_does_not_decode_stops_join_naming_the_file(
        tmp_path: Path, data: bytes, why: str) -> None:
    kept = Joining.take_up(tmp_path / "games", KEY, URL)
    kept.keep()
    assert kept.path is not None
    kept.path.write_bytes(data)
    with pytest.raises(RecordError, match=why) as refused:
        Joining.take_up(tmp_path / "games", KEY, URL)
    assert str(kept.path) in str(refused.value)


def test_a_join_run_again_after_its_database_was_made_goes_on_from_it(
        tmp_path: Path) -> None:
    table = Table.create("bram", rule_params("bram", 2), ["greedy"] * 2, Entropy(8))
    games = tmp_path / "games"
    first = GameStore.create(games, table.setup, 1, bytes(range(32)), {"role": "join"})
    first.append(0, table.step() or b"")
    first.close()
    seen: list[GameStore] = []
    config = PeerConfig(games_dir=games, role=JOIN, identity=table.agents[1].identity,
                        choose=None, notify=lambda e: None,  # type: ignore[arg-type]
                        invitation=table_of(tmp_path, 1)[1])
    handshake = Handshake(None, config, AnswerLimit(0.5), seen.append)  # type: ignore[arg-type]
    again = handshake._create_store(table.setup, 1, _roster_of(table.setup))
    assert again.path == first.path and again.frame_count() == 1 and seen == [again]
    assert again.secret_seed == bytes(range(32))
    again.close()
    with pytest.raises(StoreError, match="already exists"):   # not this seat's game
        handshake._create_store(table.setup, 0, _roster_of(table.setup))


def test_a_record_of_another_peer_protocol_is_dropped(tmp_path: Path) -> None:
    """12.3: a record whose host hello is of another peer protocol version (kept by an
    older build) is removed, and the join starts afresh with a new nonce."""
    games = tmp_path / "games"
    first = Joining.take_up(games, KEY, URL)
    old = unpack(host_hello(2), 1 << 17)
    old[1] = PROTOCOL_VERSION - 1
    first.offer = pack(old)
    first.keep()
    again = Joining.take_up(games, KEY, URL)
    assert again.offer is None and again.nonce != first.nonce
    assert first.path is not None and not first.path.exists()
