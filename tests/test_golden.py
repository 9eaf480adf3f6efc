"""Golden transcripts in spec/vectors/transcripts/: verdicts and single-step disputes (spec/11)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from protocol.canonical import pack, unpack
from protocol.errors import EncodingError, LocalError, Violation
from protocol.referee import Referee
from protocol.transcript import Transcript
from protocol.verifier import check_step, dispute_package, dispute_packages, replay

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


@pytest.mark.parametrize("name", sorted(INDEX))
def test_check_step_agrees_with_the_full_replay_on_every_frame(name: str) -> None:
    data = (GOLDEN / INDEX[name]["file"]).read_bytes()
    frames = Transcript.decode(data).frames
    violation = INDEX[name]["violation"]
    stop = violation["frame"] if violation else len(frames)
    committed = _replayed_state_hashes(data)   # what a referee holding the chain knows
    # One package per frame the replay reaches with a committed state (one replay).
    packages = list(dispute_packages(data))
    assert len(packages) >= min(stop + 1, len(frames))
    for n in sorted({0, len(packages) // 2, len(packages) - 1}):  # the same bytes as alone
        assert packages[n] == dispute_package(data, n)
    for n, package in enumerate(packages):
        verdict = check_step(package, committed[n])
        if n < stop:
            assert verdict.valid, n
        elif n == stop:  # the violating frame: the same rule, seat, frame and blame
            v = verdict.violation
            assert v is not None, n
            assert {"rule": v.code, "seat": v.seat, "frame": v.frame,
                    "authenticated": v.authenticated} == {
                k: violation[k] for k in ("rule", "seat", "frame", "authenticated")}
        else:  # after a violation proven by evidence, the later frames are invalid too
            assert not verdict.valid, n
    # Beyond the last package the replay holds no committed state: none can be made.
    if len(packages) < len(frames):
        with pytest.raises(LocalError):
            dispute_package(data, len(packages))


def _replayed_state_hashes(data: bytes) -> list[bytes]:
    """The state hash before each frame, as the replay computes it (until it stops)."""
    transcript = Transcript.decode(data)
    ref = Referee(transcript.setup)
    hashes = [ref.state.hash(ref.game.rules)]
    for wire in transcript.frames:
        try:
            ref.receive(wire, dedupe=False)
        except Violation:
            break
        hashes.append(ref.state.hash(ref.game.rules))
    return hashes


def test_a_forged_package_state_blames_nobody_and_a_committed_hash_refuses_it() -> None:
    data = (GOLDEN / INDEX["valid"]["file"]).read_bytes()
    package = unpack(dispute_package(data, 9), 1 << 21)
    state = unpack(package[4], 1 << 20)
    state["key_shares"] = state["key_shares"][::-1]      # a forger swaps two fields
    package[4] = pack(state)
    v = check_step(pack(package)).violation
    assert v is not None and v.code == "state/hash-mismatch" and not v.authenticated
    with pytest.raises(EncodingError):
        check_step(pack(package), _replayed_state_hashes(data)[9])


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
