"""The browser seat's one-file build, opened from disk, plays a whole game (issue 33).

`dealerless seat OUT.html` writes the seat as one self-contained HTML file (its modules
loaded through blob URLs, peers/web/seat_files.py) and prints the file's SHA-256 and the
code hash the page shows. Chromium opens the file at its file:// address, with no server;
the invitation the host printed is pasted into the join form, and the seat plays a Bram
game to the end against a Python host through a relay on loopback.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path
from typing import Any

from tests.seat_table import BrowserSeat, Table, verify
from tests.webpage import CLI, browser  # noqa: F401  (the module's Chromium)


class Watched:
    """A browser whose pages note every address they fetch or dial."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium
        self.urls: list[str] = []

    def new_page(self, **options: Any) -> Any:
        page = self.chromium.new_page(**options)
        page.on("request", lambda request: self.urls.append(request.url))
        page.on("websocket", lambda socket: self.urls.append(socket.url))
        return page


def shown_code_hash(page: Any) -> str:
    """The full code hash the page's header carries (#code-hash data-hash)."""
    page.wait_for_selector("#code-hash[data-hash]", state="attached")
    return str(page.get_attribute("#code-hash", "data-hash"))


def test_the_one_file_seat_plays_from_disk(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "seat.html"
    made = subprocess.run([*CLI, "seat", str(out)], capture_output=True, text=True,
                          timeout=60)
    assert made.returncode == 0, made.stderr
    sha = re.search(r"^sha256\s+([0-9a-f]{64})$", made.stdout, re.M)
    printed = re.search(r"^code hash\s+([0-9a-f]{64})\b", made.stdout, re.M)
    assert sha and printed, made.stdout
    assert hashlib.sha256(out.read_bytes()).hexdigest() == sha.group(1)

    table = Table(tmp_path, "bram")
    try:
        watched = Watched(browser)
        seat = BrowserSeat(watched, out.as_uri())
        code_hash = shown_code_hash(seat.page)
        assert code_hash == printed.group(1)
        assert seat.page.inner_text("#code-hash").strip() == f"code {code_hash[:16]}"
        served = browser.new_page()
        served.goto(f"{table.origin}/seat/")
        assert shown_code_hash(served) == code_hash
        served.close()

        command = re.search(r"invitation: (dealerless join \S+)", table.host_log.read_text())
        assert command, table.host_log.read_text()
        seat.page.fill("#join-form input[name=invitation]", command.group(1))
        seat.join()
        seat.play(timeout=120)
        assert seat.errors == [], seat.errors
        data = seat.transcript()
        code, text, verdict = verify(tmp_path, data)
        assert code == 0 and verdict["valid"] and verdict["complete"], text
        assert seat.verdict().strip() == text.strip()
        assert table.host_transcript(verdict["game_id"]) == data
        # Nothing came from a server: the file, its modules' blob URLs, the relay's room.
        others = [url for url in watched.urls if not (
            url == out.as_uri() or url.startswith(("blob:", "data:"))
            or url.startswith(f"ws://127.0.0.1:{table.port}/room/"))]
        assert others == [], others
        assert any(url.startswith("ws://") for url in watched.urls), watched.urls
    finally:
        table.stop()


def test_the_one_file_build_cannot_be_written() -> None:
    made = subprocess.run([*CLI, "seat", "/nonexistent/dir/x.html"], capture_output=True,
                          text=True, timeout=60)
    assert made.returncode != 0
    assert made.stdout == ""
    assert made.stderr.splitlines() == [
        "dealerless: seat: cannot write /nonexistent/dir/x.html: No such file or directory"]
    assert not Path("/nonexistent/dir/x.html").exists()
