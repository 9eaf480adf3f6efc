"""The single-step check (spec/11-verify.md 11.4) as EVM contracts agrees with the reference
on every dispute vector of bls12381g1-sha256 for Bram's rules: vy/step.vy and its stages,
compiled by Vyper and run on py-evm's Prague fork (EIP-2537), given the package's bytes as
calldata and the committed state hash, give check_step's verdict (valid with the next
state's hash, or the rule, seat, frame and "authenticated" flag; for an unusable package
its code), and say they judge no other rule set. tests/test_chain_step.py holds the CLVM
program to the same vectors.

The vectors: the crafted packages of disputes/index.json, the chain negatives of
disputes/chain.json, and every frame of the golden transcripts, each package rebuilt from
its transcript (every Bram game, under -m slow; a third of the crafted packages by
default). Beyond them,
against the reference itself: frames and evidence records longer than the stages hash in
their own memory (step_hash.vy), and, under -m slow, every frame of the sample games
without the committed hash (which makes the contracts decode each element of the state).
And what the design rests on: a wrong or missing decoding hint reverts, every stage lays
out the shared transient storage alike, every contract fits EIP-170, the constants are
the reference's. `-s` prints the gas of each step type (with the "valid" game).

Needs the `[chain]` extra; skipped without it.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import skip_without_chain

skip_without_chain()

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import gen_disputes  # noqa: E402
from chain_disputes import (  # noqa: E402
    CHAIN,
    INDEX,
    RULES,
    SAMPLE,
    S,
    committed,
    expected,
    is_bram,
    records,
    transcript,
)
from gen_disputes import verdict_json  # noqa: E402

from peers.chain import evm_step  # noqa: E402
from peers.chain.codes import VY_DIR  # noqa: E402
from peers.chain.errors import EvmRevert  # noqa: E402
from peers.chain.evm import BLOCK_GAS_LIMIT, TX_GAS_CAP  # noqa: E402
from peers.chain.evm_proofs import generator_encodings  # noqa: E402
from peers.chain.evm_step import check_step_evm  # noqa: E402
from peers.chain.hints import P, decoding_hint  # noqa: E402
from protocol.tiles import DOUBLE_SIX, tile_point  # noqa: E402
from protocol.verifier import dispute_packages  # noqa: E402

#: Every golden game runs under -m slow only: every code's case is in the crafted
#: and chain packages, and the whole valid game takes py-evm some 20 s.
DEFAULT: set[str] = set()


def judged(package: bytes, hash_: bytes | None) -> dict[str, Any]:
    got = check_step_evm(package, hash_)
    assert got.cost.transaction <= TX_GAS_CAP
    GAS[package] = got.cost.transaction
    return got.as_dict()


#: The transaction gas of each package judged (to print the step types' below).
GAS: dict[bytes, int] = {}
#: The step types of a Bram game, by the frame of the "valid" game that shows each.
STEP_TYPES = {"KEY": 1, "NONCE (the last: the deck)": 3, "SHUFFLE of 27": 5, "DEAL": 7,
              "MOVE with a tile": 8, "MOVE without (a pass)": 31, "REVEAL (the last)": 34}


CRAFTED = records(INDEX["crafted"]["packages"])


#: py-evm runs a step in about half a second, so by default a third of the crafted
#: packages is judged, and every unusable one; all of them under -m slow.
@pytest.mark.parametrize("step", [
    pytest.param(s, id=s["name"], marks=[] if not s["usable"] or s["record"] % 3 == 0
                 else [pytest.mark.slow])
    for s in INDEX["crafted"]["steps"]])
def test_crafted_package(step: dict[str, Any]) -> None:
    package = CRAFTED[step["record"]]
    assert hashlib.sha256(package).hexdigest() == step["package_sha256"]
    want = expected(step) if is_bram(package) else {"supported": False}
    assert judged(package, committed(step)) == want


CHAIN_PACKAGES = records(CHAIN["packages"])


@pytest.mark.parametrize("step", [pytest.param(s, id=s["name"]) for s in CHAIN["steps"]])
def test_chain_negative(step: dict[str, Any]) -> None:
    package = CHAIN_PACKAGES[step["record"]]
    assert hashlib.sha256(package).hexdigest() == step["package_sha256"]
    assert judged(package, committed(step)) == expected(step)


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=[] if n in DEFAULT else [pytest.mark.slow])
    for n in sorted(INDEX["golden"]) if RULES[n] == "bram"])
def test_golden_game(name: str) -> None:
    """Every frame of the game, its package rebuilt from the transcript as 11.3 says."""
    steps = INDEX["golden"][name]["steps"]
    packages = list(dispute_packages(transcript(name)))
    for step, package in zip(steps, packages, strict=True):
        assert judged(package, committed(step)) == expected(step), step["index"]
    if name == "valid":   # every step type fits EIP-7825's cap; `-s` prints the gas
        for what, index in STEP_TYPES.items():
            gas = GAS[packages[index]]
            print(f"{what}: {gas:,} transaction gas, {gas / TX_GAS_CAP:.1%} of 2^24, "
                  f"{gas / BLOCK_GAS_LIMIT:.1%} of 30M")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SAMPLE))
def test_golden_game_without_the_committed_hash(name: str) -> None:
    """The same frames with no committed hash: each state's elements are decoded (2.5),
    and a state hash mismatch is not evidence (11.4)."""
    for package in dispute_packages(transcript(name)):
        assert judged(package, None) == verdict_json(package, None)


def test_every_other_rule_set_is_refused_as_unsupported() -> None:
    """One package of each other rule set: the contracts judge Bram's games alone."""
    seen: set[str] = set()
    for name, rules in sorted(RULES.items()):
        if rules == "bram" or rules in seen:
            continue
        seen.add(rules)
        package = next(iter(dispute_packages(transcript(name))))
        assert check_step_evm(package).as_dict() == {"supported": False}, name
    assert seen == {"mexican-train", "mineshaft", "mined-games"}


