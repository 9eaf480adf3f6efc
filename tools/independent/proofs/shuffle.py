"""The verifiable shuffle, spec/07-shuffle.md: witness (7.3), proof (7.4), check (7.5).

shuffle_hedge, draw_shuffle and shuffle_prove reproduce the vectors' decks and proofs;
shuffle_verify checks a proof as the vectors give it (decoding order 7.6); check_shuffle is
the transcript verifier's, which decodes a SHUFFLE body first (8.5, [D6]).
"""

from __future__ import annotations

import math
from typing import Any

from independent.errors import fail, fail_err
from independent.group.hashing import H, H_scalar, T, nonce
from independent.group.ops import (
    IDENT,
    G,
    L,
    accept_point,
    add,
    bmul,
    deck_bytes,
    decode_deck,
    decode_point,
    decode_scalar,
    msm,
    sc,
    smul,
    sub,
    total,
    u64,
)
from independent.group.points import H_GEN, gens
from independent.wire.fields import f_array, f_bytes


def shuffle_hedge(secret: bytes, ctx: bytes, deck: bytes) -> bytes:
    """7.3: hedge = H(SHUFFLE_WITNESS, secret, ctx, deck_in)."""
    return H(T["SHUFFLE_WITNESS"], secret, ctx, deck)


def draw_shuffle(n: int, fresh: bytes, hedge: bytes) -> tuple[list[int], list[int]]:
    """7.3: Fisher-Yates permutation and output-indexed re-encryption randomness."""
    sw = T["SHUFFLE_WITNESS"]
    pi = list(range(n))
    for i in range(n - 1, 0, -1):
        j = int.from_bytes(H(sw, hedge, fresh, b"pi", u64(i)), "little") % (i + 1)
        pi[i], pi[j] = pi[j], pi[i]
    return pi, [H_scalar(sw, hedge, fresh, b"r", u64(i)) for i in range(n)]


def reenc(ct: tuple[bytes, bytes], r: int, y: bytes) -> tuple[bytes, bytes]:
    return add(ct[0], bmul(r)), add(ct[1], smul(r, y))  # 5.2


def statement(ctx: bytes, y: bytes, e: list, e2: list) -> bytes:
    """7.4: stmt = ctx || G || Y || h || h_0..h_{N-1} || deck(e) || deck(e')."""
    return ctx + G + y + H_GEN + b"".join(gens(len(e))) + deck_bytes(e) + deck_bytes(e2)


def u_values(stmt: bytes, c: list[bytes]) -> list[int]:
    seed_u = H(T["SHUFFLE_U"], stmt, b"".join(c))  # 7.4 step 2
    return [H_scalar(T["SHUFFLE_U"], seed_u, u64(j)) for j in range(len(c))]


def shuffle_prove(ctx, y, e, e2, pi, rr, fresh) -> bytes:
    """7.4 prover, only to reproduce the vectors' proof bytes."""
    n, hs = len(e), gens(len(e))
    stmt = statement(ctx, y, e, e2)
    wit = b"".join(u64(v) for v in pi) + b"".join(sc(v) for v in rr)
    k = [nonce(b"shuffle", wit, stmt, fresh, j) for j in range(4 * n + 4)]
    r, rh, wh, wp, (w1, w2, w3, w4) = k[:n], k[n:2*n], k[2*n:3*n], k[3*n:4*n], k[4*n:]
    c = [IDENT] * n
    for i in range(n):
        c[pi[i]] = add(bmul(r[pi[i]]), hs[i])
    u = u_values(stmt, c)
    up = [u[pi[i]] for i in range(n)]
    ch, prev = [], H_GEN
    for i in range(n):
        ch.append(add(bmul(rh[i]), smul(up[i], prev)))
        prev = ch[-1]
    t = [bmul(w1), bmul(w2), add(bmul(w3), msm(wp, hs)),
         sub(msm(wp, [ct[0] for ct in e2]), bmul(w4)),
         sub(msm(wp, [ct[1] for ct in e2]), smul(w4, y))]
    t += [add(bmul(wh[i]), smul(wp[i], ([H_GEN, *ch])[i])) for i in range(n)]
    chal = H_scalar(T["SHUFFLE_C"], stmt, b"".join(c), b"".join(ch), b"".join(t))
    v = [1] * n
    for i in range(n - 1, 0, -1):
        v[i - 1] = up[i] * v[i] % L
    r_bar, r_hat = sum(r), sum(a * b for a, b in zip(rh, v, strict=True))
    r_tilde = sum(a * b for a, b in zip(r, u, strict=True))
    r_prime = sum(a * b for a, b in zip(rr, up, strict=True))
    s = [w1 - chal * r_bar, w2 - chal * r_hat, w3 - chal * r_tilde, w4 - chal * r_prime]
    s += [wh[i] - chal * rh[i] for i in range(n)] + [wp[i] - chal * up[i] for i in range(n)]
    return b"".join(c) + b"".join(ch) + sc(chal) + b"".join(sc(x) for x in s)


