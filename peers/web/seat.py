"""A person's seat shown in the browser: the bridge between a driver and its pages.

Theory of operation: a `WebSeat` is the chooser and the notifier of one driver (a
game against local bots, or a networked seat), which runs as a task of the server, not
of any page. It keeps what a page needs to draw the table from nothing (the setup,
the latest view, the log of checks, the verdict) and pushes every change to the pages
that watch it. When the driver asks this seat for a move, the seat waits for a page
to pick one of the legal moves; a page that closes changes nothing, and a page that
opens later is sent the whole table, the pending question included.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from peers.table.driver import (
    EndEvent,
    Event,
    LobbyEvent,
    NoticeEvent,
    SetupEvent,
    StepEvent,
    ViewEvent,
)
from peers.table.report import headline, match_account
from peers.web import orders
from peers.web.views import end_json, notice_json, setup_json, step_json, view_json
from protocol.errors import DealerlessError
from protocol.match import MatchVerdict
from protocol.seat import SeatView

log = logging.getLogger("dealerless.web")
MAX_LOG = 4000
#: A page whose messages pile up past this is dropped (it reconnects and redraws).
MAX_QUEUED = 256


class Page:
    """One open page: its own queue and writer, so a slow page never holds up a game."""

    def __init__(self, send: Callable[[dict[str, Any]], Any]) -> None:
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.writer = asyncio.ensure_future(self._write(send))

    async def _write(self, send: Callable[[dict[str, Any]], Any]) -> None:
        while (message := await self.queue.get()) is not None:
            try:
                await send(message)
            except (ConnectionError, RuntimeError):  # the page went away mid-send
                return

    def push(self, message: dict[str, Any]) -> bool:
        if self.queue.qsize() >= MAX_QUEUED:
            return False
        self.queue.put_nowait(message)
        return True

    def close(self) -> None:
        self.queue.put_nowait(None)


class WebSeat:
    """One person's seat in a game this server runs."""

    def __init__(self, table_id: str, kind: str, seat: int, timeout: float | None,
                 invitations: tuple[str, ...] = ()) -> None:
        self.id, self.kind, self.seat = table_id, kind, seat
        self.timeout = timeout
        #: A host's `join` commands, one per joining seat in seat order (12.3).
        self.invitations = invitations
        self.game: Any = None          # protocol Game, once the setup is agreed
        self.rules: str | None = None  # the rule set asked for, before the setup is agreed
        self.suite: str | None = None  # the suite asked for (spec/03-hashing.md 3.5), likewise
        self.setup: dict[str, Any] | None = None
        self.lobby: dict[str, Any] | None = None   # a host's table filling up
        self.log: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.awaiting: dict[str, Any] | None = None
        self.end: dict[str, Any] | None = None
        self.transcript: bytes | None = None
        self.path: str | None = None   # the game database, for a networked seat
        self.error: str | None = None
        # Mined Games: every miner's money after each round, as the rounds resolve.
        self.history: list[dict[str, Any]] = []
        # A match: this round's double, and the standings after each round played.
        self.round: int | None = None
        self.match: dict[str, Any] | None = None
        # A match: every round's transcript, downloadable until the page is closed.
        self.rounds: list[dict[str, Any]] = []
        self.round_files: list[bytes] = []
        self.pages: set[Page] = set()
        self._pick: asyncio.Future[Any] | None = None
        self._asked: SeatView | None = None
        self.task: asyncio.Task[Any] | None = None

    # -- the driver's side ---------------------------------------------------------------

    async def choose(self, view: SeatView) -> Any:
        """Ask the pages for a move among `view.legal` (or orders) and wait for one."""
        self._asked = view
        self._pick = asyncio.get_running_loop().create_future()
        self._push_view(view)
        try:
            return await self._pick
        finally:
            self._pick, self._asked = None, None
            self.publish({"type": "asked", "asked": False})

    def notify(self, event: Event) -> None:
        if isinstance(event, StepEvent):
            self._append(step_json(event))
        elif isinstance(event, NoticeEvent):
            self._append(notice_json(event))
        elif isinstance(event, SetupEvent):
            self.setup = setup_json(event)
            self.seat = event.seat
            self.publish({"type": "setup", "setup": self.setup, "seat": self.seat})
        elif isinstance(event, ViewEvent):
            if event.awaiting is None:
                self.awaiting = None
            elif (self.awaiting is None
                  or (self.awaiting["seat"], self.awaiting["message"]) != event.awaiting):
                self.awaiting = {"seat": event.awaiting[0], "message": event.awaiting[1],
                                 "since": time.time()}
            self._push_view(event.view)
        elif isinstance(event, LobbyEvent):
            self.lobby = {"joined": list(event.joined), "seats": event.seats}
            self.publish({"type": "lobby", "lobby": self.lobby})
        elif isinstance(event, EndEvent):
            self.end, self.transcript = end_json(event), event.transcript
            self.awaiting = None
            self.publish({"type": "end", "end": self.end, "awaiting": None})

    def begin_round(self, game: Any, number: int | None) -> None:
        """A new game at this seat: the first, or the next round of a match."""
        self.game, self.round = game, number
        self.view = self.awaiting = self.end = self.transcript = None
        if number is not None:
            self._append({"kind": "notice", "text": f"Round of the {number}s begins"})
        self.publish(self.snapshot())

    def round_over(self, data: bytes, verdict: Any) -> None:
        """A round of a match has ended: keep its transcript for the page to download."""
        self.round_files.append(data)
        self.rounds.append({"index": len(self.rounds), "round": self.round,
                            "bytes": len(data), "headline": headline(verdict),
                            "exit_code": verdict.exit_code})
        self.publish({"type": "rounds", "rounds": self.rounds})

    def standings(self, result: MatchVerdict) -> None:
        self.match = {"json": result.to_json(), "text": match_account(result)}
        self.publish({"type": "standings", "match": self.match})

    def match_over(self, data: bytes, result: MatchVerdict) -> None:
        self.standings(result)
        self.transcript = data
        self.end = {"message": "match over", "bytes": len(data), "match": True,
                    "verdict": {"json": result.to_json(), "text": match_account(result),
                                "headline": match_account(result).splitlines()[-1],
                                "exit_code": result.exit_code}}
        self.publish({"type": "end", "end": self.end, "awaiting": None})

    def failed(self, text: str) -> None:
        self.error = text
        if self._pick is not None and not self._pick.done():
            self._pick.cancel()
        self.publish({"type": "error", "error": text})

    # -- the pages' side -----------------------------------------------------------------

    def pick(self, choice: Any) -> str | None:
        """A page's pick: None if taken, else why not (not this seat's turn, not legal)."""
        view = self._asked
        if self._pick is None or self._pick.done() or view is None:
            return "it is not your turn"
        try:
            move = self._decode(view, choice)
        except (DealerlessError, ValueError, TypeError, KeyError) as exc:
            return f"not a legal choice: {exc}"
        self._pick.set_result(move)
        return None

    def draft(self, choice: Any) -> dict[str, Any]:
        """Mined Games orders being composed: what the rules let come next."""
        view = self._asked
        if view is None or self.game is None or not self.game.simultaneous:
            return {"error": "it is not your turn to give orders"}
        return orders.draft(self.game, view, choice)

    def _decode(self, view: SeatView, choice: Any) -> Any:
        game = self.game
        if game.simultaneous and self.awaiting and self.awaiting["message"] == "commit":
            # Orders, in the form their frame carries them (spec/rules/mined-games.md 8).
            rules, rs = game.stages, view.rules_state
            rules.check(rs, self.seat, rules.decode_orders(rs, choice))
            return choice
        legal = {m if isinstance(m, int) else game.rules.move_id(m): m for m in view.legal}
        if type(choice) is not int or choice not in legal:
            raise ValueError(f"{choice!r} is none of the {len(legal)} legal choices")
        return legal[choice]

    @property
    def asked(self) -> bool:
        """Whether the driver waits for this seat's person to pick."""
        return self._pick is not None and not self._pick.done()

    def snapshot(self) -> dict[str, Any]:
        """Everything a page needs to draw this table from nothing."""
        return {"type": "table", "id": self.id, "kind": self.kind, "seat": self.seat,
                "rules": self.game.setup.rules if self.game is not None else self.rules,
                "seats": self.game.seats if self.game is not None else None,
                "suite": self.game.setup.suite_name if self.game is not None else self.suite,
                "timeout": self.timeout, "invitations": list(self.invitations),
                "setup": self.setup, "view": self.view, "awaiting": self.awaiting,
                "asked": self.asked, "log": self.log[-MAX_LOG:], "end": self.end,
                "error": self.error,
                "history": self.history, "round": self.round, "match": self.match,
                "rounds": self.rounds, "lobby": self.lobby, "path": self.path, "now": time.time()}

    def watch(self, page: Page) -> None:
        self.pages.add(page)
        page.push(self.snapshot())

    def unwatch(self, page: Page) -> None:
        self.pages.discard(page)

    def publish(self, message: dict[str, Any]) -> None:
        message = {**message, "table": self.id}
        for page in list(self.pages):
            if not page.push(message):
                log.info("dropped a page that stopped reading")
                self.pages.discard(page)
                page.close()

    def _append(self, entry: dict[str, Any]) -> None:
        self.log.append(entry)
        if len(self.log) > 2 * MAX_LOG:
            del self.log[:MAX_LOG]
        self.publish({"type": "log", "entry": entry})

    def _push_view(self, view: SeatView) -> None:
        if self.game is None:
            return
        phase = self.awaiting["message"] if self.awaiting else ""
        self.view = view_json(self.game, view, phase)
        if self.game.simultaneous:
            self._note_round(self.view["state"])
        self.publish({"type": "view", "view": self.view, "awaiting": self.awaiting,
                      "history": self.history, "round": self.round, "match": self.match,
                      "asked": self.asked, "now": time.time()})

    def _note_round(self, state: dict[str, Any]) -> None:
        # Stage r + 1 plays round r (spec/rules/mined-games.md 6): once stage s is under
        # way, or the game has ended, round s - 2 (or s - 1) has resolved.
        done = state["stage"] - (1 if state["end"] is not None else 2)
        if done >= 1 and (not self.history or self.history[-1]["round"] < done):
            self.history.append({"round": done, "money": [m[1] for m in state["miners"]]})

    async def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

