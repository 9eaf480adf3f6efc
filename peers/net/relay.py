"""An untrusted store-and-forward relay (spec/12-peers.md section 12.5).

Every seat (2 to 8) connects outward to ws://RELAY/room/<rendezvous id>; the host opens
the room (`?open`) after a small proof of work, and a joiner whose room does not exist
is answered with HTTP 404 at once, so a mistyped invitation is reported instead of
waited on. The relay keeps each room's messages and forwards every message to the
room's other connections, each through its own bounded queue and writer
(peers/net/outbox.py), so a reader that stalls holds up nobody else. A newcomer first
gets the room's log, or only what is new if it says what it holds (`?from=`). The relay
checks nothing of the game and can forge nothing: peers verify every frame. It checks
only that whoever takes a place in a room holds the room key (protocol/relay_entry.py:
the opener gives its public half, everyone else signs a fresh challenge), so that a
room's path, which is no secret, lets nobody fill it.

A room is freed as soon as its game is over: the host's hello said how many seats
play (K), every one of the K seats has said `done` with the same frame count and head, and
every connection has left. The relay reads those two small messages only for that;
it forwards them unchanged and trusts them for nothing else. A room is also freed when
nobody joins it in time, when it goes quiet, or when a fairer share needs its slot;
a room that empties before its game is over is kept for `idle_seconds`, so a seat
that crashed can come back and catch up.

Resources are bounded (peers/net/relay_limits.py, one flag each; who gets them:
peers/net/relay_admission.py); room events and counters go through one place
(peers/net/relay_events.py); `GET /stats` answers the counters as JSON, `GET /seat/` the
browser seat (relay_seat.py). In tests it drops, repeats or reorders (`Chaos`).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from peers.net.link import NO_SUCH_GAME, not_found
from peers.net.outbox import Outbox
from peers.net.quiet_log import quiet_logger
from peers.net.relay_admission import (
    IDLE,
    KEEPALIVE,
    PLAYING,
    PLAYING_SECONDS,
    WAITING,
    Admission,
    Claim,
    RelayConnection,
)
from peers.net.relay_events import RelayEvents
from peers.net.relay_gate import address_of, ask_proof, ask_work, parse_path, suite_refusal
from peers.net.relay_limits import Limits
from peers.net.relay_room import Chaos, Room
from peers.net.relay_seat import seat_response

__all__ = ["OPEN_ROOM", "Chaos", "Limits", "Relay"]

log = quiet_logger("dealerless.relay")  # websockets logs every connection here
#: What a host appends to its room URL: it may create the room; a joiner may not.
OPEN_ROOM = "?open"
STATS_PATH = "/stats"
#: How many freed rooms the relay remembers, so that a seat coming back is told its room
#: was freed (and why) rather than that its invitation is wrong.
FREED_MEMORY = 4096


@dataclass
class Member:
    """One connection: its network, its room, and when it last sent a message."""

    conn: ServerConnection
    owner: str
    outbox: Outbox
    quiet_since: float = field(default_factory=time.monotonic)
    spoke: bool = False        # answered its proof of work, or sent a message
    sent: bool = False         # sent a room message
    room: str | None = None
    key: bytes | None = None   # the room key it gave when it paid to open the room


class Relay:
    def __init__(self, limits: Limits | None = None, chaos: Chaos | None = None,
                 suites: frozenset[str] = frozenset()) -> None:
        self.limits = limits or Limits()
        self.suites = suites   # the suites whose rooms it admits; none: every suite
        self.chaos = chaos or Chaos()
        self.rooms: dict[str, Room] = {}
        self.members: dict[ServerConnection, Member] = {}
        self.kept_bytes = 0
        self.events = RelayEvents()
        self.admission = Admission(self.limits)
        self.freed: OrderedDict[str, str] = OrderedDict()   # room id -> why it was freed
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def connections(self) -> int:
        return len(self.members)

    @property
    def total_bytes(self) -> int:
        return self.kept_bytes

    def stats(self) -> dict[str, Any]:
        self.sweep()
        return {**self.events.stats(len(self.rooms), self.connections, self.kept_bytes),
                "suites": sorted(self.suites)}

    async def serve(self, host: str, port: int) -> tuple[object, int]:
        server = await serve(self._handle, host, port, max_size=self.limits.max_message,
                             compression=None, process_request=self._admit, logger=log,
                             create_connection=RelayConnection, ping_interval=KEEPALIVE,
                             ping_timeout=KEEPALIVE)
        self._sweeper = asyncio.create_task(self._sweep_while(server))
        sockets = list(server.sockets)
        return server, int(sockets[0].getsockname()[1]) if sockets else port

    async def _sweep_while(self, server: Any) -> None:
        """Sweep every second for as long as `server` serves."""
        while server.server.is_serving():
            self.sweep()
            await asyncio.sleep(1.0)

    def sweep(self) -> None:
        """Free the rooms whose time is up, and drop connections that never spoke."""
        now, limits = time.monotonic(), self.limits
        for rid, room in list(self.rooms.items()):
            if room.connections and not room.joined \
                    and now - room.opened_at > limits.unjoined_seconds:
                self._free(rid, f"nobody joined in {limits.unjoined_seconds:g} s")
            elif room.connections and now - room.last_active > limits.quiet_seconds:
                self._free(rid, f"no message for {limits.quiet_seconds:g} s")
            elif not room.connections and now - room.last_message > limits.idle_seconds:
                self._free(rid, f"empty and quiet for {limits.idle_seconds:g} s")
        for member in list(self.members.values()):
            if not member.spoke and now - member.quiet_since > limits.quiet_seconds:
                member.outbox.drop(f"sent nothing in {limits.quiet_seconds:g} s")

    def _free(self, rid: str, why: str) -> None:
        room = self.rooms.pop(rid)
        self.kept_bytes -= room.size
        self.events.freed(rid, why, len(self.rooms))
        self.freed[rid] = why
        while len(self.freed) > FREED_MEMORY:
            self.freed.popitem(last=False)
        for outbox in room.connections.values():
            outbox.drop(f"room freed: {why}")

    def _tier(self, room: Room, now: float) -> int:
        """IDLE (empty, or no message for PLAYING_SECONDS), PLAYING (two of its
        connections have sent messages), else WAITING (relay_admission.py)."""
        if not room.connections or now - room.last_message >= PLAYING_SECONDS:
            return IDLE
        talking = sum(1 for c in room.connections
                      if (m := self.members.get(c)) is not None and m.sent)
        return PLAYING if talking >= 2 else WAITING

    def _room_claims(self) -> list[Claim]:
        now = time.monotonic()
        return [Claim(rid, room.creator, room.last_message, self._tier(room, now))
                for rid, room in self.rooms.items()]

    def _connection_claims(self) -> list[Claim]:
        now = time.monotonic()
        tiers = {rid: self._tier(room, now) for rid, room in self.rooms.items()}
        return [Claim(m, m.owner, m.quiet_since,
                      PLAYING if tiers.get(m.room or "") == PLAYING else WAITING)
                for m in self.members.values()]

    def _room_refusal(self, client: str, rid: str, evict: bool) -> tuple[str, str] | None:
        """(kind, reason) if network `client` may not open room `rid` now; with `evict`,
        make room by taking what is least in use (relay_admission.py)."""
        limits = self.limits
        mine = sum(1 for r in self.rooms.values() if r.creator == client)
        if mine >= limits.max_rooms_per_network:
            return "max_rooms_per_network", (
                f"relay full: too many rooms from this network ({client}): {mine} open "
                f"({limits.flag('max_rooms_per_network')})")
        if len(self.rooms) >= limits.max_rooms:
            victim = self.admission.victim(client, self._room_claims())
            if victim is None:
                return "max_rooms", (f"relay full: too many rooms: {len(self.rooms)} open, "
                                     f"none of them free to give up "
                                     f"({limits.flag('max_rooms')})")
            if evict:
                self._free(victim.key, "given up to a newcomer: idle while the relay was "
                           "full" if victim.tier == IDLE else "given up to a newcomer: "
                           "waiting, and its network held the most rooms")
        return None

    def _refusal(self, client: str, path: str, evict: bool) -> tuple[str, str] | None:
        """(kind, reason) if a connection from network `client` may not enter the room
        its path names."""
        parsed = parse_path(path)
        if parsed is None:
            return "path", "unknown path: use /room/<rendezvous id>"
        rid, opening, _, suite = parsed
        self.sweep()
        limits = self.limits
        room = self.rooms.get(rid)
        if room is None:
            if not opening:
                why = self.freed.get(rid)
                return "no-room", "no such room" if why is None else \
                    f"this relay freed the room ({why})"
            refused = suite_refusal(self.suites, suite) or \
                self._room_refusal(client, rid, evict=False)
            if refused is not None:
                return refused
        elif len(room.connections) >= limits.max_connections_per_room:
            return "max_connections_per_room", (
                f"relay full: too many connections in this room: {len(room.connections)} "
                f"({limits.flag('max_connections_per_room')})")
        mine = sum(1 for m in self.members.values() if m.owner == client)
        if mine >= limits.max_connections_per_network:
            return "max_connections_per_network", (
                f"relay full: too many connections from this network ({client}): {mine} "
                f"({limits.flag('max_connections_per_network')})")
        if self.connections >= limits.max_connections:
            victim = self.admission.victim(client, self._connection_claims())
            if victim is None:
                return "max_connections", (
                    f"relay full: too many connections: {self.connections}, none of them "
                    f"free to give up ({limits.flag('max_connections')})")
            if evict:
                member = victim.key
                member.outbox.drop("given up to a newcomer: its network held the most "
                                   "connections")
                self.members.pop(member.conn, None)
        return None

    def _admit(self, conn: ServerConnection, request: Request) -> Response | None:
        """Refuse in the HTTP handshake, so the client can tell the user why."""
        if request.path == STATS_PATH:
            response = conn.respond(HTTPStatus.OK, json.dumps(self.stats()) + "\n")
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "application/json"
            return response
        if (seat := seat_response(request.path, request.headers.get("If-None-Match"))):
            return seat
        address = address_of(conn)
        client = self.admission.network(address)
        refused = self._refusal(client, request.path, evict=False) \
            if self.admission.may_connect(client) else \
            ("rate", (f"relay busy: too many new connections from this network "
                      f"({client}) ({self.limits.flag('connects_per_minute')})"))
        if refused is None:
            return None
        kind, why = refused
        self.events.refuse(kind, request.path, address, why)
        if kind == "rate":
            return conn.respond(HTTPStatus.TOO_MANY_REQUESTS, why + "\n")
        if kind.startswith("max_") or kind == "suite":   # 403: the relay admits no such room
            return conn.respond(HTTPStatus.FORBIDDEN if kind == "suite" else
                                HTTPStatus.SERVICE_UNAVAILABLE, why + "\n")
        if kind == "no-room" and why.startswith("this relay freed"):
            return conn.respond(HTTPStatus.NOT_FOUND, f"{NO_SUCH_GAME}: {why}\n")
        return not_found(conn, why)

    async def _handle(self, conn: ServerConnection) -> None:
        path = conn.request.path if conn.request is not None else ""
        address = address_of(conn)
        client = self.admission.network(address)
        refused = self._refusal(client, path, evict=True)  # again: things may have changed
        if refused is not None:
            kind, why = refused
            self.events.refuse(kind, path, address, why)
            await conn.close(1013 if kind.startswith("max_") else 1008, why)
            return
        parsed = parse_path(path)
        assert parsed is not None
        rid, _, resume, suite = parsed
        limits = self.limits
        member = Member(conn, client, Outbox(conn, limits.max_messages_per_room + 2,
                                              limits.max_bytes_per_room + 256,
                                              self.events.dropped))
        self.members[conn] = member
        room: Room | None = None
        try:
            refused = None
            if rid not in self.rooms:
                refused = await self._work(member, rid)
                if refused is None and rid not in self.rooms:
                    refused = self._room_refusal(client, rid, evict=True)
            elif member.key is None:
                refused = await self._prove(member, rid)
            if refused is not None:
                    kind, why = refused
                    self.events.refuse(kind, path, address, why)
                    await member.outbox.stop()
                    await conn.close(1013 if kind.startswith("max_") else 1008, why)
                    return
            room = self._enter(rid, member, resume, suite)
            async for message in conn:
                if self.rooms.get(rid) is not room:
                    break                        # freed while this message was on its way
                if isinstance(message, bytes):
                    member.quiet_since, member.spoke, member.sent = time.monotonic(), True, True
                    self._relay(rid, room, conn, message)
        except ConnectionClosed:
            pass
        finally:
            await self._leave(rid, room, member)

    async def _work(self, member: Member, rid: str) -> tuple[str, str] | None:
        """Ask the opener of room `rid` for a proof of work and the room's key (12.5);
        None once answered (and the key kept on `member`)."""
        mine = sum(1 for r in self.rooms.values() if r.creator == member.owner)
        bits = self.admission.work_bits(mine, len(self.rooms))
        answer = await ask_work(member.conn, member.outbox, rid, bits,
                                self.limits.work_seconds)
        if not isinstance(answer, bytes):
            return answer
        member.spoke = True
        if rid in self.rooms:     # another opener was faster: enter it as anyone would
            return await self._prove(member, rid)
        member.key = answer
        return None

    async def _prove(self, member: Member, rid: str) -> tuple[str, str] | None:
        """Ask a connection entering room `rid` for its entry signature (12.5 "Room
        key"); None once proved (or the room is gone: the caller sees that). Proving is
        not speaking: --quiet still drops a connection that stays silent."""
        room = self.rooms.get(rid)
        refused = await ask_proof(member.conn, member.outbox, rid, room.key) \
            if room is not None else None
        if room is None or self.rooms.get(rid) is not room:
            return "no-room", "the room was freed while this connection entered it"
        return refused

    def _enter(self, rid: str, member: Member, resume: str | None, suite: str) -> Room:
        room = self.rooms.get(rid)
        if room is None:  # created only once the opener has paid for it, for its suite
            assert member.key is not None
            room = self.rooms[rid] = Room(creator=member.owner, key=member.key, opener=member.conn,
                                          suite=suite if self.suites else None)
            self.events.opened(rid, member.owner, len(self.rooms))
        else:
            room.joined = room.joined or bool(room.connections)
            room.last_active = time.monotonic()
            self.events.joined(rid, member.owner, len(room.connections) + 1)
        member.room = rid
        start = room.start_for(resume, self.limits.max_catchup)
        member.outbox.put(f"room {room.epoch} {start}")
        room.connections[member.conn] = member.outbox
        caught_up = room.since(start)
        sent = sum(len(m) for m in caught_up)
        if resume is None:
            room.catchup_sent += sent
        self.events.bytes_out += sent
        for logged in caught_up:
            member.outbox.put(logged)
        return room

    async def _leave(self, rid: str, room: Room | None, member: Member) -> None:
        if self.members.get(member.conn) is member:
            del self.members[member.conn]
        if getattr(member.conn, "flooded", False):
            self.events.dropped("too many pings")
        await member.outbox.stop()
        if room is None:
            return
        room.connections.pop(member.conn, None)
        room.held.pop(member.conn, None)
        room.last_active = time.monotonic()
        if not room.connections and self.rooms.get(rid) is room:
            if room.finished:
                self._free(rid, "game over, every seat left")
            elif not room.log:
                self._free(rid, "empty: nothing was sent")
            elif not room.joined:
                self._free(rid, "empty: nobody joined")

    def _relay(self, rid: str, room: Room, conn: ServerConnection, message: bytes) -> None:
        finished = room.observe(message, conn is room.opener)
        if room.fault:   # the opener's hello of another suite: refused, never relayed (12.5)
            return room.connections[conn].drop(room.fault)
        # A full room forgets its oldest messages rather than stopping a live game: peers
        # resend what the other side asks for (SYNC); the log speeds up catching up.
        limits = self.limits
        self.kept_bytes -= room.append(message, limits.max_messages_per_room,
                                       limits.max_bytes_per_room)
        self.kept_bytes += len(message)
        while self.kept_bytes > limits.max_total_bytes and room.log:
            self.kept_bytes -= room.forget_oldest()
        if finished:
            self.events.finished(rid, room.seats or 0, room.done.get(0, 0))
        others = [c for c in room.connections if c is not conn]
        self.events.relayed(len(message), len(message) * len(others))
        for other in others:
            room.forward(other, message, self.chaos)

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
