"""A Python seat that cheats is caught by the browser seat with the code and blame that
`dealerless verify` gives (issue 33).

The browser seat (seat 1, played by clicking) sits at a table whose host is
`python -m tests.seat_cheater CHEAT host ...`: the ordinary `dealerless host` with a bot,
whose seat sends one bad frame over the real relay (tests/seat_cheater.py). Once the page
shows its verdict, the test downloads the page's transcript and runs `dealerless verify`
on it: the page names the violation, the frame and the seat verify names, and its account
is verify's word for word. A frame that is no evidence (a pass forged in the browser
seat's own name) is dropped: the game goes on to a valid end, and the page's own verifier
judges the forged bytes as `dealerless verify` does, blaming nobody.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tests.seat_table as seat_table
import tests.webpage as webpage
from protocol.transcript import Transcript
from tests.seat_table import BrowserSeat, Table, verify
from tests.webpage import browser  # noqa: F401  (the module's Chromium)

ROOT = Path(__file__).resolve().parent.parent
CHEATER, BROWSER = 0, 1   # the host's seat and the browser seat's (its invitation is seat 1's)


def cheating_table(monkeypatch: pytest.MonkeyPatch, tmp: Path, rules: str,
                   cheat: str) -> Table:
    """tests/seat_table.py's Table, its host the cheater of tests/seat_cheater.py."""
    def start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
        if args[0] != "host":
            return webpage.start(args, log)
        env = {k: v for k, v in os.environ.items() if k != "DEALERLESS_PASSPHRASE"}
        return subprocess.Popen([sys.executable, "-m", "tests.seat_cheater", cheat, *args],
                                stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env,
                                cwd=ROOT)

    monkeypatch.setattr(seat_table, "start", start)
    return Table(tmp, rules, timeout=60)


def sent(table: Table, cheat: str) -> tuple[int, bytes]:
    """The seq and wire bytes of the frame the cheater says it sent."""
    found = re.search(rf"cheat: {cheat} frame (\d+) ([0-9a-f]+)", table.host_log.read_text())
    assert found, table.host_log.read_text()
    return int(found[1]), bytes.fromhex(found[2])


def caught(tmp: Path, seat: BrowserSeat, rule: str) -> tuple[dict[str, Any], Transcript]:
    """The page's verdict blames the cheater for `rule` as `dealerless verify` does on the
    page's transcript; verify's violation and the transcript."""
    seat.play(timeout=60)
    shown = seat.page.inner_text("#headline").strip()
    page = re.match(r"INVALID at frame (\d+): seat (\d+) broke (\S+): ", shown)
    assert page, shown
    data = seat.transcript()
    code, text, verdict = verify(tmp, data)
    v = verdict["violation"]
    assert code == 1 and not verdict["valid"] and v["authenticated"], text
    assert (page[3], int(page[2]), int(page[1])) == (v["rule"], v["seat"], v["frame"])
    assert (v["rule"], v["seat"]) == (rule, CHEATER)
    assert seat.verdict().strip() == text.strip()
    assert seat.errors == []
    return v, Transcript.decode(data)


