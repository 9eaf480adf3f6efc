"""The table every in-process seat under one test directory sits at (spec/12-peers.md
12.3): the host's identity and its invitation, the same for each seat's config."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from peers.net.config import JOIN, Invitation
from peers.net.messages import PROTOCOL_VERSION
from protocol.canonical import pack
from protocol.handshake_auth import host_pin, pake_confirm, pake_scalar, pake_share, sign
from protocol.identity import Identity


def table_of(tmp: Path) -> tuple[Identity, Invitation]:
    """The host identity and its table's invitation for the seats under `tmp`."""
    seed = hashlib.sha256(b"test host " + str(tmp).encode()).digest()
    host = Identity(seed)
    return host, Invitation(seed[:16], host_pin(host.public_key),
                            hashlib.sha256(seed).digest()[:16])


def join_hello(me: Identity, inv: Invitation, commitment: bytes, offer: list[Any],
               secret: bytes | None = None) -> bytes:
    """A joiner's signed hello answering the host hello `offer` (as received, signature
    last), its key exchange run with `secret` (the invitation's, unless told otherwise)."""
    y = pake_scalar(me, inv.rid, commitment, os.urandom(32))
    share = pake_share(secret or inv.secret, inv.rid, y)
    confirm = pake_confirm(inv.rid, y, offer[9], share, offer[9], me.public_key, commitment,
                           offer[4])
    return pack(sign(me, inv.rid, ["hello", PROTOCOL_VERSION, JOIN, me.public_key,
                                   commitment, offer[4], share, confirm]))
