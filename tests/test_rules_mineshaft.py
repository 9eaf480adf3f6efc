"""Mineshaft (spec/rules/mineshaft.md): encodings, shafts, veins, forced play, outcomes, perft."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.errors import EncodingError, LocalError
from protocol.rules import RULESETS, RuleViolation, make_rules
from protocol.rules.base import DealPlan
from protocol.rules.mexican_train_match import ClaimPoint
from protocol.rules.mineshaft import (
    DRAW,
    PASS,
    Draw,
    MineshaftRules,
    MineshaftState,
    Move,
    Pass,
    Play,
    apply,
    audit_claims,
    forbidden_tiles,
    legal_moves,
    match_standings,
    must_play_if_able,
    next_round,
    outcome,
    round_winners,
)
from protocol.rules.mineshaft_state import (
    HUB,
    Vein,
    arm_target,
    max_move_id,
    max_seats,
    move_from_id,
    move_id,
    move_text,
    parse_move,
    shaft_target,
)
from protocol.tiles import DOUBLE_NINE, DOUBLE_SIX, DOUBLE_TWELVE, Tile, TileSet, parse_tile

VECTORS = (Path(__file__).resolve().parent.parent / "spec" / "vectors" / "rules"
           / "mineshaft_perft.json")
Hands = tuple[frozenset[Tile], ...]
Pile = tuple[Tile, ...]
D6_4 = MineshaftRules(seats=4)


def tiles(text: str) -> frozenset[Tile]:
    return frozenset(parse_tile(t) for t in text.split())


def play(rules: MineshaftRules, state: MineshaftState, *texts: str) -> MineshaftState:
    """Apply moves for whoever is to move; apply needs no hands."""
    for text in texts:
        state = apply(state, state.turn, rules.parse_move(text))
    return state


def texts(rules: MineshaftRules, moves: Iterable[Move]) -> list[str]:
    return [rules.move_text(m) for m in moves]


#: Double-six, 4 seats, seat 0 first: the six shafts dug, ends S0..S5 = 0..5; seat 2 to move.
SIX_HUB = ("0-6>H", "1-6>H", "2-6>H", "3-6>H", "4-6>H", "5-6>H")


def six_shafts() -> MineshaftState:
    return play(D6_4, D6_4.initial_state(0), *SIX_HUB)


# -- encodings (section 4) -------------------------------------------------------------


@pytest.mark.parametrize("ts", [DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE], ids=lambda t: t.name)
def test_every_move_round_trips_through_id_and_text(ts: TileSet) -> None:
    top = max_move_id(ts)
    seen = set()
    for i in range(top + 1):
        move = move_from_id(ts, i)
        text = move_text(ts, move)
        assert parse_move(ts, text) == move and move_id(ts, move) == i
        seen.add(text)
    assert len(seen) == top + 1


def test_move_id_ranges() -> None:
    # 2 + (7 + 2 * (max + 1)) * tiles - 1
    assert [max_move_id(ts) for ts in (DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE)] == \
        [2 + 21 * 28 - 1, 2 + 27 * 55 - 1, 2 + 33 * 91 - 1]


SPEC_TABLE = {"pass": 0, "draw": 1, "0-0>H": 2, "0-0>S0": 3, "0-0>S5": 8, "0-0>V0a": 9,
              "0-0>V0b": 10, "0-0>V6b": 22, "0-1>H": 23, "3-5>S2": 2 + 21 * 20 + 3,
              "2-6>H": 2 + 21 * 17, "6-6>V6b": 589}


@pytest.mark.parametrize(("text", "expected"), sorted(SPEC_TABLE.items()))
def test_spec_table_of_move_ids(text: str, expected: int) -> None:
    assert move_id(DOUBLE_SIX, parse_move(DOUBLE_SIX, text)) == expected


@pytest.mark.parametrize("text", ["Pass", "DRAW", " pass", "draw\n", "5-3>H", "03-5>H",
                                  "3-5>h", "3-5", "3-5>", "3-5>S6", "3-5>S01", "3-5>V7a",
                                  "3-5>V3", "3-5>V3c", "3-5>V03a", "7-7>H", "3-5>HS0", ""])
def test_non_canonical_text_is_rejected(text: str) -> None:
    with pytest.raises(EncodingError) as e:
        parse_move(DOUBLE_SIX, text)
    assert e.value.code == "rules/move-text"


def test_larger_sets_name_their_own_tiles_and_veins() -> None:
    assert parse_move(DOUBLE_TWELVE, "11-12>V12b") == Play((11, 12), arm_target(12, 1))
    assert parse_move(DOUBLE_NINE, "9-9>V9a") == Play((9, 9), arm_target(9, 0))
    with pytest.raises(EncodingError):
        parse_move(DOUBLE_NINE, "3-5>V10a")
    with pytest.raises(RuleViolation) as e:
        move_id(DOUBLE_SIX, Play((3, 5), arm_target(9, 0)))
    assert e.value.code == "rules/no-such-target"


@pytest.mark.parametrize("value", [-1, 590, 1 << 70, True, False, 1.0, "1", None])
def test_bad_move_ids_are_rejected(value: object) -> None:
    with pytest.raises(EncodingError) as e:
        move_from_id(DOUBLE_SIX, value)  # type: ignore[arg-type]
    assert e.value.code == "rules/move-id"


def test_moves_validate_on_construction() -> None:
    for bad in [(5, 3), (-1, 2), (1,), (True, 2), "3-5"]:
        with pytest.raises(LocalError):
            Play(bad, HUB)  # type: ignore[arg-type]
    for target in [-1, 33, True, "H"]:
        with pytest.raises(LocalError):
            Play((3, 5), target)  # type: ignore[arg-type]
    assert Pass() == PASS and Draw() == DRAW


# -- parameters and deal (section 2) -----------------------------------------------------


def test_params_defaults_and_registry() -> None:
    rules = make_rules("mineshaft", {"seats": 3})
    assert isinstance(rules, MineshaftRules) and rules.name == "mineshaft"
    assert rules.params == {"set": "double-six", "seats": 3, "round": 6, "long": False,
                            "after": "", "first": -1}
    assert make_rules(rules.name, rules.params) == rules == MineshaftRules(seats=3)
    assert RULESETS["mineshaft"]({"seats": 2, "set": "double-twelve"}, None).params["round"] == 12
    long = make_rules("mineshaft", {"seats": 2, "round": 3, "long": True})
    assert long.params == {"set": "double-six", "seats": 2, "round": 3, "long": True,
                           "after": "", "first": -1}
    linked = make_rules("mineshaft", {"seats": 2, "round": 5, "long": True, "after": "0" * 64})
    assert linked.params["after"] == "0" * 64 and linked.next_rules().after == ""


def test_first_keeps_the_seating_of_a_long_game_and_nothing_else() -> None:
    """D19: a long game's later rounds name the first round's first player in `first`;
    the session's draw is then set aside. A short game always draws."""
    drawn = make_rules("mineshaft", {"seats": 3, "round": 6, "long": True})
    assert [drawn.first_player(d) for d in range(3)] == [0, 1, 2]
    fixed = make_rules("mineshaft", {"seats": 3, "round": 5, "long": True, "first": 2})
    assert [fixed.first_player(d) for d in range(3)] == [2, 2, 2]
    assert fixed.next_rules().first == 2
    for bad in ({"seats": 3, "first": 1}, {"seats": 3, "round": 5, "long": True, "first": 3},
                {"seats": 3, "round": 5, "long": True, "first": True}):
        with pytest.raises(EncodingError) as exc:
            make_rules("mineshaft", bad)
        assert exc.value.code == "rules/params"


