"""A host's handshake record (spec/12-peers.md 12.3, "Restarting a seat"): written 0600
under <home>/hosting, taken up by a `host` of the same table only, dropped once older than
the handshake's timeout, refused in one sentence naming the file when it does not decode.
The restart itself, with real processes, is in test_crash_commitments.py."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest
from invites import table_of

from peers.net.config import HOST, PeerConfig
from peers.net.handshake import Handshake
from peers.net.hosting import Hosting, seated
from peers.net.messages import Roster, hello_commitment
from peers.net.pacing import AnswerLimit
from peers.net.records import RecordError
from peers.table.selfplay import rule_params
from protocol.canonical import pack, unpack
from protocol.identity import Identity

PARAMS = rule_params("mined-games", 3)
WHERE = "listen 127.0.0.1:0"
META = {"url": "ws://127.0.0.1:5/dealerless/" + "cd" * 16, "listen": "127.0.0.1:5",
        "path": "/dealerless/" + "cd" * 16}
KEY, A, B = (Identity(bytes([i]) * 32).public_key for i in range(3))
SUITE = "ristretto255-sha512"   # whose frame keys are the identity keys (12.3)


def signed(roster: Roster) -> bytes:
    """A roster message as the record keeps it (the host's signature is its last item)."""
    return pack([*roster.body(), bytes(64)])


def kept(home: Path, roster: bool = False) -> Hosting:
    record = Hosting.take_up(home, "mined-games", PARAMS, WHERE, 60, SUITE)
    record.key, record.meta, record.round = KEY, dict(META), 2
    if roster:
        record.roster = signed(Roster((KEY, A, B),
                                      (hello_commitment(record.nonce), bytes(32), bytes(32)),
                                      (KEY, A, B), (b"",) * 3))
    record.keep()
    return record


def test_a_record_is_taken_up_by_the_same_table_only(tmp_path: Path) -> None:
    first = kept(tmp_path, roster=True)
    assert first.path.parent == tmp_path / "hosting" and not first.taken_up
    assert stat.S_IMODE(os.stat(first.path).st_mode) == 0o600
    again = Hosting.take_up(tmp_path, "mined-games", PARAMS, WHERE, 60, SUITE)
    assert again.taken_up and (again.nonce, again.round, again.key, again.roster, again.meta) \
        == (first.nonce, 2, KEY, first.roster, META)
    assert seated(again, "mined-games", PARAMS, SUITE).keys[0] == KEY
    for rules, where, suite in (("mined-games", "listen 127.0.0.1:7", SUITE),
                                ("bram", WHERE, SUITE),
                                ("mined-games", WHERE, "bls12381g1-sha256")):
        other = Hosting.take_up(tmp_path, rules, rule_params(rules, 3 if rules != "bram" else 2),
                                where, 60, suite)
        assert not other.taken_up and other.nonce != first.nonce
    again.remove()
    assert not list(first.path.parent.iterdir())


def test_a_record_older_than_the_timeout_is_dropped(tmp_path: Path) -> None:
    first = kept(tmp_path)
    old = first.path.stat().st_mtime - 61
    os.utime(first.path, (old, old))
    again = Hosting.take_up(tmp_path, "mined-games", PARAMS, WHERE, 60, SUITE)
    assert not again.taken_up and again.nonce != first.nonce and not first.path.exists()


def test_a_record_of_another_key_stops_the_host(tmp_path: Path) -> None:
    first = kept(tmp_path)
    config = PeerConfig(games_dir=tmp_path / "games", role=HOST,
                        identity=Identity(b"\1" * 32), choose=None,  # type: ignore[arg-type]
                        notify=lambda e: None, rules="mined-games", params=PARAMS,
                        hosting=Hosting.take_up(tmp_path, "mined-games", PARAMS, WHERE, 60, SUITE),
                        invitation=table_of(tmp_path)[1])
    handshake = Handshake(None, config, AnswerLimit(0.5), lambda s: None)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=f"{first.path} was written by another identity key"):
        asyncio.run(handshake.run())


def bad(record: Hosting, **items: object) -> bytes:
    fields = {"table": record.table, "key": KEY, "nonce": record.nonce, "pake": record.pake,
              "round": 2, "roster": None, "meta": META, "secret": record.secret, **items}
    return pack(["hosting", 4, *fields.values()])


@pytest.mark.parametrize(("items", "why"), [
    ({"nonce": b"short"}, "does not decode"),
    ({"round": -1}, "does not decode"),
    ({"key": None}, "does not decode"),
    ({"secret": b"short"}, "does not decode"),
    ({"table": pack(["bram", {}, WHERE, SUITE])}, "holds another table"),
    ({"table": pack(["mined-games", PARAMS, WHERE])}, "holds another table"),
    ({"meta": {"url": META["url"]}}, "does not say where the table is"),
    ({"meta": {**META, "path": 5}}, "does not decode"),
    ({"roster": b"\x93"}, "holds a roster that does not decode"),
    ({"roster": signed(Roster((KEY, A, B), (bytes(32),) * 3, (KEY, A, B), (b"",) * 3))},
     "not the roster of this host's round"),
    ({"roster": pack([*Roster((KEY, A, B), (bytes(32),) * 3, (KEY, A, B), (b"",) * 3).body()[:4],
                      bytes(64)])}, "does not decode"),
])
def test_a_record_that_does_not_decode_stops_host_naming_the_file(
        tmp_path: Path, items: dict[str, object], why: str) -> None:
    record = kept(tmp_path)
    record.path.write_bytes(bad(record, **items))
    with pytest.raises(RecordError, match=why) as refused:
        Hosting.take_up(tmp_path, "mined-games", PARAMS, WHERE, 60, SUITE)
    assert str(record.path) in str(refused.value)


@pytest.mark.parametrize(("data", "why"), [
    (b"\xc1", "does not decode"),
    (pack(["hosting", 1]), "does not decode"),
    (pack(["joining", 1, 2, 3, 4, 5, 6, 7, 8, 9]), "is not a hosting record of version 4"),
    (pack(["hosting", 5, 2, 3, 4, 5, 6, 7, 8, 9]), "is not a hosting record of version 4"),
])
def test_another_format_stops_host_naming_the_file(tmp_path: Path, data: bytes,
                                                   why: str) -> None:
    record = kept(tmp_path)
    record.path.write_bytes(data)
    with pytest.raises(RecordError, match=why) as refused:
        Hosting.take_up(tmp_path, "mined-games", PARAMS, WHERE, 60, SUITE)
    assert str(record.path) in str(refused.value)


def test_records_of_older_formats_are_removed_not_refused(tmp_path: Path) -> None:
    """12.3: a record of format 3 (peer protocol 9) and one of format 2, named without the
    suite, are removed when `host` starts: no joiner of this version answers their round,
    and the table secret they hold must not linger."""
    import hashlib

    fresh = Hosting.take_up(tmp_path, "mined-games", PARAMS, WHERE, 60, SUITE)
    old = bad(fresh)
    fresh.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fresh.path.write_bytes(pack(["hosting", 3, *unpack(old, 1 << 17)[2:]]))
    legacy = fresh.path.parent / hashlib.sha256(
        pack(["mined-games", PARAMS, WHERE])).hexdigest()[:32]
    legacy.write_bytes(pack(["hosting", 2, b"x"]))
    again = Hosting.take_up(tmp_path, "mined-games", PARAMS, WHERE, 60, SUITE)
    assert not again.taken_up and again.secret != fresh.secret
    assert not fresh.path.exists() and not legacy.exists()
