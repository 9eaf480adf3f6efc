"""Benchmark of the browser seat in Chromium (issue 33); a benchmark, not a test.

Everything runs on this machine, on loopback: `dealerless relay` serving the seat at
/seat/, `dealerless host --bot random` (and `dealerless join --bot random` for seats past
the browser's), and Debian's Chromium through Playwright. Each figure is given as its
median, min and max over --runs runs (default 5):

- ready, first visit: from the start of navigation to the page's `dealerless-ready`
  performance mark (app/main.js: the lobby drawn, the key shown, the saved games listed),
  read from the page's own performance timeline. Each run is a fresh page in a fresh
  browser context, so a first visit: nothing cached, no key yet (the page makes one).
- ready, return visit: the same on a second page of that context (its key stored, the
  files revalidated: the relay serves them with Cache-Control: no-cache).
- set-up, Bram (2 seats: the browser seat 1 and a Python host) and Mexican Train (4 seats:
  the browser seat 1, a Python host and two Python joiners): from the click on Join (the
  join form's `submit` event) to the first moment the page's status line says the table
  awaits a move of any seat ("waiting for ... (move)"): the handshake through the relay,
  every seat's key share with its proof, first-player commitments, every shuffle with its
  proof and the deal's decryption shares all sent and verified by the browser seat, whose
  referee now owes the table a MOVE (or a cannot-play proof in its place). Both instants
  are taken inside the page (a MutationObserver on the table, performance.now()), so the
  harness's polling costs nothing. Split into `handshake` (click to the page naming the
  seat: the game agreed) and `deal` (that to the first move awaited), and `own`: the part
  of the set-up the status line spent waiting for the browser seat's own frames (its
  shuffle with its proof, its shares: computing, storing in IndexedDB, sending).
  Each run is a fresh table (relay, host, joiners) and a fresh browser context whose page
  is ready before the click, and the Python joiners are seated in the host's lobby first
  (the host says "2 of the 3 players have joined"): the browser seat joins last, so the
  figure holds no process start-up. The processes are stopped after every run.

    python tools/bench_seat.py [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.seat_table import Table  # noqa: E402
from tests.webpage import CHROMIUM, LAPTOP, start, wait_for  # noqa: E402

#: Seconds any one wait may take before the benchmark gives up.
LIMIT = 120

#: Notes, inside the page, the Join click and every change of the table's status line.
WATCH = """() => {
  const seen = globalThis.dealerlessBench = [];
  document.addEventListener("submit", () => seen.push([performance.now(), "submit", ""]),
                            true);
  let last = "";
  const note = () => {
    const status = document.getElementById("table-status").textContent.replace(/ · .*/, "");
    const title = document.getElementById("table-title").textContent;
    if (status + title !== last) {
      last = status + title;
      seen.push([performance.now(), status, title]);
    }
  };
  new MutationObserver(note).observe(document.getElementById("table"),
    { subtree: true, childList: true, characterData: true });
}"""


def ready_ms(page: Any) -> float:
    """The page's `dealerless-ready` mark, in ms since its navigation started."""
    deadline = time.monotonic() + LIMIT
    while True:
        mark = page.evaluate(
            "performance.getEntriesByName('dealerless-ready').map((e) => e.startTime)")
        if mark:
            return float(mark[0])
        if time.monotonic() > deadline:
            raise RuntimeError("the page never marked dealerless-ready")
        page.wait_for_timeout(5)


def page_ready(browser: Any, origin: str, runs: int) -> tuple[list[float], list[float]]:
    first: list[float] = []
    again: list[float] = []
    for _ in range(runs):
        context = browser.new_context(viewport=LAPTOP)
        try:
            for times in (first, again):
                page = context.new_page()
                page.goto(f"{origin}/seat/")
                times.append(ready_ms(page))
                page.close()
        finally:
            context.close()
    return first, again


def setup_once(browser: Any, tmp: Path, rules: str, seats: int) -> dict[str, float]:
    """One set-up of `rules` with `seats` seats: its figures in ms (module docstring)."""
    table = Table(tmp, rules, seats=seats, timeout=LIMIT)
    context = browser.new_context(viewport=LAPTOP)
    try:
        page = context.new_page()
        page.set_default_timeout(LIMIT * 1000)
        page.goto(table.link)
        ready_ms(page)
        if seats > 2:   # the Python joiners wait in the lobby: their start-up is not timed
            wait_for(rf"({seats - 2}) of the {seats - 1} players have joined", table.host_log,
                     LIMIT)
        page.evaluate(WATCH)
        page.click("#join-form button[type=submit]")
        page.wait_for_selector("#table-status:has-text('(move)')")
        if page.locator("#fatal:not([hidden]), #result .bad").count():
            raise RuntimeError(page.inner_text("body"))
        seen = page.evaluate("globalThis.dealerlessBench")
    finally:
        context.close()
        table.stop()
    click = seen[0][0]
    agreed = next(t for t, _, title in seen if "you are seat" in title)
    moved = next(t for t, status, _ in seen if status.endswith("(move)"))
    own = sum(b[0] - a[0] for a, b in itertools.pairwise(seen)
              if a[1].startswith("waiting for you (") and a[0] < moved)
    return {"total": moved - click, "handshake": agreed - click, "deal": moved - agreed,
            "own": own}


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "runs": len(values)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="dealerless-bench-seat-") as tmp, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            result["machine"] = {"chromium": browser.version, "cpus": os.cpu_count()}
            log = Path(tmp) / "relay.log"
            relay = start(["relay", "--listen", "127.0.0.1:0"], log)
            try:
                port = wait_for(r"relay listening on ws://127\.0\.0\.1:(\d+)", log)
                first, again = page_ready(browser, f"http://127.0.0.1:{port}", args.runs)
            finally:
                relay.terminate()
                relay.wait(10)
            result["ready_first_visit_ms"] = summary(first)
            result["ready_return_visit_ms"] = summary(again)
            for name, rules, seats in (("setup_bram_2_seats_ms", "bram", 2),
                                       ("setup_mexican_train_4_seats_ms", "mexican-train", 4)):
                runs = []
                for i in range(args.runs):
                    where = Path(tmp) / f"{rules}-{i}"
                    where.mkdir()
                    runs.append(setup_once(browser, where, rules, seats))
                result[name] = {part: summary([r[part] for r in runs]) for part in runs[0]}
        finally:
            browser.close()
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"browser seat, Chromium {result['machine']['chromium']}, "
          f"{result['machine']['cpus']} CPUs; ms over {args.runs} runs")
    print(f"{'':50} {'median':>8} {'min':>8} {'max':>8}")
    rows = [("page ready, first visit (new key)", result["ready_first_visit_ms"]),
            ("page ready, return visit", result["ready_return_visit_ms"])]
    for name, title in (("setup_bram_2_seats_ms", "Bram 2 seats"),
                        ("setup_mexican_train_4_seats_ms", "Mexican Train 4 seats")):
        parts = result[name]
        rows += [(f"set-up {title}: Join to first move", parts["total"]),
                 ("  of which handshake (to the game agreed)", parts["handshake"]),
                 ("  of which keys, shuffles, deal", parts["deal"]),
                 ("  of which the browser seat's own frames", parts["own"])]
    for label, s in rows:
        print(f"{label:50} {s['median']:8.0f} {s['min']:8.0f} {s['max']:8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
