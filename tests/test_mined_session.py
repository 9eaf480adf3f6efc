"""Mined Games on the session (spec/10-session.md 10.8): selfplay and verify from the
command line, blame for a wrong reveal, illegal orders and a bad choice, a late reveal
that forfeits by the other seats' declarations, and dispute/check-step of a stage frame."""

from __future__ import annotations

import contextlib
import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peers.cheats import mined_games as mined_cheats
from peers.cheats.deck_games import Cheat
from peers.table.report import account
from peers.table.selfplay import Table
from protocol.canonical import pack, unpack
from protocol.errors import EncodingError, Violation
from protocol.frames import MessageType, parse_frame
from protocol.messages import AbsentBody
from protocol.referee import Referee
from protocol.seal import DecryptionShare, decryption_share
from protocol.sealed import holders_context, stored_seal
from protocol.session import step
from protocol.state import Phase, PublicState
from protocol.suite import table_suite
from protocol.transcript import Transcript
from protocol.verifier import check_step, dispute_package, dispute_packages, replay

S = table_suite()  # the suite of the tables these tests play
CLI = [sys.executable, "-m", "peers.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True)


def test_selfplay_of_five_seats_verifies_complete_naming_the_ec_and_token_winner(
        tmp_path: Path) -> None:
    out = tmp_path / "g.t"
    made = run("selfplay", "--rules", "mined-games", "--seats", "5", "--out", str(out),
               "--seed", "3")
    assert made.returncode == 0, made.stderr
    assert "wins two tokens of life" in made.stdout
    proc = run("verify", str(out), "--json")
    assert proc.returncode == 0
    verdict = json.loads(proc.stdout)
    assert verdict["valid"] and verdict["complete"]
    outcome = verdict["outcome"]
    assert outcome["token_winner"] in range(5)
    assert outcome["elimination_candidate"] in range(5)
    assert outcome["token_winner"] != outcome["elimination_candidate"]
    assert len(outcome["money"]) == 5 and len(verdict["seats"]) == 5
    assert verdict["rules"]["name"] == "mined-games"
    text = run("verify", str(out))
    assert text.returncode == 0
    assert (f"seat {outcome['elimination_candidate']} is the elimination candidate"
            in text.stdout)
    assert "starts on B1" in text.stdout


def test_a_map_file_enters_the_setup_and_a_bad_one_is_a_usage_error(tmp_path: Path) -> None:
    good = tmp_path / "mine.txt"
    good.write_text("DGDDS,DDDDD,DDIDD\n/DDDDD,DSDDD,DDDDD\n/DDDDD,DDDDD,DDGDD\n"
                    "/LLLLL,LLLLL,LLLLL\n")
    out = tmp_path / "g.t"
    assert run("selfplay", "--rules", "mined-games", "--seats", "3", "--map", str(good),
               "--out", str(out), "--seed", "4").returncode == 0
    verdict = json.loads(run("verify", str(out), "--json").stdout)
    assert verdict["complete"] and verdict["rules"]["params"]["map"] == (
        "DGDDS,DDDDD,DDIDD/DDDDD,DSDDD,DDDDD/DDDDD,DDDDD,DDGDD/LLLLL,LLLLL,LLLLL")
    assert (verdict["rules"]["params"]["width"], verdict["rules"]["params"]["height"]) == (5, 3)
    assert not any("map-seed" in m["move"] for m in verdict["moves"])  # no seed stage
    bad = tmp_path / "bad.txt"
    bad.write_text("DGDXS,DD")
    proc = run("selfplay", "--rules", "mined-games", "--map", str(bad), "--out", str(out))
    assert proc.returncode == 2 and "the map has 1 floor, not 4" in proc.stderr
    proc = run("selfplay", "--rules", "bram", "--map", str(good), "--out", str(out))
    assert proc.returncode == 2 and "the rules bram take no --map" in proc.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["--seats", "9"], "invalid choice: 9"),
    (["--komi", "1"], "the rules mined-games have no komi (--komi)"),
    (["--set", "double-nine"], "the rules mined-games use no dominoes (no --set)"),
    (["--match"], "mined-games is played one round at a time (no --match)"),
])
def test_selfplay_refuses_options_mined_games_does_not_take(tmp_path: Path, args: list[str],
                                                            words: str) -> None:
    proc = run("selfplay", "--rules", "mined-games", *args, "--out", str(tmp_path / "x.t"))
    assert proc.returncode == 2 and words in proc.stderr
    assert not (tmp_path / "x.t").exists()


