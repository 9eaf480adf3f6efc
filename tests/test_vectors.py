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
from conftest import ctx_from, load_vectors, with_case

from protocol.context import Context
from protocol.deck import DecryptionShare, joint_key, open_tile, verify_share
from protocol.dleq import DleqProof, verify_dleq
from protocol.elgamal import decode_deck, encode_deck
from protocol.errors import DealerlessError
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
from protocol.suite import v2_suite
from protocol.tags import Tag, tags
from protocol.tiles import TILE_SETS, parse_tile

S = v2_suite()  # edwards25519-sha512, dealerless/2
G = S.group.generator
L = S.order
base_mul = S.group.base_mul
decode_point = S.decode_point
decode_scalar = S.decode_scalar
mul = S.group.mul
scalar_bytes = S.encode_scalar
sub = S.group.sub
add = S.group.add
hash_to_point = S.hash_to_point
hash_to_scalar = S.hash_to_scalar
nonce_scalars = S.nonce_scalars

GROUP = load_vectors("group")
SCHNORR = load_vectors("schnorr")
DLEQ = load_vectors("dleq")
SHUFFLE = load_vectors("shuffle")
DECK = load_vectors("deck")
TILES = load_vectors("tiles")


def outcome(fn: Any) -> str:
    """Run a check; 'ok' if it passes, else the code of the error it raised."""
    try:
        fn()
    except DealerlessError as exc:
        return exc.code
    return "ok"


@pytest.mark.parametrize("vec", GROUP["scalars"], ids=lambda v: v["name"])
def test_scalar_decoding(vec: dict[str, Any]) -> None:
    assert outcome(lambda: decode_scalar(bytes.fromhex(vec["hex"]))) == vec["expected"]
    if vec["expected"] == "ok":
        assert decode_scalar(bytes.fromhex(vec["hex"])) == int(vec["value"])


@pytest.mark.parametrize("vec", GROUP["points"], ids=lambda v: v["name"])
def test_point_decoding(vec: dict[str, Any]) -> None:
    assert outcome(lambda: decode_point(bytes.fromhex(vec["hex"]))) == vec["expected"]
    if "scalar" in vec:
        assert base_mul(int(vec["scalar"])).data.hex() == vec["hex"]


def test_hash_table_and_hash_vectors() -> None:
    assert GROUP["version"] == S.context.decode()
    assert GROUP["tags"] == {t.name: t.value.decode() for t in tags(S.version)}
    for vec in GROUP["hash"]:
        tag = Tag(vec["tag"].encode())
        parts = [bytes.fromhex(p) for p in vec["parts"]]
        assert S.H(tag, *parts).hex() == vec["digest"]
        if "scalar" in vec:
            assert hash_to_scalar(tag, *parts) == int(vec["scalar"])
            assert hash_to_point(tag, *parts).data.hex() == vec["point"]
    n = GROUP["nonce"]
    got = nonce_scalars(bytes.fromhex(n["label"]), bytes.fromhex(n["secret_bytes"]),
                        bytes.fromhex(n["public"]), bytes.fromhex(n["fresh"]), len(n["scalars"]))
    assert [str(x) for x in got] == n["scalars"]


def test_tile_points_and_generators() -> None:
    for name, entries in TILES["sets"].items():
        ts = TILE_SETS[name]
        assert [e["tile"] for e in entries] == [f"{a}-{b}" for a, b in ts.tiles]
        assert [e["point"] for e in entries] == [p.data.hex() for p in ts.points(S)]
    assert TILES["generators"]["h"] == commitment_base(S).data.hex()
    assert TILES["generators"]["h_i"] == [p.data.hex() for p in commitment_generators(S, 91)]
    assert len({*TILES["generators"]["h_i"], TILES["generators"]["h"]}) == 92


def check_schnorr(v: dict[str, Any]) -> None:
    key = decode_point(bytes.fromhex(v["key"]))
    verify_key(key, SchnorrProof.decode(S, bytes.fromhex(v["proof"])), ctx_from(v["context"]))


