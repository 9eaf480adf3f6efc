#!/usr/bin/env python3
"""Generate the single-step (dispute) vectors: spec/vectors/[suites/S/]disputes/.

    python tools/gen_disputes.py [--suite S]          # rewrite the files
    python tools/gen_disputes.py [--suite S] --check  # exit 1 if they differ

Without --suite, of dealerless/2 (edwards25519-sha512) from spec/vectors/transcripts;
with it, of suite S at dealerless/3, from spec/vectors/suites/S/transcripts.

Two kinds of vectors (spec/11-verify.md 11.3 and 11.4):

- `golden`: for every frame of every golden transcript that has a committed state, the
  SHA-256 of its dispute package, the state hash a referee holding the chain commits to,
  and check_step's verdict with that hash. The test suite rebuilds every package from
  the transcript and compares. For a few small transcripts the package bytes themselves
  are in `<name>.packages`.
- `crafted`: packages made to fail one check each, so that every code a step can report
  is expected by some vector: frames that break each check of 10.5 and each body rule of
  8.5, moves the rules refuse (found by trying every move a seat can open at every turn
  of seeded games), and packages that are unusable (11.4 rules 1 to 8).

A `.packages` file is a sequence of records `u32(len) || package` (u32 big-endian).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from dispute_notes import NOTES
from vector_common import kit_from_args

from peers.cheats import mined_games as mined_cheats
from peers.entropy import Entropy
from peers.table.selfplay import Table, tables_in
from protocol.canonical import pack, unpack
from protocol.claims import claim_positions, forbidden_tiles
from protocol.errors import DealerlessError, LocalError, Violation
from protocol.frames import MessageType, parse_frame, signed_message
from protocol.messages import (
    AbsentBody,
    MoveBody,
    NonceBody,
    OpenBody,
    SealKeyBody,
    ShareEntry,
)
from protocol.rules.base import RuleViolation
from protocol.rules.bram_state import PASS
from protocol.seal import decryption_share, prove_share_key, seal_secret
from protocol.sealed import holders_context, stored_seal
from protocol.session import step
from protocol.state import Claim, Phase, PublicState
from protocol.suite import v2_suite
from protocol.verifier import check_step, committed_state_hashes, dispute_packages, make_package

S = v2_suite()  # the suite being written: main() sets it from --suite

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "spec" / "vectors" / "transcripts"
OUT = ROOT / "spec" / "vectors" / "disputes"
#: Goldens whose package bytes are shipped: a whole game, a rules violation, evidence.
WITH_BYTES = ("valid", "illegal-placement", "equivocation")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def records(packages: list[bytes]) -> bytes:
    return b"".join(len(p).to_bytes(4, "big") + p for p in packages)


def read_records(data: bytes) -> Iterator[bytes]:
    pos = 0
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        yield data[pos + 4:pos + 4 + n]
        pos += 4 + n


def verdict_json(package: bytes, committed: bytes | None) -> dict[str, Any]:
    """check_step's verdict as a vector states it (11.4)."""
    try:
        v = check_step(package, committed)
    except DealerlessError as exc:
        return {"usable": False, "code": exc.code}
    if v.violation is None:
        assert v.next_state_hash is not None
        return {"usable": True, "valid": True, "next_state_hash": v.next_state_hash.hex()}
    x = v.violation
    return {"usable": True, "valid": False, "rule": x.code, "seat": x.seat, "frame": x.frame,
            "authenticated": x.authenticated}


def golden_vectors() -> tuple[dict[str, Any], dict[str, bytes]]:
    index = json.loads((GOLDEN / "index.json").read_text())["transcripts"]
    vectors: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    for name in sorted(index):
        data = (GOLDEN / index[name]["file"]).read_bytes()
        if index[name]["frames"] == 0 and index[name]["violation"]:
            continue    # a file refused before its frames (protocol-1) has no step to judge
        committed = committed_state_hashes(data)
        packages = list(dispute_packages(data))
        vectors[name] = {
            "transcript": index[name]["file"],
            "packages": f"{name}.packages" if name in WITH_BYTES else None,
            "steps": [{"index": n, "package_sha256": sha256(p),
                       "committed_state_hash": committed[n].hex(),
                       **verdict_json(p, committed[n])} for n, p in enumerate(packages)]}
        if name in WITH_BYTES:
            files[f"{name}.packages"] = records(packages)
    return vectors, files


