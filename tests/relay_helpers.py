"""Raw websocket seats for relay tests: entering a room as spec/12-peers.md 12.5 says
(the opener pays the proof of work; everyone reads the `room` line first)."""

from __future__ import annotations

from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from peers.bench.relay_load import enter_room
from peers.net.relay import OPEN_ROOM


async def open_room(url: str, **kwargs: Any) -> ClientConnection:
    """Open the room at `url` (…/room/<id>), paying its proof of work."""
    ws = await connect(url + OPEN_ROOM, **kwargs)
    await enter_room(ws, url.rpartition("/")[2], 30)
    return ws


async def join_room(url: str, **kwargs: Any) -> ClientConnection:
    """Enter the room at `url` (with any `?from=` already in it)."""
    ws = await connect(url, **kwargs)
    await enter_room(ws, url.rpartition("/")[2].partition("?")[0], 30)
    return ws
