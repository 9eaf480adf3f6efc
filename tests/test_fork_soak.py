"""Two frames for one place (spec/10-session.md 10.8) under a chaotic network: seeded
Mined Games (three seats by default, five in the slow soak) where one seat answers
late on purpose, so that its COMMIT or OPEN races the declarations of its absence,
through a room that drops, duplicates, delays and reorders. No table splits: every
seat ends with the same transcript, and it verifies. The test counts the races it met
(rivals seen, places given up), so it shows that it exercises them.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from chaos_net import Chaos, ChaosLink

from peers.bots.registry import BOTS
from peers.net.config import HOST, JOIN, PeerConfig
from peers.net.peer import Peer
from peers.store.games import GameStore
from protocol.frames import MessageType
from protocol.identity import Identity
from protocol.referee import Referee
from protocol.seat import SeatAgent, SeatView
from protocol.setup import GameSetup
from protocol.verifier import replay

#: The agreed timeout (s): long enough that honest seats under a loaded machine are
#: rarely declared absent, so that the races are the late seat's.
TIMEOUT = 1.0


class LatePeer(Peer):
    """A seat whose OPEN (and, through its chooser, COMMIT) is often about one timeout
    late: just when the first declaration of its absence is signed."""

    def __init__(self, *args: Any, rng: random.Random, timeout: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rng, self.timeout = rng, timeout

    async def _send_own(self, store: GameStore, ref: Referee, agent: SeatAgent,
                        mtype: MessageType) -> None:
        if mtype is MessageType.OPEN and self.rng.random() < 0.6:
            await asyncio.sleep(late(self.rng, self.timeout))
        await super()._send_own(store, ref, agent, mtype)


def late(rng: random.Random, timeout: float) -> float:
    """About one timeout: just when the first declaration is signed."""
    return rng.uniform(0.7, 1.6) * timeout


@dataclass
class Game:
    copies: set[bytes]
    ends: list[str]    # per seat: its frame count and status, for a failure's message
    seen: int
    switched: int
    superseded: int


async def play(tmp: Path, seed: int, seats: int = 5, rounds: int = 2,
               timeout: float = TIMEOUT) -> Game:
    """One seeded game: every seat in one process, through one chaotic room."""
    rng = random.Random(seed)
    ids = [Identity(rng.randbytes(32)) for _ in range(seats)]
    setup = GameSetup.create("mined-games", {"seats": seats, "rounds": rounds},
                             [i.public_key for i in ids],
                             [rng.randbytes(32) for _ in range(seats)])
    chaos = Chaos(drop=0.1, duplicate=0.1, reorder=0.1, delay=0.02, hold=0.1,
                  rng=random.Random(rng.random()))
    links = ChaosLink.room(seats, chaos)
    late_seat = rng.randrange(seats)
    peers = []
    for seat, (link, ident) in enumerate(zip(links, ids, strict=True)):
        store = GameStore.create(tmp / f"{seed}-{seat}", setup, seat, rng.randbytes(32),
                                 {"role": HOST if seat == 0 else JOIN})
        bot = BOTS["random"](random.Random(rng.random()))
        seat_rng = random.Random(rng.random())

        async def choose(view: SeatView, bot: Any = bot, r: random.Random = seat_rng,
                         slow: bool = seat == late_seat) -> Any:
            if slow and r.random() < 0.5:
                await asyncio.sleep(late(r, timeout))    # a late COMMIT
            return bot(view)

        cfg = PeerConfig(games_dir=tmp, role=HOST if seat == 0 else JOIN, identity=ident,
                         choose=choose, notify=lambda e: None, rules="mined-games",
                         params={"seats": seats, "rounds": rounds}, sync_interval=0.05,
                         linger=0.5, move_timeout=timeout)
        peers.append(LatePeer(link, cfg, store, rng=seat_rng, timeout=timeout)
                     if seat == late_seat
                     else Peer(link, cfg, store))
    results = await asyncio.wait_for(asyncio.gather(*(p.run() for p in peers)), 120)
    copies = set()
    ends = []
    superseded = 0
    for r in results:
        store = GameStore.open(r.path)
        copies.add(store.transcript().encode())
        ends.append(f"seat {store.seat}: {store.frame_count()} frames, {store.meta('status')}")
        superseded += len(store.superseded())
        store.close()
    return Game(copies, ends, sum(p.forks.seen for p in peers),
                sum(p.forks.switched for p in peers), superseded)


async def soak(tmp: Path, seeds: range, **table: Any) -> tuple[int, int, bytes]:
    """Play every seed; each must end with one transcript at every seat, valid and
    complete. Returns the rivals seen and places given up over all games, and the last
    game's transcript."""
    seen = switched = superseded = 0
    data = b""
    for seed in seeds:
        game = await play(tmp, seed, **table)
        assert len(game.copies) == 1, f"seed {seed}: {game.ends}"
        data = next(iter(game.copies))
        verdict = replay(data)
        assert verdict.valid and verdict.complete, (seed, verdict.violation)
        seen, switched = seen + game.seen, switched + game.switched
        superseded += game.superseded
    print(f"{len(seeds)} games: {seen} rivals seen, {switched} places given up, "
          f"{superseded} frames superseded")
    return seen, switched, data


@pytest.mark.asyncio
async def test_a_short_soak_of_late_answers_through_a_chaotic_room_never_splits(
        tmp_path: Path) -> None:
    seen, switched, data = await soak(tmp_path, range(2), seats=3, rounds=1, timeout=1.0)
    assert seen > 0 and switched > 0   # the races happened, and were settled
    (tmp_path / "g.t").write_bytes(data)
    proc = subprocess.run([sys.executable, "-m", "peers.cli", "verify", str(tmp_path / "g.t"),
                           "--json"], capture_output=True, text=True)
    verdict = json.loads(proc.stdout)
    assert proc.returncode == 0 and verdict["valid"] and verdict["complete"]


@pytest.mark.slow
@pytest.mark.asyncio
async def test_the_long_soak_of_five_seat_games_never_splits(tmp_path: Path) -> None:
    _, switched, _ = await soak(tmp_path, range(100, 130), timeout=2.0)
    assert switched > 0
