"""The core's vectors in spec/vectors/ hold for this implementation (spec/vectors/README.md).

Positive vectors must verify and reproduce every intermediate value; every
negative vector must be rejected with exactly its documented error code.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import VECTOR_SUITES, ctx_from, load_vectors, outcome, suite_id, vector_dir, with_case

from protocol.context import Context
from protocol.deck import DecryptionShare, joint_key, open_tile, verify_share
from protocol.dleq import DleqProof, verify_dleq
from protocol.dleq_batch import batch_seed, batch_weights, prove_dleq_batch, verify_dleq_batch
from protocol.elgamal import decode_deck, encode_deck
from protocol.schnorr import SchnorrProof, verify_key
from protocol.shuffle import (
    ShuffleProof,
    apply_shuffle,
    commitment_base,
    commitment_generators,
    derive_witness,
    recompute_shuffle,
    shuffle_hedge,
    verify_shuffle,
)
from protocol.suite import Suite
from protocol.tags import Tag, tags
from protocol.tiles import TILE_SETS, parse_tile

ROOT = Path(__file__).resolve().parent.parent
FILES = ("group", "schnorr", "dleq", "shuffle", "deck", "tiles")
#: (suite, {file name: vectors}) for every vector set (conftest.VECTOR_SUITES).
SETS = [(s, {name: load_vectors(name, s) for name in FILES}) for s in VECTOR_SUITES]
IDS = [suite_id(s) for s, _ in SETS]


def each(file: str, part: str) -> list[Any]:
    """(suite, vector) for every entry of `part` of `file` in every set, with ids."""
    return [pytest.param(s, vec, id=f"{suite_id(s)}: {vec.get('name', '')}")
            for s, vs in SETS for vec in vs[file][part]]


@pytest.mark.parametrize(("S", "vec"), each("group", "scalars"))
def test_scalar_decoding(S: Suite, vec: dict[str, Any]) -> None:
    assert outcome(lambda: S.decode_scalar(bytes.fromhex(vec["hex"]))) == vec["expected"]
    if vec["expected"] == "ok":
        assert S.decode_scalar(bytes.fromhex(vec["hex"])) == int(vec["value"])


@pytest.mark.parametrize(("S", "vec"), each("group", "points"))
def test_point_decoding(S: Suite, vec: dict[str, Any]) -> None:
    assert outcome(lambda: S.decode_point(bytes.fromhex(vec["hex"]))) == vec["expected"]
    if "scalar" in vec:
        assert S.group.base_mul(int(vec["scalar"])).data.hex() == vec["hex"]


@pytest.mark.parametrize(("S", "V"), SETS, ids=IDS)
def test_hash_table_and_hash_vectors(S: Suite, V: dict[str, Any]) -> None:
    group = V["group"]
    assert group["version"] == S.context.decode()
    assert group["tags"] == {t.name: t.value.decode() for t in tags(S.version)}
    for vec in group["hash"]:
        tag = Tag(vec["tag"].encode())
        parts = [bytes.fromhex(p) for p in vec["parts"]]
        assert S.H(tag, *parts).hex() == vec["digest"]
        if "scalar" in vec:
            assert S.hash_to_scalar(tag, *parts) == int(vec["scalar"])
            assert S.hash_to_point(tag, *parts).data.hex() == vec["point"]
    n = group["nonce"]
    got = S.nonce_scalars(bytes.fromhex(n["label"]), bytes.fromhex(n["secret_bytes"]),
                          bytes.fromhex(n["public"]), bytes.fromhex(n["fresh"]),
                          len(n["scalars"]))
    assert [str(x) for x in got] == n["scalars"]


@pytest.mark.parametrize(("S", "V"), SETS, ids=IDS)
def test_tile_points_and_generators(S: Suite, V: dict[str, Any]) -> None:
    tiles = V["tiles"]
    for name, entries in tiles["sets"].items():
        ts = TILE_SETS[name]
        assert [e["tile"] for e in entries] == [f"{a}-{b}" for a, b in ts.tiles]
        assert [e["point"] for e in entries] == [p.data.hex() for p in ts.points(S)]
    assert tiles["generators"]["h"] == commitment_base(S).data.hex()
    assert tiles["generators"]["h_i"] == [p.data.hex() for p in commitment_generators(S, 91)]
    assert len({*tiles["generators"]["h_i"], tiles["generators"]["h"]}) == 92


def point(S: Suite, hex_: str) -> Any:
    return S.decode_point(bytes.fromhex(hex_))


def check_schnorr(S: Suite, v: dict[str, Any]) -> None:
    verify_key(point(S, v["key"]), SchnorrProof.decode(S, bytes.fromhex(v["proof"])),
               ctx_from(v["context"], S))


def check_dleq(S: Suite, v: dict[str, Any]) -> None:
    verify_dleq(point(S, v["key"]), point(S, v["c1"]), point(S, v["share"]),
                DleqProof.decode(S, bytes.fromhex(v["proof"])), ctx_from(v["context"], S))


def check_shuffle(S: Suite, v: dict[str, Any]) -> None:
    deck_in = decode_deck(S, bytes.fromhex(v["deck_in"]))
    deck_out = decode_deck(S, bytes.fromhex(v["deck_out"]))
    proof = ShuffleProof.decode(S, bytes.fromhex(v["proof"]), v["n"])
    verify_shuffle(deck_in, deck_out, point(S, v["joint_key"]), proof,
                   ctx_from(v["context"], S))


def check_dleq_batch(S: Suite, v: dict[str, Any]) -> None:
    verify_dleq_batch(point(S, v["key"]), [point(S, c) for c in v["c1s"]],
                      [point(S, d) for d in v["shares"]],
                      DleqProof.decode(S, bytes.fromhex(v["proof"])), ctx_from(v["context"], S))


CHECKS = {"schnorr": check_schnorr, "dleq": check_dleq, "shuffle": check_shuffle}
BATCHES = [(s, vs["dleq"]["batch"]) for s, vs in SETS if s.version >= 3]


@pytest.mark.parametrize(("S", "B"), BATCHES, ids=[suite_id(s) for s, _ in BATCHES])
def test_dleq_batch_vectors(S: Suite, B: dict[str, Any]) -> None:
    """6.3.1: each batch verifies and reproduces its seed, weights and proof; each
    negative fails with its code."""
    for vec in B["positive"]:
        ctx, x = ctx_from(vec["context"], S), int(vec["secret"])
        c1s = [point(S, c) for c in vec["c1s"]]
        shares, proof = prove_dleq_batch(x, c1s, ctx, bytes.fromhex(vec["fresh"]))
        assert [d.data.hex() for d in shares] == vec["shares"]
        assert proof.encode(S).hex() == vec["proof"]
        sd = batch_seed(ctx, point(S, vec["key"]), c1s, shares)
        assert sd.hex() == vec["seed"]
        assert [str(w) for w in batch_weights(S, sd, len(c1s))] == vec["weights"]
        assert outcome(lambda v=vec: check_dleq_batch(S, v)) == "ok", vec["name"]
    for vec in B["negative"]:
        got = outcome(lambda v=vec: check_dleq_batch(S, with_case(v, B["positive"])))
        assert got == vec["expected"], vec["name"]


@pytest.mark.parametrize(("S", "V"), SETS, ids=IDS)
@pytest.mark.parametrize("kind", list(CHECKS))
def test_positive_proof_vectors_verify(S: Suite, V: dict[str, Any], kind: str) -> None:
    for vec in V[kind]["positive"]:
        assert outcome(lambda v=vec: CHECKS[kind](S, v)) == "ok", vec["name"]


NEGATIVES = [pytest.param(s, kind, vec, id=f"{suite_id(s)}: {vec['case']}: {vec['name']}")
             for s, vs in SETS for kind in CHECKS for vec in vs[kind]["negative"]]


@pytest.mark.parametrize(("S", "kind", "vec"), NEGATIVES)
def test_negative_vector_rejected_with_documented_error(S: Suite, kind: str,
                                                        vec: dict[str, Any]) -> None:
    positives = next(vs for s, vs in SETS if s is S)[kind]["positive"]
    assert outcome(lambda: CHECKS[kind](S, with_case(vec, positives))) == vec["expected"]


@pytest.mark.parametrize(("S", "V"), SETS, ids=IDS)
def test_every_required_negative_kind_is_present(S: Suite, V: dict[str, Any]) -> None:
    negatives = [n for kind in CHECKS for n in V[kind]["negative"]]
    codes = {v["expected"] for v in negatives}
    names = " ".join(v["name"] for v in negatives)
    # ristretto255 encodes the prime-order group itself: nothing in it has torsion.
    torsion = set() if S.group.name == "ristretto255" else {"point/torsion"}
    assert {"point/identity", "point/non-canonical", "point/not-on-curve",
            "scalar/out-of-range", *torsion} <= codes
    assert "tampered" in names and "wrong context" in names


@pytest.mark.parametrize(("S", "V"), SETS, ids=IDS)
def test_schnorr_and_dleq_intermediates(S: Suite, V: dict[str, Any]) -> None:
    g = S.group
    v = V["schnorr"]["positive"][0]
    k, x, c = int(v["nonce"]), int(v["secret"]), int(v["challenge"])
    assert g.base_mul(x).data.hex() == v["key"]
    assert g.base_mul(k).data.hex() == v["commitment"]
    assert (k + c * x) % S.order == int(v["response"])
    d = V["dleq"]["positive"][0]
    x, k = int(d["secret"]), int(d["nonce"])
    c1 = point(S, d["c1"])
    assert g.mul(x, c1).data.hex() == d["share"]
    assert g.base_mul(k).data.hex() == d["commitment_a"]
    assert g.mul(k, c1).data.hex() == d["commitment_b"]


@pytest.mark.parametrize(("S", "V"), SETS, ids=IDS)
def test_shuffle_intermediates_and_index_convention(S: Suite, V: dict[str, Any]) -> None:
    for v in V["shuffle"]["positive"]:
        deck_in = decode_deck(S, bytes.fromhex(v["deck_in"]))
        key = point(S, v["joint_key"])
        ctx = ctx_from(v["context"], S)
        deck_in_hedge = shuffle_hedge(S.encode_scalar(int(v["secret"])), ctx, deck_in)
        assert deck_in_hedge.hex() == v["hedge"]
        witness = derive_witness(S, v["n"], bytes.fromhex(v["fresh"]), deck_in_hedge)
        assert list(witness.permutation) == v["permutation"]
        assert [str(r) for r in witness.randomness] == v["randomness"]
        # Output i holds input pi(i), re-encrypted with r'_i (spec/07-shuffle.md 7.3).
        assert encode_deck(apply_shuffle(S, deck_in, key, witness)).hex() == v["deck_out"]
        j, r = v["permutation"][0], int(v["randomness"][0])
        out0 = decode_deck(S, bytes.fromhex(v["deck_out"]))[0]
        assert out0.c1 == S.group.add(deck_in[j].c1, S.group.base_mul(r))
        if "u" in v:
            proof = ShuffleProof.decode(S, bytes.fromhex(v["proof"]), v["n"])
            trace = recompute_shuffle(deck_in, decode_deck(S, bytes.fromhex(v["deck_out"])),
                                      key, proof, ctx)
            assert [str(x) for x in trace.u] == v["u"]
            assert [p.data.hex() for p in trace.t] == v["t"]
            assert str(trace.challenge) == v["challenge"]


@pytest.mark.parametrize(("S", "V"), SETS, ids=IDS)
def test_deck_round_vector(S: Suite, V: dict[str, Any]) -> None:
    v = V["deck"]
    ts = TILE_SETS[v["set"]]
    game = bytes.fromhex(v["game_id"])
    keys = [point(S, k) for k in v["keys"]]
    for i, (key, proof) in enumerate(zip(keys, v["key_proofs"], strict=True)):
        verify_key(key, SchnorrProof.decode(S, bytes.fromhex(proof)), Context(S, game, 0, i))
    y = joint_key(S, keys)
    assert y.data.hex() == v["joint_key"]
    deck = decode_deck(S, bytes.fromhex(v["initial_deck"]))
    assert [ts.decode(S, S.group.sub(ct.c2, y)) for ct in deck] == [parse_tile(t)
                                                                    for t in v["tiles"]]
    assert all(ct.c1 == S.group.generator for ct in deck)
    for rnd in v["rounds"]:
        out = decode_deck(S, bytes.fromhex(rnd["deck_out"]))
        verify_shuffle(deck, out, y,
                       ShuffleProof.decode(S, bytes.fromhex(rnd["proof"]), len(deck)),
                       ctx_from(rnd["context"], S))
        deck = out

    def verified_shares(opening: dict[str, Any]) -> list[Any]:
        ct = deck[opening["position"]]
        out = []
        for s in opening["shares"]:
            ds = DecryptionShare(point(S, s["share"]),
                                 DleqProof.decode(S, bytes.fromhex(s["proof"])))
            verify_share(keys[s["seat"]], ct, ds, ctx_from(s["context"], S))
            out.append(ds.share)
        return out

    priv, pub = v["private_opening"], v["public_opening"]
    own = point(S, priv["own_share"])
    assert open_tile(S, ts, deck[priv["position"]],
                     [*verified_shares(priv), own]) == parse_tile(priv["tile"])
    assert open_tile(S, ts, deck[pub["position"]], verified_shares(pub)) == parse_tile(pub["tile"])

    final = decode_deck(S, bytes.fromhex(v["rounds"][-1]["deck_out"]))
    for neg in v["negative"]:
        if neg["check"] == "joint_key":
            bad = [point(S, k) for k in neg["keys"]]
            got = outcome(lambda keys=bad: joint_key(S, keys))
        else:
            shares = [point(S, s) for s in neg["shares"]]
            got = outcome(lambda s=shares, n=neg: open_tile(S, ts, final[n["position"]], s))
        assert got == neg["expected"], neg["name"]


@pytest.mark.parametrize("S", VECTOR_SUITES, ids=suite_id)
def test_vectors_are_reproducible_from_the_generator(S: Suite) -> None:
    suite_args = [] if S.version == 2 else ["--suite", S.name]
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_vectors.py"), "--check",
                           *suite_args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (vector_dir(S) / "cannot_play.json").exists()


def test_independent_implementation_from_the_spec_accepts_every_vector() -> None:
    """tools/independent_check.py was written from spec/ alone; it must agree with the code."""
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "independent_check.py")],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert proc.stdout.rstrip().endswith(" 0 failed")
