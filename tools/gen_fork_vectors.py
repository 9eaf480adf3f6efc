#!/usr/bin/env python3
"""Generate fork.json: contested places and which branch keeps them
(spec/10-session.md 10.8 "Two frames for one place").

    python tools/gen_fork_vectors.py [--suite S]          # rewrite the file
    python tools/gen_fork_vectors.py [--suite S] --check  # exit 1 if it differs

Without --suite, spec/vectors/fork.json (dealerless/2, edwards25519-sha512); with it,
spec/vectors/suites/S/fork.json.

A four-seat Mined Games table in stage 0 (the map seed: no orders to choose). Every
identity, seed, setup nonce and `fresh` input is SHA-512("dealerless-vectors/" || label)
truncated to 32 bytes, so anyone can regenerate the file. spec/vectors/README.md
documents every field.
"""

from __future__ import annotations

import sys
from typing import Any

from vector_common import Kit, seed, write_or_check_suite

from protocol.fork import branch, takes_place
from protocol.frames import parse_frame
from protocol.identity import Identity
from protocol.referee import Referee
from protocol.seat import SeatAgent
from protocol.setup import GameSetup

SEATS = 4


IDS = [Identity(seed(f"fork/identity/{i}")) for i in range(SEATS)]
#: The table of the suite being written, and its base chain (set by `use`).
SETUP: GameSetup
CHAIN: list[bytes]
OPENINGS: list[dict[int, bytes]]


class Chain:
    """A chain being built: a referee and seats of its own to sign on (each chain keeps
    its own seats' openings), and the wires signed on it so far."""

    def __init__(self, prefix: list[bytes], openings: list[dict[int, bytes]] | None = None
                 ) -> None:
        self.ref = Referee(SETUP)
        for w in prefix:
            self.ref.receive(w)
        self.agents = [SeatAgent(self.ref.game, i, IDS[i], seed(f"fork/seat-secret/{i}"))
                       for i in range(SEATS)]
        for agent, kept in zip(self.agents, openings or [], strict=False):
            agent.restore_openings(self.ref.state, kept)
        self.wires: list[bytes] = []

    def add(self, wire: bytes) -> Chain:
        self.ref.receive(wire)
        self.wires.append(wire)
        return self

    def owed(self, label: str) -> Chain:
        state = self.ref.state
        return self.add(self.agents[state.turn].next_frame(state, seed(f"fork/{label}"),
                                                           lambda v: None))

    def absent(self, seat: int, label: str) -> Chain:
        return self.add(self.agents[seat].declare_absent(self.ref.state,
                                                         seed(f"fork/{label}")))


def base_chain() -> tuple[list[bytes], list[dict[int, bytes]]]:
    """KEY 0-3, COMMIT 0-3, OPEN 0, then seat 2's declaration against seat 1's OPEN (no
    share: t = 2 of its seal's 3 holders) and seat 3's, the t-th, with its share; seat 2's
    share, which opens seat 1's seal, and seat 2's OPEN; and what each seat keeps to open
    its COMMIT."""
    c = Chain([])
    for i in range(9):
        c.owed(f"base/{i}")
        if i == 7:
            openings = [a.openings(c.ref.state) for a in c.agents]
    c.absent(2, "base/absent-2").absent(3, "base/absent-3").absent(2, "base/share-2")
    for agent, kept in zip(c.agents, openings, strict=True):
        agent.restore_openings(c.ref.state, kept)
    return c.owed("base/open-2").wires, openings


def use(v: Kit) -> None:
    """Play the suite's table and base chain, which every case builds on."""
    global SETUP, CHAIN, OPENINGS
    SETUP = GameSetup.create("mined-games", {"seats": SEATS, "rounds": 1},
                             [i.frame_key(v.S) for i in IDS],
                             [seed(f"fork/setup-nonce/{i}") for i in range(SEATS)], v.S)
    CHAIN, OPENINGS = base_chain()


COMMIT_PLACE = 5     # seat 1 owes its COMMIT
OPEN_PLACE = 9       # seat 1 owes its OPEN; seat 2 has declared at 10, seat 3 shared at 11
LAST_OPEN_PLACE = 13  # seat 3 owes the stage's last OPEN


