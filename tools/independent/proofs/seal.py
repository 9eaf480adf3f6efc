"""Sealed commitments, spec/06-proofs.md 6.6 (publicly verifiable secret sharing).

Written from the section's text: the generator (6.6.1), seal keys and their proof
(6.6.2), the context, threshold, coefficients and stream (6.6.3), the deal (6.6.4), the
checks of a received seal in their order (6.6.5), the committer's opening (6.6.6),
decryption shares and their checks (6.6.7), combination (6.6.8) and padding (6.6.3).

Points are 32-byte encodings (group.ops); a failure raises SpecError with the code of
the check (which seat is to blame is the caller's: the committer for a seal, its opening
and its padding, the sender for a decryption share, the key's seat for a key proof).
X_e is computed as a sum of e^i * C_i, by scalar multiplications (6.6.5 allows any
method; the reference uses Horner's rule).
"""

from __future__ import annotations

from typing import Any

from independent.errors import fail
from independent.group.hashing import H2P, H, H_scalar, T, nonce
from independent.group.ops import (
    IDENT,
    G,
    L,
    bmul,
    decode_point,
    decode_scalar,
    msm,
    sc,
    smul,
    sub,
    total,
    u64,
)

HS = H2P(T["SEAL_GENERATOR"])  # 6.6.1: H with its tag and no parts


# --- 6.6.1 the one sigma protocol ---------------------------------------------------------
def _times(k: int, base: bytes) -> bytes:
    return bmul(k) if base == G else smul(k, base)


def sigma_prove(tag: str, stmt: list[bytes], x: int, bases: list[bytes],
                k: int) -> tuple[int, int]:
    c = H_scalar(tag, *stmt, *[_times(k, b) for b in bases])
    return c, (k + c * x) % L


def sigma_holds(tag: str, stmt: list[bytes], bases: list[bytes], images: list[bytes],
                c: int, z: int) -> bool:
    again = [sub(_times(z, b), smul(c, i)) for b, i in zip(bases, images, strict=True)]
    return H_scalar(tag, *stmt, *again) == c


# --- 6.6.2 seal keys ------------------------------------------------------------------------
def key_from_seed(seed: bytes, game_id: bytes) -> int:
    return H_scalar("SEAL_KEY", seed, game_id)


def key_prove(x: int, game_id: bytes, seat: int, fresh: bytes) -> tuple[bytes, int, int]:
    y = bmul(x)
    stmt = [game_id, u64(seat), G, y]
    k = nonce(T["SEAL_KEY_PROOF"], sc(x), b"".join(stmt), fresh, 0)
    return (y, *sigma_prove("SEAL_KEY_PROOF", stmt, x, [G], k))


def key_check(y_b: bytes, c_b: bytes, z_b: bytes, game_id: bytes, seat: int) -> None:
    y = decode_point(y_b)
    c, z = decode_scalar(c_b), decode_scalar(z_b)
    if not sigma_holds("SEAL_KEY_PROOF", [game_id, u64(seat), G, y], [G], [y], c, z):
        fail("seal/key-proof")


# --- 6.6.3 context, polynomial, stream, padding -------------------------------------------------
class Ctx:
    """ctx, t and n of a committer's seal for recipients [(seat, key), ...]."""

    def __init__(self, game_id: bytes, stage: int, committer: int,
                 recipients: list[tuple[int, bytes]]) -> None:
        m = len(recipients)
        self.t = m // 2 + 1 if m >= 2 else 1
        self.n = m if m >= 2 else 0
        self.committer, self.recipients = committer, recipients
        listed = b"".join(u64(j) + y for j, y in recipients)
        self.digest = H("SEAL_CONTEXT", game_id, u64(stage), u64(committer), u64(self.t),
                        listed)[:32]

    def key_of(self, seat: int) -> tuple[int, bytes]:
        """(index in R, key) of recipient `seat`."""
        for i, (j, y) in enumerate(self.recipients):
            if j == seat:
                return i, y
        fail("seal/not-recipient")


def coefficients(ctx: Ctx, n_bytes: bytes) -> list[int]:
    return [H_scalar("SEAL_COEFF", ctx.digest, n_bytes, u64(i)) for i in range(ctx.t)]


def poly(a: list[int], e: int) -> int:
    return sum(ai * pow(e, i, L) for i, ai in enumerate(a)) % L


def stream_xor(ctx: Ctx, s_point: bytes, data: bytes) -> bytes:
    blocks = (len(data) + 63) // 64
    ks = b"".join(H("SEAL_STREAM", ctx.digest, s_point, u64(k)) for k in range(blocks))
    return bytes(d ^ k for d, k in zip(data, ks[:len(data)], strict=True))


def unpad(p: bytes) -> bytes:
    if len(p) < 2:
        fail("seal/padding")
    n = int.from_bytes(p[:2], "big")
    if n > len(p) - 2 or p[2 + n:] != bytes(len(p) - 2 - n):
        fail("seal/padding")
    return p[2:2 + n]


