"""Frames, spec/08-wire.md 8.4 (parsing checks 1 to 6) and 8.3 (the signature by the
suite's scheme: Ed25519, or Schnorr over G1 in bls12381g1-sha256), and the message types
and phases of 10.2 ([D1])."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nacl import bindings as nb
from nacl import exceptions as nacl_exc

from independent.errors import SpecError, check_version, fail_err
from independent.group.groups import BLS12381G1
from independent.group.suites import Suite
from independent.wire.fields import f_array, f_bytes, f_int
from independent.wire.msgpack_lib import unpack

MAX_FRAME_BYTES = 65536     # 8.4


TYPES = {1: ("KEY", "key", "keys"), 2: ("NONCE", "nonce", "nonces"),
         3: ("SHUFFLE", "shuffle", "shuffle"), 4: ("DEAL", "deal", "deal"),
         5: ("MOVE", "move", "play"), 6: ("REVEAL", "reveal", "reveal"),
         7: ("DRAW", "draw", "draw"), 8: ("COMMIT", "commit", "commit"),
         9: ("OPEN", "open", "open"), 10: ("ABSENT", "absent", "absent"),
         11: ("CHOOSE", "choose", "choose")}
# SPEC GAP: 10.3 lists the phases as keys, nonces, shuffle, deal, play, reveal, done; the
# phase `draw` of 10.2/10.4 is missing there. It is a phase like the others here.
PHASE_TYPE = {ph: t for t, (_, _, ph) in TYPES.items()}  # 10.2 the phase table


@dataclass
class Frame:
    wire: bytes
    payload: bytes
    signature: bytes
    game_id: bytes
    seq: int
    prev: bytes
    seat: int
    type: int
    state_hash: bytes
    body: Any


def parse_frame(wire: bytes, version: int) -> Frame:
    """8.4: parsing checks 1 to 6; the body is not examined. `version` is the setup's: the
    frame's item 0 must be it (8.4's field table, README "Versioning")."""
    outer = f_array(unpack(wire, MAX_FRAME_BYTES), 2, "frame")
    payload = f_bytes(outer[0], "payload", at_most=MAX_FRAME_BYTES)
    signature = f_bytes(outer[1], "signature", 64)
    p = f_array(unpack(payload, MAX_FRAME_BYTES), 8, "payload")
    # [D1]: the int accessor (schema/int) before the value checks.
    check_version(f_int(p[0], "version"), "frame", version)
    if f_int(p[5], "type") not in TYPES:
        fail_err("frame/unknown-type", f"type {p[5]}")
    game_id = f_bytes(p[1], "game_id", 32)
    seq = f_int(p[2], "seq")
    prev = f_bytes(p[3], "prev", 32)
    seat = f_int(p[4], "seat", 0, 255)
    state_hash = f_bytes(p[6], "state_hash", 32)
    return Frame(wire, payload, signature, game_id, seq, prev, seat, p[5], state_hash, p[7])


def signature_ok(s: Suite, pk: bytes, frame: Frame) -> bool:
    """8.3: the signature over the suite's prefix || payload, by the suite's scheme."""
    m = s.signature_prefix + frame.payload
    if s.group is BLS12381G1:
        return schnorr_g1_ok(s, pk, m, frame.signature)
    if len(pk) != 32 or len(frame.signature) != 64:
        return False
    try:  # libsodium's crypto_sign_open
        return nb.crypto_sign_open(frame.signature + m, pk) == m
    except (nacl_exc.CryptoError, ValueError, TypeError):
        return False


def schnorr_g1_ok(s: Suite, pk: bytes, m: bytes, sig: bytes) -> bool:
    """8.3 "Schnorr over G1": the key decodes by 2.5 (48 bytes), the signature is c || s,
    two scalars of 2.5; R' = s*G1 - c*Y; valid exactly if c = H_scalar(FRAME_SIGNATURE, Y,
    R', m), points hashed as their 48-byte encodings (R' possibly the identity)."""
    o = s.ops
    try:
        y = o.accept(pk)
        if len(sig) != 64:
            return False
        c, z = o.scalar(sig[:32]), o.scalar(sig[32:])
    except SpecError:
        return False
    r = o.sub(o.base(z), o.mul(c, y))
    return s.H_scalar("FRAME_SIGNATURE", y, r, m) == c


def frame_hash(s: Suite, wire: bytes) -> bytes:
    return s.H("FRAME", wire)[:32]  # 8.4