def case(name: str, note: str, place: int, *branches: list[bytes]) -> dict[str, Any]:
    ref = Chain(CHAIN[:place]).ref
    judged = [branch(ref.game, ref.state, [parse_frame(w, SETUP.suite) for w in ws])
              for ws in branches]
    assert [len(b.frames) for b in judged] == [len(ws) for ws in branches], name
    winner = next(i for i, b in enumerate(judged)
                  if not any(takes_place(other, b) for other in judged if other is not b))
    for i, b in enumerate(judged):   # the rule orders the rivals totally
        for other in judged[i + 1:]:
            assert takes_place(b, other) != takes_place(other, b), name
    first, second = sorted(judged, key=lambda b: b.key)[:2]
    rule = next(i + 1 for i, (x, y) in enumerate(zip(first.key[:3], second.key[:3],
                                                        strict=True)) if x != y) \
        if first.key[:3] != second.key[:3] else 4
    return {"name": name, "note": note, "prefix": place,
            "branches": [[w.hex() for w in ws] for ws in branches],
            "opened": [b.opened for b in judged], "shared": [b.shared for b in judged],
            "signers": [b.signers for b in judged], "winner": winner, "rule": rule}


def cases() -> list[dict[str, Any]]:
    p = CHAIN[:COMMIT_PLACE]
    out = [
        case("late-commit-keeps-its-place",
             "neither discloses: the late COMMIT comes before the declaration",
             COMMIT_PLACE, Chain(p).absent(3, "c1/absent-3").wires,
             Chain(p).owed("c1/commit-1").wires),
        case("lower-declarer-takes",
             "two declarations: the lower seat's", COMMIT_PLACE,
             Chain(p).absent(2, "c2/absent-2").wires, Chain(p).absent(3, "c2/absent-3").wires),
        case("declarer-signed-on-both-branches",
             "seat 2 also signed its COMMIT after seat 1's: two seats signed that branch, "
             "one the declaration's, so the COMMIT keeps the place (rule 3)", COMMIT_PLACE,
             Chain(p).absent(2, "c3/absent-2").wires,
             Chain(p).owed("c3/commit-1").owed("c3/commit-2").wires),
    ]
    q = CHAIN[:COMMIT_PLACE + 1]
    out.append(case("three-rivals",
                    "seat 2 owes its COMMIT: declarations by seats 0 and 1 and its late "
                    "COMMIT, on whose branch seat 0 declared seat 3 absent; one key per "
                    "branch orders all three: two seats signed the late COMMIT's branch",
                    COMMIT_PLACE + 1, Chain(q).absent(0, "c4/absent-0").wires,
                    Chain(q).absent(1, "c4/absent-1").wires,
                    Chain(q).owed("c4/commit-2").absent(0, "c4/absent-0-on-3").wires))
    table = (Chain(p, OPENINGS).owed("c5/commit-1").owed("c5/commit-2")
             .absent(0, "c5/absent-0").absent(1, "c5/absent-1"))   # seat 3 forfeits
    late = Chain(p).absent(3, "c5/late-3").wires
    out.append(case("late-declaration-before-anything-is-revealed",
                    "seat 3 released its declaration after the table declared it absent, "
                    "before any OPEN: nothing disclosed, and three seats signed the table's "
                    "branch, one the declaration",
                    COMMIT_PLACE, late, list(table.wires)))
    shared = Chain(p, OPENINGS).owed("c6/commit-1").owed("c6/commit-2").owed("c6/commit-3")
    shared.absent(1, "c6/absent-1").absent(2, "c6/absent-2")   # seat 0 is slow to open
    out.append(case("late-declaration-after-a-share",
                    "seat 3 released its declaration after seats 1 and 2 declared seat 0 "
                    "absent at its OPEN, the second with its share: a share discloses "
                    "part of a seal (a seat holding the others could open it), so the "
                    "table's branch keeps the place",
                    COMMIT_PLACE, Chain(p).absent(3, "c6/late-3").wires, list(shared.wires)))
    table.owed("c5/open-0")
    out.append(case("late-declaration-after-an-open",
                    "the same declaration once the table opened seat 0's seal: the table's "
                    "branch reveals more and keeps the place (the late ABSENT, issue 30)",
                    COMMIT_PLACE, late, list(table.wires)))
    r = CHAIN[:OPEN_PLACE]
    out.append(case("open-beats-a-declaration",
                    "the OPEN opens seat 1's seal; the first declaration against it "
                    "carries no share (shares wait for t = 2 declarations): the OPEN keeps "
                    "the place", OPEN_PLACE, Chain(r, OPENINGS).owed("o1/open-1").wires,
                    Chain(r).absent(3, "o1/absent-3").wires))
    out.append(case("three-rivals-at-an-open",
                    "the OPEN against two first declarations: the OPEN opened a seal, and "
                    "of the two declarations the lower seat's comes first", OPEN_PLACE,
                    Chain(r, OPENINGS).owed("o3/open-1").wires,
                    Chain(r).absent(2, "o3/absent-2").wires,
                    Chain(r).absent(0, "o3/absent-0").wires))
    r = CHAIN[:OPEN_PLACE + 1]
    out.append(case("open-beats-one-share",
                    "with seat 2's declaration in, seat 3's is the t-th and carries its "
                    "share: one share opens nothing, and the OPEN keeps the place",
                    OPEN_PLACE + 1, Chain(r, OPENINGS).owed("o5/open-1").wires,
                    Chain(r).absent(3, "o5/absent-3").wires))
    r = CHAIN[:OPEN_PLACE + 2]
    out.append(case("three-rivals-all-revealing",
                    "with seat 3's share in, the OPEN and two completing shares (seat 2's, "
                    "a second frame of its own, and seat 0's) each open seat 1's seal: the "
                    "owed OPEN comes first",
                    OPEN_PLACE + 2, Chain(r, OPENINGS).owed("o4/open-1").wires,
                    Chain(r).absent(2, "o4/absent-2").wires,
                    Chain(r).absent(0, "o4/absent-0").wires))
    out.append(case("completing-shares-by-rank",
                    "with seat 3's share in, seat 0's and seat 2's shares each complete the "
                    "table's opening: both open the same seal with the same signers' "
                    "count, and the lower seat's comes first",
                    OPEN_PLACE + 2, Chain(r).absent(2, "o2/absent-2").wires,
                    Chain(r).absent(0, "o2/absent-0").wires))
    r = CHAIN[:LAST_OPEN_PLACE]
    out.append(case("an-opening-that-ends-the-stage",
                    "seat 3's late OPEN, the stage's last, against the table's opening of "
                    "its seal from shares, which resolved the stage (the next holds no nonce "
                    "of it): both opened the seal, and three seats signed the table's branch",
                    LAST_OPEN_PLACE, Chain(r, OPENINGS).owed("s1/open-3").wires,
                    Chain(r).absent(0, "s1/absent-0").absent(1, "s1/absent-1")
                    .absent(2, "s1/share-2").wires))
    return out


def document(v: Kit) -> dict[str, Any]:
    use(v)
    return {
        "about": "Contested places (spec/10-session.md 10.8): a four-seat Mined Games "
                 "setup, its chain, and cases each giving a prefix of that chain (its "
                 "first `prefix` frames) and the rival branches built on it (frame wires, "
                 "the rival first); `opened`, `shared` and `signers` count each branch's "
                 "opened seals, the other seals it posted shares of and the seats that "
                 "signed it, `winner` is the index of the branch that keeps the place and "
                 "`rule` the rule (1 to 4) that set it before the next branch. Generated "
                 "by tools/gen_fork_vectors.py.",
        "setup": SETUP.encode().hex(),
        "chain": [w.hex() for w in CHAIN],
        "cases": cases(),
    }


def main() -> int:
    return write_or_check_suite("fork.json", document, __doc__, sort_keys=False)


if __name__ == "__main__":
    sys.exit(main())