@pytest.mark.parametrize("params", [
    {}, {"seats": 1}, {"seats": 5}, {"seats": 9, "set": "double-nine"},
    {"seats": 9, "set": "double-twelve"}, {"seats": 2, "set": "double-five"},
    {"seats": 2, "round": 5}, {"seats": 2, "round": 7, "long": True},
    {"seats": 2, "long": 1}, {"seats": True}, {"seats": 2.0}, {"seats": 2, "round": "6"},
    {"seats": 2, "extra": 0}, {"seats": 2, "set": 6}, {"seats": 2, "after": "x" * 64},
])
def test_bad_params_are_refused(params: dict[str, object]) -> None:
    with pytest.raises(EncodingError) as e:
        make_rules("mineshaft", params)
    assert e.value.code == "rules/params"


def test_seat_limits_keep_a_quarter_of_the_deck_in_the_pile() -> None:
    assert [max_seats(ts) for ts in (DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE)] == [4, 8, 8]
    for ts in (DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE):
        rules = MineshaftRules(seats=max_seats(ts), set=ts.name)
        deck = len(rules.deal.deck_tiles(ts))
        assert 4 * rules.deal.boneyard_size(ts) >= deck
    # One more seat on double-six would leave 2 tiles of 27 in the pile.
    assert 4 * (27 - 5 * 5) < 27


def test_deal_plan() -> None:
    rules = MineshaftRules(seats=3, set="double-nine", round=4, long=True)
    assert rules.deal == DealPlan(seats=3, hand_size=5, hidden=0, on_table=((4, 4),))
    assert (4, 4) not in rules.deal.deck_tiles(rules.tile_set)
    assert rules.deal.boneyard_size(rules.tile_set) == 54 - 15
    start = rules.initial_state(2)
    assert start.boneyard == 39 and start.hand_counts == (5, 5, 5) and start.hub == 4
    assert rules.played_tile(DRAW) is None and rules.played_tile(Play((4, 7), HUB)) == (4, 7)
    assert rules.draws(DRAW) and not rules.draws(PASS)


