"""A joiner keeps only what `resume` needs of its invitation (spec/12-peers.md 12.4;
issue 29: the joiner stored its whole invitation URL, secret included, in its game
database).

Real processes: a direct game, the joiner SIGKILLed mid-game. Nothing under the
joiner's home holds the table's secret, neither its base64url text nor its 16 bytes;
the database's `url` is where to dial. `dealerless resume` then finishes the game. A
database an older dealerless wrote, with the whole invitation, still resumes, and the
resume cuts the invitation to its dial URL (keeping the relay room's key seed first),
leaving no copy of the secret in the file.
"""

from __future__ import annotations

import asyncio
import base64
import os
import signal
import sqlite3
from pathlib import Path

import pytest
from test_processes import (
    assert_same_valid_game,
    finish,
    free_port,
    start,
    wait_for,
    wait_until_stored,
)

from peers.net.config import JOIN
from peers.net.invitation import dial_url, parse_invitation
from peers.net.launch import relay_room_seed, reopen
from peers.store.games import GameStore
from protocol.identity import Identity
from protocol.setup import GameSetup

#: Bram's setup is 8 frames and no hand ends within 7 frames after it.
MID_GAME = 11


def holding(home: Path, needles: list[bytes]) -> list[str]:
    """The files under `home` whose bytes contain any of `needles`."""
    return [str(path) for path in sorted(home.rglob("*")) if path.is_file()
            and any(needle in path.read_bytes() for needle in needles)]


def _as_an_older_dealerless_wrote_it(game: Path, url: str) -> None:
    with sqlite3.connect(game) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'url'", (url.encode(),))
        db.execute("DELETE FROM meta WHERE key = 'room_seed'")


@pytest.mark.parametrize("written", ["now", "by an older dealerless"])
def test_the_joiners_files_hold_no_secret_and_resume_still_works(
        tmp_path: Path, written: str) -> None:
    host = start(["host", "--listen", f"127.0.0.1:{free_port()}", "--bot", "greedy",
                  "--home", str(tmp_path / "h1"), "--timeout", "60"], tmp_path / "host.log")
    url = wait_for(r"dealerless join (\S+)", tmp_path / "host.log", timeout=60)
    inv = parse_invitation(url)
    secrets = [*(text.encode() for text in url.partition("#")[2].split(".")[2:]),
               inv.room, inv.secret]   # the room secret and the seat's, as text and bytes
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
        if written != "now":
            _as_an_older_dealerless_wrote_it(game, url)
            assert holding(tmp_path / "h2", secrets) != []
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


def test_a_resume_keeps_the_room_seed_of_an_older_store_before_cutting_its_url(
        tmp_path: Path) -> None:
    """An older joiner's store of a relay game has its whole invitation (of peer protocol
    3: `URL#PIN.SECRET`, one SECRET that was also the room's) and no room_seed: the
    resume stores the seed the invitation gives, then the dial URL alone."""
    keys = [Identity(os.urandom(32)).public_key for _ in range(2)]
    setup = GameSetup.create("bram", {"komi_halves": 1}, keys, [os.urandom(32)] * 2)
    base = f"ws://127.0.0.1:9/room/{os.urandom(16).hex()}"
    secret = os.urandom(16)
    secret_text = base64.urlsafe_b64encode(secret).rstrip(b"=")
    url = f"{base}#{base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip('=')}." \
        f"{secret_text.decode()}"
    store = GameStore.create(tmp_path, setup, 1, os.urandom(32), {"role": JOIN, "url": url})
    store.close()
    store = GameStore.open(store.path)

    async def resume() -> None:
        link = await reopen(store, lambda text: None)
        await link.close()
    asyncio.run(resume())
    assert store.meta("url") == base
    assert store.meta("room_seed") == relay_room_seed(url, secret).hex()
    store.close()
    assert holding(tmp_path, [secret_text, secret]) == []
