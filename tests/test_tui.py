"""The terminal table, driven headless through whole games (spec/12-peers.md section 12.6).

A pilot plays the person's seat with the keys a person would use (number
keys, Enter on the highlighted move, p or the Pass button when stuck) against
the greedy bot, then checks what the final screen says against the verdict.
At 80x24 the checks read the rendered screen itself: what a person sees is
what is asserted (tests/test_tui_tmux.py does the same in a real terminal).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, RichLog, Static

from peers.net.config import PeerError
from peers.table.driver import AsyncChooser, LocalDriver, Notify, SetupEvent
from peers.ui.terminal import PlayApp, save_game
from peers.ui.terminal_text import move_label, result_lines
from protocol.rules.bram_state import PASS, End, Play
from protocol.verifier import Verdict, replay

SIZE = (140, 45)
SMALL = (80, 24)
BORDERS = set("│┃║─━═┌┐└┘╭╮╰╯╔╗╚╝▏▕")
RID = "0cdf2e35a8d5302b83b98ae5dc691e50"
URL = f"ws://relay.dealerless-games.example.org:8765/room/{RID}"  # 82 characters
INVITATION = f"dealerless join {URL}"
SAS = "7015-1105-2801"
OPPONENT = "unknown key SHA256:EbyabzT//Hm6dDmvws2iTvcNaid8LP6saZzjFl5OjIQ"


def text_of(app: PlayApp, selector: str) -> str:
    return str(app.query_one(selector, Static).content)


def screen_lines(app: PlayApp) -> list[str]:
    """The screen as text, row by row: what export_screenshot draws, without the SVG."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def squeeze(text: str) -> str:
    return "".join(text.split())


def assert_fully_on_screen(app: PlayApp, selector: str) -> None:
    """The widget, border and all, lies inside the screen and is not covered."""
    widget = app.query_one(selector)
    assert widget.display and widget.region.area > 0
    assert app.screen.region.contains_region(widget.region), (selector, widget.region)
    footer = app.query_one("Footer").region
    assert widget.region.bottom <= footer.y


def log_text(app: PlayApp) -> str:
    """The log with its wrapping undone."""
    return " ".join(" ".join(strip.text for strip in app.query_one("#log", RichLog).lines).split())


async def wait_for_turn_or_end(app: PlayApp, pilot: Pilot[int]) -> None:
    for _ in range(500):
        if app.end is not None or app.waiting_for_me:
            return
        await pilot.pause()
    raise AssertionError("the game neither asked for a move nor ended")


async def take_turn(app: PlayApp, pilot: Pilot[int], turn: int) -> str:
    """Play the first legal tile (by number key or Enter), or pass (key or button)."""
    plays = [m for m in app.moves if m is not PASS]
    options = app.query_one("#moves", OptionList)
    assert options.option_count == len(app.moves)
    if plays:
        await pilot.press("1" if turn % 2 else "enter")
        return f"{plays[0].tile[0]}-{plays[0].tile[1]}>{plays[0].end.value}"
    if turn % 2:
        await pilot.press("p")
    else:
        await pilot.click("#pass")
    return "pass"


@pytest.mark.asyncio
@pytest.mark.parametrize(("seed", "seat", "size"), [(6, 0, SIZE), (9, 1, SMALL)])
async def test_whole_game_against_greedy(seed: int, seat: int, size: tuple[int, int],
                                         tmp_path: Path) -> None:
    driver = LocalDriver(["greedy"], seat=seat, seed=seed)
    app = PlayApp(driver, komi_halves=0)
    async with app.run_test(size=size) as pilot:
        chosen: list[str] = []
        for turn in range(30):
            await wait_for_turn_or_end(app, pilot)
            if app.end is not None:
                break
            assert "Your turn" in text_of(app, "#status")
            chosen.append(await take_turn(app, pilot, turn))
        await pilot.pause()
        assert app.end is not None and chosen
        verdict = app.end.verdict
        assert verdict.valid and verdict.complete and verdict.exit_code == 0
        data = verdict.to_json()
        result = text_of(app, "#result")
        assert app.query_one("#result").has_class("shown")
        assert f"Hidden tile revealed: {data['hidden_tile'][0]}" in result
        out = data["outcome"]
        assert ("Draw" in result) if out["draw"] else f"seat {out['winner']} wins by" in result
        assert f"seat {1 - seat}: {out['pips'][1 - seat]}" in result
        assert not app.query_one("#session").display  # no network, no session strip
        assert_fully_on_screen(app, "#result")
        screen = squeeze("".join(screen_lines(app)))
        for line in [*result_lines(verdict, seat), "Press q to leave."]:
            assert squeeze(line) in screen
        log = log_text(app)
        assert "✓" in log and "shuffle proof verified" in log
        assert "decryption shares of the deal verified" in log
        mine = [m["move"] for m in data["moves"] if m["seat"] == seat]
        assert mine == chosen
        await pilot.press("q")
    assert app.return_value == 0
    path = tmp_path / "game.transcript"
    assert save_game(app, driver, str(path)) == 0
    assert replay(path.read_bytes()).exit_code == 0


