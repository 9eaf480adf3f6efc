"""The vectors of the group, hashing, tiles, proofs and deck: group.json, tiles.json
(spec 2, 3, 5.1, 7.2), schnorr.json (6.2), dleq.json (6.3, and its `batch` of 6.3.1 in a
suite's set), shuffle.json (7, with 7.5.1 at dealerless/3),
deck.json (5) and cannot_play.json (6.5). Every proof is also reproduced from its `fresh`.

Each check reads one vector set (checks.tally.VectorSet): dealerless/2's, in its one suite
(suites.V2), or a ciphersuite's at dealerless/3 (3.5), in that suite's group, hashes and
sizes. [C1] Where a hash takes a secret scalar (3.4's nonces, 7.3's hedge) it enters in
the suite's encoding (3.5 "scalars are hashed ... in the suite's encoding": big-endian in
bls12381g1), although 3.4 and the vectors' README say "32 bytes little-endian" (written
for dealerless/2, where the two agree)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from independent.checks.tally import V2_SET, Tally, VectorSet, load, negatives
from independent.errors import fail
from independent.group import hashing
from independent.group.hashing import TAGS, T, from_uniform_spec
from independent.group.ops import ctx_bytes, hx, u64
from independent.group.points import decode_tile, gens, h_gen, tile_points
from independent.group.suites import TAGS_V3, V2, Suite
from independent.proofs.cannot_play import cp_prove, cp_verify
from independent.proofs.dleq import (
    dleq_batch_prove,
    dleq_batch_verify,
    dleq_prove,
    dleq_verify,
)
from independent.proofs.schnorr import schnorr_prove, schnorr_verify
from independent.proofs.shuffle import (
    deck_bytes,
    decode_deck,
    draw_shuffle,
    reenc,
    shuffle_hedge,
    shuffle_prove,
    shuffle_verify,
)


def hashes(s: Suite) -> tuple[Callable[..., Any], ...]:
    """H, H_scalar, H2P and the nonce of 3.4: dealerless/2's as 3.1-3.4 write them
    (group.hashing; checks.groups.check_suite_v2 holds the suite layer to the same
    vectors), a suite's of 3.5 otherwise."""
    if s is V2:
        return hashing.H, hashing.H_scalar, hashing.H2P, hashing.nonce
    return s.H, s.H_scalar, s.H2P, s.nonce


def check_group(t: Tally, vs: VectorSet = V2_SET) -> None:
    g, s = load(t, "group.json", vs), vs.suite
    H, H_scalar, H2P, nonce = hashes(s)
    t.eq("version", g["version"], s.context.decode())
    t.eq("tag table", g["tags"], TAGS if s.version == 2 else TAGS_V3)
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
    o = s.ops
    for v in g["points"]:
        t.code(f"point {v['name']}", lambda v=v: o.accept(hx(v["hex"])), v["expected"])
        if "scalar" in v:
            t.eq(f"point {v['name']} = scalar*G", o.base(int(v["scalar"])).hex(), v["hex"])
    for v in g["scalars"]:
        got = t.code(f"scalar {v['name']}", lambda v=v: o.scalar(hx(v["hex"])), v["expected"])
        if "value" in v:
            t.eq(f"scalar {v['name']} value", got, int(v["value"]))
            t.eq(f"scalar {v['name']} re-encoded", o.sc(int(v["value"])).hex(), v["hex"])


def check_tiles(t: Tally, vs: VectorSet = V2_SET) -> None:
    d, s = load(t, "tiles.json", vs), vs.suite
    for name, entries in d["sets"].items():
        table = tile_points(s, name)
        t.eq(f"{name} canonical order", [x["tile"] for x in entries], list(table))
        for x in entries:
            t.eq(f"{name} {x['tile']}", table.get(x["tile"], b"").hex(), x["point"])
    t.eq("generator h", h_gen(s).hex(), d["generators"]["h"])
    hs = gens(s, len(d["generators"]["h_i"]))
    for i, want in enumerate(d["generators"]["h_i"]):
        t.eq(f"generator h_{i}", hs[i].hex(), want)
    if s.group.name != "edwards25519":
        return
    # 3.3's pseudocode of from_uniform, without libsodium, gives every table entry too
    # (3.5: edwards25519-sha512 keeps 3.3's H2P, of its own H).
    H = hashes(s)[0]
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


