"""The verifiable shuffle, spec/07-shuffle.md: witness (7.3), proof (7.4), check (7.5), in a
game's suite (3.5: points of P bytes, ciphertexts of 2P, scalars of 32). From dealerless/3
the proof also sends t^_0..t^_{N-1} after the chain (7.6), hashed as sent and checked as one
random linear combination (7.5.1).

shuffle_hedge, draw_shuffle and shuffle_prove reproduce the vectors' decks and proofs;
shuffle_verify checks a proof as the vectors give it (decoding order 7.6); check_shuffle is
the transcript verifier's, which decodes a SHUFFLE body first (8.5, [D6]).
"""

from __future__ import annotations

import math
from typing import Any

from independent.errors import fail, fail_err
from independent.group.ops import u64
from independent.group.points import gens, h_gen
from independent.group.suites import Suite
from independent.wire.fields import f_array, f_bytes

Deck = list[tuple[bytes, bytes]]


def proof_points(s: Suite, n: int) -> int:
    """7.6: the proof's points: c and c^ (2N), and t^ too from dealerless/3 (3N)."""
    return (2 if s.version == 2 else 3) * n


def proof_bytes(s: Suite, n: int) -> int:
    """7.6: 2N points and 2N + 5 scalars (128N + 160 in edwards25519); from dealerless/3 3N
    points, 3NP + 32(2N + 5) bytes (160N + 160, or 208N + 160 in bls12381g1-sha256)."""
    return proof_points(s, n) * s.ops.P + (2 * n + 5) * 32


def split_deck(s: Suite, b: bytes) -> Deck:
    """5.2: c1 || c2 per ciphertext (already decoded)."""
    p = s.ops.P
    return [(b[i : i + p], b[i + p : i + 2 * p]) for i in range(0, len(b), 2 * p)]


def deck_bytes(e: Deck) -> bytes:
    return b"".join(c1 + c2 for c1, c2 in e)


def decode_deck(s: Suite, b: bytes) -> Deck:
    """1.2 / 5.2: a multiple of 2P bytes (deck/length), each point decoded in order."""
    if len(b) % (2 * s.ops.P):
        fail("deck/length")
    for i in range(0, len(b), s.ops.P):
        s.ops.accept(b[i : i + s.ops.P])
    return split_deck(s, b)


def shuffle_hedge(s: Suite, secret: bytes, ctx: bytes, deck: bytes) -> bytes:
    """7.3: hedge = H(SHUFFLE_WITNESS, secret, ctx, deck_in)."""
    return s.H("SHUFFLE_WITNESS", secret, ctx, deck)


def draw_shuffle(s: Suite, n: int, fresh: bytes, hedge: bytes) -> tuple[list[int], list[int]]:
    """7.3: Fisher-Yates permutation and output-indexed re-encryption randomness."""
    pi = list(range(n))
    for i in range(n - 1, 0, -1):
        j = int.from_bytes(s.H("SHUFFLE_WITNESS", hedge, fresh, b"pi", u64(i)), "little") % (
            i + 1)
        pi[i], pi[j] = pi[j], pi[i]
    return pi, [s.H_scalar("SHUFFLE_WITNESS", hedge, fresh, b"r", u64(i)) for i in range(n)]


def reenc(s: Suite, ct: tuple[bytes, bytes], r: int, y: bytes) -> tuple[bytes, bytes]:
    o = s.ops
    return o.add(ct[0], o.base(r)), o.add(ct[1], o.mul(r, y))  # 5.2


def statement(s: Suite, ctx: bytes, y: bytes, e: Deck, e2: Deck) -> bytes:
    """7.4: stmt = ctx || G || Y || h || h_0..h_{N-1} || deck(e) || deck(e')."""
    return (ctx + s.ops.G + y + h_gen(s) + b"".join(gens(s, len(e))) + deck_bytes(e)
            + deck_bytes(e2))


def u_values(s: Suite, stmt: bytes, c: list[bytes]) -> list[int]:
    seed_u = s.H("SHUFFLE_U", stmt, b"".join(c))  # 7.4 step 2
    return [s.H_scalar("SHUFFLE_U", seed_u, u64(j)) for j in range(len(c))]


