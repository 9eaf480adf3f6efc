"""Where randomness comes from: the OS CSPRNG, or a seed in tests and vectors only."""

from __future__ import annotations

import hashlib
import os


class Entropy:
    """A source of `fresh` bytes for protocol/ calls.

    With no seed every call reads os.urandom. With a seed (tests, vectors,
    reproducible demos) it is a counter-mode SHA-512 stream: never use a seed
    in a real game, since anyone who knows it can recompute every secret.
    """

    def __init__(self, seed: int | bytes | None = None) -> None:
        if isinstance(seed, int):
            seed = seed.to_bytes(16, "big", signed=True)
        self._seed = seed
        self._counter = 0

    @property
    def seeded(self) -> bool:
        return self._seed is not None

    def bytes(self, label: str, n: int = 32) -> bytes:
        if self._seed is None:
            return os.urandom(n)
        self._counter += 1
        h = hashlib.sha512(b"dealerless-seeded-entropy/" + self._seed + b"/" + label.encode()
                           + self._counter.to_bytes(8, "big"))
        return h.digest()[:n]