def judged(cheat: Cheat) -> Violation:
    """Every honest referee refuses the bad frame with the cheat's rule and seat; the
    saved transcript then verifies invalid, blaming the same seat and frame."""
    for ref in cheat.table.referees:
        with pytest.raises(Violation) as info:
            ref.receive(cheat.bad_frame)
        v = info.value
        assert (v.code, v.seat, v.frame, v.authenticated) == (cheat.rule, cheat.seat,
                                                              cheat.frame, True)
    verdict = replay(cheat.transcript())
    assert verdict.exit_code == 1 and verdict.violation is not None
    assert (verdict.violation.code, verdict.violation.seat,
            verdict.violation.frame) == (cheat.rule, cheat.seat, cheat.frame)
    return verdict.violation


def test_a_reveal_that_does_not_open_the_commitment_is_blamed_on_its_seat() -> None:
    v = judged(mined_cheats.wrong_reveal())
    assert "seat 2's opening secret does not open its seal" in v.detail


def test_orders_that_break_the_rules_are_blamed_on_their_seat() -> None:
    v = judged(mined_cheats.illegal_orders())
    assert "6 steps need 1 garnets" in v.detail


def test_a_winner_naming_a_living_seat_is_blamed() -> None:
    judged(mined_cheats.bad_choice())


def test_the_winner_names_the_ec_when_several_die_in_a_signed_frame() -> None:
    t = mined_cheats.two_die_in_lava(choice=2)
    data = t.play().encode()
    verdict = replay(data)
    assert verdict.exit_code == 0
    out = verdict.to_json()["outcome"]
    assert out["status"] == ["alive", "lava", "lava", "alive", "alive"]
    assert (out["token_winner"], out["elimination_candidate"]) == (0, 2)
    assert out["how"] == "chosen by the winner"
    last = parse_frame(Transcript.decode(data).frames[-1], S)
    assert (last.type, last.seat) == (MessageType.CHOOSE, 0)
    assert verdict.moves[-1]["move"] == "names seat 2 the elimination candidate"


def test_a_withheld_open_is_opened_by_a_majority_of_the_other_seats() -> None:
    t, late = mined_cheats.withheld_open(seat=3, stage=3)
    data = t.referees[0].transcript().encode()
    verdict = replay(data)
    assert verdict.exit_code == 0 and verdict.complete
    out = verdict.to_json()["outcome"]
    assert out["status"][3] != "forfeit" and out["forfeits"] == []
    # Seats 4 and 2 declare, seat 1 declares third with its share, then seats 0 and 4
    # post theirs: the three shares open the seal.
    assert out["withheld"] == [{"seat": 3, "stage": 3, "opened_by": [0, 1, 4]}]
    declarations = [m for m in verdict.moves if "absent" in m["move"] or "its share" in
                    m["move"]]
    assert [m["seat"] for m in declarations] == [4, 2, 1, 0, 4]   # any order
    assert declarations[2]["move"] == "declares seat 3 absent in stage 3 with its share"
    assert declarations[-1]["move"].startswith(
        "posts its share of seat 3's seal in stage 3; seats 0, 1, 4 open its seal: ")
    text = account(verdict)
    assert "Seat 3 withheld its OPEN in stage 3: seats 0, 1, 4 opened its seal" in text
    # The late OPEN, arriving after the declarations, changes nothing and is evidence
    # against nobody: it raced the first declaration for the same step.
    for ref in t.referees:
        with pytest.raises(Violation) as info:
            ref.receive(late)
        assert not info.value.authenticated
        assert ref.violation is None and ref.complete


