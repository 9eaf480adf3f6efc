"""What a networked seat is given and what it reports (spec/12-peers.md 12.3, 12.7)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from peers.store.games import GameStore
from peers.table.driver import AsyncChooser, Notify
from protocol.handshake_auth import seat_secret
from protocol.identity import Identity
from protocol.setup import GameSetup
from protocol.verifier import Verdict

HOST, JOIN = "host", "join"
MIN_SEATS, MAX_SEATS = 2, 8
#: How a joiner started with `join --suite` says which suite it was asked for, when the
#: host plays another (12.3; peers/net/messages.py join_suite_refusal).
CLI_SUITE = "was started with --suite {mine} (join without --suite to play the host's)"


class PeerError(Exception):
    """The game could not start or go on for a reason on this side (not a violation)."""


@dataclass(frozen=True)
class Invitation:
    """What an invitation names beyond where to connect (12.3, peers/net/invitation.py):
    the rendezvous id, the pin of the host's identity key, the room secret R, and the
    seat it invites to with that seat's secret S_i. The host's own has seat 0 and, as
    `secret`, the table secret T that every S_i and R come from."""

    rid: bytes
    pin: bytes
    room: bytes = field(repr=False)     # never logged
    seat: int
    secret: bytes = field(repr=False)

    def seat_secret(self, seat: int) -> bytes:
        """S_seat: derived by the host; a joiner knows only its own."""
        if self.seat == 0:
            return seat_secret(self.secret, seat)
        if seat != self.seat:
            raise ValueError(f"an invitation to seat {self.seat} holds no other seat's secret")
        return self.secret


class HostRecord(Protocol):
    """What a host writes down during its handshake (peers/net/hosting.py, 12.3)."""

    path: Path
    nonce: bytes
    round: int
    key: bytes | None
    roster: bytes | None
    pake: bytes

    def keep(self) -> None: ...

    def remove(self) -> None: ...


@dataclass
class PeerConfig:
    games_dir: Path
    role: str
    identity: Identity
    choose: AsyncChooser
    notify: Notify
    rules: str = "bram"
    params: dict[str, Any] = field(default_factory=dict)
    move_timeout: float = 300.0
    sync_interval: float = 0.5
    linger: float = 3.0
    meta: dict[str, str] = field(default_factory=dict)
    on_setup: Callable[[GameSetup, GameStore], None] | None = None
    #: A joiner's check of the rules a host offers, before it asks for a seat: it raises
    #: PeerError to leave (say, rules its interface cannot show).
    offer_check: Callable[[str], None] | None = None
    #: A host's handshake record (12.3): taken up from a run that stopped, or new. None
    #: keeps the round's nonce in memory only.
    hosting: HostRecord | None = None
    #: The table's invitation (peers/net/invitation.py): the rendezvous id every
    #: handshake signature covers, the host's pin and the secret. Required to sit down.
    invitation: Invitation | None = None
    #: The ciphersuite (spec/03-hashing.md 3.5): the table's, for a host (None: the
    #: default); for a joiner, the one it was asked to play, or None to play the host's.
    suite: str | None = None
    #: How a joiner says which suite it was asked for if the host plays another (12.3).
    suite_said: str = CLI_SUITE


@dataclass(frozen=True)
class PeerResult:
    verdict: Verdict
    path: Path
    message: str
