"""The golden transcripts of each ciphersuite (spec/vectors/suites/<suite>/transcripts/,
spec/03-hashing.md 3.5): the scripted games of spec/vectors/transcripts/, cheats
included, played at dealerless/3 in every suite. Each verdict is the index's, the
verifier written from the spec alone reaches the same, and the files regenerate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from protocol.suite import SUITE_NAMES
from protocol.transcript import Transcript
from protocol.verifier import replay

ROOT = Path(__file__).resolve().parent.parent
SUITES = ROOT / "spec" / "vectors" / "suites"
#: The keys of 11.1's verdict an index pins.
KEYS = ("valid", "complete", "frames", "first_player", "outcome", "hidden_tile", "violation",
        "awaiting", "decided")


def index(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(
        (SUITES / name / "transcripts" / "index.json").read_text())["transcripts"]
    return found


@pytest.mark.parametrize("suite", SUITE_NAMES)
def test_every_suite_has_the_golden_games_of_every_rule_set(suite: str) -> None:
    v2 = json.loads((ROOT / "spec" / "vectors" / "transcripts" / "index.json").read_text())
    games = index(suite)
    assert set(games) == set(v2["transcripts"]) - {"protocol-1"}
    rules = {Transcript.decode((SUITES / suite / "transcripts" / g["file"]).read_bytes())
             .setup.rules for g in games.values()}
    assert rules == {"bram", "mexican-train", "mineshaft", "mined-games"}
    for name, game in games.items():   # every cheat keeps its rule in every suite
        want = v2["transcripts"][name]["violation"]
        assert (game["violation"] or {}).get("rule") == (want or {}).get("rule"), name


@pytest.mark.parametrize("suite", SUITE_NAMES)
def test_every_golden_verdict_of_a_suite(suite: str) -> None:
    for name, want in index(suite).items():
        verdict = replay((SUITES / suite / "transcripts" / want["file"]).read_bytes())
        assert verdict.setup is not None and verdict.setup.suite_name == suite
        assert verdict.setup.version == 3
        got = verdict.to_json()
        assert verdict.exit_code == want["exit"], name
        assert {k: got[k] for k in KEYS} == {k: want[k] for k in KEYS}, name


#: A whole suite's games take the spec-only verifier one to two minutes: the default run
#: has its sample of each suite (test_golden.py, independent_verify.py --golden).
@pytest.mark.slow
@pytest.mark.parametrize("suite", SUITE_NAMES)
def test_the_independent_verifier_agrees_in_every_suite(suite: str) -> None:
    games = sorted(index(suite).values(), key=lambda g: g["file"])
    files = [str(SUITES / suite / "transcripts" / g["file"]) for g in games]
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "independent_verify.py"),
                           "--json", *files], cwd=ROOT, capture_output=True, text=True)
    lines = proc.stdout.splitlines()
    assert len(lines) == len(games), proc.stdout[-2000:] + proc.stderr[-2000:]
    for game, line in zip(games, lines, strict=True):
        got = json.loads(line)
        assert {k: plain(got[k]) for k in KEYS} == {k: plain(game[k]) for k in KEYS}, \
            game["file"]


def plain(value: Any) -> Any:
    """A verdict item without a violation's detail: its words are each verifier's own
    (11.1 pins the rule, the seat, the frame and whether it is authenticated)."""
    if isinstance(value, dict) and "detail" in value and "rule" in value:
        return {k: v for k, v in value.items() if k != "detail"}
    return value


@pytest.mark.parametrize("suite", [pytest.param(s, marks=[] if s == "ristretto255-sha512"
                                                else pytest.mark.slow) for s in SUITE_NAMES])
def test_the_golden_games_of_a_suite_regenerate(suite: str) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_transcripts.py"),
                           "--suite", suite, "--check"], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