def test_a_bad_shuffle_proof_is_caught(browser: Any, tmp_path: Path,  # noqa: F811
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    table = cheating_table(monkeypatch, tmp_path, "bram", "bad-shuffle")
    try:
        seat = BrowserSeat(browser, table.link)
        seat.join()
        v, kept = caught(tmp_path, seat, "shuffle/challenge")
        seq, wire = sent(table, "bad-shuffle")
        # The page kept the proof as peers/store does: the offending frame, last.
        assert v["frame"] == seq == len(kept.frames) - 1 and kept.frames[-1] == wire
        assert kept.evidence == ()
    finally:
        table.stop()


@pytest.mark.parametrize("rules", [
    "mineshaft", pytest.param("mexican-train", marks=pytest.mark.slow)])   # the long one
def test_a_false_cannot_play_claim_is_caught(browser: Any, tmp_path: Path,  # noqa: F811
                                             monkeypatch: pytest.MonkeyPatch,
                                             rules: str) -> None:
    """Holding a tile it could play, the cheater draws (or passes) with a proof that it
    cannot: 6.5's proof fails. Mexican Train seats a Python joiner as seat 2 too."""
    table = cheating_table(monkeypatch, tmp_path, rules, "false-claim")
    try:
        seat = BrowserSeat(browser, table.link)
        seat.join()
        v, kept = caught(tmp_path, seat, "cannot-play/identity")
        seq, wire = sent(table, "false-claim")
        assert v["frame"] == seq == len(kept.frames) - 1 and kept.frames[-1] == wire
    finally:
        table.stop()


def test_an_equivocation_is_caught(browser: Any, tmp_path: Path,  # noqa: F811
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Two frames for one seq, both validly signed by the cheater: the one the page took
    stays in the chain, the other is the evidence."""
    table = cheating_table(monkeypatch, tmp_path, "bram", "equivocation")
    try:
        seat = BrowserSeat(browser, table.link)
        seat.join()
        v, kept = caught(tmp_path, seat, "frame/equivocation")
        seq, wire = sent(table, "equivocation")
        assert v["frame"] == seq and kept.evidence == (wire,)
        assert kept.frames[seq] != wire
    finally:
        table.stop()


def test_a_forged_frame_is_dropped_and_blames_nobody(browser: Any, tmp_path: Path,  # noqa: F811
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The cheater sends a pass in the browser seat's name, signed with its own key. It is
    no evidence against anyone (10.5 check 2, 10.7 step 2): the page does not take it and
    blames nobody; the game ends valid, the transcript the host's."""
    table = cheating_table(monkeypatch, tmp_path, "bram", "forged")
    heard: list[bytes] = []
    try:
        seat = BrowserSeat(browser, table.link)
        seat.page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda p: heard.append(p if isinstance(p, bytes) else b"")))
        seat.join()
        seat.play(timeout=90)
        seq, wire = sent(table, "forged")
        assert any(wire in message for message in heard), "the page never got the frame"
        data = seat.transcript()
        code, text, verdict = verify(tmp_path, data)
        assert code == 0 and verdict["complete"], text
        assert seat.verdict().strip() == text.strip() and seat.errors == []
        assert table.host_transcript(verdict["game_id"]) == data
        kept = Transcript.decode(data)
        assert wire not in kept.frames and kept.evidence == ()

        # The same bytes in a transcript, after the frames before them: verify blames
        # nobody, and the page's own verifier says the very same.
        forged = Transcript(kept.setup, (*kept.frames[:seq], wire)).encode()
        code, text, verdict = verify(tmp_path, forged)
        v = verdict["violation"]
        assert code == 1 and (v["rule"], v["seat"], v["frame"], v["authenticated"]) == (
            "frame/bad-signature", BROWSER, seq, False)
        assert text.strip().splitlines()[-1].startswith(
            f"NOT PROVEN: corrupt or tampered file at frame {seq} (frame/bad-signature: ")
        assert text.strip().endswith("no seat is blamed")
        judged = seat.page.evaluate("""async (bytes) => {
            const { replay } = await import("/seat/protocol/verifier.js");
            const { account } = await import("/seat/table/report.js");
            const verdict = replay(new Uint8Array(bytes));
            return { json: verdict.toJson(), text: account(verdict) };
        }""", list(forged))
        mine = judged["json"]["violation"]
        assert {**mine, "detail": ""} == {**v, "detail": ""}
        # The page words a bad signature's detail its own way (it names the step of 8.3
        # Verify that fails; tests/js/vectors/transcripts.js notes, not fails, such
        # wording): apart from it, its account is verify's.
        assert judged["text"].replace(mine["detail"], v["detail"]).strip() == text.strip()
    finally:
        table.stop()
