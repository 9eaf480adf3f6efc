"""The terminal table in a real terminal, as a person sees it (spec/12-peers.md 12.6).

Each test starts `dealerless` inside a detached 80x24 tmux session on a private
socket, types with `send-keys`, and reads the screen with `capture-pane -p`:
the invitation whole, the short authentication string and the opponent's key
once the opponent joins, the result box at the end, and a failed handshake as a
message with a non-zero exit, never a traceback. Skipped without tmux.
"""

from __future__ import annotations

import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from protocol.relay_entry import room_key, room_seed
from protocol.relay_work import solve

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
CLI = [sys.executable, "-m", "peers.cli"]
ROOT = Path(__file__).resolve().parent.parent
BORDERS = set("│┃║─━═┌┐└┘╭╮╰╯╔╗╚╝▏▕")


class Terminal:
    """One 80x24 tmux session running one shell command; gone after the test."""

    def __init__(self, tmp: Path) -> None:
        self.socket = str(tmp / "tmux.sock")

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run([TMUX, "-S", self.socket, "-f", "/dev/null", *args],
                              capture_output=True, text=True, timeout=10, check=True)
        return done.stdout

    def start(self, argv: list[str]) -> None:
        # The variable is removed in the command itself: a tmux server keeps the
        # environment it started with, and an encrypted key must not be in play.
        command = (f"cd {shlex.quote(str(ROOT))} && env -u DEALERLESS_PASSPHRASE "
                   f"{shlex.join(argv)}; echo EXIT=$?; sleep 60")
        self.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", command)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def wait(self, ready: Callable[[str], bool], timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never got there:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run([TMUX or "tmux", "-S", self.socket, "kill-server"],
                       capture_output=True, timeout=10)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Terminal]:
    terminal = Terminal(tmp_path)
    try:
        yield terminal
    finally:
        terminal.close()


def rows(screen: str) -> list[str]:
    lines = screen.split("\n")
    assert len(lines) >= 24 and all(len(line) <= 80 for line in lines)
    return lines


