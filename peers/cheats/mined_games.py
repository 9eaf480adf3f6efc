"""Deviating seats in Mined Games (spec/10-session.md 10.8): an opening secret that does
not open the seal, orders that break the rules, a seal with a bad share, a bad
decryption share, a sealed plaintext that is no orders, a seat that withholds its OPEN
(the table opens its seal), a seat that never commits (it forfeits), a winner naming a
living seat; for tests and golden transcripts.

Like peers/cheats/deck_games.py: a seeded game is played honestly up to the cheat, then the
cheater signs one bad frame with its own key.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from peers.cheats.deck_games import Cheat
from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.errors import Violation
from protocol.frames import MessageType, parse_frame
from protocol.messages import AbsentBody, ChooseBody, OpenBody
from protocol.seal import Seal, deal, pad, seal_secret
from protocol.sealed import PLAINTEXT_BYTES, holders_context, sealed_plaintext
from protocol.seat import SeatView
from protocol.session import apply_frame
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
    """The seat opens its round-1 seal with a secret that is not the seal's (10.8)."""
    t = table(seed)
    advance_to(t, owes(Phase.OPEN, seat, 2))
    s = state(t)
    ctx = holders_context(t.suite, t.setup.game_id, 2, seat, s.rules_state.keys)
    secret = seal_secret(ctx, t.agents[seat]._pending[2][1])
    wrong = OpenBody((secret + 1) % t.suite.order).encode(t.suite)
    bad = t.agents[seat].sign(s, MessageType.OPEN, wrong)
    return Cheat("mined-wrong-reveal", prefix(t), bad, seat, "seal/opening", table=t)


def seal_of(t: Table, seat: int, orders: Any, nonce: bytes, plaintext: bytes | None = None,
            fresh: bytes = bytes(32)) -> Seal:
    """A seal by `seat` for the current stage of `orders` and `nonce` (or of `plaintext`,
    padded or not, for a cheat that seals garbage)."""
    s = state(t)
    ctx = holders_context(t.suite, t.setup.game_id, s.rules_state.stage, seat, s.rules_state.keys)
    data = pad(sealed_plaintext(orders, nonce), PLAINTEXT_BYTES) if plaintext is None \
        else plaintext
    return deal(ctx, nonce, data, fresh)


def illegal_orders(seed: int = 5, seat: int = 1) -> Cheat:
    """The seat seals six steps without a garnet in round 1, then opens them."""
    t = table(seed)
    advance_to(t, owes(Phase.COMMIT, seat, 2))
    orders, nonce = ["LLLLLL", 0], bytes(range(32))
    t.deliver(t.agents[seat].sign(state(t), MessageType.COMMIT,
                                  seal_of(t, seat, orders, nonce).encode(t.suite)))
    advance_to(t, owes(Phase.OPEN, seat, 2))
    s = state(t)
    ctx = holders_context(t.suite, t.setup.game_id, 2, seat, s.rules_state.keys)
    body = OpenBody(seal_secret(ctx, nonce)).encode(t.suite)
    bad = t.agents[seat].sign(s, MessageType.OPEN, body)
    return Cheat("mined-illegal-orders", prefix(t), bad, seat, "mined/too-many-moves",
                 table=t)


def bad_seal(seed: int = 5, seat: int = 2) -> Cheat:
    """The seat's round-1 seal carries a share that does not match its commitments: every
    seat proves it at once, before anything is opened (10.8, 6.6.5)."""
    t = table(seed)
    advance_to(t, owes(Phase.COMMIT, seat, 2))
    good = seal_of(t, seat, ["", 0], bytes(range(32)))
    first = good.shares[0]
    g = t.suite.group
    forged = replace(good, shares=(replace(first, point=g.add(first.point, g.generator)),
                                   *good.shares[1:]))
    bad = t.agents[seat].sign(state(t), MessageType.COMMIT, forged.encode(t.suite))
    return Cheat("mined-bad-seal", prefix(t), bad, seat, "seal/share-proof", table=t)


def declare(t: Table, seats: Sequence[int], hold_last: bool = False) -> bytes | None:
    """`seats`, in that order, declare the seat that now owes the next frame absent, then
    post their decryption shares as the rules admit them (10.8: against a sealed OPEN,
    only once t holders have declared), until that seat no longer owes it (its seal
    opened, or it forfeited). With `hold_last`, the frame that would end the absence is
    signed but not sent, and returned."""
    due = t.referees[0].awaiting
    for d in (*seats, *seats):
        if t.referees[0].awaiting != due:
            break
        if not t.agents[d].may_declare(state(t)):
            continue
        wire = t.agents[d].declare_absent(state(t), t.entropy.bytes(f"declare {d}"))
        if hold_last and _ends_absence(t, wire):
            return wire
        t.deliver(wire)
    return None