# -- crafted packages -----------------------------------------------------------------------

class Crafter:
    """A seeded table plus the means to sign any payload as any of its seats."""

    def __init__(self, rules: str, params: dict[str, Any], bots: tuple[str, ...],
                 seed: int) -> None:
        self.table = Table.create(rules, params, bots, Entropy(seed), in_suite=S)
        self.ref = self.table.referees[0]
        self.game = self.ref.game

    @property
    def state(self) -> PublicState:
        return self.ref.state

    def advance(self, done: Callable[[PublicState], bool]) -> None:
        while not done(self.state):
            if self.table.step() is None:
                raise RuntimeError("the game ended before the point looked for")

    def fresh(self) -> bytes:
        return self.table.entropy.bytes("crafted")

    def frame(self, signer: int, mtype: int, body: Any, **over: Any) -> bytes:
        """A frame signed by `signer` for the current state, any field overridden."""
        s = self.state
        fields = {"version": S.version, "game_id": self.game.game_id, "seq": s.seq,
                  "prev": s.prev, "seat": signer, "type": int(mtype),
                  "state_hash": s.hash(self.game.rules, S), "body": body, **over}
        payload = pack([fields[k] for k in ("version", "game_id", "seq", "prev", "seat",
                                            "type", "state_hash", "body")])
        seed = self.table.agents[signer].identity.seed
        return pack([payload, S.signer.sign(seed, signed_message(S.version, payload), b"")])

    def body(self, seat: int) -> tuple[MessageType, Any]:
        return self.table.agents[seat].body(self.state, self.fresh(), self.table.choosers[seat])

    def package(self, wire: bytes, evidence: tuple[bytes, ...] = ()) -> bytes:
        return make_package(self.game, self.state, wire, evidence)

    def due(self) -> int:
        awaited = self.ref.awaiting
        assert awaited is not None
        return awaited[0]


def at(phase: Phase) -> Callable[[PublicState], bool]:
    return lambda s: s.phase is phase


Case = tuple[str, bytes, bytes | None]   # name, package, committed state hash (None: none)


