"""Sealed commitments (spec/06-proofs.md 6.6): round trips, t-of-m opening, and every
tamper refused with its code and the seat to blame."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.errors import LocalError, SealError
from protocol.groups import Element as Point
from protocol.groups.edwards25519 import P_FIELD
from protocol.seal import (
    DecryptionShare,
    Seal,
    SealContext,
    combine,
    deal,
    decryption_share,
    open_with_secret,
    pad,
    prove_share_key,
    seal_context,
    seal_generator,
    seal_secret,
    seal_threshold,
    share_key,
    unpad,
    verify_decryption_share,
    verify_seal,
    verify_share_key,
)
from protocol.seal import _interpolate as interpolate
from protocol.suite import v2_suite

S = v2_suite()  # edwards25519-sha512, dealerless/2
IDENTITY_BYTES = S.group.identity.data
L = S.order
base_mul = S.group.base_mul
scalar_bytes = S.encode_scalar

GAME = bytes(range(32))
NONCE = b"\x11" * 32
FRESH = b"\x22" * 32
SIZE = 40
ORDERS = b"orders: dig east, dig east"
KEYS = {seat: share_key(S, bytes([seat + 1]) * 32, GAME) for seat in range(8)}
COMMITTER = 2

#: Encodings of points every receiver must refuse (2.3).
SMALL_ORDER = bytes(32)  # y = 0: a point of order 4
NON_CANONICAL = (P_FIELD + 1).to_bytes(32, "little")  # y = 1 + p, i.e. the identity's y
BAD_SCALAR = scalar_bytes(L - 1)[:-1] + b"\xff"  # >= L


def make(m: int, committer: int = COMMITTER, stage: int = 3) -> tuple[SealContext, Seal]:
    seats = [s for s in range(8) if s != committer][:m]
    ctx = seal_context(S, GAME, stage, committer, [(s, base_mul(KEYS[s])) for s in seats])
    return ctx, deal(ctx, NONCE, pad(ORDERS, SIZE), FRESH)


def refused(code: str, seat: int, call: Any, *args: Any) -> None:
    with pytest.raises(SealError) as info:
        call(*args)
    assert (info.value.code, info.value.seat) == (code, seat), info.value


def test_threshold_is_a_strict_majority_and_two_seats_share_nothing() -> None:
    assert [seal_threshold(m) for m in range(8)] == [1, 1, 2, 2, 3, 3, 4, 4]
    for m in (0, 1):
        ctx, seal = make(m)
        assert (len(seal.commitments), len(seal.shares), ctx.share_count) == (1, 0, 0)
        verify_seal(ctx, Seal.decode(seal.encode(S), ctx, SIZE))
        with pytest.raises(LocalError, match="seal/no-shares"):
            decryption_share(ctx, seal, ctx.recipients[0][0], KEYS[ctx.recipients[0][0]],
                             FRESH) if m else combine(ctx, seal, {})


@pytest.mark.parametrize("m", [1, 2, 3, 4, 5, 6, 7])
def test_round_trip_and_the_committers_opening(m: int) -> None:
    ctx, seal = make(m)
    back = Seal.decode(seal.encode(S), ctx, SIZE)
    assert back == seal and len(seal.ciphertext) == SIZE
    verify_seal(ctx, back)
    s = seal_secret(ctx, NONCE)
    assert unpad(open_with_secret(ctx, back, s), COMMITTER) == ORDERS


@pytest.mark.parametrize("m", [2, 3, 4, 5])
def test_every_t_subset_opens_and_no_t_minus_1_subset_finds_the_key(m: int) -> None:
    ctx, seal = make(m)
    shares = {}
    for seat, _ in ctx.recipients:
        share = decryption_share(ctx, seal, seat, KEYS[seat], FRESH)
        verify_decryption_share(ctx, seal, seat, DecryptionShare.decode(S, share.encode(S), seat))
        shares[seat] = share.point
    key = base_mul(seal_secret(ctx, NONCE))
    for subset in itertools.combinations(shares, ctx.t):
        picked = {s: shares[s] for s in subset}
        assert interpolate(S.group, picked) == key
        assert unpad(combine(ctx, seal, picked), COMMITTER) == ORDERS
    for subset in itertools.combinations(shares, ctx.t - 1):
        assert interpolate(S.group, {s: shares[s] for s in subset}) != key
        with pytest.raises(LocalError, match="seal/too-few-shares"):
            combine(ctx, seal, {s: shares[s] for s in subset})


def _tampered(value: list[Any], where: tuple[int, ...], new: Any) -> list[Any]:
    out: Any = [list(value[0]), [list(s) for s in value[1]], value[2]]
    target = out
    for i in where[:-1]:
        target = target[i]
    target[where[-1]] = new
    return list(out)


def test_every_tamper_of_a_seal_blames_the_committer() -> None:
    ctx, seal = make(4)
    value = seal.encode(S)
    other = make(4, stage=4)[1].encode(S)

    def refuse(code: str, bad: Any, size: int = SIZE) -> None:
        def check() -> None:
            verify_seal(ctx, Seal.decode(bad, ctx, size))
        refused(code, COMMITTER, check)

    refuse("seal/shape", value[:2])
    refuse("seal/shape", [value[0][:2], value[1], value[2]])
    refuse("seal/shape", [value[0] + [value[0][0]], value[1], value[2]])
    refuse("seal/shape", [value[0], value[1][:3], value[2]])
    refuse("seal/shape", value, SIZE + 1)
    refuse("seal/shape", _tampered(value, (1, 0, 1), 5))
    refuse("point/identity", _tampered(value, (0, 1), IDENTITY_BYTES))
    refuse("point/small-order", _tampered(value, (1, 2, 0), SMALL_ORDER))
    refuse("point/non-canonical", _tampered(value, (0, 0), NON_CANONICAL))
    refuse("point/length", _tampered(value, (0, 0), value[0][0][:31]))
    refuse("scalar/out-of-range", _tampered(value, (1, 3, 2), BAD_SCALAR))
    z = int.from_bytes(value[1][1][2], "little")
    refuse("seal/share-proof", _tampered(value, (1, 1, 2), scalar_bytes((z + 1) % L)))
    refuse("seal/share-proof", _tampered(value, (1, 0, 0), value[1][1][0]))
    refuse("seal/share-proof", _tampered(value, (0, 2), other[0][2]))
    refuse("seal/share-proof", other)  # a seal made for another stage
    refused("seal/opening", COMMITTER, open_with_secret, ctx, seal, seal_secret(ctx, NONCE) + 1)
    refused("scalar/out-of-range", COMMITTER, open_with_secret, ctx, seal, L)


def test_a_bad_decryption_share_blames_its_sender() -> None:
    ctx, seal = make(4)
    share = decryption_share(ctx, seal, 3, KEYS[3], FRESH)
    wrong_seat = decryption_share(ctx, seal, 4, KEYS[4], FRESH)
    refused("seal/decryption-proof", 4, verify_decryption_share, ctx, seal, 4, share)
    refused("seal/decryption-proof", 3, verify_decryption_share, ctx, seal, 3,
            DecryptionShare(wrong_seat.point, share.proof))
    bumped = DecryptionShare(share.point, type(share.proof)(share.proof.c, share.proof.z + 1))
    refused("seal/decryption-proof", 3, verify_decryption_share, ctx, seal, 3, bumped)
    other_ctx, other = make(4, stage=4)
    refused("seal/decryption-proof", 3, verify_decryption_share, other_ctx, other, 3, share)
    encoded = share.encode(S)
    for bad, code in ((IDENTITY_BYTES, "point/identity"), (SMALL_ORDER, "point/small-order"),
                      (NON_CANONICAL, "point/non-canonical")):
        refused(code, 3, DecryptionShare.decode, S, [bad, *encoded[1:]], 3)
    refused("scalar/out-of-range", 3, DecryptionShare.decode, S, [*encoded[:2], BAD_SCALAR], 3)
    refused("seal/shape", 3, DecryptionShare.decode, S, encoded[:2], 3)
    with pytest.raises(LocalError, match="seal/witness"):
        decryption_share(ctx, seal, 3, KEYS[4], FRESH)
    with pytest.raises(LocalError, match="seal/not-recipient"):
        verify_decryption_share(ctx, seal, COMMITTER, share)


def test_padding_is_strict() -> None:
    assert unpad(pad(b"", 2), 0) == b"" and pad(b"ab", 5) == b"\x00\x02ab\x00"
    refused("seal/padding", 5, unpad, b"\x00\x02ab\x01", 5)
    refused("seal/padding", 5, unpad, b"\x00\x04ab\x00", 5)
    refused("seal/padding", 5, unpad, b"\x00", 5)
    with pytest.raises(LocalError, match="seal/pad-size"):
        pad(b"abc", 4)
    ctx = make(2)[0]
    fill = deal(ctx, NONCE, b"\x00\x02ab\x07", FRESH)
    refused("seal/padding", COMMITTER, unpad,
            open_with_secret(ctx, fill, seal_secret(ctx, NONCE)), COMMITTER)


def test_share_keys_prove_possession_for_their_seat_and_game() -> None:
    key, proof = prove_share_key(S, KEYS[5], GAME, 5, FRESH)
    assert key == base_mul(KEYS[5])
    verify_share_key(S, key, proof, GAME, 5)
    refused("seal/key-proof", 6, verify_share_key, S, key, proof, GAME, 6)
    refused("seal/key-proof", 5, verify_share_key, S, key, proof, bytes(32), 5)
    with pytest.raises(LocalError, match="nonce/fresh-too-short"):
        share_key(S, b"short", GAME)


def test_contexts_bind_everything_and_refuse_bad_recipient_lists() -> None:
    keys = [(s, base_mul(KEYS[s])) for s in (0, 1, 3)]
    base = seal_context(S, GAME, 3, 2, keys).digest
    assert len({base, seal_context(S, GAME, 4, 2, keys).digest,
                seal_context(S, GAME, 3, 4, keys).digest,
                seal_context(S, bytes(32), 3, 2, keys).digest,
                seal_context(S, GAME, 3, 2, keys[:2]).digest,
                seal_context(S, GAME, 3, 2, [keys[0], keys[1], (3, keys[0][1])]).digest}) == 6
    for bad in ([keys[1], keys[0]], [keys[0], keys[0]], [(2, keys[0][1])]):
        with pytest.raises(LocalError, match="seal/recipients"):
            seal_context(S, GAME, 3, 2, bad)
    with pytest.raises(LocalError, match="seal/nonce"):
        deal(seal_context(S, GAME, 3, 2, keys), b"short", b"", FRESH)


def test_the_generator_is_fixed_and_not_the_base_point() -> None:
    assert seal_generator(S) == seal_generator(S) != base_mul(1)
    assert isinstance(seal_generator(S), Point)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 7), st.sets(st.integers(0, 7), min_size=2, max_size=7),
       st.binary(min_size=0, max_size=30), st.data())
def test_any_recipients_any_majority_opens_and_any_flipped_bit_is_refused(
        committer: int, seats: set[int], data: bytes, draw: st.DataObject) -> None:
    recipients = sorted(seats - {committer})
    ctx = seal_context(S, GAME, 1, committer, [(s, base_mul(KEYS[s])) for s in recipients])
    seal = deal(ctx, draw.draw(st.binary(min_size=32, max_size=32)), pad(data, SIZE), FRESH)
    verify_seal(ctx, Seal.decode(seal.encode(S), ctx, SIZE))
    if not ctx.share_count:  # C_0 alone is a plain commitment: nothing to check it against
        return
    subset = draw.draw(st.lists(st.sampled_from(recipients), min_size=ctx.t, max_size=ctx.t,
                                unique=True))
    picked = {s: decryption_share(ctx, seal, s, KEYS[s], FRESH).point for s in subset}
    assert unpad(combine(ctx, seal, picked), committer) == data
    value = seal.encode(S)
    items = [*value[0], *(item for share in value[1] for item in share)]
    which = draw.draw(st.integers(0, len(items) - 1))
    bit = draw.draw(st.integers(0, 255))
    flipped = bytearray(items[which])
    flipped[bit // 8] ^= 1 << (bit % 8)
    t = ctx.t
    where = (0, which) if which < t else (1, (which - t) // 3, (which - t) % 3)
    with pytest.raises(SealError) as info:
        verify_seal(ctx, Seal.decode(_tampered(value, where, bytes(flipped)), ctx, SIZE))
    assert info.value.seat == committer
