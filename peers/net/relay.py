"""An untrusted store-and-forward relay (spec/12-peers.md section 12.5).

Every seat (2 to 8) connects outward to ws://RELAY/room/<rendezvous id>; the host opens
the room (`?open`), and a joiner whose room does not exist is answered with HTTP
404 at once, so a mistyped invitation is reported instead of waited on. The relay keeps
each room's messages and forwards every message to the room's other
connections; a connection that arrives later (or comes back) first gets every
message the room holds, so a peer that reconnects gets what it missed. The
relay checks nothing and can forge nothing: peers verify every frame.

A room is freed as soon as its game is over: the host's hello said how many seats
play (K), every one of the K seats has said `done` with the same frame count and head, and
every connection has left. The relay reads those two small messages only for that;
it forwards them unchanged and trusts them for nothing else (a seat that lies frees
its own room early, which it could spoil anyway). A room that empties before its game
is over is kept for `idle_seconds`, so a seat that crashed can come back and catch up.

Resources are bounded (peers/net/relay_limits.py, one flag each); room events and
counters go through one place (peers/net/relay_events.py), and `GET /stats` answers
the counters as JSON.
For tests the relay can misbehave on purpose (`Chaos`): drop, duplicate or
reorder what it forwards.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import deque
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from peers.net.link import SEND_TIMEOUT, not_found
from peers.net.quiet_log import quiet_logger
from peers.net.relay_events import RelayEvents
from peers.net.relay_limits import Limits
from protocol.canonical import unpack
from protocol.errors import DealerlessError

__all__ = ["OPEN_ROOM", "Chaos", "Limits", "Relay", "run_relay"]

log = quiet_logger("dealerless.relay")  # websockets logs every connection here
ROOM_PATH = re.compile(r"^/room/([0-9a-f]{16,64})(\?open)?$")
#: What a host appends to its room URL: it may create the room; a joiner may not.
OPEN_ROOM = "?open"
STATS_PATH = "/stats"
#: The two peer messages the relay reads (12.3), told by their first bytes without
#: unpacking a frame: an 11-element array starting "hello" (the host's; a joiner's has 9),
#: a 4-element one "done".
HELLO_PREFIX, DONE_PREFIX = b"\x9b\xa5hello", b"\x94\xa4done"
MAX_READ = 4096


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
    creator: str
    log: deque[bytes] = field(default_factory=deque)
    size: int = 0
    connections: set[ServerConnection] = field(default_factory=set)
    held: dict[ServerConnection, bytes] = field(default_factory=dict)
    last_active: float = field(default_factory=time.monotonic)
    seats: int | None = None            # K, from the host's hello
    done: dict[int, int] = field(default_factory=dict)   # seat -> frame count it reported
    heads: dict[int, bytes] = field(default_factory=dict)   # seat -> its last frame's hash
    finished: bool = False

    def observe(self, message: bytes) -> bool:
        """Note the seat count or a seat's `done`; True when this finishes the game."""
        if len(message) > MAX_READ or not message.startswith((HELLO_PREFIX, DONE_PREFIX)):
            return False
        try:
            obj = unpack(message, MAX_READ)
        except DealerlessError:
            return False
        if message.startswith(HELLO_PREFIX):
            seats = obj[7]
            if obj[2] == "host" and type(seats) is int and 2 <= seats <= 8:
                self.seats = seats
            return False
        frames, seat, head = obj[1], obj[2], obj[3]
        if type(frames) is not int or type(seat) is not int or not 0 <= seat < 8 \
                or type(head) is not bytes:
            return False
        self.done[seat], self.heads[seat] = frames, head
        if self.finished or self.seats is None:
            return False
        # One chain at every seat (10.8): the same count and the same last frame.
        ends = [(self.done.get(s), self.heads.get(s)) for s in range(self.seats)]
        self.finished = (None, None) not in ends and len(set(ends)) == 1
        return self.finished


