"""Networked tables in every ciphersuite (spec/12-peers.md 12.1, 12.3 "Messages" and
"Authentication", "Frame-key bindings", 12.5 "Suites"; issue 31).

The host's signed hello names the table's suite and every seat announces its frame key in
it, so a game of bls12381g1-sha256, whose frames are signed with keys of G1, is played
between peers as one of the suites signed by Ed25519 is. A joiner asked for another suite
leaves naming both; a host never seats one; a relay with `--suite` admits only rooms of
its suites.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from invites import join_hello, table_of
from relay_helpers import SEED
from test_network import config as network_config
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from peers.bench.relay_load import BENCH_SECRET, enter_room
from peers.net.config import HOST, JOIN, PeerConfig, PeerError, PeerResult
from peers.net.link import ClientLink, HostLink, LinkError, MemoryLink
from peers.net.messages import PROTOCOL_VERSION, hello_commitment
from peers.net.peer import Peer
from peers.net.relay import Relay
from peers.net.relay_gate import open_room
from peers.store.games import GameStore
from peers.store.seats import KEYS_META, seat_keys
from peers.table.driver import SetupEvent
from protocol.canonical import pack, unpack
from protocol.identity import Identity, fingerprint
from protocol.suite import SUITE_NAMES, suite
from protocol.transcript import Transcript
from protocol.verifier import replay

CLI = [sys.executable, "-m", "peers.cli"]
BLS = "bls12381g1-sha256"


def config(tmp: Path, role: str, played: str | None, **kw: Any) -> PeerConfig:
    """test_network's greedy seat; `played` the host's suite, or the one a joiner asks for
    (None: the host's)."""
    return network_config(tmp, role, suite=played, **kw)


def stored(result: PeerResult) -> tuple[bytes, str]:
    store = GameStore.open(result.path)
    try:
        return store.transcript().encode(), store.meta(KEYS_META)
    finally:
        store.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("played", SUITE_NAMES)
async def test_a_game_over_loopback_in_each_suite(tmp_path: Path, played: str) -> None:
    """Host and joiner over real websockets on loopback: directly in the suites signed by
    Ed25519, through a relay that admits bls12381g1-sha256 only in that one. The joiner
    names no suite and plays the host's; the setup holds the seats' frame keys in it, the
    games' databases their identity keys, and both seats see the suite."""
    server = None
    if played == BLS:
        relay = Relay(suites=frozenset({BLS}))
        server, port = await relay.serve("127.0.0.1", 0)
        url = f"ws://127.0.0.1:{port}/room/{os.urandom(16).hex()}"
        links: list[Any] = [ClientLink(url + open_room(played), room_seed=SEED),
                            ClientLink(url, room_seed=SEED)]
        for link in links:
            link.start()
    else:
        listening = HostLink("127.0.0.1", 0, "/dealerless/" + os.urandom(16).hex())
        port = await listening.start()
        joining = ClientLink(f"ws://127.0.0.1:{port}{listening.path}")
        joining.start()
        links = [listening, joining]
    host, joiner = config(tmp_path, HOST, played), config(tmp_path, JOIN, None)
    seen: list[SetupEvent] = []
    from peers.net.announce import announcer
    for cfg in (host, joiner):
        cfg.notify = lambda e: seen.append(e) if isinstance(e, SetupEvent) else None
        cfg.on_setup = announcer(tmp_path / "home", cfg)
    try:
        results = await asyncio.wait_for(asyncio.gather(
            Peer(links[0], host).run(), Peer(links[1], joiner).run()), timeout=90)
    finally:
        if server is not None:
            server.close()  # type: ignore[attr-defined]
    (one, keys0), (two, keys1) = (stored(r) for r in results)
    assert one == two and replay(one).exit_code == 0
    setup = Transcript.decode(one).setup
    game = suite(played, 3)
    assert setup.suite_name == played
    assert setup.identities == (host.identity.frame_key(game), joiner.identity.frame_key(game))
    ed25519 = (host.identity.public_key, joiner.identity.public_key)
    assert (setup.identities == ed25519) == (played != BLS)
    assert keys0 == keys1 and seat_keys(setup, keys0) == ed25519
    assert [e.suite for e in seen] == [played, played]
    assert all(fingerprint(joiner.identity.public_key) in e.opponent
               for e in seen if e.seat == 0)


def _run(args: list[str], home: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "DEALERLESS_PASSPHRASE"}
    return subprocess.Popen([*CLI, *args, "--home", str(home)], stdout=log.open("wb"),
                            stderr=subprocess.STDOUT, env=env)


def _wait_for(pattern: str, log: Path, proc: subprocess.Popen[bytes]) -> str:
    for _ in range(600):
        found = re.search(pattern, log.read_text(errors="replace"))
        if found:
            return found.group(1)
        assert proc.poll() is None, log.read_text()
        time.sleep(0.05)
    raise AssertionError(f"{pattern!r} never appeared in {log.read_text()}")


def test_a_join_asked_for_another_suite_leaves_naming_both_and_one_without_plays_the_hosts(
        tmp_path: Path) -> None:
    """The real commands: `host --suite bls12381g1-sha256`; a `join --suite
    ristretto255-sha512` exits 3 with the sentence naming both suites, and the host logs
    that it refused it; a `join` without --suite then plays the host's suite to the end
    and says which."""
    host = _run(["host", "--listen", "127.0.0.1:0", "--suite", BLS, "--bot", "greedy",
                 "--timeout", "60"], tmp_path / "host", tmp_path / "host.log")
    try:
        url = _wait_for(r"invitation: dealerless join (\S+)", tmp_path / "host.log", host)
        refused = subprocess.run([*CLI, "join", url, "--suite", "ristretto255-sha512",
                                  "--bot", "greedy", "--timeout", "30", "--home",
                                  str(tmp_path / "picky")],
                                 capture_output=True, text=True, timeout=60)
        assert refused.returncode == 3, refused.stderr
        assert refused.stderr.strip().splitlines()[-1] == (
            "dealerless: the host plays bls12381g1-sha256; this seat was started with "
            "--suite ristretto255-sha512 (join without --suite to play the host's)")
        played = subprocess.run([*CLI, "join", url, "--bot", "greedy", "--timeout", "60",
                                 "--home", str(tmp_path / "easy")],
                                capture_output=True, text=True, timeout=120)
        assert played.returncode == 0, played.stderr
        assert f"; suite {BLS}" in played.stdout.splitlines()[0]
        assert host.wait(60) == 0
    finally:
        if host.poll() is None:
            host.kill()
            host.wait(10)
    text = (tmp_path / "host.log").read_text()
    assert f"; suite {BLS}" in text
    assert re.search(rf"refused SHA256:\S+ for seat 1: it asks for ristretto255-sha512; "
                     rf"this table plays {BLS}", text), text
    assert "VALID and complete" in played.stdout


@pytest.mark.asyncio
async def test_the_host_seats_no_joiner_that_asks_for_another_suite(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A joiner hello that answers the host's round with a valid confirm, signed, but in
    another suite than the table's is never counted (12.3 step 3); the joiner who plays the
    host's suite takes the seat."""
    _, inv = table_of(tmp_path, 1)
    host_link, stray_link, join_link = MemoryLink.group(3)
    stray = Identity(os.urandom(32))
    asked = asyncio.Event()

    async def ask_for_another_suite() -> None:
        while True:
            message = await stray_link.recv(30)
            obj = unpack(message, 1 << 17) if message else None
            if obj and obj[:3] == ["hello", PROTOCOL_VERSION, HOST] and not asked.is_set():
                offer = [*obj[:10], "edwards25519-sha512", obj[11]]   # as if it said so
                await stray_link.send(join_hello(stray, inv, hello_commitment(os.urandom(32)),
                                                 offer))
                asked.set()

    async def join_after() -> PeerResult:
        await asked.wait()
        return await Peer(join_link, config(tmp_path, JOIN, None)).run()

    strayer = asyncio.create_task(ask_for_another_suite())
    caplog.set_level(logging.WARNING, "dealerless.peer")
    try:
        results = await asyncio.wait_for(asyncio.gather(
            Peer(host_link, config(tmp_path, HOST, BLS)).run(), join_after()), 90)
    finally:
        strayer.cancel()
    setup = Transcript.decode(stored(results[0])[0]).setup
    assert setup.suite_name == BLS and stray.frame_key(suite(BLS, 3)) not in setup.identities
    assert (f"refused {fingerprint(stray.public_key)} for seat 1: it asks for "
            f"edwards25519-sha512; this table plays {BLS}") in caplog.text


@pytest.mark.asyncio
async def test_a_joiner_asked_for_a_suite_leaves_a_host_of_another(tmp_path: Path) -> None:
    """In process, with the words of the web page's joiner (12.8)."""
    a, b = MemoryLink.pair()
    host = asyncio.create_task(Peer(a, config(tmp_path, HOST, BLS, move_timeout=20)).run())
    joiner = config(tmp_path, JOIN, "edwards25519-sha512", move_timeout=20)
    joiner.suite_said = "chose {mine} in Advanced"
    try:
        with pytest.raises(PeerError) as left:
            await Peer(b, joiner).run()
    finally:
        host.cancel()
    assert str(left.value) == (f"the host plays {BLS}; this seat chose edwards25519-sha512 "
                               "in Advanced")
    assert not list((tmp_path / JOIN).glob("*.sqlite"))   # no seat was taken


@pytest.mark.asyncio
async def test_a_relay_with_suite_admits_only_rooms_of_its_suites() -> None:
    """12.5 "Suites": an opener of another suite, or of none, is refused with HTTP 403
    before any work; a hello of the opener naming another suite than the room was opened
    for is refused and the opener's connection closed, the room kept; /stats names the
    suites."""
    relay = Relay(suites=frozenset({BLS}))
    server, port = await relay.serve("127.0.0.1", 0)
    base = f"ws://127.0.0.1:{port}/room/"
    try:
        for query, plays in ((open_room("ristretto255-sha512"),
                              "this table plays ristretto255-sha512"),
                             ("?open", "its host named no suite")):
            link = ClientLink(base + os.urandom(16).hex() + query, fail_fast=True,
                              room_seed=SEED)
            link.start()
            with pytest.raises(LinkError) as refused:
                await asyncio.wait_for(link.wait_connected(), 10)
            await link.close()
            assert (f"refused with HTTP 403: this relay admits games of {BLS} only; {plays}"
                    in str(refused.value))
        rid = os.urandom(16).hex()
        async with connect(base + rid + open_room(BLS)) as opener:
            await enter_room(opener, rid, 30, BENCH_SECRET)
            await opener.send(pack(["hello", PROTOCOL_VERSION, "host", bytes(32), bytes(32),
                                    "bram", {}, 2, 0, [bytes(32)], "ristretto255-sha512",
                                    bytes(64)]))
            with pytest.raises(ConnectionClosed):   # its hello refused, its connection closed
                while True:
                    await asyncio.wait_for(opener.recv(), 5)
        stats = relay.stats()
        assert stats["suites"] == [BLS] and stats["refused"] == {"suite": 2}
        assert stats["dropped"] == {
            f"its host's hello names the suite 'ristretto255-sha512', not {BLS}, which it "
            "opened the room for": 1}
        assert stats["rooms_freed"] == {"empty: nothing was sent": 1}   # not by the hello
    finally:
        server.close()  # type: ignore[attr-defined]


def test_a_games_identity_keys_are_read_from_its_database_or_its_setup() -> None:
    """12.4 `identity_keys`: a game of bls12381g1-sha256 names its seats only there; one
    of a suite signed by Ed25519 stored before peer protocol 9 names them in its setup."""
    from protocol.errors import EncodingError
    from protocol.setup import GameSetup

    seats = [Identity(bytes([i]) * 32) for i in (1, 2)]
    keys = tuple(s.public_key for s in seats)
    for name in SUITE_NAMES:
        setup = GameSetup.create("bram", {}, [s.frame_key(suite(name, 3)) for s in seats],
                                 [bytes(32), bytes([1]) * 32], suite(name, 3))
        assert seat_keys(setup, " ".join(k.hex() for k in keys)) == keys
        if name == BLS:
            with pytest.raises(EncodingError, match="stored without its seats' identity"):
                seat_keys(setup, "")
        else:
            assert seat_keys(setup, "") == keys
        for damaged in ("zz", keys[0].hex(), f"{keys[0].hex()} {keys[1].hex()[:62]}"):
            with pytest.raises(EncodingError) as refused:
                seat_keys(setup, damaged)
            assert refused.value.code == "store/keys"
