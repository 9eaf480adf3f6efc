"""The proof context bound into every Fiat-Shamir challenge (spec/06-proofs.md 6.1)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import LocalError
from .suite import Suite
from .tags import u64

GAME_ID_BYTES = 32


@dataclass(frozen=True, slots=True)
class Context:
    """Where a proof belongs: the game, the protocol step and the proving seat; and the
    suite the game is played in, which the game id binds.

    A proof made for one context never verifies under another, so a proof
    cannot be replayed into another game, another step or for another seat.
    """

    suite: Suite
    game_id: bytes
    step: int
    seat: int

    def __post_init__(self) -> None:
        if not isinstance(self.game_id, bytes) or len(self.game_id) != GAME_ID_BYTES:
            raise LocalError("context/game-id", "the game id is exactly 32 bytes")
        if not 0 <= self.step < 1 << 64 or not 0 <= self.seat < 1 << 64:
            raise LocalError("context/range", "step and seat are 64-bit unsigned integers")

    def encode(self) -> bytes:
        """game_id (32 bytes) || u64(step) || u64(seat): 48 bytes."""
        return self.game_id + u64(self.step) + u64(self.seat)
