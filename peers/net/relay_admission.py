"""Who may take a relay's rooms and connections (spec/12-peers.md 12.5 "Admission").

The relay knows its clients by their address only, and anyone may connect; so
whatever a client takes, it pays for or shares fairly. A client is its **network**
(`network`: the address's first --ipv4-prefix or --ipv6-prefix bits), not its address:
one host may hold a whole IPv6 /64, and a flood from 250 addresses of one /24 is one
client's flood.
- a new connection spends a token of its network (`--connects-per-minute`);
- opening a room costs a proof of work whose difficulty grows steeply as the relay
  fills and with the rooms the opener's network already holds (`work_bits`);
- when the relay is full, a newcomer may take what is least in use (`victim`): an idle
  room first (empty, or quiet for PLAYING_SECONDS), from anyone; then a waiting room
  (or connection) of a network holding at least two more than the newcomer's; never a
  room whose seats are playing. A flood from many networks therefore takes only what
  nobody plays in.
"""

from __future__ import annotations

import ipaddress
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame, Opcode

from peers.net.relay_limits import Limits
from protocol.relay_work import MAX_WORK_BITS

#: The relay pings each connection this often, and drops one that has not answered
#: within as long again.
KEEPALIVE = 10.0
#: A connection may send this many pings (or unasked pongs) per PING_WINDOW seconds.
MAX_PINGS, PING_WINDOW = 10, 10.0
#: A room is in play while two of its connections have sent messages and one did within
#: this many seconds; one with no message for as long is idle (waiting seats SYNC, and a
#: waiting host repeats its hello, at least every 2 s: 12.3).
PLAYING_SECONDS = 10.0
#: What a full relay may take, least used first (`Claim.tier`).
IDLE, WAITING, PLAYING = 0, 1, 2


def network(address: str, limits: Limits) -> str:
    """The client network `address` belongs to, as "a.b.c.0/24" or "2001:db8::/56"
    (an IPv4-mapped IPv6 address counts as its IPv4 address); a non-IP address as is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = limits.ipv4_prefix if ip.version == 4 else limits.ipv6_prefix
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


@dataclass(frozen=True)
class Claim:
    """A room or a connection, as fair sharing sees it."""

    key: Any              # the room's id, or the connection
    owner: str            # the network that holds it
    quiet_since: float    # its last message (a room's, or the connection's own)
    tier: int             # IDLE, WAITING or PLAYING


@dataclass
class Bucket:
    tokens: float
    at: float


class Admission:
    """Per-network rate limit, proof-of-work difficulty, and the fair-share choice of
    what a newcomer may displace when the relay is full."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.buckets: dict[str, Bucket] = {}

    def network(self, address: str) -> str:
        return network(address, self.limits)

    def may_connect(self, client: str) -> bool:
        """Spend one of network `client`'s connection tokens; False if it has none left."""
        rate = self.limits.connects_per_minute
        now = time.monotonic()
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) > 4 * self.limits.max_connections:
                self._forget_full(now)
            bucket = self.buckets[client] = Bucket(float(rate), now)
        bucket.tokens = min(float(rate), bucket.tokens + (now - bucket.at) * rate / 60)
        bucket.at = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled: they hold nothing a new one would not."""
        rate = self.limits.connects_per_minute
        for client in [a for a, b in self.buckets.items()
                       if b.tokens + (now - b.at) * rate / 60 >= rate]:
            del self.buckets[client]

    def work_bits(self, held_by_network: int, rooms_open: int) -> int:
        """The difficulty of the next room for a network holding `held_by_network` rooms:
        --work-bits, plus floor(8 f^2) for the fraction f of --max-rooms open (0 bits at a
        third full, 2 at half, 4 at three quarters, 8 when full), plus the bit length of
        `held_by_network` (so each network pays about quadratically for many rooms)."""
        most = max(self.limits.max_rooms, 1)
        load = 8 * min(rooms_open, most) ** 2 // most ** 2
        return min(self.limits.work_bits + load + held_by_network.bit_length(),
                   MAX_WORK_BITS)

    @staticmethod
    def victim(newcomer: str, claims: Iterable[Claim]) -> Claim | None:
        """What a newcomer from network `newcomer` may displace from a full relay: the
        longest-quiet IDLE claim of the network holding the most; else, if the network
        holding the most holds at least two more than the newcomer's, its longest-quiet
        WAITING claim; never a PLAYING one. None: the newcomer is refused."""
        by_owner: dict[str, list[Claim]] = {}
        for claim in claims:
            by_owner.setdefault(claim.owner, []).append(claim)
        held = {owner: len(mine) for owner, mine in by_owner.items()}
        ranked = sorted(by_owner, key=lambda owner: -held[owner])
        for owner in ranked:
            idle = [c for c in by_owner[owner] if c.tier == IDLE]
            if idle:
                return min(idle, key=lambda c: c.quiet_since)
        for owner in ranked:
            if held[owner] < held.get(newcomer, 0) + 2:
                break
            waiting = [c for c in by_owner[owner] if c.tier == WAITING]
            if waiting:
                return min(waiting, key=lambda c: c.quiet_since)
        return None


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
