"""A false "cannot play" claim is caught live in each game with forced play (issue 8).

For Mexican Train and Mineshaft alike: a seat holding a tile it could play draws or
passes anyway, with a forged proof (spec/06-proofs.md 6.5). Every other seat's
referee refuses the frame as it arrives, blaming that seat; the transcript an honest
seat saves makes `dealerless verify` exit 1 naming that seat, the frame and the rule.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from peers.cheats.deck_games import false_claim
from protocol.errors import Violation


@pytest.mark.parametrize(("rules", "seats", "seed"), [("mexican-train", 3, 3),
                                                      ("mineshaft", 4, 4)])
def test_a_false_claim_is_caught_live_and_by_verify(rules: str, seats: int, seed: int,
                                                    tmp_path: Path) -> None:
    cheat = false_claim(seed, rules, seats)
    assert cheat.table.setup.rules == rules and cheat.table.setup.seats == seats
    for ref in cheat.table.referees:
        with pytest.raises(Violation) as caught:
            ref.receive(cheat.bad_frame)
        assert (caught.value.seat, caught.value.code) == (cheat.seat, "cannot-play/identity")
        assert ref.violation is caught.value  # absorbing: the game stops there
    path = tmp_path / "cheat.transcript"
    path.write_bytes(cheat.transcript())
    proc = subprocess.run([sys.executable, "-m", "peers.cli", "verify", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert (f"INVALID at frame {cheat.frame}: seat {cheat.seat} broke cannot-play/identity"
            in proc.stdout)
