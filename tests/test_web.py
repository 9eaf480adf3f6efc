"""`dealerless web` in a real browser (spec/12-peers.md 12.8): whole games played by
clicking, at a laptop's and a phone's size, through a relay and against bots, with the
exported transcripts checked by `dealerless verify`."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webpage import (
    CLI,
    LAPTOP,
    PHONE,
    Seat,
    WebPeer,
    browser,
    free_port,
    play_together,
    start,
    wait_for,
)

__all__ = ["browser"]  # the fixture, imported for the tests below


@pytest.fixture
def peers(tmp_path: Path) -> Iterator[Any]:
    running: list[WebPeer] = []

    def make(name: str) -> WebPeer:
        peer = WebPeer(tmp_path / name)
        running.append(peer)
        return peer
    yield make
    for peer in running:
        peer.stop()


def verify(data: bytes, tmp: Path) -> subprocess.CompletedProcess[str]:
    path = tmp / "checked.transcript"
    path.write_bytes(data)
    return subprocess.run([*CLI, "verify", str(path)], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.slow   # about a minute; the mineshaft and mined-games tables cover the relay
def test_three_pages_play_a_mexican_train_round_through_the_relay(
        browser: Any, peers: Any, tmp_path: Path) -> None:
    port = free_port()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}"], tmp_path / "relay.log")
    try:
        wait_for(r"(relay listening)", tmp_path / "relay.log")
        seats = [Seat(browser, peers(f"p{i}")) for i in range(3)]
        invitations = seats[0].host("mexican-train", 3, relay=f"ws://127.0.0.1:{port}")
        assert all(i.startswith("dealerless join ws://127.0.0.1:") for i in invitations)
        seats[1].join(invitations[0])
        # The host's page says, seat by seat, who asked for it while the table fills.
        seats[0].page.wait_for_selector("#seat-1:has-text('SHA256:')", timeout=30_000)
        assert "nobody yet" in seats[0].page.locator("#seat-2").inner_text()
        seats[2].join(invitations[1])
        sas = [s.page.wait_for_selector("#sas", timeout=30_000) for s in seats]
        assert len({box.inner_text() for box in sas if box}) == 1  # one SAS for all
        play_together(seats, timeout=300)
        copies = [s.transcript() for s in seats]
    finally:
        relay.kill()
        relay.wait(10)
    assert len(set(copies)) == 1
    proc = verify(copies[0], tmp_path)
    assert proc.returncode == 0 and "VALID and complete" in proc.stdout, proc.stdout
    assert all("VALID and complete" in s.verdict() for s in seats)
    assert not any(s.errors for s in seats), [s.errors for s in seats]


def test_a_bram_game_against_the_strong_bot(browser: Any, peers: Any,
                                            tmp_path: Path) -> None:
    seat = Seat(browser, peers("me"))
    invitation, = seat.host("bram", 2)
    bot = start(["join", invitation.split()[-1], "--bot", "strong", "--home",
                 str(tmp_path / "bot")], tmp_path / "bot.log")
    try:
        seat.page.wait_for_selector("#sas", timeout=30_000)
        play_together([seat], timeout=180)
        assert bot.wait(60) == 0
    finally:
        if bot.poll() is None:
            bot.kill()
    text = seat.page.locator("#result").inner_text()
    assert "VALID and complete" in text and "Hidden tile opened at the end:" in text
    assert "Pips left (komi included)" in text
    assert verify(seat.transcript(), tmp_path).returncode == 0


@pytest.mark.slow   # ~15 s; the mined-games round (one person, four bots) runs by default
def test_a_mineshaft_round_with_two_people_and_two_bots(browser: Any, peers: Any,
                                                        tmp_path: Path) -> None:
    people = [Seat(browser, peers("a")), Seat(browser, peers("b"), PHONE)]
    invitations = people[0].host("mineshaft", 4)
    people[1].join(invitations[0])
    bots = [start(["join", invitations[i].split()[-1], "--bot", "greedy", "--home",
                   str(tmp_path / f"bot{i}")], tmp_path / f"bot{i}.log") for i in (1, 2)]
    try:
        play_together(people, timeout=300)
        assert [b.wait(60) for b in bots] == [0, 0]
    finally:
        for b in bots:
            if b.poll() is None:
                b.kill()
    copies = {s.transcript() for s in people}
    assert len(copies) == 1 and verify(copies.pop(), tmp_path).returncode == 0


def test_a_mined_games_round_with_one_person_and_four_bots(browser: Any, peers: Any,
                                                           tmp_path: Path) -> None:
    seat = Seat(browser, peers("me"), PHONE)
    seat.play_bots("mined-games", 5)
    seat.page.wait_for_selector("#mine .cell", timeout=30_000)
    play_together([seat], timeout=180)
    text = seat.page.locator("#result").inner_text()
    assert "wins two tokens of life" in text
    assert verify(seat.transcript(), tmp_path).returncode == 0


@pytest.mark.parametrize(("rules", "seats"), [
    ("bram", 2), pytest.param("mexican-train", 4, marks=pytest.mark.slow),   # ~25 s
    ("mineshaft", 3), ("mined-games", 5)])
def test_no_table_overflows_at_a_laptops_or_a_phones_size(browser: Any, peers: Any,
                                                          rules: str, seats: int) -> None:
    seat = Seat(browser, peers("me"))
    seat.play_bots(rules, seats)
    asked = "#send-orders" if rules == "mined-games" else "#hand-tiles .tile-button"
    seat.page.wait_for_selector(asked, timeout=30_000)
    for size in (LAPTOP, PHONE):
        seat.page.set_viewport_size(size)
        seat.fits("#board", "#hand", "#moves", ".tile-button.legal, #send-orders, .move")
    play_together([seat], timeout=180)
    outcome = seat.page.locator("#outcome")
    if outcome.count():   # komi is named only where the rules have it (issue 28)
        assert ("komi" in outcome.inner_text()) == (rules == "bram"), outcome.inner_text()
    assert rules in seat.page.locator("#table-title").inner_text()
    assert "passs" not in seat.page.locator("#board").inner_text()   # "2 passes in a row"
    for size in (LAPTOP, PHONE):
        seat.page.set_viewport_size(size)
        seat.fits("#verdict", "#download")
        if rules == "mined-games":   # the miners and their money history, uncut (issue 28)
            seat.fits(".miners:not([hidden])")
            seat.unscrolled(".miners")
    assert not seat.errors, seat.errors


def test_a_joined_table_is_titled_by_its_rules(browser: Any, peers: Any) -> None:
    host, guest = Seat(browser, peers("host")), Seat(browser, peers("guest"))
    invitation, = host.host("mineshaft", 2)
    guest.join(invitation)
    title = guest.page.locator("#table-title")
    assert title.inner_text().startswith(("joining a table", "mineshaft")), title.inner_text()
    guest.page.wait_for_selector("#sas", timeout=30_000)
    guest.page.wait_for_function(
        "document.querySelector('#table-title').innerText.startsWith('mineshaft')")
    assert "2 seats" in title.inner_text() and "you are seat 1" in title.inner_text()
    assert not host.errors and not guest.errors, (host.errors, guest.errors)


def test_closing_the_page_mid_game_and_reopening_it_finishes_the_game(
        browser: Any, peers: Any) -> None:
    peer = peers("me")
    seat = Seat(browser, peer)
    seat.play_bots("bram", 2)
    for _ in range(3):   # a few moves in, then the tab is closed
        seat.page.wait_for_selector("#hand-tiles .tile-button.legal, .moves .move")
        seat.act()
    table_url = seat.page.url
    assert "table=" in table_url
    seat.close()
    again = Seat(browser, peer, url=table_url)
    again.page.wait_for_selector("#hand-tiles")      # the table, where it was
    assert again.page.locator("#log li").count() >= 8
    play_together([again], timeout=120)
    assert "VALID and complete" in again.verdict()


def test_after_a_crash_the_page_resumes_the_saved_game(browser: Any, peers: Any,
                                                       tmp_path: Path) -> None:
    peer = peers("me")
    seat = Seat(browser, peer)
    invitation, = seat.host("bram", 2, timeout=60)
    assert seat.page.locator("#table-title").inner_text().startswith("bram")   # not "a table"
    bot = start(["join", invitation.split()[-1], "--bot", "greedy", "--home",
                 str(tmp_path / "bot"), "--timeout", "60"], tmp_path / "bot.log")
    try:
        seat.page.wait_for_selector("#sas", timeout=30_000)
        moved = 0
        while moved < 3:
            moved += seat.act()
            seat.page.wait_for_timeout(50)
        peer.proc.send_signal(signal.SIGKILL)   # the peer crashes mid-game
        peer.proc.wait(10)
        seat.close()
        again = Seat(browser, peers("me"))      # `dealerless web` again, same home
        resume = again.page.wait_for_selector("#game-list button:has-text('Resume')")
        assert resume is not None
        resume.click()
        # Issue 28: the resumed table shows what it showed before, rebuilt from the stored
        # frames: the log of checks, the SAS, the opponent's key and the host's timeout.
        again.page.wait_for_selector("#sas")
        assert again.page.locator("#log li.step").count() >= moved
        assert "SHA256:" in again.page.locator("#session").inner_text()
        again.page.wait_for_selector("#table-status:has-text('left')", timeout=60_000)
        left = again.page.locator("#table-status").inner_text().split(" · ")[-1]
        assert left.startswith(("1:00", "0:")), left   # 60 s as hosted, not 5:00
        play_together([again], timeout=120)
        assert bot.wait(60) == 0
    finally:
        if bot.poll() is None:
            bot.kill()
    assert "VALID and complete" in again.verdict()


@pytest.mark.slow
def test_a_whole_mineshaft_match_against_a_bot_shows_the_standings(browser: Any, peers: Any,
                                                                   tmp_path: Path) -> None:
    seat = Seat(browser, peers("me"))
    seat.form("play-form", "mineshaft", 2)
    seat.page.check("#play-form input[name=match]")
    seat.page.click("#play-form button[type=submit]")
    seat.page.wait_for_selector("#table:not([hidden])")
    deadline = time.monotonic() + 600
    while "match over" not in seat.page.locator("#result").inner_text():
        assert time.monotonic() < deadline, "the match did not end in time"
        if not seat.act():
            seat.page.wait_for_timeout(50)
    standings = seat.page.locator("#standings-table").inner_text()
    assert "Total" in standings
    path = tmp_path / "m.match"
    path.write_bytes(seat.transcript())
    proc = subprocess.run([*CLI, "verify", str(path)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0 and "VALID and complete match" in proc.stdout


def _enabled_step(page: Any) -> Any:
    page.wait_for_selector(".steps.judged")   # the peer has judged the draft
    steps = page.locator("button.step:not([disabled])")
    return steps.first if steps.count() else None


def test_mined_games_orders_offer_only_what_the_rules_accept(browser: Any, peers: Any,
                                                             tmp_path: Path) -> None:
    """Issue 28: a refused order locked the page. The page offers only starts, steps and
    actions the session's rules accept, says why the rest are off, and a refusal forced
    past it gives the person the choice back."""
    seat = Seat(browser, peers("me"))
    seat.play_bots("mined-games", 5)
    page = seat.page
    page.wait_for_selector("#send-orders", timeout=30_000)
    # Start stage: air and lava are never offered (mined/start-tile).
    assert page.locator("button.cell.k-A, button.cell.k-L").count() == 0
    offered = page.locator("#mine button.cell")
    assert 0 < offered.count() < page.locator("#mine .mine-floor").first.locator(".cell").count()
    top = page.locator("#mine button.cell[data-pos^='0,0,']")
    (top.first if top.count() else offered.first).click()
    page.click("#send-orders")
    # Round 1: the steps panel, every button judged by the peer.
    page.wait_for_selector("#steps", timeout=60_000)
    page.wait_for_selector(".steps.judged")
    page.set_viewport_size(PHONE)   # a miner's badge never covers its tile's letter
    covered = page.evaluate("""() => [...document.querySelectorAll('.cell .miner')]
      .filter((badge) => {
        const a = badge.getBoundingClientRect();
        const b = badge.parentElement.querySelector('.kind').getBoundingClientRect();
        return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      }).map((badge) => badge.parentElement.dataset.pos)""")
    assert covered == [], covered
    seat.fits("#board", ".miners:not([hidden])")
    seat.unscrolled(".miners")
    page.set_viewport_size(LAPTOP)
    row = int(page.locator("tr.me td").nth(4).inner_text().split()[1].split(",")[0])
    if row == 0:   # a step up leaves the mine, and so does mining above row 0
        assert page.locator("button.step[data-step=U]").is_disabled()
        assert "mined/off-mine" in page.locator("#steps-why").inner_text()
        assert page.locator("#action option", has_text="mine up").first.is_disabled()
    # Attacks are for B3 only (mined/attack-off-b3): never offered on B1.
    assert all(page.locator("#action option", has_text="attack").nth(i).is_disabled()
               for i in range(4))
    for k in range(5):   # five free steps; this miner has no garnet for a sixth
        step = _enabled_step(page)
        assert step is not None, f"no step offered after {k}"
        step.click()
        page.wait_for_function(f"document.getElementById('steps').textContent.length === {k + 1}")
    page.wait_for_selector("#steps-why:has-text('mined/too-many-moves')")
    assert _enabled_step(page) is None
    # Force a refused order past the page (as a stale page might send one): the peer
    # refuses it, and the person is back at an editable choice, not locked out.
    page.evaluate("document.querySelector('button.step').disabled = false")
    page.locator("button.step").first.click()
    page.wait_for_function("document.getElementById('steps').textContent.length === 6")
    page.wait_for_selector("#send-orders[disabled]")
    page.evaluate("document.getElementById('send-orders').disabled = false")
    page.click("#send-orders")
    page.wait_for_selector("#toast:has-text('mined/too-many-moves')")
    page.wait_for_selector("#undo-step:not([disabled])")
    assert "Your turn" in page.locator("#turn").inner_text()
    page.click("#undo-step")
    page.wait_for_selector("#send-orders:not([disabled])")
    page.click("#send-orders")
    play_together([seat], timeout=180)
    assert verify(seat.transcript(), tmp_path).returncode == 0
    assert not [e for e in seat.errors if "WebSocket" not in e], seat.errors


def test_the_page_says_at_once_that_its_peer_died_and_backs_off(browser: Any,
                                                                peers: Any) -> None:
    """Issue 28: after `kill -9` of `dealerless web` the table went on ticking, and the
    page redialled every second (28 console errors in 30 s, as with a wrong token)."""
    peer = peers("me")
    seat = Seat(browser, peer)
    seat.play_bots("bram", 2)
    seat.page.wait_for_selector("#hand-tiles .tile-button")
    peer.proc.send_signal(signal.SIGKILL)
    peer.proc.wait(10)
    seat.page.wait_for_selector("#offline:not([hidden])", timeout=3_000)
    assert "dealerless web" in seat.page.locator("#offline").inner_text()
    assert seat.page.locator("#table-status").inner_text() == "your peer has stopped"
    assert seat.page.locator("#hand-tiles .tile-button").count() == 0
    before = len(seat.errors)
    seat.page.wait_for_timeout(6_000)
    # Backing off 1 s, 2 s, 4 s: at most three more dials in 6 s (every second: six).
    assert len(seat.errors) - before <= 3, seat.errors[before:]


def test_a_wrong_token_is_told_once_not_retried(browser: Any, peers: Any) -> None:
    peer = peers("me")
    seat = Seat(browser, peer, url=f"{peer.origin}/#token={'0' * 48}")
    seat.page.wait_for_selector("#fatal:not([hidden])")
    assert "wrong token" in seat.page.locator("#fatal").inner_text()
    seat.page.wait_for_timeout(5_000)
    assert len(seat.errors) <= 3, seat.errors


def test_no_lobby_placeholder_is_cut_off(browser: Any, peers: Any) -> None:
    """Issue 28: the relay and listen placeholders were cut off at both sizes."""
    seat = Seat(browser, peers("me"))
    for size in (LAPTOP, PHONE):
        seat.page.set_viewport_size(size)
        cut = seat.page.evaluate("""() => {
          const pen = document.createElement("canvas").getContext("2d");
          return [...document.querySelectorAll("input[placeholder]")]
            .filter((i) => i.offsetParent !== null).filter((i) => {
              const st = getComputedStyle(i);
              pen.font = `${st.fontSize} ${st.fontFamily}`;
              const room = i.clientWidth - parseFloat(st.paddingLeft)
                - parseFloat(st.paddingRight);
              return pen.measureText(i.placeholder).width > room;
            }).map((i) => i.name);
        }""")
        assert cut == [], f"cut at {size}: {cut}"


def test_the_advanced_settings_choose_the_suite_and_the_table_shows_it(
        browser: Any, peers: Any, tmp_path: Path) -> None:
    """Issue 31: each form's Advanced settings hold the ciphersuite (spec 12.8). A host
    chooses bls12381g1-sha256; a page that asked for another suite leaves its table,
    naming both; joining with "the host's" plays it, and both tables show it."""
    bls = "bls12381g1-sha256"
    host, guest = Seat(browser, peers("host")), Seat(browser, peers("guest"))
    offered = host.page.eval_on_selector_all("#host-form select[name=suite] option",
                                             "(os) => os.map((o) => o.value)")
    assert offered == ["edwards25519-sha512", "ristretto255-sha512", bls]
    assert host.page.input_value("#host-form select[name=suite]") == "ristretto255-sha512"
    assert guest.page.input_value("#join-form select[name=suite]") == ""   # the host's
    assert not host.page.locator("#host-form select[name=suite]").is_visible()   # closed
    invitation, = host.host("bram", 2, suite=bls)
    assert host.page.locator("#suite").inner_text() == bls   # while the table fills
    guest.join(invitation, suite="edwards25519-sha512")
    guest.page.wait_for_selector("#result .bad", timeout=30_000)
    assert guest.page.locator("#result").inner_text() == (
        f"The game stopped: the host plays {bls}; this seat chose edwards25519-sha512 in "
        "Advanced (choose \"the host's\" there to play the host's suite)")
    guest.page.click("#back")
    guest.join(invitation, suite="")
    for seat in (host, guest):
        seat.page.wait_for_selector("#sas", timeout=30_000)
        assert seat.page.locator("#suite").inner_text() == bls
    guest.page.screenshot(path=str(tmp_path / "suite.png"))
    play_together([host, guest], timeout=180)
    copies = {s.transcript() for s in (host, guest)}
    assert len(copies) == 1
    proc = verify(copies.pop(), tmp_path)
    assert proc.returncode == 0 and bls in proc.stdout, proc.stdout
    assert not host.errors and not guest.errors, (host.errors, guest.errors)
