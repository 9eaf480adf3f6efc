"""The relay's limits, each a command-line flag (spec/12-peers.md 12.5).

Every bound the relay enforces is one field of `Limits`, and each field carries its
flag and a sentence of help, so `dealerless relay --help`, the spec's table and a
refusal ("relay full: ... (--max-rooms 256)") all name the same flag with the same
default. A new bound is one more field here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from peers.net.link import MAX_MESSAGE_BYTES


def _limit(default: Any, flag: str, meaning: str) -> Any:
    return field(default=default, metadata={"flag": flag, "help": meaning})


@dataclass(frozen=True)
class Limits:
    """What one relay holds at most; see each field's flag for its meaning."""

    max_rooms: int = _limit(256, "--max-rooms", "rooms open at once")
    max_rooms_per_network: int = _limit(
        16, "--max-rooms-per-network",
        "rooms opened from one client network (--ipv4-prefix, --ipv6-prefix) and still "
        "open (a club behind one NAT address shares them)")
    max_connections: int = _limit(512, "--max-connections", "connections in all rooms")
    max_connections_per_network: int = _limit(
        64, "--max-connections-per-network", "connections from one client network")
    connects_per_minute: int = _limit(
        240, "--connects-per-minute", "connection attempts one client network may make "
                                      "a minute (a burst of as many, then one at a "
                                      "time)")
    ipv4_prefix: int = _limit(
        24, "--ipv4-prefix", "bits of an IPv4 address that name its network: every "
                             "address of a /24 counts as one client")
    ipv6_prefix: int = _limit(
        56, "--ipv6-prefix", "bits of an IPv6 address that name its network (a home or a "
                             "small site is given a /56 or a /64)")
    max_connections_per_room: int = _limit(
        12, "--max-room-connections", "connections in one room (8 seats, and slack for "
                                      "reconnections)")
    max_messages_per_room: int = _limit(
        4096, "--max-frames", "messages a room keeps for catch-up; a full room forgets "
                              "its oldest")
    max_bytes_per_room: int = _limit(
        8 << 20, "--max-room-bytes", "bytes a room keeps for catch-up; a full room "
                                     "forgets its oldest messages")
    max_total_bytes: int = _limit(
        256 << 20, "--max-total-bytes", "bytes kept in all rooms together")
    max_message: int = _limit(
        MAX_MESSAGE_BYTES, "--max-message", "bytes in one message; a larger one closes "
                                            "its connection (a frame needs up to "
                                            f"{MAX_MESSAGE_BYTES})")
    max_catchup: int = _limit(
        32 << 20, "--max-catchup", "bytes of its log a room sends again to newcomers in "
                                   "all; past them a newcomer gets only new messages "
                                   "(peers ask each other for what they lack)")
    work_bits: int = _limit(
        16, "--work-bits", "proof of work to open a room, in bits (2^bits hashes); up to "
                           "8 bits more as the relay fills (8 x its fill squared) and as "
                           "many as the bits of the rooms the network holds")
    work_seconds: float = _limit(
        60.0, "--work-seconds", "seconds an opener has to answer the proof of work")
    unjoined_seconds: float = _limit(
        180.0, "--unjoined", "seconds a room may wait for its first joiner; then its "
                             "opener is disconnected and the room freed")
    quiet_seconds: float = _limit(
        60.0, "--quiet", "seconds a connection may wait before its first message, and a "
                         "room with connections between two messages (waiting peers "
                         "SYNC every 2 s); then they are closed")
    idle_seconds: float = _limit(
        300.0, "--idle", "seconds an unfinished game's room is kept after its last "
                         "connection leaves, so a seat that crashed can come back and "
                         "catch up (a finished game's room is freed at once)")

    def __post_init__(self) -> None:
        if not (8 <= self.ipv4_prefix <= 32 and 16 <= self.ipv6_prefix <= 128):
            raise ValueError("--ipv4-prefix is 8 to 32 bits and --ipv6-prefix 16 to 128")

    def flag(self, name: str) -> str:
        """`--flag VALUE` of one limit, as a refusal names it."""
        meta = next(f.metadata for f in fields(self) if f.name == name)
        value = getattr(self, name)
        return f"{meta['flag']} {value:g}" if isinstance(value, float) else \
            f"{meta['flag']} {value}"


def limit_flags() -> list[tuple[str, str, Any, str]]:
    """(field name, flag, default, help) of every limit, for the argument parser."""
    return [(f.name, f.metadata["flag"], f.default, f.metadata["help"])
            for f in fields(Limits)]
