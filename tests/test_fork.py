"""Two frames for one place (spec/10-session.md 10.8): the rule, the referee's rewind, the
store's superseded records, and a transcript that holds a superseded frame."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import VECTOR_SUITES, load_vectors, suite_id

from peers.cheats import mined_games as mc
from peers.net.fork import MAX_FOREIGN_PER_SEAT, Forks
from peers.store.games import GameStore
from protocol import fork as fork_module
from protocol.errors import Violation
from protocol.fork import Branch, branch, rank, rivals, takes_place
from protocol.frames import MessageType, parse_frame
from protocol.identity import Identity
from protocol.messages import AbsentBody
from protocol.referee import Referee
from protocol.seal import pad
from protocol.sealed import PLAINTEXT_BYTES
from protocol.seat import SeatAgent
from protocol.session import apply_frame
from protocol.setup import GameSetup
from protocol.state import Phase
from protocol.suite import Suite, v2_suite
from protocol.transcript import Transcript
from protocol.verifier import replay

S = v2_suite()  # edwards25519-sha512, dealerless/2
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


def play_to(ref: Referee, agents: list[SeatAgent], due: tuple[int, MessageType]) -> None:
    """Every seat sends what it owes, in turn, until `due` is owed."""
    while ref.awaiting != due:
        owed = ref.awaiting
        assert owed is not None
        ref.receive(agents[owed[0]].next_frame(ref.state, os.urandom(32), lambda v: None))


def play_to_open(ref: Referee, agents: list[SeatAgent]) -> None:
    """Until seat 1 owes the map seed's OPEN (share keys, the commits, seat 0's open)."""
    play_to(ref, agents, (1, MessageType.OPEN))


def race(ref: Referee, agents: list[SeatAgent]) -> tuple[bytes, bytes, bytes]:
    """At the current place: the frame seat 1 owes, and declarations of its absence by
    seats 2 and 3, all on the same prefix."""
    due = ref.awaiting
    assert due is not None and due[0] == 1
    answer = agents[1].next_frame(ref.state, os.urandom(32), lambda v: None)
    return (answer, agents[2].declare_absent(ref.state, os.urandom(32)),
            agents[3].declare_absent(ref.state, os.urandom(32)))


def alone(ref: Referee, wire: bytes) -> Branch:
    """The branch of one frame at the current place."""
    return branch(ref.game, ref.state, [parse_frame(wire, S)])


def test_at_a_commit_the_late_answer_keeps_the_place_and_the_lower_declarer_beats_others(
        ) -> None:
    """Nothing disclosed: the owed COMMIT comes before the declarations of its absence
    (rule 3), and of two declarations the lower seat's comes first."""
    _, agents, ref = table()
    play_to(ref, agents, (1, MessageType.COMMIT))   # the map seed's commits
    answer, by2, by3 = race(ref, agents)
    a, b2, b3 = (parse_frame(w, S) for w in (answer, by2, by3))
    assert rivals(a, b2) and rivals(b2, b3) and rivals(b3, a)
    assert rank(a) < rank(b2) < rank(b3)
    ba, bb2, bb3 = (alone(ref, w) for w in (answer, by2, by3))
    assert ba.revealing == bb2.revealing == bb3.revealing == 0
    assert takes_place(ba, bb2) and takes_place(ba, bb3)
    assert takes_place(bb2, bb3) and not takes_place(bb3, bb2)
    assert not takes_place(bb2, ba) and not takes_place(ba, ba)
    for one in (ba, bb2, bb3):   # of two rival branches exactly one takes the place
        for other in (ba, bb2, bb3):
            if one is not other:
                assert takes_place(one, other) != takes_place(other, one)


def test_at_an_open_the_opening_beats_shares_and_the_lower_declarer_beats_others() -> None:
    _, agents, ref = table()
    play_to_open(ref, agents)
    answer, by2, by3 = race(ref, agents)
    ba, bb2, bb3 = (alone(ref, w) for w in (answer, by2, by3))
    # A first declaration carries no share (shares wait for t = 2 declarations), and the
    # OPEN opens the seal (rule 1).
    assert (ba.opened, ba.shared) == (1, 0) and (bb2.opened, bb2.shared) == (0, 0)
    assert takes_place(ba, bb2) and not takes_place(bb2, ba)
    assert takes_place(bb2, bb3) and not takes_place(bb3, bb2)
    # The t-th declaration carries its share: one share of three holders opens nothing
    # (a holder of the others could open the seal with it, so it counts, rule 2).
    ref.receive(by2)
    second = agents[3].declare_absent(ref.state, os.urandom(32))
    assert (alone(ref, second).opened, alone(ref, second).shared) == (0, 1)


