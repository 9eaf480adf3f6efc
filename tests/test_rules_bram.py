"""Bram's rules (spec/rules/bram.md): encodings, transitions, outcomes, perft vectors."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.errors import EncodingError, LocalError
from protocol.rules import (
    RULESETS,
    BramRules,
    BramState,
    End,
    Pass,
    Play,
    RuleViolation,
    make_rules,
)
from protocol.rules.base import DealPlan, Outcome, halves_text
from protocol.rules.bram import (
    DEAL,
    DEFAULT_KOMI_HALVES,
    MAX_MOVES,
    apply,
    initial_state,
    legal_moves,
    outcome,
)
from protocol.rules.bram_state import (
    MAX_MOVE_ID,
    PASS,
    TILE_SET,
    Move,
    move_from_id,
    move_id,
    move_text,
    parse_move,
)
from protocol.tiles import Tile, parse_tile

VECTORS = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "rules" / "bram_perft.json"
ALL_TILES = frozenset(TILE_SET.tiles)
DECK = tuple(t for t in TILE_SET.tiles if t != (6, 6))
Hands = tuple[frozenset[Tile], frozenset[Tile]]


def tiles(text: str) -> frozenset[Tile]:
    return frozenset(parse_tile(t) for t in text.split())


def pips(hand: Iterable[Tile]) -> int:
    return sum(a + b for a, b in hand)


def step(state: BramState, hands: Hands, move: Move) -> tuple[BramState, Hands]:
    """Apply `move` for the seat to move and take its tile out of that seat's hand."""
    seat = state.turn
    after = apply(state, seat, move)
    if isinstance(move, Play):
        mine = hands[seat] - {move.tile}
        hands = (mine, hands[1]) if seat == 0 else (hands[0], mine)
    return after, hands


def count_sequences(state: BramState, hands: Hands, depth: int) -> int:
    # The test's own walker: the generator's perft is not imported, so a bug
    # there cannot hide behind the same bug here.
    if depth == 0:
        return 1
    return sum(count_sequences(*step(state, hands, m), depth - 1)
               for m in legal_moves(state, hands[state.turn]))


def euler_line(line_tiles: Iterable[Tile]) -> tuple[tuple[int, int], ...]:
    """Some line using every tile once (Hierholzer), to build late positions directly."""
    edges = list(line_tiles)
    degree = Counter(p for t in edges for p in t)
    odd = sorted(p for p, d in degree.items() if d % 2)
    assert len(odd) in (0, 2), "no single line holds these tiles"
    unused = set(range(len(edges)))
    stack = [odd[0] if odd else edges[0][0]]
    trail: list[int] = []
    while stack:
        pip = stack[-1]
        nxt = next((i for i in sorted(unused) if pip in edges[i]), None)
        if nxt is None:
            trail.append(stack.pop())
            continue
        unused.discard(nxt)
        a, b = edges[nxt]
        stack.append(b if a == pip else a)
    return tuple(pairwise(reversed(trail)))


def late_state(hands: Hands, hidden: Tile, *, turn: int = 0, first_player: int = 0,
               passes: int = 0) -> BramState:
    """A position where everything but `hands` and `hidden` lies in one line."""
    played = ALL_TILES - hands[0] - hands[1] - {hidden}
    line = euler_line(sorted(played))
    counts = (len(hands[0]), len(hands[1]))
    finished = "blocked" if passes == 2 else "out" if 0 in counts else None
    return BramState(line, frozenset(played), counts, turn, first_player, passes, finished)


# -- encodings (section 4) -------------------------------------------------------------


def test_every_move_round_trips_through_id_and_text() -> None:
    seen = set()
    for i in range(MAX_MOVE_ID + 1):
        move = move_from_id(i)
        text = move_text(move)
        assert parse_move(text) == move and move_id(move) == i
        seen.add(text)
    assert len(seen) == 57 and MAX_MOVE_ID == 56


SPEC_TABLE = {"pass": 0, "0-0>L": 1, "0-0>R": 2, "0-6>R": 14, "1-6>L": 25, "3-5>L": 41,
              "3-5>R": 42, "4-4>R": 46, "5-6>R": 54, "6-6>L": 55, "6-6>R": 56}


