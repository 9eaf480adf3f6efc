"""`dealerless check-step --vm clvm|evm PKG`: the single-step check run by a chain's own
virtual machine (spec/11-verify.md 11.4.1, spec/09-bench.md 9.3), with what it costs there.

The verdict is the VM program's (peers/chain/clvm_step.py, evm_step.py); it is printed
as `check-step` prints the reference's, plus the cost: on CLVM the run cost and the bytes
of program and solution at 12,000 each, and the share of a block; on the EVM the gas of
the transaction (calldata included) and its share of EIP-7825's cap.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from peers.cli.options import EXIT_INVALID, EXIT_OK, fail

if TYPE_CHECKING:
    from peers.chain.clvm_step import ChainStep


def _cost(cost: Any) -> tuple[dict[str, Any], str]:
    """A run's cost as JSON and in words: a ClvmCost or an EvmGas."""
    from peers.chain.clvm import ClvmCost

    if isinstance(cost, ClvmCost):
        return ({"run": cost.run, "program_bytes": cost.program_bytes,
                 "solution_bytes": cost.solution_bytes, "total": cost.total,
                 "block_share": round(cost.block_share, 6)},
                f"CLVM cost {cost.total:,} ({cost.run:,} to run, {cost.program_bytes:,} + "
                f"{cost.solution_bytes:,} bytes at 12,000), {cost.block_share:.2%} of a block")
    return ({"execution": cost.execution, "transaction": cost.transaction,
             "calldata_bytes": cost.calldata_bytes, "tx_cap_share": round(cost.tx_cap_share, 6)},
            f"gas {cost.transaction:,} ({cost.execution:,} to execute, {cost.calldata_bytes:,} "
            f"bytes of calldata), {cost.tx_cap_share:.2%} of EIP-7825's cap")


def cmd_check_step_vm(args: argparse.Namespace, data: bytes, trusted: bytes | None) -> int:
    from peers.chain import INSTALL, missing_tools
    from peers.chain.errors import ChainError

    missing = missing_tools()
    if missing:
        return fail(f"check-step --vm {args.vm}: needs {', '.join(missing)}: {INSTALL}")
    try:
        if args.vm == "clvm":
            from peers.chain.clvm_step import check_step_clvm

            verdict: ChainStep[Any] = check_step_clvm(data, trusted)
        else:
            from peers.chain.evm_step import check_step_evm

            verdict = check_step_evm(data, trusted)
    except ChainError as exc:
        return fail(f"check-step --vm {args.vm}: no verdict: {exc}", EXIT_INVALID)
    if not verdict.supported:
        return fail(f"check-step --vm {args.vm}: the program judges games of bram in "
                    "bls12381g1-sha256; this package's setup is of another rule set or suite")
    costs, spent = _cost(verdict.cost)
    result = verdict.as_dict() | {"vm": args.vm, "cost": costs}
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

