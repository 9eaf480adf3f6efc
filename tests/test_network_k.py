"""Network play with more than two seats (spec/12-peers.md 12.3, issue 8).

The rule sets for more than two players are not here yet; these tests use the
small k-seat rule set "shed" (tests/shed_rules.py), registered for the test only.
In one process: peers over a chaotic relay and a direct host on loopback, and
over an in-memory group; then real `dealerless` processes through a relay, one of
them killed and resumed.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import shed_rules
from invites import join_hello, seat_named, table_of
from relay_helpers import SEED
from test_processes import free_port, invitations, wait_for

import protocol.rules as rules_pkg
from peers.bots.registry import BOTS
from peers.net.config import HOST, JOIN, PeerConfig, PeerError, PeerResult
from peers.net.link import ClientLink, HostLink, MemoryLink
from peers.net.messages import PROTOCOL_VERSION, hello_commitment
from peers.net.peer import Peer
from peers.net.relay import OPEN_ROOM, Chaos, Relay
from peers.store.games import GameStore
from protocol.canonical import unpack
from protocol.identity import Identity, short_auth_string
from protocol.setup import GameSetup
from protocol.verifier import replay

SHED = [sys.executable, str(Path(shed_rules.__file__))]  # `dealerless` with "shed" known


@pytest.fixture(autouse=True)
def shed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_pkg, "RULESETS", shed_rules.registry())


def config(tmp: Path, name: str, seats: int, **kw: Any) -> PeerConfig:
    bot = BOTS["random"](random.Random(name))

    async def choose(view: Any) -> Any:
        return bot(view)

    setups: list[GameSetup] = []
    host, invitation = table_of(tmp, seat_named(name))
    cfg = PeerConfig(games_dir=tmp / name, role=HOST if name == "host" else JOIN,
                     identity=host if name == "host" else Identity(os.urandom(32)),
                     choose=choose, notify=lambda e: None, invitation=invitation,
                     rules="shed", params={"seats": seats}, sync_interval=0.05, linger=0.5,
                     move_timeout=kw.pop("move_timeout", 20.0),
                     on_setup=lambda setup, _store: setups.append(setup), **kw)
    return cfg


def names(seats: int) -> list[str]:
    return ["host", *(f"join{i}" for i in range(1, seats))]


def agreed(results: list[PeerResult], seats: int) -> bytes:
    """Every seat holds the same transcript, it verifies, and each seat is somebody's."""
    copies, taken = set(), []
    for r in results:
        store = GameStore.open(r.path)
        copies.add(store.transcript().encode())
        taken.append(store.seat)
        store.close()
    assert len(copies) == 1
    data = copies.pop()
    verdict = replay(data)
    assert verdict.exit_code == 0, verdict.violation
    assert sorted(taken) == list(range(seats)) and taken[0] == 0   # the host is seat 0
    return data


async def run_all(peers: list[Peer], timeout: float) -> list[PeerResult]:
    return list(await asyncio.wait_for(asyncio.gather(*(p.run() for p in peers)), timeout))


@pytest.mark.asyncio
@pytest.mark.parametrize(("seats", "seed"), [(3, 11), (5, 12)])
async def test_k_seats_through_a_relay_that_drops_duplicates_and_reorders(
        tmp_path: Path, seats: int, seed: int) -> None:
    chaos = Chaos(drop=0.2, duplicate=0.2, reorder=0.2, rng=random.Random(seed))
    server, port = await Relay(chaos=chaos).serve("127.0.0.1", 0)
    url = f"ws://127.0.0.1:{port}/room/{os.urandom(16).hex()}"
    links = [ClientLink(url + OPEN_ROOM, room_seed=SEED),
             *(ClientLink(url, room_seed=SEED) for _ in range(seats - 1))]
    for link in links:
        link.start()
    try:
        results = await run_all([Peer(link, config(tmp_path, name, seats))
                                 for link, name in zip(links, names(seats), strict=True)], 60)
    finally:
        server.close()  # type: ignore[attr-defined]
    agreed(results, seats)