def test_a_missing_commit_forfeits_on_a_majority_of_declarations() -> None:
    t, _late = mined_cheats.late_commit(seat=3, stage=3)
    verdict = replay(t.referees[0].transcript().encode())
    assert verdict.exit_code == 0 and verdict.complete
    out = verdict.to_json()["outcome"]
    assert out["elimination_candidate"] == 3 and out["status"][3] == "forfeit"
    assert out["forfeits"] == [{"seat": 3, "stage": 3, "declared_by": [1, 2, 4],
                                "proven": False}]
    text = account(verdict)
    assert "Seat 3 forfeited in stage 3: seats 1, 2, 4 each signed" in text
    assert "rests on their declarations, not on proof" in text


@pytest.mark.parametrize("stage", [0, 1])
def test_a_forfeit_in_the_map_or_start_stage_ends_the_game_at_once(stage: int) -> None:
    t, _late = mined_cheats.late_commit(seat=1, stage=stage)
    verdict = replay(t.referees[0].transcript().encode())
    assert verdict.exit_code == 0
    out = verdict.to_json()["outcome"]
    assert out["elimination_candidate"] == 1 and out["how"] == "forfeited"
    assert out["money"] == [0] * 5 and out["token_winner"] != 1
    state = t.referees[0].state
    rules = t.referees[0].game.rules
    assert rules.state_from_json(rules.state_to_json(state.rules_state)) == state.rules_state


def test_a_seat_that_never_sends_its_share_key_forfeits() -> None:
    t = mined_cheats.table(5)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.KEYS, 2, 0))
    mined_cheats.declare(t, [4, 0, 3])
    s = mined_cheats.state(t)
    assert s.rules_state.miners[2].status == "forfeit" and s.rules_state.keys[2] is None
    assert s.phase is Phase.KEYS and s.turn == 3
    verdict = replay(t.play().encode())
    out = verdict.to_json()["outcome"]
    assert verdict.exit_code == 0 and out["elimination_candidate"] == 2
    assert out["forfeits"] == [{"seat": 2, "stage": 0, "declared_by": [0, 3, 4],
                                "proven": False}]


def test_a_bad_seal_is_blamed_on_its_committer_at_once() -> None:
    v = judged(mined_cheats.bad_seal())
    assert "does not match seat 2's commitments" in v.detail


def test_a_bad_decryption_share_is_blamed_on_its_sender() -> None:
    v = judged(mined_cheats.bad_decryption_share(seat=3, liar=0))
    assert "seat 0's decryption share of seat 3's seal" in v.detail


def test_a_recovered_plaintext_that_is_no_orders_is_blamed_on_the_committer() -> None:
    cheat = mined_cheats.sealed_garbage(seat=1)
    v = judged(cheat)
    assert v.detail.startswith("recovered from its seal: seat 1's sealed plaintext")
    sender = parse_frame(cheat.bad_frame, S)
    assert sender.type is MessageType.ABSENT and sender.seat != 1


def test_two_colluding_silent_seats_do_not_stall_the_table() -> None:
    """Seat 3 withholds its OPEN and seat 4, a holder of its seal, never declares; the
    three others open the seal, seat 4 then owes its own OPEN, and they open that too."""
    t = mined_cheats.table(5)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.OPEN, 3, 3))
    mined_cheats.declare(t, [2, 0, 1])
    s = mined_cheats.state(t)
    assert (s.phase, s.turn) == (Phase.OPEN, 4)
    mined_cheats.declare(t, [1, 0, 2])
    stages = 3
    while t.step() is not None:
        s = mined_cheats.state(t)
        if s.phase is Phase.OPEN and s.turn == 3 and stages < 5:
            mined_cheats.declare(t, [0, 1, 2])   # both keep silent in later stages
            stages += 1
    verdict = replay(t.referees[0].transcript().encode())
    assert verdict.exit_code == 0 and verdict.complete
    out = verdict.to_json()["outcome"]
    assert out["forfeits"] == []
    assert [w["seat"] for w in out["withheld"]][:2] == [3, 4]