def _ends_absence(t: Table, wire: bytes) -> bool:
    """Whether the frame ends the declarations under way, or breaks a rule in doing so."""
    try:
        after = apply_frame(t.referees[0].game, state(t), parse_frame(wire, t.suite))
    except Violation:
        return True
    return after.rules_state.absent is None


def holders(t: Table, seat: int) -> list[int]:
    return list(state(t).rules_state.holders(seat))


def bad_decryption_share(seed: int = 5, seat: int = 3, liar: int = 0) -> Cheat:
    """`seat` withholds its round-1 OPEN; `liar` declares it absent with a decryption share
    that is not its own: its sender is blamed at once (10.8, 6.6.7)."""
    t = table(seed)
    advance_to(t, owes(Phase.OPEN, seat, 2))
    others = [h for h in holders(t, seat) if h != liar]
    declare(t, others[:(len(others) + 1) // 2])     # t - 1: the liar's is the t-th
    s = state(t)
    wire = t.agents[liar].declare_absent(s, t.entropy.bytes("liar"))
    body = AbsentBody.decode(t.suite, parse_frame(wire, t.suite).body, liar)
    assert body.share is not None
    forged = replace(body, share=replace(body.share, point=t.suite.group.add(body.share.point,
                                                                t.suite.group.generator)))
    bad = t.agents[liar].sign(s, MessageType.ABSENT, forged.encode(t.suite))
    return Cheat("mined-bad-decryption-share", prefix(t), bad, liar, "seal/decryption-proof",
                 table=t)


def sealed_garbage(seed: int = 5, seat: int = 1) -> Cheat:
    """The seat seals bytes that are no orders in round 1 and withholds its OPEN; the
    declaration that opens the seal proves the plaintext bad, and the committer is blamed
    (10.8): the seal binds what it holds."""
    t = table(seed)
    advance_to(t, owes(Phase.COMMIT, seat, 2))
    garbage = pad(b"\x93" + bytes(40), PLAINTEXT_BYTES)  # an array of 3, then junk
    t.deliver(t.agents[seat].sign(state(t), MessageType.COMMIT,
                                  seal_of(t, seat, None, bytes(range(32)),
                                          garbage).encode(t.suite)))
    advance_to(t, owes(Phase.OPEN, seat, 2))
    bad = declare(t, holders(t, seat), hold_last=True)
    assert bad is not None
    return Cheat("mined-sealed-garbage", prefix(t), bad, seat, "open/plaintext", table=t)


def withheld_open(seed: int = 5, seat: int = 3, stage: int = 3,
                  declarers: Sequence[int] | None = None) -> tuple[Table, bytes]:
    """The seat seals its orders in `stage` but never opens them; once its deadline passes
    the other seats declare it absent and then post their decryption shares, and the
    first majority of the shares opens its seal: the orders count, and the game goes on
    to the end. Returns the table at the end and the late OPEN the seat would have sent."""
    t = table(seed)
    advance_to(t, owes(Phase.OPEN, seat, stage))
    late = t.agents[seat].next_frame(state(t), t.entropy.bytes("late"))
    declare(t, declarers if declarers is not None else list(reversed(holders(t, seat))))
    while t.step() is not None:
        pass
    return t, late


def late_commit(seed: int = 5, seat: int = 3, stage: int = 3) -> tuple[Table, bytes]:
    """The seat never commits in `stage`; a majority of the other living seats declares it
    absent and it forfeits (nothing of it is sealed yet). Returns the table at the end and
    the late COMMIT."""
    t = table(seed)
    advance_to(t, owes(Phase.COMMIT, seat, stage))
    late = t.agents[seat].next_frame(state(t), t.entropy.bytes("late"), t.choosers[seat])
    others = [s for s in state(t).rules_state.playing() if s != seat]
    declare(t, list(reversed(others))[:len(others) // 2 + 1])
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
    """Seat 0 declares the seat absent while it owes its OPEN; the seat answers before a
    majority has declared, the declaration lapses, and the game is played to the end."""
    t = table(seed)
    advance_to(t, owes(Phase.OPEN, seat, stage))
    declare(t, [next(s for s in state(t).rules_state.playing() if s != seat)])
    t.deliver(t.agents[seat].next_frame(state(t), t.entropy.bytes("answer")))
    return t
