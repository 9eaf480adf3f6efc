"""Opt-in soak runs (`python -m pytest -m slow`): long, repetitive versions of other tests.

- every single-byte flip of a transcript through the real replay (about 20 minutes);
- ten SIGKILL-and-resume rounds at random moments, either seat;
- games through a relay that loses, duplicates and reorders half its traffic.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from peers.table.selfplay import selfplay
from protocol.verifier import replay

pytestmark = pytest.mark.slow


def test_every_byte_flip_through_the_full_replay() -> None:
    data = selfplay(seed=77).encode()
    bad = [i for i in range(len(data))
           if replay(data[:i] + bytes([data[i] ^ 0x55]) + data[i + 1:]).exit_code != 1]
    assert bad == []


@pytest.mark.parametrize("round_", range(10))
def test_sigkill_and_resume_soak(tmp_path: Path, round_: int) -> None:
    from test_processes import test_a_peer_killed_with_sigkill_resumes_and_the_game_still_verifies
    victim = random.Random(round_).choice(["host", "join"])
    test_a_peer_killed_with_sigkill_resumes_and_the_game_still_verifies(tmp_path, victim)


@pytest.mark.asyncio
@pytest.mark.parametrize("seed", range(3))
async def test_heavy_chaos_relay(tmp_path: Path, seed: int) -> None:
    from test_network import play_through_relay

    from peers.net.relay import Chaos

    await play_through_relay(tmp_path, Chaos(drop=0.5, duplicate=0.3, reorder=0.5,
                                             rng=random.Random(seed)), timeout=600)