@pytest.fixture
def crafter(monkeypatch: pytest.MonkeyPatch) -> Iterator[gen_disputes.Crafter]:
    """A seeded Bram table in the suite whose seats sign whatever a test makes."""
    monkeypatch.setattr(gen_disputes, "S", S)
    yield gen_disputes.Crafter("bram", {"komi_halves": 0}, ("greedy", "greedy"), 7)


def test_long_frames_and_records_are_hashed_by_step_hash(
        crafter: gen_disputes.Crafter) -> None:
    """A signed frame, and an evidence record, longer than the stages' own buffer (9 kB):
    their signatures are checked over SHA-256 computed by step_hash.vy."""
    mtype, (key, proof, commit) = crafter.body(0)
    good = crafter.frame(0, mtype, [key, proof, commit])
    long = crafter.frame(0, mtype, [key + bytes(20000), proof, commit])
    forged = long[:-64] + bytes(64)
    h = crafter.state.hash(crafter.game.rules, S)
    for package, hash_, rule in [(crafter.package(long), h, "schema/bytes"),
                                 (crafter.package(good, (long,)), h, "frame/equivocation"),
                                 (crafter.package(good, (forged,)), None,
                                  "transcript/bad-evidence")]:
        want = verdict_json(package, hash_)
        assert want["rule"] == rule
        assert judged(package, hash_) == want


def _valid(index: int) -> tuple[bytes, bytes]:
    step = INDEX["golden"]["valid"]["steps"][index]
    return records("valid.packages")[index], bytes.fromhex(step["committed_state_hash"])