def frame_cases() -> list[Case]:
    """One package per check of 10.5 and per body rule of 8.5, on a seeded bram game."""
    c = Crafter("bram", {"komi_halves": 0}, ("greedy", "greedy"), 7)
    cases: list[Case] = []

    def add(name: str, wire: bytes, committed: bool = True) -> None:
        cases.append((name, c.package(wire), c.state.hash(c.game.rules, S) if committed
                      else None))

    mtype, key_body = c.body(0)
    add("a dealerless/1 frame", c.frame(0, mtype, key_body, version=1))
    add("frame version 3", c.frame(0, mtype, key_body, version=3))
    add("message type 99", c.frame(0, 99, key_body))
    add("seat 5 of 2", c.frame(0, mtype, key_body, seat=5))
    add("signed over the bare payload, without the 8.3 prefix",
        _unprefixed(c, c.frame(0, mtype, key_body)))
    add("seq 1 at step 0", c.frame(0, mtype, key_body, seq=1))
    add("prev is not the previous frame's hash", c.frame(0, mtype, key_body, prev=b"\x07" * 32))
    add("a NONCE in the keys phase", c.frame(0, MessageType.NONCE, [b"\x00" * 32]))
    add("state hash of another state", c.frame(0, mtype, key_body, state_hash=b"\x01" * 32))
    add("state hash of another state, no committed hash given",
        c.frame(0, mtype, key_body, state_hash=b"\x01" * 32), committed=False)
    honest = c.frame(0, mtype, key_body)
    second = c.frame(0, *c.body(0))  # the same step again, with another proof nonce
    cases.append(("evidence: a second KEY by the same seat", c.package(honest, (second,)),
                  c.state.hash(c.game.rules, S)))
    cases.append(("evidence: a second KEY, then a record that proves nothing",
                  c.package(honest, (second, b"\xc0")), c.state.hash(c.game.rules, S)))
    add("KEY body of two items", c.frame(0, mtype, key_body[:2]))
    add("KEY commitment of 31 bytes", c.frame(0, mtype, [*key_body[:2], key_body[2][:31]]))
    c.advance(at(Phase.NONCES))
    add("nonce does not open the commitment", c.frame(0, MessageType.NONCE,
                                                     NonceBody(b"\x00" * 32).encode()))
    add("NONCE body as a map", c.frame(0, MessageType.NONCE, {"nonce": b"\x00" * 32}))
    c.advance(at(Phase.DEAL))
    mtype, deal = c.body(0)
    rows, with_rows = (deal, list) if S.version < 3 else (deal[0], lambda r: [r, deal[1]])  # 8.5
    add("DEAL missing its last entry", c.frame(0, mtype, with_rows(rows[:-1])))
    add("DEAL entries out of order", c.frame(0, mtype, with_rows([rows[1], rows[0], *rows[2:]])))
    add("DEAL entry position 4096", c.frame(0, mtype, with_rows([[4096, *rows[0][1:]],
                                                                  *rows[1:]])))
    for name, body in () if S.version < 3 else (("without its batch proof", [rows, None]), (
            "of no pairs with a 100-byte proof", [[], b"\0" * 100])):  # 8.5: schema/bytes
        add(f"DEAL {name}", c.frame(0, mtype, body))
    c.advance(at(Phase.PLAY))
    seat = c.due()
    rules = c.game.rules
    hand = c.table.agents[seat].hand_positions(c.state)
    pos = min(hand)
    opening = ShareEntry.decode(S, _entry(c, seat, pos))
    play = next(m for m in rules.legal_moves(c.state.rules_state, tuple(hand.values()))
                if rules.played_tile(m) is not None)
    pass_id = rules.move_id(PASS)
    add("move id 2^20", c.frame(seat, MessageType.MOVE, [1 << 20, None, None, None]))
    add("move id 2^20 + 1", c.frame(seat, MessageType.MOVE, [(1 << 20) + 1, None, None, None]))
    add("a tile played without its opening",
        c.frame(seat, MessageType.MOVE, MoveBody(rules.move_id(play), None).encode(S)))
    add("a pass with an opening",
        c.frame(seat, MessageType.MOVE, MoveBody(pass_id, opening).encode(S)))
    add("a bram move with a claim",
        c.frame(seat, MessageType.MOVE, [pass_id, None, None, None, b"\x00" * 96]))
    add("a partial opening (position only)",
        c.frame(seat, MessageType.MOVE, [rules.move_id(play), pos, None, None]))
    add("MOVE body of three items", c.frame(seat, MessageType.MOVE, [pass_id, None, None]))
    c.advance(at(Phase.DONE))
    add("a frame after the end", c.frame(0, MessageType.REVEAL, []))
    return cases


def _entry(c: Crafter, seat: int, position: int) -> list[Any]:
    share = c.table.agents[seat].share_for(c.state, position, c.fresh())
    return [position, share.share.data, share.proof.encode(S)]


def _unprefixed(c: Crafter, wire: bytes) -> bytes:
    payload, _ = unpack(wire, 1 << 16)
    seat = unpack(payload, 1 << 16)[4]
    return pack([payload, c.table.agents[seat].identity.sign(payload)])


#: What rules_cases finds in the dealerless/2 games: every code a move can be refused with.
RULES_CODES = {"move/missing-claim", *(f"rules/{c}" for c in (
    "already-drew", "boneyard-empty", "double-pending", "draw-not-allowed", "engine-first",
    "hub-full", "hub-only", "line-closed", "must-draw", "no-mexican-train", "no-such-line",
    "no-such-train", "non-canonical-end", "not-holding-now", "pass-not-allowed",
    "tile-does-not-match", "train-closed", "vein-unexplored"))}


def rules_cases() -> list[Case]:
    """For each code a rule set can refuse a move with, the first time some seat could
    send such a move in a seeded game: every move id whose tile (if any) the seat holds,
    at every turn, judged by the rules alone, then built, signed and stepped."""
    found: dict[str, Case] = {}
    games = [("bram", {"komi_halves": 0}, ("greedy", "random"), 1),
             ("mexican-train", {"seats": 3}, ("greedy", "random", "greedy"), 1),
             ("mexican-train", {"seats": 2}, ("greedy", "greedy"), 3),
             ("mineshaft", {"seats": 4}, ("greedy", "random") * 2, 1)]
    # Each suite deals its own games: play later seeds until every code is met.
    more = ((r, p, b, seed + k) for k in range(1, 8) for r, p, b, seed in games)
    for n, (rules, params, bots, seed) in enumerate(itertools.chain(games, more)):
        if n >= len(games) and set(found) >= RULES_CODES:
            break
        c = Crafter(rules, params, bots, seed)
        while c.ref.awaiting is not None:
            if c.state.phase is Phase.PLAY:
                _try_moves(c, found, f"{rules} {params}")
            c.table.step()
    return [found[code] for code in sorted(found)]