def shuffle_prove(s: Suite, ctx: bytes, y: bytes, e: Deck, e2: Deck, pi: list[int],
                  rr: list[int], fresh: bytes) -> bytes:
    """7.4 prover, only to reproduce the vectors' proof bytes."""
    o, L = s.ops, s.ops.L
    n, hs, h = len(e), gens(s, len(e)), h_gen(s)
    stmt = statement(s, ctx, y, e, e2)
    wit = b"".join(u64(v) for v in pi) + b"".join(o.sc(v) for v in rr)
    k = [s.nonce(b"shuffle", wit, stmt, fresh, j) for j in range(4 * n + 4)]
    r, rh, wh, wp, (w1, w2, w3, w4) = k[:n], k[n:2*n], k[2*n:3*n], k[3*n:4*n], k[4*n:]
    c = [o.O] * n
    for i in range(n):
        c[pi[i]] = o.add(o.base(r[pi[i]]), hs[i])
    u = u_values(s, stmt, c)
    up = [u[pi[i]] for i in range(n)]
    ch, prev = [], h
    for i in range(n):
        ch.append(o.add(o.base(rh[i]), o.mul(up[i], prev)))
        prev = ch[-1]
    t = [o.base(w1), o.base(w2), o.add(o.base(w3), o.msm(wp, hs)),
         o.sub(o.msm(wp, [ct[0] for ct in e2]), o.base(w4)),
         o.sub(o.msm(wp, [ct[1] for ct in e2]), o.mul(w4, y))]
    t += [o.add(o.base(wh[i]), o.mul(wp[i], ([h, *ch])[i])) for i in range(n)]
    chal = s.H_scalar("SHUFFLE_C", stmt, b"".join(c), b"".join(ch), b"".join(t))
    sent = b"".join(t[5:]) if s.version >= 3 else b""     # 7.6: t^ after the chain (v3)
    v = [1] * n
    for i in range(n - 1, 0, -1):
        v[i - 1] = up[i] * v[i] % L
    r_bar, r_hat = sum(r), sum(a * b for a, b in zip(rh, v, strict=True))
    r_tilde = sum(a * b for a, b in zip(r, u, strict=True))
    r_prime = sum(a * b for a, b in zip(rr, up, strict=True))
    z = [w1 - chal * r_bar, w2 - chal * r_hat, w3 - chal * r_tilde, w4 - chal * r_prime]
    z += [wh[i] - chal * rh[i] for i in range(n)] + [wp[i] - chal * up[i] for i in range(n)]
    return b"".join(c) + b"".join(ch) + sent + o.sc(chal) + b"".join(o.sc(x) for x in z)


def _check(s: Suite, stmt: bytes, y: bytes, e: Deck, e2: Deck, pts: list[bytes],
           scs: list[int], proof: bytes) -> dict[str, Any]:
    """7.5's equations: the recomputed t values and whether the challenge matches; from
    dealerless/3 t1'..t4_2' with the t^ as sent (7.5.1 step 1), then step 2."""
    o, n = s.ops, len(e)
    c, ch = pts[:n], pts[n : 2 * n]
    chal, s1, s2, s3, s4 = scs[:5]
    sh, sp = scs[5 : 5 + n], scs[5 + n :]
    hs, h = gens(s, n), h_gen(s)
    u = u_values(s, stmt, c)
    c_bar = o.sub(o.total(c), o.total(hs))
    c_hat = o.sub(ch[-1], o.mul(math.prod(u) % o.L, h))
    c_tilde = o.msm(u, c)
    a, b = o.msm(u, [ct[0] for ct in e]), o.msm(u, [ct[1] for ct in e])
    t = [o.add(o.mul(chal, c_bar), o.base(s1)),
         o.add(o.mul(chal, c_hat), o.base(s2)),
         o.add(o.add(o.mul(chal, c_tilde), o.base(s3)), o.msm(sp, hs)),
         o.sub(o.add(o.mul(chal, a), o.msm(sp, [ct[0] for ct in e2])), o.base(s4)),
         o.sub(o.add(o.mul(chal, b), o.msm(sp, [ct[1] for ct in e2])), o.mul(s4, y))]
    if s.version >= 3:
        t += pts[2 * n :]                                   # 7.5.1 step 1: t^ as sent
        ok = s.H_scalar("SHUFFLE_C", stmt, b"".join(c), b"".join(ch), b"".join(t)) == chal
        ok = ok and _chain_combined(s, stmt, proof, ch, pts[2 * n :], chal, sh, sp)
        return {"u": u, "t": t, "chal": chal, "ok": ok}
    prev = [h, *ch]
    t += [o.add(o.msm([chal, sp[i]], [ch[i], prev[i]]), o.base(sh[i])) for i in range(n)]
    ok = s.H_scalar("SHUFFLE_C", stmt, b"".join(c), b"".join(ch), b"".join(t)) == chal
    return {"u": u, "t": t, "chal": chal, "ok": ok}


