#!/usr/bin/env python3
"""Independent check of the dealerless/1 test vectors.

Written from spec/ and spec/vectors/ only: no code of the project is imported or read.
Group arithmetic uses libsodium through PyNaCl's low-level bindings (spec 2.1); point
decoding is classified in pure Python so that every rejection rule of 2.3 gets its own
error code, and is cross-checked against crypto_core_ed25519_is_valid_point.

The wire vectors (ed25519.json, msgpack.json, setup.json) are checked by
tools/independent_wire.py (pure Python: Ed25519 verification, msgpack, setup decoding).

Usage: python tools/independent_check.py   (exit 0 iff every check passes)
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any, NoReturn

from nacl import bindings as nb

VECTORS = Path(__file__).resolve().parent.parent / "spec" / "vectors"

# --- 1.1 constants ---------------------------------------------------------------------
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
G = bytes.fromhex("58" + "66" * 31)
IDENT = bytes([1]) + bytes(31)  # encoding of the identity; internal use only (2.2)


class SpecError(Exception):
    """A check failed with a stable `area/rule` code (1.4)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def fail(code: str) -> NoReturn:
    raise SpecError(code)


# --- 1.2 byte conventions ----------------------------------------------------------------
def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def lp(x: bytes) -> bytes:
    return len(x).to_bytes(4, "big") + x


def sc(a: int) -> bytes:
    return (a % L).to_bytes(32, "little")


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
def _ed_add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Extended-coordinate addition on -x^2 + y^2 = 1 + d x^2 y^2 (RFC 8032 5.1.4)."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa, bb = (y1 - x1) * (y2 - x2) % P, (y1 + x1) * (y2 + x2) % P
    cc, dd = 2 * D * t1 * t2 % P, 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _ed_mul(k: int, pt: tuple[int, ...]) -> tuple[int, ...]:
    acc = (0, 1, 1, 0)
    for bit in bin(k)[2:]:
        acc = _ed_add(acc, acc)
        if bit == "1":
            acc = _ed_add(acc, pt)
    return acc


def _is_neutral(pt: tuple[int, ...]) -> bool:
    return pt[0] % P == 0 and (pt[1] - pt[2]) % P == 0


