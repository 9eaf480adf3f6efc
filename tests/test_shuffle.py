"""The Terelius-Wikstrom shuffle proof and the deck lifecycle (spec/05-deck.md, 07-shuffle.md)."""

from __future__ import annotations

import dataclasses
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.context import Context
from protocol.deck import (
    initial_deck,
    joint_key,
    make_share,
    open_tile,
    own_share,
    shuffle_round,
    verify_share,
)
from protocol.elgamal import Ciphertext, decode_deck, encode_deck, reencrypt
from protocol.errors import DeckError, LocalError, ProofError
from protocol.groups import Element as Point
from protocol.shuffle import (
    ShuffleProof,
    ShuffleWitness,
    apply_shuffle,
    derive_witness,
    prove_shuffle,
    verify_shuffle,
)
from protocol.suite import v2_suite
from protocol.tiles import DOUBLE_NINE, DOUBLE_SIX, DOUBLE_TWELVE, TileSet

S = v2_suite()  # edwards25519-sha512, dealerless/2
L = S.order
base_mul = S.group.base_mul
add = S.group.add
mul = S.group.mul

GAME = bytes(range(32))
SECRET = b"a seat's secret, 32 bytes or more"


def setup(n: int, seats: int = 2, ts: TileSet = DOUBLE_SIX, seed: int = 1):
    xs = [(seed * 7919 + i * 104729) % L or 1 for i in range(seats)]
    key = joint_key(S, [base_mul(x) for x in xs])
    return xs, key, initial_deck(S, ts, ts.tiles[:n], key)


def test_shuffle_proof_is_complete_and_round_trips() -> None:
    _, key, deck = setup(27)
    ctx = Context(S, GAME, 1, 0)
    out, proof = shuffle_round(deck, key, ctx, os.urandom(32), SECRET)
    blob = proof.encode(S)
    assert len(blob) == 128 * 27 + 160
    assert ShuffleProof.decode(S, blob, 27) == proof
    verify_shuffle(deck, decode_deck(S, encode_deck(out)), key, proof, ctx)


@pytest.mark.parametrize("secret", [b"", bytes(31), b"seat secret"])
def test_a_shuffle_secret_shorter_than_32_bytes_is_refused(secret: bytes) -> None:
    _, key, deck = setup(3)
    with pytest.raises(LocalError) as caught:
        shuffle_round(deck, key, Context(S, GAME, 1, 0), bytes(32), secret)
    assert caught.value.code == "shuffle/secret-too-short"
    shuffle_round(deck, key, Context(S, GAME, 1, 0), bytes(32), bytes(32))  # 32 bytes is enough


N_SMALL = 4
_, KEY, DECK = setup(N_SMALL)
CTX = Context(S, GAME, 5, 1)
OUT, PROOF = shuffle_round(DECK, KEY, CTX, bytes(32), SECRET)


def _tweak_point(p: Point, delta: int) -> Point:
    return add(p, base_mul(delta))


def _tamper(kind: str, index: int, delta: int):
    """Return (deck_in, deck_out, key, proof, ctx) with exactly one element changed."""
    deck_in, deck_out, key, proof, ctx = list(DECK), list(OUT), KEY, PROOF, CTX
    i = index % N_SMALL
    if kind in ("commitments", "chain"):
        pts = list(getattr(proof, kind))
        pts[i] = _tweak_point(pts[i], delta)
        proof = dataclasses.replace(proof, **{kind: tuple(pts)})
    elif kind in ("s_hat", "s_prime"):
        xs = list(getattr(proof, kind))
        xs[i] = (xs[i] + delta) % L
        proof = dataclasses.replace(proof, **{kind: tuple(xs)})
    elif kind in ("challenge", "s1", "s2", "s3", "s4"):
        proof = dataclasses.replace(proof, **{kind: (getattr(proof, kind) + delta) % L})
    elif kind in ("in.c1", "in.c2", "out.c1", "out.c2"):
        deck = deck_in if kind.startswith("in") else deck_out
        ct = deck[i]
        deck[i] = (Ciphertext(_tweak_point(ct.c1, delta), ct.c2) if kind.endswith("c1")
                   else Ciphertext(ct.c1, _tweak_point(ct.c2, delta)))
    elif kind == "key":
        key = _tweak_point(key, delta)
    elif kind == "game_id":
        ctx = Context(S, bytes([ctx.game_id[0] ^ (1 + delta % 255)]) + ctx.game_id[1:], 5, 1)
    elif kind == "step":
        ctx = Context(S, GAME, 5 + 1 + delta % 1000, 1)
    elif kind == "seat":
        ctx = Context(S, GAME, 5, (1 + 1 + delta % 6) % 8)
    return tuple(deck_in), tuple(deck_out), key, proof, ctx


KINDS = ["commitments", "chain", "s_hat", "s_prime", "challenge", "s1", "s2", "s3", "s4",
         "in.c1", "in.c2", "out.c1", "out.c2", "key", "game_id", "step", "seat"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(KINDS), st.integers(0, N_SMALL - 1), st.integers(1, L - 1))
