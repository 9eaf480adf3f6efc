"""The peer messages and their readers (spec/12-peers.md 12.3).

Peer messages are canonical msgpack arrays. Before the game, K = 2..8 seats
agree on a setup by commit, then reveal; each of these messages ends with its sender's
signature (protocol/handshake_auth.py), which the readers here expect removed:

    ["hello", 10, "host", key, commitment, rules, params, K, round, shares, suite, sig]
                                  the offer, with a key-exchange share for each joining
                                  seat, in the table's ciphersuite (3.5)
    ["hello", 10, "join", key, commitment, seat, host commitment, share, confirm, suite,
     frame key, binding, sig]     a joiner, for the seat its invitation names, with its
                                  frame key in the suite of the hello it answers, bound
                                  to its identity key and seat (12.3 "Authentication")
    ["roster", keys, commitments, frame keys, bindings, sig]
                                                the host fixes the seats (seat 0 is it)
    ["open", key, nonce, sig]                   a seated joiner opens its commitment
    ["reveal", nonces, sig]                     the host opens its own, passes on all
    ["refuse", host key, key, reason, K, sig]   no seat for this key ("full", "seated",
                                                "key")

Then, during the game:

    ["frame", wire]                                          a signed frame
    ["sync", n, head]        "I hold n frames, the last hashing to `head` (the game id
                              for none); send me yours from seq n on"
    ["done", n, seat, head]  "my game (seat `seat`) is complete with n frames, the
                              last hashing to `head`"

A reader raises EncodingError for a malformed message and PeerError for one
that can never work here (another version, unknown rules or suite).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from peers.net.config import CLI_SUITE, MAX_SEATS, MIN_SEATS, PeerError
from peers.net.link import MAX_MESSAGE_BYTES
from protocol.canonical import as_array, as_bytes, as_int, as_list, as_str, pack, unpack
from protocol.errors import DealerlessError, EncodingError
from protocol.handshake_auth import BINDING_BYTES, CONFIRM_BYTES, check_binding
from protocol.hashing import PEER, H, Tag
from protocol.identity import check_public_key
from protocol.rules import make_rules
from protocol.setup import GameSetup
from protocol.suite import ED25519, SUITE_NAMES, Suite, suite
from protocol.version import PEER_PROTOCOL, PROTOCOL

#: The version of the peer protocol in every hello (12.3); version 1 had two seats only,
#: version 2 no signatures, version 3 one secret for every invitee, version 4 the fork
#: choice of 10.8 that a late declaration could turn, version 8 no suite in the hello,
#: version 9 no frame-key bindings.
PROTOCOL_VERSION = PEER_PROTOCOL


def table_suite_named(name: str) -> Suite:
    """The suite `name` (3.5) at this build's protocol version: a new table's."""
    return suite(name, PROTOCOL)


def join_suite_refusal(host: str, mine: str, said: str = CLI_SUITE) -> str:
    """What a joiner says when the host plays another suite than it was asked to (12.3):
    both suites, and how to take the host's."""
    return f"the host plays {host}; this seat {said.format(mine=mine)}"


def check_frame_key(suite_name: str, key: bytes, frame_key: bytes, rid: bytes, seat: int,
                    binding: bytes, code: str = "hello/frame-key") -> bytes:
    """`frame_key` if it may be the frame key (8.3) in the suite `suite_name` of the seat
    `seat` whose identity key is `key`, at the table `rid`: that key itself in the suites
    signed by Ed25519, else a valid key of the suite's group (2.5) that `binding` binds to
    `key` at that seat, signed by both (12.3 "Authentication"); EncodingError `code` or
    `point/*`. Nobody can recompute a G1 frame key from an identity key: its binding is
    what every seat checks, the host in a joiner's hello and every joiner in the roster."""
    played = table_suite_named(suite_name)
    signer = played.signer
    if signer is not ED25519:
        if len(frame_key) != signer.key_bytes:
            raise EncodingError(code, f"seat {seat}: a frame key of {suite_name} is "
                                f"{signer.key_bytes} bytes")
        signer.check_key(frame_key)
    check_binding(played, rid, seat, key, frame_key, binding, code)
    return frame_key


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
    """An identity key: a canonical point of the prime-order group (8.2), else
    EncodingError point/* (small-order, mixed-order and non-canonical keys included)."""
    key = as_bytes(obj, what, 32)
    check_public_key(key)
    return key


