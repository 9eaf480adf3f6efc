"""When a peer speaks again: back-off for repeats, a limit on answers (spec/12-peers.md 12.3).

Every peer message is idempotent, so a lost one is simply sent again; these clocks
keep the repeats from flooding a link, and a peer's answers from being an amplifier
for whoever asks questions on it.

Anyone on a link may ask (a relay room admits strangers), and a question costs a few
dozen bytes while its answer may be 64 frames. Once per question per half sync
interval was the only limit, so a room member that asked a new question for every
frame it saw was answered every time (issue 29: 334 KB of SYNCs drew 25 MB of frames).
So the limits are now the link's, whoever asks:
- a question is answered at most once per half interval (as before);
- frames are resent in answer to at most RESENDS questions per half interval, and draw
  on a byte budget (RESEND_RATE a second, RESEND_BURST at once); an answer is the
  prefix of what was asked for that the budget allows;
- the other answers (a handshake message repeated, our SYNC to a seat ahead, our DONE)
  are small, and at most REPLIES per half interval; frames resent cannot spend them.
Whatever a seat sends reaches every seat on its link, so one answer serves every seat
that lacks those frames, and a seat that asks while the budget is spent asks again on
its next SYNC and gets the next prefix as the budget refills. The link cannot tell who
asks: a member that keeps asking keeps the budget spent, and a seat that lacks frames
it does not ask about then waits its turn among its questions (a relay room's own log
also serves a seat that reconnects, 12.5).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence

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


#: Questions answered with frames, per half sync interval on one link (twice as many
#: at once); and the other answers, which are small.
RESENDS, REPLIES = 4, 8
#: Bytes of frames resent on one link a second, and at most this many at once: enough
#: for the first 64 frames of an 8-seat Mexican Train round (about 220 KB, its shuffles)
#: in one answer, so that a seat catching up after a crash does so at its usual pace;
#: the rest of such a round is about 75 KB.
RESEND_RATE, RESEND_BURST = 64 << 10, 256 << 10


class Bucket:
    """A token bucket: `rate` a second, holding at most `burst`. A take may overdraw it
    (one frame may be larger than what is left); it is then empty until repaid."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level, self.at = burst, clock()

    def left(self) -> float:
        now = self.clock()
        self.level, self.at = min(self.level + (now - self.at) * self.rate, self.burst), now
        return self.level

    def take(self, amount: float) -> None:
        self.left()
        self.level -= amount


class AnswerLimit:
    """The answers of one seat on its link (the module's docstring says why): each
    question once per half sync interval; RESENDS answers with frames per half interval
    and RESEND_RATE bytes of them a second; REPLIES other answers per half interval."""

    def __init__(self, sync_interval: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.gap, self.clock = sync_interval / 2, clock
        self.answered: dict[Hashable, float] = {}
        self.replies = Bucket(REPLIES / self.gap, 2 * REPLIES, clock)
        self.resends = Bucket(RESENDS / self.gap, 2 * RESENDS, clock)
        self.bytes = Bucket(RESEND_RATE, RESEND_BURST, clock)

    def may_answer(self, question: Hashable) -> bool:
        """Whether to answer `question` with a small message now (if so, it counts as
        answered)."""
        return self._fresh(question, self.replies)

    def resend(self, question: Hashable, wires: Callable[[], Sequence[bytes]]) -> list[bytes]:
        """The frames to resend in answer to `question`: the longest prefix of `wires()`
        that the byte budget allows (at least one frame), or none if the question may
        not be answered now. A question met with a spent budget is not counted as
        answered, and `wires` is called only for an answer (no database read)."""
        if self.bytes.left() <= 0 or not self._fresh(question, self.resends):
            return []
        out: list[bytes] = []
        for wire in wires():
            if self.bytes.left() <= 0:
                break
            self.bytes.take(len(wire))
            out.append(wire)
        return out

    def _fresh(self, question: Hashable, bucket: Bucket) -> bool:
        now = self.clock()
        if now - self.answered.get(question, -1e9) < self.gap or bucket.left() < 1:
            return False
        if len(self.answered) > 1024:   # forget what no longer holds back an answer
            self.answered = {q: t for q, t in self.answered.items() if now - t < self.gap}
        self.answered[question] = now
        bucket.take(1)
        return True
