"""handshake.json: the peer handshake of spec/12-peers.md 12.3 (the invitation, the
messages' signatures, the host's pin, the key exchange over SECRET, and messages a
receiver ignores), through wire.handshake and wire.ed25519."""

from __future__ import annotations

import codecs
from typing import Any

from independent.checks.tally import Tally, load
from independent.errors import SpecError
from independent.group.hashing import H
from independent.group.ops import decode_point, hx, smul
from independent.wire.ed25519 import ed25519_sign, ed25519_verify, public_key
from independent.wire.handshake import (
    MAX_MESSAGE,
    PREFIX,
    Refused,
    b64url,
    from_host,
    host_pin,
    host_reads,
    joiner_reads,
    named_key,
    pake_confirm,
    pake_generator,
    pake_isk,
    pake_scalar,
    parse_invitation,
    signed_bytes,
)
from independent.wire.msgpack_pure import pack, unpack


def _reads(wire: bytes, rid: bytes, pin: bytes, host_key: bytes) -> None:
    """Who receives the message: a joiner reads the host's, the host a joiner's."""
    m = unpack(wire, MAX_MESSAGE)
    if from_host(m):
        joiner_reads(wire, rid, pin, host_key)
    else:
        host_reads(wire, rid)


def check_signatures(t: Tally, d: dict[str, Any], rid: bytes, pin: bytes,
                     host_key: bytes) -> dict[str, list[Any]]:
    """Each message: signed bytes, signature (verified by 8.3, and made again from the
    seed), wire = body + signature, and the key it names."""
    t.eq("signing_context (\\x00 written as text)",
         codecs.decode(d["signing_context"], "unicode_escape").encode("latin-1"), PREFIX)
    bodies = {}
    for s in d["signatures"]:
        nm, seed, key, wire = s["kind"], hx(s["signer_seed"]), hx(s["key"]), hx(s["wire"])
        body = unpack(hx(s["body"]), MAX_MESSAGE)
        m = unpack(wire, MAX_MESSAGE)
        nm += f" ({body[2]})" if nm == "hello" else ""
        bodies[nm] = m
        t.eq(f"{nm}: rid is the invitation's", hx(s["rid"]), rid)
        t.eq(f"{nm}: key of the seed (RFC 8032 5.1.5)", public_key(seed), key)
        t.eq(f"{nm}: signed bytes = prefix || pack([rid, body])",
             signed_bytes(hx(s["rid"]), body).hex(), s["signed_bytes"])
        t.eq(f"{nm}: wire = body + signature", m[:-1], body)
        t.eq(f"{nm}: wire re-packs to itself", pack(m).hex(), s["wire"])
        t.eq(f"{nm}: 8.3 verifies the signature",
             ed25519_verify(key, hx(s["signed_bytes"]), m[-1]), "ok")
        t.eq(f"{nm}: signing again (8.3 Sign)", ed25519_sign(seed, hx(s["signed_bytes"])),
             m[-1])
        if nm != "reveal":
            t.eq(f"{nm}: signed under the key it names", named_key(m), key)
        t.eq(f"{nm}: signer (the host signs hellos, rosters, reveals, refusals)",
             key == host_key, from_host(m))
        t.code(f"{nm}: its receiver reads it", lambda w=wire: _reads(w, rid, pin, host_key),
               "ok")
    return bodies


def check_round(t: Tally, m: dict[str, list[Any]]) -> None:
    """12.3 steps 3-6 across the signed messages: the roster seats the two hellos, the
    open is seat 1's and its nonce is the reveal's for seat 1."""
    host, join, roster = m["hello (host)"], m["hello (join)"], m["roster"]
    t.eq("roster seat 0 = host hello's key and commitment", (roster[1][0], roster[2][0]),
         (host[3], host[4]))
    t.eq("roster seat 1 = joiner hello's key and commitment", (roster[1][1], roster[2][1]),
         (join[3], join[4]))
    t.eq("open: seat 1's key and nonce", (m["open"][1], m["open"][2]),
         (roster[1][1], m["reveal"][1][1]))
    t.eq("reveal: K nonces", len(m["reveal"][1]), len(roster[1]))
    t.eq("reveal: each nonce opens its seat's commitment (12.3 step 6)",
         [H("HELLO_COMMIT", n)[:32] for n in m["reveal"][1]], list(roster[2]))
    t.eq("refuse: the host's key and the seat count", (m["refuse"][1], m["refuse"][4]),
         (host[3], host[7]))


def check_pins(t: Tally, d: dict[str, Any]) -> None:
    for i, p in enumerate(d["pins"]):
        pin = host_pin(hx(p["key"]))
        t.eq(f"pin {i} = H(HOST_PIN, key)[:16]", pin.hex(), p["pin"])
        t.eq(f"pin {i} text (unpadded base64url)", b64url(pin), p["pin_text"])


def check_invitations(t: Tally, d: dict[str, Any]) -> None:
    for v in d["invitations"]:
        try:
            rid, pin, secret = parse_invitation(v["url"])
            got = {"result": "ok", "rid": rid.hex(), "pin": pin.hex(), "secret": secret.hex()}
        except Refused as e:
            got = {"result": "refused", "why": str(e)}
        want = {k: v[k] for k in ("result", "rid", "pin", "secret") if k in v}
        t.eq(f"invitation: {v['note']} ({got.get('why', 'read')})",
             {k: got[k] for k in want}, want)


def _side(d: dict[str, Any], name: str, rid: bytes, gen: bytes) -> tuple[int, bytes]:
    s = d[name]
    y = pake_scalar(hx(s["seed"]), rid, hx(s["commitment"]), hx(s["fresh"]))
    return y, smul(y, gen)