def test_long_variant_rounds_go_down_to_the_double_blank() -> None:
    assert [next_round(r) for r in (6, 1, 0)] == [5, 0, None]
    rounds, rules = [], MineshaftRules(seats=2, long=True)
    while rules is not None:
        rounds.append(rules.round)
        rules = rules.next_rules()
    assert rounds == [6, 5, 4, 3, 2, 1, 0]
    assert MineshaftRules(seats=2).next_rules() is None  # the short game is one round
    with pytest.raises(LocalError):
        next_round(-1)


def test_match_standings_share_ties() -> None:
    standings = match_standings([(0, 12, 7), (9, 0, 2)])
    assert standings.totals == (9, 12, 9) and standings.ranks == (1, 3, 1)
    assert standings.leaders == (0, 2)


# -- shafts and veins (section 5) ---------------------------------------------------------


def test_the_hub_takes_six_shafts_and_then_none() -> None:
    start = D6_4.initial_state(0)
    assert texts(D6_4, legal_moves(start, tiles("0-6 3-6 1-1 2-3"))) == \
        ["0-6>H", "3-6>H"]
    state = six_shafts()
    assert state.turn == 2 and state.hand_counts == (3, 3, 4, 4)
    assert [state.open_end(shaft_target(k)) for k in range(6)] == [0, 1, 2, 3, 4, 5]
    assert texts(D6_4, legal_moves(state, tiles("1-3 2-4 0-0 5-5"))) == [
        "0-0>S0", "1-3>S1", "1-3>S3", "2-4>S2", "2-4>S4", "5-5>S5"]


def test_a_double_strikes_a_vein_that_is_explored_with_three_tiles() -> None:
    state = play(D6_4, six_shafts(), "3-3>S3")
    assert state.veins == (Vein(3, ((), ())),) and state.exploring == state.veins[0]
    assert state.open_targets() == (arm_target(3, 0), arm_target(3, 1))
    assert texts(D6_4, legal_moves(state, tiles("2-3 0-1 1-2 0-2"))) == ["2-3>V3a", "2-3>V3b"]
    with pytest.raises(RuleViolation) as e:
        play(D6_4, state, "1-2>S1")
    assert e.value.code == "rules/vein-unexplored" and e.value.seat == 3
    with pytest.raises(RuleViolation) as e:
        play(D6_4, state, "1-3>S3")
    assert e.value.code == "rules/line-closed"
    state = play(D6_4, state, "2-3>V3a", "3-4>V3b")
    assert state.exploring is not None and state.veins[0].tiles == 2
    state = play(D6_4, state, "1-2>V3a")
    assert state.exploring is None and state.veins[0].arms == (((3, 2), (2, 1)), ((3, 4),))
    assert state.open_targets() == (1, 2, 3, 5, 6, arm_target(3, 0), arm_target(3, 1))
    assert play(D6_4, state, "0-1>S0").shafts[0] == ((6, 0), (0, 1))


def test_a_double_on_an_unexplored_vein_strikes_the_vein_to_explore_now() -> None:
    # D7: the newest vein is the one explored; exploring it explores the older one too.
    state = play(D6_4, six_shafts(), "3-3>S3", "2-3>V3a", "2-2>V3a")
    assert [v.double for v in state.veins] == [3, 2] and state.exploring == state.veins[1]
    with pytest.raises(RuleViolation) as e:
        play(D6_4, state, "3-4>V3b")
    assert e.value.code == "rules/vein-unexplored"
    state = play(D6_4, state, "0-2>V2a", "1-2>V2b", "0-1>V2a")
    assert state.exploring is None and state.veins[0].tiles == 2
    assert arm_target(3, 1) in state.open_targets() and arm_target(3, 0) not in \
        state.open_targets()


def test_a_tile_fitting_two_ends_is_one_move_per_end() -> None:
    state = play(D6_4, six_shafts(), "draw", "1-3>S3")  # S1 and S3 both show 1
    assert [state.open_end(shaft_target(k)) for k in range(6)] == [0, 1, 2, 1, 4, 5]
    assert texts(D6_4, legal_moves(state, tiles("1-4"))) == ["1-4>S1", "1-4>S3", "1-4>S4"]


# -- forced play and the turn (section 6) -------------------------------------------------


