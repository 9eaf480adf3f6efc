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


@pytest.mark.parametrize("name", MODULES)
def test_vectors_in_chromium(page: Any, name: str) -> None:
    result = page.evaluate("name => window.runVectors(name)", name)
    assert result["failed"] == [], f"{name}: {result['failed'][:10]}"
    assert result["passed"] > 0, f"{name} checked nothing"
