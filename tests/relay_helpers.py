"""Raw websocket seats for relay tests: entering a room as spec/12-peers.md 12.5 says
(the opener pays the proof of work; everyone reads the `room` line first)."""

from __future__ import annotations

from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from peers.bench.relay_load import BENCH_SECRET, enter_room
from peers.net.relay import OPEN_ROOM
from protocol.relay_entry import room_seed

#: The room key seed of in-process seats' relay links (any seed works, as long as
#: every seat of a room uses the one its opener gave: 12.5 "Room key").
SEED = room_seed(BENCH_SECRET, "tests")


def seed_of(url: str) -> bytes:
    """The room key seed `open_room` and `join_room` use for the room at `url`."""
    return room_seed(BENCH_SECRET, url.rpartition("/")[2].partition("?")[0])


async def open_room(url: str, secret: bytes = BENCH_SECRET, **kwargs: Any
                    ) -> ClientConnection:
    """Open the room at `url` (…/room/<id>), paying its proof of work."""
    ws = await connect(url + OPEN_ROOM, **kwargs)
    await enter_room(ws, url.rpartition("/")[2], 30, secret)
    return ws


async def join_room(url: str, secret: bytes = BENCH_SECRET, **kwargs: Any
                    ) -> ClientConnection:
    """Enter the room at `url` (with any `?from=` already in it), signing with the room
    key of `secret`."""
    ws = await connect(url, **kwargs)
    await enter_room(ws, url.rpartition("/")[2].partition("?")[0], 30, secret)
    return ws
