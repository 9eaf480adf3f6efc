"""A relay with `--suite` reads the suite of its rooms' host hellos only from the opener's
connection (spec/12-peers.md 12.5 "Suites"): no other member can have a live room freed,
and a refused hello closes its connection whatever its text (close reasons are cut to
123 bytes of UTF-8)."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from peers.bench.relay_load import BENCH_SECRET, enter_room
from peers.net.messages import PROTOCOL_VERSION
from peers.net.outbox import MAX_CLOSE_REASON, close_reason
from peers.net.relay import Relay
from peers.net.relay_gate import open_room
from protocol.canonical import pack

BLS = "bls12381g1-sha256"


def host_hello(suite: str) -> bytes:
    """An unsigned host hello (the relay checks no signature) naming `suite`."""
    return pack(["hello", PROTOCOL_VERSION, "host", bytes(32), bytes(32), "bram", {}, 2, 0,
                 [bytes(32)], suite, bytes(64)])


async def _room(relay: Relay) -> tuple[Any, ClientConnection, ClientConnection, str]:
    server, port = await relay.serve("127.0.0.1", 0)
    base, rid = f"ws://127.0.0.1:{port}/room/", os.urandom(16).hex()
    host = await connect(base + rid + open_room(BLS))
    await enter_room(host, rid, 30, BENCH_SECRET)
    await host.send(host_hello(BLS))
    joiner = await connect(base + rid)
    await enter_room(joiner, rid, 30, BENCH_SECRET)
    return server, host, joiner, rid


async def _closed(conn: ClientConnection) -> None:
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(conn.recv(), 5)


@pytest.mark.asyncio
@pytest.mark.parametrize("suite", ["ristretto255-sha512", "\u00e9" * 64])
async def test_a_member_cannot_free_a_live_room_with_a_forged_host_hello(suite: str) -> None:
    relay = Relay(suites=frozenset({BLS}))
    server, host, joiner, rid = await _room(relay)
    try:
        await joiner.send(host_hello(suite))
        await asyncio.sleep(0.5)
        assert rid in relay.rooms and not relay.stats()["rooms_freed"]
        assert host.protocol.state is State.OPEN and joiner.protocol.state is State.OPEN
        assert relay.rooms[rid].seats == 2
    finally:
        await host.close()
        await joiner.close()
        server.close()


@pytest.mark.asyncio
async def test_the_openers_hello_of_another_suite_is_refused_and_its_connection_closed(
        ) -> None:
    """Even with a suite of 64 two-byte characters, whose reason would pass a close
    frame's 125 bytes: the connection is closed, with no error left in the loop."""
    errors: list[Any] = []
    asyncio.get_running_loop().set_exception_handler(lambda _, ctx: errors.append(ctx))
    relay = Relay(suites=frozenset({BLS}))
    server, port = await relay.serve("127.0.0.1", 0)
    base, rid = f"ws://127.0.0.1:{port}/room/", os.urandom(16).hex()
    try:
        async with connect(base + rid + open_room(BLS)) as host:
            await enter_room(host, rid, 30, BENCH_SECRET)
            await host.send(host_hello("\u00e9" * 64))
            await _closed(host)
        assert rid in relay.rooms or "empty: nothing was sent" in relay.stats()["rooms_freed"]
        (why,) = relay.stats()["dropped"]
        assert why.startswith("its host's hello names the suite '\\xe9\\xe9")
        await asyncio.sleep(0.1)
        assert not errors
    finally:
        server.close()  # type: ignore[attr-defined]


def test_a_close_reason_is_cut_by_bytes_never_inside_a_character() -> None:
    assert close_reason("a" * 200) == "a" * MAX_CLOSE_REASON
    cut = close_reason("\u00e9" * 100)
    assert cut == "\u00e9" * 61 and len(cut.encode()) <= MAX_CLOSE_REASON