def test_two_colluding_seats_silent_at_commit_both_forfeit_and_the_game_ends() -> None:
    t = mined_cheats.table(5)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.COMMIT, 3, 2))
    mined_cheats.declare(t, [0, 2, 1])               # seat 4 keeps silent too
    s = mined_cheats.state(t)
    assert (s.phase, s.turn) == (Phase.COMMIT, 4)
    mined_cheats.declare(t, [2, 0])                  # a majority of the 3 others left
    while t.step() is not None:
        pass
    verdict = replay(t.referees[0].transcript().encode())
    out = verdict.to_json()["outcome"]
    assert verdict.exit_code == 0 and verdict.complete
    assert out["forfeits"] == [
        {"seat": 3, "stage": 2, "declared_by": [0, 1, 2], "proven": False},
        {"seat": 4, "stage": 2, "declared_by": [0, 2], "proven": False}]


def test_with_too_few_seats_left_to_open_a_seal_the_cut_file_names_the_owing_seat() -> None:
    """Three seats: seat 1 withholds its OPEN and seat 2 stays silent too; seat 0's share
    alone (t = 2 of its 2 holders) opens nothing, and the game stalls naming seat 1."""
    t = mined_cheats.table(5, seats=3)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.OPEN, 1, 2))
    mined_cheats.declare(t, [0])
    s = mined_cheats.state(t)
    assert (s.phase, s.turn) == (Phase.OPEN, 1) and not t.agents[0].may_declare(s)
    verdict = replay(t.referees[0].transcript().encode())
    assert verdict.exit_code == 3 and verdict.awaiting == (1, "open")
    assert "seat 1 owes the next frame (an open frame)" in account(verdict)


def lone_absent(t: Table, declarer: int) -> Violation:
    """The violation a referee holding `t`'s chain finds in `declarer`'s ABSENT against the
    seat that owes the next frame, signed as if it were eligible."""
    s = mined_cheats.state(t)
    wire = t.agents[declarer].sign(s, MessageType.ABSENT,
                                   AbsentBody(s.turn, s.rules_state.stage).encode(S))
    ref = Referee(t.setup)
    for f in t.referees[0].frames:
        ref.receive(f.wire)
    with pytest.raises(Violation) as info:
        ref.receive(wire)
    return info.value


@pytest.mark.parametrize("phase", [Phase.COMMIT, Phase.OPEN])
def test_with_two_seats_nobody_may_declare_and_a_silent_seat_stalls_the_game(
        phase: Phase) -> None:
    """One seat's word alone makes nobody forfeit (10.8): at a two-seat table a silent
    seat's COMMIT or OPEN is not declared, the game stalls, and the cut transcript names
    the silent seat; a declaration signed anyway is its declarer's violation."""
    t = mined_cheats.table(5, seats=2)
    mined_cheats.advance_to(t, mined_cheats.owes(phase, 1, 2))
    s = mined_cheats.state(t)
    assert not t.agents[0].may_declare(s)
    assert t.referees[0].game.stages.declarers(s.rules_state, 1) == []
    v = lone_absent(t, 0)
    assert (v.code, v.seat, v.authenticated) == ("absent/declarer", 0, True)
    assert "one seat's word alone makes nobody forfeit" in v.describe()
    verdict = replay(t.referees[0].transcript().encode())
    assert verdict.exit_code == 3 and verdict.awaiting == (1, phase.value)


