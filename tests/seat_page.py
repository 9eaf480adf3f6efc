"""Serving the browser seat's modules to Chromium for tests (issue 33).

A loopback HTTP server in a thread serves the seat, its vector modules and the vectors at
their paths in the repository (the modules import each other so), and a runner page
whose import map sends the seat's bare `libsodium-*` imports to the vendored files, as
the seat's own page does.
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aiohttp import web

ROOT = Path(__file__).resolve().parent.parent
SEAT = ROOT / "peers" / "web" / "seat"
VENDOR = "/peers/web/seat/vendor/node_modules"
IMPORT_MAP = {"imports": {
    "libsodium-wrappers-sumo":
        f"{VENDOR}/libsodium-wrappers-sumo/dist/modules-sumo-esm/libsodium-wrappers.mjs",
    "libsodium-sumo": f"{VENDOR}/libsodium-sumo/dist/modules-sumo-esm/libsodium-sumo.mjs",
}}
RUNNER = f"""<!doctype html><meta charset="utf-8"><title>seat vectors</title>
<script type="importmap">{json.dumps(IMPORT_MAP)}</script>
<script type="module">
const load = async (rel, kind) => {{
  const response = await fetch(`/spec/vectors/${{rel}}`);
  if (!response.ok) throw new Error(`${{rel}}: ${{response.status}}`);
  return kind === "bytes" ? new Uint8Array(await response.arrayBuffer()) : response.text();
}};
window.runVectors = async (name, options) => {{
  const started = performance.now();
  const {{ run }} = await import(`/tests/js/vectors/${{name}}.js`);
  const result = await run(load, options);
  return {{ passed: result.passed, failed: result.failed.map(String),
            ms: performance.now() - started }};
}};
window.ready = true;
</script>"""


def _app() -> web.Application:
    mimetypes.add_type("text/javascript", ".mjs")   # a module must come as JavaScript
    app = web.Application()

    async def runner(_request: web.Request) -> web.Response:
        return web.Response(text=RUNNER, content_type="text/html")

    app.router.add_get("/", runner)
    app.router.add_static("/peers/web/seat/", SEAT)
    app.router.add_static("/tests/js/", ROOT / "tests" / "js")
    app.router.add_static("/spec/vectors/", ROOT / "spec" / "vectors")
    return app


@contextmanager
def serving() -> Iterator[str]:
    """The runner's origin, e.g. http://127.0.0.1:PORT, for as long as the block runs."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    box: dict[str, Any] = {}

    async def start() -> None:
        runner = web.AppRunner(_app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        box["runner"] = runner
        box["port"] = runner.addresses[0][1]
        started.set()

    thread = threading.Thread(target=lambda: (loop.run_until_complete(start()),
                                              loop.run_forever()), daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield f"http://127.0.0.1:{box['port']}"
    finally:
        asyncio.run_coroutine_threadsafe(box["runner"].cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
