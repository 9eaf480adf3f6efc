#!/usr/bin/env python3
"""Write spec/vectors/rules/mined_games.json, or check it with --check; with --suite S,
spec/vectors/suites/S/rules/mined_games.json, whose tie draws and maps hash in S (3.5).

The vectors of spec/rules/mined-games.md section 10. Each case is one stage of
Mined Games: a state (the mine, the miners, the stage) and every living seat's
orders; the file stores the state before, the orders, what the seed's text says
must happen (`expect`, written here by hand from the seed, the spec's decisions
cited), and the whole state after as the engine computes it. The generator
refuses to write a case whose result contradicts its `expect`. Cases with
`error` are illegal orders: the seat named must be blamed with that code.

The last part is the map generator: joint seeds -> map text (section 3).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import replace
from typing import Any

from vector_common import kit_from_args

from protocol.errors import DealerlessError
from protocol.rules.mined_games import MinedGamesRules
from protocol.rules.mined_map import generate_map, map_seed, parse_map
from protocol.rules.mined_round import Miner, Pos
from protocol.rules.mined_state import MinedState
from protocol.suite import v2_suite

SUITE = v2_suite()  # the suite being written: main() sets it from --suite
GAME_ID = hashlib.sha256(b"mined-games vectors").digest()

# B1..B4 of a 4 x 4 mine; rows top to bottom. Letters: spec section 2.1.
PLAIN = ["DDDD,DDDD,DDDD,DDDD", "DDDD,DDDD,DDDD,DDDG", "DDDD,DDDD,DDDD,DDDD",
         "LLLL,LLLL,LLLL,LLLL"]


def mine(*floors: str) -> str:
    return "/".join(floors)


def plain(**rows: str) -> str:
    """PLAIN with some rows replaced: key "b1r2" -> floor B1 row 2."""
    floors = [f.split(",") for f in PLAIN]
    for key, row in rows.items():
        floors[int(key[1]) - 1][int(key[3])] = row
    return "/".join(",".join(f) for f in floors)


def pos(text: str) -> Pos:
    """"B2 r1 c3" -> (1, 1, 3)."""
    b, r, c = text.split()
    return int(b[1]) - 1, int(r[1:]), int(c[1:])


# Each case: name, the seed's words, map text, seats, stage, miners (position, money,
# garnets, iron rounds), durability overrides, orders per seat, and what must happen.
CASES: list[dict[str, Any]] = [
    {
        "name": "simultaneous-steps",
        "seed": "Up, Down, Left, Right, Left, Up / Up, Right, Left, Right, Down, Right: both "
                "will move up, then miner one and two will move down and right simultaneously",
        "map": mine("DDDDDG,DDDDDD,DDDDDD,DDDDDD,DDDDDD", "DDDDDD,DDDDDD,DDDDDD,DDDDDD,DDDDDD",
                    "DDDDDD,DDDDDD,DDDDDD,DDDDDD,DDDDDD", "LLLLLL,LLLLLL,LLLLLL,LLLLLL,LLLLLL"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r3 c1", 0, 1, 0), ("B1 r3 c3", 0, 1, 0)],
        "orders": [["UDLRLU", 0], ["URLRDR", 0]],
        # Six steps each: the sixth costs a garnet (garnet spending); $400 a step.
        # B1 r3 c1 is left three times (dirt, 3): broken; r3 c0, r2 c3 and r2 c4 twice.
        "expect": {"at": {"0": "B1 r2 c0", "1": "B1 r3 c5"},
                   "money": {"0": 2400, "1": 2400}, "garnets": {"0": 0, "1": 0},
                   "dur": {"B1 r3 c1": 0, "B1 r2 c3": 1, "B1 r2 c4": 1, "B1 r3 c0": 1},
                   "end": None},
    },
    {
        "name": "mining-after-moving",
        "seed": "Miner 1: Up, Down, Mine Up; Miner 2: Up, Left, Right. For the third turn, I "
                "will process Miner 1's mine after Miner 2 moves Right.",
        "map": plain(b1r1="DGDD"),
        "seats": 2, "stage": 3,
        "miners": [("B1 r2 c1", 0, 0, 0), ("B1 r2 c2", 0, 0, 0)],
        "dur": {"B1 r1 c1": 3},
        "orders": [["UD", 2], ["ULR", 0]],
        # Miner 2 stood on the gold after its second step and has left it by the time the
        # mine lands, so it does not fall; the third decrement breaks the gold, paid.
        "expect": {"at": {"0": "B1 r2 c1", "1": "B1 r1 c2"},
                   "money": {"0": 800 + 5000, "1": 1200}, "status": {"0": "alive",
                                                                     "1": "alive"},
                   "dur": {"B1 r1 c1": 0}},
    },
    {
        "name": "split-gold",
        "seed": "if for their first action, two players both mine the same Gold tile, they "
                "would both earn $2,500",
        "map": plain(b1r1="DGDD"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r1 c0", 0, 0, 0), ("B1 r1 c2", 0, 0, 0)],
        "orders": [["", 5], ["", 4]],
        "expect": {"money": {"0": 2500, "1": 2500}, "dur": {"B1 r1 c1": 0}},
    },
    {
        "name": "self-mining-bonus",
        "seed": "if you are standing on Gold, Silver, Iron, or Emeralds and self-mine that "
                "tile (and no one mines the tile you are standing on), you earn an additional "
                "$1,000",
        "map": plain(b1r1="DSDE"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r1 c1", 0, 0, 0), ("B1 r1 c3", 0, 0, 0)],
        "orders": [["", 1], ["", 1]],
        # Silver 4000 + 1000; emerald 2000 + 1000 and $4 to the prize pool.
        "expect": {"money": {"0": 5000, "1": 3000}, "dur": {"B1 r1 c1": 1, "B1 r1 c3": 1},
                   "pool": 4},
    },
    {
        "name": "mined-from-under-a-self-miner",
        "seed": "If someone else mines the tile you are standing on and you fall, you earn no "
                "money from what you've mined.",
        "map": plain(b1r1="DGDD"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r1 c1", 0, 0, 0), ("B1 r1 c2", 0, 0, 0)],
        "orders": [["", 1], ["", 4]],
        # Both mine the gold (2): it breaks under miner 0, who falls to B2 and earns no
        # mining money; miner 1 earns half (D9) and the break-and-fall bonus.
        "expect": {"at": {"0": "B2 r1 c1"}, "money": {"0": 0, "1": 2500 + 4000},
                   "dur": {"B1 r1 c1": 0}, "status": {"0": "alive"}},
    },
    {
        "name": "mined-from-under-later-in-the-round",
        "seed": "If someone else mines the tile you are standing on and you fall, you earn no "
                "money from what you've mined.",
        "map": plain(b1r1="DSDD"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r1 c0", 0, 0, 0), ("B1 r3 c0", 0, 0, 0)],
        "dur": {"B1 r1 c0": 1},
        "orders": [["", 5], ["U", 2]],
        # Miner 0 mines the silver at action 1; at action 2 miner 1 mines the tile miner 0
        # stands on: it breaks, miner 0 falls and its silver pays nothing (D22); miner 1
        # earns its step and the break-and-fall bonus (dirt pays nothing).
        "expect": {"at": {"0": "B2 r1 c0", "1": "B1 r2 c0"}, "money": {"0": 0, "1": 4400},
                   "dur": {"B1 r1 c1": 1, "B1 r1 c0": 0}},
    },
    {
        "name": "self-mining-bonus-lost-to-a-later-mine",
        "seed": "if you are standing on Gold, Silver, Iron, or Emeralds and self-mine that "
                "tile (and no one mines the tile you are standing on), you earn an additional "
                "$1,000",
        "map": plain(b1r1="DGDD"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r1 c1", 0, 0, 0), ("B1 r3 c1", 0, 0, 0)],
        "dur": {"B1 r1 c1": 3},
        "orders": [["", 1], ["U", 2]],
        # Miner 1 mines the gold miner 0 stands on one action later; it holds, so miner 0
        # keeps its $5,000 but not the bonus (D23); miner 1's own mine pays it $5,000.
        "expect": {"at": {"0": "B1 r1 c1"}, "money": {"0": 5000, "1": 400 + 5000},
                   "dur": {"B1 r1 c1": 1}},
    },
    {
        "name": "self-mining-bonus-lost-to-an-earlier-mine",
        "seed": "(and no one mines the tile you are standing on)",
        "map": plain(b1r1="DGDD"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r2 c0", 0, 0, 0), ("B1 r1 c2", 0, 0, 0)],
        "dur": {"B1 r1 c1": 3},
        "orders": [["RU", 1], ["", 4]],
        # Miner 1 mines the gold at action 1, before miner 0 walks onto it and mines it at
        # action 3: the tile was mined by someone else in the round, no bonus (D23).
        "expect": {"at": {"0": "B1 r1 c1"}, "money": {"0": 800 + 5000, "1": 5000},
                   "dur": {"B1 r1 c1": 1}},
    },
    {
        "name": "self-miner-breaks-its-own-tile",
        "seed": "you will not earn money from mining if you are falling.",
        "map": plain(b1r1="DGDD"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r1 c1", 0, 0, 0), ("B1 r3 c3", 0, 0, 0)],
        "dur": {"B1 r1 c1": 1},
        "orders": [["", 1], ["", 0]],
        # Its own mine breaks the gold under it: it falls, and earns nothing (D22).
        "expect": {"at": {"0": "B2 r1 c1"}, "money": {"0": 0}, "dur": {"B1 r1 c1": 0},
                   "status": {"0": "alive"}},
    },
    {
        "name": "tile-left-under-a-miner-after-its-mine",
        "seed": "you will not earn money from mining if you are falling. (when you step away "
                "from a tile, its durability decreases by one)",
        "map": plain(b1r1="DDSD"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r1 c1", 0, 0, 0), ("B1 r1 c1", 0, 0, 0)],
        "dur": {"B1 r1 c1": 2},
        "orders": [["", 5], ["UDU", 0]],
        # Miner 0 mines the silver at action 1; miner 1 leaves their tile at its first and
        # third steps: it breaks, miner 0 falls and the silver pays nothing (D22). No
        # break-and-fall bonus: nobody broke it by mining.
        "expect": {"at": {"0": "B2 r1 c1", "1": "B1 r0 c1"}, "money": {"0": 0, "1": 1200},
                   "dur": {"B1 r1 c1": 0, "B1 r1 c2": 1}},
    },
    {
        "name": "exploration-kept-when-mined-under",
        "seed": "You will still earn money from exploration if your space is mined, you will "
                "not earn money from mining if you are falling.",
        "map": plain(),
        "seats": 2, "stage": 2,
        "miners": [("B1 r0 c0", 0, 0, 0), ("B1 r1 c2", 0, 0, 0)],
        "dur": {"B1 r0 c1": 1},
        "orders": [["R", 0], ["U", 4]],
        # Miner 1 steps up, then mines left (B1 r0 c1, dirt: no money) where miner 0
        # stands: it breaks, miner 0 falls and keeps its $400; break-and-fall $4,000.
        "expect": {"at": {"0": "B2 r0 c1", "1": "B1 r0 c2"},
                   "money": {"0": 400, "1": 400 + 4000}},
    },
    {
        "name": "broken-before-you-mine-it",
        "seed": "if someone mines a space before you manage to get to it, (on an earlier "
                "action) and it breaks, you won't be able to mine it",
        "map": plain(b1r1="DDGD"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r1 c1", 0, 0, 0), ("B1 r3 c2", 0, 0, 0)],
        "dur": {"B1 r1 c2": 1},
        "orders": [["", 5], ["U", 2]],
        # Miner 0 mines at action 1 and breaks it; miner 1 mines it at action 2: nothing.
        "expect": {"money": {"0": 5000, "1": 400}, "dur": {"B1 r1 c2": 0}},
    },
    {
        "name": "stepping-onto-a-broken-tile-stops-the-orders",
        "seed": "If a miner ... steps onto an already-broken tile ... their other moves and "
                "actions will not be processed",
        "map": plain(b1r0="DADD", b2r0="DADD"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r0 c0", 0, 0, 0), ("B1 r3 c3", 0, 0, 0)],
        "orders": [["RR", 1], ["", 0]],
        # Air is empty space: miner 0 falls through B1 and B2 air and lands on B3 dirt.
        "expect": {"at": {"0": "B3 r0 c1"}, "money": {"0": 400}, "status": {"0": "alive"},
                   "dur": {"B1 r0 c2": 3}},
    },
    {
        "name": "fall-into-lava",
        "seed": "It's possible to fall from B1 all the way into lava on B3 or B4",
        "map": plain(b1r0="DADD", b2r0="DADD", b3r0="DLDD"),
        "seats": 3, "stage": 4,
        "miners": [("B1 r0 c0", 3000, 0, 0), ("B1 r3 c3", 1000, 0, 0),
                   ("B1 r3 c0", 2000, 0, 0)],
        "orders": [["R", 0], ["", 0], ["", 0]],
        # Dead in lava: the elimination candidate whatever its money; the game ends.
        "expect": {"at": {"0": "B3 r0 c1"}, "status": {"0": "lava"}, "end": "a miner died",
                   "winner": 2, "ec": 0, "how": "died"},
    },
    {
        "name": "step-onto-lava",
        "seed": "Fall or step onto a lava tile. You will burn to death.",
        "map": plain(b3r1="DLDD"),
        "seats": 2, "stage": 2,
        "miners": [("B3 r1 c0", 0, 0, 0), ("B3 r3 c3", 0, 0, 0)],
        "orders": [["RR", 0], ["L", 0]],
        "expect": {"at": {"0": "B3 r1 c1"}, "status": {"0": "lava"}, "money": {"0": 400},
                   "end": "a miner died", "winner": 1, "ec": 0},
    },
    {
        "name": "attack-on-b3-before-moving",
        "seed": "On the bottom platform, miners will have the option to attack ... This will "
                "take place before moving or mining. Attacking a tile will kill all miners "
                "present on that tile.",
        "map": plain(),
        "seats": 4, "stage": 5,
        "miners": [("B3 r1 c1", 1000, 0, 0), ("B3 r1 c2", 9000, 0, 0),
                   ("B3 r1 c2", 8000, 0, 0), ("B1 r0 c0", 2000, 0, 0)],
        "orders": [["", 14], ["L", 0], ["", 0], ["", 0]],
        # Miners 1 and 2 die before they move; miner 0 earns $4,000 for the kill. Several
        # died but not all: the token winner (most money among the living) chooses the EC.
        "expect": {"status": {"1": "attack", "2": "attack"}, "at": {"1": "B3 r1 c2"},
                   "money": {"0": 5000, "1": 9000}, "end": "a miner died", "winner": 0,
                   "ec": None, "how": "chosen by the winner", "choose_from": [1, 2]},
    },
    {
        "name": "garnet",
        "seed": "Mining a Garnet tile earns $1,000 and immediately gives you 4 garnets.",
        "map": plain(b1r2="DDRD"),
        "seats": 2, "stage": 2,
        "miners": [("B1 r2 c1", 0, 0, 0), ("B1 r0 c0", 0, 0, 0)],
        "orders": [["", 5], ["", 0]],
        "expect": {"money": {"0": 1000}, "garnets": {"0": 4}, "dur": {"B1 r2 c2": 0}},
    },
    {
        "name": "mine-above",
        "seed": "You are also allowed to mine a tile directly above you. You can also mine "
                "directly above left, above right, above down, above up",
        "map": plain(b1r1="DDID"),
        "seats": 2, "stage": 2,
        "miners": [("B2 r1 c1", 0, 0, 0), ("B1 r1 c2", 0, 0, 0)],
        "dur": {"B1 r1 c2": 1},
        "orders": [["", 10], ["", 0]],
        # From B2 r1 c1, above-right is B1 r1 c2 (iron, 1 left): $3,000, it breaks and
        # miner 1 standing on it falls to B2: break-and-fall bonus too.
        "expect": {"money": {"0": 3000 + 4000}, "at": {"1": "B2 r1 c2"},
                   "dur": {"B1 r1 c2": 0}},
    },
    {
        "name": "iron-majority-at-the-end",
        "seed": "The player(s) who mined Iron for the greatest amount of turns will split "
                "$6,000 between them.",
        "map": plain(b1r0="IDDD"),
        "seats": 3, "stage": 11,
        "miners": [("B1 r1 c0", 1000, 0, 1), ("B1 r3 c3", 500, 0, 2),
                   ("B1 r2 c2", 200, 0, 0)],
        "orders": [["", 2], ["", 0], ["", 0]],
        # Round 10: miner 0 mines iron (a second round of iron), ties miner 1, and the game
        # ends after 10 rounds: $3,000 each. Nobody died: the least money is the EC.
        "expect": {"money": {"0": 1000 + 3000 + 3000, "1": 500 + 3000, "2": 200},
                   "end": "10 rounds were played", "winner": 0, "ec": 2,
                   "how": "least money"},
    },
    {
        "name": "no-resource-reachable",
        "seed": "The game ends when ... No player is able to access any more resources",
        "map": plain(b1r0="GDDD", b2r3="DDDD"),
        "seats": 2, "stage": 3,
        "miners": [("B1 r0 c1", 700, 0, 0), ("B1 r2 c2", 600, 0, 0)],
        "dur": {"B1 r0 c0": 1},
        "orders": [["", 4], ["", 0]],
        # The last resource tile is mined away.
        "expect": {"money": {"0": 5700}, "end": "no resource is reachable", "winner": 0,
                   "ec": 1},
    },
    {
        "name": "all-dead",
        "seed": "If all the miners are dead, then the miner who earned the most money, living "
                "or dead, will earn two tokens of life, and the dead miner with the least "
                "money will be EC.",
        "map": plain(b3r0="LDDL"),
        "seats": 2, "stage": 6,
        "miners": [("B3 r0 c1", 7000, 0, 0), ("B3 r0 c2", 6000, 0, 0)],
        "orders": [["L", 0], ["R", 0]],
        "expect": {"status": {"0": "lava", "1": "lava"}, "end": "every miner is dead",
                   "winner": 0, "ec": 1, "how": "died with the least money",
                   "money": {"0": 7400, "1": 6400}},
    },
    {
        "name": "start-positions",
        "seed": "The tile they start on must be on B1. Multiple players are allowed to start "
                "on the same tile.",
        "map": plain(), "seats": 3, "stage": 1,
        "miners": [None, None, None],
        "orders": [[2, 2], [2, 2], [0, 3]],
        "expect": {"at": {"0": "B1 r2 c2", "1": "B1 r2 c2", "2": "B1 r0 c3"}, "end": None},
    },
    {
        "name": "stepped-away-by-two",
        "seed": "If multiple players step away from the same tile, its durability decreases "
                "multiple times. If a tile's durability hits zero, then the tile breaks",
        "map": plain(),
        "seats": 3, "stage": 2,
        "miners": [("B1 r1 c1", 0, 0, 0), ("B1 r1 c1", 0, 0, 0), ("B1 r1 c1", 0, 0, 0)],
        "dur": {"B1 r1 c1": 2},
        "orders": [["U", 0], ["D", 0], ["", 1]],
        # Two leave at once: 2 -> 0; miner 2, still standing there, falls before its mine.
        "expect": {"dur": {"B1 r1 c1": 0}, "at": {"2": "B2 r1 c1", "0": "B1 r0 c1"},
                   "money": {"0": 400, "1": 400, "2": 0}},
    },
    {
        "name": "attacks-are-simultaneous-and-an-attacker-may-move",
        "seed": "miners will have the option to attack others with their pickaxe instead of "
                "mining ... This will take place before moving or mining.",
        "map": plain(),
        "seats": 3, "stage": 2,
        "miners": [("B3 r1 c1", 0, 0, 0), ("B3 r1 c2", 0, 0, 0), ("B3 r3 c0", 0, 0, 0)],
        "orders": [["", 14], ["", 13], ["UU", 11]],
        # Miners 0 and 1 kill each other; miner 2 attacks an empty tile (no bonus) and then
        # walks two steps (D8). Several died, not all: the winner chooses.
        "expect": {"status": {"0": "attack", "1": "attack", "2": "alive"},
                   "money": {"0": 4000, "1": 4000, "2": 800}, "at": {"2": "B3 r1 c0"},
                   "winner": 2, "ec": None, "choose_from": [0, 1]},
    },
    {
        "name": "fall-from-b3-into-b4-lava",
        "seed": "fall from B1 all the way into lava on B3 or B4",
        "map": plain(b3r2="DDAD"),
        "seats": 2, "stage": 3,
        "miners": [("B3 r2 c1", 100, 0, 0), ("B1 r0 c0", 50, 0, 0)],
        "orders": [["R", 0], ["", 0]],
        "expect": {"at": {"0": "B4 r2 c2"}, "status": {"0": "lava"}, "winner": 1, "ec": 0,
                   "how": "died"},
    },
    {
        "name": "b4-is-the-bottom",
        "seed": "land on whatever tile is directly underneath them ... (B1 to B2, B2 to B3, and "
                "B3 to B4) (D6: nothing is below B4)",
        "map": mine("DDDD,DDDD,DDDD,DDDG", "DDDD,DDDD,DDDD,DDDD", "DDDD,DDDD,DDDD,DDDD",
                    "DDDD,DDDD,DDDD,DDDD"),
        "seats": 2, "stage": 2,
        "miners": [("B4 r0 c0", 0, 0, 0), ("B1 r3 c0", 0, 0, 0)],
        "dur": {"B4 r0 c0": 1},
        "orders": [["", 1], ["", 0]],
        # The miner breaks the tile it stands on; on B4 it does not fall.
        "expect": {"at": {"0": "B4 r0 c0"}, "dur": {"B4 r0 c0": 0}, "status": {"0": "alive"},
                   "end": None},
    },
    # Illegal orders: the seat is blamed with the code.
    {
        "name": "illegal-six-steps-without-a-garnet",
        "seed": "I will allow up to five moves plus a mine or an attack.",
        "map": plain(), "seats": 2, "stage": 2,
        "miners": [("B1 r0 c0", 0, 0, 0), ("B1 r3 c3", 0, 0, 0)],
        "orders": [["", 0], ["LLLUUU", 0]],
        "error": {"seat": 1, "code": "mined/too-many-moves"},
    },
    {
        "name": "illegal-attack-off-b3",
        "seed": "One thousand feet below sea level in floor B3 ... miners will have the option "
                "to attack",
        "map": plain(), "seats": 2, "stage": 2,
        "miners": [("B2 r0 c0", 0, 0, 0), ("B2 r0 c1", 0, 0, 0)],
        "orders": [["", 14], ["", 0]],
        "error": {"seat": 0, "code": "mined/attack-off-b3"},
    },
    {
        "name": "illegal-step-off-the-mine",
        "seed": "There are no walls, barriers, or impassable tiles (D3: the mine's edge is "
                "its end)",
        "map": plain(), "seats": 2, "stage": 2,
        "miners": [("B1 r0 c0", 0, 0, 0), ("B1 r3 c3", 0, 0, 0)],
        "orders": [["U", 0], ["", 0]],
        "error": {"seat": 0, "code": "mined/off-mine"},
    },
    {
        "name": "illegal-mine-above-b1",
        "seed": "You are also allowed to mine a tile directly above you (D7: not from B1)",
        "map": plain(), "seats": 2, "stage": 2,
        "miners": [("B1 r1 c1", 0, 0, 0), ("B1 r3 c3", 0, 0, 0)],
        "orders": [["", 0], ["", 6]],
        "error": {"seat": 1, "code": "mined/off-mine"},
    },
    {
        "name": "illegal-start-on-air",
        "seed": "The tile they start on must be on B1 (D5: solid ground)",
        "map": plain(b1r0="ADDD"), "seats": 2, "stage": 1,
        "miners": [None, None],
        "orders": [[0, 0], [1, 1]],
        "error": {"seat": 0, "code": "mined/start-tile"},
    },
]

MAP_SEEDS = [("default 7x7", 7, 7, 5), ("4x5", 4, 5, 3)]


def build(case: dict[str, Any]) -> tuple[MinedGamesRules, MinedState]:
    rules = MinedGamesRules.from_params({"seats": case["seats"], "map": case["map"]}, SUITE)
    start = rules.start_state()
    the_mine = parse_map(case["map"])
    dur = [list(f) for f in the_mine.fresh_durability()]
    for where, value in case.get("dur", {}).items():
        f, r, c = pos(where)
        dur[f][r * the_mine.width + c] = value
    miners = tuple(Miner(None) if m is None else Miner(pos(m[0]), m[1], m[2], m[3])
                   for m in case["miners"])
    state = replace(start, stage=case["stage"], dur=tuple(tuple(f) for f in dur),
                    miners=miners)
    return rules, state


def run(case: dict[str, Any]) -> dict[str, Any]:
    """The case with its state before and after (or its error), checked against expect."""
    rules, state = build(case)
    before = rules.state_to_json(state)
    orders = {s: o for s, o in enumerate(case["orders"])}
    out: dict[str, Any] = {k: case[k] for k in ("name", "seed", "map", "seats") if k in case}
    out.update(before=before, orders=case["orders"])
    try:
        after, _ = rules.play_stage(GAME_ID, state, orders)
    except DealerlessError as exc:
        got = {"seat": getattr(exc, "seat", None), "code": exc.code}
        if got != case.get("error"):
            raise SystemExit(f"{case['name']}: expected {case.get('error')}, got {got}: "
                             f"{exc}") from None
        out["error"] = got
        return out
    if "error" in case:
        raise SystemExit(f"{case['name']}: expected {case['error']}, the orders were legal")
    problems = check_expect(after, case["expect"])
    if problems:
        raise SystemExit(f"{case['name']}: " + "; ".join(problems))
    out.update(expect=case["expect"], after=rules.state_to_json(after))
    return out


def check_expect(state: MinedState, expect: dict[str, Any]) -> list[str]:
    """What in `state` contradicts `expect` (used by the tests too)."""
    problems = []
    for seat, where in expect.get("at", {}).items():
        at = state.miners[int(seat)].at
        if at != pos(where):
            problems.append(f"seat {seat} at {at}, not {where}")
    for key, attr in (("money", "money"), ("garnets", "garnets"), ("status", "status")):
        for seat, value in expect.get(key, {}).items():
            got = getattr(state.miners[int(seat)], attr)
            if got != value:
                problems.append(f"seat {seat} {key} {got}, not {value}")
    assert state.mine is not None
    for where, value in expect.get("dur", {}).items():
        f, r, c = pos(where)
        got = state.dur[f][r * state.mine.width + c]
        if got != value:
            problems.append(f"{where} durability {got}, not {value}")
    if "pool" in expect and state.pool != expect["pool"]:
        problems.append(f"pool {state.pool}, not {expect['pool']}")
    if "end" in expect and state.end != expect["end"]:
        problems.append(f"end {state.end!r}, not {expect['end']!r}")
    res = state.result
    for key, attr in (("winner", "winner"), ("ec", "ec"), ("how", "how")):
        if key in expect and (res is None or getattr(res, attr) != expect[key]):
            problems.append(f"{key} {None if res is None else getattr(res, attr)!r}, not "
                            f"{expect[key]!r}")
    if "choose_from" in expect and (res is None or list(res.choose_from)
                                    != expect["choose_from"]):
        problems.append(f"choose_from {res}, not {expect['choose_from']}")
    return problems


def maps() -> list[dict[str, Any]]:
    out = []
    for label, width, height, seats in MAP_SEEDS:
        nonces = [hashlib.sha256(f"{label}/{i}".encode()).digest() for i in range(seats)]
        seed = map_seed(SUITE, GAME_ID, nonces)
        out.append({"label": label, "game_id": GAME_ID.hex(),
                    "nonces": [n.hex() for n in nonces], "seed": seed.hex(), "width": width,
                    "height": height, "map": generate_map(SUITE, seed, width, height).text()})
    return out


def build_file() -> dict[str, Any]:
    return {"spec": "spec/rules/mined-games.md section 10", "game_id": GAME_ID.hex(),
            "nonce": bytes(32).hex(), "cases": [run(c) for c in CASES], "maps": maps()}


def main() -> int:
    global SUITE
    v, args = kit_from_args(argparse.ArgumentParser(description=__doc__))
    SUITE, out = v.S, v.out / "rules" / "mined_games.json"
    text = json.dumps(build_file(), indent=1) + "\n"
    if args.check:
        if not out.exists() or out.read_text() != text:
            print(f"{out} is out of date; run tools/gen_mined_vectors.py", file=sys.stderr)
            return 1
        print(f"{out.name}: {len(CASES)} cases and {len(MAP_SEEDS)} maps match")
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
