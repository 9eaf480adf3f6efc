"""`dealerless check-step --vm clvm PKG`: the single-step check run by a chain's own
virtual machine (spec/11-verify.md 11.4, spec/09-bench.md 9.3), with what it costs there.

The verdict is the VM program's (peers/chain/clvm_step.py); it is printed as
`check-step` prints the reference's, plus the cost: CLVM's run cost and the bytes of
program and solution at 12,000 each, and the share of a block.
"""

from __future__ import annotations

import argparse
import json

from peers.cli.options import EXIT_INVALID, EXIT_OK, fail


def cmd_check_step_vm(args: argparse.Namespace, data: bytes, trusted: bytes | None) -> int:
    from peers.chain import INSTALL, missing_tools
    from peers.chain.errors import ChainError

    missing = missing_tools()
    if missing:
        return fail(f"check-step --vm {args.vm}: needs {', '.join(missing)}: {INSTALL}")
    from peers.chain.clvm_step import check_step_clvm

    try:
        verdict = check_step_clvm(data, trusted)
    except ChainError as exc:
        return fail(f"check-step --vm {args.vm}: no verdict: {exc}", EXIT_INVALID)
    if not verdict.supported:
        return fail(f"check-step --vm {args.vm}: the program judges games of bram in "
                    "bls12381g1-sha256; this package's setup is of another rule set or suite")
    cost = verdict.cost
    result = verdict.as_dict() | {"vm": args.vm, "cost": {
        "run": cost.run, "program_bytes": cost.program_bytes,
        "solution_bytes": cost.solution_bytes, "total": cost.total,
        "block_share": round(cost.block_share, 6)}}
    spent = (f"CLVM cost {cost.total:,} ({cost.run:,} to run, {cost.program_bytes:,} + "
             f"{cost.solution_bytes:,} bytes at 12,000), {cost.block_share:.2%} of a block")
    if args.json:
        print(json.dumps(result, indent=2))
    elif not verdict.usable:
        print(f"not a usable dispute package ({verdict.code}); no verdict. {spent}")
    elif verdict.code == "ok":
        print(f"valid step; next state hash {result['next_state_hash']}. {spent}")
    elif not verdict.authenticated:
        where = "" if verdict.frame is None else f" at frame {verdict.frame}"
        print(f"NOT PROVEN: corrupt or tampered frame or package{where} ({verdict.code}); "
              f"no seat is blamed. {spent}")
    else:
        print(f"INVALID at frame {verdict.frame}: seat {verdict.seat} broke {verdict.code} "
              f"(proven by seat {verdict.seat}'s own signature). {spent}")
    if not verdict.usable:
        return EXIT_INVALID
    return EXIT_OK if verdict.code == "ok" else EXIT_INVALID

