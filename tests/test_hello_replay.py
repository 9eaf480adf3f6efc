"""A replayed handshake message is judged once (spec/12-peers.md 12.3, issue 29: a valid
signed hello replayed about 550 times a second cost the host a signature check and a
scalar multiplication each time, and the game got 2-3x slower).

Each test feeds a host one hello, then 499 byte-identical copies, and counts the group
operations and signature checks (protocol.groups.ops.OPS) the copies cost: none. The hellos
are built as tests/invites.py builds them, and fed through a MemoryLink group that acts
as a relay room, as anybody in the room could.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest
from invites import join_hello, table_of
from test_network import config, transcripts

from peers.net.config import HOST, JOIN
from peers.net.handshake_answers import Judged
from peers.net.link import MemoryLink
from peers.net.messages import PROTOCOL_VERSION, hello_commitment
from peers.net.peer import Peer
from protocol.canonical import unpack
from protocol.errors import DealerlessError
from protocol.groups.ops import OPS
from protocol.handshake_auth import sign
from protocol.identity import Identity
from protocol.verifier import replay

COPIES = 500


def cost() -> int:
    """Point validations, multiplications and signature checks so far, in this process."""
    return OPS.valid + OPS.var + OPS.base + OPS.h2p + OPS.sig


async def drained(link: MemoryLink) -> None:
    """Until `link`'s peer has taken every message sent to it, and acted on the last."""
    while not link.inbox.empty():
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.05)


async def replay_cost(room: MemoryLink, host: MemoryLink, message: bytes) -> tuple[int, int]:
    """What judging `message` once costs the host, then what COPIES - 1 repeats cost."""
    before = cost()
    await room.send(message)
    await drained(host)
    once = cost() - before
    before = cost()
    for _ in range(COPIES - 1):
        await room.send(message)
    await drained(host)
    return once, cost() - before


async def first_host_hello(link: MemoryLink) -> list[Any]:
    while True:
        message = await link.recv(30)
        obj = unpack(message, 1 << 17) if message else None
        if obj and obj[:3] == ["hello", PROTOCOL_VERSION, HOST]:
            return list(obj)


@pytest.mark.asyncio
async def test_a_hello_without_the_secret_replayed_500_times_is_checked_once(
        tmp_path: Path) -> None:
    """Before the seats are fixed: a stranger who saw the rendezvous id but not the secret
    (a valid signature, a wrong key-exchange confirmation) replays its hello. The first
    copy costs the host its key, share, signature and the exchange's multiplication; the
    499 others cost nothing, and the real joiner is then seated as usual."""
    _, inv = table_of(tmp_path)
    host_link, room, join_link = MemoryLink.group(3)
    host = asyncio.create_task(Peer(host_link, config(tmp_path, HOST)).run())
    try:
        offer = await first_host_hello(room)
        stranger = Identity(os.urandom(32))
        hello = join_hello(stranger, inv, hello_commitment(os.urandom(32)), offer,
                           secret=os.urandom(16))
        once, repeats = await replay_cost(room, host_link, hello)
        print(f"\nhandshake: the first copy cost {once} operations, "
              f"{COPIES - 1} repeats {repeats}")
        assert once >= 3    # key and share validated, signature checked, share multiplied
        assert repeats == 0
        joiner = await asyncio.wait_for(Peer(join_link, config(tmp_path, JOIN)).run(), 60)
        results = [await asyncio.wait_for(host, 60), joiner]
    finally:
        host.cancel()
    one, two = transcripts(results)
    assert one == two and replay(one).exit_code == 0


@pytest.mark.asyncio
@pytest.mark.parametrize("whose", ["the joiner's own", "a stranger's"])
async def test_a_hello_replayed_500_times_mid_game_is_checked_once(
        tmp_path: Path, whose: str) -> None:
    """Mid-game, while the joiner thinks: the host is sent the joiner's own hello, as
    captured in the room during the handshake (answered with the roster), or the valid
    hello of a stranger the table has no seat for (refused "full"), 500 times. The
    stranger's first copy costs a key validation and a signature check; no repeat costs
    anything."""
    _, inv = table_of(tmp_path)
    host_link, room, join_link = MemoryLink.group(3)
    captured: dict[str, list[Any]] = {HOST: [], JOIN: []}
    thinking, go = asyncio.Event(), asyncio.Event()
    joiner_cfg = config(tmp_path, JOIN)
    chooser = joiner_cfg.choose

    async def slow(view: Any) -> Any:
        thinking.set()
        await go.wait()
        return await chooser(view)

    async def listen() -> None:   # until the joiner thinks (a cancel can be lost in recv)
        while not thinking.is_set():
            message = await room.recv(0.05)
            obj = unpack(message, 1 << 17) if message else None
            if obj and obj[:2] == ["hello", PROTOCOL_VERSION] and obj[2] in captured:
                captured[obj[2]].append((message, obj))

    joiner_cfg.choose = slow
    listener = asyncio.ensure_future(listen())
    game = asyncio.gather(Peer(host_link, config(tmp_path, HOST)).run(),
                          Peer(join_link, joiner_cfg).run())
    try:
        await asyncio.wait_for(listener, 60)
        if whose == "a stranger's":
            offer = captured[HOST][-1][1]
            hello = join_hello(Identity(os.urandom(32)), inv,
                               hello_commitment(os.urandom(32)), offer)
        else:
            hello = next(m for m, obj in captured[JOIN] if obj[6])   # it answers an offer
        once, repeats = await replay_cost(room, host_link, hello)
        print(f"\nmid-game, {whose} hello: the first copy cost {once} operations, "
              f"{COPIES - 1} repeats {repeats}")
        # The joiner's own hello was judged when it arrived, in the handshake.
        assert once >= (2 if whose == "a stranger's" else 0)   # key, signature
        assert repeats == 0
        go.set()
        results = await asyncio.wait_for(game, 60)
    finally:
        go.set()
        listener.cancel()
        game.cancel()
    one, two = transcripts(list(results))
    assert one == two and replay(one).exit_code == 0


def test_the_memory_is_bounded_and_a_rejection_is_raised_again() -> None:
    """A repeat raises the first verdict's error; the least recently used verdict goes
    first, and a forgotten message is judged afresh."""
    me, rid = Identity(os.urandom(32)), os.urandom(16)
    judged = Judged(size=2)
    forged = [[*sign(me, rid, ["open", me.public_key, os.urandom(32)])[:-1], bytes(64)]
              for _ in range(3)]
    before = OPS.sig
    for _ in range(3):
        with pytest.raises(DealerlessError) as bad:
            judged.signed(forged[0], me.public_key, rid)
        assert bad.value.code == "handshake/bad-signature"
    assert OPS.sig - before == 1
    good = sign(me, rid, ["open", me.public_key, os.urandom(32)])
    assert judged.signed(good, me.public_key, rid) == good[:-1]
    assert judged.signed(good, me.public_key, rid) == good[:-1]
    assert OPS.sig - before == 2
    for obj in forged[1:]:          # two more verdicts: the first two are forgotten
        with pytest.raises(DealerlessError):
            judged.signed(obj, me.public_key, rid)
    assert judged.signed(good, me.public_key, rid) == good[:-1]
    assert OPS.sig - before == 5    # judged afresh
    assert len(judged._seen) == 2
