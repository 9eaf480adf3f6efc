"""A joiner keeps only what `resume` needs of its invitation (spec/12-peers.md 12.4;
issue 29: the joiner stored its whole invitation URL, secret included, in its game
database).

Real processes: a direct game, the joiner SIGKILLed mid-game. Nothing under the
joiner's home holds the table's secret, neither its base64url text nor its 16 bytes;
the database's `url` is where to dial. `dealerless resume` then finishes the game.
"""

from __future__ import annotations

import os
import signal
import sqlite3
from pathlib import Path

from test_processes import (
    assert_same_valid_game,
    finish,
    free_port,
    start,
    wait_for,
    wait_until_stored,
)

from peers.net.invitation import dial_url, parse_invitation

#: Bram's setup is 8 frames and no hand ends within 7 frames after it.
MID_GAME = 11


def holding(home: Path, needles: list[bytes]) -> list[str]:
    """The files under `home` whose bytes contain any of `needles`."""
    return [str(path) for path in sorted(home.rglob("*")) if path.is_file()
            and any(needle in path.read_bytes() for needle in needles)]


def test_the_joiners_files_hold_no_secret_and_resume_still_works(tmp_path: Path) -> None:
    host = start(["host", "--listen", f"127.0.0.1:{free_port()}", "--bot", "greedy",
                  "--home", str(tmp_path / "h1"), "--timeout", "60"], tmp_path / "host.log")
    url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log", timeout=60)
    secret_text = url.rpartition(".")[2]
    secrets = [secret_text.encode(), parse_invitation(url).secret]
    join = start(["join", url, "--bot", "greedy", "--home", str(tmp_path / "h2"),
                  "--timeout", "60"], tmp_path / "join.log")
    resumed = None
    try:
        wait_until_stored(tmp_path / "h2", MID_GAME, join, tmp_path / "join.log")
        os.kill(join.pid, signal.SIGKILL)
        join.wait()
        assert holding(tmp_path / "h2", secrets) == []
        game = next((tmp_path / "h2" / "games").glob("*.sqlite"))
        with sqlite3.connect(game) as db:
            stored = db.execute("SELECT value FROM meta WHERE key = 'url'").fetchone()[0]
        assert stored.decode() == dial_url(url) and "#" not in stored.decode()
        resumed = start(["resume", str(game), "--home", str(tmp_path / "h2"), "--timeout",
                         "60"], tmp_path / "resume.log")
        assert finish(resumed) == 0, (tmp_path / "resume.log").read_text()
        assert finish(host) == 0
    finally:
        for proc in (host, join, resumed):
            if proc is not None and proc.poll() is None:
                proc.kill()
    assert_same_valid_game(tmp_path)
    assert holding(tmp_path / "h2", secrets) == []
