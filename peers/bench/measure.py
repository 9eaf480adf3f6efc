"""`dealerless bench`: measured costs, operation-count floors and their ratios.

Theory of operation
-------------------
First the cost of each group operation is measured in isolation (median of
several batches). Then each protocol step runs several times; its median time
is compared with its *floor*: the number of group operations it performed
(counted by protocol.group.OPS) times the measured cost of each. The ratio
says how much the step spends beyond the unavoidable group arithmetic (Python
overhead, hashing, encoding). See spec/09-bench.md for every figure's meaning.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable
from functools import partial
from typing import Any

from peers.bench.groups import run_groups
from peers.bench.ops import Step, sample_op_costs
from peers.bench.ops import random_scalar as _random_scalar
from peers.bench.seal import run_seal
from peers.entropy import Entropy
from peers.table.selfplay import Table, selfplay
from protocol.cannot_play import (
    CannotPlayProof,
    CannotPlayStatement,
    HandPosition,
    partial_opening,
    prove_cannot_play,
    verify_cannot_play,
)
from protocol.context import Context
from protocol.deck import initial_deck, joint_key, make_share, verify_share
from protocol.elgamal import Ciphertext, decode_deck, encode_deck
from protocol.shuffle import (
    ShuffleProof,
    apply_shuffle,
    derive_witness,
    prove_shuffle,
    verify_shuffle,
)
from protocol.state import Phase
from protocol.suite import Suite, default_suite
from protocol.tiles import DOUBLE_NINE, DOUBLE_SIX, DOUBLE_TWELVE
from protocol.verifier import replay

SETS = {28: DOUBLE_SIX, 55: DOUBLE_NINE, 91: DOUBLE_TWELVE}


def bench_shuffle(n: int, reps: int, op_samples: dict[str, list[float]],
                  suite: Suite | None = None) -> tuple[dict[str, Step], int]:
    suite = suite or default_suite()
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
        sample_op_costs(op_samples)
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
    rep["V_per_tile"] = total_s / n / costs["var"]
    return rep


def bench_dleq(reps: int, op_samples: dict[str, list[float]], batch: int = 20,
               suite: Suite | None = None) -> dict[str, Step]:
    suite = suite or default_suite()
    x = _random_scalar()
    key = suite.group.base_mul(x)
    deck = initial_deck(suite, DOUBLE_SIX, DOUBLE_SIX.tiles[:1], key)
    ct = deck[0]
    ctx = Context(suite, os.urandom(32), 2, 0)
    fresh = os.urandom(32)
    share = make_share(x, ct, ctx, fresh)
    prove, verify = Step(), Step()
    for _ in range(reps):
        sample_op_costs(op_samples)
        prove.run_batch(partial(make_share, x, ct, ctx, fresh), batch)
        verify.run_batch(partial(verify_share, key, ct, share, ctx), batch)
    return {"prove": prove, "verify": verify}


def cannot_play_statement(seats: int = 4, seat: int = 0,
                          suite: Suite | None = None) -> tuple[int, CannotPlayStatement]:
    """The worst true 15-tile claim of spec 6.5.7: double-twelve, the hand the 15 tiles
    with both ends in 0..4, forbidden every tile with an end in 5..12 (76 tiles)."""
    suite = suite or default_suite()
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
    suite = suite or default_suite()
    x, stmt = cannot_play_statement(suite=suite)
    ctx = Context(suite, os.urandom(32), 5, 0)
    prove, verify = Step(), Step()
    size = 0
    for rep in range(reps + 1):          # one untimed warm-up (tile-point table, caches)
        if rep == 1:
            prove.samples.clear()
            verify.samples.clear()
        sample_op_costs(op_samples)
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
    for name in steps:
        rep[name]["V"] = rep[name]["median_ms"] / 1e3 / costs["var"]
        rep[name]["floor_V"] = rep[name]["floor_ms"] / 1e3 / costs["var"]
    rep.update({"set": stmt.tile_set.name, "hand": len(stmt.hand),
                "forbidden": len(stmt.forbidden), "proof_bytes": size,
                "op_costs_us": {name: us * 1e6 for name, us in costs.items()}})
    return rep


def _medians(samples: dict[str, list[float]]) -> dict[str, float]:
    return {name: statistics.median(v) for name, v in samples.items()}


def bench_game(reps: int, op_samples: dict[str, list[float]]) -> dict[str, Any]:
    """Self-play a Bram game, then verify its transcript (spec/09-bench.md)."""
    play, verify = Step(), Step()
    size = frames = 0
    for _ in range(reps):
        sample_op_costs(op_samples)
        transcript = play.run(lambda: selfplay("bram", {}, ("greedy", "greedy")))
        data = transcript.encode()
        size, frames = len(data), len(transcript.frames)
        verdict = verify.run(partial(replay, data))
        if verdict.exit_code != 0:
            raise RuntimeError(f"bench game did not verify: {verdict.violation}")
    costs = _medians(op_samples)
    return {"selfplay": play.report(costs), "verify": verify.report(costs),
            "transcript_bytes": size, "frames": frames,
            "op_costs_us": {name: us * 1e6 for name, us in costs.items()}}


TABLE_RULES = "mexican-train"


def _table_round(seats: int, setup: Step) -> bytes:
    """One Mexican Train round for `seats` greedy bots, every frame checked once by one
    referee (what the slowest seat waits for: each seat's own work, then everyone's check
    of it, in turn); `setup` times keys, nonces, every shuffle and the deal."""
    table = Table.create(TABLE_RULES, {"seats": seats}, ("greedy",) * seats, Entropy())
    ref = table.referees[0]

    def until(phase: Phase | None) -> None:
        while (due := ref.awaiting) is not None and ref.state.phase is not phase:
            seat = due[0]
            ref.receive(table.agents[seat].next_frame(ref.state, os.urandom(32),
                                                      table.choosers[seat]))

    setup.run(partial(until, Phase.PLAY))
    until(None)
    return ref.transcript().encode()


def bench_table(seats: int, reps: int, op_samples: dict[str, list[float]]) -> dict[str, Any]:
    """A k-seat double-twelve table (spec/09-bench.md): the set-up, then verifying a whole
    round from its transcript."""
    setup, verify = Step(), Step()
    data = b""
    for _ in range(reps):
        sample_op_costs(op_samples)
        data = _table_round(seats, setup)
    for _ in range(reps):
        sample_op_costs(op_samples)
        verdict = verify.run(partial(replay, data))
        if verdict.exit_code != 0:
            raise RuntimeError(f"bench round did not verify: {verdict.violation}")
    costs = _medians(op_samples)
    return {"rules": TABLE_RULES, "seats": seats, "tiles": 91, "setup": setup.report(costs),
            "round_verify": verify.report(costs), "transcript_bytes": len(data),
            "frames": verdict.frames}


def run(reps: int = 9, sizes: tuple[int, ...] = (28, 55, 91), game: bool = True,
        table_seats: int = 8, progress: Callable[[int, int, str], None] | None = None,
        ) -> dict[str, Any]:
    """Every figure of spec/09-bench.md; `progress(steps done, steps, the next step)`."""
    # Clock speed drifts on shared machines, so the operation costs are sampled
    # between the runs of each step, and each step is compared with the costs
    # measured alongside it.
    names = [f"shuffle N={n}" for n in sizes] + ["DLEQ", "cannot play"]
    names += ["a Bram game", f"a {table_seats}-seat table"] if game else []
    counter = iter(range(len(names) + 1))

    def tick() -> None:
        done = next(counter)
        if progress is not None:
            progress(done, len(names), names[done] if done < len(names) else "")

    everything: dict[str, list[float]] = {}
    shuffles = {}
    for n in sizes:
        tick()
        local: dict[str, list[float]] = {}
        steps, proof_len = bench_shuffle(n, reps, local)
        shuffles[str(n)] = _shuffle_report(n, steps, proof_len, _medians(local))
        for name, v in local.items():
            everything.setdefault(name, []).extend(v)
    tick()
    local = {}
    dleq_steps = bench_dleq(reps, local)
    dleq_costs = _medians(local)
    dleq = {name: step.report(dleq_costs) for name, step in dleq_steps.items()}
    for name, v in local.items():
        everything.setdefault(name, []).extend(v)
    tick()
    local = {}
    cp_steps, cp_stmt, cp_size = bench_cannot_play(reps, local)
    cannot_play = _cannot_play_report(cp_steps, cp_stmt, cp_size, _medians(local))
    for name, v in local.items():
        everything.setdefault(name, []).extend(v)
    sealed = run_seal(reps, everything, _medians)
    groups = run_groups(reps)
    ratios = [dleq["prove"]["ratio"], dleq["verify"]["ratio"],
              cannot_play["prove"]["ratio"], cannot_play["verify"]["ratio"]]
    for rep in shuffles.values():
        ratios += [rep["prove"]["ratio"], rep["verify"]["ratio"]]
    extra: dict[str, Any] = {}
    if game:
        tick()
        local = {}
        extra["game"] = bench_game(max(3, reps // 2), local)
        extra["game_verify_floor_ratio"] = extra["game"]["verify"]["ratio"]
        tick()
        extra["table"] = bench_table(table_seats, max(2, reps // 3), local)
        extra["table_setup_ms"] = extra["table"]["setup"]["median_ms"]
        extra["table_verify_floor_ratio"] = extra["table"]["round_verify"]["ratio"]
        for name, v in local.items():
            everything.setdefault(name, []).extend(v)
    tick()
    return {
        **extra,
        "floor_ratio_max": max(ratios),
        "shuffle_V_per_tile": {n: rep["V_per_tile"] for n, rep in shuffles.items()},
        "op_costs_us": {name: us * 1e6 for name, us in _medians(everything).items()},
        "shuffle": shuffles,
        "dleq": dleq,
        "cannot_play": cannot_play,
        "cannot_play_V": {step: cannot_play[step]["V"] for step in ("prove", "verify")},
        "cannot_play_floor_ratio": max(cannot_play["prove"]["ratio"],
                                       cannot_play["verify"]["ratio"]),
        **sealed,
        **groups,
        "reps": reps,
    }