def test_a_late_declaration_never_takes_the_place_of_the_commit_it_names() -> None:
    """Seat 3 declares seat 1 absent at its COMMIT and keeps it. Neither before anything
    is disclosed (rule 3) nor after seat 1 posts a share of the slow opener's seal (with
    seat 3's own share that would make the two needed) does it take the place."""
    _, agents, ref = table()
    play_to(ref, agents, (1, MessageType.COMMIT))
    place = len(ref.frames)
    late = agents[3].declare_absent(ref.state, os.urandom(32))
    play_to(ref, agents, (0, MessageType.OPEN))
    forks = Forks()
    assert forks.judge(ref, *forks.branch_of(ref, late)) is None   # nothing disclosed
    ref.receive(agents[2].declare_absent(ref.state, os.urandom(32)))
    ref.receive(agents[1].declare_absent(ref.state, os.urandom(32)))   # the t-th, shared
    assert (ref.branch(place).opened, ref.branch(place).shared) == (0, 1)
    assert forks.judge(ref, *forks.branch_of(ref, late)) is None


def test_the_referee_rewinds_to_the_place_and_every_order_reaches_one_chain() -> None:
    _, agents, ref = table()
    play_to(ref, agents, (1, MessageType.COMMIT))
    frames = race(ref, agents)
    chains = set()
    for order in ([0, 1, 2], [2, 1, 0], [1, 0, 2], [0, 2, 1]):
        seat_ref = Referee(ref.game.setup)
        for f in ref.frames:
            seat_ref.receive(f.wire)
        forks = Forks()
        for i in order:
            found = forks.branch_of(seat_ref, frames[i])
            if found is None:
                if parse_frame(frames[i], S).seq == len(seat_ref.frames):
                    seat_ref.receive(frames[i])
                continue
            winner = forks.judge(seat_ref, *found)
            if winner is not None:
                before = seat_ref.state_before(found[0])
                dropped = seat_ref.rewind(found[0])
                assert [f.seq for f in dropped] == [found[0]] and seat_ref.state is before
                for f in winner:
                    seat_ref.receive(f.wire)
        chains.add(tuple(f.wire for f in seat_ref.frames))
    assert chains == {(*tuple(f.wire for f in ref.frames), frames[0])}   # the answer


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
    assert parse_frame(mine, S).seq == parse_frame(theirs, S).seq and mine != theirs
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


def silent_declarer() -> tuple[list[SeatAgent], Referee, int, list[bytes], bytes]:
    """Seat 3 declares seat 1 absent at its COMMIT (the late declaration, kept back) and
    goes silent; on the chain A, seat 1 commits, then seats 0 and 1 (two of the three
    others) declare seat 3 absent and it forfeits. Returns the agents, A, the place, the
    frames before it and the declaration."""
    _, agents, a = table()
    play_to(a, agents, (1, MessageType.COMMIT))
    place = len(a.frames)
    prefix = [f.wire for f in a.frames]
    late = agents[3].declare_absent(a.state, os.urandom(32))
    a.receive(agents[1].next_frame(a.state, os.urandom(32), lambda v: None))
    play_to(a, agents, (3, MessageType.COMMIT))
    for d in (0, 1):
        a.receive(agents[d].declare_absent(a.state, os.urandom(32)))
    return agents, a, place, prefix, late


