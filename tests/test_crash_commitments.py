"""A seat killed with SIGKILL between a commitment and its opening keeps its seat
(spec/rules/mined-games.md D17, spec/12-peers.md 12.3 and 12.4), with real processes.

Each test waits on events (what a seat has stored, what a process printed), never on
time. To hold a seat between two frames, the test stops (SIGSTOP) another seat whose
frame must come in between, at a moment when that seat can send nothing more, so the
window stays open however loaded the machine is.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from test_processes import finish, free_port, invitations, start, wait_for

from peers.store.games import GameStore
from protocol.canonical import unpack
from protocol.frames import MessageType, parse_frame
from protocol.suite import table_suite
from protocol.verifier import replay

S = table_suite()  # the suite of the tables these tests play
COMMIT, OPEN = MessageType.COMMIT, MessageType.OPEN


def stored(home: Path) -> tuple[list[tuple[MessageType, int]], dict[int, bytes]]:
    """(type, seat) of each frame the seat at `home` has stored, and its kept openings;
    nothing while its database is busy or does not exist yet."""
    games = list((home / "games").glob("*.sqlite")) if (home / "games").is_dir() else []
    if not games:
        return [], {}
    with contextlib.suppress(sqlite3.OperationalError), \
            contextlib.closing(sqlite3.connect(games[0], timeout=0.1)) as db:
        wires = [w for (w,) in db.execute("SELECT wire FROM frames ORDER BY seq")]
        kept = dict(db.execute("SELECT stage, value FROM openings").fetchall())
        return [(f.type, f.seat) for f in (parse_frame(w, S) for w in wires)], kept
    return [], {}


def holds(home: Path, mtype: MessageType, seat: int, n: int) -> bool:
    """Whether the seat at `home` has stored at least `n` frames of `mtype` from `seat`."""
    return sum(1 for t, s in stored(home)[0] if t is mtype and s == seat) >= n


def wait_until(event: Callable[[], bool], what: str, procs: list[subprocess.Popen[bytes]],
               timeout: float = 120) -> None:
    """Wait for `event`; fail at once if one of `procs` ends first. The timeout only turns
    a hang into a failure."""
    deadline = time.monotonic() + timeout
    while not event():
        ended = [p.args for p in procs if p.poll() is not None]
        assert not ended, f"{ended} ended before {what}"
        assert time.monotonic() < deadline, f"no {what} in {timeout:.0f} s"
        time.sleep(0.01)


def transcripts(homes: list[Path]) -> list[bytes]:
    """Each seat's transcript, as `dealerless export` writes it."""
    files = []
    for home in homes:
        store = GameStore.open(next((home / "games").glob("*.sqlite")))
        files.append(store.transcript().encode())
        store.close()
    return files


def verdict_of(data: bytes) -> dict[str, Any]:
    verdict = replay(data)
    assert verdict.exit_code == 0, verdict.violation
    out: dict[str, Any] = verdict.to_json()
    return out


