#!/usr/bin/env python3
"""Generate the chain programs' negative dispute packages:
spec/vectors/suites/bls12381g1-sha256/disputes/chain.packages and chain.json.

    python tools/gen_chain_vectors.py          # rewrite the files
    python tools/gen_chain_vectors.py --check  # exit 1 if they differ

A program that judges a package inside a chain's VM reads the bytes itself (spec/11-verify.md
11.4), so it can go wrong where the reference's libraries never do: elements that blst or
EIP-2537 decode differently (non-canonical, off the curve, outside the subgroup, of the
wrong length), scalars at or above the group order, and packages cut short or with an
item too many. Each package here breaks one such rule in a frame a seat really signed
(the seeded Bram table of tools/gen_disputes.py), in a state, in a setup or in the
package itself; chain.json gives check_step's verdict, as index.json does for the others.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import gen_disputes
from gen_disputes import Case, Crafter, at, records, sha256, verdict_json

from peers.table.selfplay import tables_in
from protocol.canonical import pack, unpack
from protocol.frames import MessageType
from protocol.state import Phase
from protocol.suite import suite

S = suite("bls12381g1-sha256", 3)
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "spec" / "vectors" / "suites" / S.name / "disputes"
GROUP = ROOT / "spec" / "vectors" / "suites" / S.name / "group.json"


def bad_points() -> dict[str, bytes]:
    """The refused encodings of the suite's group vectors, by their name there."""
    points = json.loads(GROUP.read_text())["points"]
    return {p["name"]: bytes.fromhex(p["hex"]) for p in points if p["expected"] != "ok"}


def scalar_at_least_order(extra: int) -> bytes:
    return (S.order + extra).to_bytes(32, "big")


def element_cases() -> list[Case]:
    """Each refused element and scalar in a KEY, a SHUFFLE, a DEAL and a MOVE."""
    c = Crafter("bram", {"komi_halves": 0}, ("greedy", "greedy"), 11)
    cases: list[Case] = []

    def add(name: str, wire: bytes) -> None:
        cases.append((name, c.package(wire), c.state.hash(c.game.rules, S)))

    mtype, (key, proof, commit) = c.body(0)
    for name, bad in bad_points().items():
        add(f"KEY share: {name}", c.frame(0, mtype, [bad, proof, commit]))
    add("KEY proof's s = r", c.frame(0, mtype, [key, proof[:32] + scalar_at_least_order(0),
                                                commit]))
    add("KEY proof's c = r + 1", c.frame(0, mtype, [key, scalar_at_least_order(1) + proof[32:],
                                                    commit]))
    c.advance(at(Phase.SHUFFLE))
    mtype, (deck, sproof) = c.body(0)
    torsion = bad_points()["x = 4, outside the subgroup"]
    add("SHUFFLE output deck's fifth element outside the subgroup",
        c.frame(0, mtype, [deck[:4 * 48] + torsion + deck[5 * 48:], sproof]))
    noncanonical = bad_points()["x = p"]
    add("SHUFFLE proof's first element non-canonical",
        c.frame(0, mtype, [deck, noncanonical + sproof[48:]]))
    add("SHUFFLE proof's last scalar = r",
        c.frame(0, mtype, [deck, sproof[:-32] + scalar_at_least_order(0)]))
    c.advance(at(Phase.DEAL))
    mtype, (rows, dproof) = c.body(0)
    off = bad_points()["x = 1, off the curve"]
    add("DEAL's third share off the curve",
        c.frame(0, mtype, [[*rows[:2], [rows[2][0], off], *rows[3:]], dproof]))
    add("DEAL's batch proof's c = r", c.frame(0, mtype, [rows, scalar_at_least_order(0)
                                                          + dproof[32:]]))
    c.advance(at(Phase.PLAY))
    seat = c.due()
    mtype, (move_id, pos, share, mproof, *_) = c.body(seat)
    if pos is None:
        raise RuntimeError("the seeded first move must play a tile")
    add("MOVE opening's share outside the subgroup",
        c.frame(seat, mtype, [move_id, pos, torsion, mproof]))
    add("MOVE opening's proof s = r + 5",
        c.frame(seat, mtype, [move_id, pos, share, mproof[:32] + scalar_at_least_order(5)]))
    return cases


def package_cases() -> list[Case]:
    """Packages cut short, with an item too many, or holding a refused element outside
    any frame: in the setup's keys and in a state."""
    c = Crafter("bram", {"komi_halves": 0}, ("greedy", "greedy"), 11)
    c.advance(at(Phase.SHUFFLE))
    package = c.package(c.frame(0, *c.body(0)))
    committed = c.state.hash(c.game.rules, S)
    items = unpack(package, len(package))
    torsion = bad_points()["x = 4, outside the subgroup"]
    setup = unpack(items[2], 4096)
    state = unpack(items[4], 1 << 17)
    return [
        ("package cut in its last byte", package[:-1], committed),
        ("package cut in half", package[:len(package) // 2], committed),
        ("package with an eighth item", pack([*items, b""]), committed),
        ("package followed by a byte", package + b"\x00", committed),
        ("package whose frame has a ninth payload item",
         pack([*items[:5], _ninth(c), items[6]]), committed),
        ("setup whose second key is outside the subgroup",
         pack([*items[:2], pack([*setup[:4], [setup[4][0], torsion], *setup[5:]]),
               *items[3:]]), None),
        ("state whose first key share is outside the subgroup, no committed hash",
         pack([*items[:4], pack(state | {"key_shares": [torsion, state["key_shares"][1]]}),
               *items[5:]]), None),
    ]


def _ninth(c: Crafter) -> bytes:
    """A KEY-phase-later frame signed over a payload of nine items (8.4: array(8))."""
    from protocol.frames import signed_message

    s = c.state
    payload = pack([S.version, c.game.game_id, s.seq, s.prev, 0, int(MessageType.SHUFFLE),
                    s.hash(c.game.rules, S), c.body(0)[1], None])
    seed = c.table.agents[0].identity.seed
    return pack([payload, S.signer.sign(seed, signed_message(S.version, payload), b"")])


def build() -> dict[str, bytes]:
    cases = element_cases() + package_cases()
    vectors: list[dict[str, Any]] = [
        {"name": name, "record": i, "package_sha256": sha256(p),
         "committed_state_hash": None if h is None else h.hex(), **verdict_json(p, h)}
        for i, (name, p, h) in enumerate(cases)]
    index = {"about": {"generated_by": "python tools/gen_chain_vectors.py",
                       "spec": "spec/11-verify.md 11.4; spec/02-group.md 2.5",
                       "format": "chain.packages is records u32be(len) || package"},
             "packages": "chain.packages", "steps": vectors}
    return {"chain.packages": records([p for _, p, _ in cases]),
            "chain.json": (json.dumps(index, indent=1, sort_keys=True) + "\n").encode()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    gen_disputes.S = S
    with tables_in(S):
        files = build()
    stale = [n for n, b in files.items() if not (OUT / n).exists() or (OUT / n).read_bytes() != b]
    if args.check:
        if stale:
            print("stale chain vectors: " + ", ".join(stale) + " (run python "
                  "tools/gen_chain_vectors.py)", file=sys.stderr)
            return 1
        return 0
    for name in stale:
        (OUT / name).write_bytes(files[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