@pytest.mark.parametrize(("text", "expected"), sorted(SPEC_TABLE.items()))
def test_spec_table_of_move_ids(text: str, expected: int) -> None:
    assert move_id(parse_move(text)) == expected


@pytest.mark.parametrize("text", ["Pass", "PASS", " pass", "pass\n", "5-3>L", "03-5>L",
                                  "3-05>L", "3-5>l", "3-5", "3-5>", "3-5>LR", "3-5<L",
                                  "7-7>L", "0-7>R", "-1-3>L", "3 - 5>L", "٣-5>L", ""])
def test_non_canonical_text_is_rejected(text: str) -> None:
    with pytest.raises(EncodingError) as e:
        parse_move(text)
    assert e.value.code == "rules/move-text"


@pytest.mark.parametrize("value", [-1, 57, 1 << 70, True, False, 1.0, "1", None])
def test_bad_move_ids_are_rejected(value: object) -> None:
    with pytest.raises(EncodingError) as e:
        move_from_id(value)  # type: ignore[arg-type]
    assert e.value.code == "rules/move-id"


def test_moves_validate_on_construction() -> None:
    for bad in [(5, 3), (-1, 2), (1,), (1, 2, 3), (True, 2), "3-5"]:
        with pytest.raises(LocalError):
            Play(bad, End.LEFT)  # type: ignore[arg-type]
    with pytest.raises(LocalError):
        Play((3, 5), "L")  # type: ignore[arg-type]
    with pytest.raises(RuleViolation) as e:
        move_id(Play((7, 7), End.RIGHT))
    assert e.value.code == "rules/not-in-set"


# -- legal moves and transitions (sections 5 and 6) -------------------------------------


def play(state: BramState, *texts: str) -> BramState:
    """Apply moves for whoever is to move; apply needs no hands."""
    for text in texts:
        state = apply(state, state.turn, parse_move(text))
    return state


def test_equal_ends_give_one_move_on_the_right() -> None:
    start = initial_state(0)
    hand = tiles("0-6 3-6 1-1 2-3 0-0 1-2 2-2 4-4 0-1 0-2 0-3 0-4 1-3")
    assert [move_text(m) for m in legal_moves(start, hand)] == ["pass", "0-6>R", "3-6>R"]
    after = play(start, "3-6>R")
    assert after.line == ((6, 6), (6, 3)) and after.ends == (6, 3)


def test_a_tile_fitting_both_unequal_ends_is_two_moves() -> None:
    state = play(initial_state(0), "3-6>R", "pass", "5-6>L")  # ends 5, 3
    assert state.ends == (5, 3) and state.line == ((5, 6), (6, 6), (6, 3))
    hand = tiles("3-5 3-3 5-5 0-1 0-2 0-3 0-4 0-5 1-1 1-2 1-3 1-4 2-2")
    assert state.hand_counts[state.turn] == len(hand)
    texts = [move_text(m) for m in legal_moves(state, hand)]
    assert texts == ["pass", "0-3>R", "0-5>L", "1-3>R", "3-3>R", "3-5>L", "3-5>R", "5-5>L"]
    assert play(state, "3-5>L").ends == (3, 3)
    assert play(state, "3-5>R").ends == (5, 5)
    assert play(state, "3-5>L").line[0] == (3, 5)


def test_a_play_resets_the_pass_count_and_two_passes_block() -> None:
    state = play(initial_state(1), "pass")
    assert state.passes == 1 and state.turn == 0 and not state.finished
    state = play(state, "2-6>R")
    assert state.passes == 0 and state.hand_counts == (12, 13)
    state = play(state, "pass", "pass")
    assert state.finished == "blocked" and legal_moves(state, tiles("0-0")) == ()
    assert BramRules().to_move(state) is None and BramRules().is_over(state)


