"""Invitations (spec/12-peers.md 12.3, "The invitation" and "Authentication").

`dealerless join URL#PIN.SEAT.ROOM.SECRET`: URL is where to connect, its last path
segment the rendezvous id (16 random bytes in hex); after the `#`, never sent to any
server, PIN pins the host's identity key (protocol/handshake_auth.py host_pin), SEAT is
the joining seat the invitation is for (one digit, 1..7), ROOM the table's room secret
(what a relay room's key comes from) and SECRET that seat's own 16 random-looking bytes,
each of PIN, ROOM and SECRET in unpadded base64url. The host prints one invitation per
joining seat. A joiner obeys only messages signed by the pinned key, and proves to the
host that it holds its seat's secret, so that whoever sees the rendezvous id (a relay
operator sees every one) cannot take an invited seat, and an invitee cannot take
another invitee's.
"""

from __future__ import annotations

import base64
import binascii
import re

from peers.net.config import Invitation, PeerError
from peers.net.link import check_url
from protocol.deck import MAX_SEATS
from protocol.handshake_auth import PIN_BYTES, SECRET_BYTES, host_pin, room_secret

_RID = re.compile(r"/([0-9a-f]{32})/?$")


class InvitationError(PeerError):
    """An invitation `join` stops at before dialling (12.3 "The invitation", 12.7), with
    the part at fault: `rid` (the URL's last path segment), `fragment` (no
    PIN.SEAT.ROOM.SECRET after the '#'), `PIN`, `SEAT`, `ROOM` or `SECRET`."""

    def __init__(self, part: str, text: str) -> None:
        super().__init__(text)
        self.part = part


def rendezvous_id(url: str) -> bytes:
    """The rendezvous id of a game's URL (with or without the invitation's `#` part)."""
    found = _RID.search(url.partition("#")[0].partition("?")[0])
    if not found:
        raise InvitationError("rid", f"{url.partition('#')[0]!r} names no game: an "
                              "invitation URL ends with its 32-hex-digit rendezvous id")
    return bytes.fromhex(found.group(1))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str, size: int) -> bytes | None:
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return data if len(data) == size and _b64(data) == text else None


_ALPHABET = re.compile(r"[A-Za-z0-9_-]*")


def _field(text: str, size: int, part: str) -> bytes:
    """`size` bytes written as 12.3 says: unpadded base64url, canonically (the unused
    low bits of the last character zero), so that each invitation has one spelling."""
    where = f"the {part} of this invitation"
    length = len(_b64(bytes(size)))
    if "=" in text:
        raise InvitationError(part, f"{where} is written with '=' padding: an invitation "
                              "writes base64url without it (copy it exactly as the host "
                              "printed it)")
    if not _ALPHABET.fullmatch(text):
        bad = next(c for c in text if not _ALPHABET.fullmatch(c))
        raise InvitationError(part, f"{where} holds {bad!r}, which base64url does not use "
                              "(A-Z, a-z, 0-9, '-' and '_'; copy it exactly)")
    if len(text) != length:
        raise InvitationError(part, f"{where} has {len(text)} characters, not {length}: it "
                              f"is not {size} bytes (copy the whole invitation)")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64(data) != text:
        raise InvitationError(part, f"{where} is not canonical base64url: its last "
                              f"character {text[-1]!r} sets bits past its {size} bytes, "
                              "which a host writes as zero (copy it exactly)")
    return data


def host_invitation(url: str, host_key: bytes, table: bytes) -> Invitation:
    """The host's own invitation for the table at `url`, whose table secret is `table`."""
    return Invitation(rendezvous_id(url), host_pin(host_key), room_secret(table), 0, table)


def seat_invitations(host: Invitation, seats: int) -> list[Invitation]:
    """The invitations the host hands out: one to each of seats 1..seats-1."""
    return [Invitation(host.rid, host.pin, host.room, seat, host.seat_secret(seat))
            for seat in range(1, seats)]


def join_commands(host: Invitation, base: str, seats: int) -> list[str]:
    """What the host hands out, one for each joining seat in seat order: the `join`
    command with that seat's invitation."""
    return [f"dealerless join {invitation_url(inv, base)}"
            for inv in seat_invitations(host, seats)]


def browser_link(command: str, relay: str | None) -> str | None:
    """The link to the same invitation that opens the browser seat a relay serves at
    /seat/ (spec/12-peers.md 12.9), for a table through `relay`; None for a direct one."""
    if not relay:
        return None
    url = command.removeprefix("dealerless join ")
    scheme, _, rest = url.partition("://")
    web = {"ws": "http", "wss": "https"}.get(scheme)
    return None if web is None else f"{web}://{rest.partition('/')[0]}/seat/#{url}"


_SEAT = re.compile(f"[1-{MAX_SEATS - 1}]")


def parse_invitation(url: str) -> Invitation:
    """The invitation in `url`; PeerError naming what is missing or wrong (an
    InvitationError naming the part at fault, read in the order PIN.SEAT.ROOM.SECRET)."""
    rid = rendezvous_id(url)
    _, sep, tail = url.partition("#")
    parts = tail.split(".")
    if not sep or len(parts) != 4:
        raise InvitationError("fragment", "this invitation lacks the host's pin, the seat "
                              "and the secrets after its '#' (copy the whole invitation; one "
                              "from an older dealerless does not work with this one)")
    pin = _field(parts[0], PIN_BYTES, "PIN")
    if not _SEAT.fullmatch(parts[1]):
        raise InvitationError("SEAT", f"the SEAT of this invitation, {parts[1][:8]!r}, is "
                              f"not one digit 1 to {MAX_SEATS - 1}")
    room, secret = _field(parts[2], SECRET_BYTES, "ROOM"), _field(parts[3], SECRET_BYTES,
                                                                  "SECRET")
    return Invitation(rid, pin, room, int(parts[1]), secret)


def invitation_url(inv: Invitation, base: str) -> str:
    """The invitation URL of a joining seat: `base` (where to connect) with the pin, the
    seat and the secrets."""
    if inv.seat == 0:
        raise ValueError("the host's own invitation is never handed out: it holds the "
                         "table secret")
    return (f"{dial_url(base)}#{_b64(inv.pin)}.{inv.seat}.{_b64(inv.room)}."
            f"{_b64(inv.secret)}")


def legacy_room_secret(url: str) -> bytes | None:
    """The secret of a whole invitation of peer protocol 3 (`URL#PIN.SECRET`, one secret
    for every seat), which was also its relay room's secret; None for anything else. Only
    a game database an older dealerless wrote holds one (12.4)."""
    parts = url.partition("#")[2].split(".")
    if len(parts) != 2 or _unb64(parts[0], PIN_BYTES) is None:
        return None
    return _unb64(parts[1], SECRET_BYTES)


def check_invitation(url: str) -> Invitation:
    """The invitation a person gave (`join`'s argument, the page's join form), or
    ValueError saying what is wrong with it: not a websocket URL, no game, no pin or
    secret."""
    check_url(dial_url(url))
    try:
        return parse_invitation(url)
    except PeerError as exc:
        raise ValueError(str(exc)) from None


def dial_url(url: str) -> str:
    """What to connect to: the part before `#`, which no server ever sees."""
    return url.partition("#")[0]
