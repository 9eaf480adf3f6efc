"""The wire-level vectors (spec/vectors/{ed25519,msgpack,setup}.json) against the code.

Each vector's expected result must be what the reference code reaches now; the
generator check catches a vector file that fell behind the code.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import load_vectors

from protocol.canonical import unpack
from protocol.errors import DealerlessError
from protocol.frames import signed_message
from protocol.identity import verify_signature
from protocol.setup import GameSetup

ROOT = Path(__file__).resolve().parent.parent


def outcome(check: Callable[[], object]) -> str:
    try:
        check()
    except DealerlessError as exc:
        return exc.code
    return "ok"


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
        assert message.startswith(signed_message(b""))


@pytest.mark.parametrize("v", MSGPACK, ids=_names(MSGPACK))
def test_msgpack(v: dict[str, Any]) -> None:
    assert outcome(lambda: unpack(bytes.fromhex(v["data"]), v["max_size"])) == v["expected"]


@pytest.mark.parametrize("v", SETUP, ids=_names(SETUP))
def test_setup(v: dict[str, Any]) -> None:
    data = bytes.fromhex(v["setup"])
    assert outcome(lambda: GameSetup.decode(data)) == v["expected"]
    if v["expected"] == "ok":
        assert GameSetup.decode(data).game_id.hex() == v["game_id"]


def test_wire_vectors_are_reproducible_from_the_generator() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_wire_vectors.py"),
                           "--check"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