@pytest.mark.parametrize(("prefix", "seat", "move", "code"), [
    (["pass", "pass"], 0, "pass", "rules/game-over"),
    ([], 1, "pass", "rules/not-your-turn"),
    ([], 0, "6-6>R", "rules/tile-already-played"),
    (["3-6>R"], 1, "3-6>L", "rules/tile-already-played"),
    ([], 0, "0-1>R", "rules/tile-does-not-match"),
    (["3-6>R"], 1, "2-3>L", "rules/tile-does-not-match"),
    ([], 0, "0-6>L", "rules/non-canonical-end"),
])
def test_each_violation_code(prefix: list[str], seat: int, move: str, code: str) -> None:
    state = play(initial_state(0), *prefix)
    with pytest.raises(RuleViolation) as e:
        apply(state, seat, parse_move(move))
    assert e.value.code == code and e.value.seat == seat


def test_a_tile_outside_the_set_is_a_violation() -> None:
    with pytest.raises(RuleViolation) as e:
        apply(initial_state(0), 0, Play((6, 7), End.RIGHT))
    assert e.value.code == "rules/not-in-set"


def test_out_of_turn_is_reported_before_the_move_itself() -> None:
    with pytest.raises(RuleViolation) as e:
        apply(initial_state(0), 1, parse_move("0-1>L"))
    assert e.value.code == "rules/not-your-turn"


def test_local_misuse_is_a_local_error() -> None:
    start = initial_state(0)
    for bad_hand in [tiles("0-6"), [(0, 6)] * 13, {(6, 6), *sorted(DECK)[:12]}]:
        with pytest.raises(LocalError) as e:
            legal_moves(start, bad_hand)
        assert e.value.code == "rules/bad-hand"
    with pytest.raises(LocalError):
        initial_state(2)
    with pytest.raises(LocalError) as e:
        outcome(start, [set(), set()], set())
    assert e.value.code == "rules/not-over"
    with pytest.raises(LocalError):
        apply(start, 0, "pass")  # type: ignore[arg-type]


@pytest.mark.parametrize("change", [
    {"line": ((6, 6), (3, 6))}, {"hand_counts": (13, 12)}, {"passes": 2},
    {"finished": "out"}, {"turn": 2}, {"line": ((5, 5),), "played": frozenset({(5, 5)})},
    {"played": frozenset({(6, 6), (0, 0)})},
])
def test_impossible_states_cannot_be_built(change: dict[str, object]) -> None:
    fields = {f: getattr(initial_state(0), f) for f in BramState.__dataclass_fields__}
    with pytest.raises(LocalError) as e:
        BramState(**{**fields, **change})  # type: ignore[arg-type]
    assert e.value.code == "rules/bad-state"


def test_state_json_round_trips_and_is_strict() -> None:
    state = play(initial_state(1), "4-6>R", "pass", "2-6>L")
    assert BramState.from_json(json.loads(json.dumps(state.to_json()))) == state
    rules = BramRules()
    assert rules.state_from_json(rules.state_to_json(state)) == state
    with pytest.raises(EncodingError):
        rules.state_from_json([state.to_json()])
    for bad in [{**state.to_json(), "turn": True}, {**state.to_json(), "extra": 1},
                {**state.to_json(), "line": [[6, 6]]}, {**state.to_json(), "finished": "won"}]:
        with pytest.raises(EncodingError):
            BramState.from_json(bad)


# -- outcome (section 8) ----------------------------------------------------------------


def test_blocked_tie_is_a_draw_and_half_pip_komi_breaks_it() -> None:
    hands = (tiles("1-2"), tiles("0-3"))
    state = late_state(hands, (0, 1), passes=2)
    assert outcome(state, hands, [(0, 1)]) == Outcome(
        winner=None, reason="blocked", hand_pips=(3, 3), pips_halves=(6, 6),
        margin_halves=0, hidden=((0, 1),))
    komi = outcome(state, hands, [(0, 1)], komi_halves=1)
    assert (komi.winner, komi.pips_halves, komi.margin_halves) == (1, (7, 6), 1)
    assert halves_text(komi.margin_halves) == "0.5"
    other_first = late_state(hands, (0, 1), passes=2, first_player=1)
    assert outcome(other_first, hands, [(0, 1)], komi_halves=1).winner == 0
    assert outcome(state, hands, [(0, 1)], komi_halves=-1).winner == 0


