"""The primitive checks of bls12381g1-sha256 on CLVM, each giving a `Verdict`.

The proof checks (clsp/schnorr.clsp, dleq.clsp, frame_signature.clsp) take the cheap way
of g1.clib: the VM's own G1 decoding, which aborts on a bad element. When one aborts,
the element that caused it is named by clsp/g1_check.clsp, run on the received elements
in the statement's order until one fails: that is the verdict, and its cost is the
cost of that one g1_check run, what an on-chain referee pays when a challenger names the
bad element (an aborted spend is never included, so it costs nothing). The verdict is
the reference's: only an element can make the programs abort, and they decode every
element before any later rule answers, so the first bad one in order is the one the
reference code names.

Every check here follows the order of the reference code (tests/test_vectors.py's
`check_schnorr`, `check_dleq`; protocol/signature.py's `SchnorrSigner.verify`).
`decide` is that way of deciding, which clvm_proofs shares.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .clvm import ClvmCost, ClvmRun, Value, as_int, run_program
from .codes import OK, SuiteHashes, Verdict, code_of
from .errors import ClvmAbort, InconsistentVerdict, ProgramError
from .hints import decoding_hint

ClvmVerdict = Verdict[ClvmCost]

BAD_SIGNATURE = "frame/bad-signature"


def _code(run: ClvmRun) -> str:
    return code_of(as_int(run.result))


def decode_point(point: bytes) -> ClvmVerdict:
    """Every rule of spec/02-group.md 2.5 on one received element (g1_check.clsp), in
    integer arithmetic with the decoding hint of hints.py, rule 4 by Scott's test
    (subgroup.clib): it aborts only on a wrong hint."""
    run = run_program("g1_check.clsp", [point, decoding_hint(point)])
    return Verdict(_code(run), run.cost)


def decode_scalar(scalar: bytes) -> ClvmVerdict:
    """A received scalar (2.5): 32 bytes, below r (scalar_check.clsp)."""
    run = run_program("scalar_check.clsp", [scalar])
    return Verdict(_code(run), run.cost)


def suite_hashes(tag: bytes, parts: Sequence[bytes]) -> SuiteHashes[ClvmCost]:
    """H, H_scalar and the hash to G1 of one input (spec/03-hashing.md 3.5)."""
    run = run_program("suite_hash.clsp", [tag, list(parts)])
    result = run.result
    if not isinstance(result, list) or len(result) != 3:
        raise ProgramError("suite_hash.clsp must return (digest scalar point)")
    digest, scalar, point = result
    if not isinstance(digest, bytes) or not isinstance(point, bytes):
        raise ProgramError("suite_hash.clsp must return three atoms")
    return SuiteHashes(digest, as_int(scalar), point, run.cost)


def decide(program: str, solution: Sequence[Value], elements: Sequence[bytes],
           bad_element: Callable[[str], str], extra_flags: int) -> ClvmVerdict:
    """Run a fast check; if it aborts, name the first bad element with g1_check and give
    `bad_element(its code)` as the verdict."""
    try:
        run = run_program(program, solution, extra_flags)
    except ClvmAbort as abort:
        for element in elements:
            found = decode_point(element)
            if found.code != OK:
                return Verdict(bad_element(found.code), found.cost, "named element")
        raise InconsistentVerdict(f"{program} aborted ({abort.reason}) but g1_check finds "
                                  "every element valid") from abort
    return Verdict(_code(run), run.cost)


def same_code(code: str) -> str:
    """A bad element's own code is the verdict (every check but the frame signature's)."""
    return code


# `extra_flags` below: CLVM flags beyond MEMPOOL_MODE (run_program), to check a program
# under the rules of a coming fork, such as RELAXED_BLS.


def verify_schnorr(game_id: bytes, step: int, seat: int, key: bytes, proof: bytes, *,
                   extra_flags: int = 0) -> ClvmVerdict:
    """spec/06-proofs.md 6.2 under the context (game_id, step, seat) of 6.1."""
    return decide("schnorr.clsp", [game_id, step, seat, key, proof], [key], same_code,
                  extra_flags)


def verify_dleq(game_id: bytes, step: int, seat: int, key: bytes, c1: bytes, share: bytes,
                proof: bytes, *, extra_flags: int = 0) -> ClvmVerdict:
    """spec/06-proofs.md 6.3 under the context (game_id, step, seat) of 6.1."""
    return decide("dleq.clsp", [game_id, step, seat, key, c1, share, proof],
                  [key, c1, share], same_code, extra_flags)


def verify_frame_signature(key: bytes, message: bytes, signature: bytes, *,
                           extra_flags: int = 0) -> ClvmVerdict:
    """spec/08-wire.md 8.3, Schnorr over G1: every failure is frame/bad-signature."""
    return decide("frame_signature.clsp", [key, message, signature], [key],
                  lambda code: BAD_SIGNATURE, extra_flags)
