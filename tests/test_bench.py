"""`dealerless bench` reports every figure spec/09-bench.md promises (no speed is asserted)."""

from __future__ import annotations

import json

import pytest

from peers.bench.seal import STEPS as SEAL_STEPS
from peers.cli.main import main


def test_bench_json_has_the_promised_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--reps", "1", "--sizes", "28", "--seats", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["op_costs_us"]) == {"var", "base", "add", "valid", "h2p", "sig"}
    shuffle = report["shuffle"]["28"]
    for step in ("shuffle", "prove", "verify"):
        assert shuffle[step]["median_ms"] > 0 and shuffle[step]["floor_ms"] > 0
        assert shuffle[step]["ratio"] == pytest.approx(
            shuffle[step]["median_ms"] / shuffle[step]["floor_ms"])
    # Operation counts follow spec/07-shuffle.md 7.7 for N = 28.
    assert shuffle["prove"]["ops"]["base"] == 3 * 28 + 4
    assert shuffle["prove"]["ops"]["var"] == 5 * 28 + 1
    assert shuffle["verify"]["ops"]["var"] == 8 * 28 + 7
    assert shuffle["proof_bytes"] == 128 * 28 + 160
    cannot = report["cannot_play"]
    assert report["floor_ratio_max"] == max(
        *(s["ratio"] for s in report["dleq"].values()),
        shuffle["prove"]["ratio"], shuffle["verify"]["ratio"],
        cannot["prove"]["ratio"], cannot["verify"]["ratio"])
    # The cannot-play proof (spec/06-proofs.md 6.5.7): h = 15, f = 76 on double-twelve.
    assert (cannot["set"], cannot["hand"], cannot["forbidden"]) == ("double-twelve", 15, 76)
    assert cannot["proof_bytes"] == 32 * (15 + 76 + 3)
    assert cannot["prove"]["ops"]["var"] == 4 * 15 + 2 * 76
    assert cannot["prove"]["ops"]["base"] == 2
    assert cannot["verify"]["ops"]["var"] == 3 * 15 + 2 * 76 + 1
    assert cannot["verify"]["ops"]["base"] == 1
    assert cannot["verify"]["ops"]["valid"] == 15 + 76
    var_s = cannot["op_costs_us"]["var"] / 1e6
    for step in ("prove", "verify"):
        assert cannot[step]["median_ms"] > 0 and cannot[step]["floor_ms"] > 0
        assert cannot[step]["ratio"] == pytest.approx(
            cannot[step]["median_ms"] / cannot[step]["floor_ms"])
        assert report["cannot_play_V"][step] == cannot[step]["V"] == pytest.approx(
            cannot[step]["median_ms"] / 1e3 / var_s)
    assert report["cannot_play_floor_ratio"] == max(cannot["prove"]["ratio"],
                                                    cannot["verify"]["ratio"])
    assert set(report["shuffle_V_per_tile"]) == {"28"}
    # Sealed commitments (spec/06-proofs.md 6.6.9), m recipients, threshold t.
    for m, rep in report["seal"].items():
        m_, t = int(m), int(m) // 2 + 1
        assert (rep["m"], rep["t"]) == (m_, t) and m_ in (4, 7)
        counts = {name: (rep[name]["ops"]["var"], rep[name]["ops"]["base"],
                         rep[name]["ops"]["valid"]) for name in rep if name in SEAL_STEPS}
        assert counts == {"deal": (t + 3 * m_, 1, 0), "verify": (4 * m_, 0, t + m_),
                          "open": (1, 1, 0), "share": (2, 2, 0), "verify_share": (3, 1, 1),
                          "combine": (t, 0, 0)}
        for name in SEAL_STEPS:
            assert rep[name]["ratio"] == pytest.approx(rep[name]["median_ms"]
                                                       / rep[name]["floor_ms"])
    assert report["seal_floor_ratio"] == max(rep[name]["ratio"] for rep in
                                             report["seal"].values() for name in SEAL_STEPS)
    # The groups of the coming suites (spec/02-group.md 2.5), each operation in V.
    assert set(report["group_costs_V"]) == {"edwards25519", "ristretto255", "bls12381g1"}
    for row in report["group_costs_V"].values():
        assert set(row) == {"mul", "base_mul", "add", "decode", "hash", "msm_term"}
        assert all(v > 0 for v in row.values())
    assert report["group_V_us"] > 0 and report["group_msm_terms"] == 182
    # Every suite against its own floor (spec/09-bench.md): the same counts, its own costs.
    assert set(report["suites"]) == {"edwards25519-sha512", "ristretto255-sha512",
                                     "bls12381g1-sha256"}
    for rep in report["suites"].values():
        steps = [rep["cannot_play"][step] for step in ("prove", "verify")]
        steps += [rep["shuffle"]["28"][step] for step in ("prove", "verify")]
        steps += rep["dleq"].values()            # one share, and a DEAL's batch (6.3.1)
        assert set(rep["dleq"]) == {"prove", "verify", "deal_prove", "deal_verify"}
        assert rep["floor_ratio_max"] == max(s["ratio"] for s in steps)
        assert set(rep["shuffle_V_per_tile"]) == {"28"}
        ops = rep["shuffle"]["28"]["verify"]["ops"]  # 7.7: the sums of N and the 7.5.1 check
        assert ops["var"] + ops["msm_terms"] == 8 * 28 + 8  # are MSMs where the library has
        assert ops["base"] == 5                                  # them (dealerless/3)
        deal = rep["dleq"]["deal_verify"]["ops"]         # 6.3.1: an MSM of 2n terms, and
        assert deal["var"] + deal["msm_terms"] == 2 * 13 + 1 and deal["base"] == 1  # c*Y
        assert set(rep["cannot_play"]["op_costs_us"]) == {"var", "base", "add", "valid", "h2p",
                                                          "sig", "V"}
    game = report["game"]
    assert game["frames"] > 20 and game["transcript_bytes"] > 10_000
    assert report["game_verify_floor_ratio"] == game["verify"]["ratio"]
    table = report["table"]
    assert (table["rules"], table["seats"], table["tiles"]) == ("mexican-train", 3, 91)
    assert table["setup"]["ops"]["var"] > 0 and table["round_verify"]["ops"]["sig"] > 0
    assert table["frames"] > 3 * 4 and table["transcript_bytes"] > 50_000
    assert report["table_setup_ms"] == table["setup"]["median_ms"]
    assert report["table_verify_floor_ratio"] == table["round_verify"]["ratio"]


def test_bench_table_and_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--reps", "1", "--sizes", "28", "--no-game"]) == 0
    out = capsys.readouterr().out
    assert "floor_ratio_max" in out and "shuffle_V_per_tile" in out
    assert "cannot_play_V" in out and "cannot play (double-twelve, hand 15, forbidden 76" in out
    assert "sealed commitments" in out and "seal_floor_ratio" in out
    assert "groups of the coming suites" in out and "ristretto255" in out
    assert main(["bench", "--sizes", "30"]) == 2


def test_the_per_step_cost_table_of_the_spec_matches_the_code() -> None:
    """spec/09-bench.md 9.3 is generated from counted operations; it moves with the code."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, str(root / "tools" / "gen_costs.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
