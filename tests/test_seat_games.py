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
