"""Group operations on encodings (spec 1.2, 2.2) and strict decoding (2.3, 2.4, 5.2).

Arithmetic is libsodium's, through PyNaCl's low-level bindings (2.1), with the special
cases for the identity O. A refused point is classified in pure Python (group.curve) so
that every rejection rule of 2.3 gets its own error code.
"""

from __future__ import annotations

from typing import Any

from nacl import bindings as nb

from independent.errors import fail, fail_err
from independent.group.curve import L, point_rule

G = bytes.fromhex("58" + "66" * 31)
IDENT = bytes([1]) + bytes(31)  # encoding of the identity; internal use only (2.2)


# --- 1.2 byte conventions ----------------------------------------------------------------
def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def lp(x: bytes) -> bytes:
    return len(x).to_bytes(4, "big") + x


def sc(a: int) -> bytes:
    return (a % L).to_bytes(32, "little")


def hx(s: str) -> bytes:
    """The vectors' hex text as bytes."""
    return bytes.fromhex(s)


def ctx_bytes(c: dict[str, Any]) -> bytes:
    """6.1: ctx = game_id || u64(step) || u64(seat)."""
    gid = bytes.fromhex(c["game_id"])
    if len(gid) != 32:
        fail("context/game-id")
    return gid + u64(int(c["step"])) + u64(int(c["seat"]))


# --- 2.2 group operations (libsodium, with the special cases for O) ----------------------
def smul(a: int, p: bytes) -> bytes:
    a %= L
    return IDENT if a == 0 or p == IDENT else nb.crypto_scalarmult_ed25519_noclamp(sc(a), p)


def bmul(a: int) -> bytes:
    a %= L
    return IDENT if a == 0 else nb.crypto_scalarmult_ed25519_base_noclamp(sc(a))


add = nb.crypto_core_ed25519_add  # both accept and may return the identity
sub = nb.crypto_core_ed25519_sub


def total(points: list[bytes]) -> bytes:
    acc = IDENT
    for p in points:
        acc = add(acc, p)
    return acc


def msm(scalars: list[int], points: list[bytes]) -> bytes:
    return total([smul(a, p) for a, p in zip(scalars, points, strict=True)])


# --- 2.3 / 2.4 strict decoding -------------------------------------------------------------
def decode_point(b: bytes) -> bytes:
    code = point_rule(b)
    # 2.3: the accepted set "is precisely crypto_core_ed25519_is_valid_point".
    if len(b) == 32:
        assert (code is None) == bool(nb.crypto_core_ed25519_is_valid_point(b)), b.hex()
    if code:
        fail(code)
    return b


def decode_scalar(b: bytes) -> int:
    """2.4: exactly 32 bytes, little-endian value < L; 0 is valid."""
    if len(b) != 32:
        fail("scalar/length")
    v = int.from_bytes(b, "little")
    if v >= L:
        fail("scalar/out-of-range")
    return v


def decode_deck(b: bytes) -> list[tuple[bytes, bytes]]:
    """1.2 / 5.2: a deck is c1 || c2 per ciphertext, each point decoded by 2.3."""
    if len(b) % 64:
        fail("deck/length")
    return [(decode_point(b[i : i + 32]), decode_point(b[i + 32 : i + 64]))
            for i in range(0, len(b), 64)]


def deck_bytes(e: list[tuple[bytes, bytes]]) -> bytes:
    return b"".join(c1 + c2 for c1, c2 in e)


def accept_point(b: bytes) -> bytes:
    """2.3. The accepted set is exactly crypto_core_ed25519_is_valid_point; the slow
    pure-Python classifier (group.curve) only names the rule on failure."""
    if len(b) == 32 and nb.crypto_core_ed25519_is_valid_point(b):
        return b
    fail_err(point_rule(b) or "point/not-on-curve")