def check_dleq(v: dict[str, Any]) -> None:
    verify_dleq(decode_point(bytes.fromhex(v["key"])), decode_point(bytes.fromhex(v["c1"])),
                decode_point(bytes.fromhex(v["share"])),
                DleqProof.decode(S, bytes.fromhex(v["proof"])), ctx_from(v["context"]))


def check_shuffle(v: dict[str, Any]) -> None:
    deck_in = decode_deck(S, bytes.fromhex(v["deck_in"]))
    deck_out = decode_deck(S, bytes.fromhex(v["deck_out"]))
    proof = ShuffleProof.decode(S, bytes.fromhex(v["proof"]), v["n"])
    verify_shuffle(deck_in, deck_out, decode_point(bytes.fromhex(v["joint_key"])), proof,
                   ctx_from(v["context"]))


@pytest.mark.parametrize(("vectors", "check"), [(SCHNORR, check_schnorr), (DLEQ, check_dleq),
                                                 (SHUFFLE, check_shuffle)],
                         ids=["schnorr", "dleq", "shuffle"])
def test_positive_proof_vectors_verify(vectors: dict[str, Any], check: Any) -> None:
    for vec in vectors["positive"]:
        assert outcome(lambda v=vec: check(v)) == "ok", vec["name"]


NEGATIVES = ([(v, check_schnorr, SCHNORR) for v in SCHNORR["negative"]]
             + [(v, check_dleq, DLEQ) for v in DLEQ["negative"]]
             + [(v, check_shuffle, SHUFFLE) for v in SHUFFLE["negative"]])


@pytest.mark.parametrize(("vec", "check", "vectors"), NEGATIVES,
                         ids=[f"{v['case']}: {v['name']}" for v, _, _ in NEGATIVES])
def test_negative_vector_rejected_with_documented_error(vec: dict[str, Any], check: Any,
                                                        vectors: dict[str, Any]) -> None:
    assert outcome(lambda: check(with_case(vec, vectors["positive"]))) == vec["expected"]


def test_every_required_negative_kind_is_present() -> None:
    codes = {v["expected"] for v in SCHNORR["negative"] + DLEQ["negative"]
             + SHUFFLE["negative"]}
    names = " ".join(v["name"] for v in SCHNORR["negative"] + DLEQ["negative"]
                     + SHUFFLE["negative"])
    assert {"point/identity", "point/torsion", "point/non-canonical",
            "scalar/out-of-range"} <= codes
    assert "tampered" in names and "wrong context" in names


def test_schnorr_and_dleq_intermediates() -> None:
    v = SCHNORR["positive"][0]
    k, x, c = int(v["nonce"]), int(v["secret"]), int(v["challenge"])
    assert base_mul(x).data.hex() == v["key"]
    assert base_mul(k).data.hex() == v["commitment"]
    assert (k + c * x) % L == int(v["response"])
    d = DLEQ["positive"][0]
    x, k = int(d["secret"]), int(d["nonce"])
    c1 = decode_point(bytes.fromhex(d["c1"]))
    assert mul(x, c1).data.hex() == d["share"]
    assert base_mul(k).data.hex() == d["commitment_a"]
    assert mul(k, c1).data.hex() == d["commitment_b"]


