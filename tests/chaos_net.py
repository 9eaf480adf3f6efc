"""A chaotic in-process network for tests: a relay room that drops, duplicates,
delays and reorders what it forwards, from a seeded random stream.

Each message a member sends is handled once per other member: dropped with
probability `drop`, otherwise delivered once (or twice, with probability
`duplicate`) after a delay drawn uniformly from [0, delay]; with probability
`reorder` a copy is held back a further `hold` seconds, so that later messages
overtake it. Nothing here is shipped: peers/net/relay.py's `Chaos` does the same
(without delays) to a real relay for the process tests.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from peers.net.link import MemoryLink


@dataclass
class Chaos:
    drop: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    delay: float = 0.0
    hold: float = 0.2
    rng: random.Random = field(default_factory=random.Random)
    sent: int = 0
    dropped: int = 0


class ChaosLink(MemoryLink):
    """A member of a chaotic room (`room`)."""

    def __init__(self, chaos: Chaos) -> None:
        super().__init__()
        self.chaos = chaos

    @staticmethod
    def room(n: int, chaos: Chaos) -> list[ChaosLink]:
        links = [ChaosLink(chaos) for _ in range(n)]
        for link in links:
            link.others = [other for other in links if other is not link]
        return links

    async def send(self, message: bytes) -> None:
        c = self.chaos
        loop = asyncio.get_running_loop()
        for other in self.others:
            c.sent += 1
            if c.rng.random() < c.drop:
                c.dropped += 1
                continue
            copies = 2 if c.rng.random() < c.duplicate else 1
            for _ in range(copies):
                late = c.rng.uniform(0, c.delay)
                if c.rng.random() < c.reorder:
                    late += c.hold
                loop.call_later(late, other._put, message)
