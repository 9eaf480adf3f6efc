"""The proof that no hand tile is playable, spec/06-proofs.md 6.5, in a game's suite (3.5:
points of P bytes, scalars of 32).

cp_statement builds 6.5.1's statement from a vector; cp_prove (6.5.3) reproduces the
vectors' proofs and refuses a false claim; cp_verify is 6.5.5. verify_cannot_play is the
transcript verifier's 6.5.5, on a statement built from the replayed state (10.4 PLAY 1a).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from independent.errors import fail, fail_err
from independent.group.ops import ctx_bytes, hx, lp, u64
from independent.group.points import Tile, decode_tile, tile_points, tile_text
from independent.group.suites import Suite


def cp_statement(s: Suite, v: dict[str, Any]) -> dict[str, Any]:
    """6.5.1: the verifier's own statement; R_j = c2_j - sum of the other seats' shares."""
    o = s.ops
    y = o.accept(hx(v["key"]))
    hand = []
    for e in v["positions"]:
        c1 = o.accept(hx(e["c1"]))
        if "shares" in e:
            r_j = o.sub(o.accept(hx(e["c2"])), o.total([o.accept(hx(d)) for d in e["shares"]]))
        else:  # a negative vector hands the partial opening over directly
            r_j = hx(e["partial"])
        hand.append((int(e["position"]), c1, r_j))
    table = tile_points(s, v["set"])
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
    stmt = (ctx_bytes(v["context"]) + o.G + y + lp(v["set"].encode()) + lp(hand_b)
            + lp(forb_b))
    return {"y": y, "hand": hand, "forb": forb, "stmt": stmt, "table": table}


def cp_challenge(s: Suite, stmt: bytes, k: list[bytes], q: list[bytes], t0: bytes,
                 t: list[bytes], u: list[bytes]) -> int:
    """6.5.3: c = H_scalar(CANNOT_PLAY, stmt, K, Q, T_0, T, U), six parts."""
    return s.H_scalar("CANNOT_PLAY", stmt, b"".join(k), b"".join(q), t0, b"".join(t),
                      b"".join(u))


def cp_prove(s: Suite, v: dict[str, Any]) -> dict[str, Any]:
    """6.5.3 prover, refusing a false claim with cannot-play/witness."""
    o = s.ops
    st, x = cp_statement(s, v), int(v["secret"]) % o.L
    if o.base(x) != st["y"]:
        fail("cannot-play/witness")
    ms = [o.sub(r_j, o.mul(x, c1)) for _, c1, r_j in st["hand"]]
    for m in ms:
        if decode_tile(m, st["table"]) in v["forbidden"]:
            fail("cannot-play/witness")
    label, fresh = b"dealerless/challenge/cannot-play", hx(v["fresh"])
    r, k_r, k_a = (s.nonce(label, o.sc(x), st["stmt"], fresh, i) for i in range(3))
    if r == 0:
        fail("cannot-play/nonce")
    a = r * x % o.L
    k = [o.mul(r, m) for m in ms]
    q = [o.mul(r, p) for _, p in st["forb"]]
    t0 = o.sub(o.base(k_a), o.mul(k_r, st["y"]))
    t = [o.sub(o.mul(k_r, r_j), o.mul(k_a, c1)) for _, c1, r_j in st["hand"]]
    u = [o.mul(k_r, p) for _, p in st["forb"]]
    c = cp_challenge(s, st["stmt"], k, q, t0, t, u)
    z_r, z_a = (k_r + c * r) % o.L, (k_a + c * a) % o.L
    return {"nonces": [r, k_r, k_a], "K": k, "Q": q, "c": c, "z_r": z_r, "z_a": z_a,
            "tiles": [decode_tile(m, st["table"]) for m in ms],
            "proof": b"".join(k + q) + o.sc(c) + o.sc(z_r) + o.sc(z_a)}


def _read(s: Suite, proof: bytes, h: int, f: int) -> tuple[list[bytes], list[int]]:
    """6.5.4: h + f points, then c, z_r, z_a."""
    o = s.ops
    pts = [o.accept(proof[o.P * i : o.P * (i + 1)]) for i in range(h + f)]
    off = o.P * (h + f)
    return pts, [o.scalar(proof[off + 32 * i : off + 32 * (i + 1)]) for i in range(3)]


def _commitments(s: Suite, y: bytes, hand: list[tuple[int, bytes, bytes]], pt: list[bytes],
                 k: list[bytes], q: list[bytes], c: int, z_r: int,
                 z_a: int) -> tuple[bytes, list[bytes], list[bytes]]:
    """6.5.5 step 3: T_0', T_j', U_t'."""
    o = s.ops
    t0 = o.sub(o.base(z_a), o.mul(z_r, y))
    tj = [o.msm([z_r, -z_a, -c], [r_j, c1, kj]) for (_, c1, r_j), kj in zip(hand, k, strict=True)]
    ut = [o.msm([z_r, -c], [p, qt]) for p, qt in zip(pt, q, strict=True)]
    return t0, tj, ut


def cp_verify(s: Suite, v: dict[str, Any]) -> list[bytes]:
    """6.5.5 verifier; returns T_0', T_j', U_t' in hashed order."""
    st = cp_statement(s, v)
    h, f, proof = len(st["hand"]), len(st["forb"]), hx(v["proof"])
    if len(proof) != s.ops.P * (h + f) + 96:
        fail("cannot-play/length")
    pts, (c, z_r, z_a) = _read(s, proof, h, f)
    k, q = pts[:h], pts[h:]
    t0, t, u = _commitments(s, st["y"], st["hand"], [p for _, p in st["forb"]], k, q, c,
                            z_r, z_a)
    if cp_challenge(s, st["stmt"], k, q, t0, t, u) != c:
        fail("cannot-play/challenge")
    if set(k) & set(q):  # some C_{j,t} = Q_t - K_j is O
        fail("cannot-play/identity")
    return [t0, *t, *u]


def verify_cannot_play(s: Suite, tiles: tuple[Tile, ...], point_of: dict[Tile, bytes],
                       set_name: str, ctx: bytes, y: bytes,
                       hand: list[tuple[int, bytes, bytes]], forb: list[Tile],
                       proof: bytes) -> None:
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
    stmt = ctx + s.ops.G + y + lp(set_name.encode()) + lp(hand_b) + lp(forb_b)
    if len(proof) != s.ops.P * (h + f) + 96:                                     # 2
        fail_err("cannot-play/length", f"{len(proof)} bytes for h = {h}, f = {f}")
    pts, (c, z_r, z_a) = _read(s, proof, h, f)
    k, q = pts[:h], pts[h:]
    t0, tj, ut = _commitments(s, y, hand, pt, k, q, c, z_r, z_a)                 # 3
    if cp_challenge(s, stmt, k, q, t0, tj, ut) != c:
        fail_err("cannot-play/challenge", "recomputed challenge differs: claim proof invalid")
    for (j, _, _), kj in zip(hand, k, strict=True):                              # 4
        for t, qt in zip(forb, q, strict=True):
            if kj == qt:
                fail_err("cannot-play/identity",
                         f"C = O: position {j} holds the forbidden tile {tile_text(t)}")
