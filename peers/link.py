"""Links: unreliable message pipes between two peers (spec/12-peers.md section 12.3).

A link carries binary messages, one per websocket message. It promises
nothing: a message may be lost while the connection is down, or be
duplicated, delayed or reordered by a relay. The peer protocol above it is
idempotent and pulls what it misses (SYNC), so a link only has to try.

- HostLink listens (`dealerless host --listen`) and sends to every connection
  on the game's path (at most a few).
- ClientLink connects outward, to a host or to a relay room, and reconnects
  with backoff whenever the connection drops.
- MemoryLink is an in-process pair for tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from websockets.asyncio.client import connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from protocol.frames import MAX_FRAME_BYTES

#: A peer message is a frame plus a small envelope.
MAX_MESSAGE_BYTES = MAX_FRAME_BYTES + 256
#: A connection that does not take a message within this time is given up on.
SEND_TIMEOUT = 5.0
MAX_HOST_CONNECTIONS = 4
log = logging.getLogger("dealerless.link")


class Link(Protocol):
    async def send(self, message: bytes) -> None: ...

    async def recv(self, timeout: float) -> bytes | None: ...

    async def close(self) -> None: ...


async def _send(conn: Any, message: bytes) -> None:
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        await asyncio.wait_for(conn.send(message), SEND_TIMEOUT)


class _Queued:
    def __init__(self) -> None:
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue(maxsize=1024)

    def _put(self, message: Any) -> None:
        if not isinstance(message, bytes) or len(message) > MAX_MESSAGE_BYTES:
            log.warning("dropped a text or oversized message")
            return
        with contextlib.suppress(asyncio.QueueFull):
            self.inbox.put_nowait(message)

    async def recv(self, timeout: float) -> bytes | None:
        try:
            return await asyncio.wait_for(self.inbox.get(), timeout)
        except TimeoutError:
            return None


class HostLink(_Queued):
    """Listen on host:port; accept peers on `path` only."""

    def __init__(self, host: str, port: int, path: str) -> None:
        super().__init__()
        self.host, self.port, self.path = host, port, path
        self.connections: set[ServerConnection] = set()
        self.server: Server | None = None

    async def start(self) -> int:
        self.server = await serve(self._handle, self.host, self.port,
                                  max_size=MAX_MESSAGE_BYTES, compression=None)
        sockets = list(self.server.sockets)
        return int(sockets[0].getsockname()[1]) if sockets else self.port

    async def _handle(self, conn: ServerConnection) -> None:
        if conn.request is None or conn.request.path != self.path:
            await conn.close(1008, "no such game here")
            return
        if len(self.connections) >= MAX_HOST_CONNECTIONS:
            await conn.close(1013, "too many connections")
            return
        self.connections.add(conn)
        try:
            async for message in conn:
                self._put(message)
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(conn)

    async def send(self, message: bytes) -> None:
        # To every connection on the game's path: a stranger who connects too cannot
        # divert our messages from the real opponent (it learns nothing secret either).
        for conn in list(self.connections):
            await _send(conn, message)

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


class ClientLink(_Queued):
    """Connect to `url` and stay connected, reconnecting with capped backoff."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.conn: Any = None
        self.task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        delay = 0.1
        while True:
            try:
                async with connect(self.url, max_size=MAX_MESSAGE_BYTES, compression=None,
                                   open_timeout=5) as conn:
                    self.conn, delay = conn, 0.1
                    self.connected.set()
                    async for message in conn:
                        self._put(message)
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                log.info("link to %s down (%s); retrying", self.url, type(exc).__name__)
            except InvalidURI:
                log.error("not a websocket URL: %s", self.url)
                return
            finally:
                self.conn = None
                self.connected.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    async def send(self, message: bytes) -> None:
        conn = self.conn
        if conn is not None:
            await _send(conn, message)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


class MemoryLink(_Queued):
    """One end of an in-process pair; `pair()` makes both ends."""

    def __init__(self) -> None:
        super().__init__()
        self.other: MemoryLink | None = None

    @staticmethod
    def pair() -> tuple[MemoryLink, MemoryLink]:
        a, b = MemoryLink(), MemoryLink()
        a.other, b.other = b, a
        return a, b

    async def send(self, message: bytes) -> None:
        if self.other is not None:
            self.other._put(message)

    async def close(self) -> None:
        self.other = None
