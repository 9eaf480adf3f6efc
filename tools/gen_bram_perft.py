#!/usr/bin/env python3
"""Write spec/vectors/rules/bram_perft.json, or check it with --check.

Perft (spec/rules/bram.md section 10): from a position with both hands known,
count the legal move sequences of exactly d moves, for d = 0..depth. A hand
that ends after fewer than d moves contributes nothing at depth d, as in chess
perft. Each case is a deal and a prefix of moves, both derived from a seed
string with SHA-256 so that any implementation can rebuild them:

- deck order: the 27 shuffled tiles sorted by SHA-256(seed || "/" || "a-b");
  the first is hidden, the next 13 go to seat 0, the 13 after to seat 1;
- prefix move i: among the mover's legal plays (pass only if there is none),
  the one at index int(SHA-256(seed || "/move/" || i)) mod (number of plays).

The file stores the hands, prefix and resulting state explicitly, so readers
never need to redo this derivation; it only documents where the data came from.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

from protocol.rules.bram import DEAL, apply, initial_state, legal_moves, outcome
from protocol.rules.bram_state import PASS, TILE_SET, BramState, Move, Play, move_text
from protocol.tiles import Tile, tile_text

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "rules" / "bram_perft.json"

# (name, seed, first player, prefix length, perft depth): depths keep the
# largest count near 10^4 so the test suite replays all of it in a second or two.
CASES = [
    ("start-seat0", "bram-perft/1/start-seat0", 0, 0, 6),
    ("start-seat1", "bram-perft/1/start-seat1", 1, 0, 5),
    ("midgame", "bram-perft/1/midgame", 0, 8, 6),
    ("late", "bram-perft/1/late", 1, 16, 9),
    ("endgame", "bram-perft/1/endgame", 0, 20, 12),
]

# Small enough trees to walk to the end: count every finished hand by outcome.
TERMINAL_CASES = ("endgame",)

Hands = tuple[frozenset[Tile], frozenset[Tile]]


def _h(seed: str, label: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}/{label}".encode()).digest(), "big")


def deal(seed: str) -> tuple[Hands, Tile]:
    deck = sorted(DEAL.deck_tiles(TILE_SET), key=lambda t: _h(seed, tile_text(t)))
    return (frozenset(deck[1:14]), frozenset(deck[14:27])), deck[0]


def play_prefix(seed: str, state: BramState, hands: Hands,
                length: int) -> tuple[BramState, Hands, list[Move]]:
    moves: list[Move] = []
    for i in range(length):
        plays = [m for m in legal_moves(state, hands[state.turn]) if isinstance(m, Play)]
        move = plays[_h(seed, f"move/{i}") % len(plays)] if plays else PASS
        state, hands = step(state, hands, move)
        moves.append(move)
        if state.finished:
            raise SystemExit(f"{seed}: the prefix ended the hand; pick another seed")
    return state, hands, moves


def step(state: BramState, hands: Hands, move: Move) -> tuple[BramState, Hands]:
    seat = state.turn
    after = apply(state, seat, move)
    if isinstance(move, Play):
        mine = hands[seat] - {move.tile}
        hands = (mine, hands[1]) if seat == 0 else (hands[0], mine)
    return after, hands


def perft(state: BramState, hands: Hands, depth: int) -> int:
    if depth == 0:
        return 1
    if state.finished:
        return 0
    return sum(perft(*step(state, hands, m), depth - 1)
               for m in legal_moves(state, hands[state.turn]))


def terminals(state: BramState, hands: Hands, hidden: Tile,
              komi_halves: int) -> Counter[str]:
    """Finished hands reachable from `state`, keyed "reason/winner" ("draw" for none)."""
    if state.finished:
        result = outcome(state, hands, [hidden], komi_halves)
        winner = "draw" if result.winner is None else str(result.winner)
        return Counter({f"{result.reason}/{winner}": 1})
    total: Counter[str] = Counter()
    for m in legal_moves(state, hands[state.turn]):
        total += terminals(*step(state, hands, m), hidden, komi_halves)
    return total


def _tiles(ts: frozenset[Tile]) -> list[str]:
    return [tile_text(t) for t in sorted(ts)]


def build() -> dict[str, object]:
    cases = []
    for name, seed, first, prefix_len, depth in CASES:
        hands, hidden = deal(seed)
        start_hands = hands
        state, hands, prefix = play_prefix(seed, initial_state(first), hands, prefix_len)
        cases.append({
            "name": name,
            "seed": seed,
            "first_player": first,
            "hands": [_tiles(h) for h in start_hands],
            "hidden": tile_text(hidden),
            "prefix": [move_text(m) for m in prefix],
            "state": state.to_json(),
            "hands_now": [_tiles(h) for h in hands],
            "legal": [move_text(m) for m in legal_moves(state, hands[state.turn])],
            "perft": [perft(state, hands, d) for d in range(depth + 1)],
        })
        if name in TERMINAL_CASES:
            cases[-1]["terminals"] = {
                str(k): dict(sorted(terminals(state, hands, hidden, k).items()))
                for k in (0, 1, -4)}
    return {
        "ruleset": "bram",
        "params": {"komi_halves": 0},
        "generator": "tools/gen_bram_perft.py",
        "note": ("perft[d] = number of legal move sequences of exactly d moves from the "
                 "position after `prefix`, with both hands known; finished hands contribute "
                 "0 at greater depths. terminals[komi_halves] counts every finished hand "
                 "reachable from that position by 'reason/winner'. See spec/rules/bram.md "
                 "section 10."),
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
