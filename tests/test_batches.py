"""The random linear combinations of dealerless/3 (spec/06-proofs.md 6.3.1,
spec/07-shuffle.md 7.5.1): an honest batch verifies, and one wrong item anywhere in it,
however it is offset, is caught with the proof's code."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import outcome
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.context import Context
from protocol.deck import initial_deck, shuffle_round
from protocol.dleq_batch import prove_dleq_batch, verify_dleq_batch
from protocol.shuffle import verify_shuffle
from protocol.suite import SUITE_NAMES, Suite, suite
from protocol.tiles import DOUBLE_SIX
from protocol.version import PROTOCOL

SUITES = [suite(name, PROTOCOL) for name in SUITE_NAMES]
GAME = bytes(range(32))


@pytest.mark.parametrize("S", SUITES, ids=SUITE_NAMES)
@settings(max_examples=8, deadline=None)
@given(n=st.integers(1, 6), data=st.data())
def test_one_wrong_share_fails_the_batch(S: Suite, n: int, data: st.DataObject) -> None:
    g = S.group
    x = data.draw(st.integers(1, S.order - 1))
    c1s = [g.base_mul(data.draw(st.integers(1, S.order - 1))) for _ in range(n)]
    ctx = Context(S, GAME, 4, 1)
    shares, proof = prove_dleq_batch(x, c1s, ctx, bytes(32))
    key = g.base_mul(x)
    assert outcome(lambda: verify_dleq_batch(key, c1s, shares, proof, ctx)) == "ok"
    j = data.draw(st.integers(0, n - 1))
    off = g.base_mul(data.draw(st.integers(1, S.order - 1)))
    bad = [*shares[:j], g.add(shares[j], off), *shares[j + 1:]]
    assert outcome(lambda: verify_dleq_batch(key, c1s, bad, proof, ctx)) == "dleq/challenge"


@pytest.mark.parametrize("S", SUITES, ids=SUITE_NAMES)
def test_a_wrong_response_of_any_chain_equation_fails_the_shuffle(S: Suite) -> None:
    """A changed s^_i moves no value the challenge hashes (7.5.1): only the combined
    check of the t^ can see it, at every position."""
    g = S.group
    key = g.base_mul(7)
    deck = initial_deck(S, DOUBLE_SIX, DOUBLE_SIX.tiles[:5], key)
    ctx = Context(S, GAME, 1, 0)
    out, proof = shuffle_round(deck, key, ctx, bytes(32), b"s" * 32)
    verify_shuffle(deck, out, key, proof, ctx)
    for i in range(len(deck)):
        s_hat = list(proof.s_hat)
        s_hat[i] = (s_hat[i] + 1) % S.order
        bad = dataclasses.replace(proof, s_hat=tuple(s_hat))
        assert outcome(lambda b=bad: verify_shuffle(deck, out, key, b, ctx)) == \
            "shuffle/challenge"
