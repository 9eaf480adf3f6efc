"""Two frames for one place (spec/10-session.md 10.8): the rule, the referee's rewind, the
store's superseded records, and a transcript that holds a superseded frame."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from peers.net.fork import Forks
from peers.store.games import GameStore
from protocol.errors import Violation
from protocol.fork import rank, rivals, takes_place
from protocol.frames import MessageType, parse_frame
from protocol.identity import Identity
from protocol.referee import Referee
from protocol.seat import SeatAgent
from protocol.setup import GameSetup
from protocol.transcript import Transcript
from protocol.verifier import replay

SEATS = 4


def table(seed: int = 1) -> tuple[GameSetup, list[SeatAgent], Referee]:
    rng = random.Random(seed)
    ids = [Identity(rng.randbytes(32)) for _ in range(SEATS)]
    setup = GameSetup.create("mined-games", {"seats": SEATS, "rounds": 1},
                             [i.public_key for i in ids],
                             [rng.randbytes(32) for _ in range(SEATS)])
    ref = Referee(setup)
    agents = [SeatAgent(ref.game, s, ids[s], rng.randbytes(32)) for s in range(SEATS)]
    return setup, agents, ref


def play_to_open(ref: Referee, agents: list[SeatAgent]) -> None:
    """Every seat sends what it owes, in turn, until seat 1 owes the map seed's OPEN."""
    while ref.awaiting != (1, MessageType.OPEN):
        due = ref.awaiting
        assert due is not None
        ref.receive(agents[due[0]].next_frame(ref.state, os.urandom(32), lambda v: None))


def race(ref: Referee, agents: list[SeatAgent]) -> tuple[bytes, bytes, bytes]:
    """At the current place: the owed OPEN of seat 1, and declarations of its absence by
    seats 2 and 3, all on the same prefix."""
    due = ref.awaiting
    assert due == (1, MessageType.OPEN)
    answer = agents[1].next_frame(ref.state, os.urandom(32))
    return (answer, agents[2].declare_absent(ref.state, os.urandom(32)),
            agents[3].declare_absent(ref.state, os.urandom(32)))


def test_a_declaration_takes_the_place_from_the_late_answer_and_the_lower_declarer_wins(
        ) -> None:
    _, agents, ref = table()
    play_to_open(ref, agents)          # share keys, the map seed's commits, seat 0's open
    answer, by2, by3 = (parse_frame(w) for w in race(ref, agents))
    assert rivals(answer, by2) and rivals(by2, by3) and rivals(by3, answer)
    assert rank(by2) < rank(by3) < rank(answer)
    assert takes_place(by2, answer, []) and takes_place(by3, answer, [])
    assert takes_place(by2, by3, []) and not takes_place(by3, by2, [])
    assert not takes_place(answer, by2, []) and not takes_place(answer, answer, [])
    # A declarer that has built on the answer conceded the place to it.
    ref.receive(answer.wire)
    later = parse_frame(agents[2].next_frame(ref.state, os.urandom(32), lambda v: None))
    assert later.seat == 2 and not takes_place(by2, answer, [later])


def test_the_referee_rewinds_to_the_place_and_every_order_reaches_one_chain() -> None:
    _, agents, ref = table()
    play_to_open(ref, agents)
    frames = race(ref, agents)
    chains = set()
    for order in ([0, 1, 2], [2, 1, 0], [1, 0, 2], [0, 2, 1]):
        seat_ref = Referee(ref.game.setup)
        for f in ref.frames:
            seat_ref.receive(f.wire)
        forks = Forks()
        for i in order:
            rival = forks.rival(seat_ref, frames[i])
            if rival is None:
                if parse_frame(frames[i]).seq == len(seat_ref.frames):
                    seat_ref.receive(frames[i])
            elif forks.takes(seat_ref, rival):
                before = seat_ref.state_before(rival.seq)
                dropped = seat_ref.rewind(rival.seq)
                assert [f.seq for f in dropped] == [rival.seq] and seat_ref.state is before
                seat_ref.receive(frames[i])
        chains.add(tuple(f.wire for f in seat_ref.frames))
    assert chains == {(*tuple(f.wire for f in ref.frames), frames[1])}   # seat 2's


def test_a_store_keeps_superseded_frames_as_records_and_a_transcript_never_holds_one(
        tmp_path: Path) -> None:
    setup, agents, ref = table()
    play_to_open(ref, agents)
    answer, by2, _ = race(ref, agents)
    store = GameStore.create(tmp_path, setup, 0, os.urandom(32), {})
    for f in ref.frames:
        store.append(f.seq, f.wire)
    place = len(ref.frames)
    store.append(place, answer)
    store.rewind(place)
    store.append(place, by2)
    store.close()
    store = GameStore.open(store.path)        # the new table passes the file's checks
    assert store.superseded() == [answer] and store.frames(place) == [by2]
    good = store.transcript()
    assert replay(good.encode()).valid and answer not in good.encode()
    store.close()
    # The superseded frame after the winner, or as evidence: not a valid transcript.
    bad = replay(Transcript(setup, (*good.frames, answer), ()).encode())
    assert not bad.valid and bad.violation.code == "frame/sequence"
    bad = replay(Transcript(setup, good.frames, (answer,)).encode())
    assert not bad.valid and bad.violation.code == "transcript/bad-evidence"


def test_the_same_seat_on_two_histories_is_not_equivocation_but_on_one_place_it_is() -> None:
    _, agents, ref = table()
    play_to_open(ref, agents)
    _, by2, by3 = race(ref, agents)
    other = Referee(ref.game.setup)
    for f in ref.frames:
        other.receive(f.wire)
    ref.receive(by3)
    other.receive(by2)
    # Seat 0 declares too, on both histories, at the same seq.
    mine = agents[0].declare_absent(ref.state, os.urandom(32))
    theirs = agents[0].declare_absent(other.state, os.urandom(32))
    assert parse_frame(mine).seq == parse_frame(theirs).seq and mine != theirs
    ref.receive(mine)
    with pytest.raises(Violation) as caught:
        ref.receive(theirs)
    assert caught.value.code == "frame/chain" and not caught.value.authenticated
    assert ref.violation is None
    # A second, different frame of seat 0 for the same place is equivocation.
    place = ref.state_before(len(ref.frames) - 1)
    twice = agents[0].sign(place, MessageType.ABSENT, [1, place.rules_state.stage])
    with pytest.raises(Violation) as caught:
        ref.receive(twice)
    assert caught.value.code == "frame/equivocation" and caught.value.seat == 0
