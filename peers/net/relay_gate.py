"""What the relay asks of a connection before it takes a place in a room (spec/12-peers.md
12.5 "Entering a room", "Room key", "Proof of work").

Two questions, each a text line the relay sends and one text line it reads back:
- `work C B` to whoever opens a room: the answer `N K` pays for the room (N meets B
  bits) and gives the room's public key K;
- `prove C` to whoever enters a room that exists: the answer is the entry signature
  under the room's key, which only those who hold the invitations' room secret can make.
Answers are read by 12.5's exact grammar (ASCII digits, lowercase hex), never by
str.isdigit() or bytes.fromhex(), which take more; a wrong answer is a refusal that
names what was wrong, never an exception in the relay.
"""

from __future__ import annotations

import asyncio
import os
import re
from typing import Any
from urllib.parse import parse_qs

from websockets.asyncio.server import ServerConnection

from peers.net.outbox import Outbox
from protocol.relay_entry import entry_valid, key_valid
from protocol.relay_work import CHALLENGE_BYTES, meets

#: A room's path: its id, then `?open`, `?from=E.N` or both, and the opener's `suite=S`
#: (12.5).
ROOM_PATH = re.compile(r"^/room/([0-9a-f]{16,64})(?:\?([a-z0-9=.&-]{0,100}))?$")
#: The seats' answers to `work` and `prove`.
ANSWER = {"work": re.compile(r"([0-9]{1,20}) ([0-9a-f]{64})"),
          "prove": re.compile(r"([0-9a-f]{128})")}
#: How long a connection entering a room that exists has to sign the relay's challenge.
PROVE_SECONDS = 10.0
#: A refusal: (the kind counted in /stats, the reason the connection is closed with).
Refusal = tuple[str, str]


def parse_path(path: str) -> tuple[str, bool, str | None, str] | None:
    """(room id, whether it may be opened, what the newcomer holds, the suite it opens the
    room for or "") of a room path."""
    match = ROOM_PATH.match(path)
    if match is None:
        return None
    query = parse_qs(match.group(2) or "", keep_blank_values=True)
    held = query.get("from", [""])[0]
    return match.group(1), "open" in query, held or None, query.get("suite", [""])[0]


def open_room(suite: str) -> str:
    """What a host appends to its room URL (12.5): it may open the room, for a table of
    the ciphersuite `suite` (3.5)."""
    return f"?open&suite={suite}"


def suite_refusal(admitted: frozenset[str], suite: str) -> Refusal | None:
    """Why a relay that admits only the suites `admitted` (none: every suite) refuses to
    open a room for `suite` (12.5, `--suite`), or None."""
    if not admitted or suite in admitted:
        return None
    plays = f"this table plays {suite}" if suite else "its host named no suite"
    return "suite", (f"this relay admits games of {' and '.join(sorted(admitted))} only; "
                     f"{plays}")


def address_of(conn: ServerConnection) -> str:
    return str(conn.remote_address[0]) if conn.remote_address else ""


async def _ask(conn: Any, outbox: Outbox, line: str, seconds: float) -> str | None:
    outbox.put(line)
    try:
        answer = await asyncio.wait_for(conn.recv(), seconds)
    except TimeoutError:
        return None
    return answer if isinstance(answer, str) else ""


async def ask_work(conn: Any, outbox: Outbox, rid: str, bits: int,
                   seconds: float) -> Refusal | bytes:
    """Ask the opener of room `rid` for a proof of work of `bits` and the room's key:
    the key once answered, else the refusal."""
    challenge = os.urandom(CHALLENGE_BYTES)
    answer = await _ask(conn, outbox, f"work {challenge.hex()} {bits}", seconds)
    if answer is None:
        return "work", f"no proof of work in {seconds:g} s"
    found = ANSWER["work"].fullmatch(answer)
    if found is None or not meets(challenge, rid, int(found.group(1)), bits):
        return "work", "wrong proof of work"
    key = bytes.fromhex(found.group(2))
    if not key_valid(key):
        return "key", "wrong room key: not a valid Ed25519 public key"
    return key


async def ask_proof(conn: Any, outbox: Outbox, rid: str, key: bytes) -> Refusal | None:
    """Ask a connection entering room `rid` (whose key is `key`) for its entry
    signature: None once it has proved that it holds the room key, else the refusal."""
    challenge = os.urandom(CHALLENGE_BYTES)
    answer = await _ask(conn, outbox, f"prove {challenge.hex()}", PROVE_SECONDS)
    if answer is None:
        return "key", f"no room key in {PROVE_SECONDS:g} s"
    found = ANSWER["prove"].fullmatch(answer)
    if found is None or not entry_valid(key, challenge, rid, bytes.fromhex(found.group(1))):
        return "key", "wrong room key: this connection does not hold the invitation"
    return None
