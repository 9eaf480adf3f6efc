"""Group layer: strict decoding and the hash functions (spec/02-group.md, spec/03-hashing.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.errors import EncodingError, LocalError
from protocol.hashing import H
from protocol.suite import v2_suite
from protocol.tags import Tag

S = v2_suite()  # edwards25519-sha512, dealerless/2
IDENTITY = S.group.identity
G = S.group.generator
L = S.order
base_mul = S.group.base_mul
decode_point = S.decode_point
decode_scalar = S.decode_scalar
mul = S.group.mul
add = S.group.add
sub = S.group.sub
scalar_bytes = S.encode_scalar
hash_to_point = S.hash_to_point
nonce_scalars = S.nonce_scalars

scalars = st.integers(min_value=1, max_value=L - 1)


@given(scalars)
def test_scalar_round_trip(k: int) -> None:
    assert decode_scalar(scalar_bytes(k)) == k


@given(st.integers(min_value=L, max_value=2**256 - 1))
def test_every_scalar_at_or_above_L_is_rejected(k: int) -> None:
    with pytest.raises(EncodingError) as err:
        decode_scalar(k.to_bytes(32, "little"))
    assert err.value.code == "scalar/out-of-range"


@given(scalars)
def test_valid_points_decode_to_themselves(k: int) -> None:
    p = base_mul(k)
    assert decode_point(p.data) == p


@given(st.binary(min_size=32, max_size=32))
def test_random_bytes_decode_or_raise_a_point_error(data: bytes) -> None:
    try:
        p = decode_point(data)
    except EncodingError as exc:
        assert exc.code.startswith("point/")
    else:
        assert add(mul(L - 1, p), p) == IDENTITY  # in the prime-order subgroup


@given(scalars, scalars)
def test_group_laws(a: int, b: int) -> None:
    assert add(base_mul(a), base_mul(b)) == base_mul((a + b) % L)
    assert mul(a, base_mul(b)) == base_mul(a * b % L)
    assert sub(base_mul(a), base_mul(a)) == IDENTITY
    assert mul(0, G) == IDENTITY and mul(a, IDENTITY) == IDENTITY


def test_hash_inputs_are_length_prefixed_and_tagged() -> None:
    # Without length prefixes these two would collide.
    assert H(Tag.CONTEXT, b"ab", b"c") != H(Tag.CONTEXT, b"a", b"bc")
    assert H(Tag.CONTEXT, b"x") != H(Tag.SCHNORR, b"x")
    assert hash_to_point(Tag.TILE, b"a") != hash_to_point(Tag.GENERATOR, b"a")
    with pytest.raises(LocalError):
        H(b"untagged", b"x")  # type: ignore[arg-type]


def test_nonces_depend_on_every_input_and_need_real_freshness() -> None:
    base = nonce_scalars(b"l", b"s", b"p", bytes(32), 2)
    assert base[0] != base[1]
    for args in ((b"L", b"s", b"p", bytes(32)), (b"l", b"S", b"p", bytes(32)),
                 (b"l", b"s", b"P", bytes(32)), (b"l", b"s", b"p", b"\x01" * 32)):
        assert nonce_scalars(*args, 2) != base
    with pytest.raises(LocalError):
        nonce_scalars(b"l", b"s", b"p", bytes(16), 1)
