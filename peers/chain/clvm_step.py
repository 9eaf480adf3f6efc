"""The single-step check on CLVM: a dispute package judged by clsp/step.clsp.

The program reads the package's bytes itself (spec/11-verify.md 11.4 rules 1 to 10), so
its verdict is the chain's, not this module's: this module only runs it and reads its
answer. One thing it supplies: when an element of the package breaks spec/02-group.md
2.5, the VM's G1 operators abort the run (clsp/values.clib, `point_code`), and a run
that aborts decides nothing. The program is then run again with every element of the
package that Python's decoding refuses, each with its decoding hint (hints.py): the
program names the first one it meets with g1_check, in the reference's order, and a
valid element said to be bad aborts it, so the list can withhold a verdict but never
change one.

The program judges Bram's rules in bls12381g1-sha256 (step.clsp); a usable setup of
another suite or rule set gets `supported` False and no verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic

from .clvm import ClvmCost, Value, as_int, run_program
from .codes import CostT, code_of
from .errors import ClvmAbort, InconsistentVerdict, ProgramError
from .hints import decoding_hint, package_strings

POINT = 48


@dataclass(frozen=True)
class ChainStep(Generic[CostT]):
    """What a chain's step program answered: a verdict (`usable`), the code of an
    unusable package, or `supported` False for a game it does not judge. `code` is "ok"
    for a valid step; `cost` is the VM's measure (`ClvmCost` or `EvmGas`)."""

    usable: bool
    supported: bool
    code: str | None
    seat: int | None
    frame: int | None
    authenticated: bool
    next_state_hash: bytes | None
    cost: CostT

    def as_dict(self) -> dict[str, Any]:
        """The verdict as spec/vectors/disputes states one (tools/gen_disputes.py's
        verdict_json); {"supported": False} for a game this program does not judge."""
        if not self.supported:
            return {"supported": False}
        if not self.usable:
            return {"usable": False, "code": self.code}
        if self.code == "ok":
            hash_hex = self.next_state_hash.hex() if self.next_state_hash else None
            return {"usable": True, "valid": True, "next_state_hash": hash_hex}
        return {"usable": True, "valid": False, "rule": self.code, "seat": self.seat,
                "frame": self.frame, "authenticated": self.authenticated}


def _bad_elements(package: bytes) -> list[Value]:
    """(element, hint) for every byte string of the package, or 48-byte piece of one, that
    blst refuses as a G1 element, nested encodings included: a superset of what step.clsp
    may decode (hints.package_strings); the program itself judges the bytes."""
    from chia_rs import G1Element

    found: dict[bytes, int] = {}
    for data in package_strings(package):
        pieces = [data] + [data[i:i + POINT] for i in range(0, len(data) - POINT + 1, POINT)]
        for piece in pieces:
            if piece in found:
                continue
            try:
                G1Element.from_bytes(piece)
            except (ValueError, TypeError):
                found[piece] = decoding_hint(piece)
    return [[piece, hint] for piece, hint in found.items()]


def _optional(value: Value) -> int | None:
    if value == b"":
        return None
    if not isinstance(value, list) or len(value) != 1:
        raise ProgramError("step.clsp: a seat or frame is () or (n)")
    return as_int(value[0])


def _answer(result: Value, cost: ClvmCost) -> ChainStep[ClvmCost]:
    if not isinstance(result, list) or not result:
        raise ProgramError("step.clsp must answer a list")
    kind = as_int(result[0])
    if kind == 2 and len(result) == 1:
        return ChainStep(False, False, None, None, None, False, None, cost)
    if kind == 0 and len(result) == 2:
        return ChainStep(False, True, code_of(as_int(result[1])), None, None, False, None,
                         cost)
    if kind != 1 or len(result) != 6:
        raise ProgramError(f"step.clsp answered a list of {len(result)} starting {kind}")
    _, code, seat, frame, auth, after = result
    if not isinstance(after, bytes):
        raise ProgramError("step.clsp: the next state hash is an atom")
    return ChainStep(True, True, code_of(as_int(code)), _optional(seat), _optional(frame),
                     as_int(auth) == 1, after or None, cost)


def check_step_clvm(package: bytes,
                    committed_state_hash: bytes | None = None) -> ChainStep[ClvmCost]:
    """Judge one frame's dispute package on CLVM (spec/11-verify.md 11.4)."""
    solution: list[Value] = [package, committed_state_hash or b"", []]
    try:
        run = run_program("step.clsp", solution)
    except ClvmAbort as first:
        bad = _bad_elements(package)
        if not bad:
            raise InconsistentVerdict(f"step.clsp aborted ({first.reason}) on a package "
                                      "with no bad element") from first
        try:
            run = run_program("step.clsp", [package, committed_state_hash or b"", bad])
        except ClvmAbort as again:
            raise InconsistentVerdict(f"step.clsp aborted ({again.reason}) with the bad "
                                      "elements named") from again
    return _answer(run.result, run.cost)
