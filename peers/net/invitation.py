"""The invitation (spec/12-peers.md 12.3, "The invitation" and "Authentication").

`dealerless join URL#PIN.SECRET`: URL is where to connect, its last path segment the
rendezvous id (16 random bytes in hex); after the `#`, never sent to any server, PIN
pins the host's identity key (protocol/handshake_auth.py host_pin) and SECRET is 16
random bytes that only those invited hold, each in unpadded base64url. A joiner obeys
only messages signed by the pinned key, and proves to the host that it holds the
secret, so that whoever sees the rendezvous id (a relay operator sees every one)
cannot take the invited seat.
"""

from __future__ import annotations

import base64
import binascii
import re

from peers.net.config import Invitation, PeerError
from peers.net.link import check_url
from protocol.handshake_auth import PIN_BYTES, SECRET_BYTES, host_pin

_RID = re.compile(r"/([0-9a-f]{32})/?$")


def rendezvous_id(url: str) -> bytes:
    """The rendezvous id of a game's URL (with or without the invitation's `#` part)."""
    found = _RID.search(url.partition("#")[0].partition("?")[0])
    if not found:
        raise PeerError(f"{url.partition('#')[0]!r} names no game: an invitation URL ends "
                        "with its 32-hex-digit rendezvous id")
    return bytes.fromhex(found.group(1))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str, size: int) -> bytes | None:
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return data if len(data) == size and _b64(data) == text else None


def host_invitation(url: str, host_key: bytes, secret: bytes) -> Invitation:
    """The host's own invitation for the table at `url`."""
    return Invitation(rendezvous_id(url), host_pin(host_key), secret)


def parse_invitation(url: str) -> Invitation:
    """The invitation in `url`; PeerError naming what is missing or wrong."""
    rid = rendezvous_id(url)
    _, sep, tail = url.partition("#")
    pin_text, dot, secret_text = tail.partition(".")
    pin, secret = _unb64(pin_text, PIN_BYTES), _unb64(secret_text, SECRET_BYTES)
    if not sep or not dot or pin is None or secret is None:
        raise PeerError("this invitation lacks the host's pin and the table's secret after "
                        "its '#' (copy the whole invitation; one from an older dealerless "
                        "does not work with this one)")
    return Invitation(rid, pin, secret)


def invitation_url(inv: Invitation, base: str) -> str:
    """The invitation URL: `base` (where to connect) with the pin and the secret."""
    return f"{dial_url(base)}#{_b64(inv.pin)}.{_b64(inv.secret)}"


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
