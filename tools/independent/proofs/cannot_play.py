"""The proof that no hand tile is playable, spec/06-proofs.md 6.5.

cp_statement builds 6.5.1's statement from a vector; cp_prove (6.5.3) reproduces the
vectors' proofs and refuses a false claim; cp_verify is 6.5.5. verify_cannot_play is the
transcript verifier's 6.5.5, on a statement built from the replayed state (10.4 PLAY 1a).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from independent.errors import fail, fail_err
from independent.group.hashing import H_scalar, T, nonce
from independent.group.ops import (
    G,
    L,
    accept_point,
    bmul,
    ctx_bytes,
    decode_point,
    decode_scalar,
    hx,
    lp,
    sc,
    smul,
    sub,
    total,
    u64,
)
from independent.group.points import Tile, decode_tile, tile_points, tile_text


def cp_statement(v: dict[str, Any]) -> dict[str, Any]:
    """6.5.1: the verifier's own statement; R_j = c2_j - sum of the other seats' shares."""
    y = decode_point(hx(v["key"]))
    hand = []
    for e in v["positions"]:
        c1 = decode_point(hx(e["c1"]))
        if "shares" in e:
            r_j = sub(decode_point(hx(e["c2"])), total([decode_point(hx(d)) for d in e["shares"]]))
        else:  # a negative vector hands the partial opening over directly
            r_j = hx(e["partial"])
        hand.append((int(e["position"]), c1, r_j))
    table = tile_points(v["set"])
    names = list(table)
    if not 1 <= len(hand) <= 91 or not 1 <= len(v["forbidden"]) <= len(table):
        fail("cannot-play/size")
    pos = [j for j, _, _ in hand]
    if any(not 0 <= j < 2**64 for j in pos) or any(a >= b for a, b in pairwise(pos)):
        fail("cannot-play/order")
    if any(t not in table for t in v["forbidden"]):
        fail("tile/not-in-set")
    idx = [names.index(t) for t in v["forbidden"]]
    if any(a >= b for a, b in pairwise(idx)):
        fail("cannot-play/order")
    forb = [(t, table[t]) for t in v["forbidden"]]
    hand_b = b"".join(u64(j) + c1 + r_j for j, c1, r_j in hand)
    forb_b = b"".join(bytes(int(x) for x in t.split("-")) + p for t, p in forb)
    stmt = (ctx_bytes(v["context"]) + G + y + lp(v["set"].encode()) + lp(hand_b) + lp(forb_b))
    return {"y": y, "hand": hand, "forb": forb, "stmt": stmt, "table": table}


def cp_challenge(st: dict[str, Any], k: list[bytes], q: list[bytes], t0: bytes,
                 t: list[bytes], u: list[bytes]) -> int:
    """6.5.3: c = H_scalar(CANNOT_PLAY, stmt, K, Q, T_0, T, U), six parts."""
    return H_scalar(T["CANNOT_PLAY"], st["stmt"], b"".join(k), b"".join(q), t0, b"".join(t),
                    b"".join(u))


def cp_prove(v: dict[str, Any]) -> dict[str, Any]:
    """6.5.3 prover, refusing a false claim with cannot-play/witness."""
    st, x = cp_statement(v), int(v["secret"]) % L
    if bmul(x) != st["y"]:
        fail("cannot-play/witness")
    ms = [sub(r_j, smul(x, c1)) for _, c1, r_j in st["hand"]]
    for m in ms:
        if decode_tile(m, st["table"]) in v["forbidden"]:
            fail("cannot-play/witness")
    label, fresh = T["CANNOT_PLAY"], hx(v["fresh"])
    r, k_r, k_a = (nonce(label, sc(x), st["stmt"], fresh, i) for i in range(3))
    if r == 0:
        fail("cannot-play/nonce")
    a = r * x % L
    k = [smul(r, m) for m in ms]
    q = [smul(r, p) for _, p in st["forb"]]
    t0 = sub(bmul(k_a), smul(k_r, st["y"]))
    t = [sub(smul(k_r, r_j), smul(k_a, c1)) for _, c1, r_j in st["hand"]]
    u = [smul(k_r, p) for _, p in st["forb"]]
    c = cp_challenge(st, k, q, t0, t, u)
    z_r, z_a = (k_r + c * r) % L, (k_a + c * a) % L
    return {"nonces": [r, k_r, k_a], "K": k, "Q": q, "c": c, "z_r": z_r, "z_a": z_a,
            "tiles": [decode_tile(m, st["table"]) for m in ms],
            "proof": b"".join(k + q) + sc(c) + sc(z_r) + sc(z_a)}


def cp_verify(v: dict[str, Any]) -> list[bytes]:
    """6.5.5 verifier; returns T_0', T_j', U_t' in hashed order."""
    st = cp_statement(v)
    h, f, proof = len(st["hand"]), len(st["forb"]), hx(v["proof"])
    if len(proof) != 32 * (h + f + 3):
        fail("cannot-play/length")
    pts = [decode_point(proof[32 * i : 32 * i + 32]) for i in range(h + f)]
    c, z_r, z_a = (decode_scalar(proof[32 * (h + f + i) : 32 * (h + f + i + 1)])
                   for i in range(3))
    k, q = pts[:h], pts[h:]
    t0 = sub(bmul(z_a), smul(z_r, st["y"]))
    t = [sub(sub(smul(z_r, r_j), smul(z_a, c1)), smul(c, kj))
         for (_, c1, r_j), kj in zip(st["hand"], k, strict=True)]
    u = [sub(smul(z_r, p), smul(c, qt)) for (_, p), qt in zip(st["forb"], q, strict=True)]
    if cp_challenge(st, k, q, t0, t, u) != c:
        fail("cannot-play/challenge")
    if set(k) & set(q):  # some C_{j,t} = Q_t - K_j is O
        fail("cannot-play/identity")
    return [t0, *t, *u]