def _try_moves(c: Crafter, found: dict[str, Case], where: str) -> None:
    seat, rules, state = c.due(), c.game.rules, c.state
    agent = c.table.agents[seat]
    hand = set(agent.hand_positions(state).values())
    move_id = 0
    while True:
        try:
            move = rules.move_from_id(move_id)
        except DealerlessError:
            return
        move_id += 1
        tile = rules.played_tile(move)
        if tile is not None and tile not in hand:
            continue
        try:
            rules.apply(state.rules_state, seat, move)
            continue
        except RuleViolation as exc:
            if exc.code in found:
                continue
        try:
            body = agent._move_body(state, move, c.fresh()).encode(S)
        except LocalError:  # it cannot prove "cannot play": send the move without a proof
            body = MoveBody(rules.move_id(move), None).encode(S)
        wire = c.frame(seat, MessageType.MOVE, body)
        try:
            step(c.game, state, wire)
        except Violation as v:
            if v.code not in found:
                found[v.code] = (f"{where}, frame {state.seq}: seat {seat} sends "
                                 f"{rules.move_text(move)}", c.package(wire),
                                 state.hash(rules, S))


def draw_cases() -> list[Case]:
    """A DRAW with the wrong position, and a forced pass or draw without its claim."""
    c = Crafter("mexican-train", {"seats": 3}, ("greedy", "random", "greedy"), 1)
    c.advance(at(Phase.DRAW))
    seat = c.due()
    other = next(p for p, o in enumerate(c.state.owners) if o == seat)
    return [("DRAW sharing a position other than the one drawn",
             c.package(c.frame(seat, MessageType.DRAW, c.table.agents[seat].shares_body(
                 c.state, [other], c.fresh()).encode(S))),
             c.state.hash(c.game.rules, S))]


def forged_state_cases() -> list[Case]:
    """States no game reaches, signed by the seat that sends the frame. Only a package
    without a committed state hash can hold one (11.4): the verdict then binds only the
    signer, and blame resting on the state alone is not authenticated."""
    cases: list[Case] = []
    c = Crafter("mexican-train", {"seats": 3}, ("greedy", "random", "greedy"), 1)
    c.advance(lambda s: s.phase is Phase.PLAY and _claims_now(c))
    seat, state = c.due(), c.state
    mtype, body = c.body(seat)
    p = min(c.table.agents[seat].hand_positions(state))
    other = next(i for i in range(c.game.seats) if i != seat)
    row = tuple(None if i == other else x for i, x in enumerate(state.shares[p]))
    forged = state.with_(shares=(*state.shares[:p], row, *state.shares[p + 1:]))
    cases.append(_forged(c, "a claim over a position whose share is missing", forged,
                         c.frame(seat, mtype, body, state_hash=forged.hash(c.game.rules, S))))
    c.advance(lambda s: s.phase is Phase.REVEAL and s.turn == c.game.seats - 1)
    state, last = c.state, c.due()
    claimant, hand = next((i, h) for i in range(c.game.seats)
                          if (h := c.table.agents[i].hand_positions(state)))
    p = min(hand)
    forged = state.with_(claims=(*state.claims, Claim(1, claimant, (p,), (hand[p],))))
    mtype, body = c.body(last)
    cases.append(_forged(c, "the last REVEAL over a state holding a false claim", forged,
                         c.frame(last, mtype, body, state_hash=forged.hash(c.game.rules, S))))
    for seed in range(7, 30):   # seat 0, which revealed first, must hold tiles (seed 7 at v2)
        c = Crafter("bram", {"komi_halves": 0}, ("greedy", "greedy"), seed)
        c.advance(lambda s: s.phase is Phase.REVEAL and s.turn == 1)
        state = c.state
        if hand := c.table.agents[0].hand_positions(state):
            break
    p = min(hand)
    forged = state.with_(played=(*state.played[:p], True, *state.played[p + 1:]),
                         opened=(*state.opened[:p], hand[p], *state.opened[p + 1:]))
    mtype, body = c.body(1)
    cases.append(_forged(c, "the last REVEAL over a state where a held tile is played",
                         forged, c.frame(1, mtype, body,
                                         state_hash=forged.hash(c.game.rules, S))))
    return cases


