"""The vectors of the three groups of the ciphersuites, groups.json (spec/02-group.md 2.5),
and the suite layer's hashes at version 2 against group.json (spec/03-hashing.md 3.5).

ristretto255 and bls12381g1 are checked with the pure-Python groups of tools/independent
(group.ristretto, group.bls12381, group.bls_h2c), edwards25519 with group.ops (libsodium)
and 3.3's pseudocode. The published RFC vectors those groups rest on are checks.rfc's.
"""

from __future__ import annotations

from typing import Any

from independent.checks.tally import Tally, load
from independent.errors import SpecError
from independent.group.groups import GROUPS, Group
from independent.group.hashing import T, from_uniform_spec
from independent.group.ops import hx
from independent.group.suites import suite

#: The case kinds of a group's section that check_groups reads; any other is a failure,
#: so that a kind added to groups.json later is not skipped in silence.
KINDS = {"element_bytes", "order", "generator", "identity", "scalar_byteorder", "h2c_suite",
         "multiples", "refused", "scalars", "msm", "from_uniform", "hash_to_group"}


def code_of(fn: Any, *args: Any) -> str:
    try:
        fn(*args)
    except SpecError as err:
        return err.code
    return "ok"


def check_groups(t: Tally) -> None:
    d = load(t, "groups.json")
    t.eq("the groups", sorted(k for k in d if k != "about"), sorted(GROUPS))
    for name, g in GROUPS.items():
        v = d[name]
        t.eq(f"{name}: case kinds", set(v) - KINDS, set())
        check_constants(t, g, v)
        check_multiples(t, g, v["multiples"])
        for r in v["refused"]:
            t.code(f"{name} refuses {r['name']}", lambda r=r, g=g: g.decode(hx(r["hex"])),
                   r["code"])
        for s in v["scalars"]:
            got = t.code(f"{name} scalar {s['name']}", lambda s=s, g=g: g.decode_scalar(
                hx(s["hex"])), s["code"])
            if s["code"] == "ok":
                t.eq(f"{name} scalar {s['name']} value", got, int(s["value"]))
                t.eq(f"{name} scalar {s['name']} re-encoded", g.encode_scalar(got).hex(),
                     s["hex"])
        m = v["msm"]
        pts = [t.code(f"{name} msm point {i}", lambda p=p, g=g: g.decode(hx(p)), "ok")
               for i, p in enumerate(m["points"])]
        if None not in pts:  # a refused point is already a failure
            ks = [int(k) for k in m["scalars"]]
            t.eq(f"{name} msm", g.encode(g.msm(ks, pts)).hex(), m["sum"])
            t.eq(f"{name} msm with lists of unequal length", code_of(g.msm, ks, pts[:-1]),
                 "group/msm-length")
        for i, u in enumerate(v.get("from_uniform", [])):
            check_from_uniform(t, g, i, u)
        for i, h in enumerate(v.get("hash_to_group", [])):
            got = g.hash_to_group(hx(h["msg"]), h["dst"].encode())
            t.eq(f"{name} hash_to_group[{i}] ({len(hx(h['msg']))}-byte msg)",
                 g.encode(got).hex(), h["element"])
            back = t.code(f"{name} hash_to_group[{i}] decodes",
                          lambda h=h, g=g: g.decode(hx(h["element"])), "ok")
            t.ok(f"{name} hash_to_group[{i}] decodes to itself",
                 back is not None and g.equal(back, got))


def check_constants(t: Tally, g: Group[Any], v: dict[str, Any]) -> None:
    """element size, order, generator and identity encodings, scalar byte order, RFC 9380
    suite (2.5's table)."""
    n = g.name
    t.eq(f"{n} element bytes", g.element_bytes, v["element_bytes"])
    t.eq(f"{n} order", g.order, int(v["order"]))
    t.eq(f"{n} generator", g.encode(g.generator).hex(), v["generator"])
    t.eq(f"{n} identity", g.encode(g.identity).hex(), v["identity"])
    t.eq(f"{n} scalar byte order", g.scalar_byteorder, v["scalar_byteorder"])
    t.eq(f"{n} RFC 9380 suite", g.h2c_suite, v.get("h2c_suite", ""))
    t.ok(f"{n} (order - 1)*G = -G", g.equal(g.mul(g.order - 1, g.generator),
                                             g.neg(g.generator)))


