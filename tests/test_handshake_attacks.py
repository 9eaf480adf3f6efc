"""Strangers against a real host and a real joiner on loopback (spec/12-peers.md 12.3
"Authentication"): a hello with a key of small order, a squatter with a victim's public
key, someone who saw the rendezvous id but not the secret, and a man in the middle who
swaps the host's key. In each the honest game is played, or the attacked seat stops
with a clear line, and no honest seat is named in any verdict."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from invites import join_hello
from test_crash_commitments import transcripts, verdict_of
from test_processes import CLI, finish, start, wait_for
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from peers.keys.openssh import parse_public_line
from peers.net.config import JOIN
from peers.net.invitation import dial_url, parse_invitation
from peers.net.messages import PROTOCOL_VERSION, hello_commitment
from protocol.canonical import pack, unpack
from protocol.handshake_auth import check_signature, pake_share, sign
from protocol.identity import Identity

SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
ENV = {**os.environ, "DEALERLESS_PASSPHRASE": ""}


def public_key(home: Path) -> bytes:
    """The identity key `dealerless keygen` made at `home` (read from `key show`)."""
    subprocess.run([*CLI, "keygen", "--home", str(home)], check=True, capture_output=True,
                   env=ENV)
    shown = subprocess.run([*CLI, "key", "show", "--home", str(home)], check=True,
                           capture_output=True, text=True, env=ENV).stdout
    line = next(ln.strip() for ln in shown.splitlines() if "ssh-ed25519" in ln)
    return parse_public_line(line[line.index("ssh-ed25519"):])


Meddle = Callable[[bytes], Awaitable[list[bytes]]]


@contextlib.asynccontextmanager
async def in_the_middle(url: str, meddle: Meddle) -> AsyncIterator[str]:
    """A websocket server that passes everything between a joiner and the host at `url`,
    and turns each message from the host into what `meddle` returns for it. Yields the
    invitation that leads a joiner through it (same path, pin and secret)."""
    async def middle(joiner_ws: ServerConnection) -> None:
        async with connect(dial_url(url)) as host_ws:
            async def down() -> None:
                async for message in host_ws:
                    for out in await meddle(bytes(message)):
                        await joiner_ws.send(out)

            async def up() -> None:
                async for message in joiner_ws:
                    await host_ws.send(message)
            await asyncio.gather(down(), up())

    async with serve(middle, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        path = dial_url(url).split("/", 3)[3]
        yield f"ws://127.0.0.1:{port}/{path}#{url.partition('#')[2]}"


@pytest.mark.asyncio
async def test_a_small_order_key_a_squatter_and_a_stranger_do_not_take_the_seat(
        tmp_path: Path) -> None:
    homes = {n: tmp_path / n for n in ("host", "joiner")}
    victim = public_key(homes["joiner"])
    host = start(["host", "--listen", "127.0.0.1:0", "--bot", "greedy", "--timeout", "60",
                  "--home", str(homes["host"])], tmp_path / "host.log")
    try:
        url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log")
        inv = parse_invitation(url)
        stranger = Identity(os.urandom(32))
        refusals = []
        async with connect(dial_url(url)) as ws:
            offer = None
            while offer is None:
                obj = unpack(bytes(await asyncio.wait_for(ws.recv(), 20)), 1 << 17)
                if obj[:3] == ["hello", PROTOCOL_VERSION, "host"]:
                    offer = obj
            commitment = hello_commitment(os.urandom(32))
            await ws.send(pack([*["hello", PROTOCOL_VERSION, JOIN, SMALL_ORDER, commitment,
                                  1, offer[4], b"", b"", offer[10], b"", b""], bytes(64)]))
            squat = unpack(join_hello(stranger, inv, commitment, offer), 1 << 17)
            squat[3] = victim   # the victim's key, signed by someone who does not hold it
            await ws.send(pack(squat))
            # The rendezvous id alone (what a relay operator sees), not the secret:
            await ws.send(join_hello(stranger, inv, commitment, offer, secret=os.urandom(16)))
            while not refusals:
                obj = unpack(bytes(await asyncio.wait_for(ws.recv(), 20)), 1 << 17)
                if obj[0] == "refuse":
                    refusals.append(check_signature(offer[3], inv.rid, obj))
        assert refusals[0][2:4] == [SMALL_ORDER, "key"]
        assert host.poll() is None   # the host did not crash on the bad key
        joiner = start(["join", url, "--bot", "greedy", "--timeout", "60", "--home",
                        str(homes["joiner"])], tmp_path / "joiner.log")
        codes = [await asyncio.to_thread(finish, p, 120) for p in (host, joiner)]
    finally:
        host.kill()
        host.wait(10)
    assert codes == [0, 0], (tmp_path / "joiner.log").read_text()
    files = transcripts(list(homes.values()))
    assert len(set(files)) == 1 and verdict_of(files[0])["complete"]


@pytest.mark.asyncio
async def test_a_man_in_the_middle_who_swaps_the_host_key_is_refused(tmp_path: Path) -> None:
    """The joiner's traffic reaches the host only through an attacker, who signs every
    host hello anew with its own key. The joiner obeys none of them and stops at its
    timeout saying that a host the invitation does not pin answered; no game exists."""
    homes = {n: tmp_path / n for n in ("host", "joiner")}
    host = start(["host", "--listen", "127.0.0.1:0", "--bot", "greedy", "--timeout", "20",
                  "--home", str(homes["host"])], tmp_path / "host.log")
    attacker = Identity(os.urandom(32))
    try:
        url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log")
        inv = parse_invitation(url)

        async def swap_host_key(message: bytes) -> list[bytes]:
            obj = unpack(message, 1 << 17)
            if obj[:3] == ["hello", PROTOCOL_VERSION, "host"]:
                body = [*obj[3:-1]]
                body[0] = attacker.public_key
                body[-1] = [pake_share(os.urandom(16), inv.rid, 5)]
                message = pack(sign(attacker, inv.rid, [*obj[:3], *body]))
            return [message]

        async with in_the_middle(url, swap_host_key) as forged:
            log = tmp_path / "joiner.log"
            joiner = start(["join", forged, "--bot", "greedy", "--timeout", "4", "--home",
                            str(homes["joiner"])], log)
            code = await asyncio.to_thread(finish, joiner, 60)
        assert code == 3, log.read_text()
        assert "not the one the invitation pins" in log.read_text()
        assert not list((homes["joiner"] / "games").glob("*.sqlite"))
    finally:
        host.kill()
        host.wait(10)
    assert not list((homes["host"] / "games").glob("*.sqlite"))   # nobody was seated


@pytest.mark.asyncio
async def test_forged_handshake_messages_from_the_middle_are_ignored(tmp_path: Path) -> None:
    """Between a real joiner and a real host, an attacker who knows the rendezvous id
    (not the secret, not the host's key) injects toward the joiner, before each host
    message it forwards: an unsigned `refuse` (version 2's shape) and one signed by
    itself, a host hello claiming another version, a roster with another commitment
    and a reveal of other nonces. The joiner obeys none; the game is played."""
    homes = {n: tmp_path / n for n in ("host", "joiner")}
    host = start(["host", "--listen", "127.0.0.1:0", "--bot", "greedy", "--timeout", "60",
                  "--home", str(homes["host"])], tmp_path / "host.log")
    attacker = Identity(os.urandom(32))
    joiner_key = public_key(homes["joiner"])
    injected = 0
    try:
        url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log")
        inv = parse_invitation(url)

        def forgeries(host_key: bytes, commitment: bytes) -> list[bytes]:
            fake = hello_commitment(os.urandom(32))
            return [
                pack(["refuse", joiner_key, "full", 2]),
                pack(sign(attacker, inv.rid, ["refuse", attacker.public_key, joiner_key,
                                              "seated", 2])),
                pack(["hello", PROTOCOL_VERSION + 1, "host", host_key, commitment, "bram", {},
                      2, 0]),
                pack(sign(attacker, inv.rid, ["roster", [host_key, joiner_key],
                                              [commitment, fake], [host_key, joiner_key],
                                              [b"", b""]])),
                pack(sign(attacker, inv.rid, ["reveal", [os.urandom(32), os.urandom(32)]])),
            ]

        async def inject(message: bytes) -> list[bytes]:
            nonlocal injected
            obj = unpack(message, 1 << 17)
            out = []
            if obj[0] in ("hello", "roster") and injected < 40:
                out = forgeries(obj[3] if obj[0] == "hello" else obj[1][0],
                                obj[4] if obj[0] == "hello" else obj[2][0])
                injected += len(out)
            return [*out, message]

        async with in_the_middle(url, inject) as through:
            joiner = start(["join", through, "--bot", "greedy", "--timeout", "60", "--home",
                            str(homes["joiner"])], tmp_path / "joiner.log")
            codes = [await asyncio.to_thread(finish, p, 120) for p in (host, joiner)]
    finally:
        host.kill()
        host.wait(10)
    assert injected >= 5
    assert codes == [0, 0], (tmp_path / "joiner.log").read_text()
    files = transcripts(list(homes.values()))
    assert len(set(files)) == 1 and verdict_of(files[0])["complete"]
