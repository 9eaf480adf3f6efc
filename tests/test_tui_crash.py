"""No traceback shows local variables (issue 17): a seat's frames hold its hand and its
key share, and a crash report is something people paste into bug reports."""

from __future__ import annotations

import asyncio
import importlib
import os
import sys
from typing import Any

import pytest
from textual.app import App

from peers.ui.terminal import PlayApp

MARKER = os.urandom(12).hex()   # made at run time, so no source line shows it


def _a_bug_in_the_table() -> None:
    hand = [MARKER]                 # what the frames of a real crash would hold
    secret = MARKER.encode()
    raise RuntimeError(f"a bug in the table ({len(hand)} tile, {len(secret)} bytes)")


class CrashingDriver:
    """Starts a game, then makes the app itself (not the driver) fail."""

    seat = 0

    async def run(self, choose: Any, notify: Any) -> None:
        notify.__self__.call_next(_a_bug_in_the_table)   # notify is the app's method
        await asyncio.Event().wait()


def _crash_output(capsys: pytest.CaptureFixture[str]) -> str:
    app = PlayApp(CrashingDriver())  # type: ignore[arg-type]
    app.run(headless=True, size=(100, 30))
    assert app.return_code == 1
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_a_crash_of_the_terminal_table_prints_a_traceback_without_locals(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = _crash_output(capsys)
    assert "RuntimeError" in out and "_a_bug_in_the_table" in out   # still a useful report
    assert MARKER not in out


def test_textuals_own_report_would_have_shown_them(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: Textual's default report prints the marker."""
    monkeypatch.setattr(PlayApp, "_fatal_error", App._fatal_error)
    assert MARKER in _crash_output(capsys)


def test_the_command_line_leaves_pythons_plain_traceback_in_place() -> None:
    """Python's own report of an uncaught exception shows no locals; nothing the command
    line loads (Rich, Textual, the web server) may swap in one that does."""
    for module in ("peers.cli.main", "peers.cli.parser", "peers.ui.terminal",
                   "peers.web.server"):
        importlib.import_module(module)
    assert sys.excepthook is sys.__excepthook__