def verify_cannot_play(tiles: tuple[Tile, ...], point_of: dict[Tile, bytes], set_name: str,
                       ctx: bytes, y: bytes, hand: list[tuple[int, bytes, bytes]],
                       forb: list[Tile], proof: bytes) -> None:
    """6.5.5 (statement 6.5.1, decoding 6.5.4), from the verifier's own values."""
    h, f = len(hand), len(forb)
    if not 1 <= h <= 91 or not 1 <= f <= len(tiles):                             # 1
        fail_err("cannot-play/size")
    if any(a >= b for a, b in pairwise(j for j, _, _ in hand)):
        fail_err("cannot-play/order")
    if any(t not in point_of for t in forb):
        fail_err("tile/not-in-set")
    if any(a >= b for a, b in pairwise(tiles.index(t) for t in forb)):
        fail_err("cannot-play/order")
    pt = [point_of[t] for t in forb]
    hand_b = b"".join(u64(j) + c1 + r for j, c1, r in hand)
    forb_b = b"".join(bytes(t) + p for t, p in zip(forb, pt, strict=True))
    stmt = ctx + G + y + lp(set_name.encode()) + lp(hand_b) + lp(forb_b)
    if len(proof) != 32 * (h + f + 3):                                           # 2
        fail_err("cannot-play/length", f"{len(proof)} bytes for h = {h}, f = {f}")
    pts = [accept_point(proof[32 * i : 32 * i + 32]) for i in range(h + f)]
    c, z_r, z_a = (decode_scalar(proof[32 * (h + f + i) : 32 * (h + f + i + 1)])
                   for i in range(3))
    k, q = pts[:h], pts[h:]
    t0 = sub(bmul(z_a), smul(z_r, y))                                            # 3
    tj = [sub(sub(smul(z_r, r), smul(z_a, c1)), smul(c, kj))
          for (_, c1, r), kj in zip(hand, k, strict=True)]
    ut = [sub(smul(z_r, p), smul(c, qt)) for p, qt in zip(pt, q, strict=True)]
    if H_scalar(T["CANNOT_PLAY"], stmt, b"".join(k), b"".join(q), t0, b"".join(tj),
                b"".join(ut)) != c:
        fail_err("cannot-play/challenge", "recomputed challenge differs: claim proof invalid")
    for (j, _, _), kj in zip(hand, k, strict=True):                              # 4
        for t, qt in zip(forb, q, strict=True):
            if kj == qt:
                fail_err("cannot-play/identity",
                         f"C = O: position {j} holds the forbidden tile {tile_text(t)}")
