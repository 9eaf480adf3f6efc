"""tools/bot_study.py: the commands behind the bot figures of spec/rules/bram.md 11.

What a person relies on: the komi table printed is the one the tournament code gives
for the same deals, the baseline bot really is the code of the named revision, and the
pass rate counts what it says.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "bot_study.py"


def run(*args: str) -> str:
    proc = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_komi_table_has_a_column_a_population_and_a_row_a_komi() -> None:
    out = run("komi-table", "--deals", "30", "--strong-deals", "2", "--budgets", "300",
              "--seed", "4")
    lines = out.splitlines()
    assert lines[0] == ("| komi (pips) | random (30 deals) | greedy (30 deals) | strong, 300 "
                        "nodes (2 deals) |")
    assert [line.split(" |")[0] for line in lines[2:9]] == [
        "| 0", "| 0.5", "| 1", "| 1.5", "| 2", "| 2.5", "| 3"]
    assert "**" in lines[5]  # the default komi, 1.5 pips
    assert sum(line.startswith("- ") and "95% interval contains 50% at komi" in line
               for line in lines) == 3

    from peers.bots.tournament import Spec, komi_sweep, run_pairs

    spec = Spec(("greedy", "greedy"), 3, 4, (None, None), None, "first")
    rows = {r["komi_halves"]: r["first_player_win_rate"]
            for r in komi_sweep(run_pairs(spec, 30), 3)["rows"]}
    cell = lines[2].split(" | ")[2]
    assert cell == f"{rows[0]['mean']:.2%} ({rows[0]['low']:.2%} .. {rows[0]['high']:.2%})"
    assert "(of -18.5 .. 21.5 pips)" in out


def test_versus_a_revision_plays_the_old_code() -> None:
    out = run("versus", "--deals", "1", "--nodes", "300", "--base-nodes", "300")
    assert "B: the strong bot at 93efcaa" in out
    assert "1 deals x 2 games (design seats; deals 0 .. 0)" in out
    assert "A's choices searched to the end (as A reports it):" in out
    assert "B's choices searched to the end (as B reports it):" in out


def test_versus_runs_split_and_resumed_report_as_one(tmp_path: Path) -> None:
    """A 2,000-deal study runs in shards that can stop and resume: every deal is one
    line, a deal already written is not played again, `report` joins the shards."""
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    common = ("versus", "--nodes", "200", "--base-nodes", "200", "--baseline", "current")
    run(*common, "--deals", "1", "--first", "0", "--out", str(first))
    whole = run(*common, "--deals", "2", "--first", "0", "--out", str(first))
    assert len(first.read_text().splitlines()) == 2  # deal 0 kept, deal 1 added
    run(*common, "--deals", "1", "--first", "2", "--out", str(second))
    joined = run("report", str(first), str(second))
    assert "3 deals x 2 games (design seats; deals 0 .. 2)" in joined
    assert "2 deals x 2 games (design seats; deals 0 .. 1)" in whole
    alone = run(*common, "--deals", "3", "--first", "0")
    assert alone.splitlines()[2] == joined.splitlines()[2]  # the same win rate and margin
    other = ("--deals", "1", "--first", "3", "--komi", "0", "--out")
    refused = fails(*common, *other, str(second))
    assert f"{second} holds deals played with another setting; give another --out" in refused
    run(*common, *other, str(tmp_path / "c.jsonl"))
    assert "the records mix 2 settings" in fails("report", str(first), str(tmp_path / "c.jsonl"))
    assert "deal 0 is in the files twice" in fails("report", str(first), str(first))
    # A run killed while writing its last line: `report` skips it, a resumed run replays it.
    lines = first.read_text().splitlines(keepends=True)
    first.write_text(lines[0] + lines[1][:40])
    assert "1 deals x 2 games (design seats; deals 0 .. 0)" in run("report", str(first))
    assert first.read_text() == lines[0] + lines[1][:40]
    again = run(*common, "--deals", "2", "--first", "0", "--out", str(first))
    assert again.splitlines()[2] == whole.splitlines()[2]
    assert first.read_text().count("\n") == 2


def test_versus_refuses_a_baseline_that_cannot_read_the_cpu_clock() -> None:
    out = fails("versus", "--deals", "1", "--base-think-ms", "10", "--cpu-clock")
    assert "the strong bot at 93efcaa reads its thinking time on the wall only" in out


def fails(*args: str) -> str:
    proc = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 1, proc.stdout
    return proc.stderr


def test_pass_rate_counts_passes_made_holding_a_play() -> None:
    out = run("pass-rate", "--deals", "2", "--nodes", "300")
    assert "choices with no pass just made, holding a play:" in out
    assert "rate " in out and "95% CI" in out
