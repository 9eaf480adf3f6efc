#!/usr/bin/env python3
"""Write spec/vectors/rules/mineshaft_perft.json, or check it with --check.

Perft (spec/rules/mineshaft.md section 11): from a position with every hand and
the order of the rubble pile known, count the legal move sequences of exactly d
moves, for d = 0..depth. A draw takes the top tile of the pile into the mover's
hand. A round that ends after fewer than d moves contributes nothing at depth d.
Each case is a deal and a prefix of moves, both derived from a seed string with
SHA-256 so that any implementation can rebuild them:

- deck order: the set minus the hub, sorted by SHA-256(seed || "/" || "a-b");
  seat s gets positions 5s..5s+4, the rest is the pile, top first;
- prefix move i: the mover's legal move at index
  int(SHA-256(seed || "/move/" || i)) mod (number of legal moves), until the
  case's stop condition holds (a number of moves, six shafts dug, a vein being
  explored, or a seat having just drawn).

The file stores the hands, pile, prefix and resulting state explicitly, so
readers never need to redo this derivation; it only documents where the data
came from.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

from protocol.rules.mineshaft import (
    Draw,
    MineshaftRules,
    MineshaftState,
    Move,
    Play,
    round_winners,
)
from protocol.tiles import Tile, tile_text

OUT = (Path(__file__).resolve().parent.parent / "spec" / "vectors" / "rules"
       / "mineshaft_perft.json")

# (name, seed, params, first player, stop condition, perft depth): depths keep the
# largest count near 10^4 so the test suite replays all of it in a few seconds.
CASES: list[tuple[str, str, dict[str, object], int, str, int]] = [
    # Before six shafts: on double-six every x-6 tile must reach the hub first,
    # so the opening is long and forced (one legal move) until the sixth shaft.
    ("d6-2-start", "mineshaft-perft/1/d6-2-start", {"seats": 2}, 0, "moves=0", 35),
    ("d6-4-hub", "mineshaft-perft/1/d6-4-hub", {"seats": 4}, 2, "moves=3", 14),
    ("d6-3-drawn", "mineshaft-perft/1/d6-3-drawn", {"seats": 3}, 1, "drawn", 20),
    # Six shafts dug, no vein yet.
    ("d6-2-six-shafts", "mineshaft-perft/1/d6-2-six", {"seats": 2}, 1, "shafts", 4),
    ("d6-2-long-round-2", "mineshaft-perft/1/d6-2-r2",
     {"seats": 2, "round": 2, "long": True}, 0, "shafts", 3),
    ("d12-8-six-shafts", "mineshaft-perft/1/d12-8-six",
     {"seats": 8, "set": "double-twelve"}, 5, "shafts", 6),
    # A vein being explored.
    ("d6-4-vein", "mineshaft-perft/1/d6-4-vein", {"seats": 4}, 0, "vein", 10),
    ("d9-5-vein", "mineshaft-perft/1/d9-5-vein", {"seats": 5, "set": "double-nine"}, 3,
     "vein", 13),
    # Late positions whose whole tree is walked (terminals).
    ("d6-2-endgame", "mineshaft-perft/1/d6-3-end", {"seats": 2}, 0, "moves=46", 8),
    ("d6-3-endgame", "mineshaft-perft/1/d6-3-end", {"seats": 3}, 0, "moves=38", 8),
]

# Small enough trees to walk to the end: count every finished round by result.
TERMINAL_CASES = ("d6-2-endgame", "d6-3-endgame")

Hands = tuple[frozenset[Tile], ...]
Pile = tuple[Tile, ...]


def _h(seed: str, label: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}/{label}".encode()).digest(), "big")


def deal(rules: MineshaftRules, seed: str) -> tuple[Hands, Pile]:
    deck = sorted(rules.deal.deck_tiles(rules.tile_set), key=lambda t: _h(seed, tile_text(t)))
    k = rules.seats
    return tuple(frozenset(deck[5 * s:5 * s + 5]) for s in range(k)), tuple(deck[5 * k:])


def step(rules: MineshaftRules, state: MineshaftState, hands: Hands, pile: Pile,
         move: Move) -> tuple[MineshaftState, Hands, Pile]:
    seat = state.turn
    after = rules.apply(state, seat, move)
    if isinstance(move, Draw):
        hands = tuple(h | {pile[0]} if s == seat else h for s, h in enumerate(hands))
        pile = pile[1:]
    elif isinstance(move, Play):
        hands = tuple(h - {move.tile} if s == seat else h for s, h in enumerate(hands))
    return after, hands, pile


def _stopped(state: MineshaftState, done: int, stop: str) -> bool:
    if stop.startswith("moves="):
        return done == int(stop.removeprefix("moves="))
    if stop == "shafts":
        return len(state.shafts) == 6
    if stop == "vein":
        return state.exploring is not None
    return state.phase == "drawn"


def play_prefix(rules: MineshaftRules, seed: str, state: MineshaftState, hands: Hands,
                pile: Pile, stop: str) -> tuple[MineshaftState, Hands, Pile, list[Move]]:
    moves: list[Move] = []
    while not _stopped(state, len(moves), stop):
        legal = rules.legal_moves(state, hands[state.turn])
        move = legal[_h(seed, f"move/{len(moves)}") % len(legal)]
        state, hands, pile = step(rules, state, hands, pile, move)
        moves.append(move)
        if rules.is_over(state):
            raise SystemExit(f"{seed}: the prefix ended the round; pick another seed")
    return state, hands, pile, moves


def perft(rules: MineshaftRules, state: MineshaftState, hands: Hands, pile: Pile,
          depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(rules, *step(rules, state, hands, pile, m), depth - 1)
               for m in rules.legal_moves(state, hands[state.turn]))


def terminals(rules: MineshaftRules, state: MineshaftState, hands: Hands,
              pile: Pile) -> Counter[str]:
    """Finished rounds reachable from `state`, keyed "reason/winning seats"."""
    if rules.is_over(state):
        result = rules.outcome(state, hands, ())
        won = "+".join(str(s) for s in round_winners(result))
        return Counter({f"{result.reason}/{won}": 1})
    total: Counter[str] = Counter()
    for m in rules.legal_moves(state, hands[state.turn]):
        total += terminals(rules, *step(rules, state, hands, pile, m))
    return total


def _tiles(ts: frozenset[Tile] | Pile) -> list[str]:
    return [tile_text(t) for t in (sorted(ts) if isinstance(ts, frozenset) else ts)]


def build() -> dict[str, object]:
    cases = []
    for name, seed, params, first, stop, depth in CASES:
        rules = MineshaftRules.from_params(params)
        hands, pile = deal(rules, seed)
        start = (hands, pile)
        state, hands, pile, prefix = play_prefix(rules, seed, rules.initial_state(first),
                                                 hands, pile, stop)
        case: dict[str, object] = {
            "name": name,
            "seed": seed,
            "params": rules.params,
            "first_player": first,
            "hands": [_tiles(h) for h in start[0]],
            "pile": _tiles(start[1]),
            "prefix": [rules.move_text(m) for m in prefix],
            "state": rules.state_to_json(state),
            "hands_now": [_tiles(h) for h in hands],
            "legal": [rules.move_text(m) for m in rules.legal_moves(state, hands[state.turn])],
            "perft": [perft(rules, state, hands, pile, d) for d in range(depth + 1)],
        }
        if name in TERMINAL_CASES:
            case["terminals"] = dict(sorted(terminals(rules, state, hands, pile).items()))
        cases.append(case)
    return {
        "ruleset": "mineshaft",
        "generator": "tools/gen_mineshaft_perft.py",
        "note": ("perft[d] = number of legal move sequences of exactly d moves from the "
                 "position after `prefix`, with every hand and the pile order known (a draw "
                 "takes the first tile of the pile); finished rounds contribute 0 at greater "
                 "depths. terminals counts every finished round reachable from that position "
                 "by 'reason/winning seats'. See spec/rules/mineshaft.md section 11."),
        "cases": cases,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is stale")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1) + "\n"
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} does not match the rules code; rerun without --check",
                  file=sys.stderr)
            return 1
        print(f"{OUT.name} is up to date", file=sys.stderr)
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
