"""`dealerless relay`'s loop (spec/12-peers.md 12.5): serve a Relay until cancelled, and
log its counters when they change (12.5 "What the relay tells its operator")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

from peers.net.relay import Chaos, Limits, Relay


async def run_relay(host: str, port: int, limits: Limits | None = None,
                    chaos: Chaos | None = None, ready: asyncio.Event | None = None,
                    stats_every: float = 60.0, suites: frozenset[str] = frozenset()) -> None:
    """Serve until cancelled; free rooms as their time is up, and log the counters every
    `stats_every` seconds when they have changed (0: never). With `suites`, admit only
    rooms of those ciphersuites (12.5 `--suite`)."""
    relay = Relay(limits, chaos, suites)
    server, bound = await relay.serve(host, port)
    where = f"ws://{f'[{host}]' if ':' in host else host}:{bound}" if host else \
        f"every interface, IPv4 and IPv6: ws://HOST:{bound}"
    only = f"; admitting games of {' and '.join(sorted(suites))} only" if suites else ""
    print(f"relay listening on {where}/room/<rendezvous id>{only}", flush=True)
    if ready is not None:
        ready.set()
    last_line, last_stats = time.monotonic(), ""
    try:
        while True:
            await asyncio.sleep(1.0)
            if stats_every and time.monotonic() - last_line >= stats_every:
                stats = relay.stats()
                shown = json.dumps({k: v for k, v in stats.items() if k != "uptime_s"})
                if shown != last_stats:
                    relay.events.report(stats)
                    last_stats = shown
                last_line = time.monotonic()
    finally:
        relay.close()
        server.close()  # type: ignore[attr-defined]
        with contextlib.suppress(Exception):
            await server.wait_closed()  # type: ignore[attr-defined]
