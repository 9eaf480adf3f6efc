"""The relay under load (spec/12-peers.md 12.5, spec/09-bench.md 9.4): many games at once
from one address through one relay, each played by lightweight seats that replay a
recorded game (peers/bench/relay_load.py); every seat must end with the recorded
transcript, byte for byte, and the relay must refuse nothing and free every room."""

from __future__ import annotations

import asyncio

import pytest

from peers.bench.relay_load import play_many, record_games
from peers.net.relay import Limits, Relay
from protocol.verifier import replay


async def _load(concurrent: int) -> None:
    games = record_games(4)
    # One address opens every room: it may hold as many as it plays at once.
    relay = Relay(Limits(max_rooms_per_address=concurrent))
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
