"""`dealerless tournament`: duplicate deals between bots on the rules alone.

What a person sees: the command's real output (text or one JSON object), its usage
errors, and figures that follow from the games: a duplicate pair of deterministic
equal bots is an exact tie, and rescoring games at another komi gives what playing
them at that komi gives when the bots ignore komi.
"""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys

import pytest

from peers.bots.registry import make_bot
from peers.bots.tournament import (
    Spec,
    deal,
    first_player_result,
    play,
    render,
    run_pairs,
    summarize,
)
from peers.cli.main import main
from protocol.rules.bram_state import START_TILE, TILE_SET

CLI = [sys.executable, "-m", "peers.cli"]


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def test_the_command_prints_win_rate_margin_and_intervals() -> None:
    """Without --komi, the rules' default komi (spec/rules/bram.md D15)."""
    proc = run(["tournament", "--rules", "bram", "--bots", "strong,greedy", "--hands", "4",
                "--nodes", "1500"])
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "strong vs greedy: 4 deals x 2 games (design seats), komi 1.5 pips" in text
    assert ("design seats: each deal played twice, the bots swapped between the seats, the "
            "same seat moving first; every figure below is over this design") in text
    assert "population: strong (1,500 nodes a move) against greedy" in text
    assert "rules only: no keys, shuffles, proofs or transcripts" in text
    assert "strong win rate" in text and "95% CI" in text and "draws count half" in text
    assert "first player win rate" in text
    # No progress bar without a terminal: at most plain lines, on a slow machine.
    assert all(line.startswith("dealerless: tournament strong vs greedy: ")
               for line in proc.stderr.splitlines()), proc.stderr


def test_json_is_one_object_with_the_figures() -> None:
    proc = run(["tournament", "--bots", "greedy,greedy", "--hands", "6", "--komi", "1.5",
                "--seed", "4", "--json"])
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["deals"] == 6 and result["games"] == 12 and result["komi_halves"] == 3
    assert set(result["a"]) == {"win_rate", "margin_halves", "wins", "draws"}
    assert set(result["a"]["win_rate"]) == {"mean", "low", "high"}
    assert {"first_player", "komi_sweep", "ci_method", "engine", "ties"} <= set(result)
    assert result["design"]["name"] == "seats"
    assert result["population"] == "greedy in both seats"
    # A deterministic bot against itself: each deal's two games mirror each other.
    assert result["a"]["win_rate"] == {"mean": 0.5, "low": 0.5, "high": 0.5}
    assert result["a"]["margin_halves"]["mean"] == 0