def check_prover(t: Tally, s: Suite, v: dict[str, Any], pr: dict[str, Any]) -> None:
    """Reproduce key, hedged nonce (3.4), challenge, response and proof bytes (6.2/6.3)."""
    t.eq(f"{v['name']} key", s.ops.base(int(v["secret"])).hex(), v["key"])
    for field, got in (("nonce", pr["nonce"]), ("challenge", pr["c"]), ("response", pr["s"])):
        t.eq(f"{v['name']} {field}", got, int(v[field]))
    t.eq(f"{v['name']} proof bytes", (s.ops.sc(pr["c"]) + s.ops.sc(pr["s"])).hex(),
         v["proof"])


def check_schnorr(t: Tally, vs: VectorSet = V2_SET) -> None:
    d, s = load(t, "schnorr.json", vs), vs.suite
    for v in d["positive"]:
        ctx = ctx_bytes(v["context"])
        pr = schnorr_prove(s, int(v["secret"]), ctx, hx(v["fresh"]))
        check_prover(t, s, v, pr)
        t.eq(f"{v['name']} commitment R", pr["R"].hex(), v["commitment"])
        r = t.code(v["name"], lambda v=v, c=ctx: schnorr_verify(s, hx(v["key"]),
                                                                hx(v["proof"]), c),
                   v["expected"])
        t.eq(f"{v['name']} commitment R'", r and r.hex(), v["commitment"])
    for v in negatives(d):
        t.code(v["name"], lambda v=v: schnorr_verify(s, hx(v["key"]), hx(v["proof"]),
                                                     ctx_bytes(v["context"])), v["expected"])


def check_dleq(t: Tally, vs: VectorSet = V2_SET) -> None:
    d, s = load(t, "dleq.json", vs), vs.suite
    for v in d["positive"]:
        ctx = ctx_bytes(v["context"])
        pr = dleq_prove(s, int(v["secret"]), hx(v["c1"]), ctx, hx(v["fresh"]))
        t.eq(f"{v['name']} share", pr["share"].hex(), v["share"])
        check_prover(t, s, v, pr)
        ab = t.code(v["name"], lambda v=v: run_dleq(s, v), v["expected"])
        t.eq(f"{v['name']} commitments A', B'", ab and (ab[0].hex(), ab[1].hex()),
             (v["commitment_a"], v["commitment_b"]))
    for v in negatives(d):
        t.code(v["name"], lambda v=v: run_dleq(s, v), v["expected"])
    if "batch" in d or s.version >= 3:
        check_dleq_batch(t, s, d.get("batch", {"positive": [], "negative": []}))


def check_dleq_batch(t: Tally, s: Suite, d: dict[str, Any]) -> None:
    """6.3.1 (dleq.json's `batch`, dealerless/3): shares, seed, weights, challenge, response
    and proof reproduced from `secret`, `c1s` and `fresh`; Verify's outcome of each case."""
    t.ok("batch: positive cases (6.3.1)", bool(d["positive"]))
    for v in d["positive"]:
        nm, ctx = v["name"], ctx_bytes(v["context"])
        pr = dleq_batch_prove(s, int(v["secret"]), [hx(c) for c in v["c1s"]], ctx,
                              hx(v["fresh"]))
        t.eq(f"{nm} shares D_j = x*c1_j", [x.hex() for x in pr["shares"]], v["shares"])
        t.eq(f"{nm} seed", pr["seed"].hex(), v["seed"])
        t.eq(f"{nm} weights", pr["weights"], [int(w) for w in v["weights"]])
        t.eq(f"{nm} key", s.ops.base(int(v["secret"])).hex(), v["key"])
        for field, got in (("nonce", pr["nonce"]), ("challenge", pr["c"]),
                           ("response", pr["s"])):
            if field in v:
                t.eq(f"{nm} {field}", got, int(v[field]))
        t.eq(f"{nm} proof bytes", (s.ops.sc(pr["c"]) + s.ops.sc(pr["s"])).hex(), v["proof"])
        out = t.code(nm, lambda v=v: run_dleq_batch(s, v), v["expected"]) or {}
        t.eq(f"{nm} verifier's seed", out.get("seed", b"").hex(), v["seed"])
        t.eq(f"{nm} verifier's weights", out.get("weights"), [int(w) for w in v["weights"]])
    for v in negatives(d):
        t.code(v["name"], lambda v=v: run_dleq_batch(s, v), v["expected"])


def run_dleq_batch(s: Suite, v: dict[str, Any]) -> dict[str, Any]:
    return dleq_batch_verify(s, hx(v["key"]), [hx(c) for c in v["c1s"]],
                             [hx(x) for x in v["shares"]], hx(v["proof"]),
                             ctx_bytes(v["context"]))


def run_dleq(s: Suite, v: dict[str, Any]) -> tuple:
    return dleq_verify(s, hx(v["key"]), hx(v["c1"]), hx(v["share"]), hx(v["proof"]),
                       ctx_bytes(v["context"]))


