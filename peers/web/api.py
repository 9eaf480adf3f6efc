"""The page's API: JSON over HTTP for what it asks once, a websocket for the live table
(spec/12-peers.md 12.8). Every handler answers bad input with a 4xx and one sentence
(`{"error": ...}`), never a traceback, and never lets it reach a game or the store."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

import protocol.rules as rules_pkg
from peers.bots.registry import BOTS, RULES_OF, check_bot
from peers.net.config import MAX_SEATS, MIN_SEATS
from peers.net.invitation import check_invitation
from peers.net.launch import parse_hostport
from peers.net.link import check_url
from peers.store.finding import GameNotFound, find_game_id, list_games
from peers.store.games import GameStore, StoreError
from peers.table.checked import text_of, verify_data
from peers.table.selfplay import SET_NAMES, rule_params
from peers.web.seat import Page, WebSeat
from peers.web.security import MAX_UPLOAD
from peers.web.tables import TableError, Tables
from protocol.errors import DealerlessError
from protocol.identity import fingerprint
from protocol.match import MatchVerdict
from protocol.suite import SUITE_NAMES

MAX_WS_MESSAGE = 64 << 10
#: Open websockets at once (spec/12-peers.md 12.8.1). A page holds one; every client is
#: on loopback, so this caps them all: a program holding the token cannot pile up
#: thousands and the memory they take.
MAX_SOCKETS = 32
MAX_TIMEOUT = 24 * 3600.0


class BadRequest(web.HTTPBadRequest):
    def __init__(self, reason: str) -> None:
        super().__init__(text=json.dumps({"error": reason}), content_type="application/json")


def _json(value: Any, status: int = 200) -> web.Response:
    return web.json_response(value, status=status)


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError):
        raise BadRequest("the request is not a JSON object") from None
    except RecursionError:   # nested deeper than the parser goes: no request needs that
        raise BadRequest("the request is nested too deeply") from None
    if not isinstance(data, dict):
        raise BadRequest("the request is not a JSON object")
    return data


def _field(data: dict[str, Any], name: str, kind: type, default: Any = None) -> Any:
    value = data.get(name, default)
    if value is None or (kind is float and type(value) is int):
        try:
            return value if value is None else float(value)
        except OverflowError:   # JSON integers are unbounded; no field here is that large
            raise BadRequest(f"{name} is far too large") from None
    if type(value) is not kind:
        raise BadRequest(f"{name} must be a {kind.__name__}")
    return value


def rules_catalogue() -> list[dict[str, Any]]:
    """Every rule set with the seat counts it allows and what it takes (komi, set, map)."""
    out = []
    for name in sorted(rules_pkg.RULESETS):
        seats = [k for k in range(MIN_SEATS, MAX_SEATS + 1) if _params_ok(name, k)]
        default = rules_pkg.make_rules(name, {}).deal.seats if _params_ok(name, None) \
            else seats[0]
        params = rules_pkg.make_rules(name, rule_params(name, default)).params
        out.append({"name": name, "seats": seats, "default_seats": default,
                    "komi": "komi_halves" in params,
                    "sets": SET_NAMES if "set" in params else [],
                    "map": "map" in params,
                    "match": name in ("mexican-train", "mineshaft"),
                    "bots": sorted(b for b in BOTS if RULES_OF.get(b, name) == name)})
    return out


def _params_ok(name: str, seats: int | None) -> bool:
    try:
        if seats is None:
            rules_pkg.make_rules(name, {})
        else:
            rule_params(name, seats)
        return True
    except (DealerlessError, ValueError):
        return False


class Api:
    """The handlers, over this server's tables and data directory."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.games_dir = tables.home / "games"
        self.sockets = 0

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/api/lobby", self.lobby), web.get("/api/games", self.games),
                web.post("/api/play", self.play), web.post("/api/host", self.host),
                web.post("/api/join", self.join), web.post("/api/verify", self.verify),
                web.post("/api/games/{game}/resume", self.resume),
                web.get("/api/games/{game}/transcript", self.export),
                web.delete("/api/games/{game}", self.delete),
                web.get("/api/tables/{table}/transcript", self.table_transcript),
                web.get("/api/tables/{table}/rounds/{index}/transcript", self.round_transcript),
                web.get("/ws", self.socket)]

    async def lobby(self, _request: web.Request) -> web.Response:
        return _json({"fingerprint": fingerprint(self.tables.identity.public_key),
                      "rules": rules_catalogue(), "tables": self.tables.summary(),
                      "games": self._games(), "suites": list(SUITE_NAMES),
                      "suite": self.tables.suite})

    async def games(self, _request: web.Request) -> web.Response:
        return _json(self._games())

    def _games(self) -> list[dict[str, Any]]:
        return [{"game_id": g.game_id, "seat": g.seat, "status": g.status,
                 "frames": g.frames, "rules": g.rules, "file": g.path.name,
                 "playing": self.tables.playing(g.path)}
                for g in list_games(self.games_dir)[0]]  # a file it refuses is left out

    def _params(self, data: dict[str, Any], rules: str, seats: int) -> dict[str, Any]:
        komi = _field(data, "komi", float)
        # komi * 2 is checked finite too: 1e308 is finite, twice it is not.
        if komi is not None and (not math.isfinite(komi * 2) or komi * 2 != int(komi * 2)):
            raise BadRequest("komi is a whole or half number of pips")
        try:
            return rule_params(rules, seats, None if komi is None else int(komi * 2),
                               _field(data, "set", str), _field(data, "map", str))
        except ValueError as exc:
            raise BadRequest(str(exc)) from None

    def _rules(self, data: dict[str, Any]) -> tuple[str, int]:
        rules = _field(data, "rules", str, "bram")
        if rules not in rules_pkg.RULESETS:
            raise BadRequest(f"unknown rules {rules!r}")
        seats = _field(data, "seats", int, 2)
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise BadRequest(f"a game has {MIN_SEATS} to {MAX_SEATS} seats")
        return rules, seats

    def _suite(self, data: dict[str, Any]) -> str | None:
        """The ciphersuite the request names (spec/03-hashing.md 3.5), or None for none or
        `""`: for a joiner the host's, as a join hello's `""` (spec/12-peers.md 12.3)."""
        suite: str = _field(data, "suite", str, "")
        if suite and suite not in SUITE_NAMES:
            raise BadRequest(f"unknown suite {suite!r}: one of {', '.join(SUITE_NAMES)}")
        return suite or None

    def _table_suite(self, data: dict[str, Any]) -> str:
        """The suite of a table this page starts: the request's, else the page's."""
        return self._suite(data) or self.tables.suite

    def _timeout(self, data: dict[str, Any]) -> float:
        timeout = _field(data, "timeout", float, 300.0)
        if not (math.isfinite(timeout) and 1 <= timeout <= MAX_TIMEOUT):
            raise BadRequest("the timeout is 1 second to a day")
        return float(timeout)

    async def play(self, request: web.Request) -> web.Response:
        data = await _body(request)
        rules, seats = self._rules(data)
        params = self._params(data, rules, seats)
        seat = _field(data, "seat", int, 0)
        bots = _field(data, "bots", list, ["greedy"])
        if not all(type(b) is str for b in bots):
            raise BadRequest("bots is a list of bot names")
        bots = (bots * (seats - 1))[:seats - 1] if len(bots) == 1 else bots
        if len(bots) != seats - 1:
            raise BadRequest(f"give one bot, or one for each of the {seats - 1} other seats")
        try:
            for bot in bots:
                check_bot(bot, rules)
        except DealerlessError as exc:
            raise BadRequest(exc.detail or exc.code) from None
        if not 0 <= seat < seats:
            raise BadRequest(f"your seat is one of 0 to {seats - 1}")
        think = _field(data, "think_ms", float)
        if think is not None and not (math.isfinite(think) and 0 < think <= 60_000):
            raise BadRequest("think_ms is above 0 and at most 60000")
        match = _field(data, "match", bool, False)
        try:
            return self._started(self.tables.play_bots(
                rules, params, seat, bots, think, match,
                self._table_suite(data)))
        except TableError as exc:
            raise BadRequest(str(exc)) from None

    async def host(self, request: web.Request) -> web.Response:
        data = await _body(request)
        rules, seats = self._rules(data)
        params = self._params(data, rules, seats)
        relay = _field(data, "relay", str)
        listen = None
        try:
            if relay:
                relay = check_url(relay).rstrip("/")
            else:   # 0.0.0.0:PORT lets a friend on another machine join directly
                listen = parse_hostport(_field(data, "listen", str, "127.0.0.1:0"))
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        return await self._starting(self.tables.host(
            rules, params, relay, listen, self._timeout(data),
            self._table_suite(data)))

    async def join(self, request: web.Request) -> web.Response:
        data = await _body(request)
        text = _field(data, "invitation", str, "").strip()
        url = text.removeprefix("dealerless join").strip()
        try:
            check_invitation(url)
        except ValueError as exc:
            raise BadRequest(f"not an invitation: {exc}") from None
        return await self._starting(self.tables.join(url, self._timeout(data),
                                                     self._suite(data)))

    async def resume(self, request: web.Request) -> web.Response:
        # Resolved here by id alone; the path handed on is then one inside the games folder.
        path = self._store_path(request.match_info["game"])
        return await self._starting(self.tables.resume(str(path), 300.0))

    async def _starting(self, starting: Any) -> web.Response:
        try:
            return self._started(await starting)
        except TableError as exc:
            raise BadRequest(str(exc)) from None

    def _started(self, ws: WebSeat) -> web.Response:
        return _json({"table": ws.id})

    def _store_path(self, name: str) -> Path:
        """The game named by its id (a hex prefix) in the games folder, else 404: a name
        from a page is never a path (spec/12-peers.md 12.8.2)."""
        try:
            return find_game_id(self.games_dir, name)
        except GameNotFound as exc:
            raise web.HTTPNotFound(text=json.dumps({"error": str(exc)}),
                                   content_type="application/json") from None

    async def export(self, request: web.Request) -> web.Response:
        path = self._store_path(request.match_info["game"])
        try:
            store = GameStore.open(path)
            try:
                data = store.transcript().encode()
                name = store.setup.game_id.hex()[:16]
            finally:
                store.close()
        except (StoreError, DealerlessError, OSError, ValueError) as exc:
            raise BadRequest(f"cannot read this game: {exc}") from None
        return _download(data, f"{name}.transcript")

    async def delete(self, request: web.Request) -> web.Response:
        path = self._store_path(request.match_info["game"])
        if self.tables.playing(path):
            raise web.HTTPConflict(text=json.dumps({"error": "this game is being played"}),
                                   content_type="application/json")
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
        return _json({"deleted": path.name})

    async def table_transcript(self, request: web.Request) -> web.Response:
        ws = self.tables.get(request.match_info["table"])
        if ws is None or ws.transcript is None:
            raise web.HTTPNotFound(text=json.dumps({"error": "no transcript yet"}),
                                   content_type="application/json")
        game_id = (ws.setup or {}).get("game_id", ws.id)
        kind = "match" if ws.end is not None and ws.end.get("match") else "transcript"
        return _download(ws.transcript, f"{str(game_id)[:16]}.{kind}")

    async def round_transcript(self, request: web.Request) -> web.Response:
        """One round of a match, kept by its table after the next round began."""
        ws = self.tables.get(request.match_info["table"])
        index = request.match_info["index"]
        if ws is None or not index.isascii() or not index.isdigit() \
                or int(index) >= len(ws.round_files):
            raise web.HTTPNotFound(text=json.dumps({"error": "no such round"}),
                                   content_type="application/json")
        number = ws.rounds[int(index)]["round"]
        return _download(ws.round_files[int(index)], f"round-of-the-{number}s.transcript")

    async def verify(self, request: web.Request) -> web.Response:
        if request.content_length is not None and request.content_length > MAX_UPLOAD:
            raise web.HTTPRequestEntityTooLarge(MAX_UPLOAD, request.content_length)
        data = await request.read()
        # Judged and worded by the command line's own code, so that the page shows what
        # `dealerless verify FILE` prints, word for word, a cut file included (11.1).
        item = verify_data(data)
        assert item.verdict is not None   # bytes in hand: never "cannot read"
        return _json({"match": isinstance(item.verdict, MatchVerdict),
                      "json": {k: v for k, v in item.to_json().items() if k != "file"},
                      "text": text_of(item), "exit_code": item.exit_code})

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        if self.sockets >= MAX_SOCKETS:
            raise web.HTTPServiceUnavailable(
                text=json.dumps({"error": f"{MAX_SOCKETS} pages are open on this peer "
                                 "already: close one and reload"}),
                content_type="application/json")
        self.sockets += 1   # before the first await, so no two requests pass as one
        try:
            return await self._socket(request)
        finally:
            self.sockets -= 1

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        # No permessage-deflate: on loopback it saves nothing, and its zlib state, some
        # 300 KiB a socket, was what stayed in this process after the sockets closed.
        ws = web.WebSocketResponse(max_msg_size=MAX_WS_MESSAGE, heartbeat=30, compress=False)
        await ws.prepare(request)
        page = Page(ws.send_json)
        watched: WebSeat | None = None
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                try:
                    obj = json.loads(message.data)
                except ValueError:
                    await ws.send_json({"type": "refused", "error": "not JSON"})
                    continue
                if not isinstance(obj, dict):
                    continue
                seat = self.tables.get(str(obj.get("table")))
                if obj.get("type") == "watch" and seat is not None:
                    if watched is not None:
                        watched.unwatch(page)
                    watched = seat
                    seat.watch(page)
                elif obj.get("type") == "pick" and seat is not None:
                    problem = seat.pick(obj.get("choice"))
                    if problem:   # the page gives its person the choice back
                        await ws.send_json({"type": "refused", "error": problem,
                                            "table": seat.id, "asked": seat.asked})
                elif obj.get("type") == "draft" and seat is not None:
                    await ws.send_json({"type": "draft", "table": seat.id,
                                        "draft": seat.draft(obj.get("choice"))})
                else:
                    await ws.send_json({"type": "refused", "error": "unknown table or "
                                        "message"})
        finally:
            if watched is not None:
                watched.unwatch(page)
            page.close()
        return ws


def _download(data: bytes, name: str) -> web.Response:
    return web.Response(body=data, content_type="application/octet-stream",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})
