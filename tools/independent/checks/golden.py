"""The golden transcripts, transcripts/index.json of dealerless/2's set and of each
ciphersuite's (spec/vectors/suites/<suite>/transcripts/): each file's verdict (11.1) and
the state hash (10.3) of every frame replayed. Unless `full`, a suite's set is replayed on
its tally.SUITE_SAMPLE games only (dealerless/2's always whole)."""

from __future__ import annotations

import json
from typing import Any

from independent.checks.tally import ALL_SETS, SUITE_SAMPLE, V2_SET, VectorSet
from independent.verify import verify

INDEX = V2_SET.path("transcripts") / "index.json"


def golden(full: bool = False) -> int:
    passed = failed = 0

    def check(label: str, ok: bool, why: str = "") -> None:
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'PASS' if ok else 'FAIL'} {label}" + ("" if ok else f": {why}"))

    for vs in ALL_SETS:
        index = json.loads(vs.path("transcripts/index.json").read_text())["transcripts"]
        if vs is not V2_SET and not full:
            check(f"{vs.prefix}transcripts: the sample {SUITE_SAMPLE} is golden",
                  set(SUITE_SAMPLE) <= set(index))
            index = {k: v for k, v in index.items() if k in SUITE_SAMPLE}
        for name, want in index.items():
            check_one(check, vs, name, want)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def check_one(check: Any, vs: VectorSet, name: str, want: dict[str, Any]) -> None:
    v = verify(vs.path("transcripts").joinpath(want["file"]).read_bytes())
    got = v.to_json()
    label = vs.prefix + name
    diffs: list[str] = []

    def cmp(what: str, g_: Any, w_: Any) -> None:
        if g_ != w_:
            diffs.append(f"{what}: got {g_!r}, want {w_!r}")

    cmp("exit", v.exit, want["exit"])
    if v.game is not None:   # [D11]: a set's games are played in its suite and version
        cmp("suite", (v.game.suite.name, v.game.suite.version),
            (vs.suite.name, vs.suite.version))
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
    check(f"{label}: verdict", not diffs, "; ".join(diffs))
    # Every frame that reached check 5 (accepted, or an authenticated violation) must
    # carry the hash of the replayed state, except one that fails check 5 itself.
    if name in ("valid", "mined-games-5"):
        for seq, carried, mine in v.hashes:
            check(f"{label}: frame {seq} state hash {mine.hex()[:16]}",
                  carried == mine, f"frame carries {carried.hex()}")
    else:
        bad = [seq for seq, carried, mine in v.hashes if carried != mine]
        expect_bad = [v.violation.frame] if (
            v.violation and v.violation.rule == "state/hash-mismatch") else []
        check(f"{label}: state hashes of {len(v.hashes)} frames", bad == expect_bad,
              f"mismatch at frames {bad}")
