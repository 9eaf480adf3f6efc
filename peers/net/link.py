"""Links: unreliable message pipes between two peers (spec/12-peers.md section 12.3).

A link carries binary messages, one per websocket message. It promises
nothing: a message may be lost while the connection is down, or be
duplicated, delayed or reordered by a relay. The peer protocol above it is
idempotent and pulls what it misses (SYNC), so a link only has to try.

- HostLink listens (`dealerless host --listen`) and sends to every connection
  on the game's path (up to 7 joiners and some slack). Its joiners cannot reach
  each other, so it forwards what each connection sends to all the others, as a
  relay would; joiners forward nothing, so nothing goes round in circles.
- ClientLink connects outward, to a host or to a relay room, and reconnects
  with backoff whenever the connection drops. Until it has reached the other
  side once, a fresh game gives up quickly and says why (refused, unknown
  host, no such game, a relay that breaks its entry lines, or any failure
  nobody foresaw): a mistyped invitation or a broken relay must not look like
  a silent opponent. A resumed game keeps trying, since the other side may
  still be on its way back; so does a link that has reached it once.
- MemoryLink is an in-process pair, or a group that acts like a relay room, for tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from collections.abc import Callable
from http import HTTPStatus
from typing import Any, Protocol

from websockets.asyncio.client import connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI
from websockets.http11 import Request, Response
from websockets.uri import parse_uri

from peers.net.outbox import SEND_TIMEOUT, Outbox
from peers.net.quiet_log import quiet_logger
from peers.net.relay_client import EntryError, Place, enter
from protocol.frames import MAX_FRAME_BYTES

#: A peer message is a frame plus a small envelope.
MAX_MESSAGE_BYTES = MAX_FRAME_BYTES + 256
#: What a listening host queues for one connection at most; a reader further behind is
#: dropped (it reconnects and asks for what it lacks).
MAX_HOST_QUEUE, MAX_HOST_QUEUE_BYTES = 1024, 16 << 20
#: Up to 7 joiners (8 seats), and slack for reconnections whose old connection has not
#: been noticed as closed yet and for strangers who knock.
MAX_HOST_CONNECTIONS = 12
#: The reason phrase of a 503 from a host or relay that has no room for one more connection.
TOO_MANY_CONNECTIONS = "too many connections"
#: A fresh game's client gives up after this many failed attempts before first contact
#: (about 6 s with the backoff below), rather than wait out the whole move timeout.
FIRST_CONTACT_TRIES = 6
#: The reason phrase of a 404 from a host or relay: the path names no game here.
NO_SUCH_GAME = "no such game at this address"
#: Where a relay's rooms are (12.5); a host serves /dealerless/<id> instead.
RELAY_ROOMS = "/room/"
log = quiet_logger("dealerless.link")  # websockets logs every connection here too


class LinkError(ConnectionError):
    """The link cannot reach the other side, and trying again will not help."""


def check_url(url: str, what: str = "URL") -> str:
    """`url` if it is a ws:// or wss:// URL with a host and a valid port, else ValueError
    with a message a person can act on (the CLI checks before it waits on anything)."""
    try:
        parse_uri(url)
    except InvalidURI as exc:
        reason = str(exc).partition(": ")[2] or "malformed"
        raise ValueError(f"{what} {url!r} is not a websocket URL ({reason}); "
                         "it looks like ws://HOST:PORT/...") from None
    except ValueError as exc:  # urllib's own complaints: bad port, bad IPv6 literal
        raise ValueError(f"{what} {url!r} is not a websocket URL ({exc})") from None
    return url


def _why(exc: BaseException, known: bool = False, relay: bool = False) -> str:
    """A failed connection attempt in words. `known`: this game was reached before (or is
    resumed), so a 404 or a refused connection means the other side is away or
    restarting, not that the invitation is wrong; `relay`: the other side is a relay."""
    there = "the relay" if relay else "the host"
    if isinstance(exc, InvalidStatus):
        status = exc.response.status_code
        if status == HTTPStatus.NOT_FOUND:
            said = exc.response.body.decode("utf-8", "replace").strip()[:200]
            freed = said.partition(f"{NO_SUCH_GAME}: this relay freed the room ")[2]
            if relay and freed:   # the relay remembers freeing it (12.5): say so
                return (f"the relay no longer holds this room: it freed it {freed}"
                        + ("; waiting for the host to open it again" if known else ""))
            if known and relay:
                return ("the relay holds no room for this game now (it may have "
                        "restarted); waiting for the host to open it again")
            if known:
                return f"{NO_SUCH_GAME} now (the host may be restarting)"
            return f"{NO_SUCH_GAME} (wrong invitation?)"
        body = exc.response.body.decode("utf-8", "replace").strip()[:200]
        return f"refused with HTTP {status}{': ' + body if body else ''}"
    if isinstance(exc, socket.gaierror):
        return f"cannot resolve the host name ({exc.strerror})"
    if isinstance(exc, ConnectionRefusedError) or (
            isinstance(exc, OSError) and exc.errno == errno.ECONNREFUSED):
        return f"connection refused ({there} is down or restarting)" if known else \
            "connection refused"
    if isinstance(exc, TimeoutError):
        return "no answer (timed out)"
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    if isinstance(exc, ConnectionClosed):
        reason = exc.rcvd.reason if exc.rcvd is not None else ""
        return f"connection closed ({reason[:120]})" if reason else "connection closed"
    if isinstance(exc, EntryError):
        return str(exc)
    return f"unexpected {type(exc).__name__} on the connection to {there} ({exc})"[:240]


#: What a connection attempt is expected to fail with; anything else is unforeseen (a
#: bug here, or something of the other side's that no check caught).
FORESEEN = (OSError, ConnectionClosed, InvalidHandshake, TimeoutError, EntryError)


def _fatal(exc: BaseException) -> bool:
    """Failures that trying again cannot mend: a name that does not resolve, an answer
    that says there is no such game, an HTTP refusal such as a full relay, a relay that
    breaks 12.5's entry lines, or a failure nobody foresaw."""
    return isinstance(exc, socket.gaierror | InvalidStatus | EntryError) \
        or not isinstance(exc, FORESEEN)


