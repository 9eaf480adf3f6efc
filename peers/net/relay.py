"""An untrusted store-and-forward relay (spec/12-peers.md section 12.5).

Every seat (2 to 8) connects outward to ws://RELAY/room/<rendezvous id>; the host opens
the room (`?open`), and a joiner whose room does not exist is answered with HTTP
404 at once, so a mistyped invitation is reported instead of waited on. The relay keeps
each room's messages and forwards every message to the room's other
connections; a connection that arrives later (or comes back) first gets every
message the room holds, so a peer that reconnects gets what it missed. The
relay checks nothing and can forge nothing: peers verify every frame.

Resources are bounded: message size, messages and bytes per room (a full room
forgets its oldest messages), rooms, connections per room and in all, and an
idle time after which a room expires.
For tests the relay can misbehave on purpose (`Chaos`): drop, duplicate or
reorder what it forwards.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import deque
from dataclasses import dataclass, field
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from peers.net.link import MAX_MESSAGE_BYTES, SEND_TIMEOUT, not_found
from peers.net.quiet_log import quiet_logger

log = quiet_logger("dealerless.relay")  # websockets logs every connection here
ROOM_PATH = re.compile(r"^/room/([0-9a-f]{16,64})(\?open)?$")
#: What a host appends to its room URL: it may create the room; a joiner may not.
OPEN_ROOM = "?open"


@dataclass(frozen=True)
class Limits:
    max_message: int = MAX_MESSAGE_BYTES
    max_messages_per_room: int = 4096
    max_bytes_per_room: int = 8 << 20
    max_rooms: int = 256
    max_connections_per_room: int = 12  # 8 seats, and slack for reconnections
    max_connections: int = 512
    max_rooms_per_address: int = 16
    max_total_bytes: int = 256 << 20
    idle_seconds: float = 3600.0


@dataclass
class Chaos:
    """Deliberate misbehaviour for tests: probabilities per forwarded message."""

    drop: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    rng: random.Random = field(default_factory=random.Random)

    @property
    def active(self) -> bool:
        return self.drop > 0 or self.duplicate > 0 or self.reorder > 0


@dataclass
class Room:
    log: deque[bytes] = field(default_factory=deque)
    size: int = 0
    connections: set[ServerConnection] = field(default_factory=set)
    held: dict[ServerConnection, bytes] = field(default_factory=dict)
    last_active: float = field(default_factory=time.monotonic)
    creator: str = ""


class Relay:
    def __init__(self, limits: Limits | None = None, chaos: Chaos | None = None) -> None:
        self.limits = limits or Limits()
        self.chaos = chaos or Chaos()
        self.rooms: dict[str, Room] = {}
        self.connections = 0

    @property
    def total_bytes(self) -> int:
        return sum(room.size for room in self.rooms.values())

    async def serve(self, host: str, port: int) -> tuple[object, int]:
        server = await serve(self._handle, host, port, max_size=self.limits.max_message,
                             compression=None, process_request=self._admit, logger=log)
        sockets = list(server.sockets)
        return server, int(sockets[0].getsockname()[1]) if sockets else port

    def _expire(self) -> None:
        now = time.monotonic()
        for rid in [r for r, room in self.rooms.items()
                    if not room.connections and now - room.last_active > self.limits.idle_seconds]:
            del self.rooms[rid]

    def _refusal(self, conn: ServerConnection, path: str) -> str | None:
        """Why this connection may not enter the room its path names, if it may not."""
        match = ROOM_PATH.match(path)
        if match is None:
            return "unknown path: use /room/<rendezvous id>"
        self._expire()
        address = str(conn.remote_address[0]) if conn.remote_address else ""
        room = self.rooms.get(match.group(1))
        if room is None:
            if not match.group(2):
                return "no such room"
            mine = sum(1 for r in self.rooms.values() if r.creator == address)
            if (len(self.rooms) >= self.limits.max_rooms
                    or mine >= self.limits.max_rooms_per_address):
                return "relay full: too many rooms"
        if ((room is not None and len(room.connections) >= self.limits.max_connections_per_room)
                or self.connections >= self.limits.max_connections):
            return "relay full: too many connections"
        return None

    def _admit(self, conn: ServerConnection, request: Request) -> Response | None:
        """Refuse in the HTTP handshake, so the client can tell the user why."""
        why = self._refusal(conn, request.path)
        if why is None:
            return None
        if why.startswith("relay full"):
            return conn.respond(HTTPStatus.SERVICE_UNAVAILABLE, why + "\n")
        return not_found(conn, why)

    async def _handle(self, conn: ServerConnection) -> None:
        path = conn.request.path if conn.request is not None else ""
        why = self._refusal(conn, path)  # again: the room may have changed since _admit
        if why is not None:
            await conn.close(1013 if why.startswith("relay full") else 1008, why)
            return
        match = ROOM_PATH.match(path)
        assert match is not None
        rid = match.group(1)
        address = str(conn.remote_address[0]) if conn.remote_address else ""
        room = self.rooms.get(rid)
        if room is None:  # created only once the connection is accepted
            room = self.rooms[rid] = Room(creator=address)
        room.connections.add(conn)
        self.connections += 1
        try:
            for logged in list(room.log):  # catch up on everything the room holds
                await self._send(conn, logged)
            async for message in conn:
                if not isinstance(message, bytes):
                    continue
                # A full room forgets its oldest messages rather than stopping a live
                # game: peers resend what the other side asks for (SYNC), so the log
                # only speeds up catching up after a reconnect.
                while room.log and (len(room.log) >= self.limits.max_messages_per_room
                                    or room.size + len(message)
                                    > self.limits.max_bytes_per_room
                                    or self.total_bytes + len(message)
                                    > self.limits.max_total_bytes):
                    room.size -= len(room.log.popleft())
                room.log.append(message)
                room.size += len(message)
                room.last_active = time.monotonic()
                for other in list(room.connections - {conn}):
                    await self._forward(room, other, message)
        except ConnectionClosed:
            pass
        finally:
            room.connections.discard(conn)
            room.held.pop(conn, None)
            room.last_active = time.monotonic()
            self.connections -= 1
            if not room.connections and not room.log:
                self.rooms.pop(rid, None)  # nothing to keep: an empty room costs a slot

    async def _forward(self, room: Room, conn: ServerConnection, message: bytes) -> None:
        chaos = self.chaos
        out = [message]
        if chaos.active:
            rng = chaos.rng
            if rng.random() < chaos.drop:
                out = []
            elif rng.random() < chaos.duplicate:
                out = [message, message]
            if out and rng.random() < chaos.reorder and conn not in room.held:
                room.held[conn] = out.pop()      # sent after the next message instead
            elif conn in room.held:
                out.append(room.held.pop(conn))
        for m in out:
            await self._send(conn, m)

    @staticmethod
    async def _send(conn: ServerConnection, message: bytes) -> None:
        """Send, or give up on a reader too slow to take a message in SEND_TIMEOUT."""
        try:
            await asyncio.wait_for(conn.send(message), SEND_TIMEOUT)
        except TimeoutError:
            await conn.close(1008, "too slow")
        except ConnectionClosed:
            pass


async def run_relay(host: str, port: int, limits: Limits | None = None,
                    chaos: Chaos | None = None, ready: asyncio.Event | None = None) -> None:
    relay = Relay(limits, chaos)
    server, bound = await relay.serve(host, port)
    print(f"relay listening on ws://{host}:{bound}/room/<rendezvous id>", flush=True)
    if ready is not None:
        ready.set()
    await asyncio.Future()  # run until cancelled
    del server
