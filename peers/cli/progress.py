"""Progress of a long command, on stderr only (spec/11-verify.md 11.1).

A command that can run past a couple of seconds (selfplay, a match, verify of a
match or of many files, tournament, bench) reports how far it is: on a terminal, a
Rich progress bar that disappears when the work is done; when stderr is piped or
redirected, a plain line every `PLAIN_SECONDS` at most, and one when the work ends
if any was written before it: a log file shows that something is happening without
filling up, and a command done in a moment writes nothing at all. Nothing goes to
stdout, so the result there (and `--json`) is the same whether anyone watches or not.

The work itself only calls the reporter, `progress(done, total, note)`: `total` is None
while the amount of work is unknown (the frames of one game), and `note` says what
is being done in words.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID

#: At most one plain line this often (seconds) when stderr is not a terminal.
PLAIN_SECONDS = 3.0


class Progress:
    """`with Progress("verify", "files", total) as progress: ... progress(done, total,
    note)`; `unit` names what is counted."""

    def __init__(self, what: str, unit: str, total: int | None = None,
                 stream: TextIO | None = None, every: float = PLAIN_SECONDS) -> None:
        self.what, self.unit, self.total, self.every = what, unit, total, every
        self.stream = stream or sys.stderr
        self.done, self.note, self.lines = 0, "", 0
        self.started = self.last = time.monotonic()
        self.bar: RichProgress | None = None
        self.task: TaskID | None = None
        if self.stream.isatty():   # Rich loads only when there is a terminal to draw on
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
            )
            from rich.progress import Progress as RichProgress

            self.bar = RichProgress(
                SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn(),
                MofNCompleteColumn(), TextColumn("{task.fields[note]}"),
                TimeElapsedColumn(),
                console=Console(file=self.stream), transient=True)

    def __enter__(self) -> Progress:
        if self.bar is not None:
            self.bar.start()
            self.task = self.bar.add_task(self.what, total=self.total, note="")
        return self

    def __call__(self, done: int, total: int | None = None, note: str = "") -> None:
        self.done, self.note = done, note
        if total is not None:
            self.total = total
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, completed=done, total=self.total, note=note)
        elif time.monotonic() - self.last >= self.every:
            self._line(note)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.stop()
        elif kind is None and self.lines:
            self._line(f"done{': ' + self.note if self.note else ''}")

    def _line(self, note: str) -> None:
        self.last = now = time.monotonic()
        self.lines += 1
        count = f"{self.done}/{self.total}" if self.total else f"{self.done}"
        text = f"{self.what}: {count} {self.unit}"
        if note:
            text += f", {note}"
        self.stream.write(f"dealerless: {text} ({now - self.started:.0f} s)\n")
        self.stream.flush()