def test_with_one_other_living_seat_left_nobody_may_declare_a_commit_absent() -> None:
    """Three seats: seat 0 forfeits at its COMMIT on the declarations of seats 1 and 2;
    seat 1 then owes its COMMIT, and seat 2 alone may not declare it absent."""
    t = mined_cheats.table(5, seats=3)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.COMMIT, 0, 2))
    mined_cheats.declare(t, [1, 2])
    s = mined_cheats.state(t)
    assert (s.phase, s.turn) == (Phase.COMMIT, 1) and not t.agents[2].may_declare(s)
    v = lone_absent(t, 2)
    assert (v.code, v.seat) == ("absent/declarer", 2)


def refused(t: Table, sender: int, state: PublicState, body: AbsentBody) -> Violation:
    """The violation a fresh referee of `t`'s frames finds in `sender`'s ABSENT `body`."""
    ref = Referee(t.setup)
    for f in t.referees[0].frames:
        ref.receive(f.wire)
    with pytest.raises(Violation) as info:
        ref.receive(t.agents[sender].sign(state, MessageType.ABSENT, body.encode(S)))
    return info.value


def test_declarations_must_name_the_owing_seat_and_come_from_an_eligible_seat() -> None:
    t = mined_cheats.table(5)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.OPEN, 3, 2))
    mined_cheats.declare(t, [0, 4])                 # t - 1 = 2 of the 4 holders
    s = mined_cheats.state(t)
    good = AbsentBody.decode(S, parse_frame(t.agents[1].declare_absent(s, bytes(32)), S).body,
                             1)
    assert good.share is not None                   # the t-th carries its share
    for sender, body, code in ((1, AbsentBody(2, 2, good.share), "absent/wrong-seat"),
                               (1, AbsentBody(3, 5, good.share), "absent/wrong-seat"),
                               (3, AbsentBody(3, 2, good.share), "absent/declarer"),
                               (0, AbsentBody(3, 2), "absent/declarer"),
                               (2, good, "seal/decryption-proof")):
        v = refused(t, sender, s, body)
        assert (v.code, v.seat) == (code, sender)


def test_shares_wait_for_t_declarations_and_each_holder_shares_once() -> None:
    """10.8: against a sealed OPEN the declarations carry no share until t holders have
    declared (the t-th may carry its own); then each holder posts its share once."""
    t = mined_cheats.table(5)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.OPEN, 3, 2))
    mined_cheats.declare(t, [0])
    s = mined_cheats.state(t)
    early = AbsentBody.decode(S, parse_frame(t.agents[4].declare_absent(s, bytes(32)), S).body,
                              4)
    assert early.share is None
    share = declared_share(t, 3, 4)
    v = refused(t, 4, s, AbsentBody(3, 2, share))
    assert (v.code, v.seat) == ("absent/share", 4) and "once t holders" in v.describe()
    for d in (4, 1):                                # the t-th, seat 1, posts its share
        t.deliver(t.agents[d].declare_absent(mined_cheats.state(t), bytes(32)))
    s = mined_cheats.state(t)
    assert [d for d, sh in s.rules_state.absent[1] if sh is not None] == [1]
    assert t.agents[0].shares_now(s) and t.agents[2].shares_now(s)
    v = refused(t, 2, s, AbsentBody(3, 2))
    assert (v.code, v.seat) == ("absent/share", 2)
    assert not t.agents[1].may_declare(s)
    v = refused(t, 1, s, AbsentBody(3, 2, declared_share(t, 3, 1)))
    assert (v.code, v.seat) == ("absent/declarer", 1)
    t.deliver(t.agents[0].declare_absent(s, bytes(32)))    # a second frame of seat 0: its share
    t.deliver(t.agents[4].declare_absent(mined_cheats.state(t), bytes(32)))
    s = mined_cheats.state(t)
    assert s.rules_state.absent is None and s.rules_state.withheld == ((3, 2, (0, 1, 4)),)