def run_shuffle(s: Suite, v: dict[str, Any]) -> dict:
    return shuffle_verify(s, ctx_bytes(v["context"]), hx(v["joint_key"]), hx(v["deck_in"]),
                          hx(v["deck_out"]), hx(v["proof"]))


def check_shuffle(t: Tally, vs: VectorSet = V2_SET) -> None:
    d, s = load(t, "shuffle.json", vs), vs.suite
    for v in d["positive"]:
        nm, n, y = v["name"], v["n"], hx(v["joint_key"])
        ctx = ctx_bytes(v["context"])
        hedge = shuffle_hedge(s, s.ops.sc(int(v["secret"])), ctx, hx(v["deck_in"]))  # [C1]
        t.eq(f"{nm} hedge (7.3)", hedge.hex(), v["hedge"])
        pi, rr = draw_shuffle(s, n, hx(v["fresh"]), hedge)
        t.eq(f"{nm} permutation (7.3)", pi, v["permutation"])
        t.eq(f"{nm} randomness (7.3)", rr, [int(x) for x in v["randomness"]])
        e, e2 = decode_deck(s, hx(v["deck_in"])), decode_deck(s, hx(v["deck_out"]))
        t.eq(f"{nm} deck_out = ReEnc(e_pi(i); r'_i)", [reenc(s, e[pi[i]], rr[i], y)
                                                     for i in range(n)], e2)
        proof = shuffle_prove(s, ctx, y, e, e2, pi, rr, hx(v["fresh"]))
        t.eq(f"{nm} proof bytes (7.4)", proof.hex(), v["proof"])
        out = t.code(nm, lambda v=v: run_shuffle(s, v), v["expected"]) or {}
        t.eq(f"{nm} challenge", out.get("chal"), int(v["challenge"]))
        if "u" in v:
            t.eq(f"{nm} u_j", out.get("u"), [int(x) for x in v["u"]])
        if "t" in v:
            t.eq(f"{nm} t values", [x.hex() for x in out.get("t", [])], v["t"])
    for v in negatives(d):
        t.code(v["name"], lambda v=v: run_shuffle(s, v), v["expected"])


