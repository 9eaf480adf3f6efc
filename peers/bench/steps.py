"""The benchmark's proof steps (spec/09-bench.md): a shuffle, a DLEQ share and the worst
"cannot play" claim, each timed as a prover and as a verifier who starts from bytes, in
any suite, with the operation costs sampled beside them."""

from __future__ import annotations

import os
import statistics
from functools import partial
from typing import Any

from peers.bench.ops import Step, sample_op_costs
from peers.bench.ops import random_scalar as _random_scalar
from protocol.cannot_play import (
    CannotPlayProof,
    CannotPlayStatement,
    HandPosition,
    partial_opening,
    prove_cannot_play,
    verify_cannot_play,
)
from protocol.canonical import pack, unpack
from protocol.context import Context
from protocol.deck import (
    initial_deck,
    joint_key,
    make_share,
    make_shares,
    verify_share,
    verify_shares,
)
from protocol.elgamal import Ciphertext, decode_deck, encode_deck
from protocol.messages import SharesBody
from protocol.shuffle import (
    ShuffleProof,
    apply_shuffle,
    derive_witness,
    prove_shuffle,
    verify_shuffle,
)
from protocol.suite import Suite, v2_suite
from protocol.tiles import DOUBLE_NINE, DOUBLE_SIX, DOUBLE_TWELVE

SETS = {28: DOUBLE_SIX, 55: DOUBLE_NINE, 91: DOUBLE_TWELVE}


def bench_shuffle(n: int, reps: int, op_samples: dict[str, list[float]],
                  suite: Suite | None = None) -> tuple[dict[str, Step], int]:
    given, suite = suite, suite or v2_suite()
    ts = SETS[n]
    keys = [suite.group.base_mul(_random_scalar()) for _ in range(2)]
    key = joint_key(suite, keys)
    deck = initial_deck(suite, ts, ts.tiles, key)
    ctx = Context(suite, os.urandom(32), 1, 0)
    shuffle, prove, verify = Step(), Step(), Step()
    proof_len = 0
    # One untimed warm-up round first: it derives and caches the public generators
    # h, h_i (fixed constants, not per-shuffle work) and warms the caches.
    for rep in range(reps + 1):
        if rep == 1:
            for step in (shuffle, prove, verify):
                step.samples.clear()
        # Its MSMs: of N terms (both sides), and of 2N + 1 (the t^ of 7.5.1).
        sample_op_costs(op_samples, suite=given, msm_sizes=(n, 2 * n + 1))
        fresh = os.urandom(32)
        witness = derive_witness(suite, n, fresh)
        deck_in = deck
        out = shuffle.run(partial(apply_shuffle, suite, deck_in, key, witness))
        proof = prove.run(partial(prove_shuffle, deck_in, out, key, witness, ctx, fresh))
        wire_deck, wire_proof = encode_deck(out), proof.encode(suite)
        proof_len = len(wire_proof)

        def receive_and_verify(d: bytes = wire_deck, p: bytes = wire_proof,
                               e: tuple[Any, ...] = deck_in) -> None:
            # The verifier starts from bytes: strict decoding (point validation) is its work.
            verify_shuffle(e, decode_deck(suite, d), key, ShuffleProof.decode(suite, p, n), ctx)

        verify.run(receive_and_verify)
        deck = out
    return {"shuffle": shuffle, "prove": prove, "verify": verify}, proof_len


def _shuffle_report(n: int, steps: dict[str, Step], proof_len: int,
                    costs: dict[str, float]) -> dict[str, Any]:
    rep: dict[str, Any] = {name: step.report(costs) for name, step in steps.items()}
    rep["proof_bytes"] = proof_len
    rep["op_costs_us"] = {name: us * 1e6 for name, us in costs.items()}
    total_s = sum(rep[s]["median_ms"] for s in steps) / 1e3
    rep["V_per_tile"] = total_s / n / costs.get("V", costs["var"])
    return rep


#: The shares of the benchmark's batch: a DEAL of Bram's game (13 positions, 8.5).
BATCH_SHARES = 13


