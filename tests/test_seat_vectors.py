"""The browser seat runs every vector of spec/vectors that applies to a seat, in
Chromium (issue 33; the modules are tests/js/vectors/*.js, the seat peers/web/seat/)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.seat_page import serving
from tests.webpage import CHROMIUM

MODULES = sorted(p.stem for p in (Path(__file__).parent / "js" / "vectors").glob("*.js"))


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    playwright = pytest.importorskip("playwright.sync_api")
    with serving() as origin, playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        tab = browser.new_page()
        tab.goto(origin + "/")
        tab.wait_for_function("window.ready === true")
        yield tab
        browser.close()


#: Modules whose whole run is long: by default they run `quick` (a module says what it
#: leaves to the whole run), and whole under -m slow.
LONG = {"disputes", "transcripts"}


def run(page: Any, name: str, quick: bool) -> None:
    result = page.evaluate("([name, quick]) => window.runVectors(name, { quick })",
                           [name, quick])
    assert result["failed"] == [], f"{name}: {result['failed'][:10]}"
    assert result["passed"] > 0, f"{name} checked nothing"


@pytest.mark.parametrize("name", MODULES)
def test_vectors_in_chromium(page: Any, name: str) -> None:
    run(page, name, quick=name in LONG)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LONG))
def test_every_vector_of_the_long_modules_in_chromium(page: Any, name: str) -> None:
    run(page, name, quick=False)