def play_to_the_end(term: Terminal, timeout: float = 40) -> str:
    """Play the first listed tile each turn, or pass; return the final screen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = term.wait(lambda s: "Your turn" in s or "Press q to leave." in s,
                           deadline - time.monotonic())
        if "Press q to leave." in screen:
            return screen
        assert "Your move" in screen or "No tile fits" in screen
        term.keys("p" if "No tile fits" in screen else "1")
        term.wait(lambda s, before=screen: s != before, deadline - time.monotonic())
    raise AssertionError("the game did not end in time")


def assert_result_shown(screen: str) -> None:
    lines = rows(screen)
    top = next(i for i, line in enumerate(lines) if line.startswith("═Result"))
    box = "\n".join(lines[top:])
    assert re.search(r"(You win|Your opponent wins|Draw)", box), screen
    assert "Pips left in hand, komi included: seat 0: " in box
    assert re.search(r"Hidden tile revealed: \d-\d", box)
    assert re.search(r"Transcript verified from nothing: valid and complete, \d+ frames",
                     box)
    assert "Press q to leave." in box
    assert "q Quit" in lines[23]  # the footer is still on the last row, below the box


def test_play_against_a_bot_at_80x24(term: Terminal, tmp_path: Path) -> None:
    out = tmp_path / "game.transcript"
    term.start([*CLI, "play", "--vs", "greedy", "--seed", "1", "--out", str(out)])
    screen = term.wait(lambda s: "Your turn" in s and "q Quit" in s)
    lines = rows(screen)
    assert "Your hand: 13 tiles" in screen and "Line of play" in screen
    assert re.search(r"^ 1  \d-\d on (left|right)  \(ends become \d and \d\)", screen, re.M)
    assert "Pass (p)" in screen and "Verification log" in screen
    assert not any("SAS" in line or "Waiting for an opponent" in line for line in lines)
    assert_result_shown(play_to_the_end(term))
    term.keys("q")
    after = term.wait(lambda s: "EXIT=" in s)
    assert "EXIT=0" in after and "VALID and complete" in after
    assert out.stat().st_size > 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_host_shows_invitation_then_sas_and_key_then_result(term: Terminal,
                                                            tmp_path: Path) -> None:
    term.start([*CLI, "host", "--listen", "127.0.0.1:0", "--home", str(tmp_path / "h1"),
                "--timeout", "30"])
    before = term.wait(lambda s: "Waiting for an opponent..." in s and "q Quit" in s)
    lines = rows(before)
    # At 80 columns the invitation (URL, pin and secret) takes more than one row: each
    # row holds a piece from column 0, with no border, and "c" copies it whole.
    first = next(i for i, line in enumerate(lines) if line.startswith("Invitation:"))
    last = next(i for i, line in enumerate(lines) if line.startswith("Waiting for"))
    text = "".join(line.rstrip() for line in lines[first + 1:last])
    found = re.fullmatch(r"dealerless join(ws://\S+)", text)
    assert found, before
    url = found.group(1)
    assert re.fullmatch(r"ws://127\.0\.0\.1:\d+/dealerless/[0-9a-f]{32}"
                        r"#[\w-]{22}\.1(\.[\w-]{22}){2}", url), url
    assert "c Copy invitation" in lines[23]

    log = tmp_path / "join.log"
    with log.open("wb") as sink:
        joiner = subprocess.Popen([*CLI, "join", url, "--bot", "greedy", "--home",
                                   str(tmp_path / "h2"), "--timeout", "30"],
                                  stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        after = term.wait(lambda s: "Your turn" in s or "to move" in s)
        joined = log.read_text()
        their_sas = re.search(r"short authentication string: (\S+)", joined)
        their_key = re.search(r"made your identity key (SHA256:\S+)", joined)
        assert their_sas and their_key, joined
        sas_line = f"SAS {their_sas.group(1)}  compare it with your opponent out of band"
        key_line = f"Opponent: unknown key {their_key.group(1)}"
        assert [line.rstrip() for line in rows(after)[1:3]] == [sas_line, key_line], after
        assert "dealerless join" not in after

        final = play_to_the_end(term)
        assert_result_shown(final)
        assert sas_line in final and key_line in final  # still there at the end
        term.keys("q")
        done = term.wait(lambda s: "EXIT=" in s)
        assert "EXIT=0" in done, done
        assert joiner.wait(timeout=30) == 0
    finally:
        if joiner.poll() is None:
            joiner.kill()
            joiner.wait()


def test_a_refused_join_exits_with_the_reason_before_any_table(term: Terminal,
                                                               tmp_path: Path) -> None:
    url = f"ws://127.0.0.1:{free_port()}/dealerless/{'0' * 32}"  # nobody listens there
    term.start([*CLI, "join", f"{url}#{'A' * 22}.1.{'A' * 22}.{'A' * 22}", "--home",
                str(tmp_path / "h"), "--timeout", "300"])
    done = term.wait(lambda s: "EXIT=" in s, timeout=15)  # seconds, not the 300 s timeout
    text = done.replace("\n", "")  # the terminal wraps the long lines
    assert "EXIT=1" in text and "connection refused, retrying (1)" in text, done
    assert f"dealerless: cannot connect to {url}: connection refused" in text
    assert "Traceback" not in text


def test_a_failed_handshake_is_a_message_and_a_nonzero_exit(term: Terminal,
                                                            tmp_path: Path) -> None:
    """The host's side of the link is up but no host ever answers: the table says so."""
    relay = subprocess.Popen([*CLI, "relay", "--listen", "127.0.0.1:0"], text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert relay.stdout is not None
        line = ""
        while "relay listening on" not in line:
            line = relay.stdout.readline()
        room = line.split()[3].replace("<rendezvous", "0" * 32)
        with connect(room + "?open") as silent:  # a silent "host" holds the room open
            _, challenge, bits = str(silent.recv(10)).split()   # pays for the room (12.5)
            key = room_key(room_seed(bytes(16), "0" * 32))   # the invitation's below
            silent.send(f"{solve(bytes.fromhex(challenge), '0' * 32, int(bits))} {key.hex()}")
            assert str(silent.recv(10)).startswith("room ")
            term.start([*CLI, "join", f"{room}#{'A' * 22}.1.{'A' * 22}.{'A' * 22}", "--home",
                        str(tmp_path / "h"), "--timeout", "2"])
            screen = term.wait(lambda s: "Press q to leave." in s)
            lines = rows(screen)
            assert any(line.startswith(" The game stopped: ") for line in lines), screen
            assert "no host answered within 2 s" in screen
            assert "Traceback" not in screen and "locals" not in screen.lower()
            term.keys("q")
            done = term.wait(lambda s: "EXIT=" in s)
        code = int(re.search(r"EXIT=(\d+)", done).group(1))  # type: ignore[union-attr]
        assert code != 0 and "Traceback" not in done
        assert re.search(r"^dealerless: ", done, re.M), done
    finally:
        relay.kill()
        relay.wait(10)


def test_quitting_before_anyone_joins_says_nothing_was_saved(term: Terminal,
                                                             tmp_path: Path) -> None:
    home = tmp_path / "h"
    term.start([*CLI, "host", "--listen", "127.0.0.1:0", "--home", str(home)])
    term.wait(lambda s: "Waiting for an opponent..." in s and "q Quit" in s)
    term.keys("q")
    done = term.wait(lambda s: "EXIT=" in s)
    assert "EXIT=3" in done and "nothing was saved" in done, done
    assert "resume" not in done and not list((home / "games").glob("*.sqlite"))
