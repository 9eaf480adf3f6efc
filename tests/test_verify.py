"""The verifier: byte flips, cut files, dispute packages and the CLI (spec/11-verify.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from peers.cli.main import main
from peers.table.selfplay import selfplay
from protocol.canonical import pack, unpack
from protocol.errors import EncodingError, Violation
from protocol.frames import parse_frame
from protocol.game import Game
from protocol.referee import Referee
from protocol.session import step
from protocol.transcript import MAGIC_PREFIX, Transcript, record
from protocol.verifier import check_step, dispute_package, replay

TRANSCRIPT = selfplay(seed=2024)
DATA = TRANSCRIPT.encode()


def _snapshots(t: Transcript) -> list:
    ref = Referee(t.setup)
    states = [ref.state]
    for wire in t.frames:
        ref.receive(wire)
        states.append(ref.state)
    return states


STATES = _snapshots(TRANSCRIPT)


def _record_offsets(t: Transcript) -> list[int]:
    """Byte offset where each frame record starts, then the end of the file."""
    pos = len(MAGIC_PREFIX) + 2 + 5 + len(t.setup.encode())
    out = []
    for f in t.frames:
        out.append(pos)
        pos += 5 + len(f)
    return [*out, pos]


OFFSETS = _record_offsets(TRANSCRIPT)


def _judge_from_snapshot(flipped: bytes) -> int:
    """replay()'s exit code, computed from the replay's own states before the first change.

    Frames before the first changed one are the original, already-accepted frames,
    so replay() would reach exactly the stored state; only the changed frame is new.
    """
    try:
        t = Transcript.decode(flipped)
    except EncodingError:
        return 1
    if t.setup != TRANSCRIPT.setup or t.evidence or len(t.frames) > len(TRANSCRIPT.frames):
        return replay(flipped).exit_code
    pairs = zip(t.frames, TRANSCRIPT.frames, strict=False)
    changed = [i for i, (a, b) in enumerate(pairs) if a != b]
    if not changed:
        return replay(flipped).exit_code  # fewer frames: a prefix (cannot pass as complete)
    k = changed[0]
    try:
        step(Game(t.setup), STATES[k], t.frames[k])
    except Violation:
        return 1
    return 0


def test_the_self_played_transcript_verifies() -> None:
    assert replay(DATA).exit_code == 0


def test_flipping_any_single_byte_makes_it_invalid() -> None:
    bad = [i for i in range(len(DATA))
           if _judge_from_snapshot(DATA[:i] + bytes([DATA[i] ^ 0xFF]) + DATA[i + 1:]) != 1]
    assert bad == []


def test_random_flips_through_the_full_replay_and_the_cli(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    rng = random.Random(7)
    # Every record header, and random bytes elsewhere (in-frame flips are covered above).
    positions = [p + d for p in OFFSETS[:-1] for d in range(5)][:12]
    positions += rng.sample(range(len(DATA)), 20) + list(range(len(MAGIC_PREFIX) + 2 + 6))
    for i in positions:
        flipped = DATA[:i] + bytes([DATA[i] ^ rng.randrange(1, 256)]) + DATA[i + 1:]
        verdict = replay(flipped)
        assert verdict.exit_code == 1, i
        assert verdict.violation is not None and verdict.violation.code
        path = tmp_path / "f.transcript"
        path.write_bytes(flipped)
        assert main(["verify", str(path)]) == 1
        out = capsys.readouterr().out
        # A flip is no evidence against a seat unless the violation is authenticated
        # (spec/11-verify.md 11.1): the headline blames nobody then.
        headline = out.splitlines()[-1]
        if verdict.violation.authenticated:
            assert headline.startswith("INVALID"), (i, headline)
        else:
            assert headline.startswith("NOT PROVEN: corrupt or tampered file"), (i, headline)
            assert headline.endswith("no seat is blamed") and "INVALID" not in out
        assert "Traceback" not in out


def test_cutting_at_any_frame_boundary_gives_a_valid_prefix_naming_the_awaited_seat() -> None:
    for k in range(1, len(TRANSCRIPT.frames)):
        verdict = replay(DATA[:OFFSETS[k]])
        assert verdict.exit_code == 3, k
        # the frame that was in fact sent next
        nxt = parse_frame(TRANSCRIPT.frames[k], TRANSCRIPT.setup.suite)
        assert verdict.awaiting == (nxt.seat, nxt.type.label), k


def test_cut_inside_a_record_is_invalid_not_a_prefix() -> None:
    assert replay(DATA[:OFFSETS[3] + 7]).exit_code == 1


def test_dispute_check_step_agrees_with_replay_on_every_frame() -> None:
    game = Game(TRANSCRIPT.setup)
    for n in range(len(TRANSCRIPT.frames)):
        verdict = check_step(dispute_package(DATA, n))
        assert verdict.valid, n
        assert verdict.next_state_hash == STATES[n + 1].hash(game.rules, game.suite)


def test_check_step_refuses_a_state_that_is_not_the_committed_one() -> None:
    package = unpack(dispute_package(DATA, 9), 1 << 20)
    other = unpack(dispute_package(DATA, 8), 1 << 20)
    package[4] = other[4]                      # the state of another step
    with pytest.raises(EncodingError):
        check_step(pack(package))


def test_cli_exit_codes_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "g.transcript"
    assert main(["selfplay", "--rules", "bram", "--out", str(good), "--seed", "3",
                 "--komi", "0.5"]) == 0
    capsys.readouterr()
    assert main(["verify", str(good), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for key in ("valid", "complete", "rules", "seats", "first_player", "outcome",
                "hidden_tile", "moves", "violation", "awaiting", "decided"):
        assert key in report
    assert report["rules"] == {"name": "bram", "params": {"komi_halves": 1}}
    assert all(s["fingerprint"].startswith("SHA256:") for s in report["seats"])
    cut = tmp_path / "cut.transcript"
    t = Transcript.decode(good.read_bytes())
    cut.write_bytes(Transcript(t.setup, t.frames[:5]).encode())
    assert main(["verify", str(cut)]) == 3
    text = capsys.readouterr().out
    assert main(["verify", str(cut), "--json"]) == 3
    prefix = json.loads(capsys.readouterr().out)
    owing = prefix["awaiting"]["seat"]
    # A cut names who owes the next frame; it proves no forfeit (rules/bram.md D14).
    assert f"seat {owing} owes the next frame" in text and "forfeits" not in text
    assert "forfeit" not in prefix and "forfeit" not in report
    assert prefix["decided"] is None and report["decided"] is None
    assert main(["verify", str(tmp_path / "missing")]) == 2
    assert main(["selfplay", "--out", str(good), "--komi", "0.3"]) == 2
    pkg = tmp_path / "p.pkg"
    assert main(["dispute", str(good), "4", "--out", str(pkg)]) == 0
    assert main(["check-step", str(pkg), "--json"]) == 0
    assert main(["dispute", str(good), "999", "--out", str(pkg)]) == 1


def test_another_version_is_refused_as_such_before_any_signature(
        capsys: pytest.CaptureFixture[str]) -> None:
    """spec/README.md "Versioning": a dealerless/1 file, setup or frame says so, and is
    never judged a forgery (`frame/bad-signature`)."""
    golden = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "transcripts"
    old = replay((golden / "protocol-1.transcript").read_bytes()).violation
    assert old is not None and old.code == "version/unsupported" and old.seat is None
    assert old.detail == ("this transcript is dealerless/1; this build reads dealerless/2 and "
                          "dealerless/3")
    assert main(["verify", str(golden / "protocol-1.transcript")]) == 1
    assert "dealerless/1" in capsys.readouterr().out
    setup = unpack(TRANSCRIPT.setup.encode(), 4096)
    with pytest.raises(EncodingError, match="this setup is dealerless/1;"):
        Transcript.decode(TRANSCRIPT.encode()[:len(MAGIC_PREFIX) + 2]
                          + record(b"S", pack([setup[0], 1, *setup[2:]])))
    payload, signature = unpack(TRANSCRIPT.frames[0], 1 << 16)
    fields = unpack(payload, 1 << 16)
    with pytest.raises(EncodingError, match="this frame is dealerless/1;"):
        parse_frame(pack([pack([1, *fields[1:]]), signature]), TRANSCRIPT.setup.suite)


def test_console_script_runs_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "g.transcript"
    run = [sys.executable, "-m", "peers.cli"]
    assert subprocess.run([*run, "selfplay", "--rules", "bram", "--out", str(out)],
                          capture_output=True).returncode == 0
    proc = subprocess.run([*run, "verify", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0 and "VALID and complete" in proc.stdout
    out.write_bytes(out.read_bytes()[:-1])
    proc = subprocess.run([*run, "verify", str(out)], capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
