"""What a rule set of simultaneous orders adds to `RuleSet` (spec/10-session.md 10.8): the
state the session reads, and the members it calls in each stage of commit-reveal."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any, Protocol, TypeVar, runtime_checkable

from .base import RuleSet


class StageState(Protocol):
    """What the session reads of a simultaneous rule set's state (spec/10-session.md 10.8)."""

    @property
    def stage(self) -> int: ...

    @property
    def keys(self) -> Sequence[bytes | None]:
        """Per seat, its share key (a point), or None before it sent one."""
        ...

    @property
    def commits(self) -> Sequence[bytes | None]:
        """Per seat, its seal of this stage (msgpack), or None."""
        ...

    @property
    def absent(self) -> tuple[int, tuple[tuple[int, bytes | None], ...]] | None:
        """(the seat being declared absent, its ABSENT frames so far: each its signer and
        that signer's decryption share of the seat's seal, or None), or None."""
        ...


class SimultaneousOutcome(Protocol):
    """The verdict of a simultaneous game, as the verifier reports it (spec/11-verify.md 11.1)."""

    def to_json(self) -> dict[str, Any]: ...


class Carries(Enum):
    """What an ABSENT may carry when its signer sends it now (spec/10-session.md 10.8,
    "Shares wait for t declarations")."""
    NOTHING = "no decryption share"
    EITHER = "its decryption share or none"
    SHARE = "its decryption share"

    def allows(self, share: object) -> bool:
        """Whether an ABSENT carrying `share` (None: no share) fits."""
        return self is Carries.EITHER or (share is not None) == (self is Carries.SHARE)


StageStateT = TypeVar("StageStateT", bound=StageState)


@runtime_checkable
class SimultaneousRules(RuleSet[StageStateT, Any], Protocol[StageStateT]):
    """What a rule set of simultaneous orders by commit-reveal adds (spec/10-session.md 10.8).

    It is a RuleSet with no deck: the session never shuffles or deals for it, and uses
    these members instead of the deck game's. `due(state)` says what is owed next and by
    whom: ("keys" | "commit" | "open" | "choose", seat), or None once the game is over;
    the session's phase and turn always follow it. The session checks the share keys, seals,
    openings and decryption shares; everything else is the rules' to judge, raising
    RuleViolation.
    """

    def start_state(self) -> StageStateT:
        """The state before the first frame."""
        ...

    def due(self, state: StageStateT) -> tuple[str, int] | None: ...

    def share_key(self, state: StageStateT, seat: int, key: bytes) -> StageStateT:
        """Record the seat's share key, checked by the session."""
        ...

    def commit(self, state: StageStateT, seat: int, value: bytes) -> StageStateT:
        """Record the seat's seal for the stage, checked by the session."""
        ...

    def decode_orders(self, state: StageStateT, obj: Any) -> Any:
        """The stage's orders from their wire value, strictly."""
        ...

    def takes_orders(self, state: StageStateT) -> bool:
        """Whether this stage's orders are the players' choice; a stage whose commitment
        binds a nonce alone (nil orders) asks no player anything."""
        ...

    def check(self, state: StageStateT, seat: int, orders: Any) -> None:
        """Nothing if decoded `orders` obey the rules for `seat`, else RuleViolation."""
        ...

    def open(self, game_id: bytes, state: StageStateT, seat: int, orders: Any,
             nonce: bytes) -> StageStateT:
        """Record an opening the session has checked; resolve the stage once all are in."""
        ...

    def declare_absent(self, game_id: bytes, state: StageStateT, declarer: int, seat: int,
                       stage: int, share: bytes | None) -> StageStateT:
        """`declarer` says that `seat`, which owes a KEY, COMMIT or OPEN of `stage`, is
        absent; `share` is its decryption share when `sealed` says the OPEN is sealed."""
        ...

    def sealed(self, state: StageStateT, seat: int) -> bool:
        """Whether `seat` owes an OPEN that a majority of its seal's holders can open."""
        ...

    def declarers(self, state: StageStateT, seat: int) -> list[int]:
        """The seats that may declare `seat`, which owes the next frame, absent."""
        ...

    def admits(self, state: StageStateT, seat: int, declarer: int) -> Carries | None:
        """What an ABSENT of `declarer` against `seat` may carry now, or None if it may
        send none."""
        ...

    def recovered(self, game_id: bytes, state: StageStateT, seat: int, orders: Any,
                  nonce: bytes) -> StageStateT:
        """The table opened `seat`'s seal from the declarations: record the orders as its
        opening, and that it withheld them."""
        ...

    def answered(self, state: StageStateT) -> StageStateT:
        """The seat being declared absent sent what it owed: the declarations lapse."""
        ...

    def choose(self, state: StageStateT, seat: int, chosen: int) -> StageStateT:
        """The seat that owes a choice names `chosen`."""
        ...

    def choices(self, state: StageStateT) -> tuple[int, ...]:
        """The seats a CHOOSE may name, while one is owed."""
        ...

    def verdict(self, state: StageStateT) -> SimultaneousOutcome:
        """The result once nothing is owed."""
        ...
