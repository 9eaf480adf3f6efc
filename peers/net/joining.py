"""What a joiner keeps across a crash during the handshake (spec/12-peers.md 12.3).

A joiner's hello commits to its nonce, and once a roster holds that commitment the
seat is the joiner's only if it opens that very nonce: a `join` run again with a fresh
one is told that its seat went to another commitment. So before a hello with a new
commitment leaves, and before the nonce is opened, the joiner writes down

    pack(["joining", 1, nonce, offer, opened])

in `<home>/joining/<32 hex digits of SHA-256(identity key, url)>` (mode 0600): the
nonce, the host hello it answers (`offer`, the message's bytes, or nil: a restarted
joiner asks for the roster with it even once the game has started and no hello is
sent any more) and the round in which it opened the nonce (or nil: an opened nonce is
spent in any later round). A `join` of the same invitation with the same key takes
it up again. It is removed once the game's database exists, or when the handshake
ends for good (a refusal, a timeout). A joiner given no invitation URL (a test's
in-process seat) keeps it in memory only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from peers.keys.home import ensure_dir, write_atomic
from peers.net.config import PeerError
from peers.net.link import MAX_MESSAGE_BYTES
from peers.net.messages import Offer, parse_message, read_offer
from protocol.canonical import as_array, as_bytes, as_int, pack, unpack
from protocol.errors import DealerlessError
from protocol.setup import NONCE_BYTES

#: The record's name and format version, its first two items.
FORMAT = ("joining", 1)


@dataclass
class Joining:
    """A joiner's handshake so far: its nonce, the offer it answers, where it opened."""

    path: Path | None
    nonce: bytes
    offer: bytes | None = None
    opened: int | None = None

    @classmethod
    def take_up(cls, games_dir: Path, key: bytes, url: str) -> Joining:
        """The record of this key's `join` of `url`, or a new one with a fresh nonce (not
        yet written). PeerError naming the file if it cannot be read."""
        if not url:
            return cls(None, os.urandom(NONCE_BYTES))
        name = hashlib.sha256(key + url.encode()).hexdigest()[:32]
        path = games_dir.parent / "joining" / name
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return cls(path, os.urandom(NONCE_BYTES))
        except OSError as exc:
            raise PeerError(f"cannot read {path}: {exc.strerror}") from None
        try:
            tag, version, nonce, offer, opened = as_array(
                unpack(data, 2 * MAX_MESSAGE_BYTES), 5, "joining record")
            if (tag, version) != FORMAT:
                raise PeerError(f"{path} is not a {FORMAT[0]} record of version {FORMAT[1]}")
            kept = cls(path, as_bytes(nonce, "nonce", NONCE_BYTES))
            if offer is not None:
                kept.offer = as_bytes(offer, "offer", max_len=MAX_MESSAGE_BYTES)
                kept.offered()
            if opened is not None:
                kept.opened = as_int(opened, "round", 0, 1 << 32)
        except DealerlessError as exc:
            raise PeerError(f"{path} does not decode ({exc}); remove it to join afresh") \
                from None
        return kept

    def offered(self) -> Offer:
        """The host hello this joiner answers, as read when it arrived."""
        assert self.offer is not None
        obj = parse_message(self.offer)
        if obj is None or len(obj) < 3 or obj[0] != "hello":
            raise PeerError(f"{self.path} holds a host hello that does not decode")
        return read_offer(obj)

    def keep(self) -> None:
        """Write the record down, before what it commits to leaves."""
        if self.path is None:
            return
        ensure_dir(self.path.parent)
        write_atomic(self.path, pack([*FORMAT, self.nonce, self.offer, self.opened]), 0o600)

    def remove(self) -> None:
        if self.path is None:
            return
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