def declared_share(t: Table, seat: int, holder: int) -> DecryptionShare:
    """`holder`'s valid decryption share of `seat`'s seal in the current stage."""
    rs = mined_cheats.state(t).rules_state
    ctx = holders_context(S, t.setup.game_id, rs.stage, seat, rs.keys)
    seal = stored_seal(bytes(rs.commits[seat]), ctx)
    return decryption_share(ctx, seal, holder, t.agents[holder]._seal_x, bytes(32))


def test_a_seat_declares_a_silent_seat_once() -> None:
    t = mined_cheats.table(5)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.OPEN, 3, 2))
    wire = t.agents[4].declare_absent(mined_cheats.state(t), bytes(32))
    t.deliver(wire)
    s = mined_cheats.state(t)
    assert (s.phase, s.turn) == (Phase.OPEN, 3)          # seat 3 still owes its OPEN
    assert not t.agents[4].may_declare(s) and t.agents[1].may_declare(s)
    again = t.agents[4].sign(s, MessageType.ABSENT, AbsentBody.decode(
        S, parse_frame(wire, S).body, 4).encode(S))
    with pytest.raises(Violation) as info:
        t.referees[0].receive(again)
    assert (info.value.code, info.value.seat) == ("absent/declarer", 4)


def test_dispute_and_check_step_judge_a_stage_frame_alone(tmp_path: Path) -> None:
    cheat = mined_cheats.wrong_reveal()
    data = cheat.transcript()
    bad = check_step(dispute_package(data, cheat.frame))
    assert bad.violation is not None and bad.violation.code == "seal/opening"
    assert bad.violation.seat == cheat.seat
    good = check_step(dispute_package(data, cheat.frame - 1))
    assert good.valid and good.next_state_hash is not None
    path = tmp_path / "c.t"
    path.write_bytes(data)
    pkg = tmp_path / "p.bin"
    assert run("dispute", str(path), str(cheat.frame), "--out", str(pkg)).returncode == 0
    proc = run("check-step", str(pkg), "--json")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["violation"]["rule"] == "seal/opening"


def test_a_seat_that_answers_while_declared_absent_stays_in_the_game() -> None:
    t = mined_cheats.table(5)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.OPEN, 3, 2))
    mined_cheats.declare(t, [0])
    s = mined_cheats.state(t)
    assert s.phase is Phase.OPEN and s.turn == 3
    assert [d for d, _ in s.rules_state.absent[1]] == [0] and s.rules_state.absent[0] == 3
    assert t.agents[3].owed(s) is MessageType.OPEN and t.agents[1].may_declare(s)
    t = mined_cheats.answered_late()
    s = mined_cheats.state(t)
    assert s.rules_state.absent is None and s.rules_state.nonces[3] is not None
    data = t.play().encode()
    verdict = replay(data)
    out = verdict.to_json()["outcome"]
    assert verdict.exit_code == 0 and out["forfeits"] == [] and out["withheld"] == []
    assert verdict.moves[-1]["move"] != "declares seat 3 absent in stage 2"


def test_while_declared_absent_a_seat_may_send_only_the_frame_it_owed() -> None:
    t = mined_cheats.table(5)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.COMMIT, 3, 2))
    mined_cheats.declare(t, [0])
    s = mined_cheats.state(t)
    opening = t.agents[3].sign(s, MessageType.OPEN, [bytes(32)])
    with pytest.raises(Violation) as info:
        t.referees[1].receive(opening)
    assert (info.value.code, info.value.seat) == ("frame/unexpected-type", 3)
    with pytest.raises(Violation) as other:
        t.referees[2].receive(t.agents[4].sign(s, MessageType.COMMIT, [[], [], b""]))
    assert (other.value.code, other.value.seat) == ("frame/out-of-turn", 4)