def _point_rule(b: bytes) -> str | None:
    """2.3: the first broken rule, in table order, names the error (None: accepted)."""
    if len(b) != 32:
        return "point/length"
    y, sign = int.from_bytes(b, "little") & (2**255 - 1), b[31] >> 7
    if y >= P or (y in (1, P - 1) and sign):
        return "point/non-canonical"
    if b == IDENT:
        return "point/identity"
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(x2, (P + 3) // 8, P)  # square root as in RFC 8032 5.1.3
    if x * x % P != x2:
        x = x * SQRT_M1 % P
    if x * x % P != x2:
        return "point/not-on-curve"
    if x & 1 != sign:
        x = P - x
    pt = (x, y, 1, x * y % P)
    if _is_neutral(_ed_mul(8, pt)):
        return "point/small-order"
    if not _is_neutral(_ed_mul(L, pt)):
        return "point/torsion"
    return None


def decode_point(b: bytes) -> bytes:
    code = _point_rule(b)
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


# --- 3 hashing ------------------------------------------------------------------------------
TAGS = {
    "TILE": "dealerless/h2p/tile",
    "GENERATOR": "dealerless/h2p/generator",
    "SCHNORR": "dealerless/challenge/schnorr",
    "DLEQ": "dealerless/challenge/dleq",
    "CANNOT_PLAY": "dealerless/challenge/cannot-play",
    "SHUFFLE_U": "dealerless/challenge/shuffle-u",
    "SHUFFLE_C": "dealerless/challenge/shuffle-c",
    "NONCE": "dealerless/nonce",
    "SHUFFLE_WITNESS": "dealerless/shuffle-witness",
    "CONTEXT": "dealerless/context",
    "GAME": "dealerless/game-id",
    "FRAME": "dealerless/frame",
    "STATE": "dealerless/state",
    "COMMIT": "dealerless/first-player-commit",
    "FIRST_PLAYER": "dealerless/first-player",
    "KEY_SHARE": "dealerless/key-share",
    "SAS": "dealerless/short-auth-string",
    "HELLO_COMMIT": "dealerless/hello-commit",
    "MINED_COMMIT": "dealerless/mined/commit",
    "MINED_NONCE": "dealerless/mined/nonce",
    "MINED_MAP_SEED": "dealerless/mined/map-seed",
    "MINED_MAP": "dealerless/mined/map",
    "MINED_TIE": "dealerless/mined/tie",
}
T = {k: v.encode() for k, v in TAGS.items()}


def H(tag: bytes, *parts: bytes) -> bytes:
    """3.1: SHA-512(lp("dealerless/1") || lp(tag) || lp(part_1) || ...)."""
    if tag.decode() not in TAGS.values():
        fail("hash/untagged")
    return hashlib.sha512(b"".join(lp(x) for x in (b"dealerless/1", tag, *parts))).digest()


def H_scalar(tag: bytes, *parts: bytes) -> int:
    return int.from_bytes(H(tag, *parts), "little") % L  # 3.3


MONT_A = 486662


def from_uniform_spec(r: bytes) -> bytes:
    """3.3 "from_uniform, exactly", line by line, with no library."""
    sign = r[31] >> 7
    t = int.from_bytes(r[:31] + bytes([r[31] & 0x7F]), "little") % P
    u = -MONT_A * pow(1 + 2 * t * t, P - 2, P) % P
    e = (u**3 + MONT_A * u * u + u) % P
    if pow(e, (P - 1) // 2, P) == P - 1:
        u = (-u - MONT_A) % P
    y = (u - 1) * pow(u + 1, P - 2, P) % P
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(x2, (P + 3) // 8, P)  # square root as in RFC 8032 5.1.3
    if x * x % P != x2:
        x = x * SQRT_M1 % P
    if x * x % P != x2:
        fail("h2p/no-root")  # cannot happen (3.3)
    if x % 2 != sign:
        x = P - x
    x8, y8, z8, _ = _ed_mul(8, (x, y, 1, x * y % P))
    zi = pow(z8, P - 2, P)
    ax, ay = x8 * zi % P, y8 * zi % P
    return (ay | (ax % 2) << 255).to_bytes(32, "little")


def H2P(tag: bytes, *parts: bytes) -> bytes:
    pt = nb.crypto_core_ed25519_from_uniform(H(tag, *parts)[:32])  # 3.3
    if pt == IDENT:
        fail("h2p/identity")
    return pt


def nonce(label: bytes, secret: bytes, public: bytes, fresh: bytes, j: int) -> int:
    """3.4 hedged nonce k_j."""
    if len(fresh) < 32:
        fail("nonce/fresh-too-short")
    return H_scalar(T["NONCE"], label, secret, public, fresh, u64(j))


# --- 5.1 tiles, 7.2 generators -----------------------------------------------------------------
SETS = {"double-six": 6, "double-nine": 9, "double-twelve": 12}


def tile_points(set_name: str) -> dict[str, bytes]:
    n = SETS[set_name]
    return {f"{a}-{b}": H2P(T["TILE"], set_name.encode(), bytes([a, b]))
            for a in range(n + 1) for b in range(a, n + 1)}


def decode_tile(m: bytes, table: dict[str, bytes]) -> str:
    for name, pt in table.items():
        if pt == m:
            return name
    fail("deck/not-a-tile")


H_GEN = H2P(T["GENERATOR"], b"h")
_GENS: list[bytes] = []


def gens(n: int) -> list[bytes]:
    while len(_GENS) < n:
        _GENS.append(H2P(T["GENERATOR"], b"h_i", u64(len(_GENS))))
    return _GENS[:n]


# --- 6.2 Schnorr ------------------------------------------------------------------------------
def schnorr_prove(x: int, ctx: bytes, fresh: bytes) -> dict[str, Any]:
    y = bmul(x)
    k = nonce(T["SCHNORR"], sc(x), ctx + y, fresh, 0)
    r = bmul(k)
    c = H_scalar(T["SCHNORR"], ctx, G, y, r)
    return {"nonce": k, "R": r, "c": c, "s": (k + c * x) % L}


def schnorr_verify(y_b: bytes, proof: bytes, ctx: bytes) -> bytes:
    y = decode_point(y_b)
    if len(proof) != 64:
        fail("schnorr/length")
    c, s = decode_scalar(proof[:32]), decode_scalar(proof[32:])
    r = sub(bmul(s), smul(c, y))
    if H_scalar(T["SCHNORR"], ctx, G, y, r) != c:
        fail("schnorr/challenge")
    return r


# --- 6.3 Chaum-Pedersen -------------------------------------------------------------------------
def dleq_prove(x: int, c1: bytes, ctx: bytes, fresh: bytes) -> dict[str, Any]:
    y, d = bmul(x), smul(x, c1)
    k = nonce(T["DLEQ"], sc(x), ctx + y + c1, fresh, 0)
    a, b = bmul(k), smul(k, c1)
    c = H_scalar(T["DLEQ"], ctx, G, y, c1, d, a, b)
    return {"share": d, "nonce": k, "A": a, "B": b, "c": c, "s": (k + c * x) % L}


def dleq_verify(y_b: bytes, c1_b: bytes, d_b: bytes, proof: bytes, ctx: bytes) -> tuple:
    y, c1, d = decode_point(y_b), decode_point(c1_b), decode_point(d_b)
    if len(proof) != 64:
        fail("dleq/length")
    c, s = decode_scalar(proof[:32]), decode_scalar(proof[32:])
    a = sub(bmul(s), smul(c, y))
    b = sub(smul(s, c1), smul(c, d))
    if H_scalar(T["DLEQ"], ctx, G, y, c1, d, a, b) != c:
        fail("dleq/challenge")
    return a, b


# --- 7 shuffle ----------------------------------------------------------------------
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


# --- harness ------------------------------------------------------------------------
class Tally:
    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = {}
        self.file = ""

    def ok(self, what: str, cond: bool) -> None:
        self.counts.setdefault(self.file, [0, 0])[0 if cond else 1] += 1
        if not cond:
            print(f"FAIL {self.file}: {what}")

    def eq(self, what: str, got: Any, want: Any) -> None:
        self.ok(f"{what}: got {str(got)[:80]}, want {str(want)[:80]}", got == want)

    def code(self, what: str, fn: Callable[[], Any], expected: str) -> Any:
        try:
            out, got = fn(), "ok"
        except SpecError as err:
            out, got = None, err.code
        self.eq(f"{what} -> error code", got, expected)
        return out


def hx(s: str) -> bytes:
    return bytes.fromhex(s)


def load(tally: Tally, name: str) -> dict[str, Any]:
    tally.file = name
    return json.loads((VECTORS / name).read_text())


def negatives(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """vectors/README: a negative names a positive `case` and overrides some of its fields."""
    base = {p["name"]: p for p in doc["positive"]}
    return [{**base[n["case"]], **n} for n in doc["negative"]]


def check_group(t: Tally) -> None:
    g = load(t, "group.json")
    t.eq("version", g["version"], "dealerless/1")
    t.eq("tag table", g["tags"], TAGS)
    for i, v in enumerate(g["hash"]):
        parts, tag = [hx(x) for x in v["parts"]], v["tag"].encode()
        t.eq(f"hash[{i}] digest", H(tag, *parts).hex(), v["digest"])
        if "scalar" in v:
            t.eq(f"hash[{i}] H_scalar", H_scalar(tag, *parts), int(v["scalar"]))
        if "point" in v:
            t.eq(f"hash[{i}] H2P", H2P(tag, *parts).hex(), v["point"])
    nv = g["nonce"]
    for j, want in enumerate(nv["scalars"]):
        got = nonce(hx(nv["label"]), hx(nv["secret_bytes"]), hx(nv["public"]), hx(nv["fresh"]), j)
        t.eq(f"nonce k_{j}", got, int(want))
    for v in g["points"]:
        t.code(f"point {v['name']}", lambda v=v: decode_point(hx(v["hex"])), v["expected"])
        if "scalar" in v:
            t.eq(f"point {v['name']} = scalar*G", bmul(int(v["scalar"])).hex(), v["hex"])
    for v in g["scalars"]:
        got = t.code(f"scalar {v['name']}", lambda v=v: decode_scalar(hx(v["hex"])),
                     v["expected"])
        if "value" in v:
            t.eq(f"scalar {v['name']} value", got, int(v["value"]))


def check_tiles(t: Tally) -> None:
    d = load(t, "tiles.json")
    for name, entries in d["sets"].items():
        table = tile_points(name)
        t.eq(f"{name} canonical order", [x["tile"] for x in entries], list(table))
        for x in entries:
            t.eq(f"{name} {x['tile']}", table.get(x["tile"], b"").hex(), x["point"])
    t.eq("generator h", H_GEN.hex(), d["generators"]["h"])
    hs = gens(len(d["generators"]["h_i"]))
    for i, want in enumerate(d["generators"]["h_i"]):
        t.eq(f"generator h_{i}", hs[i].hex(), want)
    # 3.3's pseudocode of from_uniform, without libsodium, gives every table entry too.
    for name, entries in d["sets"].items():
        for x in entries:
            a, b = (int(v) for v in x["tile"].split("-"))
            got = from_uniform_spec(H(T["TILE"], name.encode(), bytes([a, b]))[:32])
            t.eq(f"{name} {x['tile']} by 3.3 pseudocode", got.hex(), x["point"])
    t.eq("generator h by 3.3 pseudocode",
         from_uniform_spec(H(T["GENERATOR"], b"h")[:32]).hex(), d["generators"]["h"])
    for i, want in enumerate(d["generators"]["h_i"]):
        got = from_uniform_spec(H(T["GENERATOR"], b"h_i", u64(i))[:32])
        t.eq(f"generator h_{i} by 3.3 pseudocode", got.hex(), want)


def check_prover(t: Tally, v: dict[str, Any], pr: dict[str, Any]) -> None:
    """Reproduce key, hedged nonce (3.4), challenge, response and proof bytes (6.2/6.3)."""
    t.eq(f"{v['name']} key", bmul(int(v["secret"])).hex(), v["key"])
    for field, got in (("nonce", pr["nonce"]), ("challenge", pr["c"]), ("response", pr["s"])):
        t.eq(f"{v['name']} {field}", got, int(v[field]))
    t.eq(f"{v['name']} proof bytes", (sc(pr["c"]) + sc(pr["s"])).hex(), v["proof"])


def check_schnorr(t: Tally) -> None:
    d = load(t, "schnorr.json")
    for v in d["positive"]:
        ctx = ctx_bytes(v["context"])
        pr = schnorr_prove(int(v["secret"]), ctx, hx(v["fresh"]))
        check_prover(t, v, pr)
        r = t.code(v["name"], lambda v=v, c=ctx: schnorr_verify(hx(v["key"]), hx(v["proof"]), c),
                   v["expected"])
        t.eq(f"{v['name']} commitment R'", r and r.hex(), v["commitment"])
    for v in negatives(d):
        t.code(v["name"], lambda v=v: schnorr_verify(hx(v["key"]), hx(v["proof"]),
                                                     ctx_bytes(v["context"])), v["expected"])


def check_dleq(t: Tally) -> None:
    d = load(t, "dleq.json")
    for v in d["positive"]:
        ctx = ctx_bytes(v["context"])
        pr = dleq_prove(int(v["secret"]), hx(v["c1"]), ctx, hx(v["fresh"]))
        t.eq(f"{v['name']} share", pr["share"].hex(), v["share"])
        check_prover(t, v, pr)
        ab = t.code(v["name"], lambda v=v: run_dleq(v), v["expected"])
        t.eq(f"{v['name']} commitments A', B'", ab and (ab[0].hex(), ab[1].hex()),
             (v["commitment_a"], v["commitment_b"]))
    for v in negatives(d):
        t.code(v["name"], lambda v=v: run_dleq(v), v["expected"])


def run_dleq(v: dict[str, Any]) -> tuple:
    return dleq_verify(hx(v["key"]), hx(v["c1"]), hx(v["share"]), hx(v["proof"]),
                       ctx_bytes(v["context"]))


def run_shuffle(v: dict[str, Any]) -> dict:
    return shuffle_verify(ctx_bytes(v["context"]), hx(v["joint_key"]), hx(v["deck_in"]),
                          hx(v["deck_out"]), hx(v["proof"]))


def check_shuffle(t: Tally) -> None:
    d = load(t, "shuffle.json")
    for v in d["positive"]:
        nm, n, y = v["name"], v["n"], hx(v["joint_key"])
        hedge = shuffle_hedge(sc(int(v["secret"])), ctx_bytes(v["context"]), hx(v["deck_in"]))
        t.eq(f"{nm} hedge (7.3)", hedge.hex(), v["hedge"])
        pi, rr = draw_shuffle(n, hx(v["fresh"]), hedge)
        t.eq(f"{nm} permutation (7.3)", pi, v["permutation"])
        t.eq(f"{nm} randomness (7.3)", rr, [int(x) for x in v["randomness"]])
        e, e2 = decode_deck(hx(v["deck_in"])), decode_deck(hx(v["deck_out"]))
        t.eq(f"{nm} deck_out = ReEnc(e_pi(i); r'_i)", [reenc(e[pi[i]], rr[i], y)
                                                     for i in range(n)], e2)
        proof = shuffle_prove(ctx_bytes(v["context"]), y, e, e2, pi, rr, hx(v["fresh"]))
        t.eq(f"{nm} proof bytes (7.4)", proof.hex(), v["proof"])
        out = t.code(nm, lambda v=v: run_shuffle(v), v["expected"]) or {}
        t.eq(f"{nm} challenge", out.get("chal"), int(v["challenge"]))
        if "u" in v:
            t.eq(f"{nm} u_j", out.get("u"), [int(x) for x in v["u"]])
        if "t" in v:
            t.eq(f"{nm} t values", [x.hex() for x in out.get("t", [])], v["t"])
    for v in negatives(d):
        t.code(v["name"], lambda v=v: run_shuffle(v), v["expected"])


def check_deck(t: Tally) -> None:
    d = load(t, "deck.json")
    xs = [int(x) for x in d["secrets"]]
    k = len(xs)
    t.ok("2 <= k <= 8 (5.3)", 2 <= k <= 8)
    for i, x in enumerate(xs):
        t.eq(f"key Y_{i}", bmul(x).hex(), d["keys"][i])
        # 5.3: the context of each key proof is given in the vectors.
        ctx = ctx_bytes(d["key_contexts"][i])
        t.code(f"key proof {i}", lambda i=i, c=ctx: schnorr_verify(
            hx(d["keys"][i]), hx(d["key_proofs"][i]), c), "ok")
        pr = schnorr_prove(x, ctx, hx(d["key_fresh"][i]))
        t.eq(f"key proof {i} reproduced", (sc(pr["c"]) + sc(pr["s"])).hex(), d["key_proofs"][i])
    joint = total([decode_point(hx(y)) for y in d["keys"]])
    t.ok("joint key not O", joint != IDENT)
    t.eq("joint key (5.3)", joint.hex(), d["joint_key"])
    table = tile_points(d["set"])
    init = [(G, add(table[tl], joint)) for tl in d["tiles"]]
    t.eq("initial deck (5.4)", deck_bytes(init).hex(), d["initial_deck"])
    cur = d["initial_deck"]
    for i, rnd in enumerate(d["rounds"]):
        t.eq(f"round {i} seat order (5.5)", (rnd["seat"], rnd["context"]["seat"]), (i, i))
        t.code(f"shuffle round {i}", lambda r=rnd, c=cur: shuffle_verify(
            ctx_bytes(r["context"]), hx(d["joint_key"]), hx(c), hx(r["deck_out"]),
            hx(r["proof"])), "ok")
        pi, rr = draw_shuffle(len(d["tiles"]), hx(rnd["fresh"]), shuffle_hedge(
            sc(int(rnd["secret"])), ctx_bytes(rnd["context"]), hx(cur)))
        e_in = decode_deck(hx(cur))
        e_out = [reenc(e_in[j], r, hx(d["joint_key"])) for j, r in zip(pi, rr, strict=True)]
        t.eq(f"round {i} output reproduced (7.3)", deck_bytes(e_out).hex(), rnd["deck_out"])
        t.eq(f"round {i} proof reproduced (7.4)", shuffle_prove(
            ctx_bytes(rnd["context"]), hx(d["joint_key"]), e_in, e_out, pi, rr,
            hx(rnd["fresh"])).hex(), rnd["proof"])
        cur = rnd["deck_out"]
    final = decode_deck(hx(cur))
    for kind in ("private_opening", "public_opening"):
        op = d[kind]
        c1, c2 = final[op["position"]]
        shares = {}
        for sh in op["shares"]:
            s = sh["seat"]
            t.eq(f"{kind} share of seat {s} = x_s*c1", sh["share"], smul(xs[s], c1).hex())
            t.code(f"{kind} DLEQ seat {s}", lambda sh=sh, s=s, c1=c1: dleq_verify(
                hx(d["keys"][s]), c1, hx(sh["share"]), hx(sh["proof"]),
                ctx_bytes(sh["context"])), "ok")
            shares[s] = hx(sh["share"])
        if kind == "private_opening":  # 5.6: seat s adds its own share privately
            s = op["to_seat"]
            t.ok("private opening: no share from the receiving seat", s not in shares)
            t.eq("private opening own share", smul(xs[s], c1).hex(), op["own_share"])
            shares[s] = hx(op["own_share"])
        t.eq(f"{kind} share set", sorted(shares), list(range(k)))
        m = sub(c2, total(list(shares.values())))
        tile = t.code(f"{kind} decodes (5.1)", lambda m=m: decode_tile(m, table), "ok")
        t.eq(f"{kind} tile", tile, op["tile"])
    for neg in d["negative"]:
        if neg["check"] == "joint_key":  # 5.3
            def joint(neg: dict[str, Any] = neg) -> None:
                if total([decode_point(hx(y)) for y in neg["keys"]]) == IDENT:
                    fail("deck/joint-key-identity")
            t.code(neg["name"], joint, neg["expected"])
        else:  # 5.6: an opening missing a share decodes to no tile
            c1, c2 = final[neg["position"]]
            m = sub(c2, total([hx(s) for s in neg["shares"]]))
            t.code(neg["name"], lambda m=m: decode_tile(m, table), neg["expected"])


# --- 6.5 proof that no hand tile is playable ------------------------------------------------
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


def check_cannot_play(t: Tally) -> None:
    d = load(t, "cannot_play.json")
    for v in d["positive"]:
        nm = v["name"]
        for e in v["positions"]:
            r_j = sub(hx(e["c2"]), total([hx(s) for s in e["shares"]]))
            t.eq(f"{nm} R_{e['position']} = c2 - other shares (6.5.1)", r_j.hex(), e["partial"])
        pr = t.code(f"{nm} prover", lambda v=v: cp_prove(v), "ok") or {}
        t.eq(f"{nm} nonces r, k_r, k_a (3.4)", pr.get("nonces"),
             [int(v["nonces"][n]) for n in ("r", "k_r", "k_a")])
        t.eq(f"{nm} K_j", [p.hex() for p in pr.get("K", [])], v["blinded_hand"])
        t.eq(f"{nm} Q_t", [p.hex() for p in pr.get("Q", [])], v["blinded_forbidden"])
        t.eq(f"{nm} c, z_r, z_a", (pr.get("c"), pr.get("z_r"), pr.get("z_a")),
             (int(v["challenge"]), int(v["z_r"]), int(v["z_a"])))
        t.eq(f"{nm} held tiles", pr.get("tiles"), v["tiles"])
        t.eq(f"{nm} proof bytes (6.5.4)", pr.get("proof", b"").hex(), v["proof"])
        com = t.code(nm, lambda v=v: cp_verify(v), v["expected"]) or []
        t.eq(f"{nm} recomputed commitments", [p.hex() for p in com], v["commitments"])
    for v in negatives(d):
        t.code(v["name"], lambda v=v: cp_verify(v), v["expected"])
    base = {p["name"]: p for p in d["positive"]}
    for n in d["refuse"]:
        v = {**base[n["case"]], **n}
        t.code(n["name"], lambda v=v: cp_prove(v), n["expected"])


def wire_checks() -> tuple[Callable[[Tally], None], ...]:
    """The wire vectors (ed25519, msgpack, setup: spec 8.1-8.3) are checked by
    tools/independent_wire.py, also written from the spec alone, in pure Python."""
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    import independent_wire

    return independent_wire.CHECKS


def main() -> int:
    t = Tally()
    for fn in (check_group, check_tiles, check_schnorr, check_dleq, check_shuffle, check_deck,
               check_cannot_play, *wire_checks()):
        fn(t)
        passed, failed = t.counts.get(t.file, [0, 0])
        print(f"{t.file}: {passed} passed, {failed} failed")
    passed = sum(c[0] for c in t.counts.values())
    failed = sum(c[1] for c in t.counts.values())
    # The single-step, transcript-file and match vectors need a whole replay: they are
    # checked by the independent verifier (tools/independent_dispute.py), run from here
    # so that this one command covers every vector file.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import independent_dispute

    more, wrong = independent_dispute.run()
    print(f"disputes/, files.json and setups (independent_dispute.py): {more} passed, "
          f"{wrong} failed")
    passed, failed = passed + more, failed + wrong
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
