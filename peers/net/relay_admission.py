"""Who may take a relay's rooms and connections (spec/12-peers.md 12.5 "Admission").

The relay knows its clients by their address only, and anyone may connect; so
whatever a client takes, it pays for or shares fairly:
- a new connection spends a token of its address (`--connects-per-minute`);
- opening a room costs a proof of work whose difficulty grows with the relay's load and
  with the rooms the opener's address already holds (`work_bits`);
- when the relay is full, a newcomer from an address that holds fewer rooms (or
  connections) than the greediest address takes one from it (`room_victim`,
  `connection_victim`): a flood from a few addresses cannot lock out everyone else.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame, Opcode

from peers.net.relay_limits import Limits
from protocol.relay_work import MAX_WORK_BITS

#: The relay pings each connection this often, and drops one that has not answered
#: within as long again.
KEEPALIVE = 10.0
#: A connection may send this many pings (or unasked pongs) per PING_WINDOW seconds.
MAX_PINGS, PING_WINDOW = 10, 10.0


class Held(Protocol):
    """What fair sharing needs to know of a room or a connection."""

    @property
    def owner(self) -> str: ...

    @property
    def quiet_since(self) -> float: ...


@dataclass
class Bucket:
    tokens: float
    at: float


class Admission:
    """Per-address rate limit, proof-of-work difficulty, and the fair-share choice of
    what a newcomer may displace when the relay is full."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.buckets: dict[str, Bucket] = {}

    def may_connect(self, address: str) -> bool:
        """Spend one of the address's connection tokens; False if it has none left."""
        rate = self.limits.connects_per_minute
        now = time.monotonic()
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) > 4 * self.limits.max_connections:
                self._forget_full(now)
            bucket = self.buckets[address] = Bucket(float(rate), now)
        bucket.tokens = min(float(rate), bucket.tokens + (now - bucket.at) * rate / 60)
        bucket.at = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled: they hold nothing a new one would not."""
        rate = self.limits.connects_per_minute
        for address in [a for a, b in self.buckets.items()
                        if b.tokens + (now - b.at) * rate / 60 >= rate]:
            del self.buckets[address]

    def work_bits(self, held_by_address: int, rooms_open: int) -> int:
        """The difficulty of the next room for an address holding `held_by_address` rooms:
        --work-bits, one more for each quarter of --max-rooms open, and the bit length of
        `held_by_address` (so each address pays about quadratically for many rooms)."""
        load = 4 * rooms_open // max(self.limits.max_rooms, 1)
        return min(self.limits.work_bits + load + held_by_address.bit_length(),
                   MAX_WORK_BITS)

    @staticmethod
    def victim(address: str, held: Iterable[Held]) -> Held | None:
        """What a newcomer from `address` may displace from a full relay: of the address
        holding the most, its longest-quiet one, if that address holds at least two more
        than the newcomer's; otherwise None (the newcomer is refused)."""
        by_owner: dict[str, list[Held]] = {}
        for item in held:
            by_owner.setdefault(item.owner, []).append(item)
        if not by_owner:
            return None
        greedy = max(by_owner, key=lambda owner: len(by_owner[owner]))
        if len(by_owner[greedy]) < len(by_owner.get(address, [])) + 2:
            return None
        return min(by_owner[greedy], key=lambda item: item.quiet_since)


class RelayConnection(ServerConnection):
    """A relay connection that is failed when it pings too often (12.5): each ping costs
    the relay a pong, so a flood of them would cost it CPU for nothing."""

    pings: deque[float]
    flooded = False

    def process_event(self, event: Any) -> None:
        super().process_event(event)
        if not isinstance(event, Frame) or event.opcode not in (Opcode.PING, Opcode.PONG):
            return
        if not hasattr(self, "pings"):
            self.pings = deque()
        now = time.monotonic()
        self.pings.append(now)
        while self.pings and now - self.pings[0] > PING_WINDOW:
            self.pings.popleft()
        if len(self.pings) > MAX_PINGS and not self.flooded:
            self.flooded = True
            self.protocol.fail(1008, "too many pings")
            self.send_data()
            self.loop.call_later(1.0, self.transport.abort)