def check_deck(t: Tally, vs: VectorSet = V2_SET) -> None:
    d, s = load(t, "deck.json", vs), vs.suite
    o = s.ops
    xs = [int(x) for x in d["secrets"]]
    k = len(xs)
    t.ok("2 <= k <= 8 (5.3)", 2 <= k <= 8)
    for i, x in enumerate(xs):
        t.eq(f"key Y_{i}", o.base(x).hex(), d["keys"][i])
        # 5.3: the context of each key proof is given in the vectors.
        ctx = ctx_bytes(d["key_contexts"][i])
        t.code(f"key proof {i}", lambda i=i, c=ctx: schnorr_verify(
            s, hx(d["keys"][i]), hx(d["key_proofs"][i]), c), "ok")
        pr = schnorr_prove(s, x, ctx, hx(d["key_fresh"][i]))
        t.eq(f"key proof {i} reproduced", (o.sc(pr["c"]) + o.sc(pr["s"])).hex(),
             d["key_proofs"][i])
    joint = o.total([o.accept(hx(y)) for y in d["keys"]])
    t.ok("joint key not O", joint != o.O)
    t.eq("joint key (5.3)", joint.hex(), d["joint_key"])
    table = tile_points(s, d["set"])
    init = [(o.G, o.add(table[tl], joint)) for tl in d["tiles"]]
    t.eq("initial deck (5.4)", deck_bytes(init).hex(), d["initial_deck"])
    cur = d["initial_deck"]
    for i, rnd in enumerate(d["rounds"]):
        t.eq(f"round {i} seat order (5.5)", (rnd["seat"], rnd["context"]["seat"]), (i, i))
        ctx = ctx_bytes(rnd["context"])
        t.code(f"shuffle round {i}", lambda r=rnd, c=cur, x=ctx: shuffle_verify(
            s, x, hx(d["joint_key"]), hx(c), hx(r["deck_out"]), hx(r["proof"])), "ok")
        pi, rr = draw_shuffle(s, len(d["tiles"]), hx(rnd["fresh"]), shuffle_hedge(
            s, o.sc(int(rnd["secret"])), ctx, hx(cur)))  # [C1]
        e_in = decode_deck(s, hx(cur))
        e_out = [reenc(s, e_in[j], r, hx(d["joint_key"])) for j, r in zip(pi, rr, strict=True)]
        t.eq(f"round {i} output reproduced (7.3)", deck_bytes(e_out).hex(), rnd["deck_out"])
        t.eq(f"round {i} proof reproduced (7.4)", shuffle_prove(
            s, ctx, hx(d["joint_key"]), e_in, e_out, pi, rr, hx(rnd["fresh"])).hex(),
            rnd["proof"])
        cur = rnd["deck_out"]
    final = decode_deck(s, hx(cur))
    for kind in ("private_opening", "public_opening"):
        op = d[kind]
        c1, c2 = final[op["position"]]
        shares = {}
        for sh in op["shares"]:
            seat = sh["seat"]
            t.eq(f"{kind} share of seat {seat} = x_s*c1", sh["share"], o.mul(xs[seat], c1).hex())
            t.code(f"{kind} DLEQ seat {seat}", lambda sh=sh, seat=seat, c1=c1: dleq_verify(
                s, hx(d["keys"][seat]), c1, hx(sh["share"]), hx(sh["proof"]),
                ctx_bytes(sh["context"])), "ok")
            pr = dleq_prove(s, xs[seat], c1, ctx_bytes(sh["context"]), hx(sh["fresh"]))
            t.eq(f"{kind} DLEQ seat {seat} reproduced", (o.sc(pr["c"]) + o.sc(pr["s"])).hex(),
                 sh["proof"])
            shares[seat] = hx(sh["share"])
        if kind == "private_opening":  # 5.6: seat s adds its own share privately
            seat = op["to_seat"]
            t.ok("private opening: no share from the receiving seat", seat not in shares)
            t.eq("private opening own share", o.mul(xs[seat], c1).hex(), op["own_share"])
            shares[seat] = hx(op["own_share"])
        t.eq(f"{kind} share set", sorted(shares), list(range(k)))
        m = o.sub(c2, o.total(list(shares.values())))
        tile = t.code(f"{kind} decodes (5.1)", lambda m=m: decode_tile(m, table), "ok")
        t.eq(f"{kind} tile", tile, op["tile"])
    for neg in d["negative"]:
        if neg["check"] == "joint_key":  # 5.3
            def joint_key(neg: dict[str, Any] = neg) -> None:
                if o.total([o.accept(hx(y)) for y in neg["keys"]]) == o.O:
                    fail("deck/joint-key-identity")
            t.code(neg["name"], joint_key, neg["expected"])
        else:  # 5.6: an opening missing a share decodes to no tile
            c1, c2 = final[neg["position"]]
            m = o.sub(c2, o.total([o.accept(hx(x)) for x in neg["shares"]]))
            t.code(neg["name"], lambda m=m: decode_tile(m, table), neg["expected"])


def check_cannot_play(t: Tally, vs: VectorSet = V2_SET) -> None:
    d, s = load(t, "cannot_play.json", vs), vs.suite
    o = s.ops
    for v in d["positive"]:
        nm = v["name"]
        for e in v["positions"]:
            r_j = o.sub(o.accept(hx(e["c2"])), o.total([o.accept(hx(x)) for x in e["shares"]]))
            t.eq(f"{nm} R_{e['position']} = c2 - other shares (6.5.1)", r_j.hex(), e["partial"])
        pr = t.code(f"{nm} prover", lambda v=v: cp_prove(s, v), "ok") or {}
        t.eq(f"{nm} nonces r, k_r, k_a (3.4)", pr.get("nonces"),
             [int(v["nonces"][n]) for n in ("r", "k_r", "k_a")])
        t.eq(f"{nm} K_j", [p.hex() for p in pr.get("K", [])], v["blinded_hand"])
        t.eq(f"{nm} Q_t", [p.hex() for p in pr.get("Q", [])], v["blinded_forbidden"])
        t.eq(f"{nm} c, z_r, z_a", (pr.get("c"), pr.get("z_r"), pr.get("z_a")),
             (int(v["challenge"]), int(v["z_r"]), int(v["z_a"])))
        t.eq(f"{nm} held tiles", pr.get("tiles"), v["tiles"])
        t.eq(f"{nm} proof bytes (6.5.4)", pr.get("proof", b"").hex(), v["proof"])
        com = t.code(nm, lambda v=v: cp_verify(s, v), v["expected"]) or []
        t.eq(f"{nm} recomputed commitments", [p.hex() for p in com], v["commitments"])
    for v in negatives(d):
        t.code(v["name"], lambda v=v: cp_verify(s, v), v["expected"])
    base = {p["name"]: p for p in d["positive"]}
    for n in d["refuse"]:
        v = {**base[n["case"]], **n}
        t.code(n["name"], lambda v=v: cp_prove(s, v), n["expected"])
