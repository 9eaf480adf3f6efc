"""Mined Games as pure rules (spec/rules/mined-games.md): the seed's worked examples as
vectors, the map generator, parameters, the state's JSON, and invariants of random play."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import VECTOR_SUITES, suite_id, vector_dir
from hypothesis import given, settings
from hypothesis import strategies as st

from peers.bots.mined import mined_orders
from protocol.errors import EncodingError
from protocol.rules import RuleViolation, make_rules
from protocol.rules.mined_games import MinedGamesRules
from protocol.rules.mined_map import generate_map, map_seed, parse_map
from protocol.rules.mined_round import Orders, parse_orders
from protocol.rules.mined_state import MinedState
from protocol.seat import SeatView
from protocol.suite import Suite

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads((ROOT / "spec" / "vectors" / "rules" / "mined_games.json").read_text())
CASES = {c["name"]: c for c in VECTORS["cases"]}
#: (suite, file) for every set: the stages' tie draws and the maps hash in the suite (3.5).
SETS = [(s, json.loads((vector_dir(s) / "rules" / "mined_games.json").read_text()))
        for s in VECTOR_SUITES]


def at_text(at: list[int] | None) -> str | None:
    return None if at is None else f"B{at[0] + 1} r{at[1]} c{at[2]}"


def expectations_hold(after: dict[str, Any], expect: dict[str, Any]) -> None:
    """The seed's expectations read straight off the state JSON (section 9), not through
    the engine's own types."""
    miners = after["miners"]
    width = len(after["map"].split("/")[0].split(",")[0])
    for seat, where in expect.get("at", {}).items():
        assert at_text(miners[int(seat)][0]) == where
    for key, index in (("money", 1), ("garnets", 2), ("status", 4)):
        for seat, value in expect.get(key, {}).items():
            assert miners[int(seat)][index] == value, (key, seat)
    for where, value in expect.get("dur", {}).items():
        b, r, c = where.split()
        assert after["dur"][int(b[1]) - 1][int(r[1:]) * width + int(c[1:])] == value, where
    if "pool" in expect:
        assert after["pool"] == expect["pool"]
    if "end" in expect:
        assert after["end"] == expect["end"]
    result = after["result"]
    for key, index in (("winner", 0), ("ec", 1), ("how", 2), ("choose_from", 3)):
        if key in expect:
            assert result is not None and result[index] == expect[key], key


@pytest.mark.parametrize(("suite", "vectors", "case"), [
    pytest.param(s, f, c, id=f"{suite_id(s)}: {c['name']}") for s, f in SETS
    for c in f["cases"]])
def test_every_seed_example_is_a_passing_vector(suite: Suite, vectors: dict[str, Any],
                                                case: dict[str, Any]) -> None:
    rules = MinedGamesRules.from_params({"seats": case["seats"], "map": case["map"]}, suite)
    state = rules.state_from_json(case["before"])
    orders = dict(enumerate(case["orders"]))
    game_id = bytes.fromhex(vectors["game_id"])
    if "error" in case:
        with pytest.raises(RuleViolation) as info:
            rules.play_stage(game_id, state, orders)
        assert (info.value.seat, info.value.code) == (case["error"]["seat"],
                                                     case["error"]["code"])
        return
    after, _ = rules.play_stage(game_id, state, orders)
    assert rules.state_to_json(after) == case["after"]
    expectations_hold(case["after"], case["expect"])


def test_the_vectors_cover_every_example_the_issue_lists() -> None:
    wanted = ["simultaneous-steps", "mining-after-moving", "split-gold", "self-mining-bonus",
              "fall-into-lava", "step-onto-lava", "attack-on-b3-before-moving", "garnet",
              "iron-majority-at-the-end", "no-resource-reachable", "all-dead",
              "mined-from-under-a-self-miner", "broken-before-you-mine-it"]
    assert set(wanted) <= set(CASES)
    assert CASES["split-gold"]["expect"]["money"] == {"0": 2500, "1": 2500}
    assert CASES["attack-on-b3-before-moving"]["expect"]["how"] == "chosen by the winner"


@pytest.mark.parametrize("suite", VECTOR_SUITES, ids=suite_id)
def test_the_vector_generator_check_passes(suite: Suite) -> None:
    suite_args = [] if suite.version == 2 else ["--suite", suite.name]
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_mined_vectors.py"),
                           "--check", *suite_args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_the_independent_implementation_written_from_the_spec_agrees_on_every_vector() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "independent_mined.py")],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert proc.stdout.rstrip().endswith(f"{len(CASES) + len(VECTORS['maps'])} passed, "
                                         "0 failed")


@pytest.mark.parametrize(("suite", "vector"), [
    pytest.param(s, v, id=f"{suite_id(s)}: {v['label']}") for s, f in SETS for v in f["maps"]])
def test_the_map_generator_vector(suite: Suite, vector: dict[str, Any]) -> None:
    seed = map_seed(suite, bytes.fromhex(vector["game_id"]),
                    [bytes.fromhex(n) for n in vector["nonces"]])
    assert seed.hex() == vector["seed"]
    generated = generate_map(suite, seed, vector["width"], vector["height"])
    assert generated.text() == vector["map"]
    assert parse_map(vector["map"]) == generated
    floors = vector["map"].split("/")
    assert all(set(f) <= set("DAL,SIEGR") for f in floors) and "L" not in floors[0]


