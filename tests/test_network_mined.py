"""Mined Games over the network (spec/12-peers.md, spec/10-session.md 10.8): five peers
through a relay that drops, duplicates and reorders; a seat that goes silent is declared
absent by a majority of the other four and the game still ends complete; and five real `dealerless`
processes through `dealerless relay`."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from invites import seat_named, table_of
from relay_helpers import SEED
from test_processes import finish, free_port, invitations, start, wait_for

from peers.bots.registry import BOTS
from peers.net.config import HOST, JOIN, PeerConfig, PeerResult
from peers.net.link import ClientLink
from peers.net.peer import Peer
from peers.net.relay import OPEN_ROOM, Chaos, Relay
from peers.store.games import GameStore
from protocol.frames import MessageType
from protocol.identity import Identity
from protocol.referee import Referee
from protocol.rules.mined_state import START_STAGE
from protocol.seat import SeatAgent, SeatView
from protocol.verifier import replay

CLI = [sys.executable, "-m", "peers.cli"]
NAMES = ["host", "join1", "join2", "join3", "join4"]


def config(tmp: Path, name: str, timeout: float, hang_from: int | None = None) -> PeerConfig:
    bot = BOTS["greedy" if name in ("host", "join2") else "random"](random.Random(name))

    async def choose(view: SeatView) -> Any:
        if hang_from is not None and view.rules_state.stage >= hang_from:
            await asyncio.Event().wait()   # this seat's player walks away
        return bot(view)

    host, invitation = table_of(tmp, seat_named(name))
    return PeerConfig(games_dir=tmp / name, role=HOST if name == "host" else JOIN,
                      identity=host if name == "host" else Identity(os.urandom(32)),
                      choose=choose, invitation=invitation,
                      notify=lambda e: None, rules="mined-games", params={"seats": 5},
                      sync_interval=0.05, linger=0.5, move_timeout=timeout)


async def table(tmp: Path, chaos: Chaos | None, timeout: float,
                hang: str | None = None) -> tuple[list[Peer], Any]:
    server, port = await Relay(chaos=chaos).serve("127.0.0.1", 0)
    url = f"ws://127.0.0.1:{port}/room/{os.urandom(16).hex()}"
    links = [ClientLink(url + OPEN_ROOM, room_seed=SEED),
             *(ClientLink(url, room_seed=SEED) for _ in NAMES[1:])]
    for link in links:
        link.start()
    peers = [Peer(link, config(tmp, name, timeout, START_STAGE if name == hang else None))
             for link, name in zip(links, NAMES, strict=True)]
    return peers, server


def transcripts(results: list[PeerResult]) -> tuple[set[bytes], list[int]]:
    copies, seats = set(), []
    for r in results:
        store = GameStore.open(r.path)
        copies.add(store.transcript().encode())
        seats.append(store.seat)
        store.close()
    return copies, seats


@pytest.mark.asyncio
async def test_five_peers_play_mined_games_through_a_chaotic_relay(tmp_path: Path) -> None:
    chaos = Chaos(drop=0.2, duplicate=0.2, reorder=0.2, rng=random.Random(4))
    peers, server = await table(tmp_path, chaos, 20.0)
    try:
        results = await asyncio.wait_for(asyncio.gather(*(p.run() for p in peers)), 90)
    finally:
        server.close()
    copies, seats = transcripts(results)
    assert len(copies) == 1 and sorted(seats) == [0, 1, 2, 3, 4]
    verdict = replay(copies.pop())
    assert verdict.exit_code == 0, verdict.violation
    out = verdict.to_json()["outcome"]
    assert out["token_winner"] in range(5) and out["elimination_candidate"] in range(5)


@pytest.mark.asyncio
async def test_a_seat_that_goes_silent_is_declared_absent_and_the_game_ends(
        tmp_path: Path) -> None:
    peers, server = await table(tmp_path, None, 1.0, hang="join3")
    tasks = [asyncio.create_task(p.run()) for p in peers]
    silent = tasks[3]
    try:
        done = await asyncio.wait_for(asyncio.gather(*(t for t in tasks if t is not silent)),
                                      60)
    finally:
        silent.cancel()
        server.close()
    copies, seats = transcripts(list(done))
    assert len(copies) == 1
    verdict = replay(copies.pop())
    assert verdict.exit_code == 0, verdict.violation
    out = verdict.to_json()["outcome"]
    # join3's seat is the fourth to join; whatever its number, it forfeited in the first
    # stage (a later one could come after a miner's death had ended the game).
    gone = ({0, 1, 2, 3, 4} - set(seats)).pop()
    assert out["status"][gone] == "forfeit" and out["elimination_candidate"] == gone
    (forfeit,) = out["forfeits"]
    assert forfeit["seat"] == gone and forfeit["stage"] == START_STAGE and not forfeit["proven"]
    # A majority of the other four (10.8): the first three after it by the stagger.
    assert len(forfeit["declared_by"]) == 3 and set(forfeit["declared_by"]) < set(seats)


#: The stage whose OPEN the Withholder keeps back: the first of the game, since a miner's
#: death can end a game of random deals before any later one.
WITHHELD_STAGE = START_STAGE


class Withholder(Peer):
    """A seat whose peer keeps its OPEN of WITHHELD_STAGE back and then hangs."""

    async def _send_own(self, store: GameStore, ref: Referee, agent: SeatAgent,
                        mtype: MessageType) -> None:
        if mtype is MessageType.OPEN and ref.state.rules_state.stage >= WITHHELD_STAGE:
            await asyncio.Event().wait()
        await super()._send_own(store, ref, agent, mtype)


@pytest.mark.asyncio
async def test_a_withheld_open_is_opened_by_the_other_peers_and_the_game_ends(
        tmp_path: Path) -> None:
    # Two seconds a timeout: every declarer checks each frame in this one process, so the
    # stagger of half a timeout (spec/12-peers.md 12.3) must outlast a busy event loop.
    peers, server = await table(tmp_path, None, 2.0)
    peers[3] = Withholder(peers[3].link, peers[3].cfg)
    tasks = [asyncio.create_task(p.run()) for p in peers]
    silent = tasks[3]
    try:
        done = await asyncio.wait_for(asyncio.gather(*(t for t in tasks if t is not silent)),
                                      90)
    finally:
        silent.cancel()
        server.close()
    copies, seats = transcripts(list(done))
    assert len(copies) == 1
    verdict = replay(copies.pop())
    assert verdict.exit_code == 0, verdict.violation
    out = verdict.to_json()["outcome"]
    gone = ({0, 1, 2, 3, 4} - set(seats)).pop()
    # Its sealed orders counted (opened by 3 of the 4 others, D20); if the game goes on, it
    # is silent at its next COMMIT and forfeits on a majority's declarations.
    (withheld,) = out["withheld"]
    assert withheld["seat"] == gone and withheld["stage"] == WITHHELD_STAGE
    assert len(withheld["opened_by"]) == 3 and set(withheld["opened_by"]) < set(seats)
    assert out["status"][gone] != "forfeit" or out["forfeits"] == [
        {"seat": gone, "stage": WITHHELD_STAGE + 1,
         "declared_by": out["forfeits"][0]["declared_by"], "proven": False}]
    assert len(out["forfeits"]) == (out["status"][gone] == "forfeit")
    assert all(len(f["declared_by"]) == 3 for f in out["forfeits"])


def test_five_processes_play_mined_games_through_a_relay(tmp_path: Path) -> None:
    port = free_port()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}"], tmp_path / "relay.log")
    seats = []
    try:
        wait_for(r"(relay listening)", tmp_path / "relay.log")
        seats.append(start(["host", "--relay", f"ws://127.0.0.1:{port}", "--rules",
                            "mined-games", "--seats", "5", "--bot", "greedy", "--home",
                            str(tmp_path / "h0"), "--timeout", "60"], tmp_path / "h0.log"))
        urls = invitations(tmp_path / "h0.log", 5)
        for i in range(1, 5):
            seats.append(start(["join", urls[i - 1], "--bot", "random" if i % 2 else "greedy",
                                "--home", str(tmp_path / f"h{i}"), "--timeout", "60"],
                               tmp_path / f"h{i}.log"))
        assert [finish(p, 180) for p in seats] == [0] * 5
    finally:
        for proc in (*seats, relay):
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    files = []
    for i in range(5):
        out = tmp_path / f"{i}.t"
        game = next((tmp_path / f"h{i}" / "games").glob("*.sqlite"))
        subprocess.run([*CLI, "export", str(game), str(out)], check=True, capture_output=True)
        files.append(out.read_bytes())
    assert len(set(files)) == 1
    proc = subprocess.run([*CLI, "verify", str(tmp_path / "0.t"), "--json"],
                          capture_output=True, text=True)
    verdict = json.loads(proc.stdout)
    assert proc.returncode == 0 and verdict["valid"] and verdict["complete"]
    assert verdict["rules"]["name"] == "mined-games" and len(verdict["seats"]) == 5
    assert verdict["outcome"]["token_winner"] is not None
