"""Every cheating class of peers/cheats/deck_games.py, again at a 3-seat Mexican Train table.

The Bram catalog (two seats) becomes golden transcripts; this one shows that the
same classes, and the ones draws and forced play add (a wrong share of a drawn
tile, a draw share out of turn, a false or missing "cannot play" proof), are
caught with the right blame when three seats play a game with a boneyard (the false
claim, in both games, is in tests/test_forced_play_games.py): by
every honest seat's referee as the frame arrives, and by the verifier on the
transcript an honest seat saves (spec/10-session.md 10.5, 11.2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.canonical import pack, unpack
from protocol.elgamal import encode_deck
from protocol.errors import Violation
from protocol.frames import MAX_FRAME_BYTES, MessageType, build_frame
from protocol.messages import MoveBody, ShareEntry, SharesBody, ShuffleBody
from protocol.referee import Referee
from protocol.rules.mexican_train_state import Draw, Play
from protocol.seat import SeatAgent
from protocol.setup import GameSetup
from protocol.state import Phase
from protocol.suite import table_suite
from protocol.transcript import Transcript
from protocol.verifier import replay

S = table_suite()  # the suite of the tables these tests play
G = S.group.generator
add = S.group.add

SEATS = 3


def table(seed: int = 5) -> Table:
    return Table.create("mexican-train", {"seats": SEATS}, ("greedy",) * SEATS, Entropy(seed))


def advance(t: Table, done: Callable[[Table], bool]) -> None:
    while not done(t):
        assert t.step() is not None, "the game ended before the cheat point"


def state(t: Table) -> Any:
    return t.referees[0].state


def due(t: Table) -> int:
    owed = t.referees[0].awaiting
    assert owed is not None
    return owed[0]


def at(phase: Phase, seat: int | None = None) -> Callable[[Table], bool]:
    return lambda t: state(t).phase is phase and (seat is None or due(t) == seat)


def a_play(t: Table) -> Callable[[Table], bool]:
    """The seat to move has a tile it may play (so it holds some, and a claim is false)."""
    def done(x: Table) -> bool:
        if state(x).phase is not Phase.PLAY:
            return False
        view = x.agents[due(x)].view(x.referees[due(x)].state)
        return any(isinstance(m, Play) for m in view.legal)
    return done


def sign(t: Table, seat: int, mtype: MessageType, body: Any) -> bytes:
    return t.agents[seat].sign(state(t), mtype, body)


def honest_body(t: Table, seat: int, label: str = "cheat") -> tuple[MessageType, Any]:
    return t.agents[seat].body(state(t), t.entropy.bytes(label), t.choosers[seat])


def play_body(t: Table, seat: int, move: Play, position: int) -> Any:
    share = t.agents[seat].share_for(state(t), position, t.entropy.bytes("cheat"))
    return MoveBody(t.referees[0].game.rules.move_id(move), ShareEntry(position,
                                                                       share)).encode(S)


def judged(t: Table, wire: bytes, seat: int, code: str, frames: tuple[bytes, ...] | None = None,
           evidence: tuple[bytes, ...] = ()) -> None:
    """Every honest referee refuses `wire` blaming `seat`; so does the verifier."""
    prefix = tuple(f.wire for f in t.referees[0].frames)
    for ref in t.referees:
        with pytest.raises(Violation) as caught:
            ref.receive(wire)
        assert (caught.value.seat, caught.value.code) == (seat, code)
    data = Transcript(t.setup, frames if frames is not None else (*prefix, wire),
                      evidence).encode()
    verdict = replay(data)
    assert verdict.exit_code == 1
    v = verdict.violation
    assert v is not None and (v.seat, v.code) == (seat, code) and v.authenticated


def test_bad_shuffle_proof() -> None:
    t = table()
    advance(t, at(Phase.SHUFFLE, 2))
    mtype, raw = honest_body(t, 2)
    body = ShuffleBody.decode(S, raw, len(state(t).deck))
    deck = list(body.deck)
    deck[0], deck[1] = deck[1], deck[0]
    judged(t, sign(t, 2, mtype, [encode_deck(deck), body.proof.encode(S)]), 2,
           "shuffle/challenge")


def test_wrong_decryption_share_in_the_deal() -> None:
    t = table()
    advance(t, at(Phase.DEAL, 1))
    mtype, raw = honest_body(t, 1)
    body = SharesBody.decode(S, raw)
    bad = (add(body.shares[0], G), *body.shares[1:])
    judged(t, sign(t, 1, mtype, dataclasses.replace(body, shares=bad).encode(S)), 1,
           "dleq/challenge")


def test_wrong_share_of_a_drawn_tile() -> None:
    t = table()
    advance(t, at(Phase.DRAW))
    seat = due(t)
    mtype, raw = honest_body(t, seat)
    body = SharesBody.decode(S, raw)
    bad = dataclasses.replace(body, shares=(add(body.shares[0], G),))
    judged(t, sign(t, seat, mtype, bad.encode(S)), seat, "dleq/challenge")


def test_the_drawer_cannot_send_a_share_of_its_own_draw() -> None:
    t = table()
    advance(t, at(Phase.DRAW))
    p = state(t).drawing
    drawer = state(t).owners[p]
    body = t.agents[drawer].shares_body(state(t), [p], t.entropy.bytes("cheat"))
    judged(t, sign(t, drawer, MessageType.DRAW, body.encode(S)), drawer, "frame/out-of-turn")


def test_tile_not_dealt_to_the_seat() -> None:
    t = table()
    advance(t, a_play(t))
    seat = due(t)
    other = next(p for p, o in enumerate(state(t).owners) if o not in (seat, -1, -2))
    move = next(m for m in t.agents[seat].view(state(t)).legal if isinstance(m, Play))
    judged(t, sign(t, seat, MessageType.MOVE, play_body(t, seat, move, other)), seat,
           "move/not-dealt-to-seat")


def test_tile_played_twice() -> None:
    t = table()

    def played_before(x: Table) -> bool:
        s = state(x)
        return a_play(x)(x) and any(s.played[p] and o == due(x)
                                    for p, o in enumerate(s.owners))
    advance(t, played_before)
    seat, s = due(t), state(t)
    position = next(p for p, o in enumerate(s.owners) if o == seat and s.played[p])
    move = Play(s.opened[position], seat)
    judged(t, sign(t, seat, MessageType.MOVE, play_body(t, seat, move, position)), seat,
           "move/already-played")


def test_illegal_placement() -> None:
    t = table()
    advance(t, a_play(t))
    seat, s = due(t), state(t)
    rules = t.referees[0].game.rules
    legal = set(rules.legal_moves(s.rules_state, tuple(
        t.agents[seat].hand_positions(s).values())))
    position, move = next((p, Play(tile, train))
                          for p, tile in t.agents[seat].hand_positions(s).items()
                          for train in range(SEATS) if Play(tile, train) not in legal)
    wire = sign(t, seat, MessageType.MOVE, play_body(t, seat, move, position))
    for ref in t.referees:
        with pytest.raises(Violation) as caught:
            ref.receive(wire)
        assert caught.value.seat == seat and caught.value.code.startswith("rules/")
    verdict = replay(Transcript(t.setup, (*(f.wire for f in t.referees[0].frames),
                                          wire)).encode())
    assert verdict.exit_code == 1 and verdict.violation.seat == seat
    assert verdict.violation.code.startswith("rules/")


def test_frame_out_of_turn() -> None:
    t = table()
    advance(t, at(Phase.PLAY))
    seat = (due(t) + 1) % SEATS
    judged(t, sign(t, seat, MessageType.MOVE, MoveBody(0, None).encode(S)), seat,
           "frame/out-of-turn")


def test_frame_replayed_from_another_game() -> None:
    t = table()
    advance(t, at(Phase.PLAY))
    setup = GameSetup.create("mexican-train", {"seats": SEATS}, list(t.setup.identities),
                             [bytes([i + 1]) * 32 for i in range(SEATS)], t.suite)
    other = Referee(setup)
    wire = b""
    for i in range(2):  # the other game's first two frames, seats 0 and 1
        agent = SeatAgent(other.game, i, t.agents[i].identity, bytes([i + 3]) * 32)
        wire = agent.next_frame(other.state, bytes([i + 9]) * 32)
        other.receive(wire)
    for ref in t.referees:
        with pytest.raises(Violation) as caught:
            ref.receive(wire)
        assert caught.value.code == "frame/wrong-game" and not caught.value.authenticated
    assert all(ref.violation is None for ref in t.referees)  # no evidence: play goes on


def test_equivocation_and_a_fork_built_on_it() -> None:
    t = table()
    advance(t, a_play(t))
    seat = due(t)
    prefix = tuple(f.wire for f in t.referees[0].frames)
    first = sign(t, seat, *honest_body(t, seat, "first"))
    second = sign(t, seat, *honest_body(t, seat, "second"))  # fresh shares: other bytes
    assert first != second
    t.deliver(first)
    nxt = due(t)
    reply = t.agents[nxt].next_frame(state(t), t.entropy.bytes("reply"), t.choosers[nxt])
    for ref in t.referees:
        with pytest.raises(Violation) as caught:
            ref.receive(second)
        assert (caught.value.seat, caught.value.code) == (seat, "frame/equivocation")
    # The saved fork: the second version, then a reply built on the first, with the first
    # as evidence. The equivocator is blamed, never the honest seat that replied.
    verdict = replay(Transcript(t.setup, (*prefix, second, reply), (first,)).encode())
    assert verdict.exit_code == 1
    assert (verdict.violation.seat, verdict.violation.code) == (seat, "frame/equivocation")


def test_bad_signature_blames_nobody() -> None:
    t = table()
    advance(t, at(Phase.PLAY))
    seat = due(t)
    good = sign(t, seat, *honest_body(t, seat))
    payload, signature = unpack(good, MAX_FRAME_BYTES)
    wire = pack([payload, bytes([signature[0] ^ 1]) + signature[1:]])
    prefix = tuple(f.wire for f in t.referees[0].frames)
    verdict = replay(Transcript(t.setup, (*prefix, wire)).encode())
    assert verdict.exit_code == 1 and verdict.violation.code == "frame/bad-signature"
    assert not verdict.violation.authenticated


def test_tampered_tile_and_resigned() -> None:
    t = table()
    advance(t, a_play(t))
    seat, s = due(t), state(t)
    move = next(m for m in t.agents[seat].view(s).legal if isinstance(m, Play))
    position = next(p for p, x in t.agents[seat].hand_positions(s).items() if x == move.tile)
    body = play_body(t, seat, move, position)
    hand = set(t.agents[seat].hand_positions(s).values())
    body[0] = t.referees[0].game.rules.move_id(Play(next(
        x for x in t.referees[0].game.deck_tiles if x not in hand and x != move.tile), seat))
    judged(t, sign(t, seat, MessageType.MOVE, body), seat, "move/tile-mismatch")


def test_state_hash_tampered_and_resigned() -> None:
    t = table()
    advance(t, at(Phase.PLAY))
    seat, s = due(t), state(t)
    wire = build_frame(t.agents[seat].identity, t.suite, t.setup.game_id, s.seq, s.prev, seat,
                       MessageType.MOVE, bytes(32), MoveBody(0, None).encode(S))
    judged(t, wire, seat, "state/hash-mismatch")


def test_a_draw_without_its_cannot_play_proof() -> None:
    t = table()
    advance(t, a_play(t))
    seat = due(t)
    judged(t, sign(t, seat, MessageType.MOVE, MoveBody(
        t.referees[0].game.rules.move_id(Draw()), None).encode(S)), seat, "move/missing-claim")


@pytest.fixture(scope="module")
def at_reveal() -> Table:
    t = table(2)
    advance(t, at(Phase.REVEAL, SEATS - 1))
    return t


def test_withheld_reveal(at_reveal: Table) -> None:
    t = at_reveal
    wire = sign(t, SEATS - 1, MessageType.REVEAL, SharesBody((), (), ()).encode(S))
    prefix = tuple(f.wire for f in t.referees[0].frames)
    verdict = replay(Transcript(t.setup, (*prefix, wire)).encode())
    assert verdict.exit_code == 1
    assert (verdict.violation.seat, verdict.violation.code) == (SEATS - 1, "reveal/positions")


def test_silent_at_reveal_owes_but_is_not_blamed(at_reveal: Table) -> None:
    verdict = replay(at_reveal.referees[0].transcript().encode())
    assert verdict.exit_code == 3 and verdict.violation is None
    assert verdict.awaiting == (SEATS - 1, "reveal")
