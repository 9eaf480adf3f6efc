"""The single-step check (spec/11-verify.md 11.4) inside Chia's CLVM agrees with the
reference on every dispute vector of bls12381g1-sha256 for Bram's rules: clsp/step.clsp,
given a package's bytes and the committed state hash, gives check_step's verdict (valid
with the next state's hash, or the rule, seat, frame and "authenticated" flag; for an
unusable package its code), and says it judges no other rule set.

The vectors: the crafted packages of disputes/index.json, the chain negatives of
disputes/chain.json (tools/gen_chain_vectors.py: refused elements and scalars in signed
frames, a setup and a state, packages cut short or with an item too many), and every
frame of the golden transcripts, each package rebuilt from its transcript (by default
the games whose packages are shipped; every game under -m slow). Their verdicts are
check_step's (tests/test_disputes.py holds the files to it); `dealerless check-step --vm
clvm` (and `--vm evm`, whose contracts tests/test_chain_evm_step.py holds to the same
vectors) prints the program's verdict, and its JSON is compared with the reference's here.

Needs the `[chain]` extra; skipped without it.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import skip_without_chain

skip_without_chain()

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from chain_disputes import (  # noqa: E402
    CHAIN,
    INDEX,
    RULES,
    SAMPLE,
    committed,
    expected,
    is_bram,
    records,
    transcript,
)

from peers.chain.clvm import BLOCK_COST_LIMIT  # noqa: E402
from peers.chain.clvm_step import check_step_clvm  # noqa: E402
from peers.chain.evm import TX_GAS_CAP  # noqa: E402
from protocol.verifier import dispute_packages  # noqa: E402


def judged(package: bytes, step: dict[str, Any]) -> dict[str, Any]:
    got = check_step_clvm(package, committed(step))
    assert got.cost.total <= BLOCK_COST_LIMIT
    return got.as_dict()


CRAFTED = records(INDEX["crafted"]["packages"])


@pytest.mark.parametrize("step", [pytest.param(s, id=s["name"])
                                  for s in INDEX["crafted"]["steps"]])
def test_crafted_package(step: dict[str, Any]) -> None:
    package = CRAFTED[step["record"]]
    assert hashlib.sha256(package).hexdigest() == step["package_sha256"]
    want = expected(step) if is_bram(package) else {"supported": False}
    assert judged(package, step) == want


CHAIN_PACKAGES = records(CHAIN["packages"])


@pytest.mark.parametrize("step", [pytest.param(s, id=s["name"]) for s in CHAIN["steps"]])
def test_chain_negative(step: dict[str, Any]) -> None:
    package = CHAIN_PACKAGES[step["record"]]
    assert hashlib.sha256(package).hexdigest() == step["package_sha256"]
    assert judged(package, step) == expected(step)


def test_chain_vectors_are_reproducible() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_chain_vectors.py"),
                           "--check"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr



@pytest.mark.parametrize("name", [
    pytest.param(n, marks=[] if n in SAMPLE else [pytest.mark.slow])
    for n in sorted(INDEX["golden"]) if RULES[n] == "bram"])
def test_golden_game(name: str) -> None:
    """Every frame of the game, its package rebuilt from the transcript as 11.3 says."""
    steps = INDEX["golden"][name]["steps"]
    for step, package in zip(steps, dispute_packages(transcript(name)), strict=True):
        assert judged(package, step) == expected(step), step["index"]


def test_every_other_rule_set_is_refused_as_unsupported() -> None:
    """One package of each other rule set: the program judges Bram's games alone."""
    seen: set[str] = set()
    for name, rules in sorted(RULES.items()):
        if rules == "bram" or rules in seen:
            continue
        seen.add(rules)
        package = next(iter(dispute_packages(transcript(name))))
        assert check_step_clvm(package).as_dict() == {"supported": False}, name
    assert seen == {"mexican-train", "mineshaft", "mined-games"}


def _cli(*args: str) -> tuple[int, Any]:
    proc = subprocess.run([sys.executable, "-m", "peers.cli", "check-step", *args, "--json"],
                          capture_output=True, text=True, check=False)
    return proc.returncode, json.loads(proc.stdout) if proc.stdout else proc.stderr


@pytest.mark.parametrize("vm", ["clvm", pytest.param("evm", marks=pytest.mark.slow)])
@pytest.mark.parametrize("which", ["illegal-placement.packages", "crafted"])
def test_the_command_agrees_with_the_reference(which: str, vm: str, tmp_path: Path) -> None:
    """`dealerless check-step --vm clvm|evm` and `dealerless check-step` on one file: the
    last step of a game with a violation, and a crafted package that is not usable. (By
    default the EVM's command is tested in tests/test_chain_evm_step.py, whose process
    has compiled the contracts already.)"""
    if which == "crafted":
        step = next(s for s in INDEX["crafted"]["steps"] if s["name"] == "package of six items")
        package = CRAFTED[step["record"]]
    else:
        step = INDEX["golden"]["illegal-placement"]["steps"][-1]
        package = records(which)[-1]
    path = tmp_path / "step.pkg"
    path.write_bytes(package)
    extra = [] if committed(step) is None else ["--state-hash", step["committed_state_hash"]]
    code, ref = _cli(str(path), *extra)
    vm_code, got = _cli(str(path), "--vm", vm, *extra)
    assert vm_code == code == 1
    if isinstance(ref, str):    # unusable: the reference says so on stderr
        assert got["usable"] is False and got["code"] in ref
    else:
        assert got["valid"] is False
        assert (got["rule"], got["seat"], got["frame"], got["authenticated"]) == (
            ref["violation"]["rule"], ref["violation"]["seat"], ref["violation"]["frame"],
            ref["violation"]["authenticated"])
    cost = got["cost"]
    assert got["vm"] == vm and (0 < cost["total"] <= BLOCK_COST_LIMIT if vm == "clvm"
                                else 0 < cost["transaction"] <= TX_GAS_CAP)