def test_forced_play_draw_then_play_or_pass() -> None:
    nothing = play(D6_4, six_shafts(), "3-3>S3")  # a vein of 3: only 3s may be played
    hand = tiles("0-0 1-1 0-1")
    assert texts(D6_4, legal_moves(nothing, hand | {(3, 4)})) == ["3-4>V3a", "3-4>V3b"]
    assert texts(D6_4, legal_moves(nothing, hand)) == ["draw"]
    drawn = play(D6_4, nothing, "draw")
    assert drawn.phase == "drawn" and drawn.turn == 3 and drawn.hand_counts[3] == 5
    assert drawn.boneyard == nothing.boneyard - 1
    # D10: after the draw, any play of the hand or else a pass (the old tiles were proven
    # unplayable by the draw's claim, so only the drawn tile can be played).
    assert texts(D6_4, legal_moves(drawn, hand | {(2, 3)})) == ["2-3>V3a", "2-3>V3b"]
    assert texts(D6_4, legal_moves(drawn, hand | {(4, 5)})) == ["pass"]
    passed = play(D6_4, drawn, "pass")
    assert (passed.turn, passed.phase, passed.passes) == (0, "play", 0)
    played = play(D6_4, drawn, "2-3>V3b")
    assert (played.hand_counts[3], played.turn, played.phase) == (4, 0, "play")


def test_with_the_pile_empty_every_seat_passing_blocks_the_round() -> None:
    rules = MineshaftRules(seats=2)
    state = rules.initial_state(0)
    state = play(rules, state, *["draw", "pass"] * 17)  # nobody holds a six: the pile empties
    assert state.boneyard == 0 and state.hand_counts == (14, 13) and state.turn == 1
    assert state.passes == 1  # the last pass came after the last draw, the pile empty
    assert texts(rules, legal_moves(state, tiles("0-0"))) == ["pass"]
    blocked = play(rules, state, "pass")
    assert blocked.finished == "blocked" and rules.to_move(blocked) is None
    assert legal_moves(blocked, tiles("0-0")) == ()
    reset = play(rules, state, "0-6>H")
    assert reset.passes == 0 and not reset.finished


def test_going_out_ends_the_round() -> None:
    rules = MineshaftRules(seats=2)
    state = play(rules, rules.initial_state(1), "0-6>H", "1-6>H", "2-6>H", "3-6>H",
                 "4-6>H", "5-6>H")
    assert state.hand_counts == (2, 2)
    state = play(rules, state, "0-1>S0", "1-2>S1", "draw", "pass", "1-4>S0")
    assert state.finished == "out" and state.hand_counts == (0, 2)
    with pytest.raises(RuleViolation) as e:
        play(rules, state, "pass")
    assert e.value.code == "rules/game-over"


@pytest.mark.parametrize(("prefix", "seat", "move", "code"), [
    (SIX_HUB, 2, "pass", "rules/must-draw"),
    ((), 1, "0-6>H", "rules/not-your-turn"),
    ((), 0, "6-6>H", "rules/tile-already-played"),
    (("0-6>H",), 1, "0-6>H", "rules/tile-already-played"),
    ((), 0, "0-1>H", "rules/tile-does-not-match"),
    ((), 0, "0-1>S0", "rules/hub-only"),
    (SIX_HUB, 2, "1-6>H", "rules/tile-already-played"),
    (SIX_HUB, 2, "0-1>H", "rules/hub-full"),
    (SIX_HUB, 2, "0-3>V3a", "rules/no-such-line"),
    (SIX_HUB, 2, "0-6>V6a", "rules/tile-already-played"),
    (SIX_HUB, 2, "3-4>V6a", "rules/no-such-line"),
    ((*SIX_HUB, "3-3>S3"), 3, "0-1>S0", "rules/vein-unexplored"),
    ((*SIX_HUB, "3-3>S3"), 3, "3-4>S3", "rules/line-closed"),
    ((*SIX_HUB, "3-3>S3"), 3, "0-2>V3a", "rules/tile-does-not-match"),
    ((*SIX_HUB, "draw"), 2, "draw", "rules/already-drew"),
    ((*SIX_HUB, "draw"), 2, "0-5>S3", "rules/tile-does-not-match"),
])
def test_each_violation_code(prefix: tuple[str, ...], seat: int, move: str, code: str) -> None:
    state = play(D6_4, D6_4.initial_state(0), *prefix)
    with pytest.raises(RuleViolation) as e:
        apply(state, seat, D6_4.parse_move(move))
    assert e.value.code == code and e.value.seat == seat


def test_finished_and_pile_codes() -> None:
    rules = MineshaftRules(seats=2)
    empty = play(rules, rules.initial_state(0), *["draw", "pass"] * 17)
    with pytest.raises(RuleViolation) as e:
        apply(empty, 1, DRAW)
    assert e.value.code == "rules/boneyard-empty" and e.value.seat == 1
    blocked = play(rules, empty, "pass")
    with pytest.raises(RuleViolation) as e:
        apply(blocked, 0, PASS)
    assert e.value.code == "rules/game-over"