@pytest.mark.asyncio
async def test_a_listening_host_forwards_between_its_joiners_and_caps_connections() -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    from peers.net.link import MAX_HOST_CONNECTIONS
    host = HostLink("127.0.0.1", 0, "/dealerless/" + os.urandom(16).hex())
    url = f"ws://127.0.0.1:{await host.start()}{host.path}"
    try:
        joiners = [await connect(url) for _ in range(MAX_HOST_CONNECTIONS)]
        assert MAX_HOST_CONNECTIONS >= 7 + 2
        await asyncio.sleep(0.1)
        await joiners[0].send(b"from seat 1")
        assert await host.recv(5) == b"from seat 1"
        for ws in joiners[1:]:                     # every other joiner, once
            assert await asyncio.wait_for(ws.recv(), 5) == b"from seat 1"
        with pytest.raises(TimeoutError):          # never back to its sender
            await asyncio.wait_for(joiners[0].recv(), 0.3)
        await host.send(b"from the host")
        for ws in joiners:
            assert await asyncio.wait_for(ws.recv(), 5) == b"from the host"
        # Full: a newcomer takes the place of the oldest that has said nothing (issue
        # 29: 12 silent strangers kept the invited seat out) ...
        newcomer = await connect(url)
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(joiners[1].recv(), 5)
        await newcomer.send(b"a seat")
        assert await host.recv(5) == b"a seat"
        # ... and once every connection has spoken, one more is refused.
        for ws in joiners[2:]:
            await ws.send(b"here")
        await asyncio.sleep(0.2)
        with pytest.raises(InvalidStatus) as refused:
            await connect(url)
        assert refused.value.response.status_code == 503
        assert b"too many connections" in refused.value.response.body
        for ws in [*joiners, newcomer]:
            await ws.close()
    finally:
        await host.close()


@pytest.mark.asyncio
async def test_three_seats_through_a_direct_host_and_a_late_joiner_is_refused(
        tmp_path: Path) -> None:
    """Joiners of a host that listens reach each other only through the host, which
    passes their messages on; a fourth joiner, once the game is on, is told the table
    is full and has no game to resume."""
    host_link = HostLink("127.0.0.1", 0, "/dealerless/" + os.urandom(16).hex())
    port = await host_link.start()
    url = f"ws://127.0.0.1:{port}{host_link.path}"
    joiners = [ClientLink(url, room_seed=SEED) for _ in range(2)]
    for link in joiners:
        link.start()
    configs = [config(tmp_path, name, 3) for name in names(3)]
    started = asyncio.Event()
    configs[0].on_setup = lambda _setup, _store: started.set()
    game = asyncio.gather(*(Peer(link, cfg).run() for link, cfg in
                            zip([host_link, *joiners], configs, strict=True)))
    await asyncio.wait_for(started.wait(), 20)
    late_link = ClientLink(url, room_seed=SEED)
    late_link.start()
    late = config(tmp_path, "late", 3)
    with pytest.raises(PeerError, match="the table is full: the host already has its 3 "
                                        "players, and the game goes on without you"):
        await Peer(late_link, late).run()
    await late_link.close()
    assert not (tmp_path / "late").exists()          # nothing was saved for it
    agreed(await asyncio.wait_for(game, 40), 3)


@pytest.mark.asyncio
async def test_two_holders_of_each_invitation_the_first_are_seated_the_others_refused(
        tmp_path: Path) -> None:
    links = MemoryLink.group(5)
    configs = [config(tmp_path, name, 3) for name in [*names(3), "join1b", "join2b"]]
    outcomes = await asyncio.wait_for(asyncio.gather(
        *(Peer(link, cfg).run() for link, cfg in zip(links, configs, strict=True)),
        return_exceptions=True), 40)
    played = [o for o in outcomes if isinstance(o, PeerResult)]
    refused = [o for o in outcomes if isinstance(o, PeerError)]
    assert len(played) == 3 and len(refused) == 2, outcomes
    assert all("the table is full" in str(e) for e in refused)
    agreed(played, 3)


@pytest.mark.asyncio
async def test_two_joins_with_one_identity_key_take_one_seat(tmp_path: Path) -> None:
    links = MemoryLink.group(4)
    configs = [config(tmp_path, name, 3) for name in [*names(3), "twin"]]
    configs[3].identity = configs[1].identity           # join1 runs twice
    outcomes = await asyncio.wait_for(asyncio.gather(
        *(Peer(link, cfg).run() for link, cfg in zip(links, configs, strict=True)),
        return_exceptions=True), 40)
    played = [o for o in outcomes if isinstance(o, PeerResult)]
    failed = [o for o in outcomes if not isinstance(o, PeerResult)]
    assert len(played) == 3 and len(failed) == 1, outcomes
    assert isinstance(failed[0], PeerError)
    assert "another `join` with your identity key" in str(failed[0])
    agreed(played, 3)


