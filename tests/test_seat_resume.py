"""A browser seat killed mid-game resumes and finishes (issue 33).

The seat's page runs in Chromium with a persistent profile, so its key and its games
(IndexedDB) outlive the browser. It joins a Python-hosted table through a relay on
loopback, plays a few moves by clicking, and then either the whole browser is closed (the
profile closed, the browser process gone) or only the page is; a fresh page on the same
profile opens the relay's /seat/ with no invitation, and the game is resumed with its
Resume button under "Saved games", as a person would, and played to the end. The
transcript the page downloads is the host's export byte for byte, `dealerless verify`
says valid and complete, and the page's verdict is verify's text. The one-file build
opened from disk resumes the same way from its file:// page's IndexedDB.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.seat_table import BrowserSeat, Table, verify
from tests.webpage import CHROMIUM, CLI, LAPTOP

#: The host waits this long for a seat that went away (seconds).
HOST_TIMEOUT = 120


@pytest.fixture(scope="module")
def pw() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        yield p


class Profile:
    """A Chromium profile on disk: each `open` is a new browser process on it."""

    def __init__(self, playwright: Any, path: Path) -> None:
        self.playwright, self.path = playwright, path
        self.context: Any = None

    def open(self) -> Profile:
        self.context = self.playwright.chromium.launch_persistent_context(
            str(self.path), executable_path=CHROMIUM, args=["--no-sandbox"], headless=True,
            viewport=LAPTOP, accept_downloads=True)
        return self

    def new_page(self, viewport: dict[str, int] | None = None) -> Any:
        """What BrowserSeat asks of a browser (the profile's context sets the viewport)."""
        page = self.context.new_page()
        for blank in self.context.pages[:-1]:     # the window a persistent launch opens
            if blank.url == "about:blank":
                blank.close()
        return page

    def close(self) -> None:
        if self.context is not None:
            self.context.close()
            self.context = None


def play_moves(seat: BrowserSeat, moves: int, timeout: float = 60) -> None:
    """Click `moves` moves of this seat; returns right after the last click."""
    deadline = time.monotonic() + timeout
    made = 0
    while made < moves:
        assert time.monotonic() < deadline, f"made {made} of {moves} moves; {seat.errors}"
        assert not seat.over(), f"the game ended after {made} moves of this seat"
        if seat.act():
            made += 1
        else:
            seat.page.wait_for_timeout(20)


def own_frames(seat: BrowserSeat) -> int:
    """The frames of this seat (seat 1, the first invitation's) in the page's log: each
    appears once stored and sent (net/peer.js send)."""
    return int(seat.page.locator("#log li.step", has_text=" seat 1: ").count())


def wait_asked(seat: BrowserSeat, timeout: float = 60) -> None:
    """Until the page asks this seat for a move (it owes the table a frame)."""
    seat.page.wait_for_selector("#hand-tiles .tile-button.legal, .moves button.move",
                                timeout=timeout * 1000)


def resume(profile: Profile, url: str) -> tuple[BrowserSeat, str]:
    """Open the seat at `url` with no invitation and click the saved game's Resume
    button; the game's id as the list shows it."""
    seat = BrowserSeat(profile, url)
    seat.page.wait_for_selector("#game-list button.resume")
    rows = seat.page.locator("#game-list li")
    assert rows.count() == 1, rows.all_inner_texts()
    listed = rows.first.inner_text()
    assert "in progress" in listed, listed
    shown = seat.page.locator("#game-list li .mono").first.inner_text().strip()
    seat.page.click("#game-list button.resume")
    seat.page.wait_for_selector("#table:not([hidden])")
    return seat, shown


def finish(seat: BrowserSeat, table: Table, tmp: Path, shown: str) -> None:
    seat.play(timeout=120)
    assert seat.errors == [], seat.errors
    data = seat.transcript()
    code, text, verdict = verify(tmp, data)
    assert code == 0 and verdict["valid"] and verdict["complete"], text
    assert verdict["game_id"].startswith(shown)
    assert seat.verdict().strip() == text.strip()
    assert table.host_transcript(verdict["game_id"]) == data
    assert re.search(r"code [0-9a-f]{16}", seat.page.inner_text("header"))


@pytest.mark.parametrize("rules, moment", [
    ("bram", "sent"), pytest.param("mexican-train", "clicked", marks=pytest.mark.slow)])
def test_browser_closed_mid_game_resumes(pw: Any, tmp_path: Path, rules: str,
                                         moment: str) -> None:
    """The whole browser goes after the seat's second move: once its frame is in the
    page's log (stored and sent: "sent"), or at once after the click, the frame being
    made, stored or sent ("clicked"); a new browser on the profile resumes the game."""
    table = Table(tmp_path, rules, timeout=HOST_TIMEOUT)
    profile = Profile(pw, tmp_path / "profile")
    try:
        seat = BrowserSeat(profile.open(), table.link)
        seat.join()
        play_moves(seat, 1)
        wait_asked(seat)
        sent = own_frames(seat)
        play_moves(seat, 1)
        if moment == "sent":
            deadline = time.monotonic() + 30
            while own_frames(seat) <= sent:   # the CSP forbids wait_for_function's eval
                assert time.monotonic() < deadline, "the seat's move never left"
                seat.page.wait_for_timeout(5)
        assert seat.errors == [], seat.errors
        profile.close()                      # the browser process ends mid-game
        seat, shown = resume(profile.open(), f"{table.origin}/seat/")
        finish(seat, table, tmp_path, shown)
    finally:
        profile.close()
        table.stop()


def test_page_closed_mid_game_resumes(pw: Any, tmp_path: Path) -> None:
    """Only the page goes, while it owes the table its move; the browser stays, and a new
    page on /seat/ resumes the game."""
    table = Table(tmp_path, "bram", timeout=HOST_TIMEOUT)
    profile = Profile(pw, tmp_path / "profile")
    try:
        seat = BrowserSeat(profile.open(), table.link)
        seat.join()
        play_moves(seat, 1)
        wait_asked(seat)                     # asked for its second move: it owes a frame
        assert seat.errors == [], seat.errors
        seat.page.close()
        seat, shown = resume(profile, f"{table.origin}/seat/")
        finish(seat, table, tmp_path, shown)
    finally:
        profile.close()
        table.stop()


@pytest.mark.slow   # the one-file build's own test plays from disk; this adds the resume
def test_one_file_seat_closed_mid_game_resumes(pw: Any, tmp_path: Path) -> None:
    """The one-file build (`dealerless seat FILE`) opened from disk keeps its game in the
    file:// page's IndexedDB too: the browser closed after two moves, the file opened
    again in a new one resumes the game."""
    out = tmp_path / "seat.html"
    subprocess.run([*CLI, "seat", str(out)], check=True, capture_output=True, timeout=60)
    table = Table(tmp_path, "bram", timeout=HOST_TIMEOUT)
    profile = Profile(pw, tmp_path / "profile")
    try:
        seat = BrowserSeat(profile.open(), out.as_uri())
        seat.page.fill("#join-form input[name=invitation]", table.invitations[0])
        seat.join()
        play_moves(seat, 2)
        profile.close()
        profile.open()
        seat, shown = resume(profile, out.as_uri())
        finish(seat, table, tmp_path, shown)
    finally:
        profile.close()
        table.stop()
