"""The proofs of dealerless/3 over many elements on CLVM, each giving a `Verdict`.

- `verify_dleq_batch`: one Chaum-Pedersen proof for the n shares of a DEAL, REVEAL or
  DRAW (spec/06-proofs.md 6.3.1; clsp/dleq_batch.clsp);
- `verify_shuffle`: the shuffle proof of spec/07-shuffle.md 7.5 and 7.5.1 in the format
  of 7.6 (clsp/shuffle.clsp), and `shuffle_trace`, the values its verifier computes.

They decide as clvm_checks does: the program decodes every element through the VM's G1
operators, which abort on a bad one, and g1_check then names the first bad element in
the reference's order. CLVM has no multi-scalar multiplication, so each sum of products
is a g1_multiply a term and one point_add of all of them (clsp/points.clib).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .clvm import ClvmCost, Value, as_int, run_program
from .clvm_checks import ClvmVerdict, decide, same_code
from .errors import ProgramError

POINT = 48                 # an element's encoding (spec/02-group.md 2.5)
CIPHERTEXT = 2 * POINT     # c1 || c2 (spec/05-deck.md 5.2)


def shuffle_proof_bytes(n: int) -> int:
    """3N points then 2N + 5 scalars: 208N + 160 bytes (spec/07-shuffle.md 7.6)."""
    return 3 * POINT * n + 32 * (2 * n + 5)


def batch_elements(key: bytes, c1s: Sequence[bytes], shares: Sequence[bytes]) -> list[bytes]:
    """The elements of a batch in the order they are decoded: Y, every c1_j, every D_j."""
    if not c1s or len(c1s) != len(shares):
        raise ValueError("a batch proof covers n >= 1 shares, one c1 each (6.3.1)")
    return [key, *c1s, *shares]


def verify_dleq_batch(game_id: bytes, step: int, seat: int, key: bytes,
                      c1s: Sequence[bytes], shares: Sequence[bytes], proof: bytes, *,
                      extra_flags: int = 0) -> ClvmVerdict:
    """spec/06-proofs.md 6.3.1 under the context (game_id, step, seat) of 6.1."""
    elements = batch_elements(key, c1s, shares)
    return decide("dleq_batch.clsp", [game_id, step, seat, key, list(c1s), list(shares), proof],
                  elements, same_code, extra_flags)


def sent_elements(deck_in: bytes, deck_out: bytes, proof: bytes) -> list[bytes]:
    """What a shuffler sent, as elements in 7.5's decoding order: the output deck's points,
    then the proof's 3N (only what the lengths let a verifier read: a deck that is not
    whole ciphertexts or a proof of the wrong length is refused before its points)."""
    if len(deck_out) % CIPHERTEXT:
        return []
    points = [deck_out[i:i + POINT] for i in range(0, len(deck_out), POINT)]
    n = len(deck_in) // CIPHERTEXT
    if len(proof) == shuffle_proof_bytes(n):
        points += [proof[i:i + POINT] for i in range(0, 3 * POINT * n, POINT)]
    return points


def _shuffle_solution(game_id: bytes, step: int, seat: int, joint_key: bytes,
                      deck_in: bytes, deck_out: bytes, proof: bytes) -> list[Value]:
    if len(deck_in) % CIPHERTEXT:
        raise ValueError("the input deck is the verifier's own: whole ciphertexts (5.2)")
    return [game_id, step, seat, joint_key, deck_in, deck_out, proof]


def verify_shuffle(game_id: bytes, step: int, seat: int, joint_key: bytes, deck_in: bytes,
                   deck_out: bytes, proof: bytes, *, extra_flags: int = 0) -> ClvmVerdict:
    """spec/07-shuffle.md 7.5 and 7.5.1 under the context (game_id, step, seat) of 6.1.

    joint_key and deck_in are the verifier's own, valid values; deck_out and proof are the
    bytes the shuffler sent."""
    solution = _shuffle_solution(game_id, step, seat, joint_key, deck_in, deck_out, proof)
    return decide("shuffle.clsp", solution, sent_elements(deck_in, deck_out, proof), same_code,
                  extra_flags)


@dataclass(frozen=True)
class ShuffleTrace:
    """What the verifier of 7.5 computed: u_0..u_{N-1}, t1'..t4_2' (48-byte encodings) and
    whether the proof holds (7.5.1's two steps)."""

    u: tuple[int, ...]
    t: tuple[bytes, ...]
    holds: bool
    cost: ClvmCost


def shuffle_trace(game_id: bytes, step: int, seat: int, joint_key: bytes, deck_in: bytes,
                  deck_out: bytes, proof: bytes) -> ShuffleTrace:
    """The values of 7.5 for a proof whose decoding passed (clsp/shuffle_trace.clsp)."""
    solution = _shuffle_solution(game_id, step, seat, joint_key, deck_in, deck_out, proof)
    run = run_program("shuffle_trace.clsp", solution)
    result = run.result
    if not isinstance(result, list) or len(result) != 3:
        raise ProgramError("shuffle_trace.clsp must return (u t ok)")
    u, t, holds = result
    if not isinstance(u, list) or not isinstance(t, list) \
            or not all(isinstance(p, bytes) for p in t):
        raise ProgramError("shuffle_trace.clsp must return lists of atoms")
    return ShuffleTrace(tuple(as_int(x) for x in u), tuple(p for p in t if isinstance(p, bytes)),
                        as_int(holds) == 1, run.cost)
