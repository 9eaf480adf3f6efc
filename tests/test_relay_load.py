"""The relay under load (spec/12-peers.md 12.5, spec/09-bench.md 9.4): many games at once
from one address through one relay, each played by lightweight seats that replay a
recorded game (peers/bench/relay_load.py); every seat must end with the recorded
transcript, byte for byte, and the relay must refuse nothing and free every room."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from peers.bench.relay_load import play_game, play_many, record_games
from peers.cli.main import main
from peers.net.relay import Limits, Relay
from protocol.verifier import replay


async def _load(concurrent: int) -> None:
    games = record_games(4)
    # One address opens every room: it may hold as many as it plays at once.
    relay = Relay(Limits(max_rooms_per_network=concurrent,
                         max_connections_per_network=2 * concurrent,
                         connects_per_minute=2 * concurrent, work_bits=0))
    server, port = await relay.serve("127.0.0.1", 0)
    try:
        copies = await asyncio.wait_for(
            play_many(f"ws://127.0.0.1:{port}", games, concurrent), 300)
        for _ in range(500):
            if not relay.rooms and not relay.connections:
                break
            await asyncio.sleep(0.02)
        stats = relay.stats()
    finally:
        server.close()  # type: ignore[attr-defined]
    assert len(copies) == concurrent
    for i, seats in enumerate(copies):
        assert seats == [games[i % len(games)].encode()] * 2, f"game {i}"
    assert all(replay(g.encode()).exit_code == 0 for g in games)
    assert stats["games_finished"] == concurrent and stats["refused"] == {}
    assert stats["rooms_open"] == 0 and stats["connections"] == 0


@pytest.mark.asyncio
async def test_two_hundred_concurrent_games_through_one_relay() -> None:
    await _load(200)


def test_the_relay_command_logs_room_events_and_answers_stats(tmp_path: Path) -> None:
    """`dealerless relay` as a process: one line a room event on stderr, GET /stats."""
    with open(tmp_path / "relay.log", "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "peers.cli", "relay", "--listen",
                                 "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        assert proc.stdout is not None
        address = proc.stdout.readline().split("ws://")[1].split("/")[0]
        game = record_games(1)[0]
        copies = asyncio.run(play_game(f"ws://{address}", game, timeout=30))
        assert copies == [game.encode()] * 2
        for _ in range(100):
            with urllib.request.urlopen(f"http://{address}/stats", timeout=5) as answer:
                stats = json.load(answer)
            if stats["rooms_open"] == 0:
                break
            time.sleep(0.05)
        assert stats["games_finished"] == 1 and stats["rooms_freed"] == {
            "game over, every seat left": 1}
    finally:
        proc.terminate()
        proc.wait(10)
    events = [re.sub(r"^room \w{8} (\w+).*", r"\1", line)
              for line in (tmp_path / "relay.log").read_text().splitlines()
              if line.startswith("room ")]
    assert events == ["opened", "joined", "finished", "freed"]


def test_bench_relay_reports_the_relays_cost_per_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--relay", "10", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == figures["games_finished"] == 10 and figures["refused"] == {}
    assert figures["rooms_open_after"] == 0 and figures["relay_cpu_ms_per_game"] >= 0
    assert figures["relay_peak_mib"] >= figures["relay_rss_idle_mib"] > 0
    assert figures["bytes_relayed_per_game"] > 20_000
