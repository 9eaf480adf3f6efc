"""The verdict codes the chain programs return, and the values the checks give.

A program returns a small number rather than the specification's code, because every
byte of a Chia program costs 12,000 (and of EVM calldata or code, gas). The numbers are
written twice, as Chialisp constants (clsp/codes.clib) and as Vyper constants
(vy/bls12381g1.vy, vy/g1_checks.vy, vy/shuffle.vy, vy/cannot_play.vy), each named after
its code: E_POINT_NON_CANONICAL is `point/non-canonical`. `chialisp_codes` and
`vyper_codes` read both, and `CODES` is built from the Chialisp one and checked against
the spec's list below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Generic, TypeVar

from .errors import ProgramError

HERE = Path(__file__).resolve().parent
CLSP_DIR = HERE / "clsp"
VY_DIR = HERE / "vy"

#: Every code a chain program may answer: spec/02-group.md 2.5, spec/06-proofs.md 6.2,
#: 6.3 and 6.3.1, spec/08-wire.md 8.3, spec/05-deck.md 5.2, spec/07-shuffle.md 7.5, 7.6,
#: spec/06-proofs.md 6.5.1, 6.5.4 and 6.5.5; then those of the single-step check (11.4).
SPEC_CODES = (
    "point/length", "point/non-canonical", "point/identity", "point/not-on-curve",
    "point/torsion", "scalar/length", "scalar/out-of-range", "schnorr/length",
    "schnorr/challenge", "dleq/length", "dleq/challenge", "frame/bad-signature",
    "deck/length", "shuffle/length", "shuffle/size", "shuffle/repeated-c1",
    "shuffle/challenge", "tile/not-in-set", "cannot-play/size", "cannot-play/order",
    "cannot-play/length", "cannot-play/challenge", "cannot-play/identity",
    # The single-step check (spec/11-verify.md 11.4) and the rules it reads.
    "msgpack/too-large",
    "msgpack/malformed",
    "msgpack/ext",
    "msgpack/trailing-bytes",
    "msgpack/too-deep",
    "msgpack/type",
    "msgpack/map-key",
    "msgpack/non-canonical",
    "schema/array",
    "schema/bytes",
    "schema/int",
    "schema/str",
    "schema/bool",
    "version/unsupported",
    "dispute/magic",
    "dispute/state",
    "setup/version",
    "setup/suite",
    "setup/params",
    "setup/seats",
    "setup/identity",
    "setup/nonce",
    "rules/unknown-ruleset",
    "rules/params",
    "state/schema",
    "state/inconsistent",
    "state/non-canonical",
    "state/hash-mismatch",
    "frame/unknown-type",
    "frame/unknown-seat",
    "frame/wrong-game",
    "frame/sequence",
    "frame/chain",
    "frame/after-end",
    "frame/out-of-turn",
    "frame/unexpected-type",
    "frame/equivocation",
    "transcript/bad-evidence",
    "deck/joint-key-identity",
    "nonce/commitment-mismatch",
    "body/positions",
    "deal/positions",
    "reveal/positions",
    "move/unknown-id",
    "move/unexpected-claim",
    "move/unexpected-opening",
    "move/missing-opening",
    "move/not-dealt-to-seat",
    "move/already-played",
    "deck/not-a-tile",
    "move/tile-mismatch",
    "rules/game-over",
    "rules/not-your-turn",
    "rules/not-in-set",
    "rules/tile-already-played",
    "rules/tile-does-not-match",
    "rules/non-canonical-end",
    "rules/reveal-mismatch",
    "draw/positions",
)

OK = "ok"


def constant_name(code: str) -> str:
    """`point/non-canonical` -> `E_POINT_NON_CANONICAL`."""
    return "E_" + re.sub(r"[/-]", "_", code).upper()


def _table(pattern: str, paths: list[Path]) -> dict[str, int]:
    found: dict[str, int] = {}
    for path in paths:
        for name, number in re.findall(pattern, path.read_text(), re.M):
            found[name] = int(number)
    return found


@cache
def chialisp_codes() -> dict[str, int]:
    """Constant name -> number, from clsp/codes.clib."""
    return _table(r"^\s*\(defconstant (E_\w+) (\d+)\)", [CLSP_DIR / "codes.clib"])


@cache
def vyper_codes() -> dict[str, int]:
    """Constant name -> number, from the contracts' `E_*: constant(uint8)` lines."""
    return _table(r"^(E_\w+): constant\(uint8\) = (\d+)$", sorted(VY_DIR.glob("*.vy")))


@cache
def code_table() -> dict[int, str]:
    """Number -> spec code (0 -> "ok"), from codes.clib, which must name every spec code
    once and nothing else, and must agree with the contracts."""
    by_name = {constant_name(code): code for code in SPEC_CODES}
    clsp = chialisp_codes()
    if set(clsp) != set(by_name) or len(set(clsp.values())) != len(clsp) or 0 in clsp.values():
        raise ProgramError("clsp/codes.clib must give each spec code its own nonzero number")
    if any(vyper_codes().get(name, number) != number for name, number in clsp.items()):
        raise ProgramError("the contracts' codes differ from clsp/codes.clib")
    return {0: OK} | {number: by_name[name] for name, number in clsp.items()}


def code_of(number: int) -> str:
    """The spec code a program's number stands for; ProgramError for a number no program
    may return."""
    try:
        return code_table()[number]
    except KeyError:
        raise ProgramError(f"{number} is not a verdict code of clsp/codes.clib") from None


CostT = TypeVar("CostT")


@dataclass(frozen=True)
class Verdict(Generic[CostT]):
    """What a chain check decided, and what deciding it cost.

    code: "ok" or the spec code of the first rule broken (the reference's order);
    cost: the VM's measure of the runs that decided it (`ClvmCost` or `EvmGas`);
    path: how it was decided: "direct", or "named element" when the fast check aborted
    and g1_check named the first bad element (CLVM only, see clvm_checks).
    """

    code: str
    cost: CostT
    path: str = "direct"

    @property
    def ok(self) -> bool:
        return self.code == OK


@dataclass(frozen=True)
class SuiteHashes(Generic[CostT]):
    """H, H_scalar and the hash to G1 of one input (spec/03-hashing.md 3.5), as a chain
    computed them, and what computing them cost."""

    digest: bytes
    scalar: int
    point: bytes
    cost: CostT
