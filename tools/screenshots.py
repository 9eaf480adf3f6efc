"""The README's pictures of the page (issue 28): the lobby, and a table of every rule set
against bots, mid-game and at the end, at a laptop's size (1280x800) and a phone's
(390x844). Each picture is checked to have nothing running off the side before it is
written; look at them before committing.

    python tools/screenshots.py [--out peers/web/screenshots]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from playwright.sync_api import sync_playwright
from webpage import CHROMIUM, LAPTOP, PHONE, Seat, WebPeer, play_together

TABLES = [("bram", 2), ("mexican-train", 4), ("mineshaft", 3), ("mined-games", 5)]
SIZES = {"laptop": LAPTOP, "phone": PHONE}
ASKED = "#send-orders, #hand-tiles .tile-button.legal, .moves .move"


def shoot(seat: Seat, out: Path, name: str, *parts: str) -> None:
    for size, viewport in SIZES.items():
        seat.page.set_viewport_size(viewport)
        seat.fits(*parts)
        seat.unscrolled(".miners")
        seat.page.screenshot(path=str(out / f"{name}-{size}.png"), full_page=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("peers/web/screenshots"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        peer = WebPeer(Path(tmp) / "home")
        try:
            lobby = Seat(browser, peer)
            shoot(lobby, args.out, "lobby", "#lobby")
            lobby.close()
            for rules, seats in TABLES:
                seat = Seat(browser, peer)
                seat.play_bots(rules, seats)
                for _ in range(4):   # a few moves in: a board with something on it
                    seat.page.wait_for_selector(ASKED, timeout=60_000)
                    seat.act()
                seat.page.wait_for_selector(ASKED, timeout=60_000)
                shoot(seat, args.out, f"{rules}-mid", "#board", "#hand", "#moves")
                play_together([seat], timeout=300)
                shoot(seat, args.out, f"{rules}-end", "#board", "#result")
                seat.close()
                print(f"{rules}: mid-game and end at {', '.join(SIZES)}", flush=True)
        finally:
            peer.stop()
            browser.close()


if __name__ == "__main__":
    main()