def check_pake(t: Tally, d: dict[str, Any], m: dict[str, list[Any]]) -> None:
    """Generator, both scalars (3.4 hedged) and shares, confirm from either side, and a
    joiner's hello with that confirm through the host's checks."""
    p = d["pake"]
    rid, h, j = hx(p["rid"]), p["host"], p["joiner"]
    gen = pake_generator(hx(p["secret"]), rid)
    t.eq("pake generator G = H2P(PAKE_GENERATOR, SECRET, rid)", gen.hex(), p["generator"])
    y_h, share_h = _side(p, "host", rid, gen)
    y_j, share_j = _side(p, "joiner", rid, gen)
    for nm, y, share in (("host", y_h, share_h), ("joiner", y_j, share_j)):
        t.eq(f"pake {nm} scalar (3.4 k_0, label pake)", y.to_bytes(32, "little").hex(),
             p[nm]["scalar"])
        t.eq(f"pake {nm} share y*G", share.hex(), p[nm]["share"])
    t.eq("pake joiner key of its seed", public_key(hx(j["seed"])).hex(), j["key"])
    t.eq("pake host commitment = the host hello's", hx(h["commitment"]), m["hello (host)"][4])
    t.eq("pake host share = the host hello's", hx(h["share"]), m["hello (host)"][9])
    t.eq("pake joiner commitment = the joiner hello's", hx(j["commitment"]),
         m["hello (join)"][4])
    isk_h = pake_isk(rid, y_h, share_h, share_j, share_j)
    isk_j = pake_isk(rid, y_j, share_h, share_j, share_h)
    t.eq("pake ISK: the host's = the joiner's", isk_h, isk_j)
    ids = hx(j["key"]), hx(j["commitment"]), hx(h["commitment"])
    t.eq("pake confirm (joiner side)", pake_confirm(isk_j, *ids).hex(), p["confirm"])
    t.eq("pake confirm (host side)", pake_confirm(isk_h, *ids).hex(), p["confirm"])
    wrong = hx(p["wrong_secret_share"])
    t.code("wrong-secret share is a valid point (2.3)", lambda: decode_point(wrong), "ok")
    t.ok("wrong-secret share differs from the joiner's", wrong != share_j)
    t.ok("wrong_secret_confirm differs from confirm", p["wrong_secret_confirm"] != p["confirm"])
    host_sees = pake_confirm(pake_isk(rid, y_h, share_h, wrong, wrong), *ids)
    t.ok("host's confirm for the wrong-secret share != wrong_secret_confirm",
         host_sees.hex() != p["wrong_secret_confirm"])
    # The joiner's hello answering the host's round, signed by its seed, then read by the
    # host's checks: accepted, or refused for another secret or another round.
    state = {"y": y_h, "share": share_h, "commitment": hx(h["commitment"])}
    for nm, answers, share, confirm, want in (
            ("joiner hello with its confirm", h["commitment"], share_j, p["confirm"], "ok"),
            ("joiner hello of another secret", h["commitment"], wrong,
             p["wrong_secret_confirm"], "pake/confirm"),
            ("joiner hello answering another round", j["commitment"], share_j, p["confirm"],
             "round")):
        body = ["hello", 3, "join", ids[0], ids[1], hx(answers), share, hx(confirm)]
        wire = pack([*body, ed25519_sign(hx(j["seed"]), signed_bytes(rid, body))])
        t.code(f"host reads a {nm}", lambda w=wire: host_reads(w, rid, state), want)


def check_ignored(t: Tally, d: dict[str, Any], rid: bytes, pin: bytes,
                  host_key: bytes) -> None:
    for v in d["ignored"]:
        wire = hx(v["wire"])
        t.code(f"ignored: {v['note']}", lambda w=wire: _reads(w, rid, pin, host_key),
               v["check"])
        m = unpack(wire, MAX_MESSAGE)
        who = "the joiner" if from_host(m) else "the host"
        t.ok(f"ignored: {v['note']}: {who} receives it", v["then"].startswith(who))
        if v["check"].startswith("point/"):
            t.ok(f"ignored: {v['note']}: answered with refuse 'key'", "'key'" in v["then"])
        if v["check"] == "pin":  # signed by the key it names, so the pin alone fails
            k = named_key(m) or b""
            t.code(f"ignored: {v['note']}: passes under its own key's pin",
                   lambda w=wire, k=k: joiner_reads(w, rid, host_pin(k), k), "ok")


def check_handshake(t: Tally) -> None:
    d = load(t, "handshake.json")
    ok = [v for v in d["invitations"] if v["result"] == "ok"]
    t.eq("one invitation is read", len(ok), 1)
    rid, pin = hx(ok[0]["rid"]), hx(ok[0]["pin"])
    t.eq("the invitation's secret is the key exchange's", ok[0]["secret"], d["pake"]["secret"])
    t.eq("the invitation's rid is the key exchange's", ok[0]["rid"], d["pake"]["rid"])
    host_key = hx(d["pins"][0]["key"])
    t.eq("the invitation pins pins[0]'s key", d["pins"][0]["pin"], ok[0]["pin"])
    try:
        bodies = check_signatures(t, d, rid, pin, host_key)
        check_round(t, bodies)
        check_pake(t, d, bodies)
    except (SpecError, KeyError, IndexError, TypeError) as e:
        t.ok(f"signed messages readable: {type(e).__name__} {e}", False)
    check_pins(t, d)
    check_invitations(t, d)
    check_ignored(t, d, rid, pin, host_key)
