"""The peer messages and their readers (spec/12-peers.md 12.3).

Peer messages are canonical msgpack arrays. Before the game, K = 2..8 seats
agree on a setup by commit, then reveal:

    ["hello", 2, "host", key, commitment, rules, params, K, round]   the host's offer
    ["hello", 2, "join", key, commitment, host commitment]  a joiner: its nonce committed
    ["roster", keys, commitments]               the host fixes the seats (seat 0 is it)
    ["open", key, nonce]                        a seated joiner opens its commitment
    ["reveal", nonces]                          the host opens its own, passes on all
    ["refuse", key, reason, K]                  no seat for this key ("full", "seated")

Then, during the game:

    ["frame", wire]                                          a signed frame
    ["sync", n, head]        "I hold n frames, the last hashing to `head` (the game id
                              for none); send me yours from seq n on"
    ["done", n, seat, head]  "my game (seat `seat`) is complete with n frames, the
                              last hashing to `head`"

A reader raises EncodingError for a malformed message and PeerError for one
that can never work here (another version, unknown rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from peers.net.config import MAX_SEATS, MIN_SEATS, PeerError
from peers.net.link import MAX_MESSAGE_BYTES
from protocol.canonical import as_array, as_bytes, as_int, as_list, as_str, pack, unpack
from protocol.errors import DealerlessError, EncodingError
from protocol.hashing import H, Tag
from protocol.rules import make_rules
from protocol.setup import GameSetup

#: The version of the peer protocol in every hello (12.3); version 1 had two seats only.
PROTOCOL_VERSION = 2


def hello_commitment(nonce: bytes) -> bytes:
    """A seat's commitment to its setup nonce: H(HELLO_COMMIT, nonce)[:32]."""
    return H(Tag.HELLO_COMMIT, nonce)[:32]


def pack_message(kind: str, *items: Any) -> bytes:
    return pack([kind, *items])


def parse_message(data: bytes) -> list[Any] | None:
    try:
        obj = unpack(data, MAX_MESSAGE_BYTES)
        if not isinstance(obj, list) or not obj:
            return None
        as_str(obj[0], "message kind")
        return obj
    except EncodingError:
        return None


def _key(obj: Any, what: str = "identity key") -> bytes:
    return as_bytes(obj, what, 32)


@dataclass(frozen=True)
class Offer:
    """The host's hello as a joiner reads it."""

    key: bytes
    commitment: bytes
    rules: str
    params: dict[str, Any]
    seats: int
    round: int


@dataclass(frozen=True)
class Roster:
    """The seats as the host fixed them: identity keys and commitments in seat order."""

    keys: tuple[bytes, ...]
    commitments: tuple[bytes, ...]

    def message(self) -> bytes:
        return pack_message("roster", list(self.keys), list(self.commitments))

    @classmethod
    def of(cls, setup: GameSetup) -> Roster:
        """Rebuilt from an agreed setup (to repeat it to a seat that lost it)."""
        return cls(setup.identities, tuple(hello_commitment(n) for n in setup.nonces))


def read_offer(obj: list[Any]) -> Offer:
    """A host's hello: EncodingError if malformed, PeerError if it can never work here."""
    version = as_int(obj[1], "hello version")
    if version != PROTOCOL_VERSION:
        raise PeerError(f"the host speaks version {version} of the peer protocol; this "
                        f"dealerless speaks version {PROTOCOL_VERSION} (update both sides)")
    _, _, _, key, commitment, rules, params, seats, rnd = as_array(obj, 9, "host hello")
    if not isinstance(params, dict):
        raise EncodingError("hello/params", "parameters are a map")
    offer = Offer(_key(key), as_bytes(commitment, "commitment", 32), as_str(rules, "rules"),
                  params, as_int(seats, "seats", MIN_SEATS, MAX_SEATS),
                  as_int(rnd, "round", 0, 1 << 32))
    try:
        ruleset = make_rules(offer.rules, dict(params))
    except DealerlessError as exc:
        if exc.code == "rules/unknown-ruleset":
            raise PeerError(f"the host offers the rules {offer.rules!r}, which this version "
                            "of dealerless does not know") from None
        raise EncodingError("hello/rules", f"the host's rules: {exc}") from None
    if ruleset.deal.seats != offer.seats:
        raise EncodingError("hello/seats", f"{offer.rules} with these parameters has "
                            f"{ruleset.deal.seats} seats, not {offer.seats}")
    return offer


def read_join_hello(obj: list[Any]) -> tuple[bytes, bytes, bytes]:
    """(identity key, commitment, the host commitment it answers) of a joiner's hello."""
    _, version, _, key, commitment, answers = as_array(obj, 6, "join hello")
    if as_int(version, "hello version") != PROTOCOL_VERSION:
        raise EncodingError("hello/version", f"a version {version} hello")
    answers = as_bytes(answers, "host commitment")
    if len(answers) not in (0, 32):
        raise EncodingError("hello/answers", "a host commitment is 32 bytes, or none")
    return _key(key), as_bytes(commitment, "commitment", 32), answers


def read_roster(obj: list[Any], offer: Offer) -> Roster:
    """A roster that fits the host's offer: K distinct keys, the host's first."""
    _, keys, commitments = as_array(obj, 3, "roster")
    roster = Roster(tuple(_key(k) for k in as_list(keys, "roster keys", MAX_SEATS)),
                    tuple(as_bytes(c, "commitment", 32)
                          for c in as_list(commitments, "commitments", MAX_SEATS)))
    if (len(roster.keys) != offer.seats or len(roster.commitments) != offer.seats
            or len(set(roster.keys)) != offer.seats):
        raise EncodingError("roster/seats", f"a roster of {offer.seats} distinct seats")
    if roster.keys[0] != offer.key or roster.commitments[0] != offer.commitment:
        raise EncodingError("roster/host", "not the roster of this host's round")
    return roster


REFUSALS = {
    "full": "the table is full: the host already has its {seats} players, and the game "
            "goes on without you",
    "seated": "your identity key already holds a seat in this game, taken by another "
              "`join` with the same key or by an earlier run of this one (`dealerless "
              "resume` continues that one)",
}
