"""Shared test helpers: vector loading and small fixtures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from protocol.context import Context
from protocol.suite import Suite, v2_suite

VECTORS = Path(__file__).resolve().parent.parent / "spec" / "vectors"


def load_vectors(name: str) -> dict[str, Any]:
    return json.loads((VECTORS / f"{name}.json").read_text())


def ctx_from(obj: dict[str, Any], suite: Suite | None = None) -> Context:
    return Context(suite or v2_suite(), bytes.fromhex(obj["game_id"]), obj["step"],
                   obj["seat"])


def with_case(negative: dict[str, Any], positives: list[dict[str, Any]]) -> dict[str, Any]:
    """A negative vector is its positive case with the fields it names replaced."""
    base = next(p for p in positives if p["name"] == negative["case"])
    return {**base, **negative}
