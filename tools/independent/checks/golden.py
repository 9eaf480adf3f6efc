"""The golden transcripts, spec/vectors/transcripts/index.json: each file's verdict (11.1)
and the state hash (10.3) of every frame replayed."""

from __future__ import annotations

import json
from typing import Any

from independent.checks.tally import VECTORS
from independent.verify import verify

INDEX = VECTORS / "transcripts" / "index.json"


def golden() -> int:
    index = json.loads(INDEX.read_text())["transcripts"]
    passed = failed = 0

    def check(label: str, ok: bool, why: str = "") -> None:
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'PASS' if ok else 'FAIL'} {label}" + ("" if ok else f": {why}"))

    for name, want in index.items():
        v = verify((INDEX.parent / want["file"]).read_bytes())
        got = v.to_json()
        diffs = []

        def cmp(what: str, g_: Any, w_: Any, diffs: list[str] = diffs) -> None:
            if g_ != w_:
                diffs.append(f"{what}: got {g_!r}, want {w_!r}")

        cmp("exit", v.exit, want["exit"])
        for key in ("valid", "complete", "frames", "first_player", "awaiting", "hidden_tile",
                    "decided"):
            cmp(key, got[key], want[key])
        wv, gv = want["violation"], got["violation"]
        if wv is None or gv is None:
            cmp("violation", gv, wv)
        else:
            for key in ("rule", "seat", "frame", "authenticated"):
                cmp(f"violation.{key}", gv[key], wv[key])
        wo, go = want["outcome"], got["outcome"]
        if wo is None or go is None:
            cmp("outcome", go, wo)
        else:
            for key in wo:
                cmp(f"outcome.{key}", go.get(key), wo[key])
        check(f"{name}: verdict", not diffs, "; ".join(diffs))
        # Every frame that reached check 5 (accepted, or an authenticated violation) must
        # carry the hash of the replayed state, except one that fails check 5 itself.
        if name in ("valid", "mined-games-5"):
            for seq, carried, mine in v.hashes:
                check(f"{name}: frame {seq} state hash {mine.hex()[:16]}",
                      carried == mine, f"frame carries {carried.hex()}")
        else:
            bad = [seq for seq, carried, mine in v.hashes if carried != mine]
            expect_bad = [v.violation.frame] if (
                v.violation and v.violation.rule == "state/hash-mismatch") else []
            check(f"{name}: state hashes of {len(v.hashes)} frames", bad == expect_bad,
                  f"mismatch at frames {bad}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
