#!/usr/bin/env python3
"""Write spec/vectors/rules/mexican_train_perft.json, or check it with --check.

Perft (spec/rules/mexican-train.md section 10): from a position with every hand
and the boneyard's order known, count the legal move sequences of exactly d
moves, d = 0..depth; a round that ends earlier contributes nothing deeper. A
draw takes the first tile of the boneyard. Each case is a deal and a prefix of
moves, both derived from a seed string with SHA-256 so any implementation can
rebuild them:

- deck order: the 91 tiles sorted by SHA-256(seed || "/" || "a-b"); seat s gets
  positions [s*h, (s+1)*h), the rest is the boneyard, drawn from the front;
- prefix move i: among the mover's legal moves, the one at index
  int(SHA-256(seed || "/move/" || i)) mod (number of legal moves); the prefix
  stops at the first position (after at least `min` moves) where the case's
  condition holds.

The file stores the hands, boneyard, prefix and resulting state explicitly, so
readers never need to redo this derivation; it only documents where the data
came from.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

from protocol.rules.mexican_train import MexicanTrainRules, legal_moves
from protocol.rules.mexican_train_state import (
    TILE_SET,
    Draw,
    MexicanState,
    Move,
    Play,
    move_text,
)
from protocol.rules.mexican_train_turns import apply
from protocol.tiles import Tile, tile_text

OUT = (Path(__file__).resolve().parent.parent / "spec" / "vectors" / "rules"
       / "mexican_train_perft.json")

Hands = tuple[frozenset[Tile], ...]
Position = tuple[MexicanState, Hands, tuple[Tile, ...]]
Condition = Callable[[MexicanState], bool]


def _engine_in_boneyard(s: MexicanState) -> bool:
    return s.phase == "search"


def _mid_first_run(s: MexicanState) -> bool:
    return s.phase == "play" and not s.owes and s.turn != s.first_player


def _pending_passed_on(s: MexicanState) -> bool:
    if s.pending is None or not all(s.first_done):
        return False
    placed = s.train(s.pending)
    return s.turn != s.pending and s.owes and not s.drawn and len(placed) > 1


def _markers(s: MexicanState) -> bool:
    return all(s.first_done) and sum(s.markers) >= 2 and s.pending is None


def _start(s: MexicanState) -> bool:
    return True


def _late(s: MexicanState) -> bool:
    return s.boneyard == 0 and s.phase == "play" and s.pending is None


# (name, seed, seats, round, mexican train, first player, min prefix, condition, depth):
# play is mostly forced, so depths go past 3 until the deepest count nears 10^3
# and the test suite replays every case in about a second. A seed ending in /n
# is the first n that gives the case its point (seat 1 holds the engine, or
# nobody does).
CASES: list[tuple[str, str, int, int, bool, int, int, Condition, int]] = [
    ("start-2", "mexican-perft/1/start-2/3", 2, 12, False, 0, 0, _start, 11),
    ("search-2", "mexican-perft/1/search-2/1", 2, 12, False, 1, 6, _engine_in_boneyard, 11),
    ("first-run-4", "mexican-perft/1/first-run-4", 4, 12, True, 0, 1, _mid_first_run, 9),
    ("pending-4", "mexican-perft/1/pending-4", 4, 9, True, 2, 8, _pending_passed_on, 9),
    ("markers-8", "mexican-perft/1/markers-8", 8, 12, False, 3, 8, _markers, 7),
    ("start-8", "mexican-perft/1/start-8", 8, 5, True, 7, 0, _start, 11),
    ("late-2", "mexican-perft/1/late-2", 2, 0, True, 0, 20, _late, 4),
]
MAX_PREFIX = 400


def _h(seed: str, label: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}/{label}".encode()).digest(), "big")


def deal(seed: str, rules: MexicanTrainRules) -> tuple[Hands, tuple[Tile, ...]]:
    deck = sorted(TILE_SET.tiles, key=lambda t: _h(seed, tile_text(t)))
    h = rules.deal.hand_size
    hands = tuple(frozenset(deck[s * h:(s + 1) * h]) for s in range(rules.seats))
    return hands, tuple(deck[rules.seats * h:])


def step(pos: Position, move: Move) -> Position:
    state, hands, boneyard = pos
    seat = state.turn
    after = apply(state, seat, move)
    mine = hands[seat]
    if isinstance(move, Play):
        mine = mine - {move.tile}
    elif isinstance(move, Draw):
        mine, boneyard = mine | {boneyard[0]}, boneyard[1:]
    return after, (*hands[:seat], mine, *hands[seat + 1:]), boneyard


def legal(pos: Position) -> tuple[Move, ...]:
    state, hands, _ = pos
    if state.finished:
        return ()
    return legal_moves(state, hands[state.turn])


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(step(pos, m), depth - 1) for m in legal(pos))


def play_prefix(seed: str, pos: Position, least: int,
                condition: Condition) -> tuple[Position, list[Move]]:
    moves: list[Move] = []
    while len(moves) < least or not condition(pos[0]):
        options = legal(pos)
        if not options or len(moves) >= MAX_PREFIX:
            raise SystemExit(f"{seed}: no position fits the condition; pick another seed")
        move = options[_h(seed, f"move/{len(moves)}") % len(options)]
        pos = step(pos, move)
        moves.append(move)
    return pos, moves


def _tiles(ts: frozenset[Tile]) -> list[str]:
    return [tile_text(t) for t in sorted(ts)]


def build() -> dict[str, object]:
    cases = []
    for name, seed, seats, round_, mexican, first, least, condition, depth in CASES:
        rules = MexicanTrainRules(seats=seats, round=round_, mexican_train=mexican)
        hands, boneyard = deal(seed, rules)
        start: Position = (rules.initial_state(first), hands, boneyard)
        pos, prefix = play_prefix(seed, start, least, condition)
        state, hands_now, boneyard_now = pos
        cases.append({
            "name": name, "seed": seed, "params": rules.params, "first_player": first,
            "hands": [_tiles(h) for h in hands],
            "boneyard": [tile_text(t) for t in boneyard],
            "prefix": [move_text(m) for m in prefix],
            "state": rules.state_to_json(state),
            "hands_now": [_tiles(h) for h in hands_now],
            "boneyard_now": len(boneyard_now),
            "legal": [move_text(m) for m in legal(pos)],
            "perft": [perft(pos, d) for d in range(depth + 1)],
        })
    return {
        "ruleset": "mexican-train",
        "generator": "tools/gen_mexican_perft.py",
        "note": ("perft[d] = number of legal move sequences of exactly d moves from the "
                 "position after `prefix`, with every hand and the boneyard order known "
                 "(a draw takes the boneyard's first tile); finished rounds contribute 0 at "
                 "greater depths. See spec/rules/mexican-train.md section 10."),
        "cases": cases,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
