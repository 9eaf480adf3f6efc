"""What a host keeps across a crash during the handshake (spec/12-peers.md 12.3,
"Restarting a seat").

The host's hello commits to its round nonce, and joiners answer that commitment; once
the roster is fixed, the seated joiners open their nonces for it and for nothing else.
A host that came back with a fresh nonce, a new rendezvous id or another roster would
strand them. So before its first hello of a round leaves, and before the roster leaves,
the host writes down

    pack(["hosting", 3, table, key, nonce, pake, round, roster, meta, secret])

in `<home>/hosting/<32 hex digits of SHA-256(table)>` (mode 0600): `table` is
pack([rules, params, where, suite]) (what `host` was asked for: the rules with every
parameter, `listen HOST:PORT` or `relay URL`, and the ciphersuite), `key` the host's
identity key, the round's nonce, the fresh bytes of its key-exchange scalar and its
number, the roster it sent (the signed message's bytes, or nil), `meta`, how the table
is reached (the invitation URL, and the address and path it listens on, or the relay),
and the table's secret, which the invitation carries. A `host` run again with the same
table takes the record up: it listens at the same address and path (or reopens the same
relay room), so the invitation is unchanged, and answers with the same commitment and
roster, so the joiners that were waiting finish the handshake with it. The record is
removed once the game's database exists (which then holds the nonce) and when the
handshake ends for good (a timeout). A record older than the handshake's timeout is
dropped: its joiners have given up. A host given no record (a test's or the web page's
in-process seat) keeps its nonce in memory only.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from peers.net.config import HostRecord
from peers.net.messages import (
    Offer,
    Roster,
    hello_commitment,
    parse_message,
    read_roster,
)
from peers.net.records import RecordError, read_record, remove_record, write_record
from protocol.canonical import as_array, as_bytes, as_int, as_str, pack, unpack
from protocol.errors import DealerlessError
from protocol.handshake_auth import SECRET_BYTES
from protocol.rules import make_rules
from protocol.setup import NONCE_BYTES

#: The record's name and format version, its first two items.
#: 2: its secret is the table secret T of peer protocol 4 (12.3); 3: its table names the
#: suite, and its roster the frame keys, of peer protocol 9.
FORMAT = ("hosting", 4)
_MAX_RECORD = 1 << 17


@dataclass
class Hosting:
    """A host's handshake so far. `taken_up` says whether it came from a record left by
    an earlier run that stopped before the game's database existed."""

    path: Path
    table: bytes
    # The nonce, the exchange bytes and the table secret are never logged (repr=False).
    nonce: bytes = field(default_factory=lambda: os.urandom(NONCE_BYTES), repr=False)
    pake: bytes = field(default_factory=lambda: os.urandom(32), repr=False)
    round: int = 0
    key: bytes | None = None
    roster: bytes | None = None
    meta: dict[str, str] = field(default_factory=dict)
    #: The table secret T, which every invitation's secrets come from (12.3 "The invitation").
    secret: bytes = field(default_factory=lambda: os.urandom(SECRET_BYTES), repr=False)
    taken_up: bool = False

    @classmethod
    def take_up(cls, home: Path, rules: str, params: dict[str, Any], where: str,
                max_age: float, suite: str) -> Hosting:
        """The record of this home's `host` of this table in `suite`, or a new one (not yet
        written). RecordError if it cannot be read or does not decode."""
        table = pack([rules, params, where, suite])
        path = home / "hosting" / hashlib.sha256(table).hexdigest()[:32]
        # A record of format 2 (peer protocol 8) was named without the suite: it holds a
        # table secret that no joiner of this build can use, so it is removed (12.3).
        remove_record(home / "hosting" / hashlib.sha256(pack([rules, params, where]))
                      .hexdigest()[:32])
        data = read_record(path)
        if data is not None and time.time() - path.stat().st_mtime > max_age:
            remove_record(path)   # every joiner of that table has given up on it
            data = None
        if data is None:
            return cls(path, table)
        try:
            tag, version, kept_table, key, nonce, pake, rnd, roster, meta, secret = as_array(
                unpack(data, _MAX_RECORD), 10, "hosting record")
            if tag == FORMAT[0] and type(version) is int and version < FORMAT[1]:
                # Written by a build of an older peer protocol (format 3: 9, whose rosters
                # had no bindings): no joiner of this one answers its round.
                remove_record(path)
                return cls(path, table)
            if (tag, version) != FORMAT:
                raise RecordError(f"{path} is not a {FORMAT[0]} record of version "
                                  f"{FORMAT[1]}")
            if kept_table != table:
                raise RecordError(f"{path} holds another table")
            if not isinstance(meta, dict) or not ({"url", "relay"} <= meta.keys() or
                                                  {"url", "listen", "path"} <= meta.keys()):
                raise RecordError(f"{path} does not say where the table is")
            kept = cls(path, table, as_bytes(nonce, "nonce", NONCE_BYTES),
                       as_bytes(pake, "exchange bytes", 32),
                       as_int(rnd, "round", 0, 1 << 32), as_bytes(key, "identity key", 32),
                       meta={as_str(k, "meta key"): as_str(v, "meta value")
                             for k, v in meta.items()},
                       secret=as_bytes(secret, "secret", SECRET_BYTES), taken_up=True)
            if roster is not None:
                kept.roster = as_bytes(roster, "roster", max_len=_MAX_RECORD)
                seated(kept, rules, params, suite)
        except DealerlessError as exc:
            raise RecordError(f"{path} does not decode ({exc}); remove it to host afresh") \
                from None
        return kept

    def keep(self) -> None:
        """Write the record down, before what it commits to leaves."""
        write_record(self.path, pack([*FORMAT, self.table, self.key, self.nonce, self.pake,
                                      self.round, self.roster, self.meta, self.secret]))

    def remove(self) -> None:
        remove_record(self.path)


def seated(record: HostRecord, rules: str, params: dict[str, Any], suite: str) -> Roster:
    """The roster the host sent in the record's round of a table in `suite`; RecordError
    if it is not one that seats this host with the round's nonce."""
    obj = parse_message(record.roster or b"")
    if obj is None or obj[0] != "roster" or record.key is None:
        raise RecordError(f"{record.path} holds a roster that does not decode")
    obj = obj[:-1]   # the host's own signature, which it made
    seats = make_rules(rules, dict(params)).deal.seats
    offer = Offer(record.key, hello_commitment(record.nonce), rules, params, seats,
                  record.round, (), suite)
    return read_roster(obj, offer)