class Relay:
    def __init__(self, limits: Limits | None = None, chaos: Chaos | None = None) -> None:
        self.limits = limits or Limits()
        self.chaos = chaos or Chaos()
        self.rooms: dict[str, Room] = {}
        self.connections = 0
        self.kept_bytes = 0
        self.events = RelayEvents()

    @property
    def total_bytes(self) -> int:
        return self.kept_bytes

    def stats(self) -> dict[str, Any]:
        self.sweep()
        return self.events.stats(len(self.rooms), self.connections, self.kept_bytes)

    async def serve(self, host: str, port: int) -> tuple[object, int]:
        server = await serve(self._handle, host, port, max_size=self.limits.max_message,
                             compression=None, process_request=self._admit, logger=log)
        sockets = list(server.sockets)
        return server, int(sockets[0].getsockname()[1]) if sockets else port

    def sweep(self) -> None:
        """Free every room that has been empty, its game unfinished, for idle_seconds."""
        now = time.monotonic()
        for rid in [r for r, room in self.rooms.items()
                    if not room.connections and now - room.last_active
                    > self.limits.idle_seconds]:
            self._free(rid, f"empty and quiet for {self.limits.idle_seconds:g} s")

    def _free(self, rid: str, why: str) -> None:
        room = self.rooms.pop(rid)
        self.kept_bytes -= room.size
        self.events.freed(rid, why, len(self.rooms))

    def _refusal(self, address: str, path: str) -> tuple[str, str] | None:
        """(kind, reason) if this connection may not enter the room its path names."""
        match = ROOM_PATH.match(path)
        if match is None:
            return "path", "unknown path: use /room/<rendezvous id>"
        self.sweep()
        limits = self.limits
        room = self.rooms.get(match.group(1))
        if room is None:
            if not match.group(2):
                return "no-room", "no such room"
            if len(self.rooms) >= limits.max_rooms:
                return "max_rooms", (f"relay full: too many rooms: {len(self.rooms)} open "
                                     f"({limits.flag('max_rooms')})")
            mine = sum(1 for r in self.rooms.values() if r.creator == address)
            if mine >= limits.max_rooms_per_address:
                return "max_rooms_per_address", (
                    f"relay full: too many rooms from this address: {mine} open "
                    f"({limits.flag('max_rooms_per_address')})")
        elif len(room.connections) >= limits.max_connections_per_room:
            return "max_connections_per_room", (
                f"relay full: too many connections in this room: {len(room.connections)} "
                f"({limits.flag('max_connections_per_room')})")
        if self.connections >= limits.max_connections:
            return "max_connections", (f"relay full: too many connections: {self.connections} "
                                       f"({limits.flag('max_connections')})")
        return None

    def _admit(self, conn: ServerConnection, request: Request) -> Response | None:
        """Refuse in the HTTP handshake, so the client can tell the user why."""
        if request.path == STATS_PATH:
            response = conn.respond(HTTPStatus.OK, json.dumps(self.stats()) + "\n")
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "application/json"
            return response
        address = _address(conn)
        refused = self._refusal(address, request.path)
        if refused is None:
            return None
        kind, why = refused
        self.events.refuse(kind, request.path, address, why)
        if kind.startswith("max_"):
            return conn.respond(HTTPStatus.SERVICE_UNAVAILABLE, why + "\n")
        return not_found(conn, why)

    async def _handle(self, conn: ServerConnection) -> None:
        path = conn.request.path if conn.request is not None else ""
        address = _address(conn)
        refused = self._refusal(address, path)  # again: the room may have changed
        if refused is not None:
            kind, why = refused
            self.events.refuse(kind, path, address, why)
            await conn.close(1013 if kind.startswith("max_") else 1008, why)
            return
        match = ROOM_PATH.match(path)
        assert match is not None
        rid = match.group(1)
        room = self.rooms.get(rid)
        if room is None:  # created only once the connection is accepted
            room = self.rooms[rid] = Room(creator=address)
            self.events.opened(rid, address, len(self.rooms))
        else:
            self.events.joined(rid, address, len(room.connections) + 1)
        room.connections.add(conn)
        self.connections += 1
        try:
            for logged in list(room.log):  # catch up on everything the room holds
                self.events.bytes_out += len(logged)
                await self._send(conn, logged)
            async for message in conn:
                if isinstance(message, bytes):
                    await self._relay(rid, room, conn, message)
        except ConnectionClosed:
            pass
        finally:
            room.connections.discard(conn)
            room.held.pop(conn, None)
            room.last_active = time.monotonic()
            self.connections -= 1
            if not room.connections and self.rooms.get(rid) is room:
                if room.finished:
                    self._free(rid, "game over, every seat left")
                elif not room.log:
                    self._free(rid, "empty: nothing was sent")

    async def _relay(self, rid: str, room: Room, conn: ServerConnection,
                     message: bytes) -> None:
        # A full room forgets its oldest messages rather than stopping a live
        # game: peers resend what the other side asks for (SYNC), so the log
        # only speeds up catching up after a reconnect.
        limits = self.limits
        while room.log and (len(room.log) >= limits.max_messages_per_room
                            or room.size + len(message) > limits.max_bytes_per_room
                            or self.kept_bytes + len(message) > limits.max_total_bytes):
            dropped = len(room.log.popleft())
            room.size -= dropped
            self.kept_bytes -= dropped
        room.log.append(message)
        room.size += len(message)
        self.kept_bytes += len(message)
        room.last_active = time.monotonic()
        if room.observe(message):
            self.events.finished(rid, room.seats or 0, room.done.get(0, 0))
        others = list(room.connections - {conn})
        self.events.relayed(len(message), len(message) * len(others))
        for other in others:
            await self._forward(room, other, message)

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


def _address(conn: ServerConnection) -> str:
    return str(conn.remote_address[0]) if conn.remote_address else ""


async def run_relay(host: str, port: int, limits: Limits | None = None,
                    chaos: Chaos | None = None, ready: asyncio.Event | None = None,
                    stats_every: float = 60.0) -> None:
    """Serve until cancelled; free quiet rooms as they expire, and log the counters every
    `stats_every` seconds when they have changed (0: never)."""
    relay = Relay(limits, chaos)
    server, bound = await relay.serve(host, port)
    print(f"relay listening on ws://{host}:{bound}/room/<rendezvous id>", flush=True)
    if ready is not None:
        ready.set()
    tick = min(5.0, relay.limits.idle_seconds / 4)
    last_line, last_stats = time.monotonic(), ""
    try:
        while True:
            await asyncio.sleep(tick)
            relay.sweep()
            if stats_every and time.monotonic() - last_line >= stats_every:
                stats = relay.stats()
                shown = json.dumps({k: v for k, v in stats.items() if k != "uptime_s"})
                if shown != last_stats:
                    relay.events.report(stats)
                    last_stats = shown
                last_line = time.monotonic()
    finally:
        server.close()  # type: ignore[attr-defined]
