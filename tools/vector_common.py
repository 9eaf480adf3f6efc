"""What the generators of the proof vectors share (tools/gen_vectors.py and the modules
it reads): the suite, the seeds and the byte edits that make negative cases.

Every secret and every `fresh` input is derived from a public label with
SHA-512("dealerless-vectors/" || label), so anyone can regenerate the files.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from protocol.context import Context
from protocol.groups import Element as Point
from protocol.groups.edwards25519 import P_FIELD
from protocol.suite import v2_suite

S = v2_suite()  # edwards25519-sha512, dealerless/2
IDENTITY = S.group.identity
G = S.group.generator
L = S.order
base_mul = S.group.base_mul
mul = S.group.mul
scalar_bytes = S.encode_scalar
sub = S.group.sub
hash_to_point = S.hash_to_point
hash_to_scalar = S.hash_to_scalar
nonce_scalars = S.nonce_scalars

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors"

IDENTITY_HEX = (b"\x01" + bytes(31)).hex()
ORDER2_HEX = (P_FIELD - 1).to_bytes(32, "little").hex()          # (0, -1): small order
NONCANON_HEX = (P_FIELD + 1).to_bytes(32, "little").hex()        # y = p + 1
NOT_ON_CURVE_HEX = (2).to_bytes(32, "little").hex()              # y = 2 has no x


def seed(label: str) -> bytes:
    return hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest()[:32]


def secret(label: str) -> int:
    return int.from_bytes(hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest(),
                          "little") % L


def torsion_of(p: Point) -> str:
    """p plus the order-2 point: on the curve, not in the prime-order subgroup."""
    from nacl import bindings as na
    return na.crypto_core_ed25519_add(p.data, bytes.fromhex(ORDER2_HEX)).hex()


def ctx_json(ctx: Context) -> dict[str, Any]:
    return {"game_id": ctx.game_id.hex(), "step": ctx.step, "seat": ctx.seat}


def bump_scalar_hex(blob: bytes, offset: int) -> str:
    """Replace the scalar at `offset` by itself + L: same value mod L, non-canonical."""
    k = int.from_bytes(blob[offset:offset + 32], "little") + L
    return (blob[:offset] + k.to_bytes(32, "little") + blob[offset + 32:]).hex()


def replace_hex(blob: bytes, offset: int, new_hex: str) -> str:
    return (blob[:offset] + bytes.fromhex(new_hex) + blob[offset + 32:]).hex()


def flip_scalar_hex(blob: bytes, offset: int) -> str:
    """Add one to the scalar at `offset` (mod L): a canonical but wrong value."""
    k = (int.from_bytes(blob[offset:offset + 32], "little") + 1) % L
    return (blob[:offset] + k.to_bytes(32, "little") + blob[offset + 32:]).hex()
