"""The published vectors the pure-Python groups rest on (checks/rfc_vectors.json):

- RFC 9496 appendix A (ristretto255): A.1 the multiples of the generator, A.2 encodings a
  decoder refuses (with the rule of spec/02-group.md 2.5 each one breaks), A.3 the element
  derivation from 64 bytes, A.4 SQRT_RATIO_M1;
- RFC 9380 appendix K.1-K.3: expand_message_xmd with SHA-256 (short and long DST) and
  SHA-512;
- RFC 9380 appendix J.9.1: BLS12381G1_XMD:SHA-256_SSWU_RO_ (u, Q0, Q1 and P).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from independent.checks.tally import Tally
from independent.group import bls12381 as bls
from independent.group import bls_h2c, ristretto
from independent.group.ops import hx
from independent.group.xmd import expand_message_xmd, short_dst

RFC_VECTORS = Path(__file__).resolve().parent / "rfc_vectors.json"

#: RFC 9496 A.2's groups of refused encodings -> the rule of 2.5 each breaks.
A2_CODES = {
    "non-canonical field encoding": "point/non-canonical",
    "negative field element": "point/non-canonical",
    "non-square x^2": "point/not-on-curve",
    "negative xy": "point/not-on-curve",
    "s = -1, which causes y = 0": "point/not-on-curve",
}


def check_rfc(t: Tally) -> None:
    t.file = "rfc_vectors.json (RFC 9496, RFC 9380)"
    d = json.loads(RFC_VECTORS.read_text())
    check_rfc9496(t, d["rfc9496"])
    r = d["rfc9380"]
    for key in ("k1_expand_message_xmd_sha256", "k2_expand_message_xmd_sha256_long_dst",
                "k3_expand_message_xmd_sha512"):
        check_xmd(t, key, r[key])
    check_j91(t, r["j91_bls12381g1_xmd_sha256_sswu_ro"])


def le(s: str) -> int:
    return int.from_bytes(hx(s), "little")


def check_rfc9496(t: Tally, v: dict[str, Any]) -> None:
    g, acc = ristretto.GENERATOR, ristretto.IDENTITY
    for k, enc in enumerate(v["a1_multiples"]):
        t.eq(f"RFC 9496 A.1 {k}*B", ristretto.encode(ristretto.mul(k, g)).hex(), enc)
        t.eq(f"RFC 9496 A.1 B + ... + B ({k} terms)", ristretto.encode(acc).hex(), enc)
        if k:
            back = t.code(f"RFC 9496 A.1 {k}*B decodes", lambda e=enc: ristretto.decode(hx(e)),
                          "ok")
            t.ok(f"RFC 9496 A.1 {k}*B decodes to it", back is not None and ristretto.equal(
                back, acc))
        acc = ristretto.add(acc, g)
    for kind, encodings in v["a2_invalid"].items():
        for enc in encodings:
            t.code(f"RFC 9496 A.2 {kind} {enc[:16]}..", lambda e=enc: ristretto.decode(hx(e)),
                   A2_CODES[kind])
    for i, x in enumerate(v["a3_map"]):
        t.eq(f"RFC 9496 A.3 map[{i}]", ristretto.encode(
            ristretto.from_uniform_bytes(hx(x["input"]))).hex(), x["output"])
    same = v["a3_same_output"]
    for i, x in enumerate(same["inputs"]):
        t.eq(f"RFC 9496 A.3 same output[{i}]", ristretto.encode(
            ristretto.from_uniform_bytes(hx(x))).hex(), same["output"])
    for i, x in enumerate(v["a4_sqrt_ratio_m1"]):
        was_square, r = ristretto.sqrt_ratio_m1(le(x["u"]), le(x["v"]))
        t.eq(f"RFC 9496 A.4 SQRT_RATIO_M1[{i}]", (was_square, r.to_bytes(32, "little").hex()),
             (x["was_square"], x["r"]))


def check_xmd(t: Tally, key: str, v: dict[str, Any]) -> None:
    dst = short_dst(v["dst"].encode(), v["hash"])
    for i, x in enumerate(v["tests"]):
        t.eq(f"RFC 9380 {key}[{i}] DST_prime", (dst + bytes([len(dst)])).hex(), x["dst_prime"])
        got = expand_message_xmd(x["msg"].encode(), dst, x["len_in_bytes"], v["hash"])
        t.eq(f"RFC 9380 {key}[{i}] ({len(x['msg'])}-byte msg, {x['len_in_bytes']} bytes)",
             got.hex(), x["uniform_bytes"])


def check_j91(t: Tally, v: dict[str, Any]) -> None:
    t.eq("RFC 9380 J.9.1 suite", v["suite"], bls_h2c.SUITE)
    dst = v["dst"].encode()

    def affine(pt: bls.Jac) -> list[str] | None:
        a = bls.to_affine(pt)
        return a and [f"{c:096x}" for c in a]

    for i, x in enumerate(v["vectors"]):
        nm = f"RFC 9380 J.9.1[{i}] ({len(x['msg'])}-byte msg)"
        u = bls_h2c.hash_to_field_g1(x["msg"].encode(), dst)
        t.eq(f"{nm} u", [f"{e:096x}" for e in u], x["u"])
        t.eq(f"{nm} Q0", affine(bls_h2c.map_to_curve(u[0])), x["Q0"])
        t.eq(f"{nm} Q1", affine(bls_h2c.map_to_curve(u[1])), x["Q1"])
        pt = bls_h2c.hash_to_curve(x["msg"].encode(), dst)
        t.eq(f"{nm} P", affine(pt), x["P"])
        back = t.code(f"{nm} P decodes", lambda pt=pt: bls.decode(bls.encode(pt)), "ok")
        t.ok(f"{nm} P decodes to itself", back is not None and bls.equal(back, pt))
