"""A `join` that comes back to its table after a relay restart, before its host does
(spec/12-peers.md 12.5 "Outage and restart, seen from a seat"; issue 29).

The relay is killed (SIGKILL) during a three-seat handshake and started again on its
port, with no rooms; the first joiner is killed too and runs the same `join` again while
its host cannot reopen its room yet (stopped with SIGSTOP). The relay answers 404. The
joiner had reached the room before (it kept its handshake record, 12.3), so it says the
relay may have restarted, waits, and takes its seat once the host is back; one whose
host never comes back gives up after its move timeout, saying why. A joiner killed
mid-game and resumed before its host is back waits the same way (that one did before
issue 29 too).
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from test_processes import (
    assert_same_valid_game,
    finish,
    free_port,
    invitations,
    start,
    wait_for,
    wait_until_stored,
)

NO_ROOM = "the relay holds no room for this game now (it may have restarted)"


Proc = subprocess.Popen[bytes]


def _restarted(tmp: Path, timeout: str) -> tuple[Proc, Proc, Proc, str]:
    """Relay, host (3 seats) and first joiner; the relay restarted and the joiner's
    `join` run again (with move timeout `timeout`) while the host is stopped: (relay,
    host, that joiner, the invitation)."""
    port = free_port()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}"], tmp / "relay.log")
    wait_for(r"(relay listening)", tmp / "relay.log")
    host = start(["host", "--relay", f"ws://127.0.0.1:{port}", "--bot", "greedy",
                  "--rules", "mined-games", "--seats", "3", "--home", str(tmp / "h1"),
                  # Its handshake clock runs while it is stopped: room for a loaded machine.
                  "--timeout", "180"], tmp / "host.log")
    urls = invitations(tmp / "host.log", 3)
    url = urls[0]
    first = start(["join", url, "--bot", "greedy", "--home", str(tmp / "h2"),
                   "--timeout", "60"], tmp / "join.log")
    # The host has the joiner in its lobby: the joiner kept its record before it said hello.
    wait_for(r"dealerless: (1) of the 2 players have joined", tmp / "host.log")
    host.send_signal(signal.SIGSTOP)     # it cannot reopen its room until SIGCONT
    relay.kill()
    relay.wait()
    first.kill()
    first.wait()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}"], tmp / "relay2.log")
    wait_for(r"(relay listening)", tmp / "relay2.log")
    again = start(["join", url, "--bot", "greedy", "--home", str(tmp / "h2"),
                   "--timeout", timeout], tmp / "again.log")
    return relay, host, again, urls


@pytest.mark.slow   # about 25 s of real processes; the give-up test below runs by default
def test_a_joiner_back_before_its_host_waits_for_the_room(tmp_path: Path) -> None:
    """The joiner says why it waits, then takes its seat once the host is back."""
    relay, host, again, urls = _restarted(tmp_path, "60")
    third = None
    try:
        wait_for(f"({re.escape(NO_ROOM)})", tmp_path / "again.log")
        time.sleep(2)
        assert again.poll() is None, (tmp_path / "again.log").read_text()
        host.send_signal(signal.SIGCONT)
        third = start(["join", urls[1], "--bot", "greedy", "--home", str(tmp_path / "h3"),
                       "--timeout", "60"], tmp_path / "join3.log")
        assert finish(again) == 0, (tmp_path / "again.log").read_text()
        assert finish(third) == 0 and finish(host) == 0
    finally:
        host.send_signal(signal.SIGCONT)
        for proc in (host, again, third, relay):
            if proc is not None and proc.poll() is None:
                proc.kill()
    text = (tmp_path / "again.log").read_text()
    assert "wrong invitation" not in text, text
    assert_same_valid_game(tmp_path)


def test_a_joiner_whose_host_stays_away_gives_up_after_its_move_timeout(
        tmp_path: Path) -> None:
    """With a move timeout of 4 s, the `join` run again gives up after about that long,
    exit 1, naming the relay's answer and the time it waited."""
    relay, host, again, _ = _restarted(tmp_path, "4")
    try:
        started = time.monotonic()
        code = finish(again, 60)
        waited = time.monotonic() - started
    finally:
        host.kill()
        host.wait()
        relay.kill()
        relay.wait()
    text = (tmp_path / "again.log").read_text()
    print(text)
    assert code == 1, text
    assert "gave up after" in text, text
    assert 4 <= waited < 20, waited
    assert text.count(NO_ROOM) >= 2 and "wrong invitation" not in text, text
    assert "gave up after 4 s (the move timeout)" in text.splitlines()[-1], text


def test_a_joiner_resumed_before_its_host_waits_for_the_room(tmp_path: Path) -> None:
    """Bram's game: the relay and the joiner are killed mid-game and the joiner resumed
    while its host is stopped; it waits for the room, and the game ends valid."""
    port = free_port()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}"], tmp_path / "relay.log")
    wait_for(r"(relay listening)", tmp_path / "relay.log")
    host = start(["host", "--relay", f"ws://127.0.0.1:{port}", "--bot", "greedy", "--home",
                  str(tmp_path / "h1"), "--timeout", "60"], tmp_path / "host.log")
    url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log")
    join = start(["join", url, "--bot", "greedy", "--home", str(tmp_path / "h2"),
                  "--timeout", "60"], tmp_path / "join.log")
    resumed = None
    try:
        wait_until_stored(tmp_path / "h2", 10, join, tmp_path / "join.log")
        host.send_signal(signal.SIGSTOP)
        relay.kill()
        relay.wait()
        join.kill()
        join.wait()
        relay = start(["relay", "--listen", f"127.0.0.1:{port}"], tmp_path / "relay2.log")
        wait_for(r"(relay listening)", tmp_path / "relay2.log")
        game = next((tmp_path / "h2" / "games").glob("*.sqlite"))
        resumed = start(["resume", str(game), "--home", str(tmp_path / "h2"), "--timeout",
                         "60"], tmp_path / "resume.log")
        wait_for(f"({re.escape(NO_ROOM)})", tmp_path / "resume.log")
        host.send_signal(signal.SIGCONT)
        assert finish(resumed) == 0, (tmp_path / "resume.log").read_text()
        assert finish(host) == 0
    finally:
        host.send_signal(signal.SIGCONT)
        for proc in (host, resumed, relay):
            if proc is not None and proc.poll() is None:
                proc.kill()
    assert "wrong invitation" not in (tmp_path / "resume.log").read_text()
    assert_same_valid_game(tmp_path)