def test_tiles_and_targets_outside_the_set_are_violations() -> None:
    with pytest.raises(RuleViolation) as e:
        apply(D6_4.initial_state(0), 0, Play((6, 7), HUB))
    assert e.value.code == "rules/not-in-set"
    with pytest.raises(RuleViolation) as e:
        apply(six_shafts(), 2, Play((3, 4), arm_target(7, 0)))
    assert e.value.code == "rules/no-such-target"


def test_local_misuse_is_a_local_error() -> None:
    start = D6_4.initial_state(0)
    for bad_hand in [[(0, 6)] * 2, tiles("6-6"), tiles("0-1 0-2 0-3 0-4 0-5 0-6"),
                     [(0, 7)]]:
        with pytest.raises(LocalError) as e:
            legal_moves(start, bad_hand)
        assert e.value.code == "rules/bad-hand"
    with pytest.raises(LocalError):
        D6_4.initial_state(4)
    with pytest.raises(LocalError) as e:
        outcome(start, [set()] * 4, set())
    assert e.value.code == "rules/not-over"
    with pytest.raises(LocalError):
        apply(start, 0, "pass")  # type: ignore[arg-type]
    with pytest.raises(LocalError):
        MineshaftRules(seats=5)


# -- "cannot play" claims (section 6.1) ----------------------------------------------------


def test_draws_and_passes_claim_no_play_and_the_forbidden_set_is_the_open_numbers() -> None:
    state = six_shafts()
    assert must_play_if_able(state, 2, DRAW) and must_play_if_able(state, 2, PASS)
    assert not must_play_if_able(state, 2, Play((0, 1), shaft_target(0)))
    # Ends 0..5: every tile with a number 0..5 that is not on the table.
    expected = {t for t in DOUBLE_SIX.tiles if t not in state.table() and min(t) <= 5}
    assert forbidden_tiles(D6_4, state) == expected
    vein = play(D6_4, state, "3-3>S3")
    assert forbidden_tiles(D6_4, vein) == {(0, 3), (1, 3), (2, 3), (3, 4), (3, 5)}
    assert forbidden_tiles(D6_4, play(D6_4, vein, "draw")) == forbidden_tiles(D6_4, vein)
    assert forbidden_tiles(D6_4, D6_4.initial_state(1)) == {(x, 6) for x in range(6)}


def test_the_audit_finds_a_false_claim() -> None:
    state = play(D6_4, six_shafts(), "3-3>S3")
    honest = ClaimPoint(state, 3, DRAW, tiles("0-0 1-1 1-2 0-1"))
    liar = ClaimPoint(state, 3, DRAW, tiles("0-0 1-1 1-2 3-4"))
    play_point = ClaimPoint(state, 3, D6_4.parse_move("3-4>V3a"), tiles("0-0 1-1 1-2 3-4"))
    assert audit_claims(D6_4, [honest, play_point]) is None
    found = audit_claims(D6_4, [honest, liar])
    assert found is not None and (found.index, found.seat, found.playable) == (1, 3, {(3, 4)})


# -- state (section 3) ----------------------------------------------------------------------


@pytest.mark.parametrize("change", [
    {"hand_counts": (5, 5, 5, 4)}, {"boneyard": 8}, {"passes": 1}, {"finished": "out"},
    {"turn": 4}, {"phase": "drawn"}, {"hub": 7}, {"shafts": (((6, 0),),)},
    {"shafts": (((5, 0),),), "hand_counts": (4, 5, 5, 5)},
    {"veins": (Vein(2, ((), ())),)}, {"hand_counts": (5, 5, 5)},
])
def test_impossible_states_cannot_be_built(change: dict[str, object]) -> None:
    start = D6_4.initial_state(0)
    with pytest.raises(LocalError) as e:
        replace(start, **change)  # type: ignore[arg-type]
    assert e.value.code == "rules/bad-state"


def test_impossible_layouts_cannot_be_built() -> None:
    state = play(D6_4, six_shafts(), "3-3>S3", "2-3>V3a", "2-2>V3a")
    fine = replace(state)
    assert fine == state
    bad = [
        # the older vein neither explored nor cut short by the newer double
        {"veins": (Vein(3, (((3, 2),), ((3, 4),))), Vein(2, ((), ()))),
         "shafts": (*state.shafts[:2], ((6, 2), (2, 2)), *state.shafts[3:])},
        # a double inside a line
        {"veins": (Vein(3, (((3, 2), (2, 2), (2, 0)), ())),)},
        # a shaft beyond the first tile before six are dug
        {"shafts": (((6, 0), (0, 1)),)},
    ]
    for change in bad:
        with pytest.raises(LocalError):
            replace(state, **change)  # type: ignore[arg-type]


