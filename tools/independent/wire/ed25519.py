"""Ed25519, spec/08-wire.md 8.3: "Verify" step by step, and "Sign", in pure Python.

RFC 8032 5.1 arithmetic (group.curve) with hashlib's SHA-512; no library does the
cryptography. Checks spec/vectors/ed25519.json (checks.wire) and signs again the
handshake messages of spec/vectors/handshake.json (checks.handshake); the transcript verifier
uses libsodium instead (session.frames.signature_ok). `reading_accepts` runs the wrong
readings that 8.3 "Readings that differ" names, each as that table describes it.
"""

from __future__ import annotations

import hashlib

from independent.errors import fail
from independent.group.curve import (
    MASK255,
    NEUTRAL,
    B,
    L,
    P,
    decode,
    encode,
    int_le,
    pt_add,
    pt_eq,
    pt_mul,
    pt_neg,
    recover_x,
)

SIGN_PREFIX = b"dealerless/frame-signature/1\x00"
SMALL_ORDER_Y = frozenset((
    0, 1, P - 1, P, P + 1,
    2707385501144840649318225287225658788936804267575313519463743609750303402022,
    55188659117513257062467267217118295137698188065244968500265048394206261417927))


def ed25519_verify(a_enc: bytes, m: bytes, sig: bytes, skip: frozenset[int] = frozenset(),
                   cofactored: bool = False) -> str:
    """8.3 Verify, step by step: "ok", or the number of the first step that fails.

    `skip` and `cofactored` exist only to test the vectors' notes ("passes step 7 if
    step n is skipped", "valid under the cofactored equation only"); 8.3 uses neither.
    """
    # 1. A_enc is 32 bytes and the signature 64 bytes
    if len(a_enc) != 32 or len(sig) != 64:
        return "1"
    r_enc, s_enc = sig[:32], sig[32:]
    # 2. S = int_le(S_enc) < L
    s = int_le(s_enc)
    if s >= L and 2 not in skip:
        return "2"
    # 3. neither R_enc nor A_enc, bit 255 cleared, is one of the seven small-order encodings
    if 3 not in skip and any((int_le(e) & MASK255) in SMALL_ORDER_Y for e in (r_enc, a_enc)):
        return "3"
    # 4. A_enc is canonical
    if int_le(a_enc) & MASK255 >= P:
        return "4"
    # 5. A_enc decodes to a point A by RFC 8032 5.1.3
    a = decode(a_enc)
    if a is None:
        return "5"
    # 6. k = int_le(SHA-512(R_enc || A_enc || m)) mod L
    k = int_le(hashlib.sha512(r_enc + a_enc + m).digest()) % L
    # 7. R' = [S]B - [k]A; valid exactly if encode(R') = R_enc
    if cofactored:  # [8][S]B = [8]R + [8][k]A, for the notes only
        r = decode(r_enc)
        ok = r is not None and pt_eq(pt_mul(8, pt_mul(s, B)),
                                     pt_mul(8, pt_add(r, pt_mul(k, a))))
        return "ok" if ok else "7"
    r_prime = pt_add(pt_mul(s, B), pt_neg(pt_mul(k, a)))
    return "ok" if encode(r_prime) == r_enc else "7"


def _expand(seed: bytes) -> tuple[int, bytes]:
    """RFC 8032 5.1.5 steps 1-3: the clamped secret scalar s and the prefix."""
    if len(seed) != 32:
        raise ValueError("an Ed25519 seed is 32 bytes")
    h = hashlib.sha512(seed).digest()
    s = int_le(h[:32]) & ((1 << 254) - 8) | (1 << 254)
    return s, h[32:]


def public_key(seed: bytes) -> bytes:
    """RFC 8032 5.1.5: the 32-byte public key A = encode([s]B) of a seed."""
    return encode(pt_mul(_expand(seed)[0], B))


def ed25519_sign(seed: bytes, m: bytes) -> bytes:
    """8.3 Sign: RFC 8032 5.1.6, deterministic, R_enc || S_enc."""
    s, prefix = _expand(seed)
    a_enc = encode(pt_mul(s, B))
    r = int_le(hashlib.sha512(prefix + m).digest()) % L
    r_enc = encode(pt_mul(r, B))
    k = int_le(hashlib.sha512(r_enc + a_enc + m).digest()) % L
    return r_enc + ((r + k * s) % L).to_bytes(32, "little")


def verify_signature(a_enc: bytes, m: bytes, sig: bytes) -> None:
    """8.3: any failure is frame/bad-signature."""
    if ed25519_verify(a_enc, m, sig) != "ok":
        fail("frame/bad-signature")


def _decode_any_y(b: bytes) -> tuple[int, int, int, int] | None:
    """ZIP-215 decoding: any y below 2^255 taken mod p, and x = 0 with the sign bit set."""
    y = (int_le(b) & MASK255) % P
    x = recover_x(y, 0)
    if x is None:
        return None
    if b[31] >> 7 and x:
        x = P - x
    return (x, y, 1, x * y % P)


def _cofactored_equation(a: tuple[int, int, int, int], r: tuple[int, int, int, int],
                         s: int, k: int) -> bool:
    """[8][S]B = [8]R + [8][k]A."""
    return pt_eq(pt_mul(8, pt_mul(s, B)), pt_mul(8, pt_add(r, pt_mul(k, a))))


def reading_accepts(reading: str, a_enc: bytes, m: bytes, sig: bytes) -> bool:
    """8.3 "Readings that differ": whether `reading` accepts the signature."""
    if reading == "s-unreduced":
        return ed25519_verify(a_enc, m, sig, frozenset({2})) == "ok"
    if reading == "no-blocklist":
        return ed25519_verify(a_enc, m, sig, frozenset({3})) == "ok"
    if reading == "cofactored":
        return ed25519_verify(a_enc, m, sig, cofactored=True) == "ok"
    if len(a_enc) != 32 or len(sig) != 64 or int_le(sig[32:]) >= L:
        return False
    r_enc, s = sig[:32], int_le(sig[32:])
    k = int_le(hashlib.sha512(r_enc + a_enc + m).digest()) % L
    if reading == "zip215":
        a, r = _decode_any_y(a_enc), _decode_any_y(r_enc)
        return a is not None and r is not None and _cofactored_equation(a, r, s, k)
    if reading == "noble-strict":
        a, r = decode(a_enc), decode(r_enc)
        if a is None or r is None or pt_eq(pt_mul(8, a), NEUTRAL):
            return False
        return _cofactored_equation(a, r, s, k)
    raise ValueError(reading)


#: The readings of 8.3 "Readings that differ", in its order.
READINGS = ("s-unreduced", "no-blocklist", "cofactored", "zip215", "noble-strict")
