"""The relay for clubs (spec/12-peers.md 12.5): rooms freed when their game is over, limits
named in refusals, one log line per room event, GET /stats, and peers that tell a relay
restart apart from a wrong invitation. The load test is tests/test_relay_load.py."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import urllib.request
from pathlib import Path

import pytest
from relay_helpers import SEED, join_room, open_room
from test_network import config, transcripts
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from peers.bench.relay_load import play_game, record_games
from peers.cli.parser import build_parser
from peers.net.config import HOST, JOIN
from peers.net.link import ClientLink
from peers.net.messages import PROTOCOL_VERSION
from peers.net.peer import Peer
from peers.net.quiet_log import RateLimit
from peers.net.relay import OPEN_ROOM, Limits, Relay
from peers.net.relay_events import refusals_log, rooms_log
from peers.net.relay_limits import limit_flags
from protocol.canonical import pack
from protocol.verifier import replay

ROOT = Path(__file__).resolve().parent.parent


async def _relay(limits: Limits | None = None, port: int = 0) -> tuple[Relay, object, str]:
    relay = Relay(limits)
    server, port = await relay.serve("127.0.0.1", port)
    return relay, server, f"ws://127.0.0.1:{port}"


@pytest.fixture
def fresh_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The relay's log lines are rate-limited per process; other tests spent the window."""
    for log in (rooms_log, refusals_log):
        monkeypatch.setattr(log, "filters", [RateLimit(burst=1000)])


async def _settled(relay: Relay, rooms: int = 0) -> None:
    """Until the relay has seen every connection close (closing is asynchronous)."""
    for _ in range(200):
        if len(relay.rooms) == rooms and relay.connections == 0:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{len(relay.rooms)} rooms, {relay.connections} connections")


@pytest.mark.asyncio
async def test_forty_consecutive_games_from_one_address_with_default_limits() -> None:
    """The issue's club: one address, one game after another, default flags. Each room is
    freed as soon as its game is over, so the 17th (and the 40th) is not refused."""
    games = record_games(2)
    relay, server, base = await _relay()
    try:
        for i in range(40):
            game = games[i % 2]
            copies = await play_game(base, game, timeout=20)
            assert copies == [game.encode()] * game.seats
            await _settled(relay)
        stats = relay.stats()
        assert stats["games_finished"] == 40 and stats["rooms_opened"] == 40
        assert stats["refused"] == {} and stats["rooms_open"] == 0
        assert stats["rooms_freed"] == {"game over, every seat left": 40}
    finally:
        server.close()  # type: ignore[attr-defined]
    assert replay(games[0].encode()).exit_code == 0


@pytest.mark.asyncio
async def test_a_real_game_frees_its_room_and_the_log_tells_each_event(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, fresh_limits: None) -> None:
    caplog.set_level(logging.INFO, logger="dealerless.relay")
    relay, server, base = await _relay()
    url = f"{base}/room/{os.urandom(16).hex()}"
    links = [ClientLink(url + OPEN_ROOM, room_seed=SEED), ClientLink(url, room_seed=SEED)]
    for link in links:
        link.start()
    try:
        results = await asyncio.wait_for(asyncio.gather(
            Peer(links[0], config(tmp_path, HOST)).run(),
            Peer(links[1], config(tmp_path, JOIN)).run()), 60)
        await _settled(relay)
    finally:
        server.close()  # type: ignore[attr-defined]
    one, two = transcripts(list(results))
    assert one == two and replay(one).exit_code == 0
    lines = [r.getMessage() for r in caplog.records if r.name == "dealerless.relay.rooms"]
    room = url.rpartition("/")[2][:8]
    assert url.rpartition("/")[2] not in caplog.text   # the invitation stays out of the log
    kinds = [re.sub(r"^room \w+ (\w+).*", r"\1", line) for line in lines]
    assert kinds == ["opened", "joined", "finished", "freed"], lines
    assert all(line.startswith(f"room {room} ") for line in lines)
    assert "all 2 seats report the game complete" in lines[2]
    assert "game over, every seat left" in lines[3]


