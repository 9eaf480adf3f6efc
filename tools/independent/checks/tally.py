"""Counting the checks of one vector file after another, and reading the files
(spec/vectors/README.md: a negative names a positive `case` and overrides its fields)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from independent.errors import SpecError

VECTORS = Path(__file__).resolve().parents[3] / "spec" / "vectors"


class Tally:
    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = {}
        self.file = ""

    def ok(self, what: str, cond: bool) -> None:
        self.counts.setdefault(self.file, [0, 0])[0 if cond else 1] += 1
        if not cond:
            print(f"FAIL {self.file}: {what}")

    def eq(self, what: str, got: Any, want: Any) -> None:
        self.ok(f"{what}: got {str(got)[:80]}, want {str(want)[:80]}", got == want)

    def code(self, what: str, fn: Callable[[], Any], expected: str) -> Any:
        try:
            out, got = fn(), "ok"
        except SpecError as err:
            out, got = None, err.code
        self.eq(f"{what} -> error code", got, expected)
        return out


def load(tally: Tally, name: str) -> dict[str, Any]:
    tally.file = name
    return json.loads((VECTORS / name).read_text())


def negatives(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """vectors/README: a negative names a positive `case` and overrides some of its fields."""
    base = {p["name"]: p for p in doc["positive"]}
    return [{**base[n["case"]], **n} for n in doc["negative"]]