def not_found(conn: ServerConnection, _reason: str) -> Response:
    """The HTTP answer for a path that names no game: a joiner learns at once that its
    invitation is wrong, instead of waiting on a connection that leads nowhere."""
    return conn.respond(HTTPStatus.NOT_FOUND, f"{NO_SUCH_GAME} (wrong invitation?)\n")


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
    """Listen on host:port; accept peers on `path` only.

    When all MAX_HOST_CONNECTIONS are taken, a newcomer takes the place of the oldest
    connection that has sent nothing yet (12.3 "Links"): anyone who learns the path can
    connect, so silent connections must not be able to keep an invited seat out."""

    def __init__(self, host: str, port: int, path: str) -> None:
        super().__init__()
        self.host, self.port, self.path = host, port, path
        self.connections: dict[ServerConnection, Outbox] = {}
        self.spoke: set[ServerConnection] = set()
        self.server: Server | None = None

    async def start(self) -> int:
        self.server = await serve(self._handle, self.host, self.port,
                                  max_size=MAX_MESSAGE_BYTES, compression=None,
                                  process_request=self._check_path, logger=log)
        sockets = list(self.server.sockets)
        return int(sockets[0].getsockname()[1]) if sockets else self.port

    def _check_path(self, conn: ServerConnection, request: Request) -> Response | None:
        if request.path != self.path:
            return not_found(conn, request.path)
        if len(self.connections) >= MAX_HOST_CONNECTIONS and self._silent() is None:
            return conn.respond(HTTPStatus.SERVICE_UNAVAILABLE, f"{TOO_MANY_CONNECTIONS}\n")
        return None

    def _silent(self) -> ServerConnection | None:
        """The oldest connection that has sent no message, if any."""
        return next((c for c in self.connections if c not in self.spoke), None)

    async def _handle(self, conn: ServerConnection) -> None:
        if len(self.connections) >= MAX_HOST_CONNECTIONS:  # full: the oldest silent one goes
            silent = self._silent()
            if silent is None:
                await conn.close(1013, TOO_MANY_CONNECTIONS)
                return
            self.connections.pop(silent).drop("given up to a newcomer: it had sent nothing")
        outbox = self.connections[conn] = Outbox(conn, MAX_HOST_QUEUE, MAX_HOST_QUEUE_BYTES)
        try:
            async for message in conn:
                if not isinstance(message, bytes) or len(message) > MAX_MESSAGE_BYTES:
                    continue
                self.spoke.add(conn)
                self._put(message)
                # The other seats cannot reach this one but through us: pass it on to
                # every other connection, once (nothing is sent back to its sender), each
                # through its own queue, so that a stalled reader holds up nobody else.
                for other, box in list(self.connections.items()):
                    if other is not conn:
                        box.put(message)
        except ConnectionClosed:
            pass
        finally:
            self.connections.pop(conn, None)
            self.spoke.discard(conn)
            await outbox.stop()

    async def send(self, message: bytes) -> None:
        # To every connection on the game's path: a stranger who connects too cannot
        # divert our messages from the real players (it learns nothing secret either).
        for box in list(self.connections.values()):
            box.put(message)

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