def test_blocked_fewer_pips_wins_by_the_difference() -> None:
    hands = (tiles("5-6 0-4"), tiles("1-1 0-2 3-3"))
    state = late_state(hands, (2, 5), passes=2, turn=1, first_player=1)
    result = BramRules(komi_halves=5).outcome(state, hands, [(2, 5)])
    # seat 0: 11 + 4 = 15 pips; seat 1: 2 + 2 + 6 = 10 pips plus 2.5 komi = 12.5
    assert result.hand_pips == (15, 10) and result.pips_halves == (30, 25)
    assert (result.winner, result.margin_halves, halves_text(result.margin_halves)) == (1, 5, "2.5")
    assert result.to_json() == {"winner": 1, "reason": "blocked", "hand_pips": [15, 10],
                                "pips_halves": [30, 25], "margin_halves": 5, "hidden": ["2-5"]}


def test_going_out_wins_even_against_fewer_pips_with_komi() -> None:
    # Seat 1 moved first with 1.5 pips of komi and went out; seat 0 holds only 0-0.
    hands = (tiles("0-0"), frozenset[Tile]())
    state = late_state(hands, (2, 5), turn=0, first_player=1)
    assert state.finished == "out"
    result = outcome(state, hands, [(2, 5)], komi_halves=3)
    assert (result.winner, result.reason, result.hand_pips) == (1, "out", (0, 0))
    assert result.pips_halves == (0, 3) and result.margin_halves == 0


def test_out_margin_is_the_losers_pips_without_komi() -> None:
    hands = (tiles("4-5 1-6"), frozenset[Tile]())
    state = late_state(hands, (1, 4), turn=0, first_player=0)
    result = outcome(state, hands, [(1, 4)], komi_halves=7)
    assert (result.winner, result.margin_halves, result.pips_halves) == (1, 32, (39, 0))


def test_reveals_must_match_the_public_state() -> None:
    hands = (tiles("1-2"), tiles("0-3"))
    state = late_state(hands, (0, 1), passes=2)
    # Any split that fits the public counts is accepted: who was dealt which tile
    # is for the session to prove, not for the rules to guess.
    assert outcome(state, (tiles("0-1"), tiles("1-2")), [(0, 3)]).hand_pips == (1, 3)
    for bad_hands, hidden in [((tiles("1-2 0-3"), frozenset()), [(0, 1)]),
                              ((tiles("1-2"), tiles("6-6")), [(0, 1)]),
                              ((tiles("1-2"), tiles("0-3")), [(0, 1), (0, 1)]),
                              ((tiles("1-2"), tiles("0-3")), [(1, 2)]),
                              ((tiles("1-2"),), [(0, 1)])]:
        with pytest.raises(RuleViolation) as e:
            outcome(state, bad_hands, hidden)
        assert e.value.code == "rules/reveal-mismatch"


def test_halves_text_is_exact() -> None:
    assert [halves_text(n) for n in (0, 1, 2, 7, -1, -4, 335)] == \
        ["0", "0.5", "1", "3.5", "-0.5", "-2", "167.5"]


# -- rule-set interface (section 1, 2) -----------------------------------------------------


def test_registry_and_params() -> None:
    rules = make_rules("bram", {"komi_halves": 1})
    assert isinstance(rules, BramRules) and rules.params == {"komi_halves": 1}
    # The default is the measured komi of section 11 (D15): 1.5 pips.
    assert RULESETS["bram"]({}, None).params == {"komi_halves": DEFAULT_KOMI_HALVES} == {
        "komi_halves": 3}
    assert rules.name == "bram"
    assert make_rules(rules.name, rules.params) == rules
    for params in [{"komi_halves": 0.5}, {"komi_halves": True}, {"komi_halves": 337},
                   {"komi": 1}, {"komi_halves": "1"}]:
        with pytest.raises(EncodingError) as e:
            make_rules("bram", params)
        assert e.value.code == "rules/params"
    with pytest.raises(EncodingError):
        make_rules("mexican-train-someday", {})
    with pytest.raises(LocalError):
        BramRules(komi_halves=-337)