@dataclass(frozen=True)
class Offer:
    """The host's hello as a joiner reads it."""

    key: bytes
    commitment: bytes
    rules: str
    params: dict[str, Any]
    seats: int
    round: int
    #: The key-exchange share of each joining seat: shares[i - 1] for seat i (12.3).
    shares: tuple[bytes, ...]
    #: The table's ciphersuite (3.5), which the game is played in.
    suite: str

    def share(self, seat: int) -> bytes:
        return self.shares[seat - 1]


@dataclass(frozen=True)
class Roster:
    """The seats as the host fixed them: identity keys, commitments, frame keys in the
    table's suite and the bindings of each frame key to its seat (12.3), in seat order."""

    keys: tuple[bytes, ...]
    commitments: tuple[bytes, ...]
    frame_keys: tuple[bytes, ...]
    bindings: tuple[bytes, ...]

    def body(self) -> list[Any]:
        return ["roster", list(self.keys), list(self.commitments), list(self.frame_keys),
                list(self.bindings)]

    @classmethod
    def of(cls, setup: GameSetup, keys: tuple[bytes, ...],
           bindings: tuple[bytes, ...]) -> Roster:
        """Rebuilt from an agreed setup, the seats' identity keys and their bindings
        (peers/store/seats.py), to repeat it to a seat that lost it."""
        return cls(keys, tuple(hello_commitment(n) for n in setup.nonces), setup.identities,
                   bindings)

    def check_bindings(self, rid: bytes, suite_name: str) -> None:
        """EncodingError `roster/binding` unless every seat's frame key is bound to its
        identity key at its seat by the signatures of both (12.3 step 4): a host cannot
        show one joiner another seat's identity with someone else's frame key."""
        for seat, (key, frame_key, binding) in enumerate(
                zip(self.keys, self.frame_keys, self.bindings, strict=True)):
            check_frame_key(suite_name, key, frame_key, rid, seat, binding, "roster/binding")


def other_version(obj: list[Any], who: str = "the host") -> str | None:
    """What to tell a person about a hello of another peer protocol version, or None. Its
    item 1 is read before anything else (12.3 "Authentication": the order of checks)."""
    version = obj[1] if len(obj) > 1 else None
    if type(version) is not int or version == PROTOCOL_VERSION:
        return None
    return (f"{who} speaks version {version} of the peer protocol; this dealerless "
            f"speaks version {PROTOCOL_VERSION} (update both sides)")


def read_offer(body: list[Any]) -> Offer:
    """A host's hello, its signature removed: EncodingError if malformed, PeerError if
    it can never work here."""
    refused = other_version(body)
    if refused:
        raise PeerError(refused)
    _, _, _, key, commitment, rules, params, seats, rnd, shares, named = as_array(
        body, 11, "host hello")
    if not isinstance(params, dict):
        raise EncodingError("hello/params", "parameters are a map")
    k = as_int(seats, "seats", MIN_SEATS, MAX_SEATS)
    offer = Offer(_key(key), as_bytes(commitment, "commitment", 32), as_str(rules, "rules"),
                  params, k, as_int(rnd, "round", 0, 1 << 32),
                  tuple(as_bytes(y, "share", 32)
                        for y in as_list(shares, "shares", MAX_SEATS - 1)),
                  as_str(named, "suite", 64))
    if len(offer.shares) != k - 1:
        raise EncodingError("hello/shares", f"a table of {k} has {k - 1} key-exchange "
                            f"shares, one for each joining seat, not {len(offer.shares)}")
    for share in offer.shares:
        PEER.decode_point(share)
    if offer.suite not in SUITE_NAMES:
        raise PeerError(f"the host plays the ciphersuite {offer.suite!a}, which this version "
                        f"of dealerless does not know (it knows {', '.join(SUITE_NAMES)})")
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


@dataclass(frozen=True)
class JoinHello:
    """A joiner's hello, its signature removed. `seat` is the one its invitation names,
    `answers` the host commitment it answers (empty if none yet), `share` and `confirm`
    its half of that seat's key exchange (empty with no answer); `suite` the suite it
    plays ("": the host's, before it has seen a host hello), `frame_key` its frame key in
    that suite (empty with no answer), `binding` its binding to `key` at `seat` (empty
    with no answer, or in a suite signed by Ed25519; 12.3 "Authentication")."""

    key: bytes
    commitment: bytes
    seat: int
    answers: bytes
    share: bytes
    confirm: bytes
    suite: str
    frame_key: bytes
    binding: bytes


