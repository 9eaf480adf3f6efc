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
    assert "1 deals x 2 games (design seats)" in out
    assert "A's choices searched to the end (as A reports it):" in out
    assert "B's choices searched to the end (as B reports it):" in out


def test_pass_rate_counts_passes_made_holding_a_play() -> None:
    out = run("pass-rate", "--deals", "2", "--nodes", "300")
    assert "choices with no pass just made, holding a play:" in out
    assert "rate " in out and "95% CI" in out