def test_shuffle_intermediates_and_index_convention() -> None:
    for v in SHUFFLE["positive"]:
        deck_in = decode_deck(S, bytes.fromhex(v["deck_in"]))
        key = decode_point(bytes.fromhex(v["joint_key"]))
        deck_in_hedge = shuffle_hedge(scalar_bytes(int(v["secret"])), ctx_from(v["context"]),
                                      deck_in)
        assert deck_in_hedge.hex() == v["hedge"]
        witness = derive_witness(S, v["n"], bytes.fromhex(v["fresh"]), deck_in_hedge)
        assert list(witness.permutation) == v["permutation"]
        assert [str(r) for r in witness.randomness] == v["randomness"]
        # Output i holds input pi(i), re-encrypted with r'_i (spec/07-shuffle.md 7.3).
        assert encode_deck(apply_shuffle(S, deck_in, key, witness)).hex() == v["deck_out"]
        i = 0
        j = v["permutation"][i]
        r = int(v["randomness"][i])
        out0 = decode_deck(S, bytes.fromhex(v["deck_out"]))[0]
        assert out0.c1 == add(deck_in[j].c1, base_mul(r))
        if "u" in v:
            proof = ShuffleProof.decode(S, bytes.fromhex(v["proof"]), v["n"])
            trace = recompute_shuffle(deck_in, decode_deck(S, bytes.fromhex(v["deck_out"])), key,
                                      proof, ctx_from(v["context"]))
            assert [str(x) for x in trace.u] == v["u"]
            assert [p.data.hex() for p in trace.t] == v["t"]
            assert str(trace.challenge) == v["challenge"]


def test_deck_round_vector() -> None:
    v = DECK
    ts = TILE_SETS[v["set"]]
    game = bytes.fromhex(v["game_id"])
    keys = [decode_point(bytes.fromhex(k)) for k in v["keys"]]
    for i, (key, proof) in enumerate(zip(keys, v["key_proofs"], strict=True)):
        verify_key(key, SchnorrProof.decode(S, bytes.fromhex(proof)), Context(S, game, 0, i))
    y = joint_key(S, keys)
    assert y.data.hex() == v["joint_key"]
    deck = decode_deck(S, bytes.fromhex(v["initial_deck"]))
    assert [ts.decode(S, sub(ct.c2, y)) for ct in deck] == [parse_tile(t) for t in v["tiles"]]
    assert all(ct.c1 == G for ct in deck)
    for rnd in v["rounds"]:
        out = decode_deck(S, bytes.fromhex(rnd["deck_out"]))
        verify_shuffle(deck, out, y,
                       ShuffleProof.decode(S, bytes.fromhex(rnd["proof"]), len(deck)),
                       ctx_from(rnd["context"]))
        deck = out
    def verified_shares(opening: dict[str, Any]) -> list[Any]:
        ct = deck[opening["position"]]
        out = []
        for s in opening["shares"]:
            ds = DecryptionShare(decode_point(bytes.fromhex(s["share"])),
                                 DleqProof.decode(S, bytes.fromhex(s["proof"])))
            verify_share(keys[s["seat"]], ct, ds, ctx_from(s["context"]))
            out.append(ds.share)
        return out

    priv, pub = v["private_opening"], v["public_opening"]
    own = decode_point(bytes.fromhex(priv["own_share"]))
    assert open_tile(S, ts, deck[priv["position"]],
                     [*verified_shares(priv), own]) == parse_tile(priv["tile"])
    assert open_tile(S, ts, deck[pub["position"]], verified_shares(pub)) == parse_tile(pub["tile"])


def test_deck_negative_vectors() -> None:
    ts = TILE_SETS[DECK["set"]]
    deck = decode_deck(S, bytes.fromhex(DECK["rounds"][-1]["deck_out"]))
    for neg in DECK["negative"]:
        if neg["check"] == "joint_key":
            keys = [decode_point(bytes.fromhex(k)) for k in neg["keys"]]
            got = outcome(lambda keys=keys: joint_key(S, keys))
        else:
            shares = [decode_point(bytes.fromhex(s)) for s in neg["shares"]]
            got = outcome(lambda s=shares, n=neg: open_tile(S, ts, deck[n["position"]], s))
        assert got == neg["expected"], neg["name"]


def test_vectors_are_reproducible_from_the_generator() -> None:
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, str(root / "tools" / "gen_vectors.py"), "--check"],
                          cwd=root, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_independent_implementation_from_the_spec_accepts_every_vector() -> None:
    """tools/independent_check.py was written from spec/ alone; it must agree with the code."""
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, str(root / "tools" / "independent_check.py")],
                          cwd=root, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert proc.stdout.rstrip().endswith(" 0 failed")