def _claims_now(c: Crafter) -> bool:
    """Whether the honest move of the seat to play carries a "cannot play" proof."""
    mtype, body = c.body(c.due())
    return mtype is MessageType.MOVE and len(body) == 5


def _nothing_forbidden(c: Crafter) -> bool:
    """Whether the seat to play makes a move that claims it cannot play, holding tiles,
    while the forbidden set F (10.4 PLAY 1a) is empty."""
    seat, state = c.due(), c.state
    mtype, body = c.body(seat)
    return (mtype is MessageType.MOVE and c.game.rules.must_play_if_able(
        state.rules_state, seat, c.game.rules.move_from_id(body[0]))
        and bool(claim_positions(state, seat)) and not forbidden_tiles(c.game, state))


def _forged(c: Crafter, name: str, state: PublicState, wire: bytes) -> Case:
    return name, make_package(c.game, state, wire), None


def mined_cases() -> list[Case]:
    """Mined Games frames (10.8) breaking what only a sealed commit-reveal stage checks."""
    c = Crafter("mined-games", {"seats": 5}, ("greedy", "random") * 2 + ("greedy",), 5)
    cases: list[Case] = []
    t = c.table

    def add(name: str, wire: bytes) -> None:
        cases.append((name, c.package(wire), c.state.hash(c.game.rules, S)))

    key, proof = prove_share_key(S, t.agents[0]._seal_x, c.game.game_id, 1, c.fresh())
    add("KEY whose share key proof is bound to seat 1, signed by seat 0",
        c.frame(0, MessageType.KEY, SealKeyBody(key, proof).encode(S)))
    c.advance(lambda s: s.phase is Phase.COMMIT and s.turn == 1 and s.rules_state.stage == 2)
    stage = c.state.rules_state.stage
    add("COMMIT that is an array of one commitment, not a seal",
        c.frame(1, MessageType.COMMIT, [bytes(32)]))
    for name, body in (("ABSENT of four items", [1, stage, None, None]),
                       ("ABSENT whose third item is nil, not a share", [1, stage, None])):
        add(name, c.frame(3, MessageType.ABSENT, body))
    add("ABSENT by seat 3 naming seat 2, while seat 1 owes",
        c.frame(3, MessageType.ABSENT, AbsentBody(2, stage).encode(S)))
    add("ABSENT by seat 1 naming itself", c.frame(1, MessageType.ABSENT,
                                                   AbsentBody(1, stage).encode(S)))
    orders, nonce = ["UU", 99], bytes(range(32))   # 99 names no action
    seal = mined_cheats.seal_of(t, 1, orders, nonce)
    bad = replace(seal.shares[0], point=S.group.add(seal.shares[0].point, S.group.generator))
    forged = replace(seal, shares=(bad, *seal.shares[1:]))
    add("COMMIT whose share for seat 0 does not match the commitments",
        c.frame(1, MessageType.COMMIT, forged.encode(S)))
    t.deliver(c.frame(1, MessageType.COMMIT, seal.encode(S)))
    c.advance(lambda s: s.phase is Phase.OPEN and s.turn == 1)
    ctx = holders_context(S, c.game.game_id, stage, 1, c.state.rules_state.keys)
    add("OPEN of sealed orders naming no action",
        c.frame(1, MessageType.OPEN, OpenBody(seal_secret(ctx, nonce)).encode(S)))
    add("OPEN whose secret is not below L", c.frame(1, MessageType.OPEN, [bytes([0xff] * 32)]))
    add("OPEN whose secret does not open the seal",
        c.frame(1, MessageType.OPEN, OpenBody(seal_secret(ctx, bytes(32))).encode(S)))
    early = decryption_share(ctx, stored_seal(bytes(c.state.rules_state.commits[1]), ctx), 0,
                             t.agents[0]._seal_x, c.fresh())
    add("ABSENT with a decryption share before t = 3 of 4 holders have declared",
        c.frame(0, MessageType.ABSENT, AbsentBody(1, stage, early).encode(S)))
    for d in (4, 3):
        t.deliver(t.agents[d].declare_absent(c.state, c.fresh()))
    third = t.agents[0].declare_absent(c.state, c.fresh())   # the t-th, with its share
    add("ABSENT whose decryption share is seat 0's but signed by seat 2",
        c.frame(2, MessageType.ABSENT, parse_frame(third, S).body))
    t.deliver(third)
    add("ABSENT without a decryption share once t holders have declared",
        c.frame(2, MessageType.ABSENT, AbsentBody(1, stage).encode(S)))
    add("ABSENT posting seat 0's decryption share a second time",
        c.frame(0, MessageType.ABSENT, parse_frame(third, S).body))
    t.deliver(t.agents[3].declare_absent(c.state, c.fresh()))
    add("ABSENT whose share opens a seal of orders naming no action (seat 1's)",
        t.agents[2].declare_absent(c.state, c.fresh()))
    # Two seats: the other seat alone may not declare (10.8), at a COMMIT or an OPEN.
    c = Crafter("mined-games", {"seats": 2}, ("greedy", "random"), 5)
    for phase in (Phase.COMMIT, Phase.OPEN):
        c.advance(mined_cheats.owes(phase, 1, 2))
        add(f"ABSENT by seat 0 against seat 1's {phase.value.upper()} at a two-seat table",
            c.frame(0, MessageType.ABSENT, AbsentBody(1, 2).encode(S)))
    return cases


