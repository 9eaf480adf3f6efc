"""`dealerless verify` on a Mined Games game gives the account of every round
(spec/rules/mined-games.md 5.7), and a player can check it by hand: each miner's path
joins up round to round, its money adds up source by source, and the last round's money
plus the iron bonus is the verdict's. Runs the real command line, as a player would.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MONEY = re.compile(r"\$([\d,]+)")


def dealerless(*args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "peers.cli", *args], capture_output=True,
                          text=True, cwd=ROOT)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout


def dollars(text: str) -> int:
    m = MONEY.search(text)
    assert m is not None, text
    return int(m.group(1).replace(",", ""))


def test_verify_prints_a_round_by_round_account_that_adds_up(tmp_path: Path) -> None:
    game = tmp_path / "g.t"
    dealerless("selfplay", "--rules", "mined-games", "--seats", "5", "--out", str(game))
    text = dealerless("verify", str(game))
    verdict = json.loads(dealerless("verify", str(game), "--json"))["outcome"]
    lines = text.splitlines()
    rounds = [i for i, line in enumerate(lines) if re.fullmatch(r"round \d+:.*", line)]
    assert rounds, text
    money = [0] * 5
    where: dict[int, str] = {}
    for n, i in enumerate(rounds, start=1):
        assert lines[i].startswith(f"round {n}:")
        body = lines[i + 1:rounds[n] if n < len(rounds) else None]
        seats = []
        for line in body:
            m = re.match(r"  seat (\d) from (B\d r\d+ c\d+); (.*)$", line)
            if m is None:
                break
            seat, start, rest = int(m.group(1)), m.group(2), m.group(3).split("; ")
            seats.append(seat)
            # The path joins up: a round starts where the last one left the miner.
            assert where.get(seat, start) == start, (n, line)
            steps = rest[0].removeprefix("steps ").split(", ") if rest[0] != "no step" else []
            fell = [p.removeprefix("fell to ") for p in rest if p.startswith("fell to ")]
            where[seat] = (fell or steps or [start])[-1]
            earned = next(p for p in rest if p.startswith("earned "))
            after = dollars(next(p for p in rest if p.startswith("money ")))
            # The round's money, source by source, then the running total.
            parts = re.search(r"\((.*)\)$", earned)
            if parts:
                assert sum(dollars(x) for x in parts.group(1).split(" + ")) == dollars(earned)
            if steps:
                assert f"{len(steps)} step" in earned or dollars(earned) == 400 * len(steps)
            assert money[seat] + dollars(earned) == after, (n, line)
            money[seat] = after
            if any(p.startswith("died") for p in rest):
                where[seat] = "dead"
        alive = [s for s in range(5) if where.get(s) != "dead" or s in seats]
        assert seats == sorted(seats) and set(seats) <= set(alive), (n, seats)
    iron = next((line for line in lines if line.startswith("iron bonus:")), "")
    share = 0
    if iron:
        share = dollars(iron.split("the most: ")[1].split("split, ")[-1])
    for seat in range(5):
        bonus = share if f"seat {seat}" in iron.split(" mined iron")[0] else 0
        assert money[seat] + bonus == verdict["money"][seat], (seat, text)
    assert len(rounds) <= 10
    if verdict["end"] == "10 rounds were played":
        assert len(rounds) == 10
