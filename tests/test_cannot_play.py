"""The proof that no hand tile is playable (spec/06-proofs.md 6.5).

Complete for a seat that cannot play; refused to a seat that can; rejected after
any single change to the proof, the statement or the context; and the vectors in
spec/vectors/cannot_play.json hold, each negative with its documented code.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from conftest import VECTOR_SUITES, ctx_from, load_vectors, suite_id, with_case
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.cannot_play import (
    CannotPlayProof,
    CannotPlayStatement,
    HandPosition,
    _prove_unchecked,
    partial_opening,
    prove_cannot_play,
    recompute_commitments,
    verify_cannot_play,
)
from protocol.context import Context
from protocol.elgamal import Ciphertext
from protocol.errors import DealerlessError, EncodingError, LocalError, ProofError
from protocol.groups import Element as Point
from protocol.suite import Suite, v2_suite
from protocol.tiles import DOUBLE_SIX, TILE_SETS, Tile, parse_tile

S = v2_suite()  # edwards25519-sha512, dealerless/2
IDENTITY = S.group.identity
G = S.group.generator
L = S.order
base_mul = S.group.base_mul
decode_point = S.decode_point
mul = S.group.mul
add = S.group.add
sub = S.group.sub

VECTORS = load_vectors("cannot_play")
SECRETS = (1234567, 7654321, 1111111)            # three seats; seat 1 proves
JOINT = base_mul(sum(SECRETS) % L)


def deal(tiles: list[Tile], seat: int = 1) -> tuple[HandPosition, ...]:
    """Positions 2, 4, 6, ... holding `tiles`, privately opened to `seat`."""
    hand = []
    for i, t in enumerate(tiles):
        rho = 1000 + 17 * i
        ct = Ciphertext(base_mul(rho), add(DOUBLE_SIX.point(S, t), mul(rho, JOINT)))
        shares = [mul(x, ct.c1) for s, x in enumerate(SECRETS) if s != seat]
        hand.append(HandPosition(2 * i + 2, ct.c1, partial_opening(S, ct, shares)))
    return tuple(hand)


def statement(tiles: list[Tile], forbidden: list[Tile], seat: int = 1) -> CannotPlayStatement:
    return CannotPlayStatement(S, DOUBLE_SIX, base_mul(SECRETS[seat]), deal(tiles, seat),
                               tuple(sorted(forbidden)))


CTX = Context(S, bytes(range(32)), 9, 1)
FRESH = bytes(32)
HAND = [(0, 0), (1, 3), (2, 2)]
FORBIDDEN = [t for t in DOUBLE_SIX.tiles if 5 in t or 6 in t]


def test_round_trip_and_sizes() -> None:
    stmt = statement(HAND, FORBIDDEN)
    proof = prove_cannot_play(SECRETS[1], stmt, CTX, FRESH)
    data = proof.encode(S)
    assert len(data) == 32 * (len(HAND) + len(FORBIDDEN) + 3)
    assert CannotPlayProof.decode(data, stmt) == proof
    verify_cannot_play(stmt, CannotPlayProof.decode(data, stmt), CTX)
    # Hedged nonces: another `fresh` gives another proof of the same claim.
    other = prove_cannot_play(SECRETS[1], stmt, CTX, bytes([1]) * 32)
    assert other.encode(S) != data
    verify_cannot_play(stmt, other, CTX)


tile_lists = st.lists(st.sampled_from(DOUBLE_SIX.tiles), min_size=2, max_size=12, unique=True)


@settings(max_examples=25, deadline=None)
@given(tile_lists, st.integers(1, 6), st.binary(min_size=32, max_size=32))
def test_complete_for_any_split(tiles: list[Tile], split: int, fresh: bytes) -> None:
    """Any hand and any disjoint forbidden set: the proof verifies."""
    split = min(split, len(tiles) - 1)
    stmt = statement(tiles[:split], tiles[split:])
    verify_cannot_play(stmt, prove_cannot_play(SECRETS[1], stmt, CTX, fresh), CTX)


@settings(max_examples=25, deadline=None)
@given(tile_lists, st.integers(1, 6), st.data())
def test_a_seat_holding_a_forbidden_tile_gets_no_proof(tiles: list[Tile], split: int,
                                                       data: st.DataObject) -> None:
    split = min(split, len(tiles) - 1)
    held = data.draw(st.sampled_from(tiles[:split]))
    stmt = statement(tiles[:split], [*tiles[split:], held])
    with pytest.raises(LocalError) as err:
        prove_cannot_play(SECRETS[1], stmt, CTX, FRESH)
    assert err.value.code == "cannot-play/witness"
    # Skipping the prover's own check yields a proof that is rejected (C = O).
    with pytest.raises(ProofError) as bad:
        verify_cannot_play(stmt, _prove_unchecked(SECRETS[1], stmt, CTX, FRESH), CTX)
    assert bad.value.code == "cannot-play/identity"


def test_a_wrong_secret_gets_no_proof() -> None:
    with pytest.raises(LocalError, match="cannot-play/witness"):
        prove_cannot_play(SECRETS[0], statement(HAND, FORBIDDEN), CTX, FRESH)


def _changed(stmt: CannotPlayStatement, proof: CannotPlayProof, which: int,
             delta: int) -> tuple[CannotPlayStatement, CannotPlayProof, Context]:
    """One single change to the proof (0-4), the statement (5-10) or the context (11-13)."""
    other = base_mul(delta)
    h0 = stmt.hand[0]
    k, q = proof.blinded_hand, proof.blinded_forbidden
    changes: list[tuple[CannotPlayStatement, CannotPlayProof, Context]] = [
        (stmt, replace(proof, blinded_hand=(add(k[0], other), *k[1:])), CTX),
        (stmt, replace(proof, blinded_forbidden=(*q[:-1], add(q[-1], other))), CTX),
        (stmt, replace(proof, c=(proof.c + delta) % L), CTX),
        (stmt, replace(proof, z_r=(proof.z_r + delta) % L), CTX),
        (stmt, replace(proof, z_a=(proof.z_a + delta) % L), CTX),
        (replace(stmt, key=add(stmt.key, other)), proof, CTX),
        (replace(stmt, hand=(replace(h0, c1=add(h0.c1, other)), *stmt.hand[1:])), proof, CTX),
        (replace(stmt, hand=(replace(h0, partial=add(h0.partial, other)), *stmt.hand[1:])),
         proof, CTX),
        (replace(stmt, hand=(replace(h0, position=h0.position - 1), *stmt.hand[1:])),
         proof, CTX),
        (replace(stmt, forbidden=((0, 4), *stmt.forbidden[1:])), proof, CTX),
        (replace(stmt, tile_set=TILE_SETS["double-nine"]), proof, CTX),
        (stmt, proof, Context(S, bytes([CTX.game_id[0] ^ 1]) + CTX.game_id[1:], CTX.step,
                              CTX.seat)),
        (stmt, proof, Context(S, CTX.game_id, CTX.step + 1, CTX.seat)),
        (stmt, proof, Context(S, CTX.game_id, CTX.step, CTX.seat + 1)),
    ]
    return changes[which]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 13), st.integers(1, L - 1))
def test_any_single_change_is_rejected(which: int, delta: int) -> None:
    stmt = statement(HAND, FORBIDDEN)
    proof = prove_cannot_play(SECRETS[1], stmt, CTX, FRESH)
    with pytest.raises(ProofError) as err:
        verify_cannot_play(*_changed(stmt, proof, which, delta))
    assert err.value.code == "cannot-play/challenge"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 32 * (len(HAND) + len(FORBIDDEN) + 3) - 1), st.integers(1, 255))
def test_any_changed_byte_is_rejected(offset: int, xor: int) -> None:
    """Hostile bytes: every corruption fails with a typed error, never an exception."""
    stmt = statement(HAND, FORBIDDEN)
    data = bytearray(prove_cannot_play(SECRETS[1], stmt, CTX, FRESH).encode(S))
    data[offset] ^= xor
    with pytest.raises((EncodingError, ProofError)):
        verify_cannot_play(stmt, CannotPlayProof.decode(bytes(data), stmt), CTX)


@pytest.mark.parametrize("size", [0, 1, 31, 32 * 19 - 1, 32 * 19 + 1, 32 * 20, 10**5])
def test_wrong_sizes_are_encoding_errors(size: int) -> None:
    stmt = statement(HAND, FORBIDDEN)
    assert 32 * (len(HAND) + len(FORBIDDEN) + 3) == 32 * 19
    with pytest.raises(EncodingError) as err:
        CannotPlayProof.decode(bytes(size), stmt)
    assert err.value.code == "cannot-play/length"


def test_statement_limits() -> None:
    hand = deal(HAND)
    key = base_mul(SECRETS[1])
    bad: list[tuple[Any, str]] = [
        ((DOUBLE_SIX, key, (), ((0, 5),)), "cannot-play/size"),
        ((DOUBLE_SIX, key, hand, ()), "cannot-play/size"),
        ((DOUBLE_SIX, key, (hand[1], hand[0]), ((0, 5),)), "cannot-play/order"),
        ((DOUBLE_SIX, key, (hand[0], hand[0]), ((0, 5),)), "cannot-play/order"),
        ((DOUBLE_SIX, key, hand, ((0, 6), (0, 5))), "cannot-play/order"),
        ((DOUBLE_SIX, key, hand, ((0, 5), (0, 5))), "cannot-play/order"),
        ((DOUBLE_SIX, key, hand, ((0, 7),)), "tile/not-in-set"),
    ]
    for args, code in bad:
        with pytest.raises(LocalError) as err:
            CannotPlayStatement(S, *args)
        assert err.value.code == code
    with pytest.raises(LocalError, match="nonce/fresh-too-short"):
        prove_cannot_play(SECRETS[1], statement(HAND, FORBIDDEN), CTX, bytes(31))


def test_verifier_equations_give_back_the_prover_commitments() -> None:
    """T_0' = z_a*G - z_r*Y_s is T_0 = (k_a - k_r*x)*G; the hand tiles stay hidden."""
    stmt = statement(HAND, FORBIDDEN)
    proof = prove_cannot_play(SECRETS[1], stmt, CTX, FRESH)
    t0 = recompute_commitments(stmt, proof)[0]
    assert t0 == sub(base_mul(proof.z_a), mul(proof.z_r, stmt.key))
    assert len(recompute_commitments(stmt, proof)) == 1 + len(HAND) + len(FORBIDDEN)
    assert not {p.data for p in proof.blinded_hand} & {p.data for p in DOUBLE_SIX.points(S)}
    assert G not in proof.blinded_hand and IDENTITY not in proof.blinded_hand