def test_a_seat_that_took_a_declaration_goes_to_the_chain_of_the_answer() -> None:
    """Seat 3 declares seat 1 absent at its COMMIT and goes silent. Seat A takes seat 1's
    COMMIT, then the table declares seat 3 absent and opens orders; seat B took the
    declaration first. Whatever order the frames come in, both end on A's chain."""
    agents, a, place, prefix, late = silent_declarer()
    assert a.state.phase is not Phase.COMMIT
    a.receive(agents[a.awaiting[0]].next_frame(a.state, os.urandom(32), lambda v: None))
    assert a.branch(place).revealing == 1
    chain = [f.wire for f in a.frames]
    forks_a = Forks()
    assert forks_a.judge(a, *forks_a.branch_of(a, late)) is None   # A keeps its chain
    for order in (range(place, len(chain)), reversed(range(place, len(chain)))):
        b = Referee(a.game.setup)
        for w in [*prefix, late]:
            b.receive(w)
        forks = Forks()
        for i in order:
            found = forks.branch_of(b, chain[i])
            if found is None:
                f = parse_frame(chain[i], S)
                if f.seq == len(b.frames) and f.prev == b.state.prev:
                    b.receive(chain[i])      # simply the next frame of the chain held
                continue
            winner = forks.judge(b, *found)
            if winner is not None:
                b.rewind(found[0])
                for f in winner:
                    b.receive(f.wire)
        assert [f.wire for f in b.frames] == chain


@pytest.mark.parametrize("suite", VECTOR_SUITES, ids=suite_id)
def test_the_fork_vectors_keep_the_place_by_the_rule_they_name(suite: Suite) -> None:
    doc = load_vectors("fork", suite)
    setup = GameSetup.decode(bytes.fromhex(doc["setup"]))
    assert setup.suite.context == suite.context
    chain = [bytes.fromhex(w) for w in doc["chain"]]
    rules_met = set()
    for case in doc["cases"]:
        ref = Referee(setup)
        for w in chain[:case["prefix"]]:
            ref.receive(w)
        rivals_ = [branch(ref.game, ref.state,
                          [parse_frame(bytes.fromhex(w), suite) for w in ws])
                   for ws in case["branches"]]
        assert [len(b.frames) for b in rivals_] == [len(ws) for ws in case["branches"]]
        assert [b.opened for b in rivals_] == case["opened"], case["name"]
        assert [b.shared for b in rivals_] == case["shared"], case["name"]
        assert [b.signers for b in rivals_] == case["signers"], case["name"]
        won = rivals_[case["winner"]]
        for other in rivals_:
            if other is not won:
                assert takes_place(won, other) and not takes_place(other, won), case["name"]
        rules_met.add(case["rule"])
    assert rules_met == {1, 2, 3, 4}


