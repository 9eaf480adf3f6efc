"""The relay: rooms, catch-up on reconnect, and its resource bounds (spec/12-peers.md 12.5)."""

from __future__ import annotations

import asyncio
import os

import pytest
from relay_helpers import join_room, open_room
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from peers.net.relay import OPEN_ROOM, Limits, Relay


async def _relay(limits: Limits) -> tuple[Relay, object, str]:
    relay = Relay(limits)
    server, port = await relay.serve("127.0.0.1", 0)
    return relay, server, f"ws://127.0.0.1:{port}"


async def _recv_all(ws: object, n: int) -> list[bytes]:
    return [await asyncio.wait_for(ws.recv(), 5) for _ in range(n)]  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_messages_are_forwarded_and_replayed_to_a_peer_that_comes_back() -> None:
    _, server, base = await _relay(Limits())
    room = f"{base}/room/{os.urandom(16).hex()}"
    try:
        async with await open_room(room) as a:
            async with await join_room(room) as b:
                await a.send(b"one")
                assert await asyncio.wait_for(b.recv(), 5) == b"one"
            await a.send(b"two")              # b is away
            async with await join_room(room) as b2:   # a newcomer gets the whole log
                assert await _recv_all(b2, 2) == [b"one", b"two"]
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_rooms_are_separate_and_paths_are_checked() -> None:
    _, server, base = await _relay(Limits())
    try:
        async with await open_room(f"{base}/room/{'a' * 32}") as a, \
                await open_room(f"{base}/room/{'b' * 32}") as b:
            await a.send(b"for room a")
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(b.recv(), 0.3)
        for path in ("/elsewhere", f"/room/{'f' * 32}"):  # no such path; a room not opened
            with pytest.raises(InvalidStatus) as refused:
                await connect(f"{base}{path}")
            assert refused.value.response.status_code == 404
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_resource_bounds_are_enforced() -> None:
    relay, server, base = await _relay(Limits(max_messages_per_room=3, max_rooms=1,
                                              max_connections_per_room=2, max_message=1000,
                                              idle_seconds=1.0))
    room = f"{base}/room/{'c' * 32}"
    try:
        async with await open_room(room) as a, await join_room(room):
            for i in range(4):
                await a.send(bytes([i]))       # the fourth pushes the oldest out
        async with await join_room(room) as late:
            assert await _recv_all(late, 3) == [b"\x01", b"\x02", b"\x03"]
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(late.recv(), 0.3)
        async with await join_room(room) as a, await join_room(room) as b:
            await a.send(b"\x04")
            await b.send(b"\x05")              # two seats talking: the room is in play
            await asyncio.sleep(0.1)
            with pytest.raises(InvalidStatus) as refused:  # the room cap: refused, and why
                await connect(f"{base}/room/{'d' * 32}{OPEN_ROOM}")
            assert refused.value.response.status_code == 503
            assert b"too many rooms" in refused.value.response.body
            with pytest.raises(InvalidStatus):   # a third connection in one room
                await connect(room)
        async with await join_room(room) as big:
            await big.send(b"x" * 2000)        # over the message size limit
            with pytest.raises(ConnectionClosed):
                while True:                    # (after the room's catch-up messages)
                    await asyncio.wait_for(big.recv(), 5)
        await asyncio.sleep(1.1)
        async with await open_room(f"{base}/room/{'e' * 32}") as fresh:  # idle rooms expired
            await fresh.send(b"hello")
        assert list(relay.rooms) == ["e" * 32]
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_room_takes_eight_seats_and_slack_by_default() -> None:
    relay, server, base = await _relay(Limits())
    room = f"{base}/room/{os.urandom(16).hex()}"
    try:
        async with await open_room(room) as host:
            seats = [await join_room(room)
                     for _ in range(relay.limits.max_connections_per_room - 1)]
            assert len(seats) + 1 >= 8 + 2
            await host.send(b"to all")
            for ws in seats:                      # every other connection gets it
                assert await asyncio.wait_for(ws.recv(), 5) == b"to all"
            with pytest.raises(InvalidStatus) as refused:
                await connect(room)
            assert refused.value.response.status_code == 503
            for ws in seats:
                await ws.close()
    finally:
        server.close()  # type: ignore[attr-defined]
