"""Progress of long commands (spec/11-verify.md 11.1): on stderr only, a Rich bar on a
terminal, a plain line every few seconds when piped, nothing for a command done in a
moment, and never a byte more on stdout or in --json."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from peers.cli.progress import Progress

CLI = [sys.executable, "-m", "peers.cli"]
MATCH_LINE = re.compile(r"^dealerless: selfplay mexican-train match: (\d+)/13 rounds, "
                        r"round (\d+) at frame (\d+) \((\d+) s\)$")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_piped_progress_is_a_plain_line_every_few_seconds_and_none_for_quick_work() -> None:
    quick = io.StringIO()
    with Progress("verify", "files", 3, stream=quick) as progress:
        for i in range(3):
            progress(i + 1, note=f"file {i}")
    assert quick.getvalue() == ""        # done in a moment: nothing to say
    slow = io.StringIO()
    with Progress("selfplay bram", "frames", stream=slow, every=0.05) as progress:
        for frames in range(1, 5):
            time.sleep(0.03)
            progress(frames)
    lines = slow.getvalue().splitlines()
    assert lines[0] == "dealerless: selfplay bram: 2 frames (0 s)"
    assert lines[-1] == "dealerless: selfplay bram: 4 frames, done (0 s)"
    assert len(lines) == 3


def test_on_a_terminal_it_is_a_rich_bar_that_goes_away() -> None:
    screen = Terminal()
    with Progress("tournament strong vs greedy", "deals", 10, stream=screen) as progress:
        for done in range(11):
            progress(done, 10)
            time.sleep(0.01)
    drawn = screen.getvalue()
    assert "tournament strong vs greedy" in drawn and "10/10" in drawn
    assert "\x1b[" in drawn               # drawn with terminal codes, then cleared
    assert "dealerless:" not in drawn     # not the piped lines


def _run_match(tmp_path: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([*CLI, "selfplay", "--rules", "mexican-train", "--seats", "3",
                             "--match", "--out", str(tmp_path / "m.match")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_match_reports_progress_on_stderr_while_it_runs(tmp_path: Path) -> None:
    """The acceptance command: lines arrive on stderr while it runs, stdout stays empty."""
    proc = _run_match(tmp_path)
    try:
        assert proc.stderr is not None and proc.stdout is not None
        seen = []
        while len(seen) < 2:
            line = proc.stderr.readline()
            assert line and proc.poll() is None, "a line came while the match was running"
            seen.append(MATCH_LINE.match(line.rstrip("\n")))
            assert seen[-1] is not None, line
        assert int(seen[1].group(4)) >= int(seen[0].group(4)) + 2   # a few seconds apart
    finally:
        proc.kill()
        out, _ = proc.communicate(timeout=30)
    assert out == ""                      # nothing on stdout before the result


@pytest.mark.slow
def test_a_whole_match_keeps_stdout_to_its_two_result_lines(tmp_path: Path) -> None:
    proc = _run_match(tmp_path)
    out, err = proc.communicate(timeout=1800)
    assert proc.returncode == 0, err
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("VALID and complete match of 13 rounds")
    assert re.fullmatch(r"13 rounds, \d+ bytes; match written to .*m\.match", lines[1])
    progress = err.splitlines()
    rounds = [int(m.group(1)) for m in map(MATCH_LINE.match, progress[:-1]) if m]
    assert len(rounds) == len(progress) - 1 and rounds == sorted(rounds)
    assert re.fullmatch(r"dealerless: selfplay mexican-train match: 13/13 rounds, done "
                        r"\(\d+ s\)", progress[-1])
    # The acceptance of verify --jobs: the same verdict with 2 jobs as with 1.
    verdicts = [subprocess.run([*CLI, "verify", "--json", *jobs, str(tmp_path / "m.match")],
                               capture_output=True, text=True, timeout=1800)
                for jobs in ([], ["--jobs", "2"])]
    assert verdicts[0].returncode == verdicts[1].returncode == 0
    assert verdicts[0].stdout == verdicts[1].stdout
    assert '"rounds_played": 13' in verdicts[0].stdout