class Tap:
    """A silent member of an in-memory group: it records every message in order."""

    def __init__(self, link: MemoryLink) -> None:
        self.link, self.seen = link, []

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            message = await self.link.recv(0.02)
            if message is not None:
                self.seen.append(message)

    def first(self, needle: bytes, kind: str | None = None) -> int:
        return next(i for i, m in enumerate(self.seen)
                    if needle in m and (kind is None or unpack(m, 1 << 17)[0] == kind))


@pytest.mark.asyncio
async def test_no_nonce_is_on_the_wire_before_the_setup_that_holds_it_is_fixed(
        tmp_path: Path) -> None:
    """What makes the short authentication string impossible to grind (12.3): each
    joiner's nonce first appears after a roster that fixes every key and commitment,
    and the host's nonce only after every joiner's. And all four seats see one SAS."""
    *links, tap_link = MemoryLink.group(5)
    tap, stop = Tap(tap_link), asyncio.Event()
    listening = asyncio.create_task(tap.run(stop))
    configs = [config(tmp_path, name, 4) for name in names(4)]
    sas = []
    for cfg in configs:
        cfg.on_setup = lambda setup, _store: sas.append(short_auth_string(setup.game_id))
    results = await run_all([Peer(link, cfg) for link, cfg in
                             zip(links, configs, strict=True)], 40)
    stop.set()
    await listening
    agreed(results, 4)
    assert len(sas) == 4 and len(set(sas)) == 1
    store = GameStore.open(results[0].path)
    setup = store.setup
    store.close()
    final = [hello_commitment(n) for n in setup.nonces]
    rosters = [i for i, m in enumerate(tap.seen) if unpack(m, 1 << 17)[0] == "roster"
               and all(c in m for c in final) and all(k in m for k in setup.identities)]
    assert rosters
    joiner_nonces = [tap.first(n) for n in setup.nonces[1:]]
    assert min(joiner_nonces) > rosters[0]                 # joiners open only once seated
    assert tap.first(setup.nonces[0]) > max(joiner_nonces)  # and the host opens last
    assert all(tap.first(c, "hello") < rosters[0] for c in final)   # committed in hellos


@pytest.mark.asyncio
async def test_a_seated_joiner_that_leaves_before_opening_its_nonce_does_not_strand_the_table(
        tmp_path: Path) -> None:
    """A joiner seated in the host's roster goes silent before it opens its nonce: the
    host starts a new round (fresh nonces all round, since a nonce already opened could
    be ground against) and the game goes on with the next holder of that seat's
    invitation."""
    ghost_link, tap_link, *links = MemoryLink.group(5)
    tap, stop = Tap(tap_link), asyncio.Event()
    listening = asyncio.create_task(tap.run(stop))
    configs = {name: config(tmp_path, name, 3) for name in names(3)}
    ghost = config(tmp_path, "ghost", 3)
    seated = asyncio.Event()

    async def ghost_joins_then_leaves() -> None:
        """Play a joiner by hand until it is seated, then fall silent."""
        commitment = hello_commitment(os.urandom(32))
        while True:
            message = await ghost_link.recv(1)
            obj = unpack(message, 1 << 17) if message else None
            if obj and obj[:3] == ["hello", PROTOCOL_VERSION, HOST]:
                await ghost_link.send(join_hello(ghost.identity, table_of(tmp_path)[1],
                                                 commitment, obj, seat=2))
            if obj and obj[0] == "roster" and ghost.identity.public_key in obj[1]:
                seated.set()
                await ghost_link.close()
                return

    ghost_task = asyncio.create_task(ghost_joins_then_leaves())
    first = [asyncio.create_task(Peer(links[i], configs[n]).run())
             for i, n in enumerate(["host", "join1"])]
    await asyncio.wait_for(seated.wait(), 10)
    late = asyncio.create_task(Peer(links[2], configs["join2"]).run())
    results = await asyncio.wait_for(asyncio.gather(*first, late), 40)
    stop.set()
    await asyncio.gather(listening, ghost_task)
    agreed(list(results), 3)
    store = GameStore.open(results[0].path)
    setup = store.setup
    store.close()
    assert ghost.identity.public_key not in setup.identities
    # join1 was seated with the ghost first; its nonce of that round was opened on the
    # wire, so the game it plays must rest on a fresh one.
    first_roster = unpack(tap.seen[tap.first(ghost.identity.public_key, "roster")], 1 << 17)
    join1 = first_roster[1].index(configs["join1"].identity.public_key)
    assert hello_commitment(setup.nonces[setup.identities.index(
        configs["join1"].identity.public_key)]) != first_roster[2][join1]


