"""A seat's side of entering a relay room (spec/12-peers.md 12.5 "Entering a room").

The relay speaks to a seat in text messages before the room's own (binary) traffic,
which peers cannot forge since the relay forwards binary messages only:
- `work <challenge hex> <bits>` to whoever opens a room: the seat answers with the
  nonce in decimal (protocol/relay_work.py) and the room's public key;
- `prove <challenge hex>` to whoever enters a room that exists: the seat answers with
  its entry signature under the room key (protocol/relay_entry.py), which only those
  who hold the invitations' room secret can make;
- `room <epoch> <start>` once the seat is in: the room's messages that follow are
  numbered from `start`. The seat counts them, and when it reconnects it says what it
  holds (`from=<epoch>.<n>`), so the relay sends it only what is new.

The relay is untrusted: every line is read by 12.5's exact grammar (ASCII digits, at
most 20 and below 2^64; lowercase hex; single spaces), and anything else is an
EntryError that says what the relay sent, never an exception nobody expects.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any

from websockets.uri import parse_uri

from protocol.relay_entry import room_key, sign_entry
from protocol.relay_work import CHALLENGE_BYTES, MAX_WORK_BITS, solve

#: How long a seat waits for each of the relay's entry lines.
ENTRY_TIMEOUT = 10.0
#: The search runs in a thread in slices this long, so that closing the link stops it.
SLICE = 1 << 16
#: 12.5's numbers (`B`, `N`, `S`, the `n` of `from=E.n`): 1 to 20 ASCII digits. Not
#: str.isdigit(), which also takes "²" and other Unicode digits that int() then refuses.
DECIMAL = re.compile(r"[0-9]{1,20}")
#: A room's epoch: 8 bytes in lowercase hex.
EPOCH = re.compile(r"[0-9a-f]{16}")
CHALLENGE = re.compile(rf"[0-9a-f]{{{2 * CHALLENGE_BYTES}}}")
#: The longest entry line a relay sends ("work", 32 hex digits, B); anything longer is
#: refused before it is split or quoted.
MAX_LINE = 64
#: How a seat's error names a relay that breaks these rules.
BROKE = "the relay broke the entry protocol (12.5)"


def decimal(text: str) -> int | None:
    """`text` as one of 12.5's numbers (1 to 20 ASCII digits, below 2^64), else None."""
    if DECIMAL.fullmatch(text) is None:
        return None
    value = int(text)
    return value if value < 1 << 64 else None


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


async def _line(conn: Any) -> str:
    message = await asyncio.wait_for(conn.recv(), ENTRY_TIMEOUT)
    if not isinstance(message, str):
        raise EntryError("the relay sent room traffic before letting this seat in "
                         "(is it an older relay?)")
    if len(message) > MAX_LINE:
        raise EntryError(f"{BROKE}: a line of {len(message)} characters "
                         f"({message[:40]!r}...), not at most {MAX_LINE}")
    return message


async def prove(challenge: bytes, room: str, bits: int) -> int:
    """A nonce meeting `bits`, searched in a thread slice by slice."""
    start = 0
    while True:
        found = await asyncio.to_thread(solve, challenge, room, bits, start, SLICE)
        if found is not None:
            return found
        start += SLICE


async def enter(conn: Any, url: str, place: Place, seed: bytes) -> None:
    """Enter the room `url` names on `conn`: pay its proof of work and give the room key
    (`seed`'s, protocol/relay_entry.py) if the relay asks, or sign its challenge, then
    note where the room's numbering starts. EntryError for any line that is not
    exactly 12.5's: the relay's fault, named, never crashed on."""
    room = parse_uri(url).resource_name.split("/")[-1].split("?")[0]
    line = await _line(conn)
    if line.startswith("work "):
        _, challenge, bits = _fields(line, "proof-of-work request")
        if CHALLENGE.fullmatch(challenge) is None:
            raise EntryError(f"{BROKE}: its proof-of-work request {line!r} has C = "
                             f"{challenge[:40]!r}, not {2 * CHALLENGE_BYTES} lowercase "
                             "hex digits")
        b = decimal(bits)
        if b is None:
            raise EntryError(f"{BROKE}: its proof-of-work request {line!r} has B = "
                             f"{bits[:24]!r}, not a decimal number in ASCII digits")
        if b > MAX_WORK_BITS:
            raise EntryError(f"the relay asks for a proof of work of {b} bits "
                             f"(at most {MAX_WORK_BITS} are paid)")
        nonce = await prove(bytes.fromhex(challenge), room, b)
        await conn.send(f"{nonce} {room_key(seed).hex()}")
        line = await _line(conn)
    if line.startswith("prove "):
        challenge = line.removeprefix("prove ")
        if CHALLENGE.fullmatch(challenge) is None:
            raise EntryError(f"{BROKE}: its room-key challenge {line!r} is not `prove C` "
                             f"with C {2 * CHALLENGE_BYTES} lowercase hex digits")
        await conn.send(sign_entry(seed, bytes.fromhex(challenge), room).hex())
        line = await _line(conn)
    if not line.startswith("room "):
        raise EntryError(f"the relay answered {line!r} instead of letting this seat in")
    _, epoch, start = _fields(line, "room line")
    first = decimal(start)
    if EPOCH.fullmatch(epoch) is None or first is None:
        raise EntryError(f"{BROKE}: its room line {line!r} is not `room E S` with E 16 "
                         "lowercase hex digits and S 1 to 20 ASCII digits below 2^64")
    place.epoch, place.next = epoch, first


def _fields(line: str, what: str) -> list[str]:
    """The three fields of an entry line, separated by single spaces as 12.5 writes them."""
    fields = line.split(" ")
    if len(fields) != 3 or not all(fields):
        raise EntryError(f"{BROKE}: its {what} {line!r} is not three fields separated by "
                         "single spaces")
    return fields
