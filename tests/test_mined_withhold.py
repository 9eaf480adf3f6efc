"""A withheld OPEN changes nothing (spec/10-session.md 10.8, rules/mined-games.md D20):
over seeded five-seat games, the last opener of the last stage, which has seen every other
seat's orders, withholds its OPEN; a majority of the other seats opens its seal, and the
verdict is the honest game's, down to every seat's money. In-process, protocol level."""

from __future__ import annotations

from typing import Any

import pytest

from peers.cheats import mined_games as mined_cheats
from peers.table.selfplay import Table
from protocol.frames import MessageType
from protocol.state import Phase


def shared_table(seed: int) -> Table:
    """A seeded five-seat table whose seats share one referee: every frame is still
    checked once, at a fifth of the cost of five referees."""
    t = mined_cheats.table(seed)
    t.referees = [t.referees[0]] * len(t.referees)
    return t


def outcome(t: Table) -> dict[str, Any]:
    ref = t.referees[0]
    assert ref.complete
    return dict(ref.outcome().to_json())


def withheld_against_honest(seed: int) -> tuple[dict[str, Any], dict[str, Any], int, int]:
    honest = shared_table(seed)
    honest.play()
    ref = honest.referees[0]
    last = [f for f in ref.frames if f.type is MessageType.OPEN][-1]
    stage = ref.state.rules_state.stage
    cheat = shared_table(seed)
    mined_cheats.advance_to(cheat, mined_cheats.owes(Phase.OPEN, last.seat, stage))
    holders = mined_cheats.holders(cheat, last.seat)
    mined_cheats.declare(cheat, list(reversed(holders)))
    while cheat.step() is not None:
        pass
    return outcome(honest), outcome(cheat), last.seat, stage


def check_seeds(seeds: range) -> None:
    for seed in seeds:
        honest, withheld, seat, stage = withheld_against_honest(seed)
        record = withheld.pop("withheld")
        # The holders h0 < h1 < h2 < h3 declare from the highest: h3 and h2 with no share,
        # h1 the t-th with its share, then h0 and h3 post theirs.
        h = [s for s in range(5) if s != seat]
        assert record == [{"seat": seat, "stage": stage, "opened_by": [h[0], h[1], h[3]]}], \
            seed
        assert honest.pop("withheld") == []
        assert withheld == honest, f"seed {seed}: the withheld OPEN changed the verdict"


def test_the_last_opener_withholding_changes_no_token_winner() -> None:
    check_seeds(range(3))


@pytest.mark.slow
def test_the_last_opener_withholding_changes_no_token_winner_in_30_games() -> None:
    check_seeds(range(30))