def shuffle_weights(s: Suite, stmt: bytes, proof: bytes, n: int) -> list[int]:
    """7.5.1 step 2: seed = H(SHUFFLE_WEIGHT, stmt, proof), a_0 = 1,
    a_i = H_scalar(SHUFFLE_WEIGHT, seed, u64(i)) for 0 < i < N."""
    seed = s.H("SHUFFLE_WEIGHT", stmt, proof)
    return [1] + [s.H_scalar("SHUFFLE_WEIGHT", seed, u64(i)) for i in range(1, n)]


def _chain_combined(s: Suite, stmt: bytes, proof: bytes, ch: list[bytes], th: list[bytes],
                    chal: int, sh: list[int], sp: list[int]) -> bool:
    """7.5.1 step 2: the N equations t^_i = chal*c^_i + s^_i*G + s'_i*c^_{i-1} (c^_{-1} = h)
    as one combination: sum a_i*t^_i - sum (a_i*chal + a_{i+1}*s'_{i+1})*c^_i
    - (a_0*s'_0)*h = (sum a_i*s^_i)*G, with a_N*s'_N read as 0 (one MSM of 2N + 1 terms)."""
    o, n = s.ops, len(ch)
    a = shuffle_weights(s, stmt, proof, n)
    coef = [-(a[i] * chal + (a[i + 1] * sp[i + 1] if i + 1 < n else 0)) for i in range(n)]
    lhs = o.msm(a + coef + [-(a[0] * sp[0])], th + ch + [h_gen(s)])
    return lhs == o.base(sum(ai * si for ai, si in zip(a, sh, strict=True)))


def _read_proof(s: Suite, proof: bytes, n: int) -> tuple[list[bytes], list[int]]:
    """7.6: the 2N points (3N from dealerless/3), then the 2N + 5 scalars."""
    o = s.ops
    pts = [o.accept(proof[o.P * i : o.P * (i + 1)]) for i in range(proof_points(s, n))]
    off = proof_points(s, n) * o.P
    return pts, [o.scalar(proof[off + 32 * i : off + 32 * (i + 1)]) for i in range(2 * n + 5)]


def shuffle_verify(s: Suite, ctx: bytes, y_b: bytes, e_b: bytes, e2_b: bytes,
                   proof: bytes) -> dict[str, Any]:
    """7.5 verifier; decoding order: key, input deck, output deck, proof (7.6)."""
    y, e, e2 = s.ops.accept(y_b), decode_deck(s, e_b), decode_deck(s, e2_b)
    n = len(e)
    if len(proof) != proof_bytes(s, n):
        fail("shuffle/length")
    pts, scs = _read_proof(s, proof, n)
    if n < 1 or len(e2) != n:
        fail("shuffle/size")    # 7.5: after the proof for N = |e| is decoded
    if len({c1 for c1, _ in e2}) != n:
        fail("shuffle/repeated-c1")  # 7.5: once everything is decoded, before the proof
    got = _check(s, statement(s, ctx, y, e, e2), y, e, e2, pts, scs, proof)
    if not got["ok"]:
        fail("shuffle/challenge")
    return {"u": got["u"], "t": got["t"], "chal": got["chal"], "deck_out": e2}


def check_shuffle(s: Suite, ctx: bytes, y: bytes, deck_in: bytes, body: Any) -> bytes:
    """8.5 SHUFFLE decoding order [D6], then 7.5. Returns the output deck bytes."""
    o = s.ops
    n = len(deck_in) // (2 * o.P)
    b = f_array(body, 2, "shuffle body")
    out = f_bytes(b[0], "deck", at_most=2 * o.P * n + 1)
    if len(out) % (2 * o.P):
        fail_err("deck/length", f"{len(out)} bytes")
    for i in range(0, len(out), o.P):
        o.accept(out[i : i + o.P])
    proof = f_bytes(b[1], "shuffle proof", at_most=proof_bytes(s, n) + 1)
    if len(proof) != proof_bytes(s, n):
        fail_err("shuffle/length", f"{len(proof)} bytes for N = {n}")
    pts, scs = _read_proof(s, proof, n)
    if n < 1 or len(out) != 2 * o.P * n:
        fail_err("shuffle/size", f"{len(out) // (2 * o.P)} ciphertexts for N = {n}")
    e, e2 = split_deck(s, deck_in), split_deck(s, out)
    stmt = ctx + o.G + y + h_gen(s) + b"".join(gens(s, n)) + deck_in + out        # 7.4 stmt
    if not _check(s, stmt, y, e, e2, pts, scs, proof)["ok"]:
        fail_err("shuffle/challenge",
                 "recomputed challenge differs: the output is not a proven shuffle")
    return out
