"""Slot squatting (issue 29), with real processes as in the finding: twelve strangers who
learn a listening host's path and connect without a word, and eleven who learn a relay
room's path and keep talking, do not keep the invited joiner out (spec/12-peers.md 12.3
"Links": a silent connection gives its place up to a newcomer; 12.5 "Room key": a place
in a relay room needs the invitation's secret)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from relay_helpers import join_room
from test_processes import assert_same_valid_game, finish, free_port, start, wait_for
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from peers.net.invitation import dial_url
from peers.net.link import MAX_HOST_CONNECTIONS


async def _squat(url: str, count: int) -> list[ClientConnection]:
    return [await connect(url, open_timeout=10) for _ in range(count)]


@pytest.mark.slow   # about 20 s of real processes; the relay room key test below runs by default
def test_silent_strangers_do_not_keep_the_invited_joiner_out(tmp_path: Path) -> None:
    host = start(["host", "--listen", "127.0.0.1:0", "--bot", "greedy", "--home",
                  str(tmp_path / "h1"), "--timeout", "60"], tmp_path / "host.log")
    url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log")
    loop = asyncio.new_event_loop()
    squatters = loop.run_until_complete(_squat(dial_url(url), MAX_HOST_CONNECTIONS))
    try:
        join = start(["join", url, "--bot", "greedy", "--home", str(tmp_path / "h2"),
                      "--timeout", "60"], tmp_path / "join.log")
        assert finish(join, 120) == 0, (tmp_path / "join.log").read_text()
        assert finish(host, 60) == 0, (tmp_path / "host.log").read_text()
    finally:
        for ws in squatters:
            loop.run_until_complete(ws.close())
        loop.close()
    assert_same_valid_game(tmp_path)


async def _chatty_squatters(url: str, count: int) -> list[str]:
    """`count` strangers who know the room's path but not the invitation, each trying
    to take a place and keep talking in it; how the relay closed each."""
    reasons = []
    for _ in range(count):
        try:
            ws = await join_room(url, secret=b"not the secret!!")
        except ConnectionClosed as exc:
            reasons.append(exc.rcvd.reason if exc.rcvd is not None else "")
            continue
        await ws.send(b"junk")
        reasons.append("got in")
    return reasons


def test_strangers_who_know_a_relay_rooms_path_take_no_place_in_it(tmp_path: Path) -> None:
    """Eleven strangers with the room's path (the relay's operator or anyone on the path
    sees it) and without the invitation's secret: each is refused, and the invited
    joiner plays its game through the room."""
    port = free_port()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}", "--stats-every", "0"],
                  tmp_path / "relay.log")
    try:
        wait_for(r"(relay listening)", tmp_path / "relay.log")
        host = start(["host", "--relay", f"ws://127.0.0.1:{port}", "--bot", "greedy",
                      "--home", str(tmp_path / "h1"), "--timeout", "60"], tmp_path / "host.log")
        url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log")
        reasons = asyncio.run(_chatty_squatters(dial_url(url), 11))
        assert reasons == ["wrong room key: this connection does not hold the invitation"] * 11
        join = start(["join", url, "--bot", "greedy", "--home", str(tmp_path / "h2"),
                      "--timeout", "60"], tmp_path / "join.log")
        assert finish(join, 120) == 0, (tmp_path / "join.log").read_text()
        assert finish(host, 60) == 0, (tmp_path / "host.log").read_text()
    finally:
        relay.kill()
        relay.wait(10)
    assert_same_valid_game(tmp_path)
