"""Mexican Train rules (spec/rules/mexican-train.md): encodings, every rule and violation,
outcomes, forced-play claims, standings, perft vectors and random rounds."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.errors import EncodingError, LocalError
from protocol.rules import RULESETS, MexicanTrainRules, RuleViolation, make_rules
from protocol.rules.base import DealPlan
from protocol.rules.mexican_train import MATCH_ROUNDS, legal_moves, must_play_if_able, outcome
from protocol.rules.mexican_train_match import (
    ClaimPoint,
    audit_claims,
    forbidden_tiles,
    match_standings,
)
from protocol.rules.mexican_train_state import (
    DRAW,
    MAX_MOVE_ID,
    MEXICAN,
    NOT_HOLDING,
    PASS,
    TILE_SET,
    Draw,
    MexicanState,
    Move,
    Play,
    move_from_id,
    move_id,
    move_text,
    parse_move,
)
from protocol.rules.mexican_train_turns import apply, open_trains
from protocol.tiles import Tile, parse_tile, tile

VECTORS = (Path(__file__).resolve().parent.parent / "spec" / "vectors" / "rules"
           / "mexican_train_perft.json")
ALL = frozenset(TILE_SET.tiles)
Hands = tuple[frozenset[Tile], ...]
Position = tuple[MexicanState, Hands, tuple[Tile, ...]]


def tiles(text: str) -> frozenset[Tile]:
    return frozenset(parse_tile(t) for t in text.split())


def run(text: str) -> tuple[tuple[int, int], ...]:
    """A train as written, each tile inner-outer: "12-5 5-3"."""
    return tuple((int(a), int(b)) for a, b in (p.split("-") for p in text.split()))


def position(seats: int = 2, trains: tuple[str, ...] | None = None, mexican: str | None = None,
             counts: tuple[int, ...] | None = None, **fields: object) -> MexicanState:
    """A play-phase state with engine 12-12 out and every first turn done, unless changed."""
    placed = tuple(run(t) for t in (trains or ("",) * seats))
    mex = None if mexican is None else run(mexican)
    counts = counts or (15 if seats <= 4 else 12 if seats <= 6 else 10,) * seats
    table = 1 + sum(map(len, placed)) + len(mex or ())
    base: dict[str, object] = dict(
        engine=12, trains=placed, mexican=mex, markers=(False,) * seats, pending=None,
        hand_counts=counts, boneyard=91 - table - sum(counts), turn=0, first_player=0,
        phase="play", drawn=False, owes=True, first_done=(True,) * seats, stalled=0,
        finished=None)
    return MexicanState(**{**base, **fields})  # type: ignore[arg-type]


def moves(state: MexicanState, *texts: str) -> MexicanState:
    """Apply moves for whoever is to move; apply needs no hands."""
    for text in texts:
        state = apply(state, state.turn, parse_move(text))
    return state


def texts(ms: Iterable[Move]) -> list[str]:
    return [move_text(m) for m in ms]


# -- encodings (section 4) ------------------------------------------------------------------


def test_every_move_round_trips_through_id_and_text() -> None:
    seen = set()
    for i in range(MAX_MOVE_ID + 1):
        move = move_from_id(i)
        assert parse_move(move_text(move)) == move and move_id(move) == i
        seen.add(move_text(move))
    assert len(seen) == 822 == MAX_MOVE_ID + 1


SPEC_TABLE = {"pass": 0, "draw": 1, "not-holding": 2, "0-0>0": 3, "0-0>7": 10, "0-0>M": 11,
              "0-1>0": 12, "5-12>3": 3 + 9 * 62 + 3, "12-12>0": 813, "12-12>M": 821}


@pytest.mark.parametrize(("text", "expected"), sorted(SPEC_TABLE.items()))
def test_spec_table_of_move_ids(text: str, expected: int) -> None:
    assert move_id(parse_move(text)) == expected


@pytest.mark.parametrize("text", ["Pass", "DRAW", " draw", "not_holding", "12-5>0", "05-6>1",
                                  "5-6>8", "5-6>m", "5-6", "5-6>", "13-13>0", "5-6>-1", ""])
def test_non_canonical_text_is_rejected(text: str) -> None:
    with pytest.raises(EncodingError) as e:
        parse_move(text)
    assert e.value.code == "rules/move-text"


@pytest.mark.parametrize("value", [-1, 822, True, 1.0, "3", None])
def test_bad_move_ids_are_rejected(value: object) -> None:
    with pytest.raises(EncodingError) as e:
        move_from_id(value)  # type: ignore[arg-type]
    assert e.value.code == "rules/move-id"


def test_moves_validate_on_construction() -> None:
    for bad_tile, train in [((5, 3), 0), ((1, 2), 9), ((1, 2), -1), ((1, 2), True)]:
        with pytest.raises(LocalError):
            Play(bad_tile, train)  # type: ignore[arg-type]
    with pytest.raises(RuleViolation) as e:
        move_id(Play((0, 13), 0))
    assert e.value.code == "rules/not-in-set"


# -- parameters, deal, registry (section 2) ---------------------------------------------------


def test_params_and_registry() -> None:
    rules = make_rules("mexican-train", {"seats": 4})
    assert rules == MexicanTrainRules(4) and RULESETS["mexican-train"]({"seats": 4}, None) == rules
    assert rules.params == {"seats": 4, "round": 12, "mexican_train": False, "after": ""}
    assert make_rules(rules.name, rules.params) == rules
    full = MexicanTrainRules.from_params({"seats": 8, "round": 0, "mexican_train": True})
    assert full.params == {"seats": 8, "round": 0, "mexican_train": True, "after": ""}
    linked = make_rules("mexican-train", {"seats": 2, "round": 11, "after": "ab" * 32})
    assert linked.params["after"] == "ab" * 32
    for params in [{}, {"seats": 1}, {"seats": 9}, {"seats": True}, {"seats": 2, "round": 13},
                   {"seats": 2, "round": -1}, {"seats": 2, "mexican_train": 1},
                   {"seats": 2, "komi_halves": 0}, {"seats": "2"},
                   {"seats": 2, "after": "AB" * 32}, {"seats": 2, "after": "ab"},
                   {"seats": 2, "after": 1}]:
        with pytest.raises(EncodingError) as e:
            make_rules("mexican-train", params)
        assert e.value.code == "rules/params"
    with pytest.raises(LocalError) as le:
        MexicanTrainRules(seats=3, round=12, mexican_train=1)  # type: ignore[arg-type]
    assert le.value.code == "rules/params"
    assert make_rules("bram", {}).name == "bram"


@pytest.mark.parametrize(("seats", "size"), [(2, 15), (3, 15), (4, 15), (5, 12), (6, 12),
                                             (7, 10), (8, 10)])
def test_deal_plan(seats: int, size: int) -> None:
    rules = MexicanTrainRules(seats)
    assert rules.deal == DealPlan(seats=seats, hand_size=size, hidden=0, on_table=())
    assert rules.deal.boneyard_size(TILE_SET) == 91 - seats * size
    assert rules.initial_state(0).boneyard == 91 - seats * size
    assert list(MATCH_ROUNDS) == [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]


# -- the engine search (section 5.1) -----------------------------------------------------------


def test_declaration_lap_then_draws_until_someone_opens() -> None:
    rules = MexicanTrainRules(3, round=7)
    state = rules.initial_state(1)
    assert texts(legal_moves(state, tiles("7-7 1-2"))) == ["7-7>1"]
    assert texts(legal_moves(state, tiles("6-7 1-2"))) == ["not-holding"]
    state = moves(state, "not-holding", "not-holding")
    assert (state.phase, state.turn) == ("declare", 0)
    state = moves(state, "not-holding")
    assert (state.phase, state.turn, state.drawn) == ("search", 1, False)
    assert legal_moves(state, tiles("7-7")) == (DRAW,)  # no play before the draw
    state = moves(state, "draw")
    assert state.hand_counts == (15, 16, 15) and state.boneyard == 45 and state.drawn
    assert legal_moves(state, tiles("1-1")) == (NOT_HOLDING,)
    state = moves(state, "not-holding", "draw")
    assert (state.turn, state.hand_counts) == (2, (15, 16, 16))
    state = moves(state, "7-7>2")
    assert (state.phase, state.turn, state.owes, state.drawn) == ("play", 2, True, False)
    assert state.hand_counts == (15, 16, 15) and state.table() == {(7, 7)}
    assert rules.to_move(state) == 2


def test_the_holder_opens_at_once() -> None:
    state = moves(MexicanTrainRules(2).initial_state(0), "12-12>0")
    assert state.phase == "play" and state.turn == 0 and state.hand_counts == (14, 15)
    assert open_trains(state, 0) == (0,)


@pytest.mark.parametrize(("prefix", "move", "code"), [
    ([], "draw", "rules/draw-not-allowed"),
    ([], "pass", "rules/pass-not-allowed"),
    ([], "12-12>1", "rules/engine-first"),
    ([], "11-12>0", "rules/engine-first"),
    ([], "12-12>M", "rules/no-mexican-train"),
    ([], "12-12>2", "rules/no-such-train"),
    (["not-holding", "not-holding"], "not-holding", "rules/must-draw"),
    (["not-holding", "not-holding"], "12-12>0", "rules/must-draw"),
    (["not-holding", "not-holding"], "pass", "rules/pass-not-allowed"),
    (["not-holding", "not-holding", "draw"], "draw", "rules/already-drew"),
    (["12-12>0"], "not-holding", "rules/not-holding-now"),
    (["12-12>0"], "12-12>0", "rules/tile-already-played"),
])
def test_search_violations(prefix: list[str], move: str, code: str) -> None:
    state = moves(MexicanTrainRules(2).initial_state(0), *prefix)
    with pytest.raises(RuleViolation) as e:
        apply(state, state.turn, parse_move(move))
    assert e.value.code == code and e.value.seat == state.turn


def test_search_draw_needs_a_tile() -> None:
    state = MexicanState(
        engine=12, trains=((), ()), mexican=None, markers=(False, False), pending=None,
        hand_counts=(45, 46), boneyard=0, turn=0, first_player=0, phase="search",
        drawn=False, owes=True, first_done=(False, False), stalled=0, finished=None)
    with pytest.raises(RuleViolation) as e:
        apply(state, 0, DRAW)
    assert e.value.code == "rules/boneyard-empty"
    assert legal_moves(state, tiles("1-1")) == ()


# -- first turns (section 5.2) ------------------------------------------------------------------


def first_turn() -> MexicanState:
    """Seat 0 opened 12-12; both seats are still to take their first turn; Mexican train on."""
    return position(trains=("", ""), mexican="", counts=(14, 15),
                    first_done=(False, False))


def test_a_first_turn_runs_on_ones_own_train_until_it_cannot() -> None:
    state = first_turn()
    assert open_trains(state, 0) == (0,)
    hand = tiles("5-12 3-5 3-9 1-1")
    assert texts(legal_moves(state, hand)) == ["5-12>0"]
    state = moves(state, "5-12>0")
    assert (state.turn, state.owes) == (0, False)
    state = moves(state, "3-5>0", "3-9>0")
    assert state.trains[0] == run("12-5 5-3 3-9") and state.turn == 0
    assert legal_moves(state, tiles("1-1")) == (PASS,)  # nothing more: a pass, not a draw
    with pytest.raises(RuleViolation) as e:
        apply(state, 0, DRAW)
    assert e.value.code == "rules/draw-not-allowed"
    state = moves(state, "pass")
    assert state.turn == 1 and state.first_done == (True, False) and state.markers == (False,) * 2
    # Seat 1 may not join the Mexican train or seat 0's train in its first turn.
    for move, code in [("3-12>M", "rules/train-closed"), ("9-10>0", "rules/train-closed"),
                       ("9-10>1", "rules/tile-does-not-match")]:
        with pytest.raises(RuleViolation) as v:
            apply(state, 1, parse_move(move))
        assert v.value.code == code


def test_a_first_turn_that_cannot_start_draws_then_marks() -> None:
    state = first_turn()
    assert legal_moves(state, tiles("1-2")) == (DRAW,)
    with pytest.raises(RuleViolation) as e:
        apply(state, 0, PASS)
    assert e.value.code == "rules/must-draw"
    state = moves(state, "draw")
    assert legal_moves(state, tiles("1-2 4-12")) == (Play((4, 12), 0),)
    after_play = moves(state, "4-12>0")  # a draw ends the run: one tile, then the turn passes
    assert after_play.turn == 1 and after_play.first_done[0]
    marked = moves(state, "pass")
    assert marked.markers == (True, False) and marked.turn == 1 and marked.first_done[0]


# -- later turns, doubles, markers (sections 5.3, 5.4) ----------------------------------------


def test_one_tile_a_turn_and_the_open_trains() -> None:
    state = position(seats=3, trains=("12-5", "12-3", "12-7"), mexican="12-1",
                     markers=(False, True, False))
    assert open_trains(state, 0) == (0, 1, MEXICAN)
    hand = tiles("3-4 1-5 7-8")
    assert texts(legal_moves(state, hand)) == ["1-5>0", "1-5>M", "3-4>1"]  # id order
    with pytest.raises(RuleViolation) as e:
        apply(state, 0, parse_move("7-8>2"))
    assert e.value.code == "rules/train-closed"
    after = moves(state, "3-4>1")
    # Playing on a marked train takes the marker off (the seed: "removing the marker").
    assert after.markers == (False, False, False) and after.turn == 1
    assert after.trains[1] == run("12-3 3-4")


def test_a_double_must_be_followed_and_satisfied_on_itself() -> None:
    state = position(trains=("12-5", "12-3"))
    state = moves(state, "5-5>0")
    assert (state.turn, state.pending, state.owes) == (0, 0, True)
    assert texts(legal_moves(state, tiles("3-4 5-6"))) == ["5-6>0"]
    with pytest.raises(RuleViolation) as e:
        apply(state, 0, parse_move("3-4>1"))
    assert e.value.code == "rules/double-pending"
    done = moves(state, "5-6>0")
    assert (done.turn, done.pending) == (1, None)


def test_an_unsatisfied_double_passes_to_the_next_seats() -> None:
    state = moves(position(seats=3, trains=("12-5", "12-3", "12-2")), "5-5>0")
    assert legal_moves(state, tiles("1-1")) == (DRAW,)
    state = moves(state, "draw", "pass")
    assert state.markers == (True, False, False) and state.pending == 0 and state.turn == 1
    # Seat 1 must satisfy it, on seat 0's train, before anything else.
    assert open_trains(state, 1) == (0,)
    assert texts(legal_moves(state, tiles("3-4 2-5"))) == ["2-5>0"]
    state = moves(state, "draw", "pass")
    assert state.markers == (True, True, False) and state.pending == 0
    state = moves(state, "4-5>0")
    assert state.pending is None and state.turn == 0 and state.markers == (False, True, False)


def test_a_satisfied_pending_double_ends_the_turn_even_after_a_draw() -> None:
    state = moves(position(trains=("12-5", "12-3")), "5-5>0", "draw", "5-9>0")
    assert state.turn == 1 and state.pending is None


@pytest.mark.parametrize(("move", "code"), [
    ("0-13", "rules/not-in-set"),
    ("3-4>5", "rules/no-such-train"),
    ("3-4>M", "rules/no-mexican-train"),
    ("5-12>1", "rules/tile-already-played"),
    ("12-12>0", "rules/tile-already-played"),
    ("3-4>0", "rules/tile-does-not-match"),
    ("3-4>1", "rules/train-closed"),
    ("not-holding", "rules/not-holding-now"),
])
def test_play_violations(move: str, code: str) -> None:
    state = position(trains=("12-5", "12-3"))
    m = Play((0, 13), 0) if move == "0-13" else parse_move(move)
    with pytest.raises(RuleViolation) as e:
        apply(state, 0, m)
    assert e.value.code == code and e.value.seat == 0


def test_turn_draw_and_pass_violations() -> None:
    state = position(trains=("12-5", "12-3"))
    for seat, move, code in [(1, PASS, "rules/not-your-turn"), (0, PASS, "rules/must-draw")]:
        with pytest.raises(RuleViolation) as e:
            apply(state, seat, move)
        assert (e.value.code, e.value.seat) == (code, seat)
    with pytest.raises(RuleViolation) as e:
        apply(moves(state, "draw"), 0, DRAW)
    assert e.value.code == "rules/already-drew"
    dry = position(trains=("12-5", "12-3"), counts=(44, 44))
    assert dry.boneyard == 0 and legal_moves(dry, tiles("1-1")) == (PASS,)
    with pytest.raises(RuleViolation) as e:
        apply(dry, 0, DRAW)
    assert e.value.code == "rules/boneyard-empty"
    with pytest.raises(LocalError):
        apply(state, 0, "pass")  # type: ignore[arg-type]


# -- end of the round and outcome (sections 7, 8) -------------------------------------------------


def test_nobody_can_play_ends_the_round_after_a_full_lap_of_stalls() -> None:
    state = position(seats=3, trains=("12-5", "12-3", "12-2"), counts=(30, 29, 28))
    assert state.boneyard == 0
    state = moves(state, "pass")  # puts seat 0's marker down: a change, not a stall
    assert (state.stalled, state.markers) == (0, (True, False, False))
    state = moves(state, "pass", "pass")
    assert state.stalled == 0 and all(state.markers)
    state = moves(state, "pass", "pass")
    assert state.stalled == 2 and state.finished is None
    state = moves(state, "pass")
    assert state.finished == "blocked" and MexicanTrainRules(3).to_move(state) is None
    with pytest.raises(RuleViolation) as e:
        apply(state, state.turn, PASS)
    assert e.value.code == "rules/game-over"


def test_a_play_resets_the_stall_count() -> None:
    state = position(seats=2, trains=("12-5", "12-3"), counts=(44, 44),
                     markers=(True, True), stalled=1, turn=1)
    assert moves(state, "3-4>1").stalled == 0


def pips(hand: Iterable[Tile]) -> int:
    return sum(a + b for a, b in hand)


def test_going_out_wins_and_the_margin_is_the_runner_up_penalty() -> None:
    state = position(seats=3, trains=("12-5", "12-3", ""), counts=(1, 22, 22))
    state = moves(state, "5-6>0")
    assert state.finished == "out" and state.turn == 0
    pool = sorted(ALL - state.table() - {(5, 6)})
    hands = [frozenset[Tile](), frozenset(pool[:22]), frozenset(pool[-22:])]
    result = MexicanTrainRules(3).outcome(state, hands, ())
    assert (result.winner, result.reason) == (0, "out")
    assert result.hand_pips == (0, pips(hands[1]), pips(hands[2]))
    assert result.margin_halves == 2 * pips(hands[1]) and pips(hands[1]) < pips(hands[2])
    assert result.pips_halves == tuple(2 * p for p in result.hand_pips) and result.hidden == ()


def blocked_pair() -> MexicanState:
    """Two seats, 44 tiles each, nothing left to draw, both stalled: 88 tiles in hands."""
    return position(trains=("12-5", "12-3"), counts=(44, 44), markers=(True, True),
                    stalled=2, finished="blocked")


def equal_split(pool: list[Tile]) -> tuple[frozenset[Tile], frozenset[Tile]]:
    """Two halves of `pool` with equal pips (one swap fixes an alternating deal)."""
    a, b = pool[0::2], pool[1::2]
    gap = pips(b) - pips(a)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            if 2 * (pips([y]) - pips([x])) == gap:
                a[i], b[j] = y, x
                assert pips(a) == pips(b)
                return frozenset(a), frozenset(b)
    raise AssertionError("no single swap balances the halves")


def test_blocked_lowest_penalty_wins_and_a_shared_lowest_is_no_winner() -> None:
    state = blocked_pair()
    assert state.boneyard == 0
    pool = sorted(ALL - state.table(), key=lambda t: (t[0] + t[1], t))
    low, high = frozenset(pool[:44]), frozenset(pool[44:])
    result = outcome(state, [high, low], ())
    assert (result.winner, result.reason) == (1, "blocked")
    assert result.margin_halves == 2 * (pips(high) - pips(low))
    a, b = equal_split(sorted(ALL - state.table()))
    tie = outcome(state, [a, b], ())
    assert (tie.winner, tie.margin_halves, tie.hand_pips) == (None, 0, (518, 518))
    for hands, hidden in [([a, a], ()), ([a], ()), ([a, b], [(0, 0)]),
                          ([a - {min(a)} | {(12, 12)}, b], ()), ([a | b, frozenset()], ())]:
        with pytest.raises(RuleViolation) as e:
            outcome(state, hands, hidden)
        assert e.value.code == "rules/reveal-mismatch"
    with pytest.raises(LocalError) as le:
        outcome(position(), [frozenset(), frozenset()], ())
    assert le.value.code == "rules/not-over"


# -- state JSON and impossible states (section 3) ---------------------------------------------


def test_state_json_round_trips_and_is_strict() -> None:
    rules = MexicanTrainRules(3, mexican_train=True)
    state = position(seats=3, trains=("12-5 5-5", "12-3", ""), mexican="12-1", pending=0,
                     markers=(False, True, False), turn=1)
    obj = json.loads(json.dumps(rules.state_to_json(state)))
    assert rules.state_from_json(obj) == state == MexicanState.from_json(obj)
    assert obj["trains"][0] == [[12, 5], [5, 5]] and obj["pending"] == 0
    for bad in [{**obj, "turn": True}, {**obj, "extra": 1}, {**obj, "drawn": 0},
                {**obj, "phase": "opening"}, {**obj, "finished": "won"},
                {**obj, "trains": [[[12, 5]], [[12, 3]], []]}, {**obj, "markers": [1, 0, 0]},
                {**obj, "mexican": [[12, "1"]]}]:
        with pytest.raises(EncodingError) as e:
            MexicanState.from_json(bad)
        assert e.value.code == "rules/state-json"
    for other in [MexicanTrainRules(3), MexicanTrainRules(4, mexican_train=True),
                  MexicanTrainRules(3, round=11, mexican_train=True)]:
        with pytest.raises(EncodingError):
            other.state_from_json(obj)
    with pytest.raises(EncodingError):
        rules.state_from_json([obj])


@pytest.mark.parametrize("change", [
    {"trains": (run("12-5 4-4"), ())},          # neighbours must match
    {"trains": (run("5-12"), ())},              # a train starts at the engine
    {"trains": (run("12-5"), run("12-5"))},     # a tile is placed once
    {"trains": (run("12-12"), ())},             # the engine is in no train
    {"hand_counts": (15, 14)},                  # tiles are conserved
    {"pending": 0},                             # the pending train ends in a double
    {"pending": MEXICAN},                       # there is no Mexican train
    {"stalled": 1},                             # stalls need an empty boneyard
    {"finished": "out"},                        # nobody is out
    {"turn": 2},
    {"owes": False},                            # only a first turn's run owes nothing
    {"phase": "declare"},                       # before the engine, nothing on the table
    {"markers": (True,)},
    {"engine": 13},
])
def test_impossible_states_cannot_be_built(change: dict[str, object]) -> None:
    base = position(trains=("12-5", ""))
    fields = {f: getattr(base, f) for f in MexicanState.__dataclass_fields__}
    with pytest.raises(LocalError) as e:
        MexicanState(**{**fields, **change})  # type: ignore[arg-type]
    assert e.value.code == "rules/bad-state"


# -- forced play: claims, the forbidden set and the audit (section 6.1) ----------------------


def test_which_moves_claim_no_legal_play() -> None:
    rules = MexicanTrainRules(2)
    start = rules.initial_state(0)
    assert rules.must_play_if_able(start, 0, NOT_HOLDING)
    assert not rules.must_play_if_able(start, 0, Play((12, 12), 0))
    search = moves(start, "not-holding", "not-holding")
    assert not must_play_if_able(search, 0, DRAW)  # no play is legal before that draw
    assert must_play_if_able(moves(search, "draw"), 0, NOT_HOLDING)
    play = position(trains=("12-5", "12-3"))
    assert must_play_if_able(play, 0, DRAW) and must_play_if_able(play, 0, PASS)
    assert rules.draws(DRAW) and not rules.draws(PASS) and not rules.draws(NOT_HOLDING)
    assert rules.played_tile(Play((5, 12), 0)) == (5, 12) and rules.played_tile(DRAW) is None


def test_forbidden_sets() -> None:
    rules = MexicanTrainRules(2, mexican_train=True)
    start = rules.initial_state(0)
    assert forbidden_tiles(rules, start) == {(12, 12)}
    search = moves(start, "not-holding", "not-holding")
    assert forbidden_tiles(rules, search) == frozenset()
    # Seat 0's own train ends in 5, seat 1's (marked) in 3, the Mexican train in 1.
    play = position(trains=("12-5", "12-3"), mexican="12-1", markers=(False, True))
    expected = {t for t in ALL - play.table() if {1, 3, 5} & set(t)}
    assert forbidden_tiles(rules, play) == expected
    pending = moves(position(trains=("12-5", "12-3"), mexican="12-1"), "5-5>0")
    assert forbidden_tiles(rules, pending) == {t for t in ALL - pending.table() if 5 in t}
    first = position(trains=("12-5", ""), counts=(14, 15), first_done=(True, False), turn=1)
    assert forbidden_tiles(rules, first) == {t for t in ALL - first.table() if 12 in t}
    done = moves(position(trains=("12-5", "12-3"), counts=(1, 44)), "5-6>0")
    assert forbidden_tiles(rules, done) == frozenset()


def test_the_audit_finds_the_first_false_claim() -> None:
    rules = MexicanTrainRules(2)
    start = rules.initial_state(0)
    honest = [ClaimPoint(start, 0, NOT_HOLDING, tiles("1-1")),
              ClaimPoint(moves(start, "not-holding"), 1, Play((12, 12), 1), tiles("12-12"))]
    assert audit_claims(rules, honest) is None
    lie = moves(start, "not-holding", "not-holding")
    points = [ClaimPoint(start, 0, NOT_HOLDING, tiles("1-1")),
              ClaimPoint(moves(start, "not-holding"), 1, NOT_HOLDING, tiles("12-12 1-2")),
              ClaimPoint(lie, 0, DRAW, tiles("1-1"))]
    found = audit_claims(rules, points)
    assert found is not None and (found.index, found.seat, found.playable) == (1, 1, {(12, 12)})
    with pytest.raises(LocalError):
        audit_claims(rules, [ClaimPoint(start, 1, NOT_HOLDING, tiles("1-1"))])
    with pytest.raises(LocalError):
        audit_claims(rules, [ClaimPoint(start, 0, NOT_HOLDING, frozenset(sorted(ALL)[:16]))])


def test_match_standings_sum_penalties_and_share_ranks() -> None:
    table = match_standings([[0, 12, 30], [7, 0, 5], [10, 5, 0]])
    assert table.totals == (17, 17, 35) and table.ranks == (1, 1, 3) and table.leaders == (0, 1)
    assert match_standings([[3, 0]]).ranks == (2, 1)
    for bad in [[], [[1]], [[1, 2], [3]], [[1, -1]], [[1, True]]]:
        with pytest.raises(LocalError):
            match_standings(bad)  # type: ignore[arg-type]


# -- perft vectors (section 10) ---------------------------------------------------------------


def walk_step(pos: Position, move: Move) -> Position:
    """The test's own walker: the generator's code is not imported."""
    state, hands, boneyard = pos
    seat = state.turn
    mine = set(hands[seat])
    if isinstance(move, Play):
        mine.remove(move.tile)
    if isinstance(move, Draw):
        mine.add(boneyard[0])
        boneyard = boneyard[1:]
    new_hands = tuple(frozenset(mine) if s == seat else h for s, h in enumerate(hands))
    return apply(state, seat, move), new_hands, boneyard


def count_sequences(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    state, hands, _ = pos
    if state.finished:
        return 0
    return sum(count_sequences(walk_step(pos, m), depth - 1)
               for m in legal_moves(state, hands[state.turn]))


VECTOR_CASES = json.loads(VECTORS.read_text())["cases"]


@pytest.mark.parametrize("case", VECTOR_CASES, ids=[c["name"] for c in VECTOR_CASES])
def test_perft_vectors(case: dict[str, object]) -> None:
    params = case["params"]
    assert isinstance(params, dict)
    rules = MexicanTrainRules.from_params(params)
    hands = tuple(tiles(" ".join(h)) for h in case["hands"])  # type: ignore[attr-defined]
    boneyard = tuple(parse_tile(t) for t in case["boneyard"])  # type: ignore[attr-defined]
    assert frozenset().union(*hands, boneyard) == ALL and sum(map(len, hands)) + len(
        boneyard) == 91
    assert all(len(h) == rules.deal.hand_size for h in hands)
    pos: Position = (rules.initial_state(case["first_player"]), hands, boneyard)  # type: ignore[arg-type]
    for text in case["prefix"]:  # type: ignore[attr-defined]
        pos = walk_step(pos, parse_move(text))
    state = pos[0]
    assert rules.state_to_json(state) == case["state"]
    assert rules.state_from_json(case["state"]) == state
    assert [sorted(h) for h in pos[1]] == [sorted(tiles(" ".join(h)))
                                           for h in case["hands_now"]]  # type: ignore[attr-defined]
    assert len(pos[2]) == case["boneyard_now"] == state.boneyard
    assert texts(legal_moves(state, pos[1][state.turn])) == case["legal"]
    perft = case["perft"]
    assert isinstance(perft, list)
    assert [count_sequences(pos, d) for d in range(len(perft))] == perft


def test_the_vectors_cover_what_they_claim() -> None:
    by_name = {c["name"]: c["state"] for c in VECTOR_CASES}
    assert {len(s["trains"]) for s in by_name.values()} == {2, 4, 8}
    assert by_name["search-2"]["phase"] == "search"
    assert by_name["pending-4"]["pending"] is not None
    assert sum(by_name["markers-8"]["markers"]) >= 2
    assert by_name["first-run-4"]["owes"] is False
    assert by_name["start-8"]["phase"] == "declare"


def test_hand_checked_perft_at_the_start() -> None:
    # start-2: seat 0 lacks 12-12 (1 move: not-holding), seat 1 opens (1 move); seat 1 then
    # starts its train with any x-12 it holds, or draws if it holds none.
    case = next(c for c in VECTOR_CASES if c["name"] == "start-2")
    seat1 = tiles(" ".join(case["hands"][1]))
    starters = [t for t in seat1 if 12 in t and t != (12, 12)]
    assert case["perft"][1:4] == [1, 1, len(starters) or 1]


# -- properties over random deals -------------------------------------------------------------


@st.composite
def rounds(draw: st.DrawFn) -> tuple[MexicanTrainRules, Position, int]:
    seats = draw(st.integers(2, 8))
    rules = MexicanTrainRules(seats, round=draw(st.integers(0, 12)),
                              mexican_train=draw(st.booleans()))
    deck = draw(st.permutations(TILE_SET.tiles))
    h = rules.deal.hand_size
    hands = tuple(frozenset(deck[s * h:(s + 1) * h]) for s in range(seats))
    first = draw(st.integers(0, seats - 1))
    return rules, (rules.initial_state(first), hands, tuple(deck[seats * h:])), first


def check_conserved(pos: Position) -> None:
    state, hands, boneyard = pos
    held = [t for h in hands for t in h]
    everything = [*held, *boneyard, *state.table()]
    assert len(everything) == 91 and set(everything) == ALL
    assert tuple(map(len, hands)) == state.hand_counts and len(boneyard) == state.boneyard


@settings(max_examples=40, deadline=None)
@given(game=rounds(), picks=st.randoms(use_true_random=False))
def test_random_rounds_terminate_conserve_tiles_and_round_trip(
        game: tuple[MexicanTrainRules, Position, int], picks: object) -> None:
    rules, pos, _ = game
    passes_in_a_row = 0
    limit = 3 * rules.seats  # section 7: at most three laps of passes in a row
    moves_made = 0
    while not pos[0].finished:
        state, hands, _ = pos
        hand = hands[state.turn]
        legal = legal_moves(state, hand)
        assert legal and [move_id(m) for m in legal] == sorted(move_id(m) for m in legal)
        move = legal[picks.randrange(len(legal))]  # type: ignore[attr-defined]
        if rules.must_play_if_able(state, state.turn, move):
            assert not hand & forbidden_tiles(rules, state)
        passes_in_a_row = passes_in_a_row + 1 if move == PASS else 0
        assert passes_in_a_row <= limit  # stalls end the round within a few laps
        pos = walk_step(pos, move)
        check_conserved(pos)
        obj = json.loads(json.dumps(rules.state_to_json(pos[0])))
        assert rules.state_from_json(obj) == pos[0]
        moves_made += 1
        assert moves_made < 1000
    state, hands, _ = pos
    result = rules.outcome(state, hands, ())
    assert result.hand_pips == tuple(pips(h) for h in hands)
    if state.finished == "out":
        assert result.winner is not None and not hands[result.winner]
    elif result.winner is not None:
        assert all(result.hand_pips[result.winner] < p
                   for s, p in enumerate(result.hand_pips) if s != result.winner)


@settings(max_examples=25, deadline=None)
@given(game=rounds(), picks=st.randoms(use_true_random=False))
def test_apply_accepts_the_legal_plays_and_judges_claims_by_the_forbidden_set(
        game: tuple[MexicanTrainRules, Position, int], picks: object) -> None:
    rules, pos, _ = game
    for _ in range(30):
        state, hands, _ = pos
        if state.finished:
            break
        seat, hand = state.turn, hands[state.turn]
        legal = set(legal_moves(state, hand))
        forbidden = forbidden_tiles(rules, state)
        # The plays of a hand are the plays of its tiles: a hand can play iff it meets F.
        assert any(isinstance(m, Play) for m in legal) == bool(hand & forbidden)
        candidates: list[Move] = [PASS, DRAW, NOT_HOLDING]
        candidates += [Play(t, x) for t in sorted(hand) for x in [*range(8), MEXICAN]]
        for move in candidates:
            try:
                apply(state, seat, move)
                accepted = True
            except RuleViolation:
                accepted = False
            if isinstance(move, Play):
                assert accepted == (move in legal), move_text(move)
            else:
                # apply cannot see the hand: it accepts a claim that the proof must back.
                assert accepted == (move in legal_moves(state, hand - forbidden)), move_text(move)
        with pytest.raises(RuleViolation):
            apply(state, (seat + 1) % rules.seats, PASS)
        ordered = legal_moves(state, hand)
        pos = walk_step(pos, ordered[picks.randrange(len(ordered))])  # type: ignore[attr-defined]


def test_tile_helper_is_normalised() -> None:
    assert tile(5, 3) == (3, 5)


def test_a_marked_train_is_a_choice_but_play_is_forced() -> None:
    """5.5: "may now play on that marker if he wishes" makes a marked train one more open
    train to choose; it gives no right to draw or pass while any open train takes a tile."""
    state = position(seats=3, trains=("12-5", "12-3", "12-7"), markers=(False, True, False))
    # A choice: the own train or the marked one, both legal.
    assert sorted(texts(legal_moves(state, tiles("5-6 3-4")))) == ["3-4>1", "5-6>0"]
    # Forced: the only fitting tile fits the marked train, so there is no draw or pass.
    assert texts(legal_moves(state, tiles("3-4 8-9"))) == ["3-4>1"]
    # A draw claims that no tile fits (6.1): the tiles that fit the marked train are in
    # the forbidden set the claim is proven against.
    assert must_play_if_able(state, 0, DRAW)
    forbidden = forbidden_tiles(MexicanTrainRules(seats=3), state)
    assert tile(3, 4) in forbidden and tile(8, 9) not in forbidden
    # Without the marker, that tile fits no open train: the seat draws.
    unmarked = replace(state, markers=(False, False, False))
    assert legal_moves(unmarked, tiles("3-4 8-9")) == (DRAW,)
