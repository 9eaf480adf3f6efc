"""Game drivers: what a user interface talks to, whether the other seat is local or remote.

A driver runs one seat's side of a game and reports what happens as events;
when its seat must choose a move it awaits an async chooser (a person at a
terminal, or a bot wrapped to look like one). The UI never touches the
protocol objects beyond the SeatView it is shown.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from peers.entropy import Entropy
from peers.table.selfplay import Table, rule_params
from protocol.errors import LocalError
from protocol.frames import Frame, MessageType
from protocol.identity import Identity
from protocol.messages import MoveBody
from protocol.referee import Referee
from protocol.seat import SeatView
from protocol.suite import DEFAULT, Suite
from protocol.verifier import Verdict, replay


@dataclass(frozen=True)
class StepEvent:
    """A frame was accepted; `note` says what was checked (shown as verification status)."""

    seq: int
    seat: int
    kind: str
    note: str


@dataclass(frozen=True)
class ViewEvent:
    """The position changed: what this seat may see now."""

    view: SeatView
    hand_counts: tuple[int, ...]
    awaiting: tuple[int, str] | None


@dataclass(frozen=True)
class EndEvent:
    """The game is over (or stopped): the verdict of the saved transcript."""

    verdict: Verdict
    transcript: bytes
    message: str


@dataclass(frozen=True)
class NoticeEvent:
    """Something the person should read (a line for the log)."""

    text: str


@dataclass(frozen=True)
class SetupEvent:
    """A networked game's setup is agreed: who the opponents are and what to compare.

    `opponent` is the opponent's fingerprint with what the key store knows of it
    (trusted name, seen before, or new); with more than two seats, every other
    seat's, each after its seat number ("seat 2: unknown key SHA256:..."). `sas`
    is the short authentication string all players read to each other
    (spec/12-peers.md); `seats` is how many there are, `suite` the game's ciphersuite
    (spec/03-hashing.md 3.5).
    """

    game_id: str
    seat: int
    rules: str
    opponent: str
    sas: str
    seats: int = 2
    suite: str = DEFAULT


@dataclass(frozen=True)
class LobbyEvent:
    """A host's table filling up: for each joining seat 1..seats-1, the fingerprint of
    the player who first asked for it with its invitation (None while nobody has), and
    how many seats the table has."""

    joined: tuple[str | None, ...]
    seats: int


Event = StepEvent | ViewEvent | EndEvent | NoticeEvent | SetupEvent | LobbyEvent
AsyncChooser = Callable[[SeatView], Awaitable[Any]]
Notify = Callable[[Event], None]

NOTES = {
    MessageType.KEY: "key share and Schnorr proof verified",
    MessageType.NONCE: "first-player commitment opened",
    MessageType.SHUFFLE: "shuffle proof verified",
    MessageType.DEAL: "decryption shares of the deal verified",
    MessageType.MOVE: "move checked",
    MessageType.REVEAL: "reveal shares verified",
    MessageType.DRAW: "share of the drawn tile verified (only the drawer can open it)",
    MessageType.COMMIT: "seal of secret orders verified (a majority of the others can open it)",
    MessageType.OPEN: "the seal opened, and its orders obey the rules",
    MessageType.ABSENT: "the owing seat missed its deadline (any decryption share proven)",
    MessageType.CHOOSE: "the winner named the elimination candidate",
}


def describe(referee: Referee, frame: Frame) -> StepEvent:
    note = NOTES[frame.type]
    if frame.type is MessageType.SHUFFLE:
        note = f"{note} ({len(referee.game.deck_tiles)} tiles)"
    elif frame.type in (MessageType.OPEN, MessageType.ABSENT, MessageType.CHOOSE):
        note = f"{referee.stage_move(frame.seq)}: {note}"
    elif frame.type is MessageType.MOVE:
        rules = referee.game.rules
        body = MoveBody.decode(referee.game.suite, frame.body)  # the step has checked it
        move = rules.move_from_id(body.move_id)
        text = rules.move_text(move)
        note = (f"{text}: tile opened with a proven share, placement legal"
                if rules.played_tile(move) else
                f"{text}: proven in zero knowledge that no tile in hand could be played"
                if body.claim is not None else text)
    return StepEvent(frame.seq, frame.seat, frame.type.label, note)


def view_event(referee: Referee, view: SeatView) -> ViewEvent:
    due = referee.awaiting
    rs = referee.state.rules_state
    counts = tuple(getattr(rs, "hand_counts", ())) if rs is not None else ()
    return ViewEvent(view, counts, None if due is None else (due[0], due[1].label))


def _chosen(move: Any, _view: SeatView) -> Any:
    """The chooser of a move already chosen."""
    return move


class Driver(Protocol):
    seat: int

    async def run(self, choose: AsyncChooser, notify: Notify) -> Verdict: ...


class LocalDriver:
    """A person (seat `seat`) against local bots, all in this process (`dealerless play`,
    and a table against bots in `dealerless web`).

    `bots` names the bots of the other seats, in seat order; `params` are the rules'
    parameters (their defaults for `len(bots) + 1` seats if None); `in_suite` the game's
    ciphersuite (the default if None)."""

    def __init__(self, bots: Sequence[str], seat: int = 0, rules: str = "bram",
                 params: dict[str, Any] | None = None, seed: int | None = None,
                 think_ms: float | None = None,
                 identities: Sequence[Identity] | None = None,
                 in_suite: Suite | None = None) -> None:
        seats = len(bots) + 1
        if not 0 <= seat < seats:
            raise LocalError("selfplay/seat", f"seat {seat} is not one of the {seats} seats")
        names = list(bots)
        names.insert(seat, bots[0])  # the person's seat: its bot is never asked
        self.seat = seat
        if think_ms is None:
            from peers.bots.registry import PERSON_THINK_MS

            think_ms = PERSON_THINK_MS  # a person plays here
        self.table = Table.create(rules, rule_params(rules, seats) if params is None
                                  else params, names, Entropy(seed), identities, think_ms,
                                  in_suite)

    async def run(self, choose: AsyncChooser, notify: Notify) -> Verdict:
        table, me = self.table, self.seat
        ref = table.referees[me]
        agent = table.agents[me]
        while (due := ref.awaiting) is not None:
            seat = due[0]
            state = table.referees[seat].state
            fresh = table.entropy.bytes(f"fresh {seat}")
            if seat == me and agent.asks(state, due[1]):
                notify(view_event(ref, agent.view(ref.state)))
                move = await choose(agent.view(state))
                wire = agent.next_frame(state, fresh, partial(_chosen, move))
            else:
                wire = table.agents[seat].next_frame(state, fresh, table.choosers[seat])
            table.deliver(wire)
            notify(describe(ref, ref.frames[-1]))
            notify(view_event(ref, agent.view(ref.state)))
            await asyncio.sleep(0)  # let the UI draw between steps
        data = ref.transcript().encode()
        verdict = replay(data)
        notify(EndEvent(verdict, data, "game over"))
        return verdict
