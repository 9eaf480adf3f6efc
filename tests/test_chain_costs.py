"""spec/09-bench.md 9.3: the measured CLVM cost and EVM gas of each step's proofs are the
output of tools/gen_chain_costs.py, figure for figure.

The check replays the generator: two seeded games of bls12381g1-sha256 and two whole-set
shuffles, every proof and signature run in chia_rs and in py-evm's Prague fork. The whole
check takes about 40 s of CPU, most of it the eight-seat game, so by default only Bram's
table is measured again (`--only bram`) and the whole block is checked under -m slow.
Both need the `[chain]` extra (chia_rs, clvm_tools_rs, py-evm, vyper) and are skipped
without it; the tests of the generator's own comparison need none of it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_chain_costs  # noqa: E402

from peers.chain import INSTALL, missing_tools  # noqa: E402

MISSING = missing_tools()
needs_chain = pytest.mark.skipif(
    bool(MISSING), reason=f"needs the [chain] extra ({', '.join(MISSING)} missing): {INSTALL}")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "gen_chain_costs.py"), *args],
                          capture_output=True, text=True)


@needs_chain
def test_bram_s_table_in_the_spec_is_measured_again() -> None:
    """The quick check: Bram's seven rows, measured again, are in the block as written."""
    proc = run("--check", "--only", "bram")
    assert proc.returncode == 0, proc.stderr


@needs_chain
@pytest.mark.slow
def test_the_block_in_the_spec_is_the_generators_output() -> None:
    proc = run("--check")
    assert proc.returncode == 0, proc.stderr


def test_the_spec_names_the_command_beside_the_block_inside_9_3() -> None:
    spec = (ROOT / "spec" / "09-bench.md").read_text()
    section = spec[spec.index("## 9.3"):spec.index("## 9.4")]
    assert section.count(gen_chain_costs.BEGIN) == section.count(gen_chain_costs.END) == 1
    assert f"`{gen_chain_costs.COMMAND}`" in section
    assert "tests/test_chain_costs.py" in section


def test_a_changed_figure_is_reported_with_its_line() -> None:
    text = f"prose\n{gen_chain_costs.BEGIN}\nold\n{gen_chain_costs.END}\nmore\n"
    block = "| KEY | 8,621,001 |\n"
    new = gen_chain_costs.replace_block(text, block)
    assert new == f"prose\n{gen_chain_costs.BEGIN}\n{block}{gen_chain_costs.END}\nmore\n"
    assert gen_chain_costs.stale(new, new) is None
    diff = gen_chain_costs.stale(new, new.replace("8,621,001", "8,621,002"))
    assert diff is not None
    assert "-| KEY | 8,621,001 |" in diff and "+| KEY | 8,621,002 |" in diff


def test_a_spec_without_the_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="chain-costs:begin"):
        gen_chain_costs.replace_block("no block here\n", "x\n")