def package_cases() -> list[Case]:
    """Packages that are unusable (11.4 rules 1 to 8): no verdict, only the code."""
    c = Crafter("bram", {"komi_halves": 0}, ("greedy", "greedy"), 7)
    c.advance(lambda s: s.phase is Phase.PLAY and sum(t is not None for t in s.opened) > 1)
    mtype, body = c.body(c.due())
    wire = c.frame(c.due(), mtype, body)
    good = unpack(c.package(wire), 1 << 21)
    setup, state = unpack(good[2], 4096), unpack(good[4], 1 << 20)
    committed = c.state.hash(c.game.rules, S)

    def with_state(**change: Any) -> bytes:
        s = {**state, **change}
        return pack([*good[:4], pack({k: v for k, v in s.items() if v is not _DROP}),
                     *good[5:]])

    cases: list[Case] = [
        ("package magic misspelt", pack(["dealerless/disputes", *good[1:]]), None),
        ("package of six items", pack(good[:6]), None),
        ("a dealerless/1 package", pack([good[0], 1, *good[2:]]), None),
        ("a package holding a dealerless/1 setup",
         pack([*good[:2], pack([setup[0], 1, *setup[2:]]), *good[3:]]), None),
        ("setup record is not a setup", pack([*good[:2], b"\x00", *good[3:]]), None),
        ("index is not the state's seq", pack([*good[:3], good[3] + 1, *good[4:]]), None),
        ("state without its claims key", with_state(claims=_DROP), None),
        ("a bram state holding a claim", with_state(claims=[[1, 0, [0], ["0-0"]]]), None),
        ("state with turn nil in phase play", with_state(turn=None), None),
        ("state whose owners are another game's", with_state(owners=state["owners"][::-1]),
         None),
        ("state naming a tile 6-5, not 5-6", with_state(opened=_reversed_tile(state["opened"])),
         None),
        ("state naming a tile 05-6", with_state(opened=[
            None if t is None else "0" + t for t in state["opened"]]), None),
        ("state that is not the committed one", with_state(nonces=state["nonces"][::-1]),
         committed),
        ("evidence of 17 records", pack([*good[:6], [wire] * 17]), None),
        ("package version true", pack([good[0], True, *good[2:]]), None),
        ("state followed by a trailing byte", pack([*good[:4], good[4] + b"\x00", *good[5:]]),
         None),
        ("state whose seq is written as a uint16", pack([*good[:4], _wide_seq(good[4]),
                                                        *good[5:]]), None),
    ]
    return cases


def _wide_seq(state_bytes: bytes) -> bytes:
    """The state with its `seq` value re-written in a uint16 header: a non-minimal
    msgpack header, so not the canonical encoding of any value (8.1 rule 6)."""
    obj = unpack(state_bytes, 1 << 20)
    small = pack("seq") + pack(obj["seq"])
    assert 0 <= obj["seq"] < 128 and state_bytes.count(small) == 1
    return state_bytes.replace(small, pack("seq") + b"\xcd" + obj["seq"].to_bytes(2, "big"))


