"""`dealerless web`: the person's own peer, serving its table to a browser on loopback
(spec/12-peers.md 12.8). The page is a view; keys, proofs and games stay in here."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import webbrowser
from importlib import resources
from pathlib import Path

from aiohttp import web

from peers.web.api import Api
from peers.web.security import CODE_PATH, MAX_UPLOAD, Guard, new_token, server_logger
from peers.web.tables import Tables
from protocol.identity import Identity
from protocol.suite import DEFAULT

log = logging.getLogger("dealerless.web")
STATIC = Path(str(resources.files("peers.web") / "static"))


def make_app(home: Path, identity: Identity, token: str, port: int,
             suite: str = DEFAULT) -> web.Application:
    """The application for a server listening on 127.0.0.1:`port` (known before the
    routes run: a port of 0 is resolved by `serve` first); `suite` is the one its page
    offers first for a new table (spec/03-hashing.md 3.5)."""
    guard = Guard(token, port)
    app = web.Application(middlewares=[guard.middleware], client_max_size=MAX_UPLOAD)
    app.on_response_prepare.append(guard.decorate)
    tables = Tables(home, identity, suite)
    api = Api(tables)
    app["tables"] = tables
    app["guard"] = guard

    async def index(_request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    app.add_routes([web.get("/", index), web.post(CODE_PATH, guard.code_handler),
                    *api.routes()])
    app.router.add_static("/static/", STATIC, show_index=False, follow_symlinks=False)

    async def closing(app: web.Application) -> None:
        await tables.close()
    app.on_shutdown.append(closing)
    return app


async def serve(home: Path, identity: Identity, port: int, open_browser: bool,
                ready: asyncio.Future[str] | None = None, suite: str = DEFAULT) -> None:
    """Listen on 127.0.0.1:`port` (0: any free port), print the address with its token,
    and serve until cancelled."""
    token = new_token()
    # Bind first: the Host and Origin checks and the CSP need the real port.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # So that a server killed with connections open can be started again on its port at
    # once, not after TIME_WAIT (a minute). Not SO_REUSEPORT: two servers on one port
    # would share its requests.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError:
        sock.close()
        raise
    sock.listen(64)
    sock.setblocking(False)
    port = sock.getsockname()[1]
    app = make_app(home, identity, token, port, suite)
    runner = web.AppRunner(app, access_log=None, logger=server_logger())
    await runner.setup()
    site = web.SockSite(runner, sock)
    await site.start()
    url = f"http://127.0.0.1:{port}/#token={token}"
    print(f"dealerless web: your table is at {url}", flush=True)
    print("dealerless web: keep this window open while you play; Ctrl-C stops the server "
          "(networked games are saved and can be resumed)", flush=True)
    if ready is not None:
        ready.set_result(url)
    if open_browser:
        # The browser's arguments are readable by every local user: it gets a one-time
        # code for the token, never the token (12.8.1). And a browser command may run
        # until the browser quits (a $BROWSER one does): a daemon thread waits for it,
        # neither the event loop nor the exit.
        code = app["guard"].new_code()
        threading.Thread(target=webbrowser.open, daemon=True,
                         args=(f"http://127.0.0.1:{port}/#code={code}",)).start()
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
