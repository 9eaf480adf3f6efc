"""The single-step vectors (disputes/ of every vector set, spec/11-verify.md 11.3, 11.4).

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
from conftest import VECTOR_SUITES, load_vectors, suite_id, vector_dir

from protocol.errors import LocalError
from protocol.match import verify_match
from protocol.transcript import Transcript
from protocol.verifier import dispute_package, dispute_packages, replay

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from gen_disputes import read_records, verdict_json  # noqa: E402


class DisputeSet:
    """One vector set's disputes/ and the golden transcripts they are built from."""

    def __init__(self, suite: Any) -> None:
        self.suite, self.dir = suite, vector_dir(suite)
        self.index: dict[str, Any] = json.loads((self.dir / "disputes" / "index.json")
                                                .read_text())
        self.golden: dict[str, Any] = json.loads(
            (self.dir / "transcripts" / "index.json").read_text())["transcripts"]
        self.crafted = self.index["crafted"]["steps"]
        self.packages = list(read_records(
            (self.dir / "disputes" / self.index["crafted"]["packages"]).read_bytes()))


SETS = [DisputeSet(s) for s in VECTOR_SUITES]
IDS = [suite_id(s) for s in VECTOR_SUITES]


def verdict(package: bytes, committed: str | None) -> dict[str, Any]:
    return verdict_json(package, None if committed is None else bytes.fromhex(committed))


def expected(step: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in step.items()
            if k not in ("index", "record", "name", "package_sha256", "committed_state_hash",
                         "note")}


@pytest.mark.parametrize("V", SETS, ids=IDS)
def test_every_golden_transcript_has_dispute_vectors(V: DisputeSet) -> None:
    """All but protocol-1, which is refused before its frames (spec/README.md "Versioning")."""
    assert sorted(V.index["golden"]) == sorted(set(V.golden) - {"protocol-1"})


#: The games of each suite's set checked by default (those whose packages are shipped,
#: and a Mined Games choice); every other game of a suite's set under -m slow.
SUITE_SAMPLE = {"valid", "illegal-placement", "equivocation", "mined-choice"}
GOLDEN = [pytest.param(V, n, id=f"{i}: {n}", marks=[] if V.suite.version == 2
                       or n in SUITE_SAMPLE else [pytest.mark.slow])
          for V, i in zip(SETS, IDS, strict=True) for n in sorted(V.index["golden"])]


@pytest.mark.parametrize(("V", "name"), GOLDEN)
def test_golden_packages_and_verdicts_match_the_vectors(V: DisputeSet, name: str) -> None:
    """Every package's hash and every step's verdict: every game of the dealerless/2 set,
    and of each suite's set the sample above (all of them under -m slow)."""
    check_golden(V, name)


def check_golden(V: DisputeSet, name: str) -> None:
    vec = V.index["golden"][name]
    data = (V.dir / "transcripts" / vec["transcript"]).read_bytes()
    packages = list(dispute_packages(data))
    assert [hashlib.sha256(p).hexdigest() for p in packages] == [
        s["package_sha256"] for s in vec["steps"]]
    if vec["packages"]:
        assert list(read_records((V.dir / "disputes" / vec["packages"]).read_bytes())) \
            == packages
    for n in sorted({0, len(packages) // 2, len(packages) - 1}):  # the same bytes as alone
        assert packages[n] == dispute_package(data, n)
    if len(packages) < len(Transcript.decode(data).frames):  # no committed state beyond
        with pytest.raises(LocalError):
            dispute_package(data, len(packages))
    replayed = V.golden[name]["violation"]
    for step, package in zip(vec["steps"], packages, strict=True):
        got = verdict(package, step["committed_state_hash"])
        assert got == expected(step), step["index"]
        if replayed is not None and step["index"] == replayed["frame"]:
            # The violating frame: the replay's rule, seat, frame and blame.
            assert {k: got[k] for k in ("rule", "seat", "frame", "authenticated")} == {
                k: replayed[k] for k in ("rule", "seat", "frame", "authenticated")}
        elif replayed is None or step["index"] < replayed["frame"]:
            assert got["valid"], step["index"]


@pytest.mark.parametrize(("V", "step"), [pytest.param(V, s, id=f"{i}: {s['name']}")
                                         for V, i in zip(SETS, IDS, strict=True)
                                         for s in V.crafted])
def test_crafted_package(V: DisputeSet, step: dict[str, Any]) -> None:
    package = V.packages[step["record"]]
    assert hashlib.sha256(package).hexdigest() == step["package_sha256"]
    assert verdict(package, step["committed_state_hash"]) == expected(step)


@pytest.mark.parametrize("V", SETS, ids=IDS)
def test_crafted_records_are_all_described(V: DisputeSet) -> None:
    assert [s["record"] for s in V.crafted] == list(range(len(V.packages)))


def test_every_suite_meets_the_codes_of_the_dealerless_2_set() -> None:
    """The crafted searches replay seeded games, which deal otherwise in each suite: each
    set must still reach every code and verdict kind the dealerless/2 set reaches."""
    def kinds(V: DisputeSet) -> set[Any]:
        return {s.get("rule") or s.get("code") or "valid" for s in V.crafted}
    for V in SETS[1:]:
        assert kinds(SETS[0]) <= kinds(V), (suite_id(V.suite), kinds(SETS[0]) - kinds(V))


FILES = [(s, load_vectors("files", s)) for s in VECTOR_SUITES]


def each_file(part: str) -> list[Any]:
    return [pytest.param(v, id=f"{suite_id(s)}: {v['name']}") for s, f in FILES
            for v in f[part]]


@pytest.mark.parametrize("v", each_file("transcripts"))
def test_transcript_file(v: dict[str, Any]) -> None:
    got = replay(bytes.fromhex(v["file"]))
    x = got.violation
    assert {"valid": got.valid, "complete": got.complete, "frames": got.frames,
            "violation": None if x is None else {
                "rule": x.code, "seat": x.seat, "frame": x.frame,
                "authenticated": x.authenticated}} == {
        k: v[k] for k in ("valid", "complete", "frames", "violation")}


@pytest.mark.parametrize("v", each_file("matches"))
def test_match_file(v: dict[str, Any]) -> None:
    got = verify_match(bytes.fromhex(v["file"]))
    x = got.violation
    assert {"valid": got.valid, "broken_round": got.broken_round,
            "violation": None if x is None else {
                "rule": x.code, "seat": x.seat, "frame": x.frame,
                "authenticated": x.authenticated}} == {
        k: v[k] for k in ("valid", "broken_round", "violation")}


@pytest.mark.slow
@pytest.mark.parametrize("suite", VECTOR_SUITES, ids=IDS)
def test_dispute_vectors_are_reproducible_from_the_generator(suite: Any) -> None:
    """Opt-in (30 to 80 s a set): the crafted packages are rebuilt from seeded games."""
    suite_args = [] if suite.version == 2 else ["--suite", suite.name]
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_disputes.py"), "--check",
                           *suite_args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