@pytest.mark.asyncio
async def test_a_room_left_before_its_game_is_over_waits_for_the_idle_grace() -> None:
    relay, server, base = await _relay(Limits(idle_seconds=0.5))
    room = f"{base}/room/{'a' * 32}"
    try:
        async with await open_room(room) as host, await join_room(room):
            await host.send(pack(["hello", PROTOCOL_VERSION, "host", bytes(32), bytes(32),
                                  "bram", {}, 2, 0, bytes(32), "ristretto255-sha512",
                                  bytes(64)]))
            await host.send(pack(["done", 30, 0, bytes(32)]))   # one seat of two says it is done
        await _settled(relay, rooms=1)               # kept: seat 1 may come back
        async with await join_room(room) as back:    # and it catches up from the log
            assert len([await asyncio.wait_for(back.recv(), 5) for _ in range(2)]) == 2
        await asyncio.sleep(0.6)
        assert relay.stats()["rooms_open"] == 0
        assert relay.events.rooms_freed == {"empty and quiet for 0.5 s": 1}
    finally:
        server.close()  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_refusal_names_the_limit_and_its_value(
        caplog: pytest.LogCaptureFixture, fresh_limits: None) -> None:
    caplog.set_level(logging.INFO, logger="dealerless.relay")
    relay, server, base = await _relay(Limits(max_rooms_per_network=2))
    try:
        async with await open_room(f"{base}/room/{'1' * 32}"), \
                await open_room(f"{base}/room/{'2' * 32}"):
            with pytest.raises(InvalidStatus) as refused:
                await connect(f"{base}/room/{'3' * 32}{OPEN_ROOM}")
        assert refused.value.response.status_code == 503
        assert refused.value.response.body.decode() == (
            "relay full: too many rooms from this network (127.0.0.0/24): 2 open "
            "(--max-rooms-per-network 2)\n")
        with pytest.raises(InvalidStatus):
            await connect(f"{base}/room/{'4' * 32}")
        assert relay.stats()["refused"] == {"max_rooms_per_network": 1, "no-room": 1}
    finally:
        server.close()  # type: ignore[attr-defined]
    refusals = [r.getMessage() for r in caplog.records if r.name == "dealerless.relay.refused"]
    assert refusals[0] == ("refused /room/33333333... for 127.0.0.1: relay full: too many "
                           "rooms from this network (127.0.0.0/24): 2 open "
                           "(--max-rooms-per-network 2)")
    assert refusals[1].endswith("no such room")


@pytest.mark.asyncio
async def test_stats_answer_plain_http_get() -> None:
    relay, server, base = await _relay()
    try:
        await play_game(base, record_games(1)[0], timeout=20)
        await _settled(relay)
        url = base.replace("ws://", "http://") + "/stats"
        raw = await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=5).read())
    finally:
        server.close()  # type: ignore[attr-defined]
    stats = json.loads(raw)
    assert stats["rooms_open"] == 0 and stats["games_finished"] == 1
    # Sent counts every copy, catch-up included; a message sent to an empty room has none.
    assert stats["bytes_received"] > 20_000 and stats["bytes_sent"] > 20_000
    assert set(stats) >= {"uptime_s", "connections", "rooms_opened", "rooms_freed", "refused"}


@pytest.mark.asyncio
async def test_a_relay_restart_is_not_told_as_a_wrong_invitation(tmp_path: Path) -> None:
    """The relay dies mid-game and a new one starts on its port, with no rooms: the host
    reopens its room, the game finishes, and no seat ever says "wrong invitation"."""
    _, server, base = await _relay()
    port = int(base.rpartition(":")[2])
    url = f"{base}/room/{os.urandom(16).hex()}"
    said: list[str] = []
    links = [ClientLink(url + OPEN_ROOM, on_retry=said.append, room_seed=SEED),
             ClientLink(url, fail_fast=True, on_retry=said.append, room_seed=SEED)]
    links[0].start()
    await links[0].wait_connected()   # the invitation is printed once the room is open
    links[1].start()
    moves = 0
    gate = asyncio.Event()
    joiner_cfg = config(tmp_path, JOIN)
    chooser = joiner_cfg.choose

    async def slow_then_go(view: object) -> object:
        nonlocal moves
        moves += 1
        if moves == 3:
            await gate.wait()   # the relay restarts while this player thinks
        return await chooser(view)

    joiner_cfg.choose = slow_then_go
    game = asyncio.gather(Peer(links[0], config(tmp_path, HOST)).run(),
                          Peer(links[1], joiner_cfg).run())
    try:
        while moves < 3:
            await asyncio.sleep(0.02)
        server.close()  # type: ignore[attr-defined]
        await server.wait_closed()  # type: ignore[attr-defined]
        await asyncio.sleep(1.0)    # the seats find it gone
        _, server, _ = await _relay(port=port)
        gate.set()
        results = await asyncio.wait_for(game, 60)
    finally:
        gate.set()
        server.close()  # type: ignore[attr-defined]
    one, two = transcripts(list(results))
    assert one == two and replay(one).exit_code == 0
    assert said, "the seats noticed the outage"
    assert not any("wrong invitation" in line for line in said), said
    assert any("down or restarting" in line or "may have restarted" in line
               for line in said), said


def test_every_limit_is_a_flag_whose_default_help_and_spec_agree() -> None:
    relay = build_parser()._subparsers._group_actions[0].choices["relay"]  # type: ignore[union-attr]
    text = relay.format_help()
    spec = (ROOT / "spec" / "12-peers.md").read_text()
    section = spec[spec.index("## 12.5"):spec.index("## 12.6")]
    args = relay.parse_args(["--listen", "127.0.0.1:0"])
    helps = {a.option_strings[0]: a.help or "" for a in relay._actions if a.option_strings}
    for name, flag, default, _ in limit_flags():
        assert flag in text and getattr(args, name) == default == getattr(Limits(), name)
        shown = f"{default:g}" if isinstance(default, float) else str(default)
        assert helps[flag].endswith(f"(default {shown})"), (flag, helps[flag])
        row = next((line for line in section.splitlines()
                    if line.startswith("|") and f"`{flag}`" in line), "")
        assert f"{default:,}".removesuffix(".0") in row, (flag, row)
    assert all("default" in h for f, h in helps.items() if f not in ("-h", "--listen"))
