"""The games with a boneyard from the command line (issue 8's acceptance, as a user runs it).

`dealerless selfplay --rules mexican-train --seats 8` and `--rules mineshaft --seats 4`
write transcripts that `dealerless verify --json` finds valid and complete; a draw and
a proven "cannot play" move are each judged alone by `dispute` and `check-step`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from protocol.frames import MessageType, parse_frame
from protocol.messages import MoveBody
from protocol.transcript import Transcript

CLI = [sys.executable, "-m", "peers.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("rules", "seats", "more"), [
    pytest.param("mexican-train", 8, (), marks=pytest.mark.slow),   # ~20 s
    ("mineshaft", 4, ()), ("mineshaft", 5, ("--set", "double-nine"))])
def test_selfplay_then_verify_json_is_complete(rules: str, seats: int, more: tuple[str, ...],
                                               tmp_path: Path) -> None:
    out = tmp_path / "g.t"
    played = run("selfplay", "--rules", rules, "--seats", str(seats), "--out", str(out),
                 "--seed", "2", *more)
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("VALID and complete")
    checked = run("verify", str(out), "--json")
    verdict = json.loads(checked.stdout)
    assert checked.returncode == 0 and verdict["valid"] and verdict["complete"]
    assert verdict["rules"]["name"] == rules and len(verdict["seats"]) == seats
    assert len(verdict["outcome"]["hand_pips"]) == seats

    transcript = Transcript.decode(out.read_bytes())
    suite = transcript.setup.suite
    frames = [parse_frame(w, suite) for w in transcript.frames]
    draw = next(i for i, f in enumerate(frames) if f.type is MessageType.DRAW)
    claim = next(i for i, f in enumerate(frames) if f.type is MessageType.MOVE
                 and MoveBody.decode(suite, f.body).claim is not None)
    for index in (draw, claim):
        package = tmp_path / f"{index}.pkg"
        assert run("dispute", str(out), str(index), "--out", str(package)).returncode == 0
        step = run("check-step", str(package), "--json")
        assert step.returncode == 0 and json.loads(step.stdout)["valid"], step.stdout
