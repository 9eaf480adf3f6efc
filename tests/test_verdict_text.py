"""What `dealerless verify` tells a person, and its JSON, for the verdicts of spec/11-verify.md
11.1 and 11.2 step 5: a winner that went out and stopped (rules/bram.md D14), a cut
transcript (awaiting, never a forfeit), and a violation that proves nothing against a seat.

Every check runs the real command line on a file and reads its stdout and exit code.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from peers.entropy import Entropy
from peers.table.selfplay import Table
from peers.ui.terminal_text import result_lines
from protocol.canonical import pack, unpack
from protocol.errors import Violation
from protocol.frames import MessageType, build_frame
from protocol.messages import MoveBody
from protocol.state import Phase
from protocol.transcript import Transcript
from protocol.verifier import dispute_package, replay

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "spec" / "vectors" / "transcripts"
INDEX: dict[str, Any] = json.loads((GOLDEN / "index.json").read_text())["transcripts"]
VALID_OUT = Transcript.decode((GOLDEN / "valid-out.transcript").read_bytes())
VALID = Transcript.decode((GOLDEN / "valid.transcript").read_bytes())
SILENCE = "Not proven: that seat {} abandoned the game; a cut file or a lost connection"


def dealerless(*args: str) -> tuple[int, str]:
    proc = subprocess.run([sys.executable, "-m", "peers.cli", *args], capture_output=True,
                          text=True, cwd=ROOT)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout


def verify(path: Path) -> tuple[int, str, dict[str, Any]]:
    """The text verdict, its exit code, and the JSON verdict (whose exit code must agree)."""
    code, text = dealerless("verify", str(path))
    json_code, out = dealerless("verify", str(path), "--json")
    assert json_code == code
    return code, text, json.loads(out)


def write(tmp_path: Path, name: str, frames: tuple[bytes, ...], setup: Any = None) -> Path:
    path = tmp_path / f"{name}.transcript"
    path.write_bytes(Transcript(setup or VALID.setup, frames).encode())
    return path


# -- a seat that went out has won, whatever REVEAL is still owed (bram.md D14) -------------

def test_a_winner_that_went_out_and_sends_no_final_reveal_is_proven_and_not_blamed() -> None:
    code, text, data = verify(GOLDEN / "out-winner-silent.transcript")
    assert code == 3
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("VALID PREFIX"))
    assert lines[start:start + 3] == [
        "VALID PREFIX of 34 frames, winner proven: seat 1 went out and wins by 1; the "
        "hidden tile was not opened.",
        "Proven: every frame so far is valid, and seat 1 played its last tile in public.",
        "Seat 1 owes the next frame (a reveal frame)."]
    assert lines[start + 3].startswith(SILENCE.format(1))
    assert "forfeits" not in text and "INVALID" not in text and "hidden tile:" not in text
    # The margin is the one the complete game gives: the loser (seat 0) has revealed.
    whole = INDEX["valid-out"]["outcome"]
    assert data["decided"] == {"winner": whole["winner"], "reason": "out",
                               "margin": whole["margin"],
                               "margin_halves": whole["margin_halves"]}
    assert data["awaiting"] == {"seat": 1, "message": "reveal"}
    assert (data["valid"], data["complete"], data["outcome"], data["hidden_tile"],
            data["violation"]) == (True, False, None, None, None)
    assert "forfeit" not in data


def test_when_the_loser_still_owes_its_reveal_the_winner_is_proven_and_the_margin_unknown(
        ) -> None:
    code, text, data = verify(GOLDEN / "out-loser-silent.transcript")
    assert code == 3
    assert ("VALID PREFIX of 33 frames, winner proven: seat 1 went out and wins; the margin "
            "is unknown until every hand is revealed; the hidden tile was not opened.") in text
    assert "Seat 0 owes the next frame (a reveal frame)." in text
    assert SILENCE.format(0) in text
    assert data["decided"] == {"winner": 1, "reason": "out", "margin": None,
                               "margin_halves": None}
    assert data["awaiting"] == {"seat": 0, "message": "reveal"}


def test_the_silent_winner_golden_of_the_adversary_is_decided_too() -> None:
    """peers/cheats/deck_games.py's `silent-at-reveal`: seat 1 went out; its loser's last
    tiles are open, so the margin is proven."""
    code, text, data = verify(GOLDEN / "silent-at-reveal.transcript")
    assert code == 3 and "winner proven: seat 1 went out and wins by 2" in text
    assert data["decided"] == {"winner": 1, "reason": "out", "margin": "2",
                               "margin_halves": 4}


def test_a_blocked_hand_cut_in_its_reveals_decides_nothing(tmp_path: Path) -> None:
    """A blocked hand is decided by the hands, which only the REVEAL frames prove."""
    assert INDEX["valid"]["outcome"]["reason"] == "blocked"
    for cut in (1, 2):
        code, text, data = verify(write(tmp_path, f"blocked-{cut}", VALID.frames[:-cut]))
        assert code == 3 and data["decided"] is None
        assert "winner proven" not in text and "wins" not in text
        assert f"seat {data['awaiting']['seat']} owes the next frame (a reveal frame)" in text


def test_decided_appears_exactly_from_the_move_that_goes_out() -> None:
    """In-process, every cut of the out game: no `decided` during play, the winner after."""
    whole = replay(Transcript(VALID_OUT.setup, VALID_OUT.frames).encode())
    going_out = whole.moves[-1]["frame"] + 1          # the frame count after the last move
    assert whole.decided is None and whole.outcome is not None
    for k in range(1, len(VALID_OUT.frames)):
        v = replay(Transcript(VALID_OUT.setup, VALID_OUT.frames[:k]).encode())
        assert v.exit_code == 3, k
        if k < going_out:
            assert v.decided is None, k
        else:
            assert v.decided is not None and v.decided.winner == whole.outcome.winner, k


# -- a cut transcript names who owes the next frame; it proves no forfeit ----------------

def test_a_cut_transcript_says_who_owes_and_that_abandonment_is_not_proven() -> None:
    code, text, data = verify(GOLDEN / "prefix.transcript")
    assert code == 3
    assert text.splitlines()[-3:-1] == [
        "VALID PREFIX of 13 frames: seat 1 owes the next frame (a move frame).",
        "Proven: every frame so far is valid."]
    assert text.splitlines()[-1].startswith(SILENCE.format(1))
    assert "forfeits" not in text and "INCOMPLETE" not in text
    assert data["awaiting"] == {"seat": 1, "message": "move"}
    assert data["decided"] is None and "forfeit" not in data


def test_no_cut_of_any_golden_game_reports_a_forfeit(tmp_path: Path) -> None:
    for k in (1, 5, 9, 20, len(VALID.frames) - 1):
        code, text, data = verify(write(tmp_path, f"cut-{k}", VALID.frames[:k]))
        seat = data["awaiting"]["seat"]
        assert code == 3, k
        assert f"VALID PREFIX of {k} frames: seat {seat} owes the next frame" in text, k
        assert SILENCE.format(seat) in text and "forfeits" not in text, k
        assert "forfeit" not in data, k


# -- a violation that is not authenticated blames nobody --------------------------------

@pytest.mark.parametrize("name", sorted(n for n, w in INDEX.items() if w["violation"]))
def test_the_headline_blames_a_seat_exactly_when_the_violation_is_authenticated(
        name: str) -> None:
    code, text, data = verify(GOLDEN / INDEX[name]["file"])
    v = data["violation"]
    assert code == 1 and v == INDEX[name]["violation"]
    last = text.splitlines()[-1]
    if v["authenticated"]:
        assert last == (f"INVALID at frame {v['frame']}: seat {v['seat']} broke {v['rule']}: "
                        f"{v['detail']} (proven by seat {v['seat']}'s own signature)")
    else:
        at = "" if v["frame"] is None else f" at frame {v['frame']}"
        assert last == (f"NOT PROVEN: corrupt or tampered file{at} "
                        f"({v['rule']}: {v['detail']}); no seat is blamed")
        assert "INVALID" not in text and f"(seat {v['seat']})" not in text


def _not_proven(path: Path, rule: str, frame: int) -> None:
    code, text, data = verify(path)
    assert code == 1
    v = data["violation"]
    assert (v["rule"], v["frame"], v["authenticated"]) == (rule, frame, False)
    assert text.splitlines()[-1].startswith(
        f"NOT PROVEN: corrupt or tampered file at frame {frame} ({rule}: ")
    assert text.splitlines()[-1].endswith("; no seat is blamed")
    assert "INVALID" not in text


def test_a_flipped_byte_is_not_proven_against_anyone(tmp_path: Path) -> None:
    wire = VALID.frames[10]
    bad = wire[:-3] + bytes([wire[-3] ^ 0x20]) + wire[-2:]     # inside the signature
    _not_proven(write(tmp_path, "flip", (*VALID.frames[:10], bad, *VALID.frames[11:])),
                "frame/bad-signature", 10)


def test_dropped_and_reordered_frames_are_not_proven_against_anyone(tmp_path: Path) -> None:
    f = VALID.frames
    _not_proven(write(tmp_path, "dropped", (*f[:12], *f[13:])), "frame/sequence", 12)
    _not_proven(write(tmp_path, "reordered", (*f[:12], f[13], f[12], *f[14:])),
                "frame/sequence", 12)


def test_a_header_re_signed_by_its_seat_is_not_proven_against_it(tmp_path: Path) -> None:
    """The mover re-signs its frame on another history (prev): 10.5 check 5, no evidence."""
    table = Table.create("bram", {}, ("greedy", "greedy"), Entropy(11))
    ref = table.referees[0]
    while ref.state.phase is not Phase.PLAY:
        table.step()
    seat, state = ref.state.turn, ref.state
    assert seat is not None
    wire = build_frame(table.agents[seat].identity, table.suite, state.game_id, state.seq,
                       bytes(32), seat,
                       MessageType.MOVE, state.hash(ref.game.rules, ref.game.suite),
                       MoveBody(0, None).encode(ref.game.suite))
    path = write(tmp_path, "resigned", (*(f.wire for f in ref.frames), wire), table.setup)
    _not_proven(path, "frame/chain", state.seq)


def test_describe_names_no_culprit_for_a_violation_that_is_no_evidence() -> None:
    v = Violation("frame/bad-signature", "the signature does not verify", 1, 8,
                  authenticated=False)
    assert "(seat 1)" not in v.describe() and "not proven" in v.describe()
    assert "(seat 1)" in Violation("rules/x", "d", 1, 8).describe()


def test_check_step_text_blames_no_seat_without_evidence(tmp_path: Path) -> None:
    pkg = tmp_path / "p.pkg"
    data = (GOLDEN / "bad-signature.transcript").read_bytes()
    pkg.write_bytes(dispute_package(data, 8))
    code, text = dealerless("check-step", str(pkg))
    assert code == 1
    assert text.strip() == ("NOT PROVEN: corrupt or tampered frame or package at "
                            "frame 8 (frame/bad-signature: the signature does not verify); "
                            "no seat is blamed")
    # A forged package state cannot get an honest frame blamed either (11.4).
    package = unpack(dispute_package((GOLDEN / "valid.transcript").read_bytes(), 9), 1 << 21)
    state = unpack(package[4], 1 << 20)
    state["key_shares"] = state["key_shares"][::-1]
    package[4] = pack(state)
    pkg.write_bytes(pack(package))
    code, text = dealerless("check-step", str(pkg))
    assert code == 1 and "NOT PROVEN" in text and "state/hash-mismatch" in text
    assert "INVALID" not in text
    # A proven violation still names its seat.
    pkg.write_bytes(dispute_package((GOLDEN / "illegal-placement.transcript").read_bytes(), 8))
    code, text = dealerless("check-step", str(pkg))
    assert code == 1 and text.startswith("INVALID at frame 8: seat 0 broke "
                                         "rules/tile-does-not-match")


# -- the terminal UI's result says the same ------------------------------------------------

def test_the_play_screen_result_says_what_is_proven() -> None:
    tampered = replay((GOLDEN / "other-game.transcript").read_bytes())
    lines = result_lines(tampered, 0)
    assert lines[0].startswith("NOT PROVEN: corrupt or tampered transcript at frame 8")
    assert "INVALID" not in "\n".join(lines)
    won = replay((GOLDEN / "out-winner-silent.transcript").read_bytes())
    assert result_lines(won, 1)[:2] == [
        "You win: seat 1 went out (by 1 pips); proven by public play",
        "The hidden tile was not opened"]
    assert result_lines(won, 0)[0].startswith("Your opponent wins: seat 1 went out")
    cut = replay((GOLDEN / "prefix.transcript").read_bytes())
    assert result_lines(cut, 0) == [
        "INCOMPLETE: seat 1 owes the next frame (move); that it abandoned is not proven"]
