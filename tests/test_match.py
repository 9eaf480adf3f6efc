"""Matches: rounds as games chained by `round` and `after` (spec/11-verify.md 11.5)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.identity import Identity
from protocol.match import MATCH_PREFIX, decode_match, encode_match, link_of, verify_match
from protocol.transcript import Transcript

CLI = [sys.executable, "-m", "peers.cli"]


@pytest.fixture(scope="module")
def two_rounds() -> list[bytes]:
    """The first two rounds of a two-seat Mexican Train match, chained."""
    entropy = Entropy(21)
    seats = [Identity(entropy.bytes(f"identity {i}")) for i in range(2)]
    rounds: list[bytes] = []
    for number in (12, 11):
        params = {"seats": 2, "round": number, "after": link_of(rounds[-1]) if rounds else ""}
        rounds.append(Table.create("mexican-train", params, ("greedy", "random"), entropy,
                                   seats).play().encode())
    return rounds


def test_a_chained_prefix_of_a_match_is_valid_and_counts_its_rounds(
        two_rounds: list[bytes]) -> None:
    result = verify_match(encode_match(two_rounds))
    assert result.valid and not result.complete and result.exit_code == 3
    assert (len(result.rounds), result.rounds_due) == (2, 13)
    pips = [r.outcome.hand_pips for r in result.rounds]  # type: ignore[union-attr]
    assert result.totals == tuple(a + b for a, b in zip(*pips, strict=True))
    assert result.winners == ()  # nobody wins before the 13th round
    assert decode_match(encode_match(two_rounds)) == two_rounds


def test_rounds_out_of_order_or_unlinked_are_not_a_match(two_rounds: list[bytes]) -> None:
    swapped = verify_match(encode_match(two_rounds[::-1]))
    assert swapped.violation is not None and swapped.violation.code == "match/link"
    assert swapped.violation.seat is None and not swapped.violation.authenticated
    first = Transcript.decode(two_rounds[0])
    cut = Transcript(first.setup, first.frames[:-1]).encode()  # round 1 unfinished
    unlinked = verify_match(encode_match([cut, two_rounds[1]]))
    assert unlinked.violation is not None and unlinked.violation.code == "match/link"
    assert unlinked.broken_round == 1
    alone = verify_match(encode_match([two_rounds[1]]))  # starts at 11, after something
    assert alone.violation is not None and alone.broken_round == 0


def test_a_bram_game_is_no_match_and_garbage_is_no_match_file(two_rounds: list[bytes],
                                                              tmp_path: Path) -> None:
    from peers.table.selfplay import selfplay

    bram = verify_match(encode_match([selfplay("bram", {}, ("greedy", "greedy"), 1).encode()]))
    assert bram.violation is not None and "no round number" in bram.violation.detail
    head = len(MATCH_PREFIX) + 2
    assert verify_match(encode_match(two_rounds)[:head] + b"X").violation.code \
        == "match/record"  # type: ignore[union-attr]
    old = verify_match(b"DEALERLESS-M1\n" + encode_match(two_rounds)[head:])
    assert old.violation is not None and old.violation.code == "version/unsupported"
    assert old.violation.detail == ("this match file is dealerless/1; this build reads "
                                    "dealerless/2 and dealerless/3")
    path = tmp_path / "m.match"
    path.write_bytes(encode_match(two_rounds[::-1]))
    proc = subprocess.run([*CLI, "verify", str(path)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "NOT A VALID MATCH at round 1: match/link" in proc.stdout
    assert "no seat is blamed" in proc.stdout and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_a_whole_match_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "m.match"
    proc = subprocess.run([*CLI, "selfplay", "--rules", "mexican-train", "--seats", "2",
                           "--match", "--seed", "3", "--out", str(out)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([*CLI, "verify", str(out), "--json"], capture_output=True, text=True)
    assert proc.returncode == 0
    import json

    result = json.loads(proc.stdout)
    assert result["complete"] and result["rounds_played"] == 13 and result["winners"]



def mineshaft_rounds(seed: int, count: int, last_first: int | None = None
                     ) -> tuple[list[bytes], list[int]]:
    """The first `count` rounds of a two-seat long Mineshaft game, chained, each later
    round naming the first round's first player (rules/mineshaft.md D19), or the last
    one naming `last_first`; and each round's own draw (10.4), which the later rounds
    set aside."""
    from protocol.deck_phases import first_player

    entropy = Entropy(seed)
    seats = [Identity(entropy.bytes(f"identity {i}")) for i in range(2)]
    rounds: list[bytes] = []
    draws: list[int] = []
    lead: int | None = None
    for number in range(6, 6 - count, -1):
        params: dict[str, object] = {"seats": 2, "long": True, "round": number,
                                     "after": link_of(rounds[-1]) if rounds else ""}
        if lead is not None:
            last = number == 7 - count and last_first is not None
            params["first"] = last_first if last else lead
        table = Table.create("mineshaft", params, ("greedy", "random"), entropy, seats)
        rounds.append(table.play().encode())
        state = table.referees[0].state
        game = table.referees[0].game
        draws.append(first_player(game.suite, game.game_id, state.nonces))
        lead = state.first_player if lead is None else lead
    return rounds, draws


SEED = 1  # a game whose later rounds draw a seat other than the first round's


def test_a_long_mineshaft_game_keeps_the_first_rounds_seating() -> None:
    rounds, draws = mineshaft_rounds(SEED, count=3)
    result = verify_match(encode_match(rounds))
    assert result.valid and result.exit_code == 3 and result.rounds_due == 7
    firsts = [v.first_player for v in result.rounds]
    assert firsts == [draws[0]] * 3  # one draw seats the whole game
    assert any(d != draws[0] for d in draws[1:])  # even where a later round drew otherwise
    assert [dict(v.setup.params)["first"] for v in result.rounds  # type: ignore[union-attr]
            ] == [-1, draws[0], draws[0]]


def test_a_later_round_led_by_another_seat_is_no_match() -> None:
    rounds, draws = mineshaft_rounds(SEED, count=2, last_first=None)
    other, _ = mineshaft_rounds(SEED, count=2, last_first=1 - draws[0])
    assert verify_match(encode_match(rounds)).valid
    result = verify_match(encode_match(other))
    assert result.violation is not None and result.violation.code == "match/link"
    assert result.broken_round == 1 and "first" in result.violation.detail