@pytest.mark.asyncio
async def test_quit_early_leaves_a_valid_prefix(tmp_path: Path) -> None:
    driver = LocalDriver(["greedy"], seed=7)
    app = PlayApp(driver)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_turn_or_end(app, pilot)
        assert app.waiting_for_me and app.end is None
        await pilot.press("q")
    assert app.return_value == 3
    assert app.end is None
    path = tmp_path / "prefix.transcript"
    assert save_game(app, driver, str(path)) == 3
    verdict = replay(path.read_bytes())
    assert verdict.valid and not verdict.complete
    assert verdict.awaiting == (0, "move")


def test_both_ends_are_told_apart() -> None:
    assert move_label(Play((3, 5), End.LEFT), (3, 5)).startswith("3-5 on left")
    assert move_label(Play((3, 5), End.RIGHT), (3, 5)).startswith("3-5 on right")
    assert move_label(PASS, (3, 5)) == "pass"


class NetworkLike:
    """What `NetworkDriver` shows a UI: nothing until the opponent joins, then a
    SetupEvent, then the game (a real one, against the greedy bot)."""

    def __init__(self, seed: int = 6) -> None:
        self.local = LocalDriver(["greedy"], seat=0, seed=seed)
        self.seat = 0
        self.joined = asyncio.Event()

    async def run(self, choose: AsyncChooser, notify: Notify) -> Verdict:
        await self.joined.wait()
        notify(SetupEvent("2c8f7f92bc64e3d0" * 4, 0, "bram {'komi_halves': 0}", OPPONENT, SAS))
        return await self.local.run(choose, notify)


class FailingHandshake:
    seat = 1

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    async def run(self, choose: AsyncChooser, notify: Notify) -> Any:
        await asyncio.sleep(0.01)
        raise self.exc


def invitation_rows(lines: list[str]) -> list[str]:
    """The rows from the one that starts the invitation to the end of its URL."""
    start = next((i for i, row in enumerate(lines) if "dealerless join" in row), None)
    assert start is not None, lines
    assert lines[start].startswith("dealerless join"), lines[start]  # from column 0
    rows: list[str] = []
    for row in lines[start:]:
        rows.append(row)
        if len(squeeze("".join(rows))) >= len(squeeze(INVITATION)):
            break
    return rows


def assert_session_visible(app: PlayApp) -> None:
    screen = screen_lines(app)
    assert any(f"SAS {SAS}" in row for row in screen), screen
    assert any(f"Opponent: {OPPONENT}" in row for row in screen), screen


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [SMALL, (120, 40)])
async def test_invitation_sas_and_result_stay_readable(size: tuple[int, int]) -> None:
    assert len(URL) > 80 and len(INVITATION) > 90  # it cannot fit one line at 80 columns
    driver = NetworkLike()
    app = PlayApp(driver, title="dealerless host", invitation=INVITATION)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        lines = screen_lines(app)
        rows = invitation_rows(lines)
        # Wrapped, never cut: no ellipsis, no border inside, the URL from column 0 on.
        assert squeeze("".join(rows)) == squeeze(INVITATION)
        assert not any(BORDERS & set(row) or "…" in row for row in rows)
        assert any(row.startswith("ws://") for row in rows) or rows[0].startswith(INVITATION)
        assert any("Waiting for an opponent..." in row for row in lines)
        assert_fully_on_screen(app, "#session")
        await pilot.press("c")
        assert app.clipboard == INVITATION
        assert "Invitation copied to the clipboard" in log_text(app)

        driver.joined.set()
        turns = 0
        for turn in range(30):
            await wait_for_turn_or_end(app, pilot)
            if app.end is not None:
                break
            assert_session_visible(app)
            assert not any("dealerless join" in row for row in screen_lines(app))
            for selector in ("#status", "#line", "#hand", "#moves", "#pass"):
                assert_fully_on_screen(app, selector)
            screen = "\n".join(screen_lines(app))
            assert "Your turn: pick a move below." in screen
            assert app.query_one("#moves", OptionList).get_option_at_index(0).prompt in screen
            await take_turn(app, pilot, turn)
            turns += 1
        await pilot.pause()
        assert app.end is not None and turns > 0
        assert_session_visible(app)
        assert_fully_on_screen(app, "#result")
        screen = squeeze("".join(screen_lines(app)))
        lines = result_lines(app.end.verdict, 0)
        assert any("Transcript verified from nothing" in line for line in lines)
        for line in [*lines, "Press q to leave."]:
            assert squeeze(line) in screen
        await pilot.press("q")
    assert app.return_value == app.end.verdict.exit_code == 0


@pytest.mark.asyncio
@pytest.mark.parametrize(("exc", "code"), [
    (PeerError("no host answered within 2 s"), 3),
    (ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 9)"), 1),
])
async def test_a_failed_handshake_is_a_message_not_a_traceback(exc: Exception,
                                                                code: int) -> None:
    app = PlayApp(FailingHandshake(exc), title="dealerless join")
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(200):
            if app.error is not None:
                break
            await pilot.pause(0.01)
        await pilot.pause()
        assert app.error is exc and app.is_running
        assert_fully_on_screen(app, "#result")
        screen = "\n".join(screen_lines(app))
        assert f"The game stopped: {exc}" in screen
        assert "No game was set up" in screen and "Waiting for an opponent" not in screen
        assert "Traceback" not in screen and "locals" not in screen.lower()
        assert not app.query_one("#moves").display
        await pilot.press("1", "p")          # no moves once stopped; only quitting is left
        assert app.is_running
        await pilot.press("q")
    assert app.return_value == code
