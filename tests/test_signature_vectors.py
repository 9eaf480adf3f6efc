"""signatures.json of each suite's set holds for the reference code (spec/08-wire.md 8.3,
spec/02-group.md 2.6): every signature is reproduced and verifies under its frame key,
and every change is refused by Verify with the key check's own outcome."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import VECTOR_SUITES, load_vectors, outcome, suite_id, with_case

from protocol.frames import signed_message
from protocol.signature import SchnorrSigner
from protocol.suite import Suite
from protocol.tags import Tag
from protocol.version import frame_signature_prefix

ROOT = Path(__file__).resolve().parent.parent
SUITES = [s for s in VECTOR_SUITES if s.version >= 3]
SETS = [(s, load_vectors("signatures", s)) for s in SUITES]


def judge(s: Suite, vec: dict[str, Any]) -> dict[str, str]:
    key = bytes.fromhex(vec["key"])
    return {"expected": outcome(lambda: s.signer.verify(key, bytes.fromhex(vec["message"]),
                                                        bytes.fromhex(vec["signature"]))),
            "key_check": outcome(lambda: s.signer.check_key(key))}


@pytest.mark.parametrize(("s", "vec"), [pytest.param(s, v, id=f"{suite_id(s)}: {v['name']}")
                                        for s, vs in SETS for v in vs["positive"]])
def test_signatures_are_reproduced_and_verify(s: Suite, vec: dict[str, Any]) -> None:
    seed, message = bytes.fromhex(vec["seed"]), bytes.fromhex(vec["message"])
    assert message == signed_message(s.version, bytes.fromhex(vec["payload"]))
    assert message.startswith(frame_signature_prefix(s.version))
    assert s.signer.public_key(seed).hex() == vec["key"]
    assert s.signer.sign(seed, message, bytes.fromhex(vec["fresh"])).hex() == vec["signature"]
    assert judge(s, vec) == {"expected": "ok", "key_check": "ok"}
    if isinstance(s.signer, SchnorrSigner):   # 2.6: c || s with R = k*G, s = k + c*x
        x, k = int(vec["secret"]), int(vec["nonce"])
        sig = bytes.fromhex(vec["signature"])
        c, z = s.decode_scalar(sig[:32]), s.decode_scalar(sig[32:])
        assert x == s.hash_to_scalar(Tag.FRAME_KEY, seed)
        assert s.group.base_mul(k).data.hex() == vec["commitment"]
        assert c == s.hash_to_scalar(Tag.FRAME_SIGNATURE, bytes.fromhex(vec["key"]),
                                     bytes.fromhex(vec["commitment"]), message)
        assert z == (k + c * x) % s.order


@pytest.mark.parametrize(("s", "vec", "positives"), [
    pytest.param(s, v, vs["positive"], id=f"{suite_id(s)}: {v['name']}")
    for s, vs in SETS for v in vs["negative"]])
def test_changes_are_refused(s: Suite, vec: dict[str, Any], positives: list[Any]) -> None:
    got = judge(s, with_case(vec, positives))
    assert got == {"expected": vec["expected"], "key_check": vec["key_check"]}
    assert got["expected"] == "frame/bad-signature"


@pytest.mark.parametrize("s", SUITES, ids=suite_id)
def test_every_bad_key_encoding_is_met(s: Suite) -> None:
    codes = {v["key_check"] for t, vs in SETS if t is s for v in vs["negative"]}
    assert {"point/identity", "point/non-canonical", "point/not-on-curve", "point/length",
            "point/torsion"} <= codes


@pytest.mark.parametrize("s", SUITES, ids=suite_id)
def test_the_generator_reproduces_the_file(s: Suite) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_signature_vectors.py"),
                           "--suite", s.name, "--check"], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
