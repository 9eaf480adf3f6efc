"""Loading a relay with many games at once, and what it costs the relay (spec/09-bench.md
9.4).

Theory of operation
-------------------
A real seat spends its time on proofs, not on the relay; to put hundreds of games
through one relay on a small machine, each game here is a recorded one (a selfplay
transcript) replayed by K lightweight seats that do no cryptography. Each seat speaks
the peer messages a real seat sends through a relay (spec/12-peers.md 12.3): the host
opens the room and sends its hello, every seat sends its own frames in chain order as
soon as it holds every earlier frame, keeps the frames it receives (holding early ones
until their turn, as a relay may reorder across senders), and once the game is whole
says `done` and waits for the others' `done` before it leaves. What each seat ends
with is its copy of the transcript, which must be the recorded one byte for byte.

`measure_relay` runs a real `dealerless relay` process and reads its CPU time and
memory from /proc before and after (Linux); nothing here imports the relay, so the
figures are the relay's alone.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import connect

from peers.net.messages import PROTOCOL_VERSION
from peers.table.selfplay import selfplay
from protocol.canonical import pack, unpack
from protocol.frames import MAX_FRAME_BYTES, frame_hash, parse_frame
from protocol.relay_entry import room_key, room_seed, sign_entry
from protocol.relay_work import solve
from protocol.setup import GameSetup
from protocol.transcript import Transcript

OPEN_ROOM = "?open"   # as spec/12-peers.md 12.5 names it
MAX_MESSAGE = MAX_FRAME_BYTES + 256


@dataclass(frozen=True)
class Recorded:
    """A finished game to replay: its setup, its frames and the seat that sent each."""

    setup: GameSetup
    frames: tuple[bytes, ...]
    senders: tuple[int, ...]

    @classmethod
    def of(cls, transcript: Transcript) -> Recorded:
        return cls(transcript.setup, transcript.frames,
                   tuple(parse_frame(w, transcript.setup.suite).seat
                         for w in transcript.frames))

    @property
    def seats(self) -> int:
        return len(self.setup.identities)

    def encode(self, frames: Sequence[bytes] | None = None) -> bytes:
        return Transcript(self.setup, tuple(self.frames if frames is None else frames)).encode()


def record_games(count: int, seed: int = 0) -> list[Recorded]:
    """`count` different Bram games between two greedy bots (seeded: a benchmark)."""
    return [Recorded.of(selfplay("bram", {}, ("greedy", "greedy"), seed=seed + i))
            for i in range(count)]


async def play_seat(url: str, game: Recorded, me: int, timeout: float = 60.0,
                    opened: asyncio.Event | None = None) -> bytes:
    """One lightweight seat of `game` through the room at `url`; its transcript copy.
    The host (seat 0) sets `opened` once its room is open; a joiner waits for it, as a
    person waits for the invitation."""
    if me and opened is not None:
        await asyncio.wait_for(opened.wait(), timeout)
    ws = await connect(url + (OPEN_ROOM if me == 0 else ""), max_size=MAX_MESSAGE,
                       compression=None, open_timeout=timeout)
    await enter_room(ws, url.rpartition("/")[2], timeout)
    if me == 0 and opened is not None:
        opened.set()
    try:
        if me == 0:
            # What a relay reads of a host hello (12.5): its shape and K; unsigned here,
            # as the relay checks no signature.
            await ws.send(pack(["hello", PROTOCOL_VERSION, "host", bytes(32), bytes(32),
                                game.setup.rules, {}, game.seats, 0, bytes(32),
                                game.setup.suite_name, bytes(64)]))
        held: dict[int, bytes] = {}
        done: set[int] = set()
        have: list[bytes] = []
        n = len(game.frames)
        # DONE names the last frame too (12.3).
        head = frame_hash(game.setup.suite, game.frames[-1])
        while len(have) < n or len(done) < game.seats - 1:
            if len(have) < n and game.senders[len(have)] == me:
                wire = game.frames[len(have)]
                await ws.send(pack(["frame", wire]))
                have.append(wire)
                if len(have) == n:
                    await ws.send(pack(["done", n, me, head]))
                continue
            message = await asyncio.wait_for(ws.recv(), timeout)
            obj = unpack(message, MAX_MESSAGE) if isinstance(message, bytes) else None
            if not isinstance(obj, list) or not obj:
                continue
            if obj[0] == "done" and obj[1:2] == [n] and obj[2] != me:
                done.add(obj[2])
            elif obj[0] == "frame" and len(have) < n:
                held[parse_frame(obj[1], game.setup.suite).seq] = obj[1]
                while len(have) in held:
                    have.append(held.pop(len(have)))
                if len(have) == n:
                    await ws.send(pack(["done", n, me, head]))
        return game.encode(have)
    finally:
        await ws.close()


#: The room secret of the rooms the lightweight seats open for themselves: they hold every
#: seat, so one secret for all does (a real table draws its own, 12.3).
BENCH_SECRET = bytes(16)


async def enter_room(ws: Any, room: str, timeout: float, secret: bytes = BENCH_SECRET) -> None:
    """What a seat does on entering a relay room (spec/12-peers.md 12.5): pay the proof
    of work and give the room key if the relay asks (`work <challenge> <bits>`), or sign
    its challenge (`prove <challenge>`), then read `room`."""
    seed = room_seed(secret, room)
    line = str(await asyncio.wait_for(ws.recv(), timeout)).split()
    if line[:1] == ["work"]:
        challenge, bits = bytes.fromhex(line[1]), int(line[2])
        start, nonce = 0, None
        while nonce is None:   # in slices, so that other seats run (and cancelling works)
            nonce = solve(challenge, room, bits, start, 4096)
            start += 4096
            await asyncio.sleep(0)
        await ws.send(f"{nonce} {room_key(seed).hex()}")
        line = str(await asyncio.wait_for(ws.recv(), timeout)).split()
    if line[:1] == ["prove"]:
        await ws.send(sign_entry(seed, bytes.fromhex(line[1]), room).hex())
        line = str(await asyncio.wait_for(ws.recv(), timeout)).split()
    if line[:1] != ["room"]:
        raise RuntimeError(f"the relay did not let a seat in: {' '.join(line)[:80]!r}")


async def play_game(base: str, game: Recorded, timeout: float = 60.0) -> list[bytes]:
    """Every seat of `game` in a fresh room of the relay at `base`; their copies."""
    url = f"{base}/room/{os.urandom(16).hex()}"
    opened = asyncio.Event()
    return list(await asyncio.gather(*(play_seat(url, game, seat, timeout, opened)
                                       for seat in range(game.seats))))


async def play_many(base: str, games: Sequence[Recorded], concurrent: int,
                    timeout: float = 120.0) -> list[list[bytes]]:
    """`concurrent` games at once through one relay, each a recorded game in turn."""
    return list(await asyncio.gather(*(play_game(base, games[i % len(games)], timeout)
                                       for i in range(concurrent))))


def proc_figures(pid: int) -> dict[str, float]:
    """CPU seconds and resident memory (MiB, now and peak) of a process, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    with open(f"/proc/{pid}/status") as f:
        status = {line.split(":")[0]: line.split()[1]
                  for line in f if line.startswith(("VmRSS", "VmHWM"))}
    return {"cpu_s": (int(fields[11]) + int(fields[12])) / ticks,
            "rss_mib": int(status["VmRSS"]) / 1024, "peak_mib": int(status["VmHWM"]) / 1024}


