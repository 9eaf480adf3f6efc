"""The terminal table, driven headless through whole games (spec/12-peers.md section 12.6).

A pilot plays the person's seat with the keys a person would use (number
keys, Enter on the highlighted move, p or the Pass button when stuck) against
the greedy bot, then checks what the final screen says against the verdict.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, RichLog, Static

from peers.driver import LocalDriver
from peers.tui import PlayApp, move_label, save_game
from protocol.rules.bram import PASS, End, Play
from protocol.verifier import replay

SIZE = (140, 45)


def text_of(app: PlayApp, selector: str) -> str:
    return str(app.query_one(selector, Static).content)


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
@pytest.mark.parametrize(("seed", "seat"), [(6, 0), (9, 1)])
async def test_whole_game_against_greedy(seed: int, seat: int, tmp_path: Path) -> None:
    driver = LocalDriver(bot="greedy", seat=seat, seed=seed)
    app = PlayApp(driver, komi_halves=0)
    async with app.run_test(size=SIZE) as pilot:
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
    driver = LocalDriver(seed=7)
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
