"""Benchmark of `dealerless web` in a real browser (issue 16); a benchmark, not a test.

Two figures, each a median:
- load: from the start of navigation to the lobby being usable (its rule sets listed,
  the page's own `dealerless-ready` mark), over --loads fresh pages;
- relay: in a Bram game between two pages of two `dealerless web` peers on loopback
  (one hosts, one joins), from a click on one page to that move appearing in the other
  page's log, over every move of the game.

    python tools/bench_web.py [--loads 9] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from playwright.sync_api import sync_playwright
from webpage import CHROMIUM, Seat, WebPeer


def page_loads(browser: object, peer: WebPeer, n: int) -> list[float]:
    times = []
    for _ in range(n):
        page = browser.new_page()  # type: ignore[attr-defined]
        page.goto(peer.url)
        page.wait_for_selector("#play-form select[name=rules] option", state="attached")
        ready = page.evaluate("performance.getEntriesByName('dealerless-ready')[0].startTime")
        times.append(ready / 1000)
        page.close()
    return times


def move_delays(browser: object, host: WebPeer, joiner: WebPeer) -> list[float]:
    a, b = Seat(browser, host), Seat(browser, joiner)
    b.join(a.host("bram", 2)[0])
    a.page.wait_for_selector("#sas", timeout=60_000)
    delays = []
    seats = {0: a, 1: b}
    while not (a.over() and b.over()):
        mover = next((s for s in seats.values() if not s.over() and (
            s.page.locator("#hand-tiles .tile-button.legal").count()
            or s.page.locator(".moves .move").count())), None)
        if mover is None:
            a.page.wait_for_timeout(20)
            continue
        other = b if mover is a else a
        seen = other.page.locator("#log li").count()
        start = time.perf_counter()
        mover.act()
        log = other.page.locator("#log li")   # the CSP forbids evaluating a predicate
        while log.count() <= seen:
            other.page.wait_for_timeout(2)
        delays.append(time.perf_counter() - start)
    return delays


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=9)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        host, joiner = WebPeer(Path(tmp) / "host"), WebPeer(Path(tmp) / "joiner")
        try:
            loads = page_loads(browser, host, args.loads)
            delays = move_delays(browser, host, joiner)
        finally:
            host.stop()
            joiner.stop()
            browser.close()
    result = {"page_load_ms": {"median": 1000 * statistics.median(loads), "n": len(loads)},
              "move_to_other_page_ms": {"median": 1000 * statistics.median(delays),
                                        "p90": 1000 * sorted(delays)[int(0.9 * len(delays))],
                                        "n": len(delays)}}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"page load to usable: median {result['page_load_ms']['median']:.0f} ms "
              f"over {len(loads)} loads")
        m = result["move_to_other_page_ms"]
        print(f"a click on one page to the move on the other: median {m['median']:.0f} ms, "
              f"90th percentile {m['p90']:.0f} ms, over {m['n']} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