# --- 6.6.4 deal ------------------------------------------------------------------------------
def deal(ctx: Ctx, n_bytes: bytes, plaintext: bytes, fresh: bytes) -> list[Any]:
    """The seal's wire value [commitments, shares, ciphertext]."""
    a = coefficients(ctx, n_bytes)
    cs = [smul(ai, HS) for ai in a]
    shares = []
    for idx, (j, y) in enumerate(ctx.recipients[:ctx.n]):
        pe = poly(a, j + 1)
        big_y = smul(pe, y)
        k = nonce(T["SEAL_SHARE"], n_bytes, ctx.digest + b"".join(cs), fresh, idx)
        c, z = sigma_prove("SEAL_SHARE", [ctx.digest, u64(j + 1), HS, y, b"".join(cs), big_y],
                           pe, [HS, y], k)
        shares.append([big_y, sc(c), sc(z)])
    return [cs, shares, stream_xor(ctx, bmul(a[0]), plaintext)]


# --- 6.6.5 checks of a received seal -----------------------------------------------------------
def check_seal(ctx: Ctx, v: Any, size: int) -> tuple[list[bytes], list[bytes], bytes]:
    """Checks 1-4 in order; returns (C, Y, ciphertext)."""
    ok = (isinstance(v, list) and len(v) == 3 and isinstance(v[0], list)
          and len(v[0]) == ctx.t and isinstance(v[1], list) and len(v[1]) == ctx.n
          and isinstance(v[2], bytes) and len(v[2]) == size
          and all(isinstance(c, bytes) for c in v[0])
          and all(isinstance(s, list) and len(s) == 3 and all(isinstance(b, bytes) for b in s)
                  for s in v[1]))
    if not ok:
        fail("seal/shape")  # 1
    cs = [decode_point(c) for c in v[0]]  # 2
    shares = [(decode_point(y), decode_scalar(c), decode_scalar(z)) for y, c, z in v[1]]  # 3
    joined = b"".join(cs)
    for (j, y), (big_y, c, z) in zip(ctx.recipients, shares, strict=False):  # 4
        e = j + 1
        x_e = msm([pow(e, i, L) for i in range(ctx.t)], cs)
        if not sigma_holds("SEAL_SHARE", [ctx.digest, u64(e), HS, y, joined, big_y],
                           [HS, y], [x_e, big_y], c, z):
            fail("seal/share-proof")
    return cs, [s[0] for s in shares], v[2]


# --- 6.6.6 opening by the committer ------------------------------------------------------------
def open_seal(ctx: Ctx, cs: list[bytes], ct: bytes, s_bytes: bytes) -> bytes:
    s = decode_scalar(s_bytes)
    if smul(s, HS) != cs[0]:
        fail("seal/opening")
    return stream_xor(ctx, bmul(s), ct)


# --- 6.6.7 decryption shares ---------------------------------------------------------------------
def dec_prove(ctx: Ctx, ys: list[bytes], seat: int, x: int, fresh: bytes) -> list[bytes]:
    i, y = ctx.key_of(seat)
    s_j = smul(pow(x, L - 2, L), ys[i])
    k = nonce(T["SEAL_DECRYPT"], sc(x), ctx.digest + u64(seat + 1) + y + ys[i], fresh, 0)
    c, z = sigma_prove("SEAL_DECRYPT", [ctx.digest, u64(seat + 1), G, y, s_j, ys[i]], x,
                       [G, s_j], k)
    return [s_j, sc(c), sc(z)]


def check_dec(ctx: Ctx, ys: list[bytes], seat: int, v: Any) -> bytes:
    """Checks 1-3 of 6.6.7 on [S_j, c, z] from `seat`; returns S_j."""
    if not (isinstance(v, list) and len(v) == 3 and all(isinstance(b, bytes) for b in v)):
        fail("seal/shape")
    s_j = decode_point(v[0])
    c, z = decode_scalar(v[1]), decode_scalar(v[2])
    i, y = ctx.key_of(seat)
    if not sigma_holds("SEAL_DECRYPT", [ctx.digest, u64(seat + 1), G, y, s_j, ys[i]],
                       [G, s_j], [y, ys[i]], c, z):
        fail("seal/decryption-proof")
    return s_j


# --- 6.6.8 combination ----------------------------------------------------------------------------
def combine(ctx: Ctx, ct: bytes, shares: dict[int, bytes]) -> bytes:
    picked = sorted(shares)[:ctx.t]
    if ctx.n == 0 or len(picked) < ctx.t:
        fail("seal/too-few-shares")
    es = [j + 1 for j in picked]
    terms = []
    for j, e in zip(picked, es, strict=True):
        lam = 1
        for f in es:
            if f != e:
                lam = lam * f * pow(f - e, L - 2, L) % L
        terms.append(smul(lam, shares[j]))
    s_point = total(terms)
    assert s_point != IDENT
    return stream_xor(ctx, s_point, ct)