# --- vectors (cannot_play.json of every vector set) ------------------------------------
SETS = [(s, load_vectors("cannot_play", s)) for s in VECTOR_SUITES]


def each(part: str) -> list[Any]:
    return [pytest.param(s, vec, vs["positive"], id=f"{suite_id(s)}: {vec['name']}")
            for s, vs in SETS for vec in vs[part]]


def _statement_from(S: Suite, v: dict[str, Any]) -> CannotPlayStatement:
    def point(hex_: str) -> Point:
        return S.decode_point(bytes.fromhex(hex_))

    hand = []
    for e in v["positions"]:
        c1 = point(e["c1"])
        if "shares" in e:
            ct = Ciphertext(c1, point(e["c2"]))
            partial = partial_opening(S, ct, [point(d) for d in e["shares"]])
            assert partial.data.hex() == e["partial"]
        else:
            partial = point(e["partial"])
        hand.append(HandPosition(e["position"], c1, partial))
    return CannotPlayStatement(S, TILE_SETS[v["set"]], point(v["key"]), tuple(hand),
                               tuple(parse_tile(t) for t in v["forbidden"]))


def _check(S: Suite, v: dict[str, Any]) -> str:
    try:
        stmt = _statement_from(S, v)
        proof = CannotPlayProof.decode(bytes.fromhex(v["proof"]), stmt)
        verify_cannot_play(stmt, proof, ctx_from(v["context"], S))
    except DealerlessError as exc:
        return exc.code
    return "ok"


