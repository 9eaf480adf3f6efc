"""What the generators of the proof vectors share (tools/gen_vectors.py and the modules
it reads): the suite's operations, the seeds and the byte edits that make negative cases.

A `Kit` holds one ciphersuite at one protocol version: the dealerless/2 set of
spec/vectors/ is edwards25519-sha512's, and each suite's dealerless/3 set lives in
spec/vectors/suites/<suite>/. Each group refuses its own kinds of bad encoding (2.5):
a kind a group does not have (ristretto255 has no torsion, only edwards25519 has points of
small order) is None there, and `keep` drops the negatives that would use it.

Every secret and every `fresh` input is derived from a public label with
SHA-512("dealerless-vectors/" || label), so anyone can regenerate the files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from protocol.context import Context
from protocol.groups import Element as Point
from protocol.groups.bls12381_g1 import P as BLS_P
from protocol.groups.edwards25519 import P_FIELD
from protocol.suite import SUITE_NAMES, Suite, suite, v2_suite
from protocol.version import PROTOCOL

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors"

_ED_ORDER2 = (P_FIELD - 1).to_bytes(32, "little").hex()          # (0, -1): small order
_BLS_X = 0x80 << 376                                               # the compression flag


def seed(label: str) -> bytes:
    return hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest()[:32]


def ctx_json(ctx: Context) -> dict[str, Any]:
    return {"game_id": ctx.game_id.hex(), "step": ctx.step, "seat": ctx.seat}


class Kit:
    """One suite's operations and bad encodings, for writing its vectors."""

    def __init__(self, s: Suite) -> None:
        self.S = s
        g = s.group
        self.G, self.IDENTITY, self.L = g.generator, g.identity, s.order
        self.P, self.N = s.point_bytes, s.scalar_bytes
        self.base_mul, self.mul, self.add, self.sub = g.base_mul, g.mul, g.add, g.sub
        self.hash_to_point, self.hash_to_scalar = s.hash_to_point, s.hash_to_scalar
        self.nonce_scalars, self.scalar_bytes = s.nonce_scalars, s.encode_scalar
        self.out = OUT if s.version == 2 else OUT / "suites" / s.name
        self.identity_hex = g.identity.data.hex()
        family = g.name
        #: The refused encodings each negative may use, by kind (None: not in this group).
        self.noncanon_hex: str
        self.not_on_curve_hex: str
        self.order2_hex: str | None = None
        self._torsion: str | None = None
        if family == "edwards25519":
            self.noncanon_hex = (P_FIELD + 1).to_bytes(32, "little").hex()   # y = p + 1
            self.not_on_curve_hex = (2).to_bytes(32, "little").hex()         # y = 2: no x
            self.order2_hex = _ED_ORDER2
        elif family == "ristretto255":
            # RFC 9496 A.2: a non-canonical field element, and s with a non-square x^2.
            self.noncanon_hex = "00" + "ff" * 31
            self.not_on_curve_hex = ("26948d35ca62e643e26a83177332e6b6"
                                     "afeb9d08e4268b650f1f5bbd8d81d371")
        else:
            self.noncanon_hex = (BLS_P | _BLS_X).to_bytes(48, "big").hex()  # x = p
            self.not_on_curve_hex = (1 | _BLS_X).to_bytes(48, "big").hex()  # x = 1
            self._torsion = (4 | _BLS_X).to_bytes(48, "big").hex()  # outside the subgroup

    def secret(self, label: str) -> int:
        return int.from_bytes(hashlib.sha512(b"dealerless-vectors/" + label.encode())
                              .digest(), "little") % self.L

    def torsion_of(self, p: Point) -> str | None:
        """A point of the curve outside the prime-order subgroup: p plus the order-2
        point on edwards25519, a fixed one on BLS12-381 (whose cofactor points are not
        found by adding to p with the library); None for ristretto255, which has none."""
        if self.order2_hex is not None:
            from nacl import bindings as na
            return na.crypto_core_ed25519_add(p.data, bytes.fromhex(self.order2_hex)).hex()
        return self._torsion

    def refused_points(self, pt: Point) -> list[dict[str, Any]]:
        """group.json's refused encodings (2.5), each with its code; `pt` is k*G."""
        top = bytearray(self.G.data)
        if self.order2_hex is not None:
            cases = [("identity", self.identity_hex, "point/identity"),
                     ("order-2 point (0,-1)", self.order2_hex, "point/small-order"),
                     ("k*G + order-2 point", self.torsion_of(pt), "point/torsion"),
                     ("y = p+1 (non-canonical identity)", self.noncanon_hex,
                      "point/non-canonical"),
                     ("identity with sign bit set", "01" + "00" * 30 + "80",
                      "point/non-canonical"),
                     ("y = 2, not on the curve", self.not_on_curve_hex, "point/not-on-curve")]
        elif self._torsion is None:
            top[31] |= 0x80
            cases = [("identity", self.identity_hex, "point/identity"),
                     ("RFC 9496 A.2: a non-canonical field element", self.noncanon_hex,
                      "point/non-canonical"),
                     ("the generator with the top bit set", top.hex(), "point/non-canonical"),
                     ("RFC 9496 A.2: a non-square x^2", self.not_on_curve_hex,
                      "point/not-on-curve")]
        else:
            top[0] &= 0x7F
            cases = [("identity", self.identity_hex, "point/identity"),
                     ("x = p", self.noncanon_hex, "point/non-canonical"),
                     ("the generator with the compression flag clear", top.hex(),
                      "point/non-canonical"),
                     ("x = 1, off the curve", self.not_on_curve_hex, "point/not-on-curve"),
                     ("x = 4, outside the subgroup", self.torsion_of(pt), "point/torsion")]
        cases.append((f"{self.P + 1} bytes", self.G.data.hex() + "00", "point/length"))
        return [{"name": name, "hex": hx, "expected": code} for name, hx, code in cases]

    def raw_scalar(self, k: int) -> bytes:
        """k in the group's scalar encoding, unreduced (for values >= L)."""
        return k.to_bytes(self.N, self.S.group.byteorder)

    def _scalar_at(self, blob: bytes, offset: int) -> int:
        return int.from_bytes(blob[offset:offset + self.N], self.S.group.byteorder)

    def bump_scalar_hex(self, blob: bytes, offset: int) -> str:
        """Replace the scalar at `offset` by itself + L: same value mod L, non-canonical."""
        k = self.raw_scalar(self._scalar_at(blob, offset) + self.L)
        return (blob[:offset] + k + blob[offset + self.N:]).hex()

    def flip_scalar_hex(self, blob: bytes, offset: int) -> str:
        """Add one to the scalar at `offset` (mod L): a canonical but wrong value."""
        k = self.scalar_bytes((self._scalar_at(blob, offset) + 1) % self.L)
        return (blob[:offset] + k + blob[offset + self.N:]).hex()

    def replace_hex(self, blob: bytes, offset: int, new_hex: str | None) -> str | None:
        """The point at `offset` replaced; None when the replacement does not exist."""
        if new_hex is None:
            return None
        return (blob[:offset] + bytes.fromhex(new_hex) + blob[offset + self.P:]).hex()


