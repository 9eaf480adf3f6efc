"""The "cannot play" proof of spec/06-proofs.md 6.5 on CLVM, giving a `Verdict`.

A seat that draws or passes while the rules force play proves that no tile it holds
privately is playable (6.5.1). `CannotPlayStatement` is what the verifier holds, as the
bytes a referee received: the key share Y_s, each hand position with its c1_j, c2_j and
the other seats' decryption shares (R_j = c2_j - sum D_{i,j} is computed on chain, as
6.5.1 requires of a verifier), and the forbidden tiles F. `verify_cannot_play` runs
clsp/cannot_play.clsp (6.5.5 in its order); evm_cannot_play.py runs the same check as an
EVM contract (vy/cannot_play.vy) on the same statement, with the same codes.

The tile points P_t = H2P(TILE, S, a || b) (5.1) are hashed on chain here, not stored
(the EVM contract stores double-twelve's, where hashing is dearer: vy/cannot_play.vy): CLVM's
g1_map does RFC 9380's whole hash to G1 in one operator, and storing the 91 points of
double-twelve would add 4,368 bytes to the program, 52,416,000 of cost at 12,000 a byte,
against some 200,000 for one g1_map by CHIP-0011's price, not measured here (a worst
claim hashes 76).

It decides as clvm_checks does: an element that breaks a rule of 2.5 other than the
identity's aborts the program, and g1_check then names the first bad element in the
order of 6.5.5: Y_s, each position's c1_j, c2_j and shares, then (when the proof has the
length the statement gives) K_0..K_{h-1}, Q_0..Q_{f-1}.
"""

from __future__ import annotations

from dataclasses import dataclass

from .clvm import Value
from .clvm_checks import ClvmVerdict, decide, same_code
from .clvm_proofs import POINT

SCALARS = 3 * 32   # c || z_r || z_a (6.5.4)


@dataclass(frozen=True)
class HandEntry:
    """One position j privately opened to the prover (6.5.1): c1_j, c2_j and the other
    seats' shares D_{i,j}; a partial opening handed over whole is c2 = R_j, no shares."""

    position: int
    c1: bytes
    c2: bytes
    shares: tuple[bytes, ...] = ()


@dataclass(frozen=True)
class CannotPlayStatement:
    """6.5.1's public values: S by its ASCII name, Y_s, the hand, F as (a, b) pairs (the
    canonical order and membership of S are the verifier's step 1 to check)."""

    set_name: str
    key: bytes
    hand: tuple[HandEntry, ...]
    forbidden: tuple[tuple[int, int], ...]

    def tile_atoms(self) -> list[bytes]:
        """Each tile of F as a || b, one byte each (6.5.1's forb_bytes)."""
        if not all(0 <= a < 256 and 0 <= b < 256 for a, b in self.forbidden):
            raise ValueError("a tile's ends are one byte each (6.5.1)")
        return [bytes([a, b]) for a, b in self.forbidden]

    def elements(self) -> list[bytes]:
        """The statement's elements in 6.5.5's decoding order."""
        out = [self.key]
        for e in self.hand:
            out += [e.c1, e.c2, *e.shares]
        return out

    def proof_length(self) -> int:
        """P(h + f) + 96 bytes (6.5.4 read with spec/03-hashing.md 3.5's sizes)."""
        return POINT * (len(self.hand) + len(self.forbidden)) + SCALARS

    def proof_points(self, proof: bytes) -> list[bytes]:
        """K_0..K_{h-1}, Q_0..Q_{f-1}, as far as the proof's length lets a verifier read."""
        if len(proof) != self.proof_length():
            return []
        return [proof[i:i + POINT] for i in range(0, len(proof) - SCALARS, POINT)]


def _solution(game_id: bytes, step: int, seat: int, stmt: CannotPlayStatement,
              proof: bytes) -> list[Value]:
    hand: list[Value] = [[e.position, e.c1, e.c2, list(e.shares)] for e in stmt.hand]
    return [game_id, step, seat, stmt.set_name.encode("ascii"), stmt.key, hand,
            list(stmt.tile_atoms()), proof]


def verify_cannot_play(game_id: bytes, step: int, seat: int, stmt: CannotPlayStatement,
                       proof: bytes, *, extra_flags: int = 0) -> ClvmVerdict:
    """spec/06-proofs.md 6.5.5 under the context (game_id, step, seat) of 6.1, on CLVM."""
    return decide("cannot_play.clsp", _solution(game_id, step, seat, stmt, proof),
                  [*stmt.elements(), *stmt.proof_points(proof)], same_code, extra_flags)