@pytest.mark.parametrize(("args", "phrase"), [
    (["--hands", "0"], "argument --hands: '0': must be at least 1"),
    (["--hands", "x"], "argument --hands: 'x' is not a whole number"),
    (["--jobs", "0"], "argument --jobs: '0': must be at least 1"),
    (["--bots", "strong,chess"], "unknown bot 'chess'"),
    (["--bots", "strong"], "--bots takes two bot names"),
    (["--rules", "mexican-train"], "only bram has tournaments, not 'mexican-train'"),
    (["--rules", "chess"], "only bram has tournaments, not 'chess' (no such rules)"),
    (["--nodes", "0"], "--nodes: '0': must be at least 1"),
    (["--bots", "greedy,random", "--nodes", "100"], "--nodes is for the strong bot"),
    (["--bots", "strong,greedy", "--nodes", "100,200"], "two when both do"),
    (["--nodes", "100", "--think-ms", "5"], "--nodes or --think-ms, not both"),
    (["--think-ms", "0"], "milliseconds must be above 0"),
    (["--bots", "greedy,random", "--think-ms", "5"], "--think-ms is for the strong bot"),
    (["--komi", "0.3"], "komi is a whole or half number of pips"),
    (["--design", "rows"], "argument --design: invalid choice: 'rows'"),
])
def test_bad_input_is_a_usage_error(args: list[str], phrase: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    base = ["tournament", "--hands", "1", "--bots", "strong,greedy"]
    code = main([*base, *args])
    err = capsys.readouterr().err
    assert code == 2
    assert phrase in err
    assert "Traceback" not in err


def test_deals_are_seeded_shuffles_of_the_27_tiles() -> None:
    d = deal(3, 7)
    assert d == deal(3, 7) and d != deal(3, 8) and d != deal(4, 7)
    tiles = [*d.hands[0], *d.hands[1], d.hidden]
    assert len(tiles) == 27 and set(tiles) == set(TILE_SET.tiles) - {START_TILE}
    assert {deal(3, n).first_player for n in range(20)} == {0, 1}


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    spec = Spec(("strong", "random"), 0, 5, (800, None), None)
    one = summarize(spec, run_pairs(spec, 4, jobs=1))
    two = summarize(spec, run_pairs(spec, 4, jobs=2))
    assert one == two


def test_both_bots_play_each_deal_from_each_seat() -> None:
    spec = Spec(("greedy", "random"), 0, 2, (None, None), None)
    (d, g0, g1), = run_pairs(spec, 1)
    again0 = play(d, [make_bot("greedy", random.Random(
        "dealerless tournament 2 deal 0 game 0 seat 0")), make_bot("random", random.Random(
            "dealerless tournament 2 deal 0 game 0 seat 1"))], 0)
    assert again0 == g0
    again1 = play(d, [make_bot("random", random.Random(
        "dealerless tournament 2 deal 0 game 1 seat 0")), make_bot("greedy", random.Random(
            "dealerless tournament 2 deal 0 game 1 seat 1"))], 0)
    assert again1 == g1


def test_the_first_design_plays_the_same_hands_with_each_seat_moving_first() -> None:
    """Design `first`: bot A keeps seat 0 and its hand; only who moves first changes, and
    the first player's figures follow the game's own first player."""
    spec = Spec(("greedy", "random"), 0, 2, (None, None), None, "first")
    pairs = run_pairs(spec, 3)
    for number, (d, g0, g1) in enumerate(pairs):
        assert g0.first_player == d.first_player and g1.first_player == 1 - d.first_player
        moved = dataclasses.replace(d, first_player=1 - d.first_player)
        assert g1 == play(moved, [make_bot("greedy", random.Random(
            f"dealerless tournament 2 deal {number} game 1 seat 0")), make_bot(
                "random", random.Random(f"dealerless tournament 2 deal {number} game 1 seat 1"))],
            0)
    result = summarize(spec, pairs)
    want = [(first_player_result(g0, 0)[0] + first_player_result(g1, 0)[0]) / 2
            for _, g0, g1 in pairs]
    assert result["first_player"]["win_rate"]["mean"] == pytest.approx(sum(want) / 3)
    a = [((g0.winner == 0) + 0.5 * (g0.winner is None) + (g1.winner == 0)
          + 0.5 * (g1.winner is None)) / 2 for _, g0, g1 in pairs]
    assert result["a"]["win_rate"]["mean"] == pytest.approx(sum(a) / 3)
    assert result["design"] == {"name": "first", "text": "each deal played twice on the same "
                                "hands, the bots in the same seats, the other seat moving first"}
    assert "design first:" in render(result) and "population: greedy against random" in \
        render(result)


def test_the_command_takes_the_design_and_prints_it() -> None:
    proc = run(["tournament", "--bots", "random,random", "--hands", "5", "--design", "first"])
    assert proc.returncode == 0, proc.stderr
    assert "5 deals x 2 games (design first)" in proc.stdout
    assert "population: random in both seats" in proc.stdout


def test_rescoring_at_another_komi_matches_playing_at_it() -> None:
    """Greedy ignores komi, so a game rescored at komi K is the game played at K."""
    for number in range(30):
        d = deal(8, number)
        bots = [make_bot("greedy", random.Random(0)) for _ in range(2)]
        at_zero = play(d, bots, 0)
        for komi in (-7, 3, 12):
            real = play(d, bots, komi)
            score = 0.5 if real.winner is None else float(real.winner == d.first_player)
            signed = 0 if real.winner is None else real.margin_halves * (
                1 if real.winner == d.first_player else -1)
            assert first_player_result(at_zero, komi) == (score, signed)


@pytest.mark.slow
def test_strong_beats_greedy_over_200_duplicate_deals() -> None:
    """The acceptance measurement in small (the full one is 2,000 deals, in the README)."""
    spec = Spec(("strong", "greedy"), 0, 11, (None, None), None)
    result = summarize(spec, run_pairs(spec, 200, jobs=2))
    assert result["a"]["win_rate"]["low"] > 0.5
    assert result["a"]["margin_halves"]["low"] > 0
