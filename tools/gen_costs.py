#!/usr/bin/env python3
"""Write the per-step cost table of spec/09-bench.md 9.3 from counted operations.

    python tools/gen_costs.py          # rewrite the table in spec/09-bench.md
    python tools/gen_costs.py --check  # exit 1 if the table differs from the code

Two seeded games are played, each frame checked once by one referee, and the group
operations and hashing of every check are counted (protocol.groups.ops.OPS): what an
on-chain referee pays to judge one step of each message type. The counts are exact
for the seeded games; steps whose size varies (a deal, a reveal, a claim) give their
mean and maximum.

Each step is also priced in Solana compute units (CU): the curve operations by the
runtime's curve25519 syscalls and SHA-512 (which has no syscall) as code compiled for
the runtime, with the constants below and their sources, which the spec cites.
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
from protocol.groups.ops import OPS
from protocol.messages import MoveBody
from protocol.suite import v2_suite

#: The suite counted: the one whose costs 9.3 publishes (edwards25519-sha512).
S = v2_suite()
SPEC = Path(__file__).resolve().parent.parent / "spec" / "09-bench.md"
BEGIN, END = "<!-- costs:begin -->", "<!-- costs:end -->"
COLUMNS = ("var", "base", "add", "valid", "sig", "hashes", "hash_bytes")
#: The runtime's compute-budget constants, as published in SOLANA_SOURCE.
SOLANA_SOURCE = ("anza-xyz/agave", "program-runtime/src/execution_budget.rs",
                 "0eca9c3ef0e47d50d67d15b5a0ac39f37086b152")
SOLANA = {
    "MAX_COMPUTE_UNIT_LIMIT": 1_400_000,        # per transaction
    "curve25519_edwards_validate_point_cost": 159,
    "curve25519_edwards_add_cost": 473,
    "curve25519_edwards_subtract_cost": 475,
    "curve25519_edwards_multiply_cost": 2_177,
    "curve25519_edwards_msm_base_cost": 2_273,
    "curve25519_edwards_msm_incremental_cost": 758,
    "sha256_base_cost": 85,
    "sha256_byte_cost": 1,
}
#: SHA-512 has no syscall: the CU of the `sha2` crate's SHA-512 compiled for the runtime,
#: as measured and published in SHA512_SOURCE (its "Hash Cost" column: SHA-512 of
#: R || A || m for an Ed25519 check): 8917 CU for one 128-byte block (m of 0 bytes), 56775
#: for seven (m of 688 bytes), so each block after the first costs (56775 - 8917) / 6,
#: rounded up.
SHA512_SOURCE = ("stegaBOB/solana_ed25519_verify", "compute-usage.csv",
                 "0e1a84975d6ac1963ad53f3b0d436ba8a3d8af3f")
SHA512_FIRST_BLOCK = 8_917
SHA512_NEXT_BLOCK = -(-(56_775 - 8_917) // 6)
LIMIT = SOLANA["MAX_COMPUTE_UNIT_LIMIT"]
MUL = SOLANA["curve25519_edwards_multiply_cost"]
#: Per counted operation. A point decoding (2.3) is the validate syscall, which only
#: decompresses, plus the subgroup check [L - 1]P + P = O (a multiply and an add: the
#: multiply syscall takes only canonical scalars, so not [L]P). An addition is priced as a
#: subtraction, the dearer of the two. A signature (8.3) validates A and R and computes
#: [S]B - [k]A as one two-point multiscalar multiplication; its SHA-512 is priced apart.
CU_PER_OP = {
    "var": MUL,
    "base": MUL,
    "add": SOLANA["curve25519_edwards_subtract_cost"],
    "valid": (SOLANA["curve25519_edwards_validate_point_cost"] + MUL
              + SOLANA["curve25519_edwards_add_cost"]),
    "sig": (2 * SOLANA["curve25519_edwards_validate_point_cost"]
            + SOLANA["curve25519_edwards_msm_base_cost"]
            + SOLANA["curve25519_edwards_msm_incremental_cost"]),
}
SOLANA_COLUMNS = ("CU", "CU SHA-512", "tx")


def sha512_cu(calls: int, blocks: int) -> int:
    """CU of `calls` SHA-512 computations over `blocks` compression blocks in all."""
    return calls * SHA512_FIRST_BLOCK + (blocks - calls) * SHA512_NEXT_BLOCK


def solana(ops: dict[str, int]) -> dict[str, int]:
    """A step's Solana cost: total CU, the part spent in SHA-512, transactions needed."""
    if ops["h2p"]:
        raise ValueError("a step hashes to a point, which 9.3 does not price: its points "
                         "are constants")
    hashing = sha512_cu(ops["hashes"], ops["hash_blocks"]) + sha512_cu(ops["sig"],
                                                                         ops["sig_blocks"])
    total = sum(ops[name] * cu for name, cu in CU_PER_OP.items()) + hashing
    return {"CU": total, "CU SHA-512": hashing, "tx": -(-total // LIMIT)}


# Bram at komi 0 named, as before the default became 1.5 pips (spec/rules/bram.md D15).
GAMES = (("bram", {"komi_halves": 0}, 2, 1), ("mexican-train", {"seats": 8}, 8, 2),
         ("mined-games", {"seats": 5}, 5, 3))


def _kind(wire: bytes) -> str:
    frame = parse_frame(wire, S)
    if frame.type is MessageType.MOVE:
        body = MoveBody.decode(S, frame.body)
        return ("MOVE, cannot-play claim" if body.claim is not None
                else "MOVE, tile played" if body.opening is not None else "MOVE, no tile")
    return frame.type.name


def count(rules: str, params: dict[str, object], seats: int, seed: int) -> dict[str, list]:
    """Per message kind, the operation counts of checking each of its frames."""
    table = Table.create(rules, {**params}, ("greedy",) * seats, Entropy(seed), in_suite=S)
    ref = table.referees[0]
    found: dict[str, list[dict[str, int]]] = defaultdict(list)
    # The tiles' points are constants of the tile set (5.1, vectors/tiles.json) that an
    # on-chain referee stores rather than hashes to the curve: made before counting.
    assert ref.game.rules.tile_set.points(S)
    while (due := ref.awaiting) is not None:
        seat = due[0]
        wire = table.agents[seat].next_frame(ref.state, table.entropy.bytes(f"fresh {seat}"),
                                             table.choosers[seat])
        # The sender hashed this very state object to sign the frame; a referee on its
        # own (on chain) hashes it afresh, so its memo is dropped before counting.
        ref.state.__dict__.pop("_hash_memo", None)
        OPS.reset()
        ref.receive(wire)
        ops = {**OPS.snapshot(), "hash_blocks": OPS.hash_blocks,
               "sig_blocks": OPS.sig_blocks}
        found[_kind(wire)].append({**ops, **solana(ops)})
    return found


def constants_text() -> str:
    repo, path, commit = SOLANA_SOURCE
    lines = [f"Solana constants: `{path}` of `{repo}` at commit `{commit}`:", "",
             "| constant | CU |", "| --- | --- |"]
    lines += [f"| `{name}` | {value} |" for name, value in SOLANA.items()]
    repo, path, commit = SHA512_SOURCE
    lines += ["", f"SHA-512 in the runtime (no syscall): `{path}` of `{repo}` at commit "
              f"`{commit}`: {SHA512_FIRST_BLOCK} CU for one block, "
              f"{SHA512_NEXT_BLOCK} CU for each further block.", "",
              "CU per counted operation: " + ", ".join(
                  f"`{name}` {cu}" for name, cu in CU_PER_OP.items()) + ".", ""]
    return "\n".join(lines)


def table_text() -> str:
    lines = [constants_text()]
    for rules, params, seats, seed in GAMES:
        lines += [f"**{rules}, k = {seats}** (seed {seed}, greedy bots; mean / max per frame):",
                  "",
                  "| frame | frames | " + " | ".join(COLUMNS + SOLANA_COLUMNS) + " |",
                  "| --- | --- | " + " | ".join("---" for _ in COLUMNS + SOLANA_COLUMNS)
                  + " |"]
        for kind, rows in sorted(count(rules, params, seats, seed).items()):
            cells = []
            for col in COLUMNS + SOLANA_COLUMNS:
                values = [r[col] for r in rows]
                mean, top = sum(values) / len(values), max(values)
                if col == "tx":  # what the worst frame of the kind needs
                    cells.append(f"{top}")
                else:
                    cells.append(f"{mean:.0f}" if top == min(values)
                                 else f"{mean:.0f} / {top}")
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