@pytest.mark.parametrize(("S", "vec", "positives"), each("positive"))
def test_positive_vectors(S: Suite, vec: dict[str, Any], positives: list[Any]) -> None:
    assert _check(S, vec) == "ok"
    stmt, ctx = _statement_from(S, vec), ctx_from(vec["context"], S)
    proof = prove_cannot_play(int(vec["secret"]), stmt, ctx, bytes.fromhex(vec["fresh"]))
    assert proof.encode(S).hex() == vec["proof"]
    assert [p.data.hex() for p in proof.blinded_hand] == vec["blinded_hand"]
    assert [p.data.hex() for p in proof.blinded_forbidden] == vec["blinded_forbidden"]
    assert [p.data.hex() for p in recompute_commitments(stmt, proof)] == vec["commitments"]
    assert (str(proof.c), str(proof.z_r), str(proof.z_a)) == (
        vec["challenge"], vec["z_r"], vec["z_a"])


@pytest.mark.parametrize(("S", "vec", "positives"), each("negative"))
def test_negative_vectors(S: Suite, vec: dict[str, Any], positives: list[Any]) -> None:
    assert _check(S, with_case(vec, positives)) == vec["expected"]


@pytest.mark.parametrize(("S", "vec", "positives"), each("refuse"))
def test_prover_refuses(S: Suite, vec: dict[str, Any], positives: list[Any]) -> None:
    v = with_case(vec, positives)
    with pytest.raises(LocalError) as err:
        prove_cannot_play(int(v["secret"]), _statement_from(S, v), ctx_from(v["context"], S),
                          bytes.fromhex(v["fresh"]))
    assert err.value.code == vec["expected"]


@pytest.mark.parametrize(("S", "V"), SETS, ids=[suite_id(s) for s, _ in SETS])
def test_every_required_negative_kind_is_present(S: Suite, V: dict[str, Any]) -> None:
    codes = {v["expected"] for v in V["negative"]}
    # Each group refuses what it can be sent: ristretto255 has no torsion, and only
    # edwards25519 has points of small order (conftest / tools/vector_common.py).
    kinds = {"edwards25519": {"point/torsion", "point/small-order"},
             "bls12381g1": {"point/torsion"}}.get(S.group.name, set())
    assert {"cannot-play/challenge", "cannot-play/identity", "cannot-play/length",
            "cannot-play/size", "cannot-play/order", "point/identity",
            "point/not-on-curve", "point/non-canonical", "scalar/out-of-range",
            *kinds} <= codes
    names = " ".join(v["name"] for v in V["negative"])
    assert "wrong context" in names and "wrong forbidden set" in names and "tampered" in names
