"""What the relay tells its operator: one log line per room event, and its counters
(spec/12-peers.md 12.5).

Every room event goes through `RelayEvents`, so the log and `GET /stats` cannot
disagree, and a later admission rule (issue 21) has one place to report to. A room is
named in the log by the first 8 hex digits of its rendezvous id only: the whole id is
the invitation, and whoever reads the log should not be able to take a seat with it.
Lines a stranger can provoke at will (refusals) are rate-limited like the relay's other
log lines; room events are bounded by the room limits, so their limit is generous.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from typing import Any

from peers.net.quiet_log import RateLimit, quiet_logger

ROOM_LINES_PER_MINUTE = 1000


def _rooms_logger() -> logging.Logger:
    logger = logging.getLogger("dealerless.relay.rooms")
    if not any(isinstance(f, RateLimit) for f in logger.filters):
        logger.addFilter(RateLimit(burst=ROOM_LINES_PER_MINUTE))
    return logger


rooms_log = _rooms_logger()
refusals_log = quiet_logger("dealerless.relay.refused")


def short(rid: str) -> str:
    return rid[:8]


class RelayEvents:
    """Room events as log lines and counters; `stats` is what `GET /stats` answers."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.rooms_opened = 0
        self.games_finished = 0
        self.rooms_freed: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.dropped_for: Counter[str] = Counter()
        self.bytes_in = 0
        self.bytes_out = 0
        self.messages = 0

    def opened(self, rid: str, address: str, rooms: int) -> None:
        self.rooms_opened += 1
        rooms_log.info("room %s opened by %s (%d rooms open)", short(rid), address, rooms)

    def joined(self, rid: str, address: str, connections: int) -> None:
        rooms_log.info("room %s joined by %s (%d connections)", short(rid), address,
                       connections)

    def finished(self, rid: str, seats: int, frames: int) -> None:
        self.games_finished += 1
        rooms_log.info("room %s finished: all %d seats report the game complete with %d "
                       "frames", short(rid), seats, frames)

    def freed(self, rid: str, why: str, rooms: int) -> None:
        self.rooms_freed[why] += 1
        rooms_log.info("room %s freed (%s; %d rooms open)", short(rid), why, rooms)

    def refuse(self, kind: str, path: str, address: str, why: str) -> None:
        """A refused connection; `kind` is the limit's field name or the path's fault."""
        self.refused[kind] += 1
        refusals_log.info("refused %s for %s: %s", _shown(path), address, why)

    def dropped(self, why: str) -> None:
        """A connection the relay closed: too slow, silent, pinging too often, or given
        up to a fairer share."""
        self.dropped_for[why] += 1
        refusals_log.info("dropped a connection: %s", why)

    def relayed(self, received: int, sent: int) -> None:
        self.messages += 1
        self.bytes_in += received
        self.bytes_out += sent

    def report(self, stats: dict[str, Any]) -> None:
        """The periodic line of counters (`relay --stats-every`)."""
        rooms_log.info("stats: %s", json.dumps(stats, sort_keys=True))

    def stats(self, rooms: int, connections: int, kept_bytes: int) -> dict[str, Any]:
        return {
            "uptime_s": round(time.monotonic() - self.started, 1),
            "rooms_open": rooms,
            "connections": connections,
            "rooms_opened": self.rooms_opened,
            "games_finished": self.games_finished,
            "rooms_freed": dict(sorted(self.rooms_freed.items())),
            "refused": dict(sorted(self.refused.items())),
            "dropped": dict(sorted(self.dropped_for.items())),
            "messages_relayed": self.messages,
            "bytes_received": self.bytes_in,
            "bytes_sent": self.bytes_out,
            "bytes_kept": kept_bytes,
        }


def _shown(path: str) -> str:
    """A path as the log may show it: a room's id cut short, anything else clipped."""
    if path.startswith("/room/"):
        rest = path[len("/room/"):]
        return "/room/" + short(rest) + ("..." if len(rest) > 8 else "")
    return repr(path[:40])
