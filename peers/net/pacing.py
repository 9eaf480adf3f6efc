"""When a peer speaks again: back-off for repeats, a limit on answers (spec/12-peers.md 12.3).

Every peer message is idempotent, so a lost one is simply sent again; these two
clocks keep the repeats from flooding a link, and a peer's answers from being an
amplifier for whoever asks the same question many times.
"""

from __future__ import annotations

import time
from collections.abc import Hashable

#: The longest wait between two SYNCs (or handshake repeats) of a waiting peer.
MAX_SYNC_INTERVAL = 2.0


class Backoff:
    """When to send a message again: now, then backing off up to `cap`."""

    def __init__(self, first: float, cap: float) -> None:
        self.first, self.cap = first, cap
        self.reset()

    def reset(self) -> None:
        self.wait, self.at = self.first, 0.0

    def due(self, now: float) -> bool:
        if now < self.at:
            return False
        self.at, self.wait = now + self.wait, min(self.wait * 1.5, self.cap)
        return True

    def left(self, now: float) -> float:
        return max(self.at - now, 0.01)


class AnswerLimit:
    """At most one answer per question per half sync interval: no amplification."""

    def __init__(self, sync_interval: float) -> None:
        self.gap = sync_interval / 2
        self.answered: dict[Hashable, float] = {}

    def may_answer(self, question: Hashable) -> bool:
        now = time.monotonic()
        if now - self.answered.get(question, -1e9) < self.gap:
            return False
        self.answered[question] = now
        return True