def test_state_json_round_trips_and_is_strict() -> None:
    state = play(D6_4, six_shafts(), "3-3>S3", "2-3>V3a", "draw")
    obj = json.loads(json.dumps(D6_4.state_to_json(state)))
    assert D6_4.state_from_json(obj) == state and MineshaftState.from_json(obj) == state
    assert obj["veins"] == [{"double": 3, "a": [[3, 2]], "b": []}] and obj["phase"] == "drawn"
    with pytest.raises(EncodingError):
        D6_4.state_from_json([obj])
    with pytest.raises(EncodingError):
        MineshaftRules(seats=4, round=5, long=True).state_from_json(obj)
    for bad in [{**obj, "turn": True}, {**obj, "extra": 1}, {**obj, "phase": "draw"},
                {**obj, "set": "double-five"}, {**obj, "veins": [[3, [], []]]},
                {**obj, "veins": [{"double": 3, "a": [[3, 2]], "b": [], "c": []}]},
                {**obj, "boneyard": 7}, {**obj, "finished": "won"}]:
        with pytest.raises(EncodingError) as e:
            MineshaftState.from_json(bad)
        assert e.value.code == "rules/state-json"


# -- outcome (section 8) ---------------------------------------------------------------------


def blocked_two_seats() -> MineshaftState:
    rules = MineshaftRules(seats=2)
    return play(rules, rules.initial_state(0), *["draw", "pass"] * 17, "pass")


def test_blocked_lowest_pips_win_and_ties_share() -> None:
    state = blocked_two_seats()
    rest = sorted(set(DOUBLE_SIX.tiles) - state.table())
    assert len(rest) == 27 and state.hand_counts == (14, 13)
    others = [t for t in rest if 6 not in t]
    sixes = [t for t in rest if 6 in t]
    # Seat 0 holds every x-6 and the lowest tiles; seat 1 the rest.
    hand0 = set(sixes) | set(others[:8])
    hand1 = set(rest) - hand0
    result = outcome(state, [hand0, hand1], ())
    pips = (sum(a + b for a, b in hand0), sum(a + b for a, b in hand1))
    assert result.reason == "blocked" and result.hand_pips == pips
    assert result.winner == (0 if pips[0] < pips[1] else 1)
    assert result.margin_halves == 2 * abs(pips[0] - pips[1])
    assert round_winners(result) == (result.winner,)


def test_a_shared_win_has_no_single_winner() -> None:
    rules = MineshaftRules(seats=3)
    state = play(rules, rules.initial_state(0), *["draw", "pass"] * 12, "pass", "pass")
    assert state.finished == "blocked" and state.hand_counts == (9, 9, 9)
    # Seats 0 and 2 hold 41 pips each, in tiles paired by equal sums; seat 1 the other 74.
    hands = [tiles("0-2 0-3 0-4 0-5 0-6 1-6 2-6 0-0 2-4"),
             tiles("2-2 3-3 3-4 3-6 4-4 4-5 4-6 5-5 5-6"),
             tiles("1-1 1-2 1-3 1-4 1-5 2-5 3-5 0-1 2-3")]
    pips = [sum(a + b for a, b in h) for h in hands]
    result = outcome(state, hands, ())
    assert pips == [41, 74, 41]
    assert result.winner is None and result.margin_halves == 0
    assert round_winners(result) == (0, 2)


def test_going_out_wins_by_the_best_other_total() -> None:
    rules = MineshaftRules(seats=2)
    state = play(rules, rules.initial_state(1), "0-6>H", "1-6>H", "2-6>H", "3-6>H",
                 "4-6>H", "5-6>H", "0-1>S0", "1-2>S1", "draw", "pass", "1-4>S0")
    assert state.hand_counts == (0, 2)
    result = outcome(state, [set(), tiles("0-0 0-2")], ())
    assert (result.winner, result.reason, result.hand_pips, result.margin_halves) == \
        (0, "out", (0, 2), 4)
    assert round_winners(result) == (0,)
    assert outcome(state, [set(), tiles("4-4 5-5")], ()).margin_halves == 36


def test_reveals_must_match_the_public_state() -> None:
    state = blocked_two_seats()
    rest = sorted(set(DOUBLE_SIX.tiles) - state.table())
    good = [set(rest[:14]), set(rest[14:])]
    assert outcome(state, good, ()).hand_pips[0] >= 0
    for hands, hidden in [([set(rest[:13]), set(rest[13:])], ()),
                          ([set(rest[:14]), set(rest[13:26])], ()),
                          ([set(rest[:14]), set(rest[14:26]) | {(6, 6)}], ()),
                          ([[*rest[:13], rest[0]], set(rest[14:])], ()),
                          ([set(rest[:14]), set(rest[14:])], [(6, 6)]),
                          ([set(rest)], ())]:
        with pytest.raises(RuleViolation) as e:
            outcome(state, hands, hidden)
        assert e.value.code == "rules/reveal-mismatch"


