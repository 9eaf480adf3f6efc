#!/usr/bin/env python3
"""Generate spec/vectors/groups.json: the three groups of the ciphersuites (spec/02-group.md
2.5), their encodings, refusals, scalars, hashes and an MSM.

    python tools/gen_group_vectors.py          # rewrite the file
    python tools/gen_group_vectors.py --check  # exit 1 if it differs from the code

Inputs are SHA-512("dealerless-vectors/" || label), as in tools/gen_vectors.py. The file
is written only if the code reproduces the published vectors of tools/group_rfc_vectors.py
(RFC 9496 appendix A, RFC 9380 appendices K.3 and J.9.1).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import group_rfc_vectors as rfc
from wire_common import ORDER8, outcome, seed, write_or_check

from protocol.groups import Group, HashedGroup, group
from protocol.groups.bls12381_g1 import P as BLS_P
from protocol.groups.edwards25519 import GROUP as EDWARDS
from protocol.groups.ristretto255 import GROUP as RISTRETTO
from protocol.groups.xmd import expand_message_xmd

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "groups.json"


def wide(label: str) -> bytes:
    return hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest()


def bls_compressed(xy: str) -> str:
    """The 48-byte compressed encoding of the affine point x || y (96 bytes, hex)."""
    x, y = int(xy[:96], 16), int(xy[96:], 16)
    flags = 0x80 | (0x20 if y > BLS_P - y else 0)
    return (x | flags << 376).to_bytes(48, "big").hex()


def check(ok: bool, what: str) -> None:
    """An anchor that holds; a mismatch stops the generator (not an assert: -O would skip
    it, and the file would be written unanchored)."""
    if not ok:
        raise SystemExit(f"gen_group_vectors: the code does not give {what}")


def anchors() -> None:
    """Refuse to go on unless the code gives the published vectors."""
    r, b = RISTRETTO, group("bls12381g1")
    assert isinstance(b, HashedGroup)
    for k, enc in enumerate(rfc.RISTRETTO_MULTIPLES):
        check(r.base_mul(k).data.hex() == enc, f"RFC 9496 A.1, {k}*B")
    for enc, why in rfc.RISTRETTO_INVALID:
        check(outcome(lambda e=enc: r.decode(bytes.fromhex(e))) != "ok", f"A.2 {why}")
    for label, enc in rfc.RISTRETTO_ONE_WAY:
        got = r.from_uniform(hashlib.sha512(label.encode()).digest())
        check(got.data.hex() == enc, f"RFC 9496 A.3, {label}")
    inputs, same = rfc.RISTRETTO_ONE_WAY_SAME
    for i in inputs:
        check(r.from_uniform(bytes.fromhex(i)).data.hex() == same, "RFC 9496 A.3")
    for msg, size, out in rfc.XMD_SHA512:
        got_xmd = expand_message_xmd("sha512", msg.encode(), rfc.XMD_SHA512_DST.encode(), size)
        check(got_xmd.hex() == out, f"RFC 9380 K.3, {msg[:8]!r}, {size}")
    for msg, xy in rfc.BLS12381G1_H2C:
        got = b.hash_to_group(msg.encode(), rfc.BLS12381G1_DST.encode())
        check(got.data.hex() == bls_compressed(xy), f"RFC 9380 J.9.1, {msg[:8]!r}")


def refused(g: Group, cases: list[tuple[str, bytes]]) -> list[dict[str, str]]:
    return [{"name": name, "hex": data.hex(), "code": outcome(lambda d=data: g.decode(d))}
            for name, data in cases]


def scalars(g: Group) -> list[dict[str, str]]:
    size, order = g.scalar_bytes, g.order
    cases = [("zero", bytes(size)), ("order - 1", (order - 1).to_bytes(size, g.byteorder)),
             ("the order", order.to_bytes(size, g.byteorder)),
             ("31 bytes", bytes(size - 1)), ("33 bytes", bytes(size + 1))]
    out = []
    for name, data in cases:
        code = outcome(lambda d=data: g.decode_scalar(d))
        row = {"name": name, "hex": data.hex(), "code": code}
        if code == "ok":
            row["value"] = str(g.decode_scalar(data))
        out.append(row)
    return out


def common(g: Group, name: str) -> dict[str, Any]:
    ks = [int.from_bytes(wide(f"groups/{name}/msm/{i}"), "little") % g.order for i in range(4)]
    ps = [g.base_mul(int.from_bytes(wide(f"groups/{name}/point/{i}"), "little"))
          for i in range(4)]
    return {
        "order": str(g.order), "element_bytes": g.element_bytes,
        "scalar_byteorder": g.byteorder, "generator": g.generator.data.hex(),
        "identity": g.identity.data.hex(),
        "multiples": [[k, g.base_mul(k).data.hex()] for k in range(16)],
        "scalars": scalars(g),
        "msm": {"scalars": [str(k) for k in ks], "points": [p.data.hex() for p in ps],
                "sum": g.msm(ks, ps).data.hex()},
    }


def hashes(g: HashedGroup, name: str) -> list[dict[str, str]]:
    dst = f"dealerless-vectors/{name}/{g.h2c_suite}"
    msgs = [b"", b"abc", seed(f"groups/{name}/msg")]
    return [{"msg": m.hex(), "dst": dst, "element": g.hash_to_group(m, dst.encode()).data.hex()}
            for m in msgs]


def edwards() -> dict[str, Any]:
    g = EDWARDS
    inputs = [seed(f"groups/edwards25519/uniform/{i}") for i in range(3)]
    return {**common(g, "edwards25519"),
            "from_uniform": [{"input": i.hex(), "element": g.from_uniform(i).data.hex()}
                             for i in inputs],
            "refused": refused(g, [("31 bytes", bytes(31)), ("the identity", g.identity.data),
                                   ("a point of order 8", ORDER8),
                                   ("y = p", (2**255 - 19).to_bytes(32, "little"))])}


def ristretto() -> dict[str, Any]:
    g = RISTRETTO
    inputs = [wide(f"groups/ristretto255/uniform/{i}") for i in range(3)]
    top = bytearray(g.generator.data)
    top[31] |= 0x80
    return {**common(g, "ristretto255"), "h2c_suite": g.h2c_suite,
            "from_uniform": [{"input": i.hex(), "element": g.from_uniform(i).data.hex()}
                             for i in inputs],
            "hash_to_group": hashes(g, "ristretto255"),
            "refused": refused(g, [("31 bytes", bytes(31)), ("the identity", bytes(32)),
                                   ("the generator with the top bit set", bytes(top)),
                                   *((f"RFC 9496 A.2: {why}", bytes.fromhex(e))
                                     for e, why in rfc.RISTRETTO_INVALID)])}


def bls() -> dict[str, Any]:
    g = group("bls12381g1")
    assert isinstance(g, HashedGroup)
    gen = g.generator.data
    x4 = (4 | 0x80 << 376).to_bytes(48, "big")   # on the curve, outside the subgroup
    cases = [("47 bytes", gen[:47]), ("the identity", g.identity.data),
             ("the compressed flag clear", bytes([gen[0] & 0x7F]) + gen[1:]),
             ("x = p", (BLS_P | 0x80 << 376).to_bytes(48, "big")),
             ("the infinity flag with a nonzero tail", bytes([0xC0]) + bytes(46) + b"\1"),
             ("the infinity and sort flags", bytes([0xE0]) + bytes(47)),
             ("x = 1, off the curve", (1 | 0x80 << 376).to_bytes(48, "big")),
             ("x = 4, outside the subgroup", x4)]
    return {**common(g, "bls12381g1"), "h2c_suite": g.h2c_suite,
            "hash_to_group": hashes(g, "bls12381g1"), "refused": refused(g, cases)}


def build() -> dict[str, Any]:
    anchors()
    return {"about": {"generated_by": "python tools/gen_group_vectors.py",
                      "spec": "spec/02-group.md 2.5",
                      "anchored_to": "RFC 9496 appendix A, RFC 9380 K.3 and J.9.1 "
                                     "(tools/group_rfc_vectors.py)"},
            "edwards25519": edwards(), "ristretto255": ristretto(), "bls12381g1": bls()}


def main() -> int:
    return write_or_check(OUT, build, __doc__)


if __name__ == "__main__":
    sys.exit(main())