def test_a_mined_games_seat_killed_between_commit_and_open_resumes_and_opens(
        tmp_path: Path) -> None:
    port = free_port()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}"], tmp_path / "relay.log")
    homes = [tmp_path / f"h{i}" for i in range(3)]
    procs: list[subprocess.Popen[bytes]] = []
    try:
        wait_for(r"(relay listening)", tmp_path / "relay.log")
        procs.append(start(["host", "--relay", f"ws://127.0.0.1:{port}", "--rules",
                            "mined-games", "--seats", "3", "--bot", "greedy", "--home",
                            str(homes[0]), "--timeout", "60"], tmp_path / "p0.log"))
        urls = invitations(tmp_path / "p0.log", 3)
        for i in (1, 2):
            procs.append(start(["join", urls[i - 1], "--bot", "greedy", "--home", str(homes[i]),
                                "--timeout", "60"], tmp_path / f"p{i}.log"))
        seat = {int(wait_for(r"you are seat (\d)", tmp_path / f"p{i}.log")): i
                for i in range(3)}
        # Each stage goes C0 C1 C2, then O0 O1 O2; the victim is seat 2. Stopped once it
        # holds C0, it cannot commit, so seat 1, once C1 is out, can do nothing more and is
        # stopped in turn; the victim, let go, commits, and cannot open without O1.
        victim, middle = seat[2], seat[1]
        home, first = homes[victim], homes[seat[0]]
        for t in (1, 2, 3):   # stages 0 to 2: every seat is alive when they begin
            wait_until(partial(holds, home, COMMIT, 0, t), f"seat 0's COMMIT {t}", procs)
            os.kill(procs[victim].pid, signal.SIGSTOP)
            if not holds(home, COMMIT, 2, t):
                wait_until(partial(holds, first, COMMIT, 1, t), f"seat 1's COMMIT {t}", procs)
                os.kill(procs[middle].pid, signal.SIGSTOP)
                os.kill(procs[victim].pid, signal.SIGCONT)
                wait_until(partial(holds, home, COMMIT, 2, t), f"the victim's COMMIT {t}",
                           procs)
            elif holds(home, OPEN, 2, t):   # the whole stage went by before the stop
                os.kill(procs[victim].pid, signal.SIGCONT)
                continue
            procs[victim].send_signal(signal.SIGKILL)
            procs[victim].wait()
            os.kill(procs[middle].pid, signal.SIGCONT)
            break
        # Killed between its COMMIT and its OPEN: the COMMIT is stored with its opening.
        assert holds(home, COMMIT, 2, t) and not holds(home, OPEN, 2, t)
        assert list(stored(home)[1]) == [t - 1]
        game = next((home / "games").glob("*.sqlite"))
        procs[victim] = start(["resume", str(game), "--home", str(home), "--timeout", "60"],
                              tmp_path / "resume.log")
        assert [finish(p, 180) for p in procs] == [0] * 3, (
            tmp_path / "resume.log").read_text()
    finally:
        for proc in (*procs, relay):
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGCONT)
                proc.kill()
                proc.wait(10)
    files = transcripts(homes)
    assert len(set(files)) == 1
    verdict = verdict_of(files[0])
    assert verdict["valid"] and verdict["complete"]
    outcome = verdict["outcome"]
    assert isinstance(outcome, dict) and outcome["forfeits"] == [], outcome


def opened_record(home: Path) -> bool:
    """Whether the joiner at `home` has written down that it opens its nonce (12.3)."""
    records = list((home / "joining").glob("[!.]*")) if (home / "joining").is_dir() else []
    with contextlib.suppress(OSError, ValueError):
        return any(unpack(r.read_bytes(), 1 << 20)[4] is not None for r in records)
    return False


def test_a_joiner_killed_between_its_handshake_commit_and_the_reveal_keeps_its_seat(
        tmp_path: Path) -> None:
    homes = {name: tmp_path / name for name in ("host", "first", "second")}
    logs = {name: tmp_path / f"{name}.log" for name in homes}

    def run(name: str, *args: str) -> subprocess.Popen[bytes]:
        return start([*args, "--bot", "greedy", "--home", str(homes[name]), "--timeout", "60"],
                     logs[name])

    procs = {"host": run("host", "host", "--listen", "127.0.0.1:0", "--rules", "mined-games",
                         "--seats", "3")}
    try:
        first, second = invitations(logs["host"], 3)
        procs["first"] = run("first", "join", first)
        wait_for(r"(1 of the 2 players have joined)", logs["host"])
        # Stopped, the first joiner cannot open its nonce: the host cannot reveal, and the
        # second joiner, seated once its hello arrives, waits between open and reveal.
        os.kill(procs["first"].pid, signal.SIGSTOP)
        procs["second"] = run("second", "join", second)
        wait_until(partial(opened_record, homes["second"]), "the second joiner's open",
                   list(procs.values()))
        procs["second"].send_signal(signal.SIGKILL)
        procs["second"].wait()
        assert not list((homes["second"] / "games").glob("*.sqlite"))   # before the reveal
        os.kill(procs["first"].pid, signal.SIGCONT)
        logs["second"] = tmp_path / "second-again.log"
        procs["second"] = run("second", "join", second)
        assert [finish(p, 180) for p in procs.values()] == [0] * 3, logs["second"].read_text()
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGCONT)
                proc.kill()
                proc.wait(10)
    seats = {name: int(wait_for(r"you are seat (\d)", logs[name])) for name in homes}
    assert seats == {"host": 0, "first": 1, "second": 2}
    assert not list((homes["second"] / "joining").iterdir())   # removed once stored
    files = transcripts(list(homes.values()))
    assert len(set(files)) == 1
    verdict = verdict_of(files[0])
    assert verdict["valid"] and verdict["complete"]


