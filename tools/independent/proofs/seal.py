"""Sealed commitments, spec/06-proofs.md 6.6 (publicly verifiable secret sharing), in a
game's suite (3.5: points of P bytes, scalars of 32, a keystream of whole H outputs).

Written from the section's text: the generator (6.6.1), seal keys and their proof
(6.6.2), the context, threshold, coefficients and stream (6.6.3), the deal (6.6.4), the
checks of a received seal in their order (6.6.5), the committer's opening (6.6.6),
decryption shares and their checks (6.6.7), combination (6.6.8) and padding (6.6.3).

Points are encodings (group.encoded); a failure raises SpecError with the code of
the check (which seat is to blame is the caller's: the committer for a seal, its opening
and its padding, the sender for a decryption share, the key's seat for a key proof).
X_e is computed as a sum of e^i * C_i, by scalar multiplications (6.6.5 allows any
method; the reference uses Horner's rule).
"""

from __future__ import annotations

from typing import Any

from independent.errors import fail
from independent.group.ops import u64
from independent.group.suites import Suite

_HS: dict[tuple[str, int], bytes] = {}


def seal_generator(s: Suite) -> bytes:
    """6.6.1: Hs = H2P(SEAL_GENERATOR), the tag and no parts."""
    key = (s.name, s.version)
    if key not in _HS:
        _HS[key] = s.H2P("SEAL_GENERATOR")
    return _HS[key]


# --- 6.6.1 the one sigma protocol ---------------------------------------------------------
def _times(s: Suite, k: int, base: bytes) -> bytes:
    return s.ops.base(k) if base == s.ops.G else s.ops.mul(k, base)


def sigma_prove(s: Suite, tag: str, stmt: list[bytes], x: int, bases: list[bytes],
                k: int) -> tuple[int, int]:
    c = s.H_scalar(tag, *stmt, *[_times(s, k, b) for b in bases])
    return c, (k + c * x) % s.ops.L


def sigma_holds(s: Suite, tag: str, stmt: list[bytes], bases: list[bytes],
                images: list[bytes], c: int, z: int) -> bool:
    # z*B - c*I, as one sum of two terms (group.encoded's msm shares the doublings)
    again = [s.ops.msm([z, -c], [b, i]) for b, i in zip(bases, images, strict=True)]
    return s.H_scalar(tag, *stmt, *again) == c


# --- 6.6.2 seal keys ------------------------------------------------------------------------
def key_from_seed(s: Suite, seed: bytes, game_id: bytes) -> int:
    return s.H_scalar("SEAL_KEY", seed, game_id)


def key_prove(s: Suite, x: int, game_id: bytes, seat: int,
              fresh: bytes) -> tuple[bytes, int, int]:
    o = s.ops
    y = o.base(x)
    stmt = [game_id, u64(seat), o.G, y]
    k = s.nonce(b"dealerless/challenge/seal-key", o.sc(x), b"".join(stmt), fresh, 0)
    return (y, *sigma_prove(s, "SEAL_KEY_PROOF", stmt, x, [o.G], k))


def key_check(s: Suite, y_b: bytes, c_b: bytes, z_b: bytes, game_id: bytes, seat: int) -> None:
    o = s.ops
    y = o.accept(y_b)
    c, z = o.scalar(c_b), o.scalar(z_b)
    if not sigma_holds(s, "SEAL_KEY_PROOF", [game_id, u64(seat), o.G, y], [o.G], [y], c, z):
        fail("seal/key-proof")


# --- 6.6.3 context, polynomial, stream, padding -------------------------------------------------
class Ctx:
    """ctx, t and n of a committer's seal for recipients [(seat, key), ...]."""

    def __init__(self, s: Suite, game_id: bytes, stage: int, committer: int,
                 recipients: list[tuple[int, bytes]]) -> None:
        self.s = s
        m = len(recipients)
        self.t = m // 2 + 1 if m >= 2 else 1
        self.n = m if m >= 2 else 0
        self.committer, self.recipients = committer, recipients
        listed = b"".join(u64(j) + y for j, y in recipients)
        self.digest = s.H("SEAL_CONTEXT", game_id, u64(stage), u64(committer), u64(self.t),
                        listed)[:32]

    def key_of(self, seat: int) -> tuple[int, bytes]:
        """(index in R, key) of recipient `seat`."""
        for i, (j, y) in enumerate(self.recipients):
            if j == seat:
                return i, y
        fail("seal/not-recipient")


def coefficients(ctx: Ctx, n_bytes: bytes) -> list[int]:
    return [ctx.s.H_scalar("SEAL_COEFF", ctx.digest, n_bytes, u64(i)) for i in range(ctx.t)]


def poly(ctx: Ctx, a: list[int], e: int) -> int:
    order = ctx.s.ops.L
    return sum(ai * pow(e, i, order) for i, ai in enumerate(a)) % order


