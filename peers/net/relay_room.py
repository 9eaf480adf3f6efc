"""A relay room: its log, its connections, and what the relay reads of its messages
(spec/12-peers.md 12.5).

The log numbers its messages from 0 for as long as the room lives; a full log forgets
its oldest (`first` moves on). Each room also has an `epoch`, random, so that a reader
coming back can say "I have room <epoch> up to message n" and get only what is new; a
reader of another epoch (the relay restarted, the room was reopened) gets the log again.
"""

from __future__ import annotations

import os
import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from peers.net.outbox import Outbox
from peers.net.relay_client import decimal
from protocol.canonical import unpack
from protocol.errors import DealerlessError

#: The two peer messages the relay reads (12.3), told by their first bytes without
#: unpacking a frame: a 12-element array starting "hello" (the host's, item 2 "host"; a
#: joiner's has 12 too), a 4-element one "done".
HELLO_PREFIX, DONE_PREFIX = b"\x9c\xa5hello", b"\x94\xa4done"
MAX_READ = 4096


@dataclass
class Chaos:
    """Deliberate misbehaviour for tests: probabilities per forwarded message."""

    drop: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    rng: random.Random = field(default_factory=random.Random)

    @property
    def active(self) -> bool:
        return self.drop > 0 or self.duplicate > 0 or self.reorder > 0


@dataclass
class Room:
    creator: str                         # the opener's network (relay_admission.py)
    key: bytes                           # the room key K its opener gave (12.5)
    epoch: str = field(default_factory=lambda: os.urandom(8).hex())
    log: deque[bytes] = field(default_factory=deque)
    first: int = 0                       # the index of log[0]
    size: int = 0
    catchup_sent: int = 0                # bytes of the log sent again to newcomers
    connections: dict[Any, Outbox] = field(default_factory=dict)
    held: dict[Any, bytes] = field(default_factory=dict)   # chaos: one message held back
    opened_at: float = field(default_factory=time.monotonic)
    last_active: float = field(default_factory=time.monotonic)   # a message, entry or exit
    last_message: float = field(default_factory=time.monotonic)  # the last message only
    joined: bool = False                 # a second connection has entered
    seats: int | None = None            # K, from the host's hello
    done: dict[int, int] = field(default_factory=dict)   # seat -> frame count it reported
    heads: dict[int, bytes] = field(default_factory=dict)   # seat -> its last frame's hash
    finished: bool = False
    #: The suite it was opened for, where the relay admits only some (12.5 `--suite`).
    suite: str | None = None
    #: The connection that opened it (the host's, 12.5): the only one whose hellos are read.
    opener: Any = None
    #: Why the message just observed is refused: the opener's hello names another suite
    #: than the room's, before any of its hellos named that one (12.5 "Suites").
    fault: str = ""
    suite_seen: bool = False

    @property
    def end(self) -> int:
        """The index the next message will have."""
        return self.first + len(self.log)

    def append(self, message: bytes, max_messages: int, max_bytes: int) -> int:
        """Log `message`, forgetting the oldest while the log would pass its bounds;
        the bytes forgotten."""
        forgotten = 0
        while self.log and (len(self.log) >= max_messages
                            or self.size + len(message) > max_bytes):
            dropped = len(self.log.popleft())
            self.first += 1
            self.size -= dropped
            forgotten += dropped
        self.log.append(message)
        self.size += len(message)
        self.last_active = self.last_message = time.monotonic()
        return forgotten

    def forget_oldest(self) -> int:
        """Forget one message (the relay's total is full); its size, 0 if none."""
        if not self.log:
            return 0
        dropped = len(self.log.popleft())
        self.first += 1
        self.size -= dropped
        return dropped

    def start_for(self, resume: str | None, budget: int) -> int:
        """Where a newcomer's catch-up starts (12.5 "Catch-up"): after what it says it
        holds (`resume` = "<epoch>.<n>" of this room), else at the oldest message kept
        while the room has sent less than `budget` bytes of catch-up, else at the end."""
        if resume is not None:
            epoch, _, text = resume.partition(".")
            held = decimal(text)   # 1 to 20 ASCII digits below 2^64, as `room E S` (12.5)
            if epoch == self.epoch and held is not None:
                return max(self.first, min(held, self.end))
        return self.first if self.catchup_sent < budget else self.end

    def since(self, start: int) -> list[bytes]:
        return list(self.log)[start - self.first:]

    def observe(self, message: bytes, from_opener: bool) -> bool:
        """Note the seat count (from a hello of the opener's connection only), or a seat's
        `done`; True when this finishes the game. Until a hello of the opener names the
        room's suite, one that names another sets `fault` (12.5 "Suites"): that hello is
        refused and its connection closed; nobody else's hello is read, so no other member
        can have the room freed or its seat count changed."""
        self.fault = ""
        if len(message) > MAX_READ or not message.startswith((HELLO_PREFIX, DONE_PREFIX)):
            return False
        try:
            obj = unpack(message, MAX_READ)
        except DealerlessError:
            return False
        if message.startswith(HELLO_PREFIX):
            if not from_opener or obj[2] != "host":
                return False
            if self.suite is not None and not self.suite_seen:
                if obj[10] != self.suite:
                    self.fault = (f"its host's hello names the suite {ascii(obj[10])[:64]}, "
                                  f"not {self.suite}, which it opened the room for")
                    return False
                self.suite_seen = True
            if type(obj[7]) is int and 2 <= obj[7] <= 8:
                self.seats = obj[7]
            return False
        frames, seat, head = obj[1], obj[2], obj[3]
        if type(frames) is not int or type(seat) is not int or not 0 <= seat < 8 \
                or type(head) is not bytes:
            return False
        self.done[seat], self.heads[seat] = frames, head
        if self.finished or self.seats is None:
            return False
        # One chain at every seat (10.8): the same count and the same last frame.
        ends = [(self.done.get(s), self.heads.get(s)) for s in range(self.seats)]
        self.finished = (None, None) not in ends and len(set(ends)) == 1
        return self.finished

    def forward(self, conn: Any, message: bytes, chaos: Chaos) -> None:
        """Queue `message` for `conn`, misbehaving as `chaos` says (tests only)."""
        out = [message]
        if chaos.active:
            rng = chaos.rng
            if rng.random() < chaos.drop:
                out = []
            elif rng.random() < chaos.duplicate:
                out = [message, message]
            if out and rng.random() < chaos.reorder and conn not in self.held:
                self.held[conn] = out.pop()      # sent after the next message instead
            elif conn in self.held:
                out.append(self.held.pop(conn))
        outbox = self.connections[conn]
        for m in out:
            outbox.put(m)
