"""Forced play proven live: "cannot play" claims (spec/10-session.md 10.4, 6.5).

A seat that draws or passes while the rules say it must play if it can proves in
zero knowledge that no tile of its hand is playable. A false claim, a missing
proof, or a proof where none is due is a violation of that seat, caught by every
other seat's referee as the frame arrives and by the verifier afterwards; the
end-of-game audit re-judges every claim from the revealed hands.
"""

from __future__ import annotations

import pytest
from pile_rules import DRAW_ID, Shed, even, register

from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.cannot_play import _prove_unchecked
from protocol.claims import audit, claim_statement
from protocol.context import Context
from protocol.errors import Violation
from protocol.frames import MessageType
from protocol.messages import MoveBody
from protocol.state import Claim, Phase
from protocol.verifier import replay


@pytest.fixture
def pile(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)


def table_until(seats: int, seed: int, ready: object) -> Table:
    table = Table.create("pile", {"seats": seats}, ["random"] * seats, Entropy(seed))
    while not ready(table):  # type: ignore[operator]
        assert table.step() is not None, "the game ended before the position wanted"
    return table


def holds_a_playable_tile(table: Table) -> bool:
    ref = table.referees[0]
    due = ref.awaiting
    if due is None or ref.state.phase is not Phase.PLAY or not ref.state.rules_state.pile:
        return False
    hand = table.agents[due[0]].hand_positions(table.referees[due[0]].state).values()
    return any(even(t) and t not in ref.state.rules_state.shed for t in hand)


def send(table: Table, seat: int, body: MoveBody) -> bytes:
    """Sign `body` as `seat`'s MOVE and deliver it; return the wire."""
    state = table.referees[seat].state
    wire = table.agents[seat].sign(state, MessageType.MOVE, body.encode(table.suite))
    for ref in table.referees:
        with pytest.raises(Violation):
            ref.receive(wire)
    return wire


def test_honest_claims_are_kept_and_the_audit_passes(pile: None) -> None:
    table = Table.create("pile", {"seats": 3}, ["random"] * 3, Entropy(1))  # ends blocked
    verdict = replay(table.play().encode())
    assert verdict.exit_code == 0, verdict.violation
    claims = table.referees[0].state.claims
    assert len(claims) > 10 and all(c.forbidden and c.positions for c in claims)
    assert table.referees[0].state.rules_state.finished == "blocked"  # passes were claims too
    # Every claim was true: its positions hold no forbidden tile, in the open now.
    opened = table.referees[0].state.opened
    assert all(opened[p] not in c.forbidden for c in claims for p in c.positions)


def test_a_false_claim_is_caught_live_and_blamed(pile: None) -> None:
    table = table_until(3, 11, holds_a_playable_tile)
    ref = table.referees[0]
    seat = ref.awaiting[0]  # type: ignore[index]
    state = table.referees[seat].state
    statement = claim_statement(ref.game, state, seat)
    assert statement is not None
    agent = table.agents[seat]
    forged = _prove_unchecked(agent._x, statement,
                              Context(ref.game.suite, ref.game.game_id, state.seq, seat),
                              b"\x07" * 32)
    send(table, seat, MoveBody(DRAW_ID, None, forged.encode(ref.game.suite)))
    for r in table.referees:
        assert r.violation is not None and r.violation.seat == seat
        assert r.violation.code == "cannot-play/identity" and r.violation.authenticated
    verdict = replay(table.referees[0].transcript().encode())
    assert verdict.exit_code == 1
    assert verdict.violation.seat == seat and verdict.violation.code == "cannot-play/identity"


def test_a_draw_without_its_proof_is_blamed(pile: None) -> None:
    table = table_until(2, 3, holds_a_playable_tile)
    seat = table.referees[0].awaiting[0]  # type: ignore[index]
    send(table, seat, MoveBody(DRAW_ID, None))
    v = table.referees[0].violation
    assert v is not None and (v.seat, v.code) == (seat, "move/missing-claim")


def test_a_proof_where_none_is_due_is_blamed(pile: None) -> None:
    table = table_until(2, 3, holds_a_playable_tile)
    ref = table.referees[0]
    seat = ref.awaiting[0]  # type: ignore[index]
    agent = table.agents[seat]
    tile = next(t for t in agent.hand_positions(table.referees[seat].state).values()
                if even(t) and t not in ref.state.rules_state.shed)
    body = agent._move_body(table.referees[seat].state, Shed(tile), b"\x01" * 32)
    send(table, seat, MoveBody(body.move_id, body.opening, b"\x00" * 96))
    v = ref.violation
    assert v is not None and (v.seat, v.code) == (seat, "move/unexpected-claim")


def test_the_audit_blames_a_false_claim_at_its_frame() -> None:
    opened = ((1, 1), (0, 1), None, (2, 4))
    audit((Claim(9, 1, (0, 1), ((0, 0), (2, 2))),), opened)  # true: nothing forbidden held
    with pytest.raises(Violation) as caught:
        audit((Claim(9, 1, (0, 1), ((0, 0), (2, 2))), Claim(12, 0, (3,), ((2, 4),))), opened)
    v = caught.value
    assert (v.code, v.seat, v.frame) == ("audit/false-claim", 0, 12)
    assert "position 3 held 2-4" in v.detail
