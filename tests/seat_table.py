"""A table of Python seats with one seat in the browser alone (issue 33).

`dealerless relay` on loopback serves the browser seat at /seat/; `dealerless host` (and
`dealerless join` for any seat past the first) play Python bots; Chromium opens the
seat's invitation link, and a `BrowserSeat` plays it by clicking, as a person would. No
dealerless process runs on the browser seat's side.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.webpage import CLI, act, over, start, wait_for

SEATS = {"bram": 2, "mexican-train": 3, "mineshaft": 2, "mined-games": 3}


class Table:
    """A relay, a Python host and the Python joiners of seats 2 and up; `link` is the
    browser seat's invitation link (seat 1)."""

    def __init__(self, tmp: Path, rules: str, seats: int | None = None,
                 suite: str = "ristretto255-sha512", bot: str = "random",
                 host_args: tuple[str, ...] = (), timeout: int = 120) -> None:
        self.tmp, self.rules = tmp, rules
        self.seats = seats or SEATS[rules]
        self.procs: list[subprocess.Popen[bytes]] = []
        self.relay_log = tmp / "relay.log"
        self.procs.append(start(["relay", "--listen", "127.0.0.1:0"], self.relay_log))
        self.port = int(wait_for(r"relay listening on ws://127\.0\.0\.1:(\d+)", self.relay_log))
        self.origin = f"http://127.0.0.1:{self.port}"
        self.host_home = tmp / "host"
        self.host_log = tmp / "host.log"
        self.procs.append(start(["host", "--relay", f"ws://127.0.0.1:{self.port}", "--rules",
                                 rules, "--seats", str(self.seats), "--suite", suite, "--bot",
                                 bot, "--home", str(self.host_home), "--timeout",
                                 str(timeout), *host_args], self.host_log))
        last = (r"invitation: dealerless join (\S+)" if self.seats == 2
                else rf"invitation for seat {self.seats - 1}: dealerless join (\S+)")
        wait_for(last, self.host_log, 60)
        self.invitations = re.findall(r"dealerless join (\S+)", self.host_log.read_text())
        self.homes = [tmp / f"join{i + 2}" for i in range(self.seats - 2)]
        for i, (url, home) in enumerate(zip(self.invitations[1:], self.homes, strict=True)):
            self.procs.append(start(["join", url, "--bot", bot, "--home", str(home),
                                     "--timeout", str(timeout)], tmp / f"join{i + 2}.log"))

    @property
    def link(self) -> str:
        """The link the host printed for the friend who plays seat 1 in the browser (12.9)."""
        links = re.findall(r"in a browser, with nothing to install: (\S+)",
                           self.host_log.read_text())
        assert links[0] == f"{self.origin}/seat/#{self.invitations[0]}", links
        return str(links[0])

    def host_transcript(self, game_id: str) -> bytes:
        return self.exported(game_id, self.host_home)

    def python_transcripts(self, game_id: str) -> list[bytes]:
        """The transcript every Python seat stored once it ended its game: the host's,
        then each joiner's."""
        for seat in self.procs[1:]:   # every seat but the relay exits at its game's end
            seat.wait(60)
        return [self.exported(game_id, home) for home in (self.host_home, *self.homes)]

    def exported(self, game_id: str, home: Path) -> bytes:
        out = self.tmp / f"{home.name}.transcript"
        done = subprocess.run([*CLI, "export", game_id, str(out), "--home", str(home)],
                              capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr.decode()
        return out.read_bytes()

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def verify(tmp: Path, data: bytes) -> tuple[int, str, dict[str, Any]]:
    """`dealerless verify FILE` of `data`: its exit code, its text and its JSON."""
    path = tmp / "browser.transcript"
    path.write_bytes(data)
    said = [subprocess.run([*CLI, "verify", str(path), *flag], capture_output=True,
                           timeout=120) for flag in ((), ("--json",))]
    assert said[0].returncode == said[1].returncode
    return said[0].returncode, said[0].stdout.decode(), json.loads(said[1].stdout)


class BrowserSeat:
    """The seat's page in Chromium, played by clicking what it offers."""

    def __init__(self, browser: Any, url: str) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 800})
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" else None)
        self.page.goto(url)
        self.page.wait_for_selector("#join-form button[type=submit]")

    def join(self) -> None:
        """The one click a friend makes: the link filled the invitation in."""
        self.page.click("#join-form button[type=submit]")
        self.page.wait_for_selector("#table:not([hidden])")

    def play(self, timeout: float = 300) -> None:
        """Click whenever the page asks, until it shows the verdict."""
        deadline = time.monotonic() + timeout
        while not self.over():
            assert time.monotonic() < deadline, f"no verdict in time; errors {self.errors}"
            fatal = self.page.locator("#fatal:not([hidden])")
            assert not fatal.count(), fatal.inner_text()
            assert self.page.locator("#send-orders").count() <= 1, "the orders drawn twice"
            if not self.act():
                self.page.wait_for_timeout(50)

    def fits_a_phone(self) -> None:
        """At 390 px wide nothing runs off the side (as tools/screenshots.py checks)."""
        self.page.set_viewport_size({"width": 390, "height": 844})
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"

    def act(self) -> bool:
        return act(self.page)

    def over(self) -> bool:
        return over(self.page)

    def verdict(self) -> str:
        return str(self.page.locator("#verdict").inner_text())

    def transcript(self) -> bytes:
        with self.page.expect_download() as download:
            self.page.click("#download")
        return Path(download.value.path()).read_bytes()