def test_any_single_change_to_proof_statement_or_context_is_rejected(kind: str, index: int,
                                                                     delta: int) -> None:
    verify_shuffle(DECK, OUT, KEY, PROOF, CTX)  # the untouched proof holds
    with pytest.raises(ProofError):
        verify_shuffle(*_tamper(kind, index, delta))


@pytest.mark.parametrize("kind", KINDS)
def test_each_element_kind_is_bound(kind: str) -> None:
    with pytest.raises(ProofError):
        verify_shuffle(*_tamper(kind, 2, 12345))


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 8), st.sampled_from([DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE]),
       st.integers(1, 10**9), st.data())
def test_full_round_by_k_seats_then_openings_give_every_tile_once(
        seats: int, ts: TileSet, seed: int, data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 12))
    subset = data.draw(st.permutations(ts.tiles))[:n]
    xs = [(seed * 31 + i * 7) % L or 1 for i in range(seats)]
    keys = [base_mul(x) for x in xs]
    key = joint_key(S, keys)
    deck = initial_deck(S, ts, subset, key)
    for seat in range(seats):
        ctx = Context(S, GAME, 1, seat)
        out, proof = shuffle_round(deck, key, ctx, seed.to_bytes(32, "big") + bytes([seat]),
                                   bytes([seat]) * 32)
        verify_shuffle(deck, out, key, proof, ctx)
        deck = out
    opened = []
    for pos, ct in enumerate(deck):
        to_seat = pos % seats  # private opening to one seat; the others publish shares
        shares = []
        for seat in range(seats):
            if seat == to_seat:
                continue
            ctx = Context(S, GAME, 2 + pos, seat)
            ds = make_share(xs[seat], ct, ctx, bytes(32))
            verify_share(keys[seat], ct, ds, ctx)
            shares.append(ds.share)
        with pytest.raises(DeckError):  # without the owner's share it is no tile
            open_tile(S, ts, ct, shares)
        opened.append(open_tile(S, ts, ct, [*shares, own_share(S, xs[to_seat], ct)]))
    assert sorted(opened) == sorted(subset)


# --- dishonest shufflers -------------------------------------------------------------

def _prove_dishonest(out: tuple[Ciphertext, ...], witness: ShuffleWitness) -> ShuffleProof:
    """A cheater runs the honest prover on an output that is not a shuffle."""
    return prove_shuffle(DECK27, out, KEY27, witness, CTX27, bytes(32))


_, KEY27, DECK27 = setup(27, ts=DOUBLE_SIX)
CTX27 = Context(S, GAME, 1, 0)
W27 = derive_witness(S, 27, b"\x07" * 32)
HONEST27 = apply_shuffle(S, DECK27, KEY27, W27)


def test_honest_baseline() -> None:
    verify_shuffle(DECK27, HONEST27, KEY27, _prove_dishonest(HONEST27, W27), CTX27)


def test_dropped_and_duplicated_tile_is_caught() -> None:
    out = list(HONEST27)
    out[3] = reencrypt(S, out[4], 99, KEY27)  # tile at 3 dropped, tile at 4 duplicated
    with pytest.raises(ProofError):
        verify_shuffle(DECK27, tuple(out), KEY27, _prove_dishonest(tuple(out), W27), CTX27)


def test_substituted_tile_is_caught() -> None:
    out = list(HONEST27)
    double_six = DOUBLE_SIX.point(S, (6, 6))   # not in the 27-tile deck
    out[0] = Ciphertext(base_mul(5), add(double_six, mul(5, KEY27)))
    with pytest.raises(ProofError):
        verify_shuffle(DECK27, tuple(out), KEY27, _prove_dishonest(tuple(out), W27), CTX27)


def test_inconsistent_randomness_is_caught() -> None:
    lied = ShuffleWitness(W27.permutation, (W27.randomness[0] + 1, *W27.randomness[1:]))
    with pytest.raises(ProofError):
        verify_shuffle(DECK27, HONEST27, KEY27, _prove_dishonest(HONEST27, lied), CTX27)
    # Re-encrypting c1 and c2 with different randomness changes the plaintext.
    out = list(HONEST27)
    ct = DECK27[W27.permutation[0]]
    r = W27.randomness[0]
    out[0] = Ciphertext(add(ct.c1, base_mul(r)), add(ct.c2, mul(r + 1, KEY27)))
    with pytest.raises(ProofError):
        verify_shuffle(DECK27, tuple(out), KEY27, _prove_dishonest(tuple(out), W27), CTX27)


def test_wrong_permutation_claimed_is_caught() -> None:
    perm = list(W27.permutation)
    perm[0], perm[1] = perm[1], perm[0]
    with pytest.raises(ProofError):
        verify_shuffle(DECK27, HONEST27, KEY27,
                       _prove_dishonest(HONEST27, ShuffleWitness(tuple(perm), W27.randomness)),
                       CTX27)


def test_proof_for_another_deck_size_is_rejected() -> None:
    with pytest.raises(ProofError):
        verify_shuffle(DECK, OUT, KEY, dataclasses.replace(PROOF, s_hat=PROOF.s_hat[:-1]), CTX)
