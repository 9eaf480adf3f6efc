"""Counting the checks of one vector file after another, and reading the files
(spec/vectors/README.md: a negative names a positive `case` and overrides its fields).

A vector set is a folder of files laid out alike (spec/vectors/README.md, `suites/<suite>/`):
the files directly in spec/vectors/ are dealerless/2's (edwards25519-sha512 under the
context "dealerless/2"), and each ciphersuite has its own set at dealerless/3 in
spec/vectors/suites/<suite>/ (spec/03-hashing.md 3.5)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from independent.errors import SpecError
from independent.group.suites import SUITES, V2, Suite, suite

VECTORS = Path(__file__).resolve().parents[3] / "spec" / "vectors"


@dataclass(frozen=True)
class VectorSet:
    """One folder of vectors, the suite its games are played in, and the prefix its file
    names are reported with ("" for dealerless/2's, "suites/<suite>/" for a suite's)."""

    suite: Suite
    folder: Path
    prefix: str

    def path(self, name: str) -> Path:
        return self.folder / name


V2_SET = VectorSet(V2, VECTORS, "")
#: The ciphersuites' sets at dealerless/3, in 3.5's order.
SUITE_SETS = [VectorSet(suite(name, 3), VECTORS / "suites" / name, f"suites/{name}/")
              for name in SUITES]
ALL_SETS = [V2_SET, *SUITE_SETS]
#: The golden transcripts of a suite's set that a run without `--full` replays (the
#: transcripts/ verdicts, and disputes/' golden frames): the three games whose dispute
#: packages are shipped (a whole Bram game, an illegal placement, an equivocation with its
#: evidence) and a Mined Games game (its seals in the suite). In the pure-Python groups a
#: suite's 34 games take minutes; `--full` takes them all.
SUITE_SAMPLE = ("valid", "illegal-placement", "equivocation", "mined-choice")


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


def load(tally: Tally, name: str, vs: VectorSet = V2_SET) -> dict[str, Any]:
    tally.file = vs.prefix + name
    return json.loads(vs.path(name).read_text())


def negatives(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """vectors/README: a negative names a positive `case` and overrides some of its fields."""
    base = {p["name"]: p for p in doc["positive"]}
    return [{**base[n["case"]], **n} for n in doc["negative"]]
