"""Shared test helpers: vector loading and small fixtures."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from protocol.context import Context
from protocol.errors import DealerlessError
from protocol.suite import SUITE_NAMES, Suite, suite, v2_suite
from protocol.version import PROTOCOL

VECTORS = Path(__file__).resolve().parent.parent / "spec" / "vectors"

#: Every set of proof vectors: dealerless/2's (edwards25519-sha512) in spec/vectors/,
#: and each suite's dealerless/3 set in spec/vectors/suites/<suite>/.
VECTOR_SUITES = [v2_suite(), *(suite(name, PROTOCOL) for name in SUITE_NAMES)]


def suite_id(s: Suite) -> str:
    return f"{s.name}@{s.version}"


def vector_dir(s: Suite | None = None) -> Path:
    return VECTORS if s is None or s.version == 2 else VECTORS / "suites" / s.name


def load_vectors(name: str, s: Suite | None = None) -> dict[str, Any]:
    """A vector file of spec/vectors, or of the suite's set when `s` is dealerless/3."""
    return json.loads((vector_dir(s) / f"{name}.json").read_text())


def ctx_from(obj: dict[str, Any], suite: Suite | None = None) -> Context:
    return Context(suite or v2_suite(), bytes.fromhex(obj["game_id"]), obj["step"],
                   obj["seat"])


def outcome(check: Callable[[], object]) -> str:
    """Run a check: "ok" if it passes, else the code of the error it raised."""
    try:
        check()
    except DealerlessError as exc:
        return exc.code
    return "ok"


def with_case(negative: dict[str, Any], positives: list[dict[str, Any]]) -> dict[str, Any]:
    """A negative vector is its positive case with the fields it names replaced."""
    base = next(p for p in positives if p["name"] == negative["case"])
    return {**base, **negative}


def vector_params(vs: dict[str, Any]) -> list[Any]:
    """pytest params of each positive vector and each negative one completed from its
    case, named by them."""
    return [pytest.param(v, id=v["name"]) for v in vs["positive"]] + [
        pytest.param(with_case(v, vs["positive"]), id=f"{v['case']}: {v['name']}")
        for v in vs["negative"]]


def skip_without_chain() -> None:
    """Skip the calling test module unless every tool of the [chain] extra is installed."""
    from peers.chain import INSTALL, missing_tools

    missing = missing_tools()
    if missing:
        pytest.skip(f"needs the [chain] extra ({', '.join(missing)} missing): {INSTALL}",
                    allow_module_level=True)
