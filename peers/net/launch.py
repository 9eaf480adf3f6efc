"""Opening a seat's link (spec/12-peers.md 12.4, 12.5): a host listens or opens a room on
a relay, a joiner dials the invitation, a resumed seat reopens what its game stored.

Shared by the command line and the web page, so both invite and reconnect alike.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from peers.net.config import HOST
from peers.net.invitation import dial_url, legacy_room_secret, parse_invitation
from peers.net.joining import joined_before
from peers.net.link import ClientLink, HostLink, Link, LinkError
from peers.net.relay_gate import open_room
from peers.store.games import GameStore
from protocol.relay_entry import room_seed
from protocol.suite import DEFAULT

WILDCARDS = ("0.0.0.0", "::", "")
Say = Callable[[str], None]


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def parse_hostport(text: str) -> tuple[str, int]:
    """HOST:PORT as (host, port); ValueError if it is not that."""
    host, sep, port = text.rpartition(":")
    if not sep or not (port.isascii() and port.isdigit()) or not host or int(port) > 65535:
        raise ValueError(f"{text!r} is not HOST:PORT (port 0-65535)")
    return host.strip("[]"), int(port)


def reachable_hosts(listen: str) -> list[str]:
    """Addresses an opponent might use to reach a server listening on `listen`.

    A wildcard address is no address to connect to: list this machine's own
    addresses instead (non-loopback first). Behind NAT none of them may be what the
    opponent sees; the invitation then says to replace the host (or use a relay).
    """
    if listen not in WILDCARDS:
        return [listen]
    family = socket.AF_INET6 if listen == "::" else socket.AF_INET
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if address not in found and not address.startswith(("127.", "::1", "fe80")):
            found.append(address)
    return found


async def listen(host: str, port: int, path: str) -> tuple[HostLink, int]:
    server = HostLink(host, port, path)
    try:
        return server, await server.start()
    except OSError as exc:
        raise LinkError(f"cannot listen on {url_host(host)}:{port}: "
                        f"{exc.strerror or exc}") from None


def invitation(listen: str, port: int, path: str) -> tuple[str, str | None]:
    """The invitation URL, and a note when its host is a guess the person must check."""
    hosts = reachable_hosts(listen)
    shown = hosts[0] if hosts else "HOST"
    url = f"ws://{url_host(shown)}:{port}{path}"
    if listen not in WILDCARDS:
        return url, None
    if not hosts:
        return url, ("listening on every address, but this machine's address is unknown: "
                     "replace HOST in the invitation with an address your opponent can "
                     "reach, or use a relay")
    others = f" (this machine's addresses: {', '.join(hosts)})" if len(hosts) > 1 else ""
    return url, (f"listening on every address; if your opponent cannot reach {shown}, "
                 f"replace it in the invitation with an address they can reach{others}, "
                 "or use a relay")


@dataclass(frozen=True)
class Opened:
    """A host's open link, the invitation URL, what to store to reopen it, and a note
    when the URL's host is a guess the person must check."""

    link: Link
    url: str
    meta: dict[str, str]
    note: str | None


def relay_room_seed(url: str, room: bytes) -> bytes:
    """The key seed of the relay room `url` names, from the invitations' room secret
    (12.5)."""
    return room_seed(room, dial_url(url).partition("?")[0].rstrip("/").rpartition("/")[2])


