"""The BLS suite's dispute vectors as both step programs' tests read them
(tests/test_chain_step.py on CLVM, tests/test_chain_evm_step.py on the EVM): the packages
of disputes/, each step's stated verdict, and the golden transcripts' rule sets."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from conftest import vector_dir

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from gen_disputes import read_records

from protocol.suite import suite
from protocol.transcript import Transcript

S = suite("bls12381g1-sha256", 3)
DISPUTES = vector_dir(S) / "disputes"
INDEX = json.loads((DISPUTES / "index.json").read_text())
CHAIN = json.loads((DISPUTES / "chain.json").read_text())
#: What a vector says of its package rather than of the verdict.
STATED = ("name", "record", "index", "package_sha256", "committed_state_hash", "note")
#: The golden games whose package bytes are shipped.
SAMPLE = {"valid", "illegal-placement", "equivocation"}


def records(name: str) -> list[bytes]:
    return list(read_records((DISPUTES / name).read_bytes()))


def expected(step: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in step.items() if k not in STATED}


def committed(step: dict[str, Any]) -> bytes | None:
    h = step["committed_state_hash"]
    return None if h is None else bytes.fromhex(h)


def is_bram(package: bytes) -> bool:
    from protocol.canonical import unpack
    from protocol.errors import DealerlessError
    from protocol.setup import GameSetup

    try:
        return GameSetup.decode(unpack(package, 1 << 21)[2]).rules == "bram"
    except (DealerlessError, IndexError, TypeError):
        return True   # an unusable package: every referee must refuse it alike


def transcript(name: str) -> bytes:
    path: Path = vector_dir(S) / "transcripts" / INDEX["golden"][name]["transcript"]
    return path.read_bytes()


RULES = {name: Transcript.decode(transcript(name)).setup.rules for name in INDEX["golden"]}
