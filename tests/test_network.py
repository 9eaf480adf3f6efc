"""Peers over links: in-memory, through a misbehaving relay, silent and hostile opponents.

(spec/12-peers.md) These run in one process with real websockets on loopback
where a relay is involved; tests/test_processes.py runs separate OS processes.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

import pytest
from invites import table_of
from relay_helpers import SEED

from peers.bots.registry import BOTS
from peers.net.config import HOST, JOIN, PeerConfig, PeerResult
from peers.net.link import ClientLink, MemoryLink
from peers.net.messages import PROTOCOL_VERSION, hello_commitment
from peers.net.peer import Peer
from peers.net.relay import OPEN_ROOM, Chaos, Relay
from peers.store.games import GameStore
from protocol.canonical import pack, unpack
from protocol.errors import Violation
from protocol.frames import MessageType
from protocol.handshake_auth import pake_scalar, pake_share, sign
from protocol.identity import Identity
from protocol.messages import NonceBody
from protocol.referee import Referee
from protocol.seat import SeatAgent
from protocol.setup import GameSetup
from protocol.suite import table_suite
from protocol.verifier import replay


def config(tmp: Path, role: str, choose: Any = None, **kw: Any) -> PeerConfig:
    bot = BOTS["greedy"](random.Random(1))

    async def greedy(view: Any) -> Any:
        return bot(view)

    host, invitation = table_of(tmp, 0 if role == HOST else 1)
    return PeerConfig(games_dir=tmp / role, role=role,
                      identity=host if role == HOST else Identity(os.urandom(32)),
                      choose=choose or greedy, notify=lambda e: None,
                      params={"komi_halves": 1}, sync_interval=0.05, linger=0.5,
                      invitation=invitation, **kw)


def transcripts(results: list[PeerResult]) -> list[bytes]:
    out = []
    for r in results:
        store = GameStore.open(r.path)
        out.append(store.transcript().encode())
        store.close()
    return out


@pytest.mark.asyncio
async def test_two_peers_over_a_memory_link_finish_with_identical_transcripts(
        tmp_path: Path) -> None:
    a, b = MemoryLink.pair()
    results = await asyncio.gather(Peer(a, config(tmp_path, HOST)).run(),
                                   Peer(b, config(tmp_path, JOIN)).run())
    one, two = transcripts(list(results))
    assert one == two
    assert replay(one).exit_code == 0


async def play_through_relay(tmp: Path, chaos: Chaos, timeout: float) -> None:
    """Two bot peers through a misbehaving relay: same transcript, and it verifies."""
    server, port = await Relay(chaos=chaos).serve("127.0.0.1", 0)
    url = f"ws://127.0.0.1:{port}/room/{os.urandom(16).hex()}"
    # The host opens the room.
    links = [ClientLink(url + OPEN_ROOM, room_seed=SEED), ClientLink(url, room_seed=SEED)]
    for link in links:
        link.start()
    try:
        results = await asyncio.wait_for(asyncio.gather(
            Peer(links[0], config(tmp, HOST)).run(),
            Peer(links[1], config(tmp, JOIN)).run()), timeout=timeout)
    finally:
        server.close()  # type: ignore[attr-defined]
    one, two = transcripts(list(results))
    assert one == two and replay(one).exit_code == 0


@pytest.mark.asyncio
async def test_a_game_through_a_relay_that_drops_duplicates_and_reorders(
        tmp_path: Path) -> None:
    await play_through_relay(tmp_path, Chaos(drop=0.25, duplicate=0.25, reorder=0.25,
                                             rng=random.Random(5)), timeout=90)


@pytest.mark.asyncio
async def test_a_silent_opponent_is_named_after_the_move_timeout(tmp_path: Path) -> None:
    a, b = MemoryLink.pair()
    never = asyncio.Event()

    async def stuck(view: Any) -> Any:   # the host's player never moves
        await never.wait()

    host = asyncio.create_task(Peer(a, config(tmp_path, HOST, choose=stuck)).run())
    joiner = await Peer(b, config(tmp_path, JOIN, move_timeout=1.0)).run()
    host.cancel()
    assert joiner.verdict.exit_code == 3
    data = transcripts([joiner])[0]
    verdict = replay(data)
    assert verdict.awaiting == (0, "move")
    assert "seat 0 owes the next one; it cannot prove the silence" in joiner.message
    assert GameStore.open(joiner.path).meta("status") == "stopped waiting: seat 0 owes a move frame"


async def host_handshake(link: MemoryLink, tmp: Path,
                         first: bytes | None = None) -> tuple[bytes, bytes, bytes]:
    """Play the host's side of the 2-seat handshake (spec 12.3) by hand, as the host the
    invitation under `tmp` pins: signed hello, roster, reveal. `first` is sent once
    before anything else. Returns (joiner key, host nonce, joiner nonce)."""
    me, inv = table_of(tmp)
    nonce = os.urandom(32)
    mine = hello_commitment(nonce)
    if first is not None:
        await link.send(first)
    share = pake_share(inv.seat_secret(1), inv.rid,
                       pake_scalar(me, inv.rid, mine, 1, os.urandom(32)))
    hello = pack(sign(me, inv.rid, ["hello", PROTOCOL_VERSION, HOST, me.public_key, mine,
                                    "bram", {"komi_halves": 0}, 2, 0, [share],
                                    table_suite().name]))
    joiner = None
    while joiner is None:
        await link.send(hello)
        msg = await link.recv(0.05)
        obj = unpack(msg, 1 << 16) if msg else None
        if obj and obj[:3] == ["hello", PROTOCOL_VERSION, JOIN] and obj[6] == mine:
            joiner = (obj[3], obj[4])
    roster = pack(sign(me, inv.rid, ["roster", [me.public_key, joiner[0]], [mine, joiner[1]],
                                     [me.public_key, joiner[0]], [b"", b""]]))
    while True:
        await link.send(roster)
        msg = await link.recv(0.05)
        obj = unpack(msg, 1 << 16) if msg else None
        if obj and obj[0] == "open" and hello_commitment(obj[2]) == joiner[1]:
            break
    await link.send(pack(sign(me, inv.rid, ["reveal", [nonce, obj[2]]])))
    return joiner[0], nonce, obj[2]


async def _malicious_host(link: MemoryLink, tmp: Path) -> None:
    """Handshake honestly, then send garbage, an oversized message, a frame of another
    game, a valid first frame, and then a frame out of turn."""
    me = table_of(tmp)[0]
    their_key, nonce, their_nonce = await host_handshake(link, tmp)
    params = {"komi_halves": 0}  # what host_handshake's hello offered
    setup = GameSetup.create("bram", params, [me.public_key, their_key], [nonce, their_nonce],
                             table_suite())
    other = GameSetup.create("bram", params, [me.public_key, their_key], [their_nonce, nonce],
                             table_suite())
    ref = Referee(setup)
    agent = SeatAgent(ref.game, 0, me, os.urandom(32))
    stray = SeatAgent(Referee(other).game, 0, me, os.urandom(32)).next_frame(
        Referee(other).state, os.urandom(32))
    await link.send(b"\x00garbage")
    await link.send(pack(["frame", os.urandom(300)]))
    await link.send(os.urandom(70_000))
    await link.send(pack(["frame", stray]))
    first = agent.next_frame(ref.state, os.urandom(32))
    ref.receive(first)
    # Seat 1 owes step 1; seat 0 signs a frame for it anyway, right behind step 0.
    out_of_turn = agent.sign(ref.state, MessageType.NONCE, NonceBody(nonce).encode())
    await link.send(pack(["frame", first]))
    await link.send(pack(["frame", out_of_turn]))
    await asyncio.sleep(5)


@pytest.mark.asyncio
async def test_a_hostile_peer_is_reported_and_the_honest_database_stays_intact(
        tmp_path: Path) -> None:
    a, b = MemoryLink.pair()
    events: list[Any] = []
    cfg = config(tmp_path, JOIN, move_timeout=5.0)
    cfg.notify = events.append
    attacker = asyncio.create_task(_malicious_host(a, tmp_path))
    result = await Peer(b, cfg).run()
    attacker.cancel()
    assert result.verdict.exit_code == 1
    v = result.verdict.violation
    assert v is not None and (v.code, v.seat, v.frame) == ("frame/out-of-turn", 0, 1)
    store = GameStore.open(result.path)
    assert store.frame_count() == 2       # the valid frames, its own included, are kept
    assert replay(store.transcript().encode()).violation.code == "frame/out-of-turn"
    store.close()


async def _spammer(link: MemoryLink, stop: asyncio.Event, tmp: Path) -> None:
    """A hostile host: a malformed hello, then huge and stale SYNCs, nothing useful."""
    me = table_of(tmp)[0]
    malformed = pack(["hello", PROTOCOL_VERSION, HOST, me.public_key, os.urandom(32), "bram",
                      5, 2, 0])
    await host_handshake(link, tmp, first=malformed)
    while not stop.is_set():        # never sends its KEY frame; floods instead
        await link.send(pack(["sync", 2**63, bytes(32)]))
        await link.send(pack(["sync", 0, bytes(32)]))
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_floods_and_hostile_values_neither_crash_nor_stall_a_peer(tmp_path: Path) -> None:
    a, b = MemoryLink.pair()
    stop = asyncio.Event()
    attacker = asyncio.create_task(_spammer(a, stop, tmp_path))
    started = asyncio.get_running_loop().time()
    result = await Peer(b, config(tmp_path, JOIN, move_timeout=1.0)).run()
    stop.set()
    await attacker
    assert asyncio.get_running_loop().time() - started < 10
    assert result.verdict.exit_code == 3 and result.verdict.awaiting == (0, "key")


def test_a_resumed_game_keeps_a_proven_equivocation(tmp_path: Path) -> None:
    from peers.cheats.deck_games import CHEATS
    cheat = CHEATS["equivocation"]()
    honest = cheat.table.referees[1 - cheat.seat]
    store = GameStore.create(tmp_path, cheat.table.setup, 1 - cheat.seat, os.urandom(32), {})
    for frame in honest.frames:
        store.append(frame.seq, frame.wire)
    with pytest.raises(Violation):
        honest.receive(cheat.bad_frame)
    store.record_violation(honest.offending_frame, honest.evidence, "violation")
    resumed = store.referee()
    assert resumed.violation is not None and resumed.violation.code == "frame/equivocation"
    assert resumed.awaiting is None              # nothing more is owed to a cheater