class ClientLink(_Queued):
    """Connect to `url` and stay connected, reconnecting with capped backoff.

    `fail_fast` (a fresh game) gives up before first contact after
    FIRST_CONTACT_TRIES attempts, or at once on a failure that retrying cannot
    mend; `recv` and `wait_connected` then raise LinkError naming the reason.
    `on_retry(text)` hears of each failed attempt, for progress on the terminal;
    `label` names the other side in messages (default: the URL).
    """

    def __init__(self, url: str, fail_fast: bool = False,
                 on_retry: Callable[[str], None] | None = None, label: str = "",
                 room_seed: bytes | None = None) -> None:
        super().__init__()
        self.url = check_url(url)
        self.room_seed = room_seed   # the relay room's key (12.5 "Room key")
        self.label = label or url
        self.fail_fast, self.on_retry = fail_fast, on_retry
        self.via_relay = parse_uri(self.url).resource_name.startswith(RELAY_ROOMS)
        self.place = Place()   # where this seat is in the relay room's numbering
        self.conn: Any = None
        self.task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        self.failure: LinkError | None = None
        self._changed = asyncio.Event()

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        delay, tries, reached = 0.1, 0, False
        while True:
            try:
                async with connect(self.place.url(self.url), max_size=MAX_MESSAGE_BYTES,
                                   compression=None, open_timeout=5) as conn:
                    if self.via_relay:
                        if self.room_seed is None:
                            raise EntryError("this seat holds no key for its relay room "
                                             "(a game stored by an older dealerless?)")
                        await enter(conn, self.url, self.place, self.room_seed)
                    self.conn, delay, tries, reached = conn, 0.1, 0, True
                    self.connected.set()
                    self._changed.set()
                    async for message in conn:
                        if isinstance(message, bytes):
                            self.place.next += 1
                        self._put(message)
            except Exception as exc:
                # An unforeseen failure must not end this task silently: the seat would
                # wait forever on a link that nobody runs. Before a fresh game's first
                # contact it is fatal, as a refusal is; after that (and always on resume)
                # it is this connection's failure, retried like a relay that restarts
                # (12.5 "Outage and restart"), and the move timeout bounds the wait.
                if not isinstance(exc, FORESEEN):
                    log.warning("link to %s failed unexpectedly", self.url, exc_info=exc)
                tries += 1
                why = _why(exc, reached or not self.fail_fast, self.via_relay)
                if self.fail_fast and not reached and (_fatal(exc)
                                                       or tries >= FIRST_CONTACT_TRIES):
                    self.failure = LinkError(f"cannot connect to {self.label}: {why}"
                                             + ("" if _fatal(exc) else f" ({tries} tries)"))
                    self._changed.set()
                    return
                log.info("link to %s down (%s); retrying", self.url, why)
                if self.on_retry is not None:
                    self.on_retry(f"{why}, retrying ({tries})")
            finally:
                self.conn = None
                self.connected.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    async def wait_connected(self) -> None:
        """Until the first connection is up; raises LinkError if it never will be."""
        while not self.connected.is_set():
            if self.failure is not None:
                raise self.failure
            self._changed.clear()
            await self._changed.wait()

    async def recv(self, timeout: float) -> bytes | None:
        if self.failure is not None and self.inbox.empty():
            raise self.failure
        return await super().recv(timeout)

    async def send(self, message: bytes) -> None:
        conn = self.conn
        if conn is not None:
            await _send(conn, message)

    async def close(self) -> None:
        conn = self.conn
        if conn is not None:
            # While _run still reads, so that the other side's closing frame is read even
            # when a flood is queued behind it; cancelled first, the close would wait out
            # websockets' 10 s close timeout.
            with contextlib.suppress(ConnectionClosed, OSError):
                await conn.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


class MemoryLink(_Queued):
    """One end of an in-process pair (`pair()`), or a member of a group (`group(n)`) in
    which every message reaches every other member, as in a relay room."""

    def __init__(self) -> None:
        super().__init__()
        self.others: list[MemoryLink] = []

    @staticmethod
    def pair() -> tuple[MemoryLink, MemoryLink]:
        a, b = MemoryLink.group(2)
        return a, b

    @staticmethod
    def group(n: int) -> list[MemoryLink]:
        links = [MemoryLink() for _ in range(n)]
        for link in links:
            link.others = [other for other in links if other is not link]
        return links

    async def send(self, message: bytes) -> None:
        for other in self.others:
            other._put(message)

    async def close(self) -> None:
        for other in self.others:  # the others no longer reach a closed link either
            other.others = [o for o in other.others if o is not self]
        self.others = []