def test_deal_plan() -> None:
    rules = BramRules()
    assert rules.deal == DealPlan(seats=2, hand_size=13, hidden=1, on_table=((6, 6),))
    assert rules.deal.deck_tiles(rules.tile_set) == DECK and len(DECK) == 27
    assert DEAL.boneyard_size(TILE_SET) == 0
    assert rules.played_tile(PASS) is None and rules.played_tile(parse_move("2-6>R")) == (2, 6)


# -- perft (section 10) -----------------------------------------------------------------


def test_hand_verified_perft_in_a_two_tile_ending() -> None:
    # Line ends 2 and 3; seat 0 holds 1-2, seat 1 holds 0-3, 0-1 hidden; seat 0 to move.
    # depth 1: pass, 1-2>L.  depth 2: 1-2>L went out (0 more); after pass seat 1 may
    # pass or play 0-3>R.  depth 3: both of those end the hand, so 0.
    hands = (tiles("1-2"), tiles("0-3"))
    state = late_state(hands, (0, 1))
    assert state.ends == (2, 3)
    assert [count_sequences(state, hands, d) for d in range(4)] == [1, 2, 2, 0]
    assert [move_text(m) for m in legal_moves(state, hands[0])] == ["pass", "1-2>L"]


def test_hand_verified_perft_from_the_start() -> None:
    # depth 1 = pass + one move per x-6 the mover holds (both ends show 6).
    # depth 2: after a pass the other seat has 1 + (its x-6 tiles); after x-6>R the
    # ends are 6 and x, so every tile of the other seat with a 6 fits L, every tile
    # with an x fits R, and no remaining tile has both.
    data = json.loads(VECTORS.read_text())
    for case in data["cases"][:2]:
        first = case["first_player"]
        mine, theirs = (tiles(" ".join(case["hands"][s])) for s in (first, 1 - first))
        sixes = [t for t in mine if 6 in t]
        depth1 = 1 + len(sixes)
        depth2 = (1 + sum(6 in t for t in theirs)) + sum(
            1 + sum(6 in t for t in theirs) + sum(x in t for t in theirs)
            for x, _ in sixes)
        assert case["perft"][1:3] == [depth1, depth2]


def load_case(case: dict[str, object]) -> tuple[BramState, Hands]:
    hand_lists = case["hands"]
    assert isinstance(hand_lists, list)
    hands = (tiles(" ".join(hand_lists[0])), tiles(" ".join(hand_lists[1])))
    hidden = parse_tile(str(case["hidden"]))
    assert hands[0] | hands[1] | {hidden, (6, 6)} == ALL_TILES
    first = case["first_player"]
    assert isinstance(first, int)
    state = initial_state(first)
    prefix = case["prefix"]
    assert isinstance(prefix, list)
    for text in prefix:
        state, hands = step(state, hands, parse_move(text))
    return state, hands


VECTOR_CASES = json.loads(VECTORS.read_text())["cases"]


@pytest.mark.parametrize("case", VECTOR_CASES, ids=[c["name"] for c in VECTOR_CASES])
def test_perft_vectors(case: dict[str, object]) -> None:
    state, hands = load_case(case)
    assert state.to_json() == case["state"] and BramState.from_json(case["state"]) == state
    assert [sorted(h) for h in hands] == [sorted(tiles(" ".join(h))) for h in case["hands_now"]]
    assert [move_text(m) for m in legal_moves(state, hands[state.turn])] == case["legal"]
    perft = case["perft"]
    assert isinstance(perft, list)
    assert [count_sequences(state, hands, d) for d in range(len(perft))] == perft


def test_terminal_outcome_vectors() -> None:
    case = next(c for c in VECTOR_CASES if "terminals" in c)
    state, hands = load_case(case)
    hidden = parse_tile(case["hidden"])

    def walk(s: BramState, h: Hands, komi: int) -> Counter[str]:
        if s.finished:
            r = outcome(s, h, [hidden], komi)
            return Counter({f"{r.reason}/{'draw' if r.winner is None else r.winner}": 1})
        return sum((walk(*step(s, h, m), komi) for m in legal_moves(s, h[s.turn])), Counter())

    for komi, expected in case["terminals"].items():
        assert dict(walk(state, hands, int(komi))) == expected
    # Half-pip komi leaves no draws; draws go to the second seat.
    assert "blocked/draw" not in case["terminals"]["1"]