# -- real processes ---------------------------------------------------------------------


def start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen([*SHED, *args], stdout=out, stderr=subprocess.STDOUT)


def frames(home: Path) -> int:
    import sqlite3
    games = list((home / "games").glob("*.sqlite")) if (home / "games").is_dir() else []
    if not games:
        return 0
    try:
        with sqlite3.connect(games[0], timeout=1) as db:
            return int(db.execute("SELECT count(*) FROM frames").fetchone()[0])
    except sqlite3.Error:
        return 0


def export(home: Path, out: Path) -> bytes:
    game = next((home / "games").glob("*.sqlite"))
    subprocess.run([*SHED, "export", str(game), str(out), "--home", str(home)], check=True,
                   capture_output=True)
    return out.read_bytes()


def test_three_processes_through_a_relay_one_killed_and_resumed(tmp_path: Path) -> None:
    """`host --rules shed --seats 3 --relay` and two `join`s as separate processes; one
    joiner is killed with SIGKILL mid-game and resumed; all three end with the same
    transcript, the same SAS, and `dealerless verify` accepts it."""
    port = free_port()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}"], tmp_path / "relay.log")
    homes = {n: tmp_path / n for n in names(3)}
    try:
        wait_for(r"(relay listening)", tmp_path / "relay.log")
        common = ["--bot", "random", "--timeout", "30"]
        host = start(["host", "--relay", f"ws://127.0.0.1:{port}", "--rules", "shed",
                      "--seats", "3", "--home", str(homes["host"]), *common],
                     tmp_path / "host.log")
        urls = invitations(tmp_path / "host.log", 3)
        procs = {"host": host, **{n: start(["join", url, "--home", str(homes[n]), *common],
                                             tmp_path / f"{n}.log")
                                  for n, url in zip(names(3)[1:], urls, strict=True)}}
        victim = "join2"
        kill_at = random.Random(os.getpid()).randrange(2, 20)
        deadline = time.monotonic() + 30
        while (frames(homes[victim]) < kill_at and time.monotonic() < deadline
               and procs[victim].poll() is None):
            time.sleep(0.002)
        os.kill(procs[victim].pid, signal.SIGKILL)
        procs[victim].wait()
        before = frames(homes[victim])
        game = next((homes[victim] / "games").glob("*.sqlite"))
        procs[victim] = start(["resume", str(game), "--home", str(homes[victim]),
                               "--timeout", "30"], tmp_path / "resume.log")
        for name, proc in procs.items():
            assert proc.wait(timeout=60) == 0, (tmp_path / f"{name}.log").read_text()
    finally:
        relay.terminate()
        relay.wait(10)
    copies = {export(homes[n], tmp_path / f"{n}.t") for n in names(3)}
    assert len(copies) == 1
    data = copies.pop()
    assert 1 <= before < replay(data).frames       # the victim was killed mid-game
    sas = {wait_for(r"short authentication string: (\S+)", tmp_path / f"{n}.log")
           for n in names(3)}
    assert len(sas) == 1
    assert "3 seats, you are seat" in (tmp_path / "join1.log").read_text()
    verify = subprocess.run([*SHED, "verify", str(tmp_path / "host.t")], capture_output=True)
    assert verify.returncode == 0, verify.stdout


@pytest.mark.parametrize(("args", "phrase"), [
    (["--seats", "3"], "the rules bram are for 2 players only, not --seats 3"),
    (["--seats", "9"], "a game has 2 to 8 seats"),
    (["--seats", "1"], "a game has 2 to 8 seats"),
    (["--seats", "three"], "not a whole number of seats"),
    (["--rules", "shed", "--seats", "4", "--komi", "1"], "the rules shed have no komi"),
])
def test_host_seat_counts_the_rules_do_not_allow_are_usage_errors(
        args: list[str], phrase: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from peers.cli.main import main
    code = main(["host", "--listen", "127.0.0.1:0", "--bot", "greedy", "--home",
                 str(tmp_path), *args])
    assert code == 2
    assert phrase in capsys.readouterr().err
    assert not (tmp_path / "games").exists()
