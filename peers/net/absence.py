"""When a seat may declare a silent seat absent (spec/10-session.md 10.8, spec/12-peers.md 12.3).

Only simultaneous games declare absence: a seat that owes a COMMIT or OPEN past
the timeout is declared absent by the other living seats, the first of them after
one timeout, the next after two, and so on, so that two seats rarely race to be
first. A seat co-signs a declaration under way only once the absent seat has been
silent for the whole timeout by its own clock, so that one seat declaring too
early cannot make the others forfeit a seat still in time.
"""

from __future__ import annotations

import time

from protocol.frames import MessageType
from protocol.referee import Referee

#: The frames whose silence a declaration of absence answers.
ANSWERED = (MessageType.COMMIT, MessageType.OPEN)


class AbsenceClock:
    """This seat's clock on the other seats' silence; all times are time.monotonic()."""

    def __init__(self, move_timeout: float) -> None:
        self.timeout = move_timeout
        # (stage, seat) -> when this seat first saw that seat owe a COMMIT or OPEN.
        self.silent_since: dict[tuple[int, int], float] = {}

    def watch(self, ref: Referee, me: int) -> None:
        """Start the clock on the seat the game now waits for, if it is another's frame."""
        due = ref.awaiting
        if ref.game.simultaneous and due is not None and due[0] != me and due[1] in ANSWERED:
            self.silent_since.setdefault((ref.state.rules_state.stage, due[0]),
                                         time.monotonic())

    def until_ready(self, ref: Referee) -> float:
        """Seconds until this seat may co-sign the declaration under way."""
        absent = ref.state.rules_state.absent
        key = (ref.state.rules_state.stage, absent[0] if absent else -1)
        since = self.silent_since.setdefault(key, time.monotonic())
        return since + self.timeout - time.monotonic()

    def ready(self, ref: Referee, owed: MessageType) -> bool:
        """Whether to send the frame this seat owes now: every frame at once, except a
        declaration of absence before its time (see until_ready)."""
        return owed is not MessageType.ABSENT or self.until_ready(ref) <= 0

    def turn(self, ref: Referee, me: int, due: tuple[int, MessageType],
             overdue: float) -> float | None:
        """For a seat `overdue` seconds past its timeout: 0 if this seat declares it absent
        now, else the seconds to keep listening before this seat's turn to declare; None
        to give up (a deck game, or no declaration can help)."""
        if not ref.game.simultaneous or due[1] not in ANSWERED:
            return None
        others = [s for s in ref.state.rules_state.playing() if s != due[0]]
        if me not in others:
            # A dead seat only watches: it waits while the living may still declare.
            later = len(others) * self.timeout - overdue
            return later if later > 0 else None
        later = others.index(me) * self.timeout - overdue
        return later if later > 0 else 0.0
