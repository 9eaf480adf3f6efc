"""Draws from the boneyard (spec/10-session.md 10.4 DRAW), through a k-seat rule set.

A draw takes the lowest undealt position into the mover's hand; every other seat
then sends its proven decryption share of it, in seat order, so that only the
drawer can open it. The single-step check judges every frame of such a game.
"""

from __future__ import annotations

import pytest
from pile_rules import register

from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.frames import MessageType
from protocol.state import BONEYARD, Phase
from protocol.verifier import check_step, dispute_package, replay


@pytest.fixture
def pile(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)


@pytest.mark.parametrize(("seats", "seed"), [(2, 42), (3, 40), (5, 40)])  # games with draws
def test_games_with_draws_verify_and_every_step_checks_alone(pile: None, seats: int,
                                                             seed: int) -> None:
    table = Table.create("pile", {"seats": seats}, ["random"] * seats, Entropy(seed))
    data = table.play().encode()
    verdict = replay(data)
    assert verdict.exit_code == 0, verdict.violation
    frames = table.referees[0].frames
    draws = [f for f in frames if f.type is MessageType.DRAW]
    assert draws, "the seed should make some seat draw"
    state = table.referees[0].state
    drawn = [p for p, o in enumerate(table.referees[0].game.owners)
             if o == BONEYARD and state.owners[p] >= 0]
    assert len(draws) == len(drawn) * (seats - 1)
    for p in drawn:  # every other seat's share is public, the drawer's only if it played it
        drawer = state.owners[p]
        assert all(state.shares[p][i] is not None for i in range(seats) if i != drawer)
    # The single-step check on each draw's move and shares, and on the move after them.
    first = frames.index(draws[0])
    for index in range(first - 1, first + seats):
        step = check_step(dispute_package(data, index))
        assert step.valid, (index, step.violation)


def test_a_drawn_tile_joins_the_drawers_hand_and_nobody_elses(pile: None) -> None:
    table = Table.create("pile", {"seats": 3}, ["random"] * 3, Entropy(7))
    while table.referees[0].state.phase is not Phase.DRAW:
        assert table.step() is not None
    ref = table.referees[0]
    p = ref.state.drawing
    assert p is not None
    drawer = ref.state.owners[p]
    hands = list(zip(table.agents, table.referees, strict=True))
    before = [set(a.hand_positions(r.state)) for a, r in hands]
    while ref.state.phase is Phase.DRAW:
        table.step()
    after = [set(a.hand_positions(r.state)) for a, r in hands]
    assert after[drawer] == before[drawer] | {p}
    assert all(after[s] == before[s] for s in range(3) if s != drawer)
