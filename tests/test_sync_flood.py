"""A room member that forges SYNCs cannot make the seats an amplifier (spec/12-peers.md
12.3, issue 29 "SYNC amplification").

The forger enters the game's relay room as any joiner may, and answers every frame it
sees with SYNCs asking for frames from 0, from that frame's seq and from an earlier seq
it turns through, each with the right head, so that every question is new and honest
seats would answer each with up to 64 frames. Now the seats answer a few questions per
half interval on their link and resend at most a byte budget (AnswerLimit in
peers/net/pacing.py), so what the relay sends is bounded by that budget and the game's
length, however much the forger asks, and the game finishes at about its normal speed.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from relay_helpers import join_room
from test_network import config, transcripts
from test_processes import assert_same_valid_game, free_port, start, wait_for
from websockets.exceptions import ConnectionClosed

from peers.net.config import HOST, JOIN
from peers.net.invitation import dial_url, parse_invitation
from peers.net.link import MAX_MESSAGE_BYTES, MemoryLink
from peers.net.messages import pack_message, parse_message
from peers.net.pacing import REPLIES, RESEND_BURST, RESEND_RATE, RESENDS, AnswerLimit
from peers.net.peer import Peer
from protocol.errors import EncodingError
from protocol.frames import parse_frame
from protocol.suite import table_suite
from protocol.verifier import replay


class Forger:
    """The questions a SYNC forger asks on seeing a frame: from 0, from the frame's seq,
    and from an earlier seq it turns through (all with the heads the seats hold)."""

    def __init__(self) -> None:
        self.prevs: dict[int, bytes] = {}
        self.turn = 0
        self.sent = 0        # bytes of the forged SYNCs
        self.seen = 0        # bytes of the frames it was sent

    def answer(self, message: bytes) -> list[bytes]:
        obj = parse_message(message)
        if obj is None or obj[0] != "frame" or len(obj) != 2 or not isinstance(obj[1], bytes):
            return []
        self.seen += len(message)
        try:
            frame = parse_frame(obj[1], table_suite())   # the tables of this version
        except EncodingError:
            return []
        self.prevs[frame.seq] = frame.prev
        asks = [frame.seq, 0, self.turn % (frame.seq + 1)]
        self.turn += 7
        syncs = [pack_message("sync", n, self.prevs[n]) for n in asks if n in self.prevs]
        self.sent += sum(map(len, syncs))
        return syncs


async def forge_in_room(url: str, forger: Forger, stop: threading.Event) -> None:
    """Enter the relay room of invitation `url` as a joiner and forge until `stop`."""
    ws = await join_room(dial_url(url), parse_invitation(url).room,   # an invitee
                         max_size=MAX_MESSAGE_BYTES, compression=None)
    try:
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(ws.recv(), 0.2)
            except TimeoutError:
                continue
            if isinstance(message, bytes):
                for sync in forger.answer(message):
                    await ws.send(sync)
    except ConnectionClosed:
        pass
    finally:
        await ws.close()


class Clock:
    """A clock for AnswerLimit that moves only when told to."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_many_questions_get_a_few_answers_per_interval() -> None:
    """Each question still once per half interval, and now the whole link too: twice
    RESENDS answers with frames at once, then RESENDS per half interval, however many
    of the questions are new; the small answers have their own REPLIES."""
    clock = Clock()
    limit = AnswerLimit(0.5, clock)
    frames = [bytes(10)]
    assert sum(bool(limit.resend(("sync", n), lambda: frames)) for n in range(100)) \
        == 2 * RESENDS
    assert sum(limit.may_answer(("done", n)) for n in range(100)) == 2 * REPLIES
    assert not limit.may_answer(("done", 0))             # answered: not again so soon
    clock.now += 0.25
    assert sum(bool(limit.resend(("sync", n), lambda: frames)) for n in range(100, 200)) \
        == RESENDS
    assert sum(limit.may_answer(("done", n)) for n in range(100, 200)) == REPLIES
    clock.now += 10
    assert limit.may_answer(("done", 0))                 # long ago: answered again
    assert limit.resend(("sync", 0), lambda: frames) == frames


