"""One connection's bounded send queue and its writer (spec/12-peers.md 12.3 "Links", 12.5).

Whoever forwards to several connections (a relay room, a listening host) puts each
message in every other connection's `Outbox` and goes on at once; each outbox has its
own writer task. A reader that is slow or has stopped reading therefore holds up
nobody but itself: when its queue is full, or one message waits more than SEND_TIMEOUT
to be taken, its connection is dropped (it may reconnect and catch up). The queue holds
references to the same bytes objects as the sender's, so a queue costs little memory.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed

#: A connection that does not take a message within this time is dropped.
SEND_TIMEOUT = 5.0
#: How long a dropped connection's closing handshake may take before its socket is cut.
CLOSE_GRACE = 1.0


class Outbox:
    """A bounded queue to `conn` (at most `max_messages` and `max_bytes`), and its writer.
    `on_drop(why)` hears once that the connection was dropped for being too slow."""

    def __init__(self, conn: Any, max_messages: int, max_bytes: int,
                 on_drop: Callable[[str], None] | None = None) -> None:
        self.conn = conn
        self.max_messages, self.max_bytes = max_messages, max_bytes
        self.on_drop = on_drop
        self.queue: deque[bytes | str] = deque()
        self.size = 0
        self.dropped = False
        self._wake = asyncio.Event()
        self._closing: asyncio.Task[None] | None = None
        self._task = asyncio.create_task(self._write())

    def put(self, message: bytes | str) -> bool:
        """Queue `message`; False (and the connection dropped) if the queue is full."""
        if self.dropped:
            return False
        if len(self.queue) >= self.max_messages or self.size + len(message) > self.max_bytes:
            self.drop("too slow: its send queue is full")
            return False
        self.queue.append(message)
        self.size += len(message)
        self._wake.set()
        return True

    async def _write(self) -> None:
        while not self.dropped:
            if not self.queue:
                self._wake.clear()
                await self._wake.wait()
                continue
            message = self.queue.popleft()
            self.size -= len(message)
            try:
                await asyncio.wait_for(self.conn.send(message), SEND_TIMEOUT)
            except TimeoutError:
                self.drop(f"too slow: took no message in {SEND_TIMEOUT:g} s")
            except ConnectionClosed:
                self.dropped = True

    def drop(self, why: str) -> None:
        """Give up on this connection: forget its queue and close it without waiting on
        it (a reader that does not read would not take the closing frame either)."""
        if self.dropped:
            return
        self.dropped = True
        self.queue.clear()
        self.size = 0
        self._wake.set()
        if self.on_drop is not None:
            self.on_drop(why)
        self._closing = asyncio.create_task(self._close(why))

    async def _close(self, why: str) -> None:
        """Close with `why` as the reason, cut to what a close frame holds (RFC 6455 5.5:
        125 bytes, 2 of them the code), then abort the transport whatever the close did."""
        try:
            with contextlib.suppress(Exception):   # TimeoutError, ConnectionClosed, ...
                await asyncio.wait_for(self.conn.close(1008, close_reason(why)), CLOSE_GRACE)
        finally:
            transport = getattr(self.conn, "transport", None)
            if transport is not None:
                transport.abort()

    async def stop(self) -> None:
        """The connection has ended: stop the writer."""
        self.dropped = True
        self._wake.set()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


#: The most UTF-8 bytes of a close reason (RFC 6455 5.5: a control frame's payload is at
#: most 125 bytes, 2 of them the close code).
MAX_CLOSE_REASON = 123


def close_reason(why: str) -> str:
    """`why` cut to at most MAX_CLOSE_REASON bytes of UTF-8, never inside a character."""
    return why.encode()[:MAX_CLOSE_REASON].decode("utf-8", "ignore")
