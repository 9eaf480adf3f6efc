"""Whole games with one seat in the browser alone and the others Python peers, through a
relay on loopback (issue 33): the transcripts are byte-identical on every seat, and
`dealerless verify` gives the verdict the page shows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.seat_table import BrowserSeat, Table, verify
from tests.webpage import browser  # noqa: F401  (the module's Chromium)

# The default suite plays the two shortest; the drawing games' long rounds are -m slow.
RECORDS = """new Promise((done) => {
  const opened = indexedDB.open("dealerless-joining", 1);
  opened.onupgradeneeded = () => opened.result.createObjectStore("records");
  opened.onsuccess = () => {
    const count = opened.result.transaction("records").objectStore("records").count();
    count.onsuccess = () => done(count.result);
  };
})"""


@pytest.mark.parametrize("rules", [
    "bram", pytest.param("mexican-train", marks=pytest.mark.slow),
    pytest.param("mineshaft", marks=pytest.mark.slow), "mined-games"])
def test_a_browser_seat_plays_a_whole_game(browser: Any, tmp_path: Path,  # noqa: F811
                                           rules: str) -> None:
    table = Table(tmp_path, rules)
    try:
        seat = BrowserSeat(browser, table.link)
        seat.join()
        seat.play()
        assert seat.errors == []
        seat.fits_a_phone()
        data = seat.transcript()
        code, text, verdict = verify(tmp_path, data)
        assert code == 0 and verdict["valid"] and verdict["complete"], text
        assert seat.verdict().strip() == text.strip()
        game_id = verdict["game_id"]
        # Every Python seat's stored transcript is the browser seat's, byte for byte.
        assert table.python_transcripts(game_id) == [data] * (table.seats - 1)
        assert re.search(r"code [0-9a-f]{16}", seat.page.inner_text("header"))
        # The handshake's record (12.3) is gone once the game's store held its nonce.
        assert seat.page.evaluate(RECORDS) == 0
    finally:
        table.stop()


@pytest.mark.slow
def test_a_browser_seat_plays_edwards25519(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    table = Table(tmp_path, "bram", suite="edwards25519-sha512")
    try:
        seat = BrowserSeat(browser, table.link)
        seat.join()
        seat.play()
        data = seat.transcript()
        code, text, verdict = verify(tmp_path, data)
        assert code == 0 and verdict["complete"] and "edwards25519-sha512" in text
        assert table.python_transcripts(verdict["game_id"]) == [data]
    finally:
        table.stop()


def test_a_table_the_seat_cannot_play_or_a_broken_invitation_is_said_so(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """The page leaves a BLS12-381 table before it sits down, and refuses an invitation
    cut short, each with a sentence (12.9, 12.3 "The invitation")."""
    table = Table(tmp_path, "bram", suite="bls12381g1-sha256")
    try:
        seat = BrowserSeat(browser, table.link)
        seat.join()
        seat.page.wait_for_selector("#result .bad")
        said = seat.page.inner_text("#result")
        assert "the host plays bls12381g1-sha256, which this seat cannot play" in said, said
        assert "no game was started" in said
        seat.page.click("#back")
        seat.page.fill("#join-form input[name=invitation]", table.invitations[0][:-5])
        seat.page.click("#join-form button[type=submit]")
        seat.page.wait_for_selector("#toast:not([hidden])")
        said = seat.page.inner_text("#toast")
        assert "SECRET" in said, said
        assert seat.errors == []
    finally:
        table.stop()
