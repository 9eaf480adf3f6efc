"""The games `dealerless web` runs for its person, each a `WebSeat` (spec/12-peers.md 12.8).

Every game is played by the same code as on the command line: a table against local
bots is a `LocalDriver`, a networked seat a `Peer` over a link opened by
peers/net/launch.py, with its game database in the data directory, so `dealerless
resume` (or the page's Resume) continues it after any crash.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

from peers.net.announce import announcer
from peers.net.config import HOST, JOIN, Invitation, PeerConfig, PeerError
from peers.net.invitation import dial_url, host_invitation, join_commands, parse_invitation
from peers.net.launch import join_meta, open_host, open_join, reopen
from peers.net.link import Link, LinkError
from peers.net.messages import table_suite_named
from peers.net.peer import Peer
from peers.store.finding import find_game
from peers.store.games import GameStore, StoreError
from peers.table.driver import LocalDriver, NoticeEvent, describe
from peers.web.seat import WebSeat
from protocol.errors import DealerlessError
from protocol.handshake_auth import SECRET_BYTES, room_secret
from protocol.identity import Identity
from protocol.match import encode_match, link_of, verify_match
from protocol.rules import make_rules
from protocol.suite import DEFAULT
from protocol.verifier import replay

log = logging.getLogger("dealerless.web")
#: How a joiner of the page says which suite it was asked for, when the host plays another
#: (spec/12-peers.md 12.3).
WEB_SUITE = ("chose {mine} in Advanced (choose \"the host's\" there to play the host's "
             "suite)")


def match_params(rules: str, params: dict[str, Any]) -> dict[str, Any]:
    """The first round's parameters of a match: from the set's highest double down (the
    long variant, for Mineshaft); TableError for rules played one round at a time."""
    if rules == "mineshaft":
        params = {**params, "long": True}
    elif rules != "mexican-train":
        raise TableError(f"{rules} is played one round at a time (no match)")
    return params


#: The game database's record of the seat's move timeout, so a resume keeps it.
TIMEOUT_META = "timeout"


def stored_timeout(store: GameStore) -> float | None:
    """The move timeout a game was started with, or None if it has no readable one."""
    try:
        timeout = float(store.meta(TIMEOUT_META, ""))
    except ValueError:
        return None
    return timeout if 1 <= timeout <= 24 * 3600 else None


class TableError(Exception):
    """A table that cannot be started as asked; str() says why (shown in the page)."""


class Tables:
    """The seats this server plays for its person, by table id."""

    def __init__(self, home: Path, identity: Identity, suite: str = DEFAULT) -> None:
        self.home, self.identity = home, identity
        #: The suite the page offers first for a new table (`dealerless web --suite`).
        self.suite = suite
        self.seats: dict[str, WebSeat] = {}

    def get(self, table_id: str) -> WebSeat | None:
        return self.seats.get(table_id)

    def summary(self) -> list[dict[str, Any]]:
        return [{"id": s.id, "kind": s.kind, "seat": s.seat,
                 "rules": s.game.setup.rules if s.game is not None else s.rules,
                 "over": s.end is not None or s.error is not None,
                 "asked": s.asked} for s in self.seats.values()]

    def playing(self, path: Path) -> bool:
        """Whether a live seat of this server holds the game database at `path`."""
        return any(s.path == str(path) and s.end is None and s.error is None
                   for s in self.seats.values())

    # -- a table against local bots ----------------------------------------------------

    def play_bots(self, rules: str, params: dict[str, Any], seat: int, bots: list[str],
                  think_ms: float | None, match: bool = False,
                  suite: str = DEFAULT) -> WebSeat:
        """A game, or with `match` every round of a match (spec/11-verify.md 11.5), of the
        person at `seat` against `bots` in the other seats, in the ciphersuite `suite`."""
        if match:
            params = match_params(rules, params)
        try:
            driver = LocalDriver(bots, seat, rules, params, think_ms=think_ms,
                                 in_suite=table_suite_named(suite))
        except (DealerlessError, ValueError) as exc:
            raise TableError(str(exc)) from None
        ws = self._new("match" if match else "bots", seat, None)
        ws.suite = suite
        game = driver.table.referees[seat].game
        ws.begin_round(game, int(game.rules.params["round"]) if match else None)
        ws.setup = {"game_id": driver.table.setup.game_id.hex(), "seat": seat,
                    "rules": rules, "seats": len(bots) + 1, "sas": None, "suite": suite,
                    "opponents": "; ".join(f"seat {s}: the {b} bot" for s, b in
                                           enumerate([*bots[:seat], "", *bots[seat:]])
                                           if s != seat)}
        run = self._match(ws, driver, bots, think_ms) if match else driver.run(ws.choose,
                                                                                 ws.notify)
        self._start(ws, run)
        return ws

    async def _match(self, ws: WebSeat, first: LocalDriver, bots: list[str],
                     think_ms: float | None) -> None:
        """Round after round, each chained to the last, the standings after each."""
        setup = first.table.setup
        identities = [agent.identity for agent in first.table.agents]
        files: list[bytes] = []
        driver = first
        while True:
            verdict = await driver.run(ws.choose, ws.notify)
            assert ws.transcript is not None
            files.append(ws.transcript)
            ws.round_over(ws.transcript, verdict)
            result = verify_match(encode_match(files))
            number = int(ws.game.rules.params["round"])
            if number == 0 or not verdict.valid:
                ws.match_over(encode_match(files), result)
                return
            ws.standings(result)
            params = {**dict(setup.params), "round": number - 1, "after": link_of(files[-1])}
            lead = result.rounds[0].first_player
            if "first" in params and lead is not None:  # one draw seats the whole game
                params["first"] = lead                    # (rules/mineshaft.md D19)
            driver = LocalDriver(bots, ws.seat, setup.rules, params, think_ms=think_ms,
                                 identities=identities, in_suite=setup.suite)
            setup = driver.table.setup
            ws.begin_round(driver.table.referees[ws.seat].game, number - 1)

    # -- networked seats -----------------------------------------------------------------

    async def host(self, rules: str, params: dict[str, Any], relay: str | None,
                   listen: tuple[str, int] | None, timeout: float,
                   suite: str = DEFAULT) -> WebSeat:
        """A hosted table of `suite`: its invitations are shown as soon as it is open."""
        try:
            seats = make_rules(rules, params).deal.seats
        except DealerlessError as exc:
            raise TableError(f"rules {rules}: {exc}") from None
        table = os.urandom(SECRET_BYTES)   # the table secret (12.3 "The invitation")
        opened = await self._opening(open_host(relay, listen, self._say("the relay"),
                                               room_secret(table), None, suite))
        invitation = host_invitation(opened.url, self.identity.public_key, table)
        ws = self._new(HOST, 0, timeout, tuple(join_commands(invitation, opened.url, seats)))
        ws.rules, ws.suite = rules, suite
        if opened.note:
            ws.notify(NoticeEvent(opened.note))
        self._start_peer(ws, opened.link, HOST, rules, params, timeout, opened.meta, None,
                         invitation, suite)
        return ws

    async def join(self, url: str, timeout: float, suite: str | None = None) -> WebSeat:
        """A joined table; `suite` the one the person asked for (None: the host's)."""
        try:
            invitation = parse_invitation(url)
        except PeerError as exc:
            raise TableError(str(exc)) from None
        link = await self._opening(open_join(url, self._say(dial_url(url))))
        ws = self._new(JOIN, 1, timeout)
        ws.suite = suite
        self._start_peer(ws, link, JOIN, "bram", {}, timeout, join_meta(url), None,
                         invitation, suite)
        return ws

    async def resume(self, name: str, timeout: float) -> WebSeat:
        try:
            store = GameStore.open(find_game(self.home / "games", name))
        except (StoreError, OSError) as exc:
            raise TableError(str(exc)) from None
        try:
            if self.playing(store.path):
                raise TableError("this game is already being played here")
            done = replay(store.transcript().encode())
            if done.complete or not done.valid:
                raise TableError("the game is already over; nothing to resume (export it "
                                 "to keep its transcript)")
            link = await self._opening(reopen(store, self._say(dial_url(store.meta("url")))))
        except TableError:
            store.close()
            raise
        ws = self._new(f"resume {store.meta('role')}", store.seat, stored_timeout(store))
        ref = store.referee()
        ws.game, ws.path = ref.game, str(store.path)
        # What the page showed before the crash, from the stored frames: each was
        # checked again by this replay, as it was when it arrived.
        for frame in ref.frames:
            ws.notify(describe(ref, frame))
        ws.notify(NoticeEvent(f"Resumed: the {len(ref.frames)} saved frames were checked "
                              "again; waiting for the other seats"))
        setup = store.setup
        self._start_peer(ws, link, store.meta("role"), setup.rules, dict(setup.params),
                         ws.timeout or timeout, {}, store)
        return ws

    def _start_peer(self, ws: WebSeat, link: Link, role: str, rules: str,
                    params: dict[str, Any], timeout: float, meta: dict[str, str],
                    store: GameStore | None, invitation: Invitation | None = None,
                    suite: str | None = None) -> None:
        config = PeerConfig(games_dir=self.home / "games", role=role, identity=self.identity,
                            choose=ws.choose, notify=ws.notify, rules=rules, params=params,
                            move_timeout=timeout,
                            meta={**meta, "bot": "", "web": "1", TIMEOUT_META: repr(timeout)},
                            invitation=invitation, suite=suite, suite_said=WEB_SUITE)
        announce = announcer(self.home, config)

        def on_setup(setup: Any, game: GameStore) -> None:
            ws.game, ws.path = game.referee().game, str(game.path)
            announce(setup, game)
        if store is None:
            config.on_setup = on_setup
        else:   # agreed before the crash: the same game, keys and SAS as then
            announce(store.setup, store)
        self._start(ws, Peer(link, config, store).run())

    # -- common ----------------------------------------------------------------------------

    def _new(self, kind: str, seat: int, timeout: float | None,
             invitations: tuple[str, ...] = ()) -> WebSeat:
        ws = WebSeat(os.urandom(8).hex(), kind, seat, timeout, invitations)
        self.seats[ws.id] = ws
        return ws

    def _start(self, ws: WebSeat, run: Any) -> None:
        async def guarded() -> None:
            try:
                await run
            except asyncio.CancelledError:
                raise
            except (PeerError, LinkError, DealerlessError, OSError, ValueError,
                    StoreError) as exc:   # StoreError: a kept opening that opens nothing
                ws.failed(str(exc))
            except Exception as exc:  # shown in the page; the server goes on
                log.exception("a table failed")
                ws.failed(f"unexpected {type(exc).__name__}: {exc}")
        ws.task = asyncio.ensure_future(guarded())

    async def _opening(self, opening: Any) -> Any:
        try:
            return await opening
        except (LinkError, OSError, ValueError) as exc:
            raise TableError(str(exc)) from None

    def _say(self, where: str) -> Any:
        def say(text: str) -> None:
            log.info("%s: %s", where, text)
        return say

    async def close(self) -> None:
        for ws in self.seats.values():
            await ws.stop()
