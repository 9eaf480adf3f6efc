"""Schnorr and DLEQ proofs: complete, and sound against any single change (spec/06-proofs.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.context import Context
from protocol.dleq import DleqProof, prove_dleq, verify_dleq
from protocol.errors import ProofError
from protocol.schnorr import SchnorrProof, prove_key, verify_key
from protocol.suite import v2_suite

S = v2_suite()  # edwards25519-sha512, dealerless/2
L = S.order
base_mul = S.group.base_mul
add = S.group.add

scalars = st.integers(min_value=1, max_value=L - 1)
contexts = st.builds(Context, st.just(S), st.binary(min_size=32, max_size=32),
                     st.integers(0, 2**64 - 1), st.integers(0, 7))
fresh = st.binary(min_size=32, max_size=32)


@given(scalars, contexts, fresh)
def test_schnorr_is_complete(x: int, ctx: Context, f: bytes) -> None:
    proof = prove_key(x, ctx, f)
    verify_key(base_mul(x), proof, ctx)
    assert SchnorrProof.decode(S, proof.encode(S)) == proof


@given(scalars, scalars, contexts, fresh)
def test_dleq_is_complete(x: int, r: int, ctx: Context, f: bytes) -> None:
    c1 = base_mul(r)
    share, proof = prove_dleq(x, c1, ctx, f)
    verify_dleq(base_mul(x), c1, share, proof, ctx)
    assert DleqProof.decode(S, proof.encode(S)) == proof


def _other_context(ctx: Context, which: int) -> Context:
    if which == 0:
        return Context(S, bytes([ctx.game_id[0] ^ 1]) + ctx.game_id[1:], ctx.step, ctx.seat)
    if which == 1:
        return Context(S, ctx.game_id, (ctx.step + 1) % 2**64, ctx.seat)
    return Context(S, ctx.game_id, ctx.step, (ctx.seat + 1) % 8)


@settings(max_examples=60)
@given(scalars, contexts, fresh, st.integers(0, 4), st.integers(1, L - 1))
def test_schnorr_rejects_any_single_change(x: int, ctx: Context, f: bytes, which: int,
                                           delta: int) -> None:
    proof = prove_key(x, ctx, f)
    key = base_mul(x)
    if which == 0:
        args = (key, SchnorrProof((proof.c + delta) % L, proof.s), ctx)
    elif which == 1:
        args = (key, SchnorrProof(proof.c, (proof.s + delta) % L), ctx)
    elif which == 2:
        args = (base_mul((x + delta) % L or x % (L - 1) + 1), proof, ctx)
    else:
        args = (key, proof, _other_context(ctx, which - 3 + delta % 2))
    with pytest.raises(ProofError):
        verify_key(*args)


@settings(max_examples=60)
@given(scalars, scalars, contexts, fresh, st.integers(0, 7), st.integers(1, L - 1))
def test_dleq_rejects_any_single_change(x: int, r: int, ctx: Context, f: bytes, which: int,
                                        delta: int) -> None:
    c1 = base_mul(r)
    share, proof = prove_dleq(x, c1, ctx, f)
    key = base_mul(x)
    other = base_mul(delta)
    cases = [
        (key, c1, share, DleqProof((proof.c + delta) % L, proof.s), ctx),
        (key, c1, share, DleqProof(proof.c, (proof.s + delta) % L), ctx),
        (add(key, other), c1, share, proof, ctx),
        (key, add(c1, other), share, proof, ctx),
        (key, c1, add(share, other), proof, ctx),
        (key, c1, share, proof, _other_context(ctx, 0)),
        (key, c1, share, proof, _other_context(ctx, 1)),
        (key, c1, share, proof, _other_context(ctx, 2)),
    ]
    with pytest.raises(ProofError):
        verify_dleq(*cases[which])


def test_a_share_made_with_another_secret_is_caught() -> None:
    ctx = Context(S, bytes(32), 1, 0)
    c1 = base_mul(12345)
    share, proof = prove_dleq(777, c1, ctx, bytes(32))
    with pytest.raises(ProofError):
        verify_dleq(base_mul(778), c1, share, proof, ctx)