# -- perft (section 11) ------------------------------------------------------------------------


def step(rules: MineshaftRules, state: MineshaftState, hands: Hands, pile: Pile,
         move: Move) -> tuple[MineshaftState, Hands, Pile]:
    """Apply `move` for the seat to move; a draw moves the top of the pile into its hand."""
    seat = state.turn
    after = apply(state, seat, move)
    mine = hands[seat]
    if isinstance(move, Draw):
        mine, pile = mine | {pile[0]}, pile[1:]
    elif isinstance(move, Play):
        mine = mine - {move.tile}
    return after, (*hands[:seat], mine, *hands[seat + 1:]), pile


def count_sequences(rules: MineshaftRules, state: MineshaftState, hands: Hands, pile: Pile,
                    depth: int) -> int:
    # The test's own walker: the generator's perft is not imported, so a bug
    # there cannot hide behind the same bug here.
    if depth == 0:
        return 1
    return sum(count_sequences(rules, *step(rules, state, hands, pile, m), depth - 1)
               for m in legal_moves(state, hands[state.turn]))


VECTOR_CASES = json.loads(VECTORS.read_text())["cases"]


def load_case(case: dict[str, object]) -> tuple[MineshaftRules, MineshaftState, Hands, Pile]:
    params = case["params"]
    assert isinstance(params, dict)
    rules = MineshaftRules.from_params(params)
    hand_lists, pile_list = case["hands"], case["pile"]
    assert isinstance(hand_lists, list) and isinstance(pile_list, list)
    hands = tuple(tiles(" ".join(h)) for h in hand_lists)
    pile = tuple(parse_tile(t) for t in pile_list)
    assert sorted([*pile, *(t for h in hands for t in h), rules.hub]) == \
        sorted(rules.tile_set.tiles)
    first = case["first_player"]
    assert isinstance(first, int)
    state = rules.initial_state(first)
    prefix = case["prefix"]
    assert isinstance(prefix, list)
    for text in prefix:
        state, hands, pile = step(rules, state, hands, pile, rules.parse_move(text))
    return rules, state, hands, pile


@pytest.mark.parametrize("case", VECTOR_CASES, ids=[c["name"] for c in VECTOR_CASES])
def test_perft_vectors(case: dict[str, object]) -> None:
    rules, state, hands, pile = load_case(case)
    assert rules.state_to_json(state) == case["state"]
    assert rules.state_from_json(case["state"]) == state
    assert [sorted(h) for h in hands] == [sorted(tiles(" ".join(h))) for h in case["hands_now"]]
    assert texts(rules, legal_moves(state, hands[state.turn])) == case["legal"]
    perft = case["perft"]
    assert isinstance(perft, list)
    assert [count_sequences(rules, state, hands, pile, d) for d in range(len(perft))] == perft


def test_vector_cases_cover_each_kind_of_position() -> None:
    kinds = set()
    for case in VECTOR_CASES:
        _, state, _, _ = load_case(case)
        kinds.add((state.tile_set.name, state.seats, len(state.shafts) == 6,
                   state.exploring is not None, state.phase))
    sets = {k[0] for k in kinds}
    assert sets == {"double-six", "double-nine", "double-twelve"}
    assert {(k[1]) for k in kinds if k[0] == "double-six"} >= {2, 4}
    assert any(not k[2] for k in kinds) and any(k[2] and not k[3] for k in kinds)
    assert any(k[3] for k in kinds) and any(k[4] == "drawn" for k in kinds)


def test_hand_verified_perft_depth_one() -> None:
    # After six shafts with no vein, depth 1 = one move per (tile of the mover, open end
    # showing one of its numbers); both numbers of a non-double count separately.
    for case in VECTOR_CASES:
        _, state, hands, _ = load_case(case)
        if len(state.shafts) < 6 or state.veins:
            continue
        ends = [ln[-1][1] for ln in state.shafts]
        hand = hands[state.turn]
        n = sum(e in t for t in hand for e in ends)
        assert case["perft"][1] == (n or 1)


def test_terminal_outcome_vectors() -> None:
    cases = [c for c in VECTOR_CASES if "terminals" in c]
    assert cases
    for case in cases:
        rules, state, hands, pile = load_case(case)
        assert walk_terminals(rules, state, hands, pile) == case["terminals"]


def walk_terminals(rules: MineshaftRules, s: MineshaftState, h: Hands,
                   p: Pile) -> dict[str, int]:
    if s.finished:
        r = outcome(s, h, ())
        return {f"{r.reason}/{'+'.join(map(str, round_winners(r)))}": 1}
    total: dict[str, int] = {}
    for m in legal_moves(s, h[s.turn]):
        for k, v in walk_terminals(rules, *step(rules, s, h, p, m)).items():
            total[k] = total.get(k, 0) + v
    return total


