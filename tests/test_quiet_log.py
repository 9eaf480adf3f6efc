"""A hostile peer cannot flood the log: lines it can provoke are rate-limited (issue 17)."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

import pytest
from invites import table_of
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from peers.net.config import HOST, JOIN, PeerConfig
from peers.net.link import MemoryLink
from peers.net.peer import Peer
from peers.net.quiet_log import BURST, RateLimit
from peers.net.relay import Relay
from protocol.canonical import pack


async def _never(view: object) -> None:
    raise AssertionError("no game starts")


def _fresh_limit(name: str) -> None:
    """Forget what earlier tests in this process logged through `name`."""
    for f in logging.getLogger(name).filters:
        if isinstance(f, RateLimit):
            f._windows.clear()


def test_a_burst_passes_then_one_note_and_later_a_count_of_what_was_held() -> None:
    now = [0.0]
    logger = logging.getLogger("dealerless.test-quiet")
    logger.addFilter(RateLimit(burst=3, interval=60, clock=lambda: now[0]))
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    logger.addHandler(handler)
    try:
        for i in range(10_000):
            logger.warning("ignored a bad hello: %d", i)
        logger.warning("another kind of line")
        now[0] = 61.0
        logger.warning("ignored a bad hello: %d", 10_000)
    finally:
        logger.removeHandler(handler)
    assert seen == ["ignored a bad hello: 0", "ignored a bad hello: 1",
                    "ignored a bad hello: 2 (more like this suppressed for 60 s)",
                    "another kind of line",
                    "ignored a bad hello: 10000 (9997 more like this suppressed before it)"]


@pytest.mark.asyncio
async def test_ten_thousand_bad_hellos_give_a_bounded_number_of_log_lines(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _fresh_limit("dealerless.peer")
    caplog.set_level(logging.INFO)
    hostile, host_link = MemoryLink.pair()
    ident, invitation = table_of(tmp_path)
    host = asyncio.create_task(Peer(host_link, PeerConfig(
        games_dir=tmp_path, role=HOST, identity=ident, choose=_never,
        notify=lambda e: None, params={"komi_halves": 1}, invitation=invitation)).run())
    bad = pack(["hello", 99, JOIN, os.urandom(32), os.urandom(32), b""])   # a future version
    for _ in range(100):
        for _ in range(100):
            await hostile.send(bad)
        while not host_link.inbox.empty():     # every one of them is read, none dropped
            await asyncio.sleep(0.001)
    host.cancel()
    ignored = [r for r in caplog.records if "ignored a bad handshake message" in r.getMessage()]
    assert len(ignored) == BURST
    assert "more like this suppressed" in ignored[-1].getMessage()


@pytest.mark.asyncio
async def test_a_flood_of_refused_connections_gives_a_bounded_number_of_relay_lines(
        caplog: pytest.LogCaptureFixture) -> None:
    _fresh_limit("dealerless.relay")
    caplog.set_level(logging.INFO)
    server, port = await Relay().serve("127.0.0.1", 0)
    try:
        for _ in range(100):
            with pytest.raises(InvalidStatus):
                async with connect(f"ws://127.0.0.1:{port}/not-a-room"):
                    pass
    finally:
        server.close()  # type: ignore[attr-defined]
    relay_lines = [r for r in caplog.records if r.name == "dealerless.relay"]
    assert 0 < len(relay_lines) <= 3 * BURST   # a kind of line each: rejected, and so on
