"""A seat's side of entering a relay room (spec/12-peers.md 12.5 "Entering a room").

The relay speaks to a seat in text messages before the room's own (binary) traffic,
which peers cannot forge since the relay forwards binary messages only:
- `work <challenge hex> <bits>` to whoever opens a room: the seat answers with the
  nonce in decimal (protocol/relay_work.py);
- `room <epoch> <start>` once the seat is in: the room's messages that follow are
  numbered from `start`. The seat counts them, and when it reconnects it says what it
  holds (`from=<epoch>.<n>`), so the relay sends it only what is new.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from websockets.uri import parse_uri

from protocol.relay_work import CHALLENGE_BYTES, MAX_WORK_BITS, solve

#: How long a seat waits for each of the relay's entry lines.
ENTRY_TIMEOUT = 10.0
#: The search runs in a thread in slices this long, so that closing the link stops it.
SLICE = 1 << 16


class EntryError(Exception):
    """The relay did not let this seat in the way 12.5 says; trying again will not help."""


@dataclass
class Place:
    """Where this seat is in a relay room's numbering: the room's epoch and the index
    of the next message it will receive (empty epoch: never entered)."""

    epoch: str = ""
    next: int = 0

    def url(self, url: str) -> str:
        """`url`, saying what this seat holds once it has been in the room."""
        if not self.epoch:
            return url
        return f"{url}{'&' if '?' in url else '?'}from={self.epoch}.{self.next}"


async def _line(conn: Any) -> list[str]:
    message = await asyncio.wait_for(conn.recv(), ENTRY_TIMEOUT)
    if not isinstance(message, str):
        raise EntryError("the relay sent room traffic before letting this seat in "
                         "(is it an older relay?)")
    return message.split()


async def prove(challenge: bytes, room: str, bits: int) -> int:
    """A nonce meeting `bits`, searched in a thread slice by slice."""
    start = 0
    while True:
        found = await asyncio.to_thread(solve, challenge, room, bits, start, SLICE)
        if found is not None:
            return found
        start += SLICE


async def enter(conn: Any, url: str, place: Place) -> None:
    """Enter the room `url` names on `conn`: pay its proof of work if the relay asks
    for one, then note where the room's numbering starts."""
    room = parse_uri(url).resource_name.split("/")[-1].split("?")[0]
    line = await _line(conn)
    if line[:1] == ["work"]:
        if len(line) != 3 or not line[2].isdigit() or len(line[1]) != 2 * CHALLENGE_BYTES:
            raise EntryError(f"the relay asked for a proof of work in a form 12.5 does not "
                             f"know: {' '.join(line)[:80]!r}")
        bits = int(line[2])
        if bits > MAX_WORK_BITS:
            raise EntryError(f"the relay asks for a proof of work of {bits} bits "
                             f"(at most {MAX_WORK_BITS} are paid)")
        try:
            challenge = bytes.fromhex(line[1])
        except ValueError:
            raise EntryError("the relay's proof-of-work challenge is not hex") from None
        await conn.send(str(await prove(challenge, room, bits)))
        line = await _line(conn)
    if len(line) != 3 or line[0] != "room" or not line[2].isdigit():
        raise EntryError(f"the relay answered {' '.join(line)[:80]!r} instead of "
                         "letting this seat in")
    place.epoch, place.next = line[1], int(line[2])
