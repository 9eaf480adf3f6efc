"""The local web server's guard (spec/12-peers.md 12.8): a per-launch token, Host and
Origin checks, and the headers that keep the page to itself.

A local server is an attack surface: any web page the person visits can send requests
to 127.0.0.1, and a DNS-rebinding page can even read the answers. So every request that
reads or changes anything carries the launch token (a header for HTTP, a query field
for the websocket, whose browser API cannot set headers); every request must name this
server in its Host header (a rebound name does not); a websocket must come from this
server's own pages (Origin); and the Content-Security-Policy allows no inline script and
no other origin. The page's own files (HTML, script, style) hold no data and are served
with the Host check alone, since a browser loads them before the page can read the
token from its address (`#token=...`, which never leaves the browser).

The browser this server opens is given no token: a process's arguments are readable by
every local user (`/proc/PID/cmdline`). It is opened on `#code=...`, a one-time code
the page trades once, by POST, for the token (`CODE_PATH`).
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

TOKEN_HEADER = "X-Dealerless-Token"
TOKEN_BYTES = 24
#: The largest request body accepted (an uploaded transcript or match file).
MAX_UPLOAD = 8 << 20
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
#: Where the page trades the one-time code of the address it was opened on for the token.
CODE_PATH = "/api/code"
CODE_BYTES = 16
#: Seconds a one-time code lives: enough for a browser to start, and no more.
CODE_TTL = 120.0


def new_token() -> str:
    """A fresh launch token: 192 bits from the OS, as URL-safe hex."""
    return os.urandom(TOKEN_BYTES).hex()


def content_security_policy(port: int) -> str:
    sockets = " ".join(f"ws://{name}:{port}" for name in LOOPBACK_NAMES)
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src 'self' {sockets}; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Guard:
    """The checks every request passes, as aiohttp middleware."""

    def __init__(self, token: str, port: int) -> None:
        self.token = token
        self.port = port
        self.codes: dict[str, float] = {}   # each unused one-time code: when it expires
        self.spent: set[str] = set()

    def new_code(self) -> str:
        """A one-time code for the token: random, used once, for `CODE_TTL` seconds."""
        code = os.urandom(CODE_BYTES).hex()
        self.codes[code] = time.monotonic() + CODE_TTL
        return code

    def redeem(self, given: object) -> bool:
        """Whether `given` is a live code; it is spent whatever the answer."""
        now = time.monotonic()
        found = next((code for code in self.codes if isinstance(given, str)
                      and hmac.compare_digest(given.encode(), code.encode())), None)
        if found is None:
            # Used twice: someone else may have read it from the browser's arguments.
            if isinstance(given, str) and given in self.spent:
                print("dealerless web: the browser's one-time code was used a second time; "
                      "if that page was not yours, stop this server (Ctrl-C) and start it "
                      "again with --no-open", file=sys.stderr, flush=True)
            return False
        self.spent.add(found)
        return self.codes.pop(found) > now

    async def code_handler(self, request: web.Request) -> web.Response:
        """`POST CODE_PATH {"code"}`: the token, once per code (12.8.1)."""
        try:
            data = await request.json()
        except (ValueError, UnicodeDecodeError, RecursionError):
            data = None
        if not (isinstance(data, dict) and self.redeem(data.get("code"))):
            raise _refusal(web.HTTPForbidden, "this one-time code is used or expired: open "
                           "the address `dealerless web` printed")
        return web.json_response({"token": self.token})

    def host_ok(self, host: str | None) -> bool:
        return host in {f"{name}:{self.port}" for name in LOOPBACK_NAMES}

    def origin_ok(self, origin: str | None) -> bool:
        return origin in {f"http://{name}:{self.port}" for name in LOOPBACK_NAMES}

    def token_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.host_ok(request.headers.get("Host")):
            raise _refusal(web.HTTPMisdirectedRequest, "this server answers to "
                           f"127.0.0.1:{self.port} only (wrong Host header)")
        path = request.path
        if path == CODE_PATH:
            # No token yet (that is what it is for); only this server's own page may ask.
            if not self.origin_ok(request.headers.get("Origin")):
                raise _refusal(web.HTTPForbidden, "the one-time code is for this server's "
                               "own page (wrong Origin)")
        elif path == "/ws":
            if not self.origin_ok(request.headers.get("Origin")):
                raise _refusal(web.HTTPForbidden, "websockets are for this server's own "
                               "page (wrong Origin)")
            if not self.token_ok(request.query.get("token")):
                raise _refusal(web.HTTPUnauthorized, "missing or wrong token")
        elif path.startswith("/api/"):
            if not self.token_ok(request.headers.get(TOKEN_HEADER)):
                raise _refusal(web.HTTPUnauthorized, "missing or wrong token: open the "
                               "address `dealerless web` printed")
            origin = request.headers.get("Origin")
            if origin is not None and not self.origin_ok(origin):
                raise _refusal(web.HTTPForbidden, "cross-origin request refused")
        return await handler(request)

    async def decorate(self, _request: web.Request, response: web.StreamResponse) -> None:
        """The security headers, on every answer as it is sent (`on_response_prepare`):
        refusals, 404s and errors as well as what a handler returns."""
        headers = response.headers
        headers["Content-Security-Policy"] = content_security_policy(self.port)
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Referrer-Policy"] = "no-referrer"
        headers["Cache-Control"] = "no-store"
        headers["X-Frame-Options"] = "DENY"


def _refusal(kind: type[web.HTTPException], reason: str) -> web.HTTPException:
    return kind(text=json.dumps({"error": reason}), content_type="application/json")


class MalformedRequests(logging.Filter):
    """aiohttp answers a request it cannot parse (an HTTP/1.1 request with no Host, say)
    with a 400 and logs it with a traceback. It is no fault of this program: keep one
    line, below the level shown, so a local program cannot fill the terminal with them."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            record.msg, record.args = "malformed request refused: %s", (exc.message,)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


def server_logger() -> logging.Logger:
    """The logger for aiohttp's connection handler, with `MalformedRequests`."""
    logger = logging.getLogger("dealerless.web.http")
    if not any(isinstance(f, MalformedRequests) for f in logger.filters):
        logger.addFilter(MalformedRequests())
    return logger