@pytest.mark.parametrize("suite", VECTOR_SUITES, ids=suite_id)
def test_the_fork_vectors_are_what_the_code_generates(suite: Suite) -> None:
    root = Path(__file__).resolve().parent.parent
    suite_args = [] if suite.version == 2 else ["--suite", suite.name]
    proc = subprocess.run([sys.executable, str(root / "tools" / "gen_fork_vectors.py"),
                           "--check", *suite_args], cwd=root, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@dataclass
class Race:
    """Seat 0 declared seat 1 absent at its COMMIT (one of the two declarations needed).
    On chain A seat 1's late COMMIT came, then seats 2 and 3 committed; on branch B seat
    2's declaration completed the forfeit, seats 2 and 3 committed and seat 0 opened."""

    agents: list[SeatAgent]
    a: Referee        # A's chain, up to seat 3's COMMIT
    place: int        # where A holds seat 1's COMMIT and B seat 2's declaration
    b: list[bytes]    # B from the place: the declaration, two COMMITs, seat 0's OPEN
    open_a: bytes     # seat 0's OPEN on A


def completing_race() -> Race:
    _, agents, a = table()
    play_to(a, agents, (1, MessageType.COMMIT))
    a.receive(agents[0].declare_absent(a.state, os.urandom(32)))
    place = len(a.frames)
    b = Referee(a.game.setup)
    for f in a.frames:
        b.receive(f.wire)
    b.receive(agents[2].declare_absent(b.state, os.urandom(32)))
    for chain in (a, b):
        while chain.state.phase is Phase.COMMIT:
            chain.receive(agents[chain.awaiting[0]].next_frame(chain.state, os.urandom(32),
                                                               lambda v: None))
    assert b.awaiting == (0, MessageType.OPEN) == a.awaiting
    b.receive(agents[0].next_frame(b.state, os.urandom(32), lambda v: None))
    open_a = agents[0].next_frame(a.state, os.urandom(32), lambda v: None)
    return Race(agents, a, place, [f.wire for f in b.frames[place:]], open_a)


def test_a_seat_that_committed_on_two_branches_opens_the_seal_of_the_one_that_stays() -> None:
    """Seat 3 committed on A, goes to B once B opens a seal, and back to A when A opens
    one too (a tie goes to the owed COMMIT A holds). Its OPEN must open the COMMIT the
    chain holds: a seat that re-commits in a stage seals the same orders with the same
    nonce (10.8)."""
    race = completing_race()
    seat3, forks = race.a, Forks()
    for wire in race.b:
        found = forks.branch_of(seat3, wire)
        assert found is not None and found[0] == race.place
        winner = forks.judge(seat3, *found)
        if wire != race.b[-1]:
            assert winner is None        # nothing disclosed: the answer keeps the place
    assert winner is not None            # B opened a seal
    for f in seat3.rewind(race.place):
        forks.foreign[f.hash] = f       # as Forks.give_up keeps what it drops
    for f in winner:
        seat3.receive(f.wire)
    found = forks.branch_of(seat3, race.open_a)
    assert found is not None and found[0] == race.place
    winner = forks.judge(seat3, *found)
    assert winner is not None            # one seal each: the owed COMMIT's branch
    seat3.rewind(race.place)
    for f in winner:
        seat3.receive(f.wire)
    agents = race.agents
    while seat3.state.rules_state.stage == 0:   # every seat opens what this chain holds
        seat3.receive(agents[seat3.awaiting[0]].next_frame(seat3.state, os.urandom(32),
                                                           lambda v: None))
    assert seat3.violation is None


def test_judging_a_growing_branch_checks_each_frame_once(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Any seat can sign frames onto a branch, so judging it again as it grows must not
    replay it: each frame of another history is checked once (its state kept)."""
    race = completing_race()
    checked = []
    real = fork_module.apply_frame
    monkeypatch.setattr(fork_module, "apply_frame",
                        lambda *args: checked.append(1) or real(*args))
    forks = Forks()
    for wire in race.b:
        found = forks.branch_of(race.a, wire)
        assert found is not None
        winner = forks.judge(race.a, *found)
    assert winner is not None and len(checked) == len(race.b)


def test_one_seat_signing_frames_of_other_histories_forgets_only_its_own() -> None:
    """Frames of other histories are kept per signer (12.3 step 4): a seat that signs a
    thousand frames on histories it makes up pushes out only its own, and the rival
    branch another seat signed is still kept and judged."""
    agents, a, place, prefix, late = silent_declarer()
    b = Referee(a.game.setup)
    for w in [*prefix, late]:
        b.receive(w)
    forks = Forks()
    theirs = [f.wire for f in a.frames[place:]]
    for w in theirs[:-1]:
        forks.branch_of(b, w)
    rng = random.Random(7)
    for i in range(1000):   # validly signed, built on nothing anyone holds
        junk = b.state.with_(prev=rng.randbytes(32), seq=place + 1 + i % 40)
        assert forks.branch_of(b, agents[2].sign(junk, MessageType.COMMIT, [])) is None
    assert len(forks.signed[2]) == MAX_FOREIGN_PER_SEAT
    kept = {parse_frame(w, S).seat: parse_frame(w, S).hash in forks.foreign for w in theirs[:-1]}
    assert kept[0] and kept[1] and not kept[2]   # only the flooder's own were forgotten
    for w in theirs[:-1]:   # the branch shown again (12.3 step 3): seat 2's come back
        forks.branch_of(b, w)
    found = forks.branch_of(b, theirs[-1])
    assert found is not None and found[0] == place
    assert [f.wire for f in found[1]] == theirs


def test_a_seat_that_breaks_a_rule_on_another_history_is_barred_from_them() -> None:
    """A frame that breaks the rules on a valid prefix of another history proves its
    signer cheats: the branch stops before it, and that seat's frames of other
    histories are no longer kept (12.3 step 4)."""
    race = completing_race()
    game, b = race.a.game, Referee(race.a.game.setup)
    for f in race.a.frames[:race.place]:
        b.receive(f.wire)
    b.receive(race.b[0])                       # seat 2's completing declaration
    assert b.awaiting == (2, MessageType.COMMIT)
    stage = b.state.rules_state.stage
    wrong = race.agents[3].sign(b.state, MessageType.ABSENT, AbsentBody(1, stage).encode(S))
    forks = Forks()
    assert forks.judge(race.a, *forks.branch_of(race.a, race.b[0])) is None
    found = forks.branch_of(race.a, wrong)           # the branch stops before it
    assert found is not None and [f.seat for f in found[1]] == [2]
    assert forks.barred == {3: "absent/wrong-seat"} and not forks.signed[3]
    assert forks.judge(race.a, *found) is None     # nothing disclosed: A keeps its place
    assert forks.branch_of(race.a, race.b[2]) is None   # seat 3's COMMIT on B: not kept
    assert race.a.violation is None and game is race.a.game


def test_a_share_that_opens_a_seal_of_garbage_bars_nobody() -> None:
    """The share completing the opening of a garbage seal breaks a rule, but the fault is
    the committer's (10.8), not its honest signer's: the signer is not barred."""
    t = mc.table(5, 5)
    mc.advance_to(t, mc.owes(Phase.COMMIT, 1, 2))
    garbage = pad(b"\x93" + bytes(40), PLAINTEXT_BYTES)
    t.deliver(t.agents[1].sign(mc.state(t), MessageType.COMMIT,
                               mc.seal_of(t, 1, None, bytes(range(32)), garbage).encode(t.suite)))
    mc.advance_to(t, mc.owes(Phase.OPEN, 1, 2))
    t.deliver(t.agents[4].declare_absent(mc.state(t), bytes(32)))
    state = mc.state(t)
    by2 = t.agents[2].declare_absent(state, bytes(32))
    t.deliver(t.agents[0].declare_absent(state, bytes(32)))   # seat 0's own chain
    by3 = t.agents[3].declare_absent(apply_frame(t.referees[0].game, state,
                                                 parse_frame(by2, t.suite)), bytes(32))
    forks = Forks()
    for wire in (by2, by3):
        found = forks.branch_of(t.referees[0], wire)
        if found is not None:
            forks.judge(t.referees[0], *found)
    assert forks.barred == {}


def test_a_branch_that_forks_again_gives_one_chain_whatever_order_its_frames_come_in(
        ) -> None:
    """The last review's F-C: five seats, seat 2 slow at its COMMIT. A holds seat 2's late
    COMMIT and the COMMITs of seats 3 and 4. Foreign: seat 0's declaration, on which
    seats 1 and 4 both declared; on seat 1's, seat 3 completed the forfeit and seats 3
    and 4 committed. The branch follows, at that fork, the declaration the rule keeps,
    so both arrival orders give the same judgement."""
    t = mc.table(0, 5)
    mc.advance_to(t, mc.owes(Phase.COMMIT, 2, 2))
    game, s0 = t.referees[0].game, mc.state(t)
    x = t.agents[0].declare_absent(s0, bytes(32))
    s1 = apply_frame(game, s0, parse_frame(x, t.suite))
    d1, d4 = (t.agents[d].declare_absent(s1, bytes(32)) for d in (1, 4))
    s2 = apply_frame(game, s1, parse_frame(d1, t.suite))
    d3 = t.agents[3].declare_absent(s2, bytes(32))
    state = apply_frame(game, s2, parse_frame(d3, t.suite))
    commits = []
    for seat in (3, 4):
        commits.append(t.agents[seat].next_frame(state, bytes(32), t.choosers[seat]))
        state = apply_frame(game, state, parse_frame(commits[-1], t.suite))
    for _ in range(3):
        t.step()                       # A: seat 2's COMMIT, then seats 3 and 4
    outcomes = set()
    for order in ([d1, d3, *commits, d4, x], [x, d4, d1, d3, *commits]):
        seat = Referee(game.setup)
        for f in t.referees[0].frames:
            seat.receive(f.wire)
        forks, winner = Forks(), None
        for wire in order:
            found = forks.branch_of(seat, wire)
            if found is not None:
                winner = forks.judge(seat, *found) or winner
        outcomes.add(None if winner is None else tuple(f.wire for f in winner))
    assert len(outcomes) == 1
