"""The table every in-process seat under one test directory sits at (spec/12-peers.md
12.3): the host's identity, its own invitation and the one of each joining seat."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from peers.net.config import JOIN, Invitation
from peers.net.invitation import seat_invitations
from peers.net.messages import PROTOCOL_VERSION, table_suite_named
from protocol.canonical import pack
from protocol.handshake_auth import (
    bind_frame_key,
    host_pin,
    pake_confirm,
    pake_scalar,
    pake_share,
    room_secret,
    sign,
)
from protocol.identity import Identity


def table_of(tmp: Path, seat: int = 0) -> tuple[Identity, Invitation]:
    """The host identity, and the invitation of `seat` (0: the host's own, holding the
    table secret) at the table of the seats under `tmp`."""
    seed = hashlib.sha256(b"test host " + str(tmp).encode()).digest()
    host, table = Identity(seed), hashlib.sha256(seed).digest()[:16]
    own = Invitation(seed[:16], host_pin(host.public_key), room_secret(table), 0, table)
    return host, own if seat == 0 else seat_invitations(own, seat + 1)[seat - 1]


def join_hello(me: Identity, inv: Invitation, commitment: bytes, offer: list[Any],
               secret: bytes | None = None, seat: int | None = None) -> bytes:
    """A signed hello of the joiner `me` for `seat` (the invitation's, or seat 1 with the
    host's own, unless told otherwise) answering the host hello `offer` (as received,
    signature last), its key exchange run with `secret` (that seat's, unless told
    otherwise)."""
    seat = seat or inv.seat or 1
    y = pake_scalar(me, inv.rid, commitment, seat, os.urandom(32))
    share = pake_share(secret or inv.seat_secret(seat), inv.rid, y)
    host_share = offer[9][seat - 1]
    confirm = pake_confirm(inv.rid, seat, y, host_share, share, host_share, me.public_key,
                           commitment, offer[4])
    played = offer[10]   # the host hello's suite, and our frame key in it (12.3)
    return pack(sign(me, inv.rid, ["hello", PROTOCOL_VERSION, JOIN, me.public_key,
                                   commitment, seat, offer[4], share, confirm, played,
                                   me.frame_key(table_suite_named(played)),
                                   bind_frame_key(me, table_suite_named(played), inv.rid,
                                                  seat)]))


def seat_named(name: str) -> int:
    """The seat a test's seat of this name sits at: `host` 0, `join2` (or `join2b`) 2,
    any other joiner 1."""
    if name == "host":
        return 0
    digits = [c for c in name if c.isdigit()]
    return int(digits[0]) if digits else 1