SCALARS = (st.none() | st.booleans() | st.integers(-2, 300) | st.text(max_size=70)
           | st.binary(max_size=40))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=st.one_of(SCALARS, st.lists(SCALARS, max_size=4),
                     st.lists(st.one_of(SCALARS, st.lists(SCALARS, max_size=3)), max_size=3)),
       mtype=st.sampled_from([MessageType.COMMIT, MessageType.OPEN, MessageType.ABSENT,
                              MessageType.CHOOSE]))
def test_any_body_of_a_stage_frame_is_accepted_or_blamed_never_a_crash(
        body: object, mtype: MessageType) -> None:
    t = FUZZ_TABLE
    for stage_phase, seat in ((Phase.COMMIT, 0), (Phase.OPEN, 1)):
        ref = Referee(t.setup)
        for f in FUZZ_PREFIX[stage_phase]:
            ref.receive(f)
        try:
            ref.receive(t.agents[seat].sign(ref.state, mtype, body))
        except Violation as v:
            assert v.authenticated and v.seat == seat


def _fuzz_table() -> tuple[Any, dict[Phase, list[bytes]]]:
    t = mined_cheats.table(9)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.COMMIT, 0, 2))
    at_commit = [f.wire for f in t.referees[0].frames]
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.OPEN, 1, 2))
    return t, {Phase.COMMIT: at_commit, Phase.OPEN: [f.wire for f in t.referees[0].frames]}


FUZZ_TABLE, FUZZ_PREFIX = _fuzz_table()


def test_a_cut_game_is_a_valid_prefix_naming_who_owes_and_the_remedy() -> None:
    t = mined_cheats.table(5)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.OPEN, 2, 3))
    data = t.referees[0].transcript().encode()
    verdict = replay(data)
    assert verdict.exit_code == 3 and verdict.awaiting == (2, "open")
    text = account(verdict)
    assert "seat 2 owes the next frame (an open frame)" in text
    assert "Not proven: that seat 2 abandoned the game" in text
    assert "any other seat may sign that seat 2 is absent" in text
    assert "its seal opens and its orders count" in text


@pytest.mark.parametrize(("phase", "kind"), [(Phase.OPEN, "open"), (Phase.COMMIT, "commit"),
                                             (Phase.KEYS, "key")])
def test_a_file_cut_after_a_declaration_names_the_seat_that_owes(phase: Phase,
                                                                  kind: str) -> None:
    t = mined_cheats.table(5)
    mined_cheats.advance_to(t, mined_cheats.owes(phase, 2, 0 if phase is Phase.KEYS else 3))
    mined_cheats.declare(t, [4])        # one declarer moved, but seat 2 still owes
    verdict = replay(t.referees[0].transcript().encode())
    assert verdict.exit_code == 3 and verdict.awaiting == (2, kind)
    article = "an" if kind == "open" else "a"
    assert f"seat 2 owes the next frame ({article} {kind} frame)" in account(verdict)


def test_a_forged_package_state_with_illegal_opened_orders_is_refused_not_a_crash() -> None:
    cheat = mined_cheats.wrong_reveal()   # frame N: seat 2 opens; seats 0 and 1 have opened
    package = unpack(dispute_package(cheat.transcript(), cheat.frame), 1 << 21)
    state = unpack(package[4], 1 << 20)
    state["rules"]["opened"][0] = ["UUUUU", 0]        # walks off the mine from any row < 5
    package[4] = pack(state)
    with pytest.raises(EncodingError) as info:
        check_step(pack(package))
    assert info.value.code == "state/schema" and "mined/" in info.value.detail


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=4), max_leaves=10)
GOLDEN = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "transcripts"


def _packages() -> list[Any]:
    data = (GOLDEN / "mined-games-5.transcript").read_bytes()
    every = list(dispute_packages(data))
    return [unpack(every[i], 1 << 21) for i in (3, 12, 27, 64, len(every) - 1)]


PACKAGES = _packages()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(PACKAGES) - 1), path=st.lists(st.integers(0, 30), max_size=3),
       key=st.sampled_from(["stage", "map", "dur", "miners", "commits", "opened", "nonces",
                            "absent", "forfeits", "pool", "end", "result", "keys",
                            "withheld"]),
       value=JSONISH)
