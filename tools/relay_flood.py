#!/usr/bin/env python3
"""The relay under attack: its CPU and memory, and how long an honest game takes
(spec/12-peers.md 12.5; issue 21).

Runs a real `dealerless relay` process with its default limits and, one phase after
another, bounded in count and time:
  alone     honest games (lightweight seats replaying recorded games, the host paying
            the proof of work) through the idle relay;
  stalled   the same games, each with 8 readers in its room that never read;
  rooms     a room-and-connection flood from 16 loopback addresses (each opening as many
            rooms as the relay lets it, with 2 extra connections each, paying every proof
            of work), and honest games meanwhile;
  pings     8 connections pinging as fast as they can;
  catch-up  a room holding a 4 MiB log, and a client entering it again and again without
            saying what it holds.
For each phase it prints the relay's CPU seconds and RSS (from /proc) and its counters.

Usage: python tools/relay_flood.py [--seconds S] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from peers.bench.relay_flood import (
    StalledReader,
    Tally,
    hold_rooms,
    loopback,
    ping_flood,
    summary,
)
from peers.bench.relay_load import (
    Recorded,
    enter_room,
    play_seat,
    proc_figures,
    record_games,
)


def start_relay(*flags: str) -> tuple[subprocess.Popen[str], str]:
    relay = subprocess.Popen([sys.executable, "-m", "peers.cli", "relay", "--listen",
                              "127.0.0.1:0", "--stats-every", "0", *flags],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert relay.stdout is not None
    found = re.search(r"ws://([^/]+)/", relay.stdout.readline())
    if found is None:
        raise RuntimeError("the relay did not start")
    return relay, found.group(1)


def stats(address: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://{address}/stats", timeout=10) as answer:
        return dict(json.load(answer))


async def timed_game(base: str, game: Recorded, stalled: int = 0) -> float:
    """Seconds from the host entering a fresh room to every seat holding the game."""
    url = f"{base}/room/{os.urandom(16).hex()}"
    opened = asyncio.Event()
    started = time.perf_counter()
    host = asyncio.create_task(play_seat(url, game, 0, 60, opened))
    await asyncio.wait_for(opened.wait(), 60)
    readers = [await asyncio.to_thread(StalledReader, url) for _ in range(stalled)]
    copies = [await play_seat(url, game, 1, 60, opened), await host]
    for reader in readers:
        reader.close()
    if any(c != game.encode() for c in copies):
        raise RuntimeError("a seat's transcript differs")
    return time.perf_counter() - started


async def catchup_attack(base: str, seconds: float) -> int:
    """Fill a room's log with 4 MiB, then re-enter it without ?from= for `seconds`;
    the bytes the attacker received."""
    room = os.urandom(16).hex()
    url = f"{base}/room/{room}"
    from websockets.asyncio.client import connect

    opener = await connect(url + "?open", max_size=None, compression=None)
    await enter_room(opener, room, 30)
    keeper = await connect(url, max_size=None, compression=None)
    await enter_room(keeper, room, 30)
    for _ in range(64):
        await opener.send(os.urandom(65_000))
    got, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        async with connect(url, max_size=None, compression=None) as ws:
            await enter_room(ws, room, 30)
            while True:
                try:
                    got += len(await asyncio.wait_for(ws.recv(), 0.3))
                except TimeoutError:
                    break
    await opener.close()
    await keeper.close()
    return got


async def attack(base: str, seconds: float, addresses: int = 16, rooms: int = 16,
                 joiners: int = 2) -> Tally:
    """The room-and-connection flood: `rooms` rooms from each of `addresses` loopback
    addresses, `joiners` extra connections in each room, for `seconds`."""
    stop, tally = asyncio.Event(), Tally()
    flood = asyncio.create_task(hold_rooms(base, loopback(addresses), rooms, joiners, stop,
                                           tally))
    await asyncio.sleep(seconds)
    stop.set()
    await flood
    return tally


def phase(relay: subprocess.Popen[str], address: str, name: str, run: Any) -> dict[str, Any]:
    before = proc_figures(relay.pid)
    started = time.perf_counter()
    result = asyncio.run(run())
    after = proc_figures(relay.pid)
    figures = {"phase": name, "wall_s": round(time.perf_counter() - started, 2),
               "relay_cpu_s": round(after["cpu_s"] - before["cpu_s"], 2),
               "relay_rss_mib": round(after["rss_mib"], 1),
               "relay_peak_mib": round(after["peak_mib"], 1)}
    figures.update(result)
    current = stats(address)
    figures["relay"] = {k: current[k] for k in ("rooms_open", "connections", "refused",
                                                 "dropped", "bytes_sent")}
    return figures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="length of each flood")
    ap.add_argument("--games", type=int, default=3, help="honest games per phase")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--attack", metavar="BASE",
                    help="only flood the relay at BASE (ws://HOST:PORT) with rooms and "
                         "connections for --seconds, and print what the attacker got")
    ap.add_argument("--addresses", type=int, default=16, help="with --attack: addresses")
    ap.add_argument("--rooms", type=int, default=16, help="with --attack: rooms each")
    ap.add_argument("--joiners", type=int, default=2, help="with --attack: extra "
                                                            "connections per room")
    args = ap.parse_args()
    if args.attack:
        tally = asyncio.run(attack(args.attack, args.seconds, args.addresses, args.rooms,
                                   args.joiners))
        print(json.dumps(summary(tally)), flush=True)
        return 0
    games = record_games(args.games)
    relay, address = start_relay()
    base = f"ws://{address}"
    rows: list[dict[str, Any]] = []
    try:
        idle = proc_figures(relay.pid)
        rows.append({"phase": "idle", "relay_rss_mib": round(idle["rss_mib"], 1)})

        async def alone() -> dict[str, Any]:
            times = [await timed_game(base, g) for g in games]
            return {"game_s": round(statistics.median(times), 3)}

        async def stalled() -> dict[str, Any]:
            times = [await timed_game(base, g, stalled=8) for g in games]
            return {"game_s": round(statistics.median(times), 3)}

        async def rooms() -> dict[str, Any]:
            # The attacker is a process of its own: its proofs of work take its CPU, not
            # the honest seats' event loop.
            attacker = subprocess.Popen([sys.executable, __file__, "--attack", base,
                                         "--seconds", str(args.seconds)],
                                        stdout=subprocess.PIPE, text=True)
            await asyncio.sleep(args.seconds / 2)
            during = stats(address)
            times = [await timed_game(base, g) for g in games]
            out, _ = await asyncio.to_thread(attacker.communicate, None, 6 * args.seconds)
            return {"game_s": round(statistics.median(times), 3),
                    "rooms_open_during": during["rooms_open"],
                    "connections_during": during["connections"],
                    "attack": json.loads(out)}

        async def pings() -> dict[str, Any]:
            tally = Tally()
            await asyncio.gather(*(ping_flood(base, a, args.seconds, tally)
                                   for a in loopback(8, 40)))
            return {"attack": summary(tally)}

        async def catchup() -> dict[str, Any]:
            return {"attacker_received_mib": round(
                await catchup_attack(base, args.seconds) / 2**20, 1)}

        for name, run in (("alone", alone), ("stalled", stalled), ("rooms", rooms),
                          ("pings", pings), ("catch-up", catchup)):
            rows.append(phase(relay, address, name, run))
        by = {r["phase"]: r for r in rows}
        rows.append({"phase": "ratio", "stalled_over_alone": round(
            by["stalled"]["game_s"] / by["alone"]["game_s"], 2), "flood_over_alone": round(
            by["rooms"]["game_s"] / by["alone"]["game_s"], 2)})
    finally:
        relay.terminate()
        relay.wait(10)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for row in rows:
            print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