def keep(entries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries whose every value exists in this suite (see `Kit`)."""
    return [e for e in entries if None not in e.values()
            and all(None not in v.values() for v in e.values() if isinstance(v, dict))]


def write_or_check_suite(file: str, build: Callable[[Kit], object], doc: str | None,
                         sort_keys: bool = True) -> int:
    """The main() of a generator of one vector file per suite: write `file` of the set
    that `--suite` names (see `kit_from_args`) as indented JSON, or with --check exit 1
    when it differs from what the code gives."""
    parser = argparse.ArgumentParser(description=(doc or "").strip().splitlines()[0])
    v, args = kit_from_args(parser)
    out = v.out / file
    text = json.dumps(build(v), indent=1, sort_keys=sort_keys) + "\n"
    if args.check:
        if not out.exists() or out.read_text() != text:
            print(f"{out} is stale: run python tools/{Path(sys.argv[0]).name}", file=sys.stderr)
            return 1
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    return 0


def kit_from_args(parser: argparse.ArgumentParser) -> tuple[Kit, argparse.Namespace]:
    """`--check`, and `--suite S` for that suite's dealerless/3 set (without it, the
    dealerless/2 set of edwards25519-sha512)."""
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--suite", choices=SUITE_NAMES, default=None,
                        help="write the suite's dealerless/3 vectors into "
                             "spec/vectors/suites/<suite>/")
    args = parser.parse_args()
    return Kit(v2_suite() if args.suite is None else suite(args.suite, PROTOCOL)), args
