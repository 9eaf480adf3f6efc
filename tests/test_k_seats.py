"""The session is built for k = 2..8 seats: full games with 3 and 5 seats (spec/10-session.md).

Bram's rules are for two; this file plugs a small k-seat rule set (tests/shed_rules.py)
into the same session, referee, seat agents and verifier through the rule-set interface
(spec/rules/bram.md section 1), the way Mineshaft or Mexican Train will.
"""

from __future__ import annotations

import pytest
import shed_rules

import protocol.rules as rules_pkg
from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.verifier import replay


@pytest.fixture
def shed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_pkg, "RULESETS", shed_rules.registry())


@pytest.mark.parametrize("seats", [3, 5])
def test_a_full_game_with_k_seats_verifies(shed: None, seats: int) -> None:
    table = Table.create("shed", {"seats": seats}, ["random"] * seats, Entropy(seats))
    data = table.play().encode()
    verdict = replay(data)
    assert verdict.exit_code == 0, verdict.violation
    state = table.referees[0].state
    # Every seat shuffled and dealt, the hidden tile and every hand were opened.
    assert len(state.key_shares) == seats and len(state.deck) == 28
    opened = [t for t in state.opened if t is not None]
    assert len(opened) == len(set(opened)) == 3 * seats + 1
    assert len(verdict.outcome.hidden) == 1