# -- properties over random deals --------------------------------------------------------


deals = st.permutations(DECK)


def check_public_state(state: BramState, hands: Hands, hidden: Tile) -> None:
    """Independent invariants: nothing private leaks and every tile is somewhere once."""
    line = state.line
    assert all(a[1] == b[0] for a, b in pairwise(line))
    assert len({tuple(sorted(p)) for p in line}) == len(line)
    assert {tuple(sorted(p)) for p in line} == state.played
    assert (len(hands[0]), len(hands[1])) == state.hand_counts
    assert not (state.played & (hands[0] | hands[1] | {hidden}))
    shown = {tuple(sorted(p)) for p in state.to_json()["line"]}  # type: ignore[attr-defined]
    assert shown == state.played


@settings(max_examples=150, deadline=None)
@given(deck=deals, first=st.integers(0, 1), komi=st.integers(-336, 336),
       eager=st.booleans(), picks=st.lists(st.integers(0, 10**6), min_size=60, max_size=60))
def test_random_playouts(deck: tuple[Tile, ...], first: int, komi: int, eager: bool,
                         picks: list[int]) -> None:
    hidden = deck[0]
    hands: Hands = (frozenset(deck[1:14]), frozenset(deck[14:27]))
    state = initial_state(first)
    moves = 0
    while not state.finished:
        assert moves < MAX_MOVES
        legal = legal_moves(state, hands[state.turn])
        plays = [m for m in legal if isinstance(m, Play)]
        # Eager seats pass only when they must, which is how hands go out.
        options = plays if eager and plays else legal
        state, hands = step(state, hands, options[picks[moves] % len(options)])
        check_public_state(state, hands, hidden)
        moves += 1
    assert moves <= MAX_MOVES
    result = outcome(state, hands, [hidden], komi)
    raw = (pips(hands[0]), pips(hands[1]))
    totals = tuple(2 * p + (komi if s == first else 0) for s, p in enumerate(raw))
    assert result.hand_pips == raw and result.pips_halves == totals
    if state.finished == "out":
        assert result.winner is not None and not hands[result.winner]
        assert result.margin_halves == 2 * raw[1 - result.winner]
    else:
        assert (result.winner is None) == (totals[0] == totals[1])
        if result.winner is not None:
            assert totals[result.winner] < totals[1 - result.winner]
        assert result.margin_halves == abs(totals[0] - totals[1])
        if komi % 2:
            assert result.winner is not None


@settings(max_examples=60, deadline=None)
@given(deck=deals, first=st.integers(0, 1),
       picks=st.lists(st.integers(0, 10**6), min_size=12, max_size=12))
def test_apply_accepts_exactly_the_legal_moves_from_the_hand(
        deck: tuple[Tile, ...], first: int, picks: list[int]) -> None:
    hands: Hands = (frozenset(deck[1:14]), frozenset(deck[14:27]))
    state = initial_state(first)
    for pick in picks:
        if state.finished:
            break
        seat, hand = state.turn, hands[state.turn]
        legal = set(legal_moves(state, hand))
        for i in range(MAX_MOVE_ID + 1):
            move = move_from_id(i)
            if isinstance(move, Play) and move.tile not in hand:
                continue  # possession is the session's business, not apply's
            try:
                apply(state, seat, move)
                accepted = True
            except RuleViolation:
                accepted = False
            assert accepted == (move in legal), move_text(move)
        with pytest.raises(RuleViolation):
            apply(state, 1 - seat, PASS)
        ordered = legal_moves(state, hand)
        assert [move_id(m) for m in ordered] == sorted(move_id(m) for m in ordered)
        state, hands = step(state, hands, ordered[pick % len(ordered)])


def test_pass_is_a_singleton_value() -> None:
    assert Pass() == PASS and move_from_id(0) == PASS