# -- properties over random deals ---------------------------------------------------------------


@st.composite
def deals(draw: st.DrawFn) -> tuple[MineshaftRules, Hands, Pile, int]:
    ts = draw(st.sampled_from([DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE]))
    seats = draw(st.integers(2, max_seats(ts)))
    long = draw(st.booleans())
    round_ = draw(st.integers(0, ts.max_pip)) if long else ts.max_pip
    rules = MineshaftRules(seats=seats, set=ts.name, round=round_, long=long)
    deck = draw(st.permutations(rules.deal.deck_tiles(ts)))
    hands = tuple(frozenset(deck[5 * s:5 * s + 5]) for s in range(seats))
    return rules, hands, tuple(deck[5 * seats:]), draw(st.integers(0, seats - 1))


def check_public_state(rules: MineshaftRules, state: MineshaftState, hands: Hands,
                       pile: Pile) -> None:
    """Independent invariants: every tile is somewhere once, and the JSON says it all."""
    obj = json.loads(json.dumps(rules.state_to_json(state)))
    assert rules.state_from_json(obj) == state
    lines = [*obj["shafts"], *(v[k] for v in obj["veins"] for k in "ab")]
    board = [tuple(sorted(p)) for ln in lines for p in ln] + [rules.hub]
    everything = board + [t for h in hands for t in h] + list(pile)
    assert sorted(everything) == sorted(rules.tile_set.tiles)
    assert [len(h) for h in hands] == obj["hand_counts"] and len(pile) == obj["boneyard"]


@settings(max_examples=120, deadline=None)
@given(deal=deals(), picks=st.lists(st.integers(0, 10**6), min_size=200, max_size=200))
def test_random_playouts_terminate_and_conserve_tiles(
        deal: tuple[MineshaftRules, Hands, Pile, int], picks: list[int]) -> None:
    rules, hands, pile, first = deal
    state = rules.initial_state(first)
    deck_size, pile_size = len(rules.deal.deck_tiles(rules.tile_set)), len(pile)
    # plays <= deck, draws <= pile; passes follow a draw or come < seats in a row.
    bound = deck_size + 2 * pile_size + (deck_size + 1) * rules.seats
    counts = {"play": 0, "draw": 0, "pass": 0}
    while not rules.is_over(state):
        moves = sum(counts.values())
        assert moves < bound
        seat, legal = state.turn, legal_moves(state, hands[state.turn])
        move = legal[picks[moves % len(picks)] % len(legal)]
        assert [rules.move_id(m) for m in legal] == sorted(rules.move_id(m) for m in legal)
        assert rules.move_from_id(rules.move_id(move)) == move
        assert rules.parse_move(rules.move_text(move)) == move
        # A claim of no play is legal exactly when the hand misses the forbidden set.
        no_play = not hands[seat] & forbidden_tiles(rules, state)
        assert no_play == (legal in ((DRAW,), (PASS,)))
        assert all(must_play_if_able(state, seat, m) != isinstance(m, Play) for m in legal)
        state, hands, pile = step(rules, state, hands, pile, move)
        counts["play" if isinstance(move, Play) else str(rules.move_text(move))] += 1
        check_public_state(rules, state, hands, pile)
    result = outcome(state, hands, ())
    pips = tuple(sum(a + b for a, b in h) for h in hands)
    assert result.hand_pips == pips
    if state.finished == "out":
        assert not hands[result.winner or 0] and result.winner is not None
    else:
        assert state.boneyard == 0 and all(
            not h & forbidden_tiles(rules, replace(state, finished=None, passes=0, turn=s))
            for s, h in enumerate(hands))
        assert set(round_winners(result)) == {s for s, p in enumerate(pips) if p == min(pips)}


@settings(max_examples=40, deadline=None)
@given(deal=deals(), picks=st.lists(st.integers(0, 10**6), min_size=40, max_size=40))
def test_apply_accepts_exactly_the_legal_plays_from_the_hand(
        deal: tuple[MineshaftRules, Hands, Pile, int], picks: list[int]) -> None:
    rules, hands, pile, first = deal
    state = rules.initial_state(first)
    for pick in picks:
        if rules.is_over(state):
            break
        seat, hand = state.turn, hands[state.turn]
        legal = set(legal_moves(state, hand))
        targets = range(7 + 2 * (rules.tile_set.max_pip + 1))
        for move in [Play(t, x) for t in sorted(hand) for x in targets]:
            try:
                apply(state, seat, move)
                accepted = True
            except RuleViolation:
                accepted = False
            assert accepted == (move in legal), rules.move_text(move)
        with pytest.raises(RuleViolation):
            apply(state, (seat + 1) % rules.seats, PASS)
        ordered = legal_moves(state, hand)
        state, hands, pile = step(rules, state, hands, pile, ordered[pick % len(ordered)])
