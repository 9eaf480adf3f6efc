"""When a seat declares a silent seat absent (spec/10-session.md 10.8, spec/12-peers.md 12.3).

Only simultaneous games declare absence: a seat that owes a KEY, COMMIT or OPEN past the
timeout may be declared absent by any other eligible seat, in any order (against a
sealed OPEN, once t holders have declared, each posts its decryption share soon after).
Every eligible seat declares once the owing seat has been silent for the whole timeout
by its own clock, so that one seat declaring too early cannot make the others act on a
seat still in time; the eligible seats are staggered by a fraction of the timeout,
counted from the seat after the owing one, so that two honest seats rarely race for the
same step.
"""

from __future__ import annotations

import time

from protocol.frames import MessageType
from protocol.referee import Referee
from protocol.seat import SeatAgent

#: The frames whose silence a declaration of absence answers.
ANSWERED = (MessageType.KEY, MessageType.COMMIT, MessageType.OPEN)
#: The stagger between two eligible declarers, as a fraction of the timeout.
STAGGER = 0.5
#: The stagger between two holders posting their decryption shares, likewise.
SHARE_STAGGER = 0.1


class AbsenceClock:
    """This seat's clock on the other seats' silence; all times are time.monotonic()."""

    def __init__(self, move_timeout: float) -> None:
        self.timeout = move_timeout
        # (stage, seat, type) -> when this seat first saw that seat owe that frame.
        self.silent_since: dict[tuple[int, int, MessageType], float] = {}
        # The same key -> when this seat first saw t holders declare it (10.8).
        self.sharing_since: dict[tuple[int, int, MessageType], float] = {}

    def restart(self) -> None:
        """Forget every clock: after a rewind silence and the t-th declaration are judged
        afresh on the new chain, so that this seat never acts at once on a frame it has
        not seen there."""
        self.silent_since.clear()
        self.sharing_since.clear()

    def _key(self, ref: Referee) -> tuple[int, int, MessageType] | None:
        due = ref.awaiting
        if not ref.game.simultaneous or due is None or due[1] not in ANSWERED:
            return None
        return ref.state.rules_state.stage, due[0], due[1]

    def watch(self, ref: Referee, me: int) -> None:
        """Start the clock on the seat the game now waits for, if it owes another's frame."""
        key = self._key(ref)
        if key is not None and key[1] != me:
            self.silent_since.setdefault(key, time.monotonic())

    def eligible(self, ref: Referee) -> list[int]:
        """The seats that may declare the owing seat absent (10.8), from the seat after it
        (none when only one could: the game then stalls)."""
        due = ref.awaiting
        assert due is not None
        owing = due[0]
        seats = ref.game.stages.declarers(ref.state.rules_state, owing)
        k = ref.game.seats
        return sorted(seats, key=lambda s: (s - owing) % k)

    def declare_in(self, ref: Referee, agent: SeatAgent) -> float | None:
        """Seconds until this seat declares the owing seat absent (0 or less: now), or None
        if it may not (it owes the frame itself, is not eligible, or has declared)."""
        key = self._key(ref)
        if key is None or not agent.may_declare(ref.state):
            return None
        slot = self.eligible(ref).index(agent.seat)
        if agent.shares_now(ref.state):
            # t holders have declared, so the deadline has passed: the shares only complete
            # what they agreed on, a short stagger apart so that holders rarely race.
            since = self.sharing_since.setdefault(key, time.monotonic())
            return since + self.timeout * SHARE_STAGGER * slot - time.monotonic()
        since = self.silent_since.setdefault(key, time.monotonic())
        return since + self.timeout * (1 + STAGGER * slot) - time.monotonic()

    def give_up_in(self, ref: Referee) -> float | None:
        """Seconds until this seat stops waiting for the owing seat: every eligible seat has
        had its turn to declare and a timeout more. None for a frame no declaration answers
        (a deck game's, which only its own seat can send)."""
        key = self._key(ref)
        if key is None:
            return None
        since = self.silent_since.setdefault(key, time.monotonic())
        slots = len(self.eligible(ref))
        return since + self.timeout * (2 + STAGGER * slots) - time.monotonic()