def stream_xor(ctx: Ctx, s_point: bytes, data: bytes) -> bytes:
    """6.6.3: the keystream K_0 || K_1 || ..., K_k = H(SEAL_STREAM, ctx, S, u64(k)), whole
    outputs of the suite's H (3.5: 64 or 32 bytes each)."""
    ks = ctx.s.stream("SEAL_STREAM", len(data), ctx.digest, s_point)
    return bytes(d ^ k for d, k in zip(data, ks, strict=True))


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
    s = ctx.s
    o, hs = s.ops, seal_generator(s)
    a = coefficients(ctx, n_bytes)
    cs = [o.mul(ai, hs) for ai in a]
    shares = []
    for idx, (j, y) in enumerate(ctx.recipients[:ctx.n]):
        pe = poly(ctx, a, j + 1)
        big_y = o.mul(pe, y)
        k = s.nonce(b"dealerless/challenge/seal-share", n_bytes, ctx.digest + b"".join(cs),
                    fresh, idx)
        c, z = sigma_prove(s, "SEAL_SHARE",
                           [ctx.digest, u64(j + 1), hs, y, b"".join(cs), big_y], pe, [hs, y],
                           k)
        shares.append([big_y, o.sc(c), o.sc(z)])
    return [cs, shares, stream_xor(ctx, o.base(a[0]), plaintext)]


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
    s = ctx.s
    o, hs = s.ops, seal_generator(s)
    cs = [o.accept(c) for c in v[0]]  # 2
    shares = [(o.accept(y), o.scalar(c), o.scalar(z)) for y, c, z in v[1]]  # 3
    joined = b"".join(cs)
    for (j, y), (big_y, c, z) in zip(ctx.recipients, shares, strict=False):  # 4
        e = j + 1
        x_e = o.msm([pow(e, i, o.L) for i in range(ctx.t)], cs)
        if not sigma_holds(s, "SEAL_SHARE", [ctx.digest, u64(e), hs, y, joined, big_y],
                           [hs, y], [x_e, big_y], c, z):
            fail("seal/share-proof")
    return cs, [s[0] for s in shares], v[2]


# --- 6.6.6 opening by the committer ------------------------------------------------------------
def open_seal(ctx: Ctx, cs: list[bytes], ct: bytes, s_bytes: bytes) -> bytes:
    o = ctx.s.ops
    secret = o.scalar(s_bytes)
    if o.mul(secret, seal_generator(ctx.s)) != cs[0]:
        fail("seal/opening")
    return stream_xor(ctx, o.base(secret), ct)


# --- 6.6.7 decryption shares ---------------------------------------------------------------------
def dec_prove(ctx: Ctx, ys: list[bytes], seat: int, x: int, fresh: bytes) -> list[bytes]:
    s = ctx.s
    o = s.ops
    i, y = ctx.key_of(seat)
    s_j = o.mul(pow(x, o.L - 2, o.L), ys[i])
    k = s.nonce(b"dealerless/challenge/seal-decrypt", o.sc(x),
                ctx.digest + u64(seat + 1) + y + ys[i], fresh, 0)
    c, z = sigma_prove(s, "SEAL_DECRYPT", [ctx.digest, u64(seat + 1), o.G, y, s_j, ys[i]], x,
                       [o.G, s_j], k)
    return [s_j, o.sc(c), o.sc(z)]


def check_dec(ctx: Ctx, ys: list[bytes], seat: int, v: Any) -> bytes:
    """Checks 1-3 of 6.6.7 on [S_j, c, z] from `seat`; returns S_j."""
    if not (isinstance(v, list) and len(v) == 3 and all(isinstance(b, bytes) for b in v)):
        fail("seal/shape")
    s = ctx.s
    o = s.ops
    s_j = o.accept(v[0])
    c, z = o.scalar(v[1]), o.scalar(v[2])
    i, y = ctx.key_of(seat)
    if not sigma_holds(s, "SEAL_DECRYPT", [ctx.digest, u64(seat + 1), o.G, y, s_j, ys[i]],
                       [o.G, s_j], [y, ys[i]], c, z):
        fail("seal/decryption-proof")
    return s_j


# --- 6.6.8 combination ----------------------------------------------------------------------------
def combine(ctx: Ctx, ct: bytes, shares: dict[int, bytes]) -> bytes:
    picked = sorted(shares)[:ctx.t]
    if ctx.n == 0 or len(picked) < ctx.t:
        fail("seal/too-few-shares")
    o = ctx.s.ops
    order = o.L
    es = [j + 1 for j in picked]
    lams = []
    for e in es:
        lam = 1
        for f in es:
            if f != e:
                lam = lam * f * pow(f - e, order - 2, order) % order
        lams.append(lam)
    s_point = o.msm(lams, [shares[j] for j in picked])
    assert s_point != o.O
    return stream_xor(ctx, s_point, ct)