def test_resent_frames_are_a_prefix_within_the_byte_budget() -> None:
    """A resend is the longest prefix the byte budget allows (at least one frame, so a
    frame larger than what is left still goes), then nothing until the budget refills;
    a question met with a spent budget is not counted as answered, and is answered
    when the budget allows."""
    clock = Clock()
    limit = AnswerLimit(0.5, clock)
    frames = [bytes(1000)] * 64
    sent = [limit.resend(("sync", n), lambda: frames) for n in range(2 * RESENDS)]
    assert sum(map(len, sent[0])) == 64_000              # the burst covers a full answer
    total = sum(len(w) for answer in sent for w in answer)
    assert RESEND_BURST <= total < RESEND_BURST + 1000   # overdrawn by one frame at most
    clock.now += (2500 + total - RESEND_BURST) / RESEND_RATE   # 2500 bytes repaid
    asked: list[int] = []

    def read() -> list[bytes]:
        asked.append(1)
        return frames

    assert limit.resend(("sync", 99), read) == frames[:3]   # 2500, 1500, 500 left
    assert limit.resend(("sync", 98), read) == []
    assert asked == [1]                                  # spent: not even read
    big = [bytes(60_000), bytes(10)]
    clock.now += 2000 / RESEND_RATE                      # a little repaid: a little sent
    assert limit.resend(("sync", 98), lambda: big) == big[:1]
    assert limit.resend(("sync", 97), lambda: big) == []
    clock.now += 2 * RESEND_BURST / RESEND_RATE          # refilled
    assert limit.resend(("sync", 97), lambda: big) == big


class Counted(MemoryLink):
    """A member of an in-memory room that counts the bytes the room delivers for it."""

    def __init__(self) -> None:
        super().__init__()
        self.delivered = 0

    async def send(self, message: bytes) -> None:
        self.delivered += len(message) * len(self.others)
        await super().send(message)


def room(n: int) -> list[Counted]:
    links = [Counted() for _ in range(n)]
    for link in links:
        link.others = [other for other in links if other is not link]
    return links


#: The in-memory forger stops once the seats have sent this much, so that unlimited
#: answers (the code before issue 29) fail the test in seconds rather than fill memory.
ENOUGH = 8 << 20


async def forge_in_memory(link: MemoryLink, forger: Forger, stop: asyncio.Event,
                          seats: list[Counted]) -> None:
    while not stop.is_set():
        message = await link.recv(0.02)
        if message is not None and sum(seat.delivered for seat in seats) < ENOUGH:
            for sync in forger.answer(message):
                await link.send(sync)


async def _memory_game(tmp: Path, attack: bool) -> tuple[float, int, Forger]:
    """Bram's game between two in-process seats, with or without a forger in their room:
    seconds, the bytes the room delivered for the seats, the forger."""
    host, joiner, member = room(3)
    forger, stop = Forger(), asyncio.Event()
    forging = asyncio.create_task(forge_in_memory(member, forger, stop, [host, joiner])
                                  if attack else stop.wait())
    started = time.monotonic()
    try:
        results = await asyncio.wait_for(asyncio.gather(
            Peer(host, config(tmp, HOST)).run(), Peer(joiner, config(tmp, JOIN)).run()), 30)
    finally:
        stop.set()
        await forging
    seconds = time.monotonic() - started
    one, two = transcripts(list(results))
    assert one == two and replay(one).exit_code == 0
    return seconds, host.delivered + joiner.delivered, forger


@pytest.mark.asyncio
async def test_a_sync_forger_in_an_in_memory_room_gets_bounded_answers(
        tmp_path: Path) -> None:
    """The same attack in one process: what the seats send under attack is what an
    unattacked game sends plus at most the byte budget of each seat's link, for each
    member the room delivers it to, and the game finishes."""
    alone, quiet, _ = await _memory_game(tmp_path / "alone", attack=False)
    seconds, loud, forger = await _memory_game(tmp_path / "attacked", attack=True)
    budget = 2 * 2 * (RESEND_BURST + RESEND_RATE * seconds)   # 2 seats, 2 others each
    print(f"\nunattacked: {alone:.1f} s, the seats sent {quiet} B"
          f"\nattacked: {seconds:.1f} s, the forger sent {forger.sent} B, the seats "
          f"{loud} B ({loud / max(forger.sent, 1):.0f}x the forger's; budget "
          f"{budget:.0f} B)")
    assert forger.sent > 0
    assert loud < 2 * quiet + budget
    assert seconds < 3 * alone + 10