async def open_host(relay: str | None, where: tuple[str, int] | None,
                    on_retry: Say, room: bytes,
                    kept: dict[str, str] | None = None, suite: str = DEFAULT) -> Opened:
    """A new game's link: a room on `relay`, or a server listening at `where`. With `kept`,
    the meta of a table a `host` that stopped during the handshake opened (12.3), the
    same room or the same address and path again, so that its invitation still holds.
    `room` is the table's room secret (12.3): a relay room's key comes from it; `suite`
    the table's ciphersuite, which a relay room is opened for (12.5)."""
    rid = os.urandom(16).hex()
    if relay:
        url = kept["url"] if kept else f"{relay}/room/{rid}"
        seed = relay_room_seed(url, room)
        client = ClientLink(url + open_room(suite), fail_fast=True, on_retry=on_retry,
                            label=f"the relay {relay}", room_seed=seed)
        client.start()
        await client.wait_connected()
        return Opened(client, url, {"url": url, "relay": relay, "room_seed": seed.hex()},
                      None)
    assert where is not None
    host, port = where
    path = f"/dealerless/{rid}"
    if kept:
        port, path = parse_hostport(kept["listen"])[1], kept["path"]
    server, port = await listen(host, port, path)
    url, note = invitation(host, port, server.path)
    return Opened(server, url, {"url": url, "listen": f"{url_host(host)}:{port}",
                                "path": server.path}, note)


def join_meta(url: str) -> dict[str, str]:
    """What a joiner keeps of its invitation `url` for `resume` (12.4): the invitation,
    and for a relay room the room's key seed. The game's database keeps only the
    invitation's dial URL (peers/net/handshake.py), never its pin and secrets."""
    return {"url": url, "room_seed": relay_room_seed(url, parse_invitation(url).room).hex()}


def stored_room_seed(store: GameStore) -> bytes | None:
    """The relay room's key seed a game stored; for a joiner's store from before 12.5's
    room key, the one its stored invitation gives; else None."""
    kept = store.meta("room_seed")
    if re.fullmatch(r"[0-9a-f]{64}", kept):
        return bytes.fromhex(kept)
    stored = store.meta("url")
    room = legacy_room_secret(stored)
    return None if room is None else relay_room_seed(stored, room)


async def open_join(url: str, on_retry: Say, home: Path | None = None,
                    timeout: float = 0.0) -> ClientLink:
    """A joiner's link; a wrong or dead invitation fails here, before anything waits.

    A `join` of a table whose handshake the key at `home` began before (it kept a
    record, 12.3) has reached its room once: a 404 or a refused connection is then a
    relay or a host that restarted (12.5). It tries again, saying so each time, for up
    to `timeout` seconds (the seat's move timeout), then fails naming the last answer."""
    back = home is not None and joined_before(home, url)
    last = [""]

    def heard(text: str) -> None:
        last[0] = text
        on_retry(text)

    link = ClientLink(dial_url(url), fail_fast=not back, on_retry=heard,
                      room_seed=relay_room_seed(url, parse_invitation(url).room))
    link.start()
    if not back:
        await link.wait_connected()
        return link
    try:
        await asyncio.wait_for(link.wait_connected(), timeout)
    except TimeoutError:
        await link.close()
        why = re.sub(r", retrying \(\d+\)$", "", last[0]) or "no answer"
        raise LinkError(f"cannot connect to {dial_url(url)}: {why}; gave up after "
                        f"{timeout:.0f} s (the move timeout); `dealerless join` with this "
                        "invitation takes the handshake up again") from None
    return link


async def reopen(store: GameStore, on_retry: Say) -> Link:
    """A stored game's link again: the host listens where it did, anyone else redials
    (without giving up: the other side may still be on its way back)."""
    role = store.meta("role")
    if role == HOST and store.meta("listen"):
        host, port = parse_hostport(store.meta("listen"))
        server, _ = await listen(host, port, store.meta("path"))
        return server
    stored, seed = store.meta("url"), stored_room_seed(store)
    if "#" in stored:   # a joiner's store from before issue 29 kept its whole invitation
        if seed is not None:
            store.set_meta("room_seed", seed.hex())
        store.overwrite_meta("url", dial_url(stored))   # and no copy of it in the file
    url = dial_url(stored) + (open_room(store.setup.suite_name) if role == HOST else "")
    client = ClientLink(url, on_retry=on_retry, room_seed=seed)
    client.start()
    return client
