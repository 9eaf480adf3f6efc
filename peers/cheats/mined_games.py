"""Deviating seats in Mined Games (spec/10-session.md 10.8): a reveal that does not open
its commitment, orders that break the rules, a seat that never opens (declared absent by
the others), a winner naming a living seat; for tests and golden transcripts.

Like peers/cheats/deck_games.py: a seeded game is played honestly up to the cheat, then the
cheater signs one bad frame with its own key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from peers.cheats.deck_games import Cheat
from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.commit_reveal import orders_commitment as commitment
from protocol.frames import MessageType
from protocol.messages import ChooseBody, CommitBody, OpenBody
from protocol.seat import SeatView
from protocol.state import Phase, PublicState

#: A 5 x 3 mine for scripted games: lava on B1 r0 c2 (a map file may put lava anywhere).
LAVA_MAP = ("DDLDD,DDDDD,GDDDS/DDDDD,DDIDD,DDDDD/DDDDD,DDDDD,DDDDD/LLLLL,LLLLL,LLLLL")


def table(seed: int, seats: int = 5, params: dict[str, Any] | None = None) -> Table:
    bots = ["greedy", "random"] * 4
    return Table.create("mined-games", {"seats": seats, **(params or {})}, bots[:seats],
                        Entropy(seed))


def state(t: Table) -> PublicState:
    return t.referees[0].state


def advance_to(t: Table, done: Callable[[PublicState], bool]) -> None:
    while not done(state(t)):
        if t.step() is None:
            raise RuntimeError("the game ended before the cheat point")


def owes(phase: Phase, seat: int, stage: int) -> Callable[[PublicState], bool]:
    return lambda s: (s.phase is phase and s.turn == seat and s.rules_state.stage == stage)


def prefix(t: Table) -> tuple[bytes, ...]:
    return tuple(f.wire for f in t.referees[0].frames)


def wrong_reveal(seed: int = 5, seat: int = 2) -> Cheat:
    """The seat opens orders other than those it committed to in round 1."""
    t = table(seed)
    advance_to(t, owes(Phase.OPEN, seat, 2))
    orders, nonce = t.agents[seat]._pending[2]
    other = ["", 0] if orders != ["", 0] else ["", 1]
    bad = t.agents[seat].sign(state(t), MessageType.OPEN, OpenBody(other, nonce).encode())
    return Cheat("mined-wrong-reveal", prefix(t), bad, seat, "open/commitment-mismatch",
                 table=t)


def illegal_orders(seed: int = 5, seat: int = 1) -> Cheat:
    """The seat commits to six steps without a garnet in round 1, then opens them."""
    t = table(seed)
    advance_to(t, owes(Phase.COMMIT, seat, 2))
    orders, nonce = ["LLLLLL", 0], bytes(range(32))
    s = state(t)
    t.deliver(t.agents[seat].sign(s, MessageType.COMMIT, CommitBody(commitment(
        t.setup.game_id, 2, seat, orders, nonce)).encode()))
    advance_to(t, owes(Phase.OPEN, seat, 2))
    bad = t.agents[seat].sign(state(t), MessageType.OPEN, OpenBody(orders, nonce).encode())
    return Cheat("mined-illegal-orders", prefix(t), bad, seat, "mined/too-many-moves",
                 table=t)


def late_reveal(seed: int = 5, seat: int = 3, stage: int = 3) -> tuple[Table, bytes]:
    """The seat commits in `stage` but never opens; once its deadline passes, every other
    living seat declares it absent, and the game goes on without it to the end. Returns
    the table at the end and the late OPEN the seat would have sent."""
    t = table(seed)
    advance_to(t, owes(Phase.OPEN, seat, stage))
    late = t.agents[seat].next_frame(state(t), t.entropy.bytes("late"))
    first = next(s for s in state(t).rules_state.playing() if s != seat)
    t.deliver(t.agents[first].declare_absent(state(t)))
    while t.step() is not None:
        pass
    return t, late


def scripted(orders: dict[int, dict[int, Any]], choice: int | None = None) -> list[
        Callable[[SeatView], Any]]:
    """Choosers that play `orders[stage][seat]` and, as the winner, name `choice`."""
    def chooser(view: SeatView) -> Any:
        if view.legal:
            return choice if choice is not None else view.legal[0]
        return orders[view.rules_state.stage][view.seat]
    return [chooser] * 5


def two_die_in_lava(seed: int = 5, choice: int | None = None) -> Table:
    """Seats 1 and 2 walk into the lava of LAVA_MAP in round 1: several die but not all,
    so the token winner names the elimination candidate (a CHOOSE frame)."""
    t = table(seed, params={"map": LAVA_MAP})
    starts = {0: [2, 0], 1: [0, 1], 2: [0, 3], 3: [1, 1], 4: [2, 4]}
    round1 = {0: ["", 1], 1: ["R", 0], 2: ["L", 0], 3: ["", 0], 4: ["", 1]}
    t.choosers = scripted({1: starts, 2: round1}, choice)
    return t


def bad_choice(seed: int = 5) -> Cheat:
    """The winner names a living seat as the elimination candidate."""
    t = two_die_in_lava(seed)
    advance_to(t, lambda s: s.phase is Phase.CHOOSE)
    winner = state(t).turn
    assert winner is not None
    bad = t.agents[winner].sign(state(t), MessageType.CHOOSE, ChooseBody(3).encode())
    return Cheat("mined-bad-choice", prefix(t), bad, winner, "mined/choice", table=t)


def answered_late(seed: int = 5, seat: int = 3, stage: int = 2) -> Table:
    """Seat 0 declares the seat absent while it owes its OPEN; the seat answers before the
    others have declared, the declaration lapses, and the game is played to the end."""
    t = table(seed)
    advance_to(t, owes(Phase.OPEN, seat, stage))
    first = next(s for s in state(t).rules_state.playing() if s != seat)
    t.deliver(t.agents[first].declare_absent(state(t)))
    t.deliver(t.agents[seat].next_frame(state(t), t.entropy.bytes("answer")))
    return t