def settled_claim_cases() -> list[Case]:
    """The order of 10.4 PLAY 1a and the claim's size limit of 8.5, each settled by a
    vector (NOTES says which wrong reading each catches)."""
    c = Crafter("mexican-train", {"seats": 3}, ("greedy", "random", "greedy"), 1)
    c.advance(lambda s: s.phase is Phase.PLAY and _claims_now(c))
    seat, state = c.due(), c.state
    mtype, body = c.body(seat)
    committed = state.hash(c.game.rules, S)
    cases = [(f"a claim of {n} bytes" + (" (h + f = 92, a length 6.5.4 alone would accept)"
                                         if n == 3040 else ""),
              c.package(c.frame(seat, mtype, [*body[:4], bytes(n)])), committed)
             for n in (3009, 3010, 3040)]
    p = min(c.table.agents[seat].hand_positions(state))
    other = next(i for i in range(c.game.seats) if i != seat)
    row = tuple(None if i == other else x for i, x in enumerate(state.shares[p]))
    forged = state.with_(shares=(*state.shares[:p], row, *state.shares[p + 1:]))
    cases.append(_forged(c, "a claim without its proof over a position whose share is "
                         "missing", forged, c.frame(seat, mtype, body[:4],
                                                    state_hash=forged.hash(c.game.rules, S))))
    # Seed 2 reaches a move that must_play_if_able calls a claim while no unopened tile
    # could be played (F empty) and the mover holds tiles: nothing to prove.
    c = Crafter("mexican-train", {"seats": 3}, ("greedy", "random", "greedy"), 2)
    c.advance(lambda s: s.phase is Phase.PLAY and _nothing_forbidden(c))
    seat, state = c.due(), c.state
    mtype, body = c.body(seat)
    assert mtype is MessageType.MOVE and len(body) == 4
    p = min(c.table.agents[seat].hand_positions(state))
    other = next(i for i in range(c.game.seats) if i != seat)
    row = tuple(None if i == other else x for i, x in enumerate(state.shares[p]))
    forged = state.with_(shares=(*state.shares[:p], row, *state.shares[p + 1:]))
    cases.append(_forged(c, "a forced pass with nothing forbidden over a position whose "
                         "share is missing", forged,
                         c.frame(seat, mtype, body, state_hash=forged.hash(c.game.rules, S))))
    return cases


_DROP = object()


def _reversed_tile(opened: list[str | None]) -> list[str | None]:
    """`opened` with its first tile text written high pip first: decodable, but the state
    re-encodes with the canonical text (10.3, `state/non-canonical`)."""
    i = next(i for i, t in enumerate(opened) if t is not None and t[0] != t[-1])
    low, high = opened[i].split("-")  # type: ignore[union-attr]
    return [*opened[:i], f"{high}-{low}", *opened[i + 1:]]


def crafted_vectors() -> tuple[list[dict[str, Any]], bytes]:
    cases = (frame_cases() + draw_cases() + rules_cases() + forged_state_cases()
             + mined_cases() + package_cases() + settled_claim_cases())
    vectors = [{"name": name, "record": i, "package_sha256": sha256(p),
                "committed_state_hash": None if h is None else h.hex(), **verdict_json(p, h),
                **({"note": NOTES[name]} if name in NOTES else {})}
               for i, (name, p, h) in enumerate(cases)]
    return vectors, records([p for _, p, _ in cases])


def build() -> dict[str, bytes]:
    golden, files = golden_vectors()
    crafted, blob = crafted_vectors()
    files["crafted.packages"] = blob
    index = {"about": {"generated_by": "python tools/gen_disputes.py",
                       "spec": "spec/11-verify.md 11.3, 11.4",
                       "format": "a .packages file is records u32be(len) || package"},
             "golden": golden, "crafted": {"packages": "crafted.packages", "steps": crafted}}
    files["index.json"] = (json.dumps(index, indent=1, sort_keys=True) + "\n").encode()
    return files


def main() -> int:
    global S, GOLDEN, OUT
    v, args = kit_from_args(argparse.ArgumentParser(description=__doc__.split("\n")[0]))
    if v.S.version > 2:
        S, GOLDEN, OUT = v.S, v.out / "transcripts", v.out / "disputes"
    with tables_in(S):
        files = build()
    stale = [n for n, b in files.items() if not (OUT / n).exists() or (OUT / n).read_bytes() != b]
    if args.check:
        if stale:
            print("stale dispute vectors: " + ", ".join(stale) + " (run "
                  "python tools/gen_disputes.py)", file=sys.stderr)
            return 1
        return 0
    OUT.mkdir(exist_ok=True)
    for name in stale:
        (OUT / name).write_bytes(files[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
