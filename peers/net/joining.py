"""What a joiner keeps across a crash during the handshake (spec/12-peers.md 12.3).

A joiner's hello commits to its nonce, and once a roster holds that commitment the
seat is the joiner's only if it opens that very nonce: a `join` run again with a fresh
one is told that its seat went to another commitment. So before a hello with a new
commitment leaves, and before the nonce is opened, the joiner writes down

    pack(["joining", 1, nonce, offer, roster])

in `<home>/joining/<32 hex digits of SHA-256(identity key, url)>` (mode 0600): the
nonce, the host hello it answers (`offer`, the message's bytes, or nil) and the roster
it opens its nonce for (the message's bytes, or nil). A restarted joiner answers the
same offer with the same commitment, and once it has opened, opens again for that
roster only and checks the reveal against it, even once the game has started and no
hello is sent any more; a host hello of a later round makes it draw a fresh nonce, as
before the crash (an opened nonce is spent). A `join` of the same invitation with the
same key takes the record up. It is removed once the game's database exists, or when
the handshake ends for good (a refusal, a timeout). A joiner given no invitation URL
(a test's in-process seat) keeps it in memory only. A record also shows that this
`join` reached the table once (`joined_before`): a 404 or a refused connection then
means that the relay or the host restarted, not a wrong invitation (12.5).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from peers import keys
from peers.net.config import PeerError
from peers.net.link import MAX_MESSAGE_BYTES
from peers.net.messages import (
    Offer,
    Roster,
    hello_commitment,
    other_version,
    parse_message,
    read_offer,
    read_roster,
)
from peers.net.records import RecordError, read_record, remove_record, write_record
from protocol.canonical import as_array, as_bytes, pack, unpack
from protocol.errors import DealerlessError
from protocol.setup import NONCE_BYTES

#: The record's name and format version, its first two items.
FORMAT = ("joining", 1)


@dataclass
class Joining:
    """A joiner's handshake so far: its nonce, the offer it answers, the roster it opens
    for (each a message as it arrived)."""

    path: Path | None
    nonce: bytes
    offer: bytes | None = None
    roster: bytes | None = None

    @classmethod
    def take_up(cls, games_dir: Path, key: bytes, url: str) -> Joining:
        """The record of this key's `join` of `url`, or a new one with a fresh nonce (not
        yet written). RecordError if it cannot be read."""
        if not url:
            return cls(None, os.urandom(NONCE_BYTES))
        path = record_path(games_dir, key, url)
        data = read_record(path)
        if data is None:
            return cls(path, os.urandom(NONCE_BYTES))
        try:
            tag, version, nonce, offer, roster = as_array(
                unpack(data, 3 * MAX_MESSAGE_BYTES), 5, "joining record")
            if (tag, version) != FORMAT:
                raise RecordError(f"{path} is not a {FORMAT[0]} record of version "
                                  f"{FORMAT[1]}")
            kept = cls(path, as_bytes(nonce, "nonce", NONCE_BYTES))
            if offer is not None:
                kept.offer = as_bytes(offer, "offer", max_len=MAX_MESSAGE_BYTES)
                if other_version(kept._message(kept.offer, "hello")):
                    # Kept by a build of another peer protocol: no host of this one answers
                    # its round, so it is dropped and the join starts afresh (12.3).
                    remove_record(path)
                    return cls(path, os.urandom(NONCE_BYTES))
                kept.offered()
            if roster is not None:
                kept.roster = as_bytes(roster, "roster", max_len=MAX_MESSAGE_BYTES)
                seated = kept.seated()
                seats = dict(zip(seated.keys, seated.commitments, strict=True))
                if seats.get(key) != hello_commitment(kept.nonce):
                    raise RecordError(f"{path} holds a roster that does not seat this key "
                                      "with this nonce")
        except (DealerlessError, PeerError) as exc:   # PeerError: a hello of another version
            raise RecordError(f"{path} does not decode ({exc}); remove it to join afresh") \
                from None
        return kept

    def offered(self) -> Offer:
        """The host hello this joiner answers (its signature was checked on arrival)."""
        return read_offer(self._message(self.offer, "hello")[:-1])

    def seated(self) -> Roster:
        """The roster this joiner opens its nonce for."""
        return read_roster(self._message(self.roster, "roster")[:-1], self.offered())

    def _message(self, data: bytes | None, kind: str) -> list[Any]:
        obj = parse_message(data or b"")
        if obj is None or len(obj) < 3 or obj[0] != kind:
            raise RecordError(f"{self.path} holds a {kind} that does not decode")
        return obj

    def keep(self) -> None:
        """Write the record down, before what it commits to leaves."""
        if self.path is None:
            return
        write_record(self.path, pack([*FORMAT, self.nonce, self.offer, self.roster]))

    def remove(self) -> None:
        if self.path is not None:
            remove_record(self.path)


def record_path(games_dir: Path, key: bytes, url: str) -> Path:
    """Where the record of `key`'s `join` of the invitation `url` is kept."""
    return games_dir.parent / "joining" / hashlib.sha256(key + url.encode()).hexdigest()[:32]


def joined_before(home: Path, url: str) -> bool:
    """Whether the identity key of `home` began the handshake of the invitation `url` in
    a `join` that stopped before the game was agreed (its record is kept). Read from the
    key's public half, so no passphrase is asked for before the link is up."""
    try:
        key = keys.parse_public_line(keys.public_line(home))
    except keys.KeyStoreError:   # no key yet (NoKeyError), or one `join` will refuse
        return False
    return record_path(home / "games", key, url).is_file()
