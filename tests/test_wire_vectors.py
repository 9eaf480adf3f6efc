"""The wire-level vectors (spec/vectors/{ed25519,msgpack,setup}.json) against the code.

Each vector's expected result must be what the reference code reaches now; the
generator check catches a vector file that fell behind the code.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import VECTOR_SUITES, load_vectors, outcome, suite_id

from protocol.canonical import unpack
from protocol.frames import signed_message
from protocol.identity import verify_signature
from protocol.setup import GameSetup
from protocol.suite import Suite

ROOT = Path(__file__).resolve().parent.parent


def _names(vectors: list[dict[str, Any]]) -> list[str]:
    return [v["name"] for v in vectors]


ED25519 = load_vectors("ed25519")["vectors"]
MSGPACK = load_vectors("msgpack")["vectors"]
SETUP = load_vectors("setup")["vectors"]


@pytest.mark.parametrize("v", ED25519, ids=_names(ED25519))
def test_ed25519(v: dict[str, Any]) -> None:
    got = outcome(lambda: verify_signature(bytes.fromhex(v["key"]), bytes.fromhex(v["message"]),
                                           bytes.fromhex(v["signature"])))
    assert got == v["expected"]


def test_ed25519_messages_carry_the_frame_signing_prefix() -> None:
    for v in ED25519:
        message = bytes.fromhex(v["message"])
        assert message.startswith(signed_message(2, b""))


@pytest.mark.parametrize("v", MSGPACK, ids=_names(MSGPACK))
def test_msgpack(v: dict[str, Any]) -> None:
    assert outcome(lambda: unpack(bytes.fromhex(v["data"]), v["max_size"])) == v["expected"]


@pytest.mark.parametrize("v", SETUP, ids=_names(SETUP))
def test_setup(v: dict[str, Any]) -> None:
    data = bytes.fromhex(v["setup"])
    assert outcome(lambda: GameSetup.decode(data)) == v["expected"]
    if v["expected"] == "ok":
        assert GameSetup.decode(data).game_id.hex() == v["game_id"]


@pytest.mark.parametrize("suite", VECTOR_SUITES, ids=suite_id)
def test_wire_vectors_are_reproducible_from_the_generator(suite: Suite) -> None:
    suite_args = [] if suite.version == 2 else ["--suite", suite.name]
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_wire_vectors.py"),
                           "--check", *suite_args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_ed25519_reading_is_named_in_the_spec_and_caught() -> None:
    """8.3 "Readings that differ": each `accepted_by` name is a row of that table, and
    each row is caught (accepted by it, refused by 8.3) by some vector."""
    wire = (ROOT / "spec" / "08-wire.md").read_text()
    table = set(re.findall(r"^  \| `([a-z0-9-]+)` \|", wire, re.M))
    caught = {r for v in ED25519 for r in v["accepted_by"]}
    assert table and caught == table
    assert all(v["expected"] != "ok" for v in ED25519 if v["accepted_by"])


#: Maps whose keys are data (names, seats, positions), and maps the rule sets and 11.1
#: define (state JSON, parameters, outcomes); README points to where.
_NOT_FIELDS = {"tags", "transcripts", "golden", "sets", "terminals", "at", "money", "garnets",
               "status", "dur", "state", "before", "after", "params", "outcome", "decided"}


def _field_names(obj: Any, parent: str = "") -> set[str]:
    found: set[str] = set()
    if isinstance(obj, dict):
        for key, value in obj.items():
            if parent in _NOT_FIELDS:
                continue
            if re.fullmatch(r"[a-z][a-z0-9_]*", key):
                found.add(key)
            found |= _field_names(value, key)
    elif isinstance(obj, list):
        for item in obj:
            found |= _field_names(item, parent)
    return found


def test_every_field_of_every_vector_file_is_documented() -> None:
    vectors = ROOT / "spec" / "vectors"
    readme = (vectors / "README.md").read_text()
    documented = {part for name in re.findall(r"`([A-Za-z_0-9.]+)`", readme)
                  for part in name.split(".")}
    missing = {str(path.relative_to(vectors)): sorted(_field_names(json.loads(
        path.read_text())) - documented) for path in sorted(vectors.rglob("*.json"))}
    assert not {k: v for k, v in missing.items() if v}
