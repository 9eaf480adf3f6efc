"""The relay serves the browser seat at `/seat/` (spec/12-peers.md 12.9).

A friend opens `http://RELAY/seat/#INVITATION` and plays with nothing installed. The
relay serves the seat's files as they are (peers/web/seat_files.py), each with a policy
that lets the page run only its own scripts (its one inline script, the import map, by
hash), reach only WebSockets, and be framed by nobody. Whoever serves these files could
serve others that leak the player's hand; the page shows its code hash so that the player
can compare it with the published one (12.9 "Whom a player trusts"). The files are
answered before the relay's admission, as `/stats` is: static, so not counted against a
network's connections.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from http import HTTPStatus

from websockets.datastructures import Headers
from websockets.http11 import Response

from peers.web.seat_files import TYPES, manifest, seat_files

SEAT_PREFIX = "/seat/"
#: The inline import map of index.html (the only inline script the policy allows).
IMPORT_MAP = re.compile(rb'<script type="importmap">(.*?)</script>', re.S)


@cache
def _served() -> tuple[dict[str, tuple[bytes, str]], str]:
    """Every file by its path under /seat/, with its tag (its SHA-256, quoted as an ETag
    is), and the policy every file is served with."""
    files = dict(seat_files())
    files["manifest.json"] = manifest(files)
    inline = IMPORT_MAP.search(files["index.html"])
    digest = base64.b64encode(hashlib.sha256(inline.group(1) if inline else b"").digest())
    policy = ("default-src 'none'; "
              f"script-src 'self' 'sha256-{digest.decode()}' 'wasm-unsafe-eval'; "
              "style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; "
              "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    return {name: (data, f'"{hashlib.sha256(data).hexdigest()}"')
            for name, data in files.items()}, policy


def seat_response(path: str, if_none_match: str | None = None) -> Response | None:
    """The answer to a GET of `path` if it is the seat's, else None (not the seat's). A
    file is tagged by its SHA-256, so a page that holds it is answered 304 (no-cache:
    always asked, never sent twice)."""
    if path == SEAT_PREFIX.rstrip("/"):
        return _answer(HTTPStatus.MOVED_PERMANENTLY, b"", {"Location": SEAT_PREFIX})
    if not path.startswith(SEAT_PREFIX):
        return None
    name = path[len(SEAT_PREFIX):].partition("?")[0] or "index.html"
    files, policy = _served()
    if name not in files:
        return _answer(HTTPStatus.NOT_FOUND, b"no such file of the seat\n",
                       {"Content-Type": "text/plain; charset=utf-8"})
    data, tag = files[name]
    headers = {"Content-Security-Policy": policy, "X-Content-Type-Options": "nosniff",
               "Referrer-Policy": "no-referrer", "Cross-Origin-Opener-Policy": "same-origin",
               "Cache-Control": "no-cache", "ETag": tag}
    if if_none_match == tag:
        return _answer(HTTPStatus.NOT_MODIFIED, b"", headers)
    return _answer(HTTPStatus.OK, data, {**headers, "Content-Type": TYPES[name[name.rfind("."):]]})


def _answer(status: HTTPStatus, body: bytes, headers: dict[str, str]) -> Response:
    return Response(status.value, status.phrase,
                    Headers({**headers, "Content-Length": str(len(body))}), body)
