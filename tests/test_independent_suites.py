"""The spec-only implementation (tools/independent/) over every ciphersuite's vector set
whole (spec/vectors/suites/<suite>/, spec/03-hashing.md 3.5).

The default run of tools/independent_check.py (tests/test_vectors.py) and of
tools/independent_verify.py --golden (tests/test_golden.py) checks each suite's proof,
deck, seal and fork files whole but its disputes/ and transcripts/ on a sample (every
crafted package; the games valid, illegal-placement, equivocation and mined-choice): its
groups are pure Python, and all 34 games of each suite take minutes. --full takes them
all; these slow tests run it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUITES = sorted(p.name for p in (ROOT / "spec" / "vectors" / "suites").iterdir() if p.is_dir())
FILES = ("group.json", "tiles.json", "schnorr.json", "dleq.json", "shuffle.json", "deck.json",
         "cannot_play.json", "seal.json", "fork.json", "signatures.json",
         "rules/mined_games.json", "files/transcripts", "files/matches")


def run(*args: str) -> str:
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.rstrip().endswith(" 0 failed"), proc.stdout[-3000:]
    return proc.stdout


@pytest.mark.slow
def test_the_independent_check_of_every_suite_set_whole() -> None:
    out = run(str(ROOT / "tools" / "independent_check.py"), "--full")
    assert len(SUITES) == 3
    for suite in SUITES:
        for name in (*FILES, "disputes/golden", "disputes/crafted"):
            line = re.search(rf"^suites/{suite}/{name}: (\d+) passed, 0 failed$", out, re.M)
            assert line and int(line.group(1)) > 0, (suite, name)


@pytest.mark.slow
def test_the_independent_verifier_replays_every_golden_game_of_every_suite() -> None:
    out = run(str(ROOT / "tools" / "independent_verify.py"), "--golden", "--full")
    for suite in SUITES:
        index = ROOT / "spec" / "vectors" / "suites" / suite / "transcripts" / "index.json"
        games = json.loads(index.read_text())["transcripts"]
        verdicts = re.findall(rf"^PASS suites/{suite}/([\w-]+): verdict$", out, re.M)
        assert sorted(verdicts) == sorted(games), suite