def _stats(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats", timeout=10) as answer:
        return dict(json.load(answer))


def _cpu_seconds(proc: subprocess.Popen[bytes], timeout: float) -> float:
    """Wait for a seat's process to exit 0; the CPU seconds it used (a figure that other
    work on a shared machine does not inflate, unlike its wall-clock time)."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            assert proc.returncode == 0, proc.args
            return usage.ru_utime + usage.ru_stime
        if time.monotonic() > deadline:
            raise AssertionError(f"{proc.args} did not finish within {timeout} s")
        time.sleep(0.05)


@dataclass
class Run:
    """One game through a relay: its wall-clock and CPU seconds (both seats, from the
    join to their exit), the relay's counters after it, and the forger if any."""

    seconds: float
    cpu: float
    stats: dict[str, Any]
    forger: Forger


def _game(tmp: Path, rules: list[str], attack: bool) -> Run:
    """A greedy-bot game through a fresh relay, with or without a forger in its room."""
    tmp.mkdir()
    port = free_port()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}", "--stats-every", "0"],
                  tmp / "relay.log")
    forger, stop = Forger(), threading.Event()
    attacker: threading.Thread | None = None
    seats: list[subprocess.Popen[bytes]] = []
    try:
        wait_for(r"(relay listening)", tmp / "relay.log")
        seats.append(start(["host", "--relay", f"ws://127.0.0.1:{port}", "--bot", "greedy",
                            "--home", str(tmp / "h1"), "--timeout", "60", *rules],
                           tmp / "host.log"))
        url = wait_for(r"dealerless join (\S+)", tmp / "host.log", timeout=60)
        if attack:
            attacker = threading.Thread(
                target=asyncio.run, args=(forge_in_room(url, forger, stop),))
            attacker.start()
        started = time.monotonic()
        seats.append(start(["join", url, "--bot", "greedy", "--home", str(tmp / "h2"),
                            "--timeout", "60"], tmp / "join.log"))
        cpu = _cpu_seconds(seats[1], 300) + _cpu_seconds(seats[0], 60)
        seconds = time.monotonic() - started
        stop.set()
        if attacker is not None:
            attacker.join(30)
        stats = _stats(port)
    finally:
        stop.set()
        for proc in [*seats, relay]:
            if proc.returncode is None:
                proc.kill()
                proc.wait(10)
    assert_same_valid_game(tmp)
    return Run(seconds, cpu, stats, forger)


def _attack_costs_little(tmp: Path, rules: list[str]) -> None:
    """The same game alone and with a forger in its room. What the relay sends under
    attack is bounded by what it sends alone, the forger's own SYNCs, and the byte
    budget of the two seats' links (pacing.py), each resend reaching the two other
    members of the room; and the game takes about as long."""
    alone = _game(tmp / "alone", rules, attack=False)
    attacked = _game(tmp / "attacked", rules, attack=True)
    quiet, loud, forger = alone.stats["bytes_sent"], attacked.stats["bytes_sent"], \
        attacked.forger
    budget = 2 * (RESEND_BURST + RESEND_RATE * attacked.seconds)
    print(f"\nunattacked: {alone.seconds:.1f} s ({alone.cpu:.1f} s of CPU), relay sent "
          f"{quiet} B"
          f"\nattacked: {attacked.seconds:.1f} s ({attacked.cpu:.1f} s of CPU), forger "
          f"sent {forger.sent} B (and was sent {forger.seen} B of frames), relay received "
          f"{attacked.stats['bytes_received']} B and sent {loud} B: "
          f"{loud / max(forger.sent, 1):.0f}x the forger's bytes, {loud / quiet:.1f}x an "
          f"unattacked game's (the seats' resend budget: {budget:.0f} B)\n{attacked.stats}")
    assert forger.sent > 0
    assert loud < 2 * quiet + 2 * forger.sent + 2 * 1.1 * budget
    assert attacked.seconds < 2 * alone.seconds + 5


def test_a_sync_forger_in_the_room_gets_no_amplified_answers(tmp_path: Path) -> None:
    """Bram's game through a real relay, alone and with a SYNC forger in its room."""
    _attack_costs_little(tmp_path, [])


@pytest.mark.slow
def test_a_sync_forger_costs_a_mexican_train_game_little(tmp_path: Path) -> None:
    """The same with Mexican Train, whose transcript is larger (about 190 KB)."""
    _attack_costs_little(tmp_path, ["--rules", "mexican-train"])
