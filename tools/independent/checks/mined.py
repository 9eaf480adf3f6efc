"""The Mined Games rule vectors, spec/rules/mined-games.md 10 (mined_games.json): every
case's stage resolved from its `before` state, and the map vectors (3). dealerless/2's
file (tools/independent_mined.py) and each suite's set's rules/mined_games.json
(tools/independent_check.py), whose tie draws and map seeds hash in the suite (3.5)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from independent.checks.tally import VECTORS, Tally, VectorSet
from independent.errors import RuleError
from independent.group.suites import V2, Suite
from independent.rules.mined_games import MinedGames
from independent.rules.mined_map import State, generate, map_text, parse_map

MINED = VECTORS / "rules" / "mined_games.json"


def check_mined(t: Tally, vs: VectorSet) -> None:
    """A vector set's rules/mined_games.json, counted as one file of the set."""
    t.file = vs.prefix + "rules/mined_games.json"
    ok, bad = self_check(vs.path("rules/mined_games.json"), vs.suite)
    counts = t.counts.setdefault(t.file, [0, 0])
    counts[0], counts[1] = counts[0] + ok, counts[1] + bad


def self_check(path: Path = MINED, suite: Suite = V2) -> tuple[int, int]:
    """Section 10's vectors through this implementation, in `suite` (dealerless/2's by
    default)."""
    data = json.loads(path.read_text())
    gid = bytes.fromhex(data["game_id"])
    nonce = bytes.fromhex(data["nonce"])
    ok = bad = 0
    for case in data["cases"]:
        rules = MinedGames({"seats": case["seats"], "map": case["map"]})
        rules.suite = suite
        st = from_json(rules, case["before"])
        try:
            for s in st.living():
                rules.check(st, s, rules.shape(st, case["orders"][s]))
            for s in st.living():
                st.commits[s] = b"\0" * 32
                st.opened[s], st.nonces[s] = case["orders"][s], nonce
            rules.resolve(gid, st)
            got: Any = st.to_json()
            want = case.get("after")
        except RuleError as e:
            got = e.code
            want = case.get("error", {}).get("code")
            if want == got and case["error"]["seat"] != s:
                got = f"{got} blamed on seat {s}"
        if got == want:
            ok += 1
        else:
            bad += 1
            print(f"FAIL mined vector {case['name']}: got {got}, want {want}")
    for m in data["maps"]:
        seed = suite.H("MINED_MAP_SEED", bytes.fromhex(m["game_id"]),
                       *[bytes.fromhex(n) for n in m["nonces"]])[:32]
        text = map_text(m["width"], generate(suite, seed, m["width"], m["height"]))
        if seed.hex() == m["seed"] and text == m["map"]:
            ok += 1
        else:
            bad += 1
            print(f"FAIL mined map {m['label']}")
    return ok, bad


def from_json(rules: MinedGames, obj: dict[str, Any]) -> State:
    """Section 9, for the vectors' `before` states (trusted input)."""
    st = rules.start()
    st.stage = obj["stage"]
    if obj["map"]:
        st.w, st.h, st.floors = parse_map(obj["map"])
    st.dur = copy.deepcopy(obj["dur"])
    for m, row in zip(st.miners, obj["miners"], strict=True):
        m.at, m.money, m.garnets, m.iron, m.status, m.died = copy.deepcopy(row)
    st.commits = [None if c is None else bytes.fromhex(c) for c in obj["commits"]]
    st.opened = copy.deepcopy(obj["opened"])
    st.nonces = [None if n is None else bytes.fromhex(n) for n in obj["nonces"]]
    st.absent, st.forfeits = copy.deepcopy(obj["absent"]), copy.deepcopy(obj["forfeits"])
    st.pool, st.end, st.result = obj["pool"], obj["end"], copy.deepcopy(obj["result"])
    st.keys = [None if y is None else bytes.fromhex(y) for y in obj["keys"]]
    st.withheld = copy.deepcopy(obj["withheld"])
    return st
