"""The terminal table draws Bram's game only: a person who takes a seat of any other rule
set with `host`, `join` or `resume` is refused before taking it, told to use `dealerless
web`, and never shown a traceback (issue 16). Nobody is left waiting for that seat."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from peers.entropy import Entropy
from peers.store.games import GameStore
from peers.table.selfplay import Table, rule_params

CLI = [sys.executable, "-m", "peers.cli"]
OTHER_RULES = [("mexican-train", 3), ("mineshaft", 2), ("mined-games", 5)]


def refused(text: str, rules: str) -> bool:
    return (f"play {rules} in the browser with `dealerless web`" in text
            and "Traceback" not in text)


@pytest.mark.parametrize(("rules", "seats"), OTHER_RULES)
def test_hosting_without_a_bot_is_refused_up_front(tmp_path: Path, rules: str,
                                                   seats: int) -> None:
    proc = subprocess.run([*CLI, "host", "--listen", "127.0.0.1:0", "--rules", rules,
                           "--seats", str(seats), "--home", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert refused(proc.stderr, rules), proc.stderr
    assert proc.stdout == ""  # nobody was invited


@pytest.mark.parametrize(("rules", "seats"), OTHER_RULES)
def test_resuming_without_a_bot_is_refused_up_front(tmp_path: Path, rules: str,
                                                    seats: int) -> None:
    table = Table.create(rules, rule_params(rules, seats), ["greedy"] * seats, Entropy(3))
    GameStore.create(tmp_path / "games", table.setup, 1, bytes(32),
                     {"role": "join", "url": "ws://127.0.0.1:9/room/x"}).close()
    proc = subprocess.run([*CLI, "resume", table.setup.game_id.hex()[:8], "--home",
                           str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert refused(proc.stderr, rules), proc.stderr


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize(("rules", "seats"), OTHER_RULES)
def test_joining_without_a_bot_leaves_before_taking_a_seat(tmp_path: Path, rules: str,
                                                           seats: int) -> None:
    from test_tui_tmux import Terminal

    host = subprocess.Popen([*CLI, "host", "--listen", "127.0.0.1:0", "--rules", rules,
                             "--seats", str(seats), "--bot", "greedy", "--timeout", "30",
                             "--home", str(tmp_path / "host")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    term = Terminal(tmp_path)
    try:
        assert host.stdout is not None
        invitation = host.stdout.readline().strip()
        first = "invitation: " if seats == 2 else "invitation for seat 1: "
        assert invitation.startswith(f"{first}dealerless join ws://"), invitation
        url = invitation.split()[-1]
        term.start([*CLI, "join", url, "--home", str(tmp_path / "joiner")])
        screen = term.wait(lambda s: "dealerless web" in s, 30)
        assert "The game stopped" in screen and "Traceback" not in screen
        term.keys("q")
        screen = term.wait(lambda s: "EXIT=" in s, 20)
        assert "EXIT=3" in screen
        # It left before the roster: no game of this seat was stored.
        assert not list((tmp_path / "joiner" / "games").glob("*.sqlite"))
    finally:
        term.close()
        host.kill()
        host.wait(10)