def host_record(home: Path) -> list[Any] | None:
    """The host's handshake record at `home` once it holds a roster (12.3), else None."""
    records = list((home / "hosting").glob("[!.]*")) if (home / "hosting").is_dir() else []
    with contextlib.suppress(OSError, ValueError):
        for record in records:
            kept = unpack(record.read_bytes(), 1 << 20)
            if kept[7] is not None:   # ["hosting", 3, table, key, nonce, pake, round, roster, ...]
                return list(kept)
    return None


def test_a_host_killed_between_its_handshake_commit_and_the_reveal_keeps_its_table(
        tmp_path: Path) -> None:
    homes = {name: tmp_path / name for name in ("host", "first", "second")}
    logs = {name: tmp_path / f"{name}.log" for name in homes}

    def run(name: str, *args: str) -> subprocess.Popen[bytes]:
        return start([*args, "--bot", "greedy", "--home", str(homes[name]), "--timeout", "60"],
                     logs[name])

    hosting = ("host", "--listen", "127.0.0.1:0", "--rules", "mined-games", "--seats", "3")
    procs = {"host": run("host", *hosting)}
    try:
        urls = invitations(logs["host"], 3)
        procs["first"] = run("first", "join", urls[0])
        wait_for(r"(1 of the 2 players have joined)", logs["host"])
        # Stopped, the first joiner cannot open its nonce, so the host, once the second
        # joiner fills the table, holds a roster and cannot reveal.
        os.kill(procs["first"].pid, signal.SIGSTOP)
        procs["second"] = run("second", "join", urls[1])
        wait_until(partial(opened_record, homes["second"]), "the second joiner's open",
                   list(procs.values()))
        kept = host_record(homes["host"])
        assert kept is not None   # written before the roster left
        procs["host"].send_signal(signal.SIGKILL)
        procs["host"].wait()
        assert not list((homes["host"] / "games").glob("*.sqlite"))   # before the reveal
        logs["host"] = tmp_path / "host-again.log"
        procs["host"] = run("host", *hosting)
        assert invitations(logs["host"], 3) == urls
        os.kill(procs["first"].pid, signal.SIGCONT)
        assert [finish(p, 180) for p in procs.values()] == [0] * 3, logs["host"].read_text()
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGCONT)
                proc.kill()
                proc.wait(10)
    assert "taking up the table this home was hosting" in logs["host"].read_text()
    seats = {name: int(wait_for(r"you are seat (\d)", logs[name])) for name in homes}
    assert seats == {"host": 0, "first": 1, "second": 2}
    assert not list((homes["host"] / "hosting").iterdir())   # removed once stored
    files = transcripts(list(homes.values()))
    assert len(set(files)) == 1
    store = GameStore.open(next((homes["host"] / "games").glob("*.sqlite")))
    # The same round and nonce as before the kill: the joiners' opened nonces still count.
    assert (store.setup.nonces[0], list(store.setup.identities[1:])) == \
        (kept[4], list(unpack(kept[7], 1 << 20)[1][1:]))
    store.close()
    assert verdict_of(files[0])["complete"]