def check_multiples(t: Tally, g: Group[Any], multiples: list[list[Any]]) -> None:
    """k*G for k = 0, 1, ...: by scalar multiplication, by repeated addition, and (k > 0)
    decoding the encoding gives the element back."""
    acc = g.identity
    for k, enc in multiples:
        t.eq(f"{g.name} {k}*G", g.encode(g.base_mul(k)).hex(), enc)
        t.eq(f"{g.name} G + ... + G ({k} terms)", g.encode(acc).hex(), enc)
        if k:
            back = t.code(f"{g.name} {k}*G decodes", lambda e=enc: g.decode(hx(e)), "ok")
            t.eq(f"{g.name} {k}*G re-encodes", back is not None and g.encode(back).hex(), enc)
            t.eq(f"{g.name} {k}*G - G = {k - 1}*G", g.encode(g.sub(acc, g.generator)),
                 g.encode(g.base_mul(k - 1)))
        acc = g.add(acc, g.generator)


def check_from_uniform(t: Tally, g: Group[Any], i: int, u: dict[str, str]) -> None:
    """edwards25519: 3.3's from_uniform of 32 bytes, by libsodium and by the pseudocode;
    ristretto255: RFC 9496 4.3.4's element derivation from 64 bytes."""
    got = g.from_uniform(hx(u["input"]))  # type: ignore[attr-defined]
    t.eq(f"{g.name} from_uniform[{i}]", g.encode(got).hex(), u["element"])
    if g.name == "edwards25519":
        t.eq(f"{g.name} from_uniform[{i}] by 3.3 pseudocode",
             from_uniform_spec(hx(u["input"])).hex(), u["element"])


def check_suite_v2(t: Tally) -> None:
    """3.5: edwards25519-sha512 at version 2 reproduces every hash, H_scalar, H2P and nonce
    vector of group.json (3.1, 3.3, 3.4)."""
    g = load(t, "group.json")
    t.file = "group.json (suite edwards25519-sha512, version 2)"
    s2 = suite("edwards25519-sha512", 2)
    t.eq("context", s2.context, g["version"].encode())
    for i, v in enumerate(g["hash"]):
        parts, tag = [hx(x) for x in v["parts"]], v["tag"].encode()
        t.eq(f"hash[{i}] digest", s2.H(tag, *parts).hex(), v["digest"])
        if "scalar" in v:
            t.eq(f"hash[{i}] H_scalar", s2.H_scalar(tag, *parts), int(v["scalar"]))
        if "point" in v:
            t.eq(f"hash[{i}] H2P", s2.H2P(tag, *parts).hex(), v["point"])
    nv = g["nonce"]
    for j, want in enumerate(nv["scalars"]):
        got = s2.nonce(hx(nv["label"]), hx(nv["secret_bytes"]), hx(nv["public"]),
                       hx(nv["fresh"]), j)
        t.eq(f"nonce k_{j}", got, int(want))
    t.eq("H2P of tile 0-0 of double-six", s2.H2P(T["TILE"], b"double-six", bytes(2)).hex(),
         from_uniform_spec(s2.H(T["TILE"], b"double-six", bytes(2))[:32]).hex())


def check_suite_table(t: Tally) -> None:
    """3.5's table at version 3: contexts, groups, H's length, the example DST, and the
    byte order of bls12381g1's scalars (2.5)."""
    t.file = "3.5 suite table"
    for name, group, size in (("edwards25519-sha512", "edwards25519", 64),
                              ("ristretto255-sha512", "ristretto255", 64),
                              ("bls12381g1-sha256", "bls12381g1", 32)):
        s = suite(name, 3)
        t.eq(f"{name} context", s.context, f"dealerless/3/{name}".encode())
        t.eq(f"{name} group", s.group.name, group)
        t.eq(f"{name} H bytes", len(s.H("CONTEXT", b"")), size)
    t.eq("3.5's example DST", suite("ristretto255-sha512", 3).dst,
         b"dealerless-V3-ristretto255_XMD:SHA-512_R255MAP_RO_")
    t.eq("bls12381g1-sha256 scalars big-endian", suite("bls12381g1-sha256", 3).encode_scalar(1),
         bytes(31) + b"\x01")
