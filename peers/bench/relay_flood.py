"""Hostile clients of a relay, for its tests and its flood benchmark (spec/12-peers.md 12.5).

Theory of operation
-------------------
Each attack is what an unauthenticated stranger can do to a relay at will, from any
number of loopback addresses (127.0.0.x, which Linux routes to itself):
- `hold_rooms`: open as many rooms as the relay lets one address have (paying each proof
  of work), join each with extra connections, keep them talking with junk, and open a
  room again whenever one is taken away, until told to stop;
- `ping_flood`: enter a room and send websocket pings as fast as possible, again and again;
- `StalledReader`: enter a room, send one message, and never read again (a raw socket
  with a small receive buffer, so that nothing reads on its behalf).
`measure_flood` runs a real `dealerless relay` process under these attacks while
lightweight seats (peers/bench/relay_load.py) replay recorded games through it, and
reports the relay's CPU and memory from /proc and the games' times.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import struct
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from peers.bench.relay_load import BENCH_SECRET, MAX_MESSAGE, OPEN_ROOM, enter_room
from peers.net.invitation import dial_url, parse_invitation
from protocol.relay_entry import room_seed, sign_entry


@dataclass
class Tally:
    """What the attackers managed, and how the relay answered them."""

    rooms_opened: int = 0
    connections: int = 0
    pings_sent: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    closed: Counter[str] = field(default_factory=Counter)

    def refusal(self, exc: BaseException) -> None:
        status = getattr(getattr(exc, "response", None), "status_code", None)
        self.refused[str(status) if status else type(exc).__name__] += 1

    def ended(self, exc: ConnectionClosed) -> None:
        reason = exc.rcvd.reason if exc.rcvd is not None else "no close frame"
        self.closed[reason.split(":")[0] or "closed"] += 1


async def _dial(url: str, address: str, room: str) -> ClientConnection:
    ws = await connect(url, max_size=MAX_MESSAGE, compression=None, open_timeout=10,
                       local_addr=(address, 0))
    try:
        await enter_room(ws, room, 30)
    except BaseException:
        await ws.close()
        raise
    return ws


async def _talk(ws: ClientConnection, every: float, stop: asyncio.Event,
                tally: Tally) -> None:
    """Read everything (so the relay's keepalive is answered) and send junk every
    `every` seconds, until `stop` or the relay closes the connection."""
    async def drain() -> None:
        async for _ in ws:
            pass

    reader = asyncio.create_task(drain())
    try:
        while not stop.is_set() and not reader.done():
            await ws.send(os.urandom(3))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)
    except ConnectionClosed:
        pass
    finally:
        if reader.done() and not stop.is_set():   # the relay closed it
            tally.closed[(ws.close_reason or "closed").split(":")[0]] += 1
        await ws.close()
        with contextlib.suppress(ConnectionClosed):
            await reader


async def _hold_one(base: str, address: str, joiners: int, every: float,
                    stop: asyncio.Event, tally: Tally) -> None:
    """One room held for as long as possible, and opened again when it is taken."""
    while not stop.is_set():
        room = os.urandom(16).hex()
        url = f"{base}/room/{room}"
        try:
            ws = await _dial(url + OPEN_ROOM, address, room)
            tally.rooms_opened += 1
            held = [ws] + [await _dial(url, address, room) for _ in range(joiners)]
        except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError, RuntimeError) \
                as exc:
            tally.refusal(exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.5)
            continue
        tally.connections += len(held)
        await asyncio.gather(*(_talk(w, every, stop, tally) for w in held))


async def hold_rooms(base: str, addresses: list[str], rooms: int, joiners: int,
                     stop: asyncio.Event, tally: Tally, every: float = 5.0) -> None:
    """`rooms` rooms from each address, each with `joiners` extra connections, until
    `stop` (and at most 5 s more: then whatever is still under way is cancelled)."""
    holders = [asyncio.create_task(_hold_one(base, a, joiners, every, stop, tally))
               for a in addresses for _ in range(rooms)]
    await stop.wait()
    _, late = await asyncio.wait(holders, timeout=5)
    for task in late:
        task.cancel()
    await asyncio.gather(*holders, return_exceptions=True)


async def ping_flood(base: str, address: str, seconds: float, tally: Tally) -> None:
    """Open a room and ping as fast as the relay lets; again, for `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        room = os.urandom(16).hex()
        try:
            ws = await _dial(f"{base}/room/{room}{OPEN_ROOM}", address, room)
        except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError) as exc:
            tally.refusal(exc)
            await asyncio.sleep(0.2)
            continue
        try:
            while time.monotonic() < deadline:
                await ws.ping(os.urandom(4))
                tally.pings_sent += 1
                await asyncio.sleep(0)
        except ConnectionClosed as exc:
            tally.ended(exc)
        finally:
            await ws.close()


class StalledReader:
    """A connection to a room that sends one message and then never reads."""

    def __init__(self, url: str, address: str = "127.0.0.1") -> None:
        rest = dial_url(url).split("://", 1)[1]   # the invitation's secret stays here
        hostport, _, path = rest.partition("/")
        host, _, port = hostport.rpartition(":")
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.bind((address, 0))
        self.sock.settimeout(10)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           ).encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("the relay closed the stalled reader's handshake")
            answer += chunk
        if b" 101 " not in answer.split(b"\r\n", 1)[0]:
            raise ConnectionError(answer.split(b"\r\n", 1)[0].decode(errors="replace"))
        # An invitee (it holds the room secret) signs the relay's challenge as a seat does
        # (12.5 "Room key"), then sends one message and reads nothing ever again.
        line = self._text().split()
        if line[:1] == ["prove"]:
            room = path.rpartition("/")[2].partition("?")[0]
            secret = parse_invitation(url).room if "#" in url else BENCH_SECRET
            signature = sign_entry(room_seed(secret, room), bytes.fromhex(line[1]), room)
            self.sock.sendall(_masked(signature.hex().encode(), TEXT))
        self.sock.sendall(_masked(b"\x91\xa4sync", BINARY))

    def _text(self) -> str:
        """The relay's first (short, unmasked) text message."""
        head = self._exactly(2)
        size = head[1] & 0x7F
        if head[0] & 0x0F != TEXT or size > 125:
            raise ConnectionError("the relay sent no entry line")
        return self._exactly(size).decode()

    def _exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("the relay closed the stalled reader")
            data += chunk
        return data

    def close(self) -> None:
        self.sock.close()


TEXT, BINARY = 0x1, 0x2


def _masked(payload: bytes, opcode: int) -> bytes:
    """One final, masked websocket frame (RFC 6455 5.2), as a client must send."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    size = struct.pack("!B", 0x80 | len(payload)) if len(payload) < 126 else \
        struct.pack("!BH", 0x80 | 126, len(payload))
    return struct.pack("!B", 0x80 | opcode) + size + mask + body


def loopback(count: int, first: int = 2) -> list[str]:
    """`count` loopback addresses, 127.0.0.<first> on."""
    return [f"127.0.0.{first + i}" for i in range(count)]


def summary(tally: Tally) -> dict[str, Any]:
    return {"rooms_opened": tally.rooms_opened, "connections": tally.connections,
            "pings_sent": tally.pings_sent, "refused": dict(tally.refused),
            "closed": dict(tally.closed)}
