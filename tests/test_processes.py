"""Real OS processes over loopback: host and join, a chaotic relay, SIGKILL and resume.

(spec/12-peers.md) Each test starts `dealerless` commands as separate processes,
the way two people on two machines would, and checks that both seats end with
the same transcript and that `dealerless verify` accepts it.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from protocol.verifier import replay

CLI = [sys.executable, "-m", "peers.cli"]


def start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    out = log.open("wb")
    return subprocess.Popen([*CLI, *args], stdout=out, stderr=subprocess.STDOUT)


def wait_for(pattern: str, log: Path, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = re.search(pattern, log.read_text(errors="replace"))
        if m:
            return m.group(1)
        time.sleep(0.05)
    raise AssertionError(f"{pattern!r} never appeared in {log}:\n{log.read_text()}")


def invitations(log: Path, seats: int, timeout: float = 20) -> list[str]:
    """The invitation URLs a `host` of `seats` printed, seat 1's first (spec 12.3)."""
    if seats == 2:
        return [wait_for(r"invitation: dealerless join (\S+)", log, timeout)]
    wait_for(rf"(invitation for seat {seats - 1}: )", log, timeout)
    return re.findall(r"invitation for seat \d: dealerless join (\S+)", log.read_text())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def finish(proc: subprocess.Popen[bytes], timeout: float = 90) -> int:
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise


def export(home: Path, out: Path) -> bytes:
    game = next((home / "games").glob("*.sqlite"))
    subprocess.run([*CLI, "export", str(game), str(out), "--home", str(home)], check=True,
                   capture_output=True)
    return out.read_bytes()


def assert_same_valid_game(tmp: Path) -> None:
    one, two = export(tmp / "h1", tmp / "1.t"), export(tmp / "h2", tmp / "2.t")
    assert one == two
    assert replay(one).exit_code == 0
    proc = subprocess.run([*CLI, "verify", str(tmp / "1.t")], capture_output=True)
    assert proc.returncode == 0


def test_two_processes_play_a_full_game_over_loopback(tmp_path: Path) -> None:
    host = start(["host", "--listen", "127.0.0.1:0", "--bot", "greedy", "--home",
                  str(tmp_path / "h1"), "--timeout", "60"], tmp_path / "host.log")
    url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log")
    join = start(["join", url, "--bot", "random", "--home", str(tmp_path / "h2"),
                  "--timeout", "60"], tmp_path / "join.log")
    assert finish(join) == 0 and finish(host) == 0
    sas = [wait_for(r"short authentication string: (\S+)", tmp_path / f"{r}.log")
           for r in ("host", "join")]
    assert sas[0] == sas[1]
    assert_same_valid_game(tmp_path)


@pytest.mark.slow   # the in-process chaotic relays of test_network*.py run by default
def test_a_game_through_a_relay_that_drops_duplicates_and_reorders(tmp_path: Path) -> None:
    port = free_port()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}", "--chaos-drop", "0.2",
                   "--chaos-dup", "0.2", "--chaos-reorder", "0.2", "--chaos-seed", "3"],
                  tmp_path / "relay.log")
    try:
        wait_for(r"(relay listening)", tmp_path / "relay.log")
        host = start(["host", "--relay", f"ws://127.0.0.1:{port}", "--bot", "greedy",
                      "--home", str(tmp_path / "h1"), "--timeout", "60"], tmp_path / "host.log")
        url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log")
        join = start(["join", url, "--bot", "greedy", "--home", str(tmp_path / "h2"),
                      "--timeout", "60"], tmp_path / "join.log")
        assert finish(join) == 0 and finish(host) == 0
    finally:
        relay.terminate()
        relay.wait(10)
    assert_same_valid_game(tmp_path)


def _frames(home: Path, timeout: float = 30) -> int:
    """How many frames the seat at `home` has stored; 0 before its game exists. After a
    kill, SQLite may first roll back a write cut short: hence the generous timeout."""
    games = list((home / "games").glob("*.sqlite")) if (home / "games").is_dir() else []
    if not games:
        return 0
    with sqlite3.connect(games[0], timeout=timeout) as db:
        return int(db.execute("SELECT count(*) FROM frames").fetchone()[0])


def wait_until_stored(home: Path, frames: int, proc: subprocess.Popen[bytes], log: Path,
                      timeout: float = 180) -> None:
    """Wait for the event "the seat at `home` has stored `frames` frames"; fail at once if
    its process ends first. The timeout only turns a hang into a failure."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(sqlite3.OperationalError):   # busy: look again
            if _frames(home, timeout=0.1) >= frames:
                return
        if proc.poll() is not None:
            raise AssertionError(f"the seat ended before storing {frames} frames:\n"
                                 f"{log.read_text()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no {frames} frames stored in {timeout:.0f} s:\n"
                                 f"{log.read_text()}")
        time.sleep(0.01)


#: Bram's setup takes 8 frames, and a hand cannot be over 7 frames later (blocking both
#: ends needs most tiles of two numbers on the line): a seat killed once it has stored
#: fewer than this many frames is always killed in the middle of a game.
MID_GAME = 16


@pytest.mark.parametrize("victim", ["host", "join"])
def test_a_peer_killed_with_sigkill_resumes_and_the_game_still_verifies(
        tmp_path: Path, victim: str) -> None:
    rng = random.Random(os.getpid())
    port = free_port()
    host = start(["host", "--listen", f"127.0.0.1:{port}", "--bot", "greedy", "--home",
                  str(tmp_path / "h1"), "--timeout", "60"], tmp_path / "host.log")
    url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log", timeout=60)
    join = start(["join", url, "--bot", "greedy", "--home", str(tmp_path / "h2"),
                  "--timeout", "60"], tmp_path / "join.log")
    procs = {"host": host, "join": join}
    homes = {"host": tmp_path / "h1", "join": tmp_path / "h2"}
    kill_at = rng.randrange(1, MID_GAME)   # a random moment: once this many frames are stored
    wait_until_stored(homes[victim], kill_at, procs[victim], tmp_path / f"{victim}.log")
    os.kill(procs[victim].pid, signal.SIGKILL)
    procs[victim].wait()
    before = _frames(homes[victim])
    game = next((homes[victim] / "games").glob("*.sqlite"))
    resumed = start(["resume", str(game), "--home", str(homes[victim]), "--timeout", "60"],
                    tmp_path / "resume.log")
    other = "join" if victim == "host" else "host"
    assert finish(resumed) == 0, (tmp_path / "resume.log").read_text()
    assert finish(procs[other]) == 0
    assert_same_valid_game(tmp_path)
    assert kill_at <= before < replay((tmp_path / "1.t").read_bytes()).frames  # mid-game
