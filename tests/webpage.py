"""Driving `dealerless web` in a real browser, as a person would (issue 16).

Each `WebPeer` is a `dealerless web --no-open` process with its own data directory; each
`Seat` is a Chromium page on it (Playwright, Debian's chromium launched by path). A seat
plays by clicking what the page offers: a highlighted tile (then where it goes, when it
fits in several places), a plain move (pass, draw), or, in Mined Games, a start tile and
the "commit" button.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CLI = [sys.executable, "-m", "peers.cli"]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LAPTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(pattern: str, path: Path, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(pattern, path.read_text() if path.exists() else "")
        if found:
            return found.group(1)
        time.sleep(0.05)
    raise AssertionError(f"{pattern!r} never appeared in {path}:\n"
                         f"{path.read_text() if path.exists() else ''}")


def start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "DEALERLESS_PASSPHRASE"}
    return subprocess.Popen([*CLI, *args], stdout=log.open("wb"), stderr=subprocess.STDOUT,
                            env=env)


def over(page: Any) -> bool:
    """Whether a table page shows its verdict (or why the game stopped)."""
    return bool(page.locator("#verdict").count() or page.locator("#result .bad").count())


def act(page: Any) -> bool:
    """Make one move if the table page asks for one, as a person would; True if it did."""
    if page.locator("#send-orders").count():
        cells = page.locator("button.cell:not(.k-A):not(.k-L)")
        if cells.count():
            cells.first.click()
        page.click("#send-orders")
        return True
    tiles = page.locator("#hand-tiles .tile-button.legal")
    if tiles.count():
        tiles.first.click()
        targets = page.locator("#targets button.target")
        if targets.count():
            targets.first.click()
        return True
    moves = page.locator(".moves button.move")
    if moves.count():
        moves.first.click()
        return True
    return False


class WebPeer:
    """One `dealerless web` process; `url` is the address it printed (token included)."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.log = home.with_suffix(".log")
        self.proc = start(["web", "--no-open", "--home", str(home)], self.log)
        self.url = wait_for(r"your table is at (\S+)", self.log)
        self.origin = self.url.split("/#")[0]
        self.token = self.url.split("#token=")[1]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Seat:
    """A page on a WebPeer, with what a person does on it."""

    def __init__(self, browser: Any, peer: WebPeer, viewport: dict[str, int] = LAPTOP,
                 url: str | None = None) -> None:
        """A page on `peer`'s lobby, or on `url` (say, a table's address, reopened)."""
        self.peer = peer
        self.page = browser.new_page(viewport=viewport)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" else None)
        self.page.goto(url or peer.url)
        if url is None:
            self.page.wait_for_selector("#play-form select[name=rules] option",
                                        state="attached")

    def form(self, form: str, rules: str, seats: int) -> None:
        self.page.select_option(f"#{form} select[name=rules]", rules)
        self.page.select_option(f"#{form} select[name=seats]", str(seats))

    def choose_suite(self, form: str, suite: str | None) -> None:
        """Open the form's Advanced settings and choose `suite` ("": the host's), as a
        person would; None leaves them closed, at their default (spec 12.8)."""
        if suite is not None:
            if self.page.locator(f"#{form} details.advanced[open]").count() == 0:
                self.page.click(f"#{form} details.advanced summary")
            self.page.select_option(f"#{form} select[name=suite]", suite)

    def play_bots(self, rules: str, seats: int, bot: str = "greedy",
                  suite: str | None = None) -> None:
        self.form("play-form", rules, seats)
        self.choose_suite("play-form", suite)
        self.page.select_option("#play-form select[name=bot]", bot)
        self.page.click("#play-form button[type=submit]")
        self.page.wait_for_selector("#table:not([hidden])")

    def host(self, rules: str, seats: int, relay: str | None = None,
             timeout: int = 120, suite: str | None = None) -> list[str]:
        """Host a table; the invitations its page shows, seat 1's first (spec 12.3)."""
        self.form("host-form", rules, seats)
        self.choose_suite("host-form", suite)
        if relay:
            self.page.fill("#host-form input[name=relay]", relay)
        self.page.fill("#host-form input[name=timeout]", str(timeout))
        self.page.click("#host-form button[type=submit]")
        self.page.wait_for_selector("#invitation", timeout=20_000)
        shown = [box.inner_text().strip() for box in self.page.query_selector_all(".invitation")]
        assert len(shown) == seats - 1, shown
        return shown

    def join(self, invitation: str, timeout: int = 120, suite: str | None = None) -> None:
        self.choose_suite("join-form", suite)
        self.page.fill("#join-form input[name=invitation]", invitation)
        self.page.fill("#join-form input[name=timeout]", str(timeout))
        self.page.click("#join-form button[type=submit]")
        self.page.wait_for_selector("#table:not([hidden])")

    def over(self) -> bool:
        return over(self.page)

    def act(self) -> bool:
        return act(self.page)

    def verdict(self) -> str:
        return str(self.page.locator("#verdict").inner_text())

    def transcript(self) -> bytes:
        with self.page.expect_download() as download:
            self.page.click("#download")
        return Path(download.value.path()).read_bytes()

    def fits(self, *selectors: str) -> None:
        """Nothing overflows sideways, and each of `selectors` lies inside the viewport's
        width (so it is seen without scrolling sideways)."""
        width = self.page.viewport_size["width"]
        scroll = self.page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"the page is {scroll} px wide in a {width} px viewport"
        for selector in selectors:
            for box in (self.page.locator(selector).nth(i).bounding_box()
                        for i in range(self.page.locator(selector).count())):
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, \
                    f"{selector} at {box} leaves a {width} px viewport"

    def unscrolled(self, selector: str) -> None:
        """Every `selector` shows all it holds: nothing hidden in a sideways scroll."""
        hidden = self.page.evaluate(f"""[...document.querySelectorAll({selector!r})]
            .filter((e) => e.scrollWidth > e.clientWidth + 1).length""")
        assert hidden == 0, f"{hidden} of {selector} scroll sideways"

    def close(self) -> None:
        self.page.close()


def play_together(seats: list[Seat], timeout: float = 240) -> None:
    """Every seat clicks whenever its page asks, until every page shows the verdict."""
    deadline = time.monotonic() + timeout
    while not all(s.over() for s in seats):
        assert time.monotonic() < deadline, "the game did not end in time"
        if not any(s.act() for s in seats if not s.over()):
            seats[0].page.wait_for_timeout(50)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            raise AssertionError("chromium is missing: .ci/run installs Debian's package")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()
