"""The relay's admission (spec/12-peers.md 12.5): the proof of work, per-network limits,
fair share, rooms nobody joins or that go quiet, catch-up sent once, pings limited,
and a stalled reader that holds up nobody. In-process and fast; the real-process floods
are in tests/test_relay_flood.py."""

from __future__ import annotations

import asyncio
import contextlib
import os

import pytest
from relay_helpers import SEED, join_room, open_room, seed_of
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from peers.bench.relay_flood import StalledReader
from peers.net.link import ClientLink, LinkError
from peers.net.relay import OPEN_ROOM, Limits, Relay
from peers.net.relay_admission import MAX_PINGS, network
from protocol.relay_entry import room_seed, sign_entry
from protocol.relay_work import solve


async def _relay(**limits: object) -> tuple[Relay, object, str]:
    relay = Relay(Limits(**limits))  # type: ignore[arg-type]
    server, port = await relay.serve("127.0.0.1", 0)
    return relay, server, f"ws://127.0.0.1:{port}"


def _room(base: str) -> str:
    return f"{base}/room/{os.urandom(16).hex()}"


async def _until(check: object, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():  # type: ignore[operator]
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


@pytest.mark.asyncio
async def test_a_room_opens_only_for_a_right_proof_of_work() -> None:
    relay, server, base = await _relay(work_bits=8)
    url = _room(base)
    try:
        async with connect(url + OPEN_ROOM) as ws:
            line = (await asyncio.wait_for(ws.recv(), 5)).split()
            assert line[0] == "work" and len(line[1]) == 32 and int(line[2]) == 8
            await ws.send("12345")            # almost surely not a solution at 8 bits
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd is not None and "wrong proof of work" in closed.value.rcvd.reason
        assert relay.rooms == {} and relay.stats()["refused"] == {"work": 1}
        async with await open_room(url):      # a right answer opens it
            assert len(relay.rooms) == 1
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_an_unanswered_challenge_and_a_silent_connection_are_dropped() -> None:
    # No work to do: a host's answer must beat the 0.3 s even on a loaded machine.
    relay, server, base = await _relay(work_seconds=0.3, quiet_seconds=1.0, work_bits=0)
    url = _room(base)
    try:
        async with connect(url + OPEN_ROOM) as ws:
            with pytest.raises(ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
        assert relay.rooms == {}
        async with await open_room(url) as host, await join_room(url) as silent:
            with pytest.raises(ConnectionClosed):
                while True:                   # it never says anything: dropped
                    await host.send(b"hello")   # (the room itself is not quiet)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(silent.recv(), 0.3)
        assert any("sent nothing" in why for why in relay.stats()["dropped"])
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_rooms_nobody_joins_or_that_go_quiet_are_freed() -> None:
    relay, server, base = await _relay(unjoined_seconds=0.5, quiet_seconds=1.5)
    try:
        lonely = await open_room(_room(base))
        await lonely.send(b"anyone?")
        await _until(lambda: not relay.rooms)
        assert relay.events.rooms_freed == {"nobody joined in 0.5 s": 1}
        url = _room(base)
        async with await open_room(url) as a, await join_room(url) as b:
            await a.send(b"x")
            await b.send(b"y")
            await _until(lambda: not relay.rooms)   # then nothing for 1.5 s
        assert relay.events.rooms_freed["no message for 1.5 s"] == 1
        await lonely.close()
        one = await open_room(_room(base))     # left before anyone joined: freed at once
        await one.send(b"z")
        await one.close()
        await _until(lambda: not relay.rooms, 1.0)
    finally:
        server.close()  # type: ignore[attr-defined]


def test_a_client_is_its_network() -> None:
    limits = Limits()
    assert {network(f"127.0.0.{i}", limits) for i in range(2, 251)} == {"127.0.0.0/24"}
    assert network("::ffff:10.1.2.3", limits) == "10.1.2.0/24"     # IPv4-mapped
    assert network("2001:db8:0:1ff:1:2:3:4", limits) == "2001:db8:0:100::/56"
    assert network("2001:db8:0:1ff:1:2:3:4", Limits(ipv6_prefix=64)) == "2001:db8:0:1ff::/64"
    assert network("10.1.2.3", Limits(ipv4_prefix=32)) == "10.1.2.3/32"


@pytest.mark.asyncio
async def test_per_network_limits_and_a_fair_share_of_a_full_relay() -> None:
    # Each loopback address its own network (/32), so that two networks meet here.
    relay, server, base = await _relay(max_rooms=3, max_rooms_per_network=3,
                                       max_connections_per_network=4,
                                       connects_per_minute=10, ipv4_prefix=32,
                                       work_bits=0)
    try:
        greedy = [await open_room(_room(base), local_addr=("127.0.0.2", 0)) for _ in range(3)]
        for ws in greedy:
            await ws.send(b"hello")     # waiting for a joiner, not idle
        # The relay is full, but 127.0.0.2 holds 3 rooms and 127.0.0.1 none: one of its
        # rooms, the longest quiet, is given up to the newcomer.
        mine = await open_room(_room(base))
        assert len(relay.rooms) == 3
        assert sorted(r.creator for r in relay.rooms.values()).count("127.0.0.1/32") == 1
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(greedy[0].recv(), 5)
        assert relay.events.rooms_freed == {
            "given up to a newcomer: waiting, and its network held the most rooms": 1}
        # 127.0.0.2 now holds 2 rooms and connections: it may not take one back from a
        # newcomer holding 1 (2 < 1 + 2), so it is refused.
        with pytest.raises(InvalidStatus) as refused:
            await open_room(_room(base), local_addr=("127.0.0.2", 0))
        assert refused.value.response.status_code == 503
        # One network may hold 4 connections (pending proofs of work included).
        room = next(r for r, v in relay.rooms.items() if v.creator == "127.0.0.1/32")
        more = [await join_room(f"{base}/room/{room}") for _ in range(3)]
        with pytest.raises(InvalidStatus) as refused:
            await join_room(f"{base}/room/{room}")
        assert b"too many connections from this network (127.0.0.1/32)" in \
            refused.value.response.body
        for ws in [*greedy, mine, *more]:
            await ws.close()
        # 10 connection attempts a minute from one network (5 made above), then HTTP 429.
        statuses = []
        for _ in range(6):
            with pytest.raises(InvalidStatus) as refused:
                await connect(f"{base}/room/{'0' * 32}")
            statuses.append(refused.value.response.status_code)
        assert statuses == [404] * 5 + [429]
        assert relay.stats()["refused"]["rate"] == 1
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_full_relay_gives_up_idle_rooms_first_and_never_one_in_play() -> None:
    """One room each from four networks, so fair share alone frees none of them: an idle
    room goes to a newcomer, then nothing more, and the room in play is never touched."""
    relay, server, base = await _relay(max_rooms=3, ipv4_prefix=32, work_bits=0)
    try:
        playing = _room(base)
        host = await open_room(playing, local_addr=("127.0.0.2", 0))
        guest = await join_room(playing, local_addr=("127.0.0.2", 0))
        waiting = await open_room(_room(base), local_addr=("127.0.0.3", 0))
        idle = _room(base)
        async with await open_room(idle, local_addr=("127.0.0.4", 0)) as a, \
                await join_room(idle, local_addr=("127.0.0.4", 0)):
            await a.send(b"a frame")   # joined and used, then left: kept for a comeback
        await _until(lambda: not relay.rooms[idle.rpartition("/")[2]].connections)

        async def talk() -> None:      # the game in play, and the waiting host, speak
            await host.send(b"frame")
            await guest.send(b"sync")
            await waiting.send(b"hello")

        await talk()
        newcomer = await open_room(_room(base), local_addr=("127.0.0.5", 0))
        assert idle.rpartition("/")[2] not in relay.rooms
        assert relay.freed[idle.rpartition("/")[2]] == \
            "given up to a newcomer: idle while the relay was full"
        await newcomer.send(b"hello")
        await talk()
        with pytest.raises(InvalidStatus) as refused:
            await open_room(_room(base), local_addr=("127.0.0.6", 0))
        assert b"none of them free to give up" in refused.value.response.body
        assert playing.rpartition("/")[2] in relay.rooms
        # A seat coming back to the freed room is told what became of it.
        with pytest.raises(InvalidStatus) as gone:
            await join_room(idle, local_addr=("127.0.0.4", 0))
        assert gone.value.response.status_code == 404
        assert gone.value.response.body.decode() == (
            "no such game at this address: this relay freed the room (given up to a "
            "newcomer: idle while the relay was full)\n")
        link = ClientLink(idle, fail_fast=True, room_seed=SEED)   # a seat says it in words
        link.start()
        with pytest.raises(LinkError) as failed:
            await link.wait_connected()
        await link.close()
        assert "the relay no longer holds this room: it freed it (given up to a newcomer" \
            in str(failed.value)
        for ws in (host, guest, waiting, newcomer):
            await ws.close()
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_reconnecting_reader_gets_the_log_once() -> None:
    """(c) A seat that comes back says what it holds (`?from=`) and gets only what is new;
    a stranger re-entering without saying gets the log again only within --max-catchup."""
    relay, server, base = await _relay(max_catchup=3000)
    url = _room(base)
    try:
        host = await open_room(url)
        reader = ClientLink(url, room_seed=seed_of(url))
        reader.start()
        await reader.wait_connected()
        sent = [bytes([i]) * 1000 for i in range(5)]
        for m in sent[:3]:
            await host.send(m)
        got = [await reader.recv(5) for _ in range(3)]
        assert got == sent[:3]
        await reader.conn.close()                 # the link drops; it reconnects
        await _until(lambda: reader.conn is not None and reader.place.next == 3
                     and relay.connections == 2)
        for m in sent[3:]:
            await host.send(m)
        got += [await reader.recv(5) for _ in range(2)]
        assert got == sent and await reader.recv(0.3) is None   # nothing twice
        await reader.close()
        # Strangers who do not say what they hold: the log again, until 3000 bytes of it
        # have been sent again; then only new messages.
        first = await join_room(url)
        assert [await asyncio.wait_for(first.recv(), 5) for _ in range(5)] == sent
        late = await join_room(url)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(late.recv(), 0.3)
        for ws in (first, late, host):
            await ws.close()
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_ping_flood_is_cut_short() -> None:
    """(d) More than MAX_PINGS pings in the window fail the connection."""
    relay, server, base = await _relay()
    try:
        ws = await open_room(_room(base))
        answered = 0
        with pytest.raises(ConnectionClosed):
            for _ in range(10 * MAX_PINGS):
                await asyncio.wait_for(await ws.ping(), 5)
                answered += 1
        assert answered <= MAX_PINGS + 1
        await _until(lambda: relay.connections == 0)
        assert relay.stats()["dropped"] == {"too many pings": 1}
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_stalled_reader_holds_up_nobody() -> None:
    """(b, fast) 8 readers that never read share a room with two seats exchanging 4 MiB:
    every message reaches the other seat, and the stalled readers are dropped."""
    relay, server, base = await _relay()
    url = _room(base)
    try:
        a = await open_room(url)
        b = await join_room(url)
        stalled = [await asyncio.to_thread(StalledReader, url) for _ in range(8)]
        big = os.urandom(60_000)
        for i in range(70):
            await a.send(bytes([i]) + big)
            got = await asyncio.wait_for(b.recv(), 10)
            while len(got) != len(big) + 1:     # the stalled readers' one message each
                got = await asyncio.wait_for(b.recv(), 10)
            assert got[0] == i
        await _until(lambda: relay.connections == 2, 15)
        assert sum(n for why, n in relay.stats()["dropped"].items()
                   if why.startswith("too slow")) == 8
        for s in stalled:
            s.close()
        await a.close()
        await b.close()
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_room_key_must_be_a_point_and_an_entrant_must_sign_with_it() -> None:
    """12.5 "Room key": an opener's K that is no valid point opens nothing, and whoever
    signs with another room key (another secret) takes no place in the room."""
    relay, server, base = await _relay(work_bits=0)
    url = _room(base)
    rid = url.rpartition("/")[2]

    async def closed_with(ws: object) -> str:
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 5)  # type: ignore[attr-defined]
        return closed.value.rcvd.reason if closed.value.rcvd is not None else ""

    try:
        async with connect(url + OPEN_ROOM) as ws:
            _, challenge, bits = str(await ws.recv()).split()
            await ws.send(f"{solve(bytes.fromhex(challenge), rid, int(bits))} {'00' * 32}")
            assert await closed_with(ws) == "wrong room key: not a valid Ed25519 public key"
        assert rid not in relay.rooms
        host = await open_room(url)
        async with connect(url) as ws:
            _, challenge = str(await ws.recv()).split()
            other = room_seed(b"another secret..", rid)
            await ws.send(sign_entry(other, bytes.fromhex(challenge), rid).hex())
            assert await closed_with(ws) == \
                "wrong room key: this connection does not hold the invitation"
        async with connect(url) as ws:
            assert str(await ws.recv()).startswith("prove ")
            await ws.send("²" * 128)              # not hex: the same refusal, no traceback
            assert await closed_with(ws) == \
                "wrong room key: this connection does not hold the invitation"
        assert len(relay.rooms[rid].connections) == 1
        assert relay.stats()["refused"]["key"] == 3
        await host.close()
    finally:
        server.close()  # type: ignore[attr-defined]