def measure_relay(concurrent: int, recorded: int = 4, rounds: int = 1,
                  progress: Callable[[int, int, str], None] | None = None) -> dict[str, Any]:
    """Run a relay process, put `concurrent` games through it at once (`rounds` times),
    check every copy of every transcript, and report what the relay spent;
    `progress(steps done, steps, the next step)`."""
    def tick(done: int, note: str) -> None:
        if progress is not None:
            progress(done, rounds + 1, note)

    tick(0, f"recording {recorded} games")
    games = record_games(recorded)
    cmd = [sys.executable, "-m", "peers.cli", "relay", "--listen", "127.0.0.1:0",
           "--max-rooms-per-network", str(max(concurrent, 1)),
           "--max-connections-per-network", str(max(2 * concurrent, 64)),
           "--connects-per-minute", str(max(2 * concurrent, 240)), "--work-bits", "0",
           "--stats-every", "0"]
    relay = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True)
    try:
        assert relay.stdout is not None
        found = re.search(r"ws://([^/]+)/", relay.stdout.readline())
        if found is None:
            raise RuntimeError("the relay did not start")
        base = f"ws://{found.group(1)}"
        before = proc_figures(relay.pid)
        started = time.perf_counter()
        for done in range(rounds):
            tick(1 + done, f"{concurrent} games at once through the relay")
            copies = asyncio.run(play_many(base, games, concurrent))
            for i, seats in enumerate(copies):
                if any(c != games[i % len(games)].encode() for c in seats):
                    raise RuntimeError(f"game {i}: a seat's transcript differs")
        wall = time.perf_counter() - started
        tick(rounds + 1, "")
        after = proc_figures(relay.pid)
        with urllib.request.urlopen(f"http://{found.group(1)}/stats", timeout=10) as r:
            stats = json.load(r)
    finally:
        relay.terminate()
        relay.wait(10)
    played = concurrent * rounds
    return {
        "games": played, "concurrent": concurrent, "wall_s": round(wall, 2),
        "relay_cpu_s": round(after["cpu_s"] - before["cpu_s"], 2),
        "relay_cpu_ms_per_game": round(1000 * (after["cpu_s"] - before["cpu_s"]) / played, 2),
        "relay_rss_idle_mib": round(before["rss_mib"], 1),
        "relay_peak_mib": round(after["peak_mib"], 1),
        "relay_kib_per_concurrent_game": round(
            1024 * (after["peak_mib"] - before["rss_mib"]) / concurrent, 1),
        "bytes_relayed_per_game": stats["bytes_received"] // max(played, 1),
        "games_finished": stats["games_finished"], "refused": stats["refused"],
        "rooms_open_after": stats["rooms_open"],
    }