@pytest.mark.parametrize(("params", "words"), [
    ({"map": "DDD,DDD,DDD/DDD,DDD,DDD/DDD,DDD,DDD"}, "3 floors"),
    ({"map": "DDD,DDD,DDD/DDD,DDD,DDD/DDD,DDX,DDD/LLL,LLL,LLL"}, "unknown tile kind 'X'"),
    ({"map": "DDD,DDD,DDD/DDD,DD,DDD/DDD,DDD,DDD/LLL,LLL,LLL"}, "B2 of the map"),
    ({"map": "AAA,LLL,AAA/DDD,DDD,DDD/DDD,DDD,DDD/LLL,LLL,LLL"}, "B1 needs a tile"),
    ({"map": "DDD,DDD,DDD/DDD,DDD,DDD/DDD,DDD,DDD/LLL,LLL,LLL", "width": 4}, "must match"),
    ({"rounds": 11}, "rounds is an integer 1..10"),
    ({"seats": 9}, "seats is an integer 2..8"),
    ({"width": 2}, "width is an integer 3..12"),
    ({"colour": "red"}, "unknown parameters"),
])
def test_bad_parameters_are_refused_with_the_reason(params: dict[str, Any],
                                                     words: str) -> None:
    with pytest.raises(EncodingError) as info:
        make_rules("mined-games", params)
    assert info.value.code == "rules/params" and words in info.value.detail


def test_a_given_map_sets_the_size_and_skips_the_seed_stage() -> None:
    text = "DGD,DDD,DDD/DDD,DDD,DDD/DDD,DDD,DDD/LLL,LLL,LLL"
    rules = make_rules("mined-games", {"map": text})
    assert rules.params == {"seats": 5, "width": 3, "height": 3, "map": text, "rounds": 10}
    assert rules.start_state().stage == 1 and rules.start_state().mine is not None
    assert make_rules("mined-games", {}).start_state().mine is None


def test_orders_text_round_trips() -> None:
    for text in ("stay", "UDLR", "mine above-L", "RR attack U", "LLLLLLL mine here"):
        assert parse_orders(text).text() == text
    assert parse_orders("UR mine D") == Orders("UR", 3)
    with pytest.raises(RuleViolation):
        parse_orders("UX mine D")


def test_state_json_refuses_what_the_engine_would_not_produce() -> None:
    case = CASES["split-gold"]
    rules = MinedGamesRules.from_params({"seats": 2, "map": case["map"]})
    good = case["before"]
    assert rules.state_to_json(rules.state_from_json(good)) == good
    for change in ({"stage": 99}, {"pool": -1}, {"opened": [["U", 99], None]},
                   {"commits": ["zz", None]}, {"map": "DDD,DDD,DDD/DDD,DDD,DDD/DDD,DDD,DDD/"
                                                      "LLL,LLL,LLL"},
                   {"miners": [[[0, 9, 0], 0, 0, 0, "alive", None]] * 2}):
        with pytest.raises(EncodingError):
            rules.state_from_json({**good, **change})


def random_game(seed: int, seats: int) -> list[MinedState]:
    """A game of random and greedy bots on the pure rules, every stage's state."""
    rng = random.Random(seed)
    rules = MinedGamesRules.from_params({"seats": seats, "width": 5, "height": 4})
    state = rules.start_state()
    game_id = rng.randbytes(32)
    states = [state]
    bots = [rng.random() < 0.5 for _ in range(seats)]
    while state.end is None:
        orders = {s: None if state.stage == 0 else
                  mined_orders(SeatView(s, state, (), ()), rng, bots[s])
                  for s in state.playing()}
        state, _ = rules.play_stage(game_id, state, orders, rng.randbytes(32))
        states.append(state)
    return states


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 1 << 30), st.integers(2, 6))
def test_random_games_keep_the_invariants(seed: int, seats: int) -> None:
    states = random_game(seed, seats)
    for before, after in itertools.pairwise(states):
        for m0, m1 in zip(before.miners, after.miners, strict=True):
            assert m1.money >= m0.money and m1.garnets >= 0
            assert m0.alive or m1 == m0               # the dead stay as they died
        if before.mine is not None:
            assert all(d1 <= d0 for f0, f1 in zip(before.dur, after.dur, strict=True)
                       for d0, d1 in zip(f0, f1, strict=True))
    last = states[-1]
    assert last.end is not None and last.result is not None
    assert last.round <= 10
    result = last.result
    living = [s for s, m in enumerate(last.miners) if m.alive]
    if living:
        assert result.winner in living
    dead = [s for s, m in enumerate(last.miners) if not m.alive]
    if len(dead) == 1:
        assert result.ec == dead[0]
    if len(dead) > 1 and living:
        assert result.ec is None and list(result.choose_from) == dead
    if not dead:
        assert last.miners[result.ec or 0].money == min(m.money for m in last.miners)
    json_state = MinedGamesRules.from_params({"seats": seats, "width": 5, "height": 4})
    assert json_state.state_from_json(json_state.state_to_json(last)) == last


def test_a_dead_miner_cannot_be_given_orders() -> None:
    case = CASES["fall-into-lava"]
    rules = MinedGamesRules.from_params({"seats": 3, "map": case["map"]})
    after = rules.state_from_json(case["after"])
    alive_again = replace(after, end=None, result=None)
    with pytest.raises(RuleViolation) as info:
        rules.check(alive_again, 0, ["", 0])
    assert info.value.code == "mined/not-playing"