def shuffle_verify(ctx: bytes, y_b: bytes, e_b: bytes, e2_b: bytes, proof: bytes) -> dict:
    """7.5 verifier; decoding order: key, input deck, output deck, proof (7.6)."""
    y, e, e2 = decode_point(y_b), decode_deck(e_b), decode_deck(e2_b)
    n = len(e)
    if n < 1 or len(e2) != n:
        fail("shuffle/size")
    if len(proof) != 128 * n + 160:
        fail("shuffle/length")
    pts = [decode_point(proof[32 * i : 32 * i + 32]) for i in range(2 * n)]
    off = 64 * n
    scs = [decode_scalar(proof[off + 32 * i : off + 32 * i + 32]) for i in range(2 * n + 5)]
    if len({e2_b[64 * i : 64 * i + 32] for i in range(n)}) != n:
        fail("shuffle/repeated-c1")  # 7.5: once everything is decoded, before the proof
    c, ch = pts[:n], pts[n:]
    chal, s1, s2, s3, s4 = scs[:5]
    sh, sp = scs[5 : 5 + n], scs[5 + n :]
    hs = gens(n)
    stmt = statement(ctx, y, e, e2)
    u = u_values(stmt, c)
    prod_u = math.prod(u) % L
    c_bar = sub(total(c), total(hs))
    c_hat = sub(ch[-1], smul(prod_u, H_GEN))
    c_tilde = msm(u, c)
    a, b = msm(u, [ct[0] for ct in e]), msm(u, [ct[1] for ct in e])
    t = [add(smul(chal, c_bar), bmul(s1)),
         add(smul(chal, c_hat), bmul(s2)),
         add(add(smul(chal, c_tilde), bmul(s3)), msm(sp, hs)),
         sub(add(smul(chal, a), msm(sp, [ct[0] for ct in e2])), bmul(s4)),
         sub(add(smul(chal, b), msm(sp, [ct[1] for ct in e2])), smul(s4, y))]
    prev = [H_GEN, *ch]
    t += [add(add(smul(chal, ch[i]), bmul(sh[i])), smul(sp[i], prev[i])) for i in range(n)]
    if H_scalar(T["SHUFFLE_C"], stmt, b"".join(c), b"".join(ch), b"".join(t)) != chal:
        fail("shuffle/challenge")
    return {"u": u, "t": t, "chal": chal, "deck_out": e2}


def check_shuffle(ctx: bytes, y: bytes, deck_in: bytes, body: Any) -> bytes:
    """8.5 SHUFFLE decoding order [D6], then 7.5. Returns the output deck bytes."""
    n = len(deck_in) // 64
    b = f_array(body, 2, "shuffle body")
    out = f_bytes(b[0], "deck", at_most=64 * n + 1)
    if len(out) % 64:
        fail_err("deck/length", f"{len(out)} bytes")
    for i in range(0, len(out), 32):
        accept_point(out[i : i + 32])
    proof = f_bytes(b[1], "shuffle proof", at_most=128 * n + 161)
    if len(proof) != 128 * n + 160:
        fail_err("shuffle/length", f"{len(proof)} bytes for N = {n}")
    pts = [accept_point(proof[32 * i : 32 * i + 32]) for i in range(2 * n)]
    scs = [decode_scalar(proof[64 * n + 32 * i : 64 * n + 32 * i + 32])
           for i in range(2 * n + 5)]
    if n < 1 or len(out) != 64 * n:
        fail_err("shuffle/size", f"{len(out) // 64} ciphertexts for N = {n}")
    e = [(deck_in[64 * i : 64 * i + 32], deck_in[64 * i + 32 : 64 * i + 64]) for i in range(n)]
    e2 = [(out[64 * i : 64 * i + 32], out[64 * i + 32 : 64 * i + 64]) for i in range(n)]
    c, ch = pts[:n], pts[n:]
    chal, s1, s2, s3, s4 = scs[:5]
    sh, sp = scs[5 : 5 + n], scs[5 + n :]
    hs = gens(n)
    stmt = ctx + G + y + H_GEN + b"".join(hs) + deck_in + out        # 7.4 stmt
    seed_u = H(T["SHUFFLE_U"], stmt, b"".join(c))
    u = [H_scalar(T["SHUFFLE_U"], seed_u, u64(j)) for j in range(n)]
    c_bar = sub(total(c), total(hs))
    c_hat = sub(ch[-1], smul(math.prod(u) % L, H_GEN))
    c_tilde = msm(u, c)
    a, bb = msm(u, [x[0] for x in e]), msm(u, [x[1] for x in e])
    t = [add(smul(chal, c_bar), bmul(s1)),
         add(smul(chal, c_hat), bmul(s2)),
         add(add(smul(chal, c_tilde), bmul(s3)), msm(sp, hs)),
         sub(add(smul(chal, a), msm(sp, [x[0] for x in e2])), bmul(s4)),
         sub(add(smul(chal, bb), msm(sp, [x[1] for x in e2])), smul(s4, y))]
    prev = [H_GEN, *ch]
    t += [add(add(smul(chal, ch[i]), bmul(sh[i])), smul(sp[i], prev[i])) for i in range(n)]
    if H_scalar(T["SHUFFLE_C"], stmt, b"".join(c), b"".join(ch), b"".join(t)) != chal:
        fail_err("shuffle/challenge",
                 "recomputed challenge differs: the output is not a proven shuffle")
    return out