def test_a_wrong_or_missing_hint_reverts() -> None:
    """The hint table is the sender's; it can withhold a verdict, never change one."""
    package, hash_ = _valid(8)   # a MOVE with an opening
    deployed = evm_step.deployment()
    data = evm_step.calldata(package, hash_)
    table = evm_step.HEAD + len(package)
    entries = data[table:]
    assert entries and len(entries) % evm_step.ENTRY == 0
    key = evm_step.ENTRY - evm_step.POINT
    for i in range(0, len(entries), evm_step.ENTRY):
        w = int.from_bytes(entries[i + key:i + evm_step.ENTRY], "big")
        assert w < P
    wrong = bytearray(data)
    for i in range(table, len(data), evm_step.ENTRY):   # every w + 1: no square root
        w = int.from_bytes(data[i + key:i + evm_step.ENTRY], "big")
        wrong[i + key:i + evm_step.ENTRY] = ((w + 1) % P).to_bytes(evm_step.POINT, "big")
    for tampered in (bytes(wrong), data[:table]):
        with pytest.raises(EvmRevert):
            deployed.harness.transact(deployed.step.address, tampered, "step.vy.judge")
    output, _ = deployed.harness.transact(deployed.step.address, data, "step.vy.judge")
    assert output[:32] == (2).to_bytes(32, "big")   # the verdict, as judged


@pytest.mark.slow
def test_the_stages_lay_out_the_shared_transient_storage_alike() -> None:
    layouts = evm_step.transient_layouts()
    first = next(iter(layouts.values()))
    assert all(layout == first for layout in layouts.values())


def test_every_contract_fits_eip_170() -> None:
    sizes = evm_step.deployment().code_sizes
    assert len(sizes) == 11 and max(sizes.values()) <= 24576, sizes


def test_the_constants_are_the_reference_s() -> None:
    """step_consts.vy's tile points and generator hints."""
    text = (VY_DIR / "step_consts.vy").read_text()

    def constant(name: str) -> bytes:
        found = re.search(rf'^{name}: constant\(Bytes\[\d+\]\) = x"([0-9a-f]+)"$', text, re.M)
        assert found is not None
        return bytes.fromhex(found.group(1))

    tiles = constant("TILES")
    for i, t in enumerate(DOUBLE_SIX.tiles):
        enc = bytes(tile_point(S, DOUBLE_SIX, t))
        x, y = int.from_bytes(tiles[96 * i:96 * i + 48], "big"), tiles[96 * i + 48:96 * i + 96]
        assert x == int.from_bytes(enc, "big") & ((1 << 381) - 1)
        y_int = int.from_bytes(y, "big")
        assert (y_int * y_int - x ** 3 - 4) % P == 0
        assert (y_int > (P - 1) // 2) == bool(enc[0] & 0x20)
    gens = constant("GEN_HINTS")
    assert gens == b"".join(decoding_hint(e).to_bytes(48, "big")
                            for e in generator_encodings()[:28])


def test_the_command_agrees_with_the_reference(tmp_path: Path) -> None:
    """`dealerless check-step --vm evm` and `dealerless check-step` on the last step of a
    game with a violation (here, where the contracts are compiled and kept already)."""
    import subprocess

    evm_step.deployment()
    step = INDEX["golden"]["illegal-placement"]["steps"][-1]
    path = tmp_path / "step.pkg"
    path.write_bytes(records("illegal-placement.packages")[-1])
    runs = [subprocess.run([sys.executable, "-m", "peers.cli", "check-step", str(path),
                            "--state-hash", step["committed_state_hash"], "--json", *vm],
                           capture_output=True, text=True, check=False)
            for vm in ([], ["--vm", "evm"])]
    assert [r.returncode for r in runs] == [1, 1]
    ref, got = (json.loads(r.stdout) for r in runs)
    assert (got["rule"], got["seat"], got["frame"], got["authenticated"]) == tuple(
        ref["violation"][k] for k in ("rule", "seat", "frame", "authenticated"))
    assert got["vm"] == "evm" and 0 < got["cost"]["transaction"] <= TX_GAS_CAP
