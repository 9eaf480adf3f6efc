"""Golden transcripts in spec/vectors/transcripts/: verdicts (spec/11); the single-step
check of each of their frames is in test_disputes.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from protocol.canonical import pack, unpack
from protocol.errors import EncodingError
from protocol.verifier import check_step, committed_state_hashes, dispute_package, replay

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "spec" / "vectors" / "transcripts"
INDEX: dict[str, Any] = json.loads((GOLDEN / "index.json").read_text())["transcripts"]


@pytest.mark.parametrize("name", sorted(INDEX))
def test_golden_transcript_verdict(name: str) -> None:
    want = INDEX[name]
    verdict = replay((GOLDEN / want["file"]).read_bytes())
    got = verdict.to_json()
    assert verdict.exit_code == want["exit"]
    for key in ("valid", "complete", "frames", "first_player", "outcome", "hidden_tile",
                "violation", "awaiting", "decided"):
        assert got[key] == want[key], key


def test_a_forged_package_state_blames_nobody_and_a_committed_hash_refuses_it() -> None:
    data = (GOLDEN / INDEX["valid"]["file"]).read_bytes()
    package = unpack(dispute_package(data, 9), 1 << 21)
    state = unpack(package[4], 1 << 20)
    state["key_shares"] = state["key_shares"][::-1]      # a forger swaps two fields
    package[4] = pack(state)
    v = check_step(pack(package)).violation
    assert v is not None and v.code == "state/hash-mismatch" and not v.authenticated
    with pytest.raises(EncodingError):
        check_step(pack(package), committed_state_hashes(data)[9])


def test_golden_transcripts_are_reproducible_from_their_generator() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_transcripts.py"),
                           "--check"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_independent_verifier_written_from_the_spec_agrees_on_every_golden_transcript() -> None:
    """tools/independent_verify.py was written from spec/ alone (it imports no project code):
    it must reach every expected verdict and recompute every frame's state hash."""
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "independent_verify.py"),
                           "--golden"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert proc.stdout.rstrip().endswith(" 0 failed")
