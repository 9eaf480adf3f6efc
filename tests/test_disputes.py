"""The single-step vectors (spec/vectors/disputes/, spec/11-verify.md 11.3 and 11.4).

For every golden transcript, the dispute package of every frame is rebuilt from the
transcript and compared with the vectors (its SHA-256, or its bytes where shipped),
and check_step's verdict with the committed state hash must be the vector's, which
for the violating frame is also the full replay's verdict. The crafted packages,
one per check a step can fail, must give their vectors' verdicts.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import load_vectors

from protocol.errors import LocalError
from protocol.match import verify_match
from protocol.transcript import Transcript
from protocol.verifier import dispute_package, dispute_packages, replay

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from gen_disputes import read_records, verdict_json  # noqa: E402

VECTORS = ROOT / "spec" / "vectors"
DISPUTES: dict[str, Any] = json.loads((VECTORS / "disputes" / "index.json").read_text())
GOLDEN_INDEX: dict[str, Any] = json.loads(
    (VECTORS / "transcripts" / "index.json").read_text())["transcripts"]
FILES = load_vectors("files")


def verdict(package: bytes, committed: str | None) -> dict[str, Any]:
    return verdict_json(package, None if committed is None else bytes.fromhex(committed))


def expected(step: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in step.items()
            if k not in ("index", "record", "name", "package_sha256", "committed_state_hash",
                         "note")}


def test_every_golden_transcript_has_dispute_vectors() -> None:
    """All but protocol-1, which is refused before its frames (spec/README.md "Versioning")."""
    assert sorted(DISPUTES["golden"]) == sorted(set(GOLDEN_INDEX) - {"protocol-1"})


@pytest.mark.parametrize("name", sorted(DISPUTES["golden"]))
def test_golden_packages_and_verdicts_match_the_vectors(name: str) -> None:
    vec = DISPUTES["golden"][name]
    data = (VECTORS / "transcripts" / vec["transcript"]).read_bytes()
    packages = list(dispute_packages(data))
    assert [hashlib.sha256(p).hexdigest() for p in packages] == [
        s["package_sha256"] for s in vec["steps"]]
    if vec["packages"]:
        assert list(read_records((VECTORS / "disputes" / vec["packages"]).read_bytes())) == packages
    for n in sorted({0, len(packages) // 2, len(packages) - 1}):  # the same bytes as alone
        assert packages[n] == dispute_package(data, n)
    if len(packages) < len(Transcript.decode(data).frames):  # no committed state beyond
        with pytest.raises(LocalError):
            dispute_package(data, len(packages))
    replayed = GOLDEN_INDEX[name]["violation"]
    for step, package in zip(vec["steps"], packages, strict=True):
        got = verdict(package, step["committed_state_hash"])
        assert got == expected(step), step["index"]
        if replayed is not None and step["index"] == replayed["frame"]:
            # The violating frame: the replay's rule, seat, frame and blame.
            assert {k: got[k] for k in ("rule", "seat", "frame", "authenticated")} == {
                k: replayed[k] for k in ("rule", "seat", "frame", "authenticated")}
        elif replayed is None or step["index"] < replayed["frame"]:
            assert got["valid"], step["index"]


CRAFTED = DISPUTES["crafted"]["steps"]
CRAFTED_PACKAGES = list(read_records(
    (VECTORS / "disputes" / DISPUTES["crafted"]["packages"]).read_bytes()))


@pytest.mark.parametrize("step", CRAFTED, ids=[s["name"] for s in CRAFTED])
def test_crafted_package(step: dict[str, Any]) -> None:
    package = CRAFTED_PACKAGES[step["record"]]
    assert hashlib.sha256(package).hexdigest() == step["package_sha256"]
    assert verdict(package, step["committed_state_hash"]) == expected(step)


def test_crafted_records_are_all_described() -> None:
    assert [s["record"] for s in CRAFTED] == list(range(len(CRAFTED_PACKAGES)))


@pytest.mark.parametrize("v", FILES["transcripts"], ids=[v["name"] for v in FILES["transcripts"]])
def test_transcript_file(v: dict[str, Any]) -> None:
    got = replay(bytes.fromhex(v["file"]))
    x = got.violation
    assert {"valid": got.valid, "complete": got.complete, "frames": got.frames,
            "violation": None if x is None else {
                "rule": x.code, "seat": x.seat, "frame": x.frame,
                "authenticated": x.authenticated}} == {
        k: v[k] for k in ("valid", "complete", "frames", "violation")}


@pytest.mark.parametrize("v", FILES["matches"], ids=[v["name"] for v in FILES["matches"]])
def test_match_file(v: dict[str, Any]) -> None:
    got = verify_match(bytes.fromhex(v["file"]))
    x = got.violation
    assert {"valid": got.valid, "broken_round": got.broken_round,
            "violation": None if x is None else {
                "rule": x.code, "seat": x.seat, "frame": x.frame,
                "authenticated": x.authenticated}} == {
        k: v[k] for k in ("valid", "broken_round", "violation")}


@pytest.mark.slow
def test_dispute_vectors_are_reproducible_from_the_generator() -> None:
    """Opt-in (about 40 s): the crafted packages are rebuilt from seeded games."""
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_disputes.py"), "--check"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