#: The longest frame key of any suite (3.5): 48 bytes, a compressed point of G1.
MAX_FRAME_KEY = max(suite(name, PROTOCOL).signer.key_bytes for name in SUITE_NAMES)


def read_join_hello(body: list[Any]) -> JoinHello:
    """A joiner's hello: EncodingError if malformed (point/* for a key that is not one),
    read in 12.3's order: its version (item 1), its shape, its key (2.3). Its frame key is
    checked after its signature, with its binding (`check_frame_key`)."""
    refused = other_version(body, "a joiner")
    if refused:
        raise EncodingError("hello/version", refused)
    _, version, _, key, commitment, seat, answers, share, confirm, named, frame_key, \
        binding = as_array(body, 12, "join hello")
    if as_int(version, "hello version") != PROTOCOL_VERSION:
        raise EncodingError("hello/version", f"a version {version!r} hello")
    hello = JoinHello(_key(key), as_bytes(commitment, "commitment", 32),
                      as_int(seat, "seat", 1, MAX_SEATS - 1),
                      as_bytes(answers, "host commitment", max_len=32),
                      as_bytes(share, "share", max_len=32),
                      as_bytes(confirm, "confirm", max_len=CONFIRM_BYTES),
                      as_str(named, "suite", 64),
                      as_bytes(frame_key, "frame key", max_len=MAX_FRAME_KEY),
                      as_bytes(binding, "binding", max_len=BINDING_BYTES))
    sizes = (len(hello.answers), len(hello.share), len(hello.confirm))
    if sizes not in ((0, 0, 0), (32, 32, CONFIRM_BYTES)) \
            or (len(hello.answers) == 0) != (len(hello.frame_key) == 0) \
            or (not hello.answers and hello.binding):
        raise EncodingError("hello/answers", "an answer is a 32-byte host commitment, a "
                            "32-byte share, a 32-byte confirmation, a frame key and its "
                            "binding, or none of them")
    if hello.suite not in ("", *SUITE_NAMES) or (hello.answers and not hello.suite):
        raise EncodingError("hello/suite", f"a joiner names a suite of 3.5 ({hello.suite!r}),"
                            " or none before it has answered a host hello")
    return hello


def read_roster(body: list[Any], offer: Offer) -> Roster:
    """A roster (its signature removed) that fits the host's offer: K distinct keys, the
    host's first, K distinct frame keys in the offer's suite and K bindings, whose
    signatures `Roster.check_bindings` checks."""
    _, keys, commitments, frame_keys, bindings = as_array(body, 5, "roster")
    roster = Roster(tuple(_key(k) for k in as_list(keys, "roster keys", MAX_SEATS)),
                    tuple(as_bytes(c, "commitment", 32)
                          for c in as_list(commitments, "commitments", MAX_SEATS)),
                    tuple(as_bytes(f, "frame key", max_len=MAX_FRAME_KEY)
                          for f in as_list(frame_keys, "frame keys", MAX_SEATS)),
                    tuple(as_bytes(b, "binding", max_len=BINDING_BYTES)
                          for b in as_list(bindings, "bindings", MAX_SEATS)))
    k = offer.seats
    if {len(roster.keys), len(roster.commitments), len(roster.frame_keys),
            len(roster.bindings)} != {k} or len(set(roster.keys)) != k:
        raise EncodingError("roster/seats", f"a roster of {k} seats, each with its own "
                            "identity key, commitment, frame key and binding")
    if len(set(roster.frame_keys)) != k:
        raise EncodingError("roster/seats", f"a roster of {k} seats whose frame keys are "
                            "distinct: two seats have the same frame key")
    if roster.keys[0] != offer.key or roster.commitments[0] != offer.commitment:
        raise EncodingError("roster/host", "not the roster of this host's round")
    return roster


REFUSALS = {
    "full": "the table is full: the host already has its {seats} players, and the game "
            "goes on without you",
    "seated": "your identity key already holds a seat in this game, taken by another "
              "`join` with the same key or by an earlier run of this one (`dealerless "
              "resume` continues that one)",
    "key": "the host refused your identity key: it is not a valid Ed25519 key of the "
           "prime-order group (make a new one with `dealerless keygen --force`)",
}
