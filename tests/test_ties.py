"""Ties name every tied seat, in the JSON (`winners`) and in the text of `verify`, in
every rule set and in a match (spec/11-verify.md 11.1 and 11.5, rules/mined-games.md 7).

Each case takes a real verdict of a golden game and gives it the outcome its rule set
computes for a tie, then reads what the verifier would print and its JSON.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from peers.table.report import account, match_account
from protocol.match import MatchVerdict
from protocol.rules.base import Outcome, lowest_pips_outcome
from protocol.rules.mined_stage import MinedOutcome
from protocol.tiles import Tile
from protocol.verifier import Verdict, replay

GOLDEN = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "transcripts"


def golden(name: str) -> Verdict:
    verdict = replay((GOLDEN / f"{name}.transcript").read_bytes())
    assert verdict.complete
    return verdict


def test_a_bram_draw_names_both_seats() -> None:
    verdict = golden("valid")
    out = verdict.outcome
    assert isinstance(out, Outcome)
    # bram.md 8: equal totals with komi are a draw; the hidden tile stays the game's.
    draw = Outcome(None, "blocked", (7, 6), (14, 14), 0, out.hidden)
    data = replace(verdict, outcome=draw).to_json()["outcome"]
    assert (data["winner"], data["winners"], data["draw"]) == (None, [0, 1], True)
    assert "a draw between seats 0 and 1" in account(replace(verdict, outcome=draw))
    assert verdict.to_json()["outcome"]["winners"] == [verdict.to_json()["outcome"]["winner"]]


@pytest.mark.parametrize("name, hands, tied", [
    ("mineshaft-4", [[(1, 2)], [(0, 3)], [(6, 6)], [(2, 1), (0, 0)]], [0, 1, 3]),
    ("mexican-train-3", [[(12, 12)], [(4, 5)], [(3, 6)]], [1, 2]),
])
def test_a_shared_lowest_count_names_every_tied_seat(name: str, hands: list[list[Tile]],
                                                     tied: list[int]) -> None:
    verdict = golden(name)
    tie = lowest_pips_outcome("blocked", [len(h) for h in hands], hands)
    data = replace(verdict, outcome=tie).to_json()["outcome"]
    assert (data["winner"], data["winners"], data["draw"]) == (None, tied, True)
    names = ", ".join(str(s) for s in tied[:-1]) + f" and {tied[-1]}"
    assert f"seats {names} tie for the fewest pips" in account(replace(verdict, outcome=tie))


def test_a_mined_games_tie_names_every_tied_seat_and_the_draw() -> None:
    verdict = golden("mined-games-5")
    out = verdict.outcome
    assert isinstance(out, MinedOutcome) and out.winners == (out.winner,)
    money = list(out.money)
    other = next(s for s in range(5) if s != out.winner)
    money[other] = money[out.winner]  # another living seat has as much money
    tie = replace(out, money=tuple(money))
    data = replace(verdict, outcome=tie).to_json()["outcome"]
    assert data["winners"] == sorted([out.winner, other])
    assert data["token_winner"] == out.winner
    a, b = sorted([out.winner, other])
    assert (f"Seats {a}, {b} tied for the most money (${money[a]:,}); the lot drawn from the "
            f"last stage's opened nonces picked seat {out.winner}"
            in account(replace(verdict, outcome=tie)))
    # A dead miner tied with the richest living one is not among the winners (section 7).
    dead = replace(tie, status=tuple("lava" if s == other else st
                                     for s, st in enumerate(out.status)))
    assert dead.winners == (out.winner,)


def test_a_match_won_by_several_seats_names_them_all() -> None:
    rounds = [golden("mexican-train-3")]
    shared = MatchVerdict(rounds, totals=(30, 12, 12), winners=(1, 2), rounds_due=1)
    assert shared.to_json()["winners"] == [1, 2]
    assert "seats 1 and 2 win (shared) with the fewest pips in all" in match_account(shared)
