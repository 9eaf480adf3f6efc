#!/usr/bin/env python3
"""Write the per-step cost table of spec/09-bench.md 9.3 from counted operations.

    python tools/gen_costs.py          # rewrite the table in spec/09-bench.md
    python tools/gen_costs.py --check  # exit 1 if the table differs from the code

Two seeded games are played, each frame checked once by one referee, and the group
operations and hashing of every check are counted (protocol.group.OPS): what an
on-chain referee pays to judge one step of each message type. The counts are exact
for the seeded games; steps whose size varies (a deal, a reveal, a claim) give their
mean and maximum.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.frames import MessageType, parse_frame
from protocol.group import OPS
from protocol.messages import MoveBody

SPEC = Path(__file__).resolve().parent.parent / "spec" / "09-bench.md"
BEGIN, END = "<!-- costs:begin -->", "<!-- costs:end -->"
COLUMNS = ("var", "base", "add", "valid", "sig", "hashes", "hash_bytes")
# Bram at komi 0 named, as before the default became 1.5 pips (spec/rules/bram.md D15).
GAMES = (("bram", {"komi_halves": 0}, 2, 1), ("mexican-train", {"seats": 8}, 8, 2))


def _kind(wire: bytes) -> str:
    frame = parse_frame(wire)
    if frame.type is MessageType.MOVE:
        body = MoveBody.decode(frame.body)
        return ("MOVE, cannot-play claim" if body.claim is not None
                else "MOVE, tile played" if body.opening is not None else "MOVE, no tile")
    return frame.type.name


def count(rules: str, params: dict[str, object], seats: int, seed: int) -> dict[str, list]:
    """Per message kind, the operation counts of checking each of its frames."""
    table = Table.create(rules, {**params}, ("greedy",) * seats, Entropy(seed))
    ref = table.referees[0]
    found: dict[str, list[dict[str, int]]] = defaultdict(list)
    while (due := ref.awaiting) is not None:
        seat = due[0]
        wire = table.agents[seat].next_frame(ref.state, table.entropy.bytes(f"fresh {seat}"),
                                             table.choosers[seat])
        # The sender hashed this very state object to sign the frame; a referee on its
        # own (on chain) hashes it afresh, so its memo is dropped before counting.
        ref.state.__dict__.pop("_hash_memo", None)
        OPS.reset()
        ref.receive(wire)
        found[_kind(wire)].append(OPS.snapshot())
    return found


def table_text() -> str:
    lines = []
    for rules, params, seats, seed in GAMES:
        lines += [f"**{rules}, k = {seats}** (seed {seed}, greedy bots; mean / max per frame):",
                  "",
                  "| frame | frames | " + " | ".join(COLUMNS) + " |",
                  "| --- | --- | " + " | ".join("---" for _ in COLUMNS) + " |"]
        for kind, rows in sorted(count(rules, params, seats, seed).items()):
            cells = []
            for col in COLUMNS:
                values = [r[col] for r in rows]
                mean, top = sum(values) / len(values), max(values)
                cells.append(f"{mean:.0f}" if top == min(values) else f"{mean:.0f} / {top}")
            lines.append(f"| {kind} | {len(rows)} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description="per-step cost table")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    text = SPEC.read_text()
    head, sep, rest = text.partition(BEGIN)
    _, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        print(f"{SPEC} has no {BEGIN} ... {END} block", file=sys.stderr)
        return 1
    new = f"{head}{BEGIN}\n{table_text()}{END}{tail}"
    if args.check:
        if new != text:
            print("the cost table in spec/09-bench.md is stale", file=sys.stderr)
            return 1
        return 0
    SPEC.write_text(new)
    print(f"wrote the cost table to {os.path.relpath(SPEC)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
