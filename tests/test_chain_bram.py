"""Bram's rules in Chialisp (peers/chain/clsp/bram.clib, through clsp/bram_rules.clsp and
peers/chain/clvm_bram.py) agree with the reference (protocol/rules/bram.py, bram_state.py):

- every case of spec/vectors/rules/bram_perft.json: every move id applied by the seat to
  move (and some by the other seat) gives the reference's code and next state, and the
  moves CLVM accepts from the hands the vector gives count its perft numbers as deep as
  the frontier stays small;
- random games, move by move: each state's `rules` value (bram_to_value) and its decoding
  (bram_from_value), the apply of the move made and of other moves, the reveal check;
- decoding of mutated `rules` values: whatever state_from_json refuses (EncodingError,
  LocalError) is E_STATE_SCHEMA (protocol/state.py reports it as state/schema), and
  whatever it accepts decodes to the same state;
- the reveal check (bram._check_reveal) on good and bad reveals.

Checks are batched into few CLVM runs. Needs the `[chain]` extra; skipped without it.
`-s` prints the program's size and typical costs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import load_vectors, skip_without_chain

skip_without_chain()

from peers.chain.clvm import BLOCK_COST_LIMIT  # noqa: E402
from peers.chain.clvm_bram import (  # noqa: E402
    Sexp,
    Tree,
    _tagged,
    as_int,
    call,
    items,
    move_of,
    move_sexp,
    pair,
    program_bytes,
    run_bram,
    state_json,
    state_sexp,
    untagged,
)
from peers.chain.codes import code_of  # noqa: E402
from protocol.errors import EncodingError, LocalError  # noqa: E402
from protocol.rules import BramRules, RuleViolation  # noqa: E402
from protocol.rules.bram import _check_reveal, apply, initial_state, legal_moves  # noqa: E402
from protocol.rules.bram_state import (  # noqa: E402
    MAX_MOVE_ID,
    TILE_SET,
    BramState,
    Move,
    Pass,
    move_from_id,
    move_id,
    parse_move,
)
from protocol.tiles import Tile, parse_tile  # noqa: E402

RULES = BramRules()
PERFT = load_vectors("rules/bram_perft")
DECK = [t for t in TILE_SET.tiles if t != (6, 6)]
SCHEMA = "state/schema"
Hands = list[list[Tile]]


def msexp(move: Move) -> Sexp:
    return move_sexp(None) if isinstance(move, Pass) else move_sexp(move.tile, move.end.value)


def ref_apply(state: BramState, seat: int, move: Move) -> tuple[str, Any]:
    try:
        return "ok", apply(state, seat, move).to_json()
    except RuleViolation as e:
        return e.code, None


def got_apply(tree: Tree) -> tuple[str, Any]:
    """(CODE . STATE) as ("ok", the state's JSON) or (code, None)."""
    code, rest = pair(tree)
    if as_int(code):
        assert rest == b"", "a failure carries no state"
        return code_of(as_int(code)), None
    return "ok", state_json(rest)


def ref_decode(obj: object) -> tuple[str, Any]:
    try:
        return "ok", RULES.state_from_json(obj).to_json()
    except (EncodingError, LocalError):
        return SCHEMA, None


def ref_reveal(state: BramState, hands: Any, hidden: Any) -> str:
    try:
        _check_reveal(state, hands, hidden)
    except RuleViolation as e:
        return e.code
    return "ok"


def got_code(tree: Tree) -> str:
    return "ok" if not as_int(tree) else code_of(as_int(tree))


# -- perft vectors ------------------------------------------------------------------------


def candidates(hand: list[Tile]) -> list[int]:
    """Pass and both ends of every tile of the hand, as move ids."""
    return [0, *(move_id(parse_move(f"{a}-{b}>{e}")) for a, b in hand for e in "LR")]


@pytest.mark.parametrize("case", PERFT["cases"], ids=lambda c: c["name"])
def test_perft_case_every_move_id(case: dict[str, Any]) -> None:
    state = RULES.state_from_json(case["state"])
    s, seat = state_sexp(case["state"]), state.turn
    calls: list[tuple[str, list[Sexp]]] = []
    for i in range(MAX_MOVE_ID + 1):
        m = msexp(move_from_id(i))
        calls += [("move_from_id", [i]), ("apply", [s, seat, m]), ("apply", [s, 1 - seat, m]),
                  ("played_tile", [m])]
    calls += [("to_value", [s]), ("from_value", [_tagged(case["state"])]),
              ("to_move", [s]), ("is_over", [s])]
    got = run_bram(calls).results
    hand = [parse_tile(t) for t in case["hands_now"][seat]]
    legal = []
    for i in range(MAX_MOVE_ID + 1):
        move = move_from_id(i)
        decoded, on_turn, off_turn, played = got[4 * i:4 * i + 4]
        assert as_int(pair(decoded)[0]) == 0, i
        assert move_of(pair(decoded)[1]) == (None if isinstance(move, Pass)
                                             else (move.tile, move.end.value)), i
        assert got_apply(on_turn) == ref_apply(state, seat, move), i
        assert got_apply(off_turn) == ref_apply(state, 1 - seat, move), i
        tile = None if isinstance(move, Pass) else move.tile
        assert (items(played) == [] if tile is None else played == tree_tile(tile))
        if got_apply(on_turn)[0] == "ok" and (tile is None or tile in hand):
            legal.append(i)
    assert legal == [move_id(m) for m in legal_moves(state, hand)]
    assert [move_id(parse_move(t)) for t in case["legal"]] == legal
    value, decoded, to_move, over = got[-4:]
    assert untagged(value) == case["state"]
    assert got_apply(decoded) == ("ok", case["state"])
    assert as_int(to_move) == seat and not as_int(over)


def tree_tile(t: Tile) -> Tree:
    return (atom(t[0]), atom(t[1]))


def atom(n: int) -> bytes:
    return b"" if n == 0 else n.to_bytes((n.bit_length() + 8) // 8, "big", signed=True)


@pytest.mark.parametrize("case", PERFT["cases"], ids=lambda c: c["name"])
def test_perft_counts(case: dict[str, Any]) -> None:
    """Moves CLVM accepts from the vector's hands count perft[d] while the frontier is
    small; every candidate agrees with the reference on the way."""
    hands = [[parse_tile(t) for t in h] for h in case["hands_now"]]
    frontier: list[tuple[dict[str, Any], Hands]] = [(case["state"], hands)]
    for depth, expected in enumerate(case["perft"][1:], start=1):
        if len(frontier) > 300:
            break
        calls, meta = [], []
        for obj, hs in frontier:
            turn = obj["turn"]
            for i in candidates(hs[turn]):
                calls.append(("apply", [state_sexp(obj), turn, msexp(move_from_id(i))]))
                meta.append((obj, hs, turn, move_from_id(i)))
        results = run_bram(calls).results if calls else []
        nxt = []
        for tree, (obj, hs, turn, move) in zip(results, meta, strict=True):
            got = got_apply(tree)
            assert got == ref_apply(RULES.state_from_json(obj), turn, move)
            if got[0] == "ok":
                new = [list(h) for h in hs]
                if not isinstance(move, Pass):
                    new[turn].remove(move.tile)
                nxt.append((got[1], new))
        assert len(nxt) == expected, depth
        frontier = nxt


# -- random games -------------------------------------------------------------------------


def deal(rng: random.Random) -> tuple[Hands, Tile]:
    deck = list(DECK)
    rng.shuffle(deck)
    return [sorted(deck[:13]), sorted(deck[13:26])], deck[26]


def play_game(rng: random.Random, pass_rate: float) -> Iterator[tuple[BramState, Hands, Tile,
                                                                          Move | None]]:
    """Each state of a random game with the hands then, the hidden tile and the move made
    (None once the hand is over)."""
    hands, hidden = deal(rng)
    state = initial_state(rng.randrange(2))
    while True:
        if state.finished:
            yield state, hands, hidden, None
            return
        moves = legal_moves(state, hands[state.turn])
        move = moves[0] if len(moves) == 1 or rng.random() < pass_rate else \
            rng.choice(moves[1:])
        yield state, [list(h) for h in hands], hidden, move
        if not isinstance(move, Pass):
            hands[state.turn].remove(move.tile)
        state = apply(state, state.turn, move)


def bad_reveals(rng: random.Random, state: BramState, hands: Hands,
                hidden: Tile) -> list[tuple[Any, Any]]:
    """Good and bad reveals of a state: (hands, hidden) pairs."""
    h0, h1 = hands
    played = sorted(state.played)
    out: list[tuple[Any, Any]] = [(hands, [hidden]), ([h1, h0], [hidden]), (hands, []),
                                  (hands, [hidden, hidden]), ([h0], [hidden]),
                                  ([h0, h1, []], [hidden]), (hands, [rng.choice(played)]),
                                  (hands, [(7, 7)]), (hands, [hidden[::-1]])]
    for seat, h in enumerate(hands):
        if h:
            t = rng.choice(h)
            others = [x for x in h if x != t]
            for swap in (t[::-1], rng.choice(played), hidden, (t[0], 7), (-1, t[1]), t):
                new = [list(hands[0]), list(hands[1])]
                new[seat] = [*others, swap]
                out.append((new, [hidden]))
            new = [list(hands[0]), list(hands[1])]
            new[seat] = others
            new[1 - seat] = [*hands[1 - seat], t]
            out.append((new, [hidden]))
            out.append(([others, hands[1]] if seat == 0 else [hands[0], others], [t]))
    return out


def game_checks(rng: random.Random, pass_rate: float) -> tuple[list[Any], list[Any], str]:
    """The calls of one random game, what the reference says of each, and how it ended."""
    calls: list[Any] = []
    want: list[Any] = []
    state = initial_state(0)
    for state, hands, hidden, move in play_game(rng, pass_rate):
        obj = state.to_json()
        s = state_sexp(obj)
        calls += [("to_value", [s]), ("from_value", [_tagged(obj)]), ("to_move", [s]),
                  ("is_over", [s])]
        want += [("value", obj), ("apply", ("ok", obj)),
                 ("int", state.turn if not state.finished else 0),
                 ("int", int(state.finished is not None))]
        tries = [(state.turn, move)] if move else []
        tries += [(rng.randrange(2), move_from_id(rng.randrange(MAX_MOVE_ID + 1)))
                  for _ in range(3)]
        for seat, m in tries:
            calls.append(("apply", [s, seat, msexp(m)]))
            want.append(("apply", ref_apply(state, seat, m)))
        reveals = bad_reveals(rng, state, hands, hidden) if move is None else \
            [(hands, [hidden])]
        for hs, hid in reveals:
            calls.append(("reveal_check", [s, [list(h) for h in hs], list(hid)]))
            want.append(("reveal", ref_reveal(state, hs, hid)))
    return calls, want, str(state.finished)


def test_random_games() -> None:
    rng = random.Random(20240611)
    calls: list[Any] = []
    want: list[Any] = []
    finished = set()
    for game in range(24):
        c, w, reason = game_checks(rng, [0.02, 0.2, 0.5][game % 3])
        calls += c
        want += w
        finished.add(reason)
    assert finished == {"out", "blocked"}
    run = run_bram(calls)
    assert run.cost.total < BLOCK_COST_LIMIT
    for tree, (kind, expected) in zip(run.results, want, strict=True):
        if kind == "value":
            assert untagged(tree) == expected
        elif kind == "apply":
            assert got_apply(tree) == expected
        elif kind == "int":
            assert as_int(tree) == expected
        else:
            assert got_code(tree) == expected


# -- decoding -----------------------------------------------------------------------------


def sample_states(rng: random.Random) -> list[dict[str, Any]]:
    """Valid states: the start, and some of a few random games (finished ones too)."""
    out = [initial_state(0).to_json(), initial_state(1).to_json()]
    for rate in (0.02, 0.3, 0.6, 0.05):
        states = [s for s, _, _, _ in play_game(rng, rate)]
        out += [s.to_json() for s in (states[len(states) // 2], states[-2], states[-1])]
    return out


def mutations(obj: dict[str, Any], rng: random.Random) -> Iterator[Any]:
    """obj and values near it, most of them not a state."""
    yield obj
    for k in obj:
        yield {x: v for x, v in obj.items() if x != k}
        yield {**{x: v for x, v in obj.items() if x != k}, k.upper(): obj[k]}
        for bad in (True, False, None, "1", b"\x01", [obj[k]], {"x": 1}, 0, 1, 2, -1, 3,
                    2**64 - 1, -(2**63)):
            yield {**obj, k: bad}
    yield {**obj, "played": []}
    yield {**obj, "line": obj["line"], "extra": 1}
    for bad_finished in ("out", "blocked", None, "OUT", b"out", 0, False, "Out"):
        yield {**obj, "finished": bad_finished}
    for passes in range(-1, 4):
        yield {**obj, "passes": passes}
        yield {**obj, "passes": passes, "finished": rng.choice([None, "out", "blocked"])}
    c0, c1 = obj["hand_counts"]
    for counts in ([c0 + 1, c1], [c0, c1 - 1], [c0 + 1, c1 - 1], [c0], [c0, c1, 0], [],
                   [c1, c0], [0, c0 + c1], [c0 + c1, 0], [14, c0 + c1 - 14], [True, c1],
                   [c0 - 13, c1 + 13]):
        yield {**obj, "hand_counts": counts}
    line = obj["line"]
    for i in range(len(line)):
        a, b = line[i]
        for p in ([b, a], [a, b, a], [a], [], [a, True], [a, 7], [a - 7, b], "x", None):
            yield {**obj, "line": [*line[:i], p, *line[i + 1:]]}
        yield {**obj, "line": line[:i] + line[i + 1:]}
    yield {**obj, "line": [*line, line[-1]]}
    yield {**obj, "line": [list(reversed(p)) for p in reversed(line)]}
    yield {**obj, "line": []}
    yield {**obj, "line": [[6, 6], [6, 6]]}
    yield [obj]
    yield None
    yield 5


def random_value(rng: random.Random) -> dict[str, Any]:
    """A plausible state: a random chain of tiles, counts and flags, often wrong."""
    line = [[rng.randrange(7), rng.randrange(7)]]
    for _ in range(rng.randrange(27)):
        last = line[-1][1] if rng.random() < 0.95 else rng.randrange(8)
        line.append([last, rng.randrange(7)])
    if rng.random() < 0.5:
        line.insert(rng.randrange(len(line) + 1), [6, 6])
    left = 27 - len(line) + rng.choice([0, 0, 0, 1, -1])
    lo = max(0, left - 13)
    c0 = rng.randint(lo, max(lo, min(13, left)))
    counts = [c0, left - c0]
    passes = rng.choice([0, 0, 1, 2])
    out = min(counts) == 0
    finished = "blocked" if passes == 2 else "out" if out else None
    if rng.random() < 0.2:
        finished = rng.choice([None, "out", "blocked"])
    return {"line": line, "hand_counts": counts, "turn": rng.randrange(2),
            "first_player": rng.randrange(2), "passes": passes, "finished": finished}


def random_game_values(rng: random.Random) -> list[dict[str, Any]]:
    """Lines that could be real: a random game's lines with random counts and flags."""
    out = []
    for _ in range(20):
        states = [s for s, _, _, _ in play_game(rng, 0.1)]
        s = rng.choice(states).to_json()
        left = 27 - len(s["line"])
        c0 = rng.randrange(max(0, left - 13), min(13, left) + 1)
        out.append({**s, "hand_counts": [c0, left - c0]})
        out.append({**s, "passes": rng.randrange(3), "finished": rng.choice([None, "out"])})
    return out


def test_decoding_agrees() -> None:
    rng = random.Random(7)
    values: list[Any] = []
    for obj in sample_states(rng):
        values += list(mutations(obj, rng))
    values += [random_value(rng) for _ in range(400)] + random_game_values(rng)
    run = run_bram([("from_value", [_tagged(v)]) for v in values])
    outcomes = {"ok": 0, SCHEMA: 0}
    for v, tree in zip(values, run.results, strict=True):
        expected = ref_decode(v)
        assert got_apply(tree) == expected, v
        outcomes[expected[0]] += 1
    assert min(outcomes.values()) > 50, outcomes


# -- small functions ----------------------------------------------------------------------


def test_move_ids_tiles_and_initial_state() -> None:
    ids = [-(2**63), -1, *range(MAX_MOVE_ID + 1), MAX_MOVE_ID + 1, 64, 2**64 - 1]
    calls: list[Any] = [("move_from_id", [i]) for i in ids]
    calls += [("tile_index", [(a, b)]) for a, b in TILE_SET.tiles]
    calls += [("tile_at", [i]) for i in range(len(TILE_SET.tiles))]
    calls += [("initial", [0]), ("initial", [1])]
    got = iter(run_bram(calls).results)
    for i in ids:
        code, move = pair(next(got))
        if 0 <= i <= MAX_MOVE_ID:
            ref = move_from_id(i)
            assert as_int(code) == 0
            assert move_of(move) == (None if isinstance(ref, Pass)
                                     else (ref.tile, ref.end.value))
        else:
            assert code_of(as_int(code)) == "move/unknown-id" and move == b""
    for index in range(len(TILE_SET.tiles)):
        assert as_int(next(got)) == index
    for t in TILE_SET.tiles:
        assert next(got) == tree_tile(t)
    for first in (0, 1):
        assert state_json(next(got)) == initial_state(first).to_json()


def test_costs() -> None:
    """A mid-game apply and a mid-game state decoded and encoded, one run each."""
    rng = random.Random(3)
    states = [(s, m) for s, _, _, m in play_game(rng, 0.0)]
    state, move = states[len(states) // 2]
    assert move is not None
    obj = state.to_json()
    applied, cost_apply = call("apply", state_sexp(obj), state.turn, msexp(move))
    assert got_apply(applied) == ref_apply(state, state.turn, move)
    decoded, cost_from = call("from_value", _tagged(obj))
    value, cost_to = call("to_value", state_sexp(obj))
    assert got_apply(decoded) == ("ok", obj) and untagged(value) == obj
    print(f"\nbram_rules.clsp: {program_bytes():,} bytes; mid-game ({len(obj['line'])} "
          f"tiles in the line): apply {cost_apply.run:,}, from_value {cost_from.run:,}, "
          f"to_value {cost_to.run:,} (run cost)")
    assert cost_apply.total < BLOCK_COST_LIMIT // 100