def bench_dleq(reps: int, op_samples: dict[str, list[float]], batch: int = 20,
               suite: Suite | None = None) -> dict[str, Step]:
    """One share proven alone (6.3, a MOVE's opening), and a DEAL's 13 shares proven as
    the suite's version sends them (6.3.1 from dealerless/3), each verified from its
    frame body's bytes."""
    given, suite = suite, suite or v2_suite()
    x = _random_scalar()
    key = suite.group.base_mul(x)
    deck = initial_deck(suite, DOUBLE_SIX, DOUBLE_SIX.tiles[:BATCH_SHARES], key)
    ct = deck[0]
    ctx = Context(suite, os.urandom(32), 2, 0)
    fresh = os.urandom(32)
    share = make_share(x, ct, ctx, fresh)
    shares, proofs = make_shares(x, deck, ctx, fresh)
    body = pack(SharesBody(tuple(range(BATCH_SHARES)), tuple(shares),
                           tuple(proofs)).encode(suite))

    def receive_and_verify() -> None:
        got = SharesBody.decode(suite, unpack(body, len(body)))
        verify_shares(key, deck, got.shares, got.proofs, ctx)

    steps = {name: Step() for name in ("prove", "verify", "deal_prove", "deal_verify")}
    for _ in range(reps):
        sample_op_costs(op_samples, suite=given, msm_sizes=(BATCH_SHARES, 2 * BATCH_SHARES))
        steps["prove"].run_batch(partial(make_share, x, ct, ctx, fresh), batch)
        steps["verify"].run_batch(partial(verify_share, key, ct, share, ctx), batch)
        steps["deal_prove"].run_batch(partial(make_shares, x, deck, ctx, fresh), 2)
        steps["deal_verify"].run_batch(receive_and_verify, 2)
    return steps


def cannot_play_statement(seats: int = 4, seat: int = 0,
                          suite: Suite | None = None) -> tuple[int, CannotPlayStatement]:
    """The worst true 15-tile claim of spec 6.5.7: double-twelve, the hand the 15 tiles
    with both ends in 0..4, forbidden every tile with an end in 5..12 (76 tiles)."""
    suite = suite or v2_suite()
    g = suite.group
    ts = DOUBLE_TWELVE
    xs = [_random_scalar() for _ in range(seats)]
    key = joint_key(suite, [g.base_mul(x) for x in xs])
    hand = []
    for j, t in enumerate(t for t in ts.tiles if t[1] <= 4):
        rho = _random_scalar()
        ct = Ciphertext(g.base_mul(rho), g.add(ts.point(suite, t), g.mul(rho, key)))
        shares = [g.mul(x, ct.c1) for i, x in enumerate(xs) if i != seat]
        hand.append(HandPosition(2 * j + 1, ct.c1, partial_opening(suite, ct, shares)))
    forbidden = tuple(t for t in ts.tiles if t[1] >= 5)
    return xs[seat], CannotPlayStatement(suite, ts, g.base_mul(xs[seat]), tuple(hand),
                                         forbidden)


def bench_cannot_play(reps: int, op_samples: dict[str, list[float]], suite: Suite | None = None
                      ) -> tuple[dict[str, Step], CannotPlayStatement, int]:
    given, suite = suite, suite or v2_suite()
    x, stmt = cannot_play_statement(suite=suite)
    ctx = Context(suite, os.urandom(32), 5, 0)
    prove, verify = Step(), Step()
    size = 0
    for rep in range(reps + 1):          # one untimed warm-up (tile-point table, caches)
        if rep == 1:
            prove.samples.clear()
            verify.samples.clear()
        sample_op_costs(op_samples, suite=given)
        proof = prove.run(partial(prove_cannot_play, x, stmt, ctx, os.urandom(32)))
        wire = proof.encode(suite)
        size = len(wire)
        verify.run(partial(_verify_proof, stmt, wire, ctx))
    return {"prove": prove, "verify": verify}, stmt, size


def _verify_proof(stmt: CannotPlayStatement, wire: bytes, ctx: Context) -> None:
    """The verifier's side starts from the proof's bytes; the statement is its own state."""
    verify_cannot_play(stmt, CannotPlayProof.decode(wire, stmt), ctx)


def _cannot_play_report(steps: dict[str, Step], stmt: CannotPlayStatement, size: int,
                        costs: dict[str, float]) -> dict[str, Any]:
    rep: dict[str, Any] = {name: step.report(costs) for name, step in steps.items()}
    v = costs.get("V", costs["var"])
    for name in steps:
        rep[name]["V"] = rep[name]["median_ms"] / 1e3 / v
        rep[name]["floor_V"] = rep[name]["floor_ms"] / 1e3 / v
    rep.update({"set": stmt.tile_set.name, "hand": len(stmt.hand),
                "forbidden": len(stmt.forbidden), "proof_bytes": size,
                "op_costs_us": {name: us * 1e6 for name, us in costs.items()}})
    return rep


def _medians(samples: dict[str, list[float]]) -> dict[str, float]:
    return {name: statistics.median(v) for name, v in samples.items()}
