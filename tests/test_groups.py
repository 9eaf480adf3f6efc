"""The groups of the ciphersuites (spec/02-group.md 2.5): spec/vectors/groups.json, the group
laws, canonical encodings, and the repairs made to the two libraries."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import load_vectors
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.errors import EncodingError
from protocol.groups import GROUPS, Element, Group, HashedGroup, group

ROOT = Path(__file__).resolve().parent.parent
NAMES = sorted(GROUPS)


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return load_vectors("groups")


def code_of(g: Group, data: bytes) -> str:
    try:
        g.decode(data)
    except EncodingError as exc:
        return exc.code
    return "ok"


@pytest.mark.parametrize("name", NAMES)
def test_the_group_vectors_hold(doc: dict[str, Any], name: str) -> None:
    g, v = group(name), doc[name]
    assert (str(g.order), g.element_bytes, g.byteorder) == (
        v["order"], v["element_bytes"], v["scalar_byteorder"])
    assert (g.generator.data.hex(), g.identity.data.hex()) == (v["generator"], v["identity"])
    for k, enc in v["multiples"]:
        assert g.base_mul(k).data.hex() == enc
        if k:
            assert g.decode(bytes.fromhex(enc)) == g.mul(k, g.generator)
    for case in v["refused"]:
        assert code_of(g, bytes.fromhex(case["hex"])) == case["code"] != "ok", case["name"]
    for case in v["scalars"]:
        data = bytes.fromhex(case["hex"])
        if case["code"] == "ok":
            assert g.decode_scalar(data) == int(case["value"])
            assert g.encode_scalar(int(case["value"])) == data
        else:
            with pytest.raises(EncodingError) as caught:
                g.decode_scalar(data)
            assert caught.value.code == case["code"]
    msm = v["msm"]
    points = [g.decode(bytes.fromhex(p)) for p in msm["points"]]
    assert g.msm([int(k) for k in msm["scalars"]], points).data.hex() == msm["sum"]
    for case in v.get("from_uniform", []):
        assert g.from_uniform(bytes.fromhex(case["input"])).data.hex() == case["element"]  # type: ignore[attr-defined]
    for case in v.get("hash_to_group", []):
        assert isinstance(g, HashedGroup) and g.h2c_suite == v["h2c_suite"]
        got = g.hash_to_group(bytes.fromhex(case["msg"]), case["dst"].encode())
        assert got.data.hex() == case["element"]


def test_the_group_vectors_are_what_the_code_generates_and_match_the_rfcs() -> None:
    """The generator checks RFC 9496 appendix A and RFC 9380 K.3 and J.9.1 first."""
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_group_vectors.py"),
                           "--check"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


scalar = st.integers(min_value=0, max_value=2**256)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=25, deadline=None)
@given(a=scalar, b=scalar)
def test_the_group_laws_hold(name: str, a: int, b: int) -> None:
    g = group(name)
    pa, pb = g.base_mul(a), g.base_mul(b)
    assert g.add(pa, pb) == g.base_mul(a + b) == g.add(pb, pa)
    assert g.mul(b, pa) == g.base_mul(a * b) == g.mul(a, pb)
    assert g.sub(pa, pb) == g.base_mul(a - b) == g.add(pa, g.neg(pb))
    assert g.msm([a, b, 1], [g.generator, pb, pa]) == g.base_mul(2 * a + b * b)
    for p in (pa, pb):
        if p != g.identity:
            assert g.decode(p.data) == p
    assert g.mul(g.order, pa) == g.identity == g.sub(pa, pa)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=25, deadline=None)
@given(k=st.integers(min_value=1, max_value=2**252), bit=st.integers(min_value=0))
def test_no_element_has_two_encodings(name: str, k: int, bit: int) -> None:
    """Flipping any bit of a valid encoding never names the same element again: it is
    refused with a point/* code, or it is another element."""
    g = group(name)
    p = g.base_mul(k)
    flipped = bytearray(p.data)
    flipped[(bit // 8) % len(flipped)] ^= 1 << bit % 8
    try:
        other = g.decode(bytes(flipped))
    except EncodingError as exc:
        assert exc.code.startswith("point/")
    else:
        assert other != p and other.data == bytes(flipped)


@pytest.mark.parametrize("name", NAMES)
def test_an_msm_refuses_lists_of_different_lengths(name: str) -> None:
    """arkworks drops the terms past the shorter list; no group of ours may."""
    g = group(name)
    with pytest.raises(ValueError, match="as many scalars as points"):
        g.msm([1, 2], [g.generator])
    assert g.msm([], []) == g.identity


def test_an_element_is_its_encoding() -> None:
    g = group("bls12381g1")
    p = g.base_mul(7)
    assert Element(p.data) == p and bytes(p) == p.data
    assert g.add(Element(p.data), p) == g.base_mul(14)   # decoded on demand


def test_importing_ristretto255_leaves_no_file_behind() -> None:
    """rbcl writes its bundled libsodium to a temporary file at every import; the group
    module removes it once loaded (spec/02-group.md 2.5)."""
    code = ("import sys; from protocol.groups import group; g = group('ristretto255'); "
            "assert g.decode(g.base_mul(5).data) == g.base_mul(5); "
            "print(sys.modules['rbcl._sodium'].lib_path)")
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
        assert out.endswith(".so") and not Path(out).exists()
