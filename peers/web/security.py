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
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Awaitable, Callable

from aiohttp import web

TOKEN_HEADER = "X-Dealerless-Token"
TOKEN_BYTES = 24
#: The largest request body accepted (an uploaded transcript or match file).
MAX_UPLOAD = 8 << 20
LOOPBACK_NAMES = ("127.0.0.1", "localhost")


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
        if path == "/ws":
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
        response = await handler(request)
        self.decorate(response)
        return response

    def decorate(self, response: web.StreamResponse) -> None:
        headers = response.headers
        headers["Content-Security-Policy"] = content_security_policy(self.port)
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Referrer-Policy"] = "no-referrer"
        headers["Cache-Control"] = "no-store"
        headers["X-Frame-Options"] = "DENY"


def _refusal(kind: type[web.HTTPException], reason: str) -> web.HTTPException:
    return kind(text=f'{{"error": "{reason}"}}', content_type="application/json")