def test_a_forged_mined_state_is_refused_or_judged_never_a_crash(
        which: int, path: list[int], key: str, value: object) -> None:
    """check-step on a package whose rules' state was changed anywhere: a typed refusal of
    the package (EncodingError) or a verdict on the step, never another exception."""

    package = copy.deepcopy(PACKAGES[which])
    state = unpack(package[4], 1 << 20)
    target: Any = state["rules"]
    where: Any = key
    for i in path:                        # walk into the field, as far as it goes
        item = target[where]
        if not isinstance(item, list) or not item:
            break
        target, where = item, i % len(item)
    target[where] = value
    package[4] = pack(state)
    with contextlib.suppress(EncodingError):
        check_step(pack(package))


def _last_open() -> tuple[Any, bytes, Any]:
    """A table where seat 4's OPEN resolves round 2, with that frame's honest body."""
    t = mined_cheats.table(9)
    mined_cheats.advance_to(t, mined_cheats.owes(Phase.OPEN, 4, 3))
    honest = parse_frame(t.agents[4].next_frame(mined_cheats.state(t), bytes(32)), S)
    return t, mined_cheats.state(t).encode(t.referees[0].game.rules), honest.body


LAST_OPEN = _last_open()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.lists(st.integers(0, 30), max_size=3),
       key=st.sampled_from(["stage", "dur", "miners", "commits", "opened", "nonces",
                            "absent", "forfeits", "pool", "result", "keys", "withheld"]),
       value=JSONISH)
def test_a_frame_signed_on_a_forged_state_is_judged_never_a_crash(
        path: list[int], key: str, value: object) -> None:
    """A seat may sign a frame that commits to a forged state and ship that state in a
    dispute package: the state is refused, or the step runs on it to a verdict."""
    t, encoded, body = LAST_OPEN
    game = t.referees[0].game
    state = unpack(encoded, 1 << 20)
    target: Any = state["rules"]
    where: Any = key
    for i in path:
        item = target[where]
        if not isinstance(item, list) or not item:
            break
        target, where = item, i % len(item)
    target[where] = value
    try:
        forged = PublicState.decode(pack(state), game.rules, 5, game.suite)
    except EncodingError:
        return
    if forged.turn is None:
        return
    wire = t.agents[forged.turn].sign(forged, MessageType.OPEN, body)
    with contextlib.suppress(Violation):
        step(game, forged, wire)


def test_plausible_forged_states_run_to_a_verdict() -> None:
    """Forgeries a decoder cannot tell from play (durabilities, positions, garnets changed):
    the round resolves on them without error, or the state is refused."""

    t, encoded, body = LAST_OPEN
    game = t.referees[0].game
    rng = random.Random(11)
    ran = 0
    for _ in range(120):
        state = unpack(encoded, 1 << 20)
        rules = copy.deepcopy(state["rules"])
        kind = rng.randrange(4)
        if kind == 0:
            floor = rng.choice(rules["dur"])
            floor[rng.randrange(len(floor))] = rng.randrange(4)
        elif kind == 1:
            rules["dur"] = [[0] * len(f) for f in rules["dur"]]
        elif kind == 2:
            rules["miners"][rng.randrange(5)][0] = [rng.randrange(4), rng.randrange(7),
                                                    rng.randrange(7)]
        else:
            rules["miners"][rng.randrange(5)][2] = rng.randrange(50)
        state["rules"] = rules
        try:
            forged = PublicState.decode(pack(state), game.rules, 5, game.suite)
        except EncodingError:
            continue
        assert forged.turn == 4
        new, _frame = step(game, forged, t.agents[4].sign(forged, MessageType.OPEN, body))
        assert new.rules_state.stage == 4 or new.phase in (Phase.CHOOSE, Phase.DONE)
        ran += 1
    assert ran > 100
