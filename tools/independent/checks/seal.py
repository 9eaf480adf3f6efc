"""seal.json (spec/06-proofs.md 6.6, fields in spec/vectors/README.md): every deal, key
proof and decryption share is reproduced from its seeds, every wire value is checked,
three combinations per deal give the plaintext, and each case gives its code and blames
the seat 6.6 names: the committer for a seal, its opening and its padding (6.6.3,
6.6.5, 6.6.6), the sender for a decryption share (6.6.7), the key's seat (6.6.2).
dealerless/2's file and each suite's (checks.tally.VectorSet), in the set's suite (3.5)."""

from __future__ import annotations

from typing import Any

from independent.checks.tally import V2_SET, Tally, VectorSet, load
from independent.errors import SpecError
from independent.group.ops import hx
from independent.group.suites import Suite
from independent.proofs import seal as sl
from independent.wire.msgpack_pure import pack, unpack


def _ctx(s: Suite, d: dict[str, Any], keys: dict[int, bytes]) -> sl.Ctx:
    return sl.Ctx(s, hx(d["game_id"]), d["stage"], d["committer"],
                  [(j, keys[j]) for j in d["recipients"]])


def _outcome(fn: Any, culprit: int) -> tuple[str, int | None]:
    try:
        fn()
    except SpecError as err:
        return err.code, culprit
    return "ok", None


def check_seal(t: Tally, vs: VectorSet = V2_SET) -> None:
    v, s = load(t, "seal.json", vs), vs.suite
    sc = s.ops.sc
    t.eq("generator Hs", sl.seal_generator(s).hex(), v["generator"])
    game = hx(v["deals"][0]["game_id"])
    keys, secrets = {}, {}
    for k in v["keys"]:
        x = sl.key_from_seed(s, hx(k["seed"]), game)
        y, c, z = sl.key_prove(s, x, game, k["seat"], hx(k["fresh"]))
        t.eq(f"key {k['seat']}", (str(x), y.hex(), sc(c).hex(), sc(z).hex()),
             (k["x"], k["y"], k["c"], k["z"]))
        keys[k["seat"]], secrets[k["seat"]] = y, x
    deals = {}
    for d in v["deals"]:
        deals[d["name"]] = d
        _check_deal(t, s, d, keys, secrets)
    for case in v["cases"]:
        got = _case(s, case, deals, keys)
        t.eq(f"case {case['check']}: {case['name']}", got, (case["expected"], case["blame"]))
    d4 = deals["m=4"]
    other = v["other_seal"]
    ctx = sl.Ctx(s, hx(d4["game_id"]), other["stage"], other["committer"],
                 [(j, keys[j]) for j in d4["recipients"]])
    t.code("other stage's seal under its own context",
           lambda: sl.check_seal(ctx, unpack(hx(other["wire"]), 1 << 16), d4["size"]), "ok")


def _check_deal(t: Tally, s: Suite, d: dict[str, Any], keys: dict[int, bytes],
                secrets: dict[int, int]) -> None:
    name, sc = d["name"], s.ops.sc
    ctx = _ctx(s, d, keys)
    t.eq(f"{name} context", (ctx.digest.hex(), ctx.t), (d["context"], d["t"]))
    a = sl.coefficients(ctx, hx(d["nonce"]))
    t.eq(f"{name} coefficients", [str(x) for x in a], d["coefficients"])
    t.eq(f"{name} secret and S", (sc(a[0]).hex(), s.ops.base(a[0]).hex()),
         (d["secret"], d["seal_point"]))
    wire = sl.deal(ctx, hx(d["nonce"]), hx(d["plaintext"]), hx(d["fresh"]))
    t.eq(f"{name} deal reproduced", pack(wire).hex(), d["wire"])
    t.eq(f"{name} fields", ([c.hex() for c in wire[0]], [s[0].hex() for s in wire[1]],
                            wire[2].hex()),
         (d["commitments"], [s["point"] for s in d["shares"]], d["ciphertext"]))
    received = unpack(hx(d["wire"]), 1 << 16)
    cs, ys, ct = t.code(f"{name} seal checks", lambda: sl.check_seal(ctx, received, d["size"]),
                        "ok") or ([], [], b"")
    plain = t.code(f"{name} opening", lambda: sl.open_seal(ctx, cs, ct, hx(d["secret"])), "ok")
    t.eq(f"{name} opened plaintext", plain.hex() if plain else None, d["plaintext"])
    expected = d["unpad"]["expected"]
    data = t.code(f"{name} unpad", lambda: sl.unpad(hx(d["plaintext"])), expected)
    if expected == "ok":
        t.eq(f"{name} unpadded", data.hex(), d["unpad"]["data"])
    points = {}
    for s in d.get("decryption_shares", []):
        mine = sl.dec_prove(ctx, ys, s["seat"], secrets[s["seat"]], hx(s["fresh"]))
        t.eq(f"{name} decryption share {s['seat']}", pack(mine).hex(), s["wire"])
        points[s["seat"]] = t.code(
            f"{name} decryption share {s['seat']} checks",
            lambda s=s: sl.check_dec(ctx, ys, s["seat"], unpack(hx(s["wire"]), 1 << 10)), "ok")
    for combo in d.get("combinations", []):
        got = sl.combine(ctx, ct, {j: points[j] for j in combo["seats"]})
        t.eq(f"{name} combine {combo['seats']}", (got.hex(), combo["plaintext"]),
             (d["plaintext"], d["plaintext"]))


def _case(s: Suite, case: dict[str, Any], deals: dict[str, Any],
          keys: dict[int, bytes]) -> tuple[str, int | None]:
    kind = case["check"]
    if kind == "key":
        return _outcome(lambda: sl.key_check(s, hx(case["y"]), hx(case["c"]), hx(case["z"]),
                                             hx(case["game_id"]), case["seat"]), case["seat"])
    if kind == "unpad":
        def unpad() -> None:
            if sl.unpad(hx(case["padded"])).hex() != case["data"]:
                raise SpecError("wrong unpadded data")
        return _outcome(unpad, case["committer"])
    d = deals[case["deal"]]
    ctx = _ctx(s, d, keys)
    if kind == "seal":
        return _outcome(lambda: sl.check_seal(ctx, unpack(hx(case["wire"]), 1 << 16),
                                              case["size"]), ctx.committer)
    cs, ys, ct = sl.check_seal(ctx, unpack(hx(d["wire"]), 1 << 16), d["size"])
    if kind == "opening":
        def opening() -> None:
            if sl.open_seal(ctx, cs, ct, hx(case["secret"])).hex() != d["plaintext"]:
                raise SpecError("wrong plaintext")
        return _outcome(opening, ctx.committer)
    assert kind == "decryption", kind
    return _outcome(lambda: sl.check_dec(ctx, ys, case["seat"],
                                         unpack(hx(case["wire"]), 1 << 10)), case["seat"])
