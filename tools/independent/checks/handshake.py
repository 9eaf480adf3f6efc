"""handshake.json: the peer handshake of spec/12-peers.md 12.3, peer protocol 10 (the
table secret's room and seat secrets, the invitations, the messages' signatures, the
host's pin, the key exchange over each joining seat's secret, messages a receiver
ignores, and the recorded round replayed from either side, at a table of the default suite
and at one of bls12381g1-sha256 with frame keys of G1 and their bindings), through
wire.handshake and
wire.ed25519."""

from __future__ import annotations

import codecs
from typing import Any

from independent.checks.tally import Tally, load
from independent.errors import SpecError
from independent.group.ops import decode_point, hx, smul
from independent.wire.ed25519 import ed25519_sign, ed25519_verify, public_key
from independent.wire.handshake import (
    MAX_MESSAGE,
    PEER_VERSION,
    PREFIX,
    H,
    Refused,
    b64url,
    binding,
    frame_key,
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
    room_secret,
    seat_secret,
    signed_bytes,
)
from independent.wire.msgpack_pure import pack, unpack
from independent.wire.setup_pure import decode_setup


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
    t.eq("peer_protocol is 12.3's version", d["peer_protocol"], PEER_VERSION)
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
    t.eq("roster frame keys: the host's, then the joiner hello's (8.3: in the suite of the "
         "host hello, the Ed25519 keys)", roster[3], [host[3], join[10]])
    t.eq("joiner hello names the host hello's suite", join[9], host[10])
    t.eq("joiner hello names seat 1, its seat in the roster", join[5], 1)
    t.eq("host hello: K-1 shares", len(host[9]), host[7] - 1)
    t.eq("open: seat 1's key and nonce", (m["open"][1], m["open"][2]),
         (roster[1][1], m["reveal"][1][1]))
    t.eq("reveal: K nonces", len(m["reveal"][1]), len(roster[1]))
    t.eq("reveal: each nonce opens its seat's commitment (12.3 step 6)",
         [H("HELLO_COMMIT", n)[:32] for n in m["reveal"][1]], list(roster[2]))
    t.eq("refuse: the host's key and the seat count", (m["refuse"][1], m["refuse"][4]),
         (host[3], host[7]))


def check_host_hello(t: Tally, d: dict[str, Any], m: dict[str, list[Any]], rid: bytes,
                     pin: bytes) -> None:
    """The host hello's `shares`, re-signed by the host: K-1 of them, each a valid point
    (the joiner validates every share of the hello)."""
    host, seed = m["hello (host)"], hx(d["pake"]["host"]["seed"])
    share = host[9][0]
    small = bytes(32)  # 0 encodes a point of order 4 (2.3 refuses it)
    for what, shares, want in (("as signed", host[9], "ok"),
                               ("with one share too many", [*host[9], share], "shape"),
                               ("with no share", [], "shape"),
                               ("with a share of 31 bytes", [share[:31]], "shape"),
                               ("with a small-order share", [small], "point/small-order")):
        body = [*host[:9], shares, host[10]]
        wire = pack([*body, ed25519_sign(seed, signed_bytes(rid, body))])
        t.code(f"joiner reads the host hello (K = {host[7]}) {what}",
               lambda w=wire: joiner_reads(w, rid, pin, host[3]), want)


def check_pins(t: Tally, d: dict[str, Any]) -> None:
    for i, p in enumerate(d["pins"]):
        pin = host_pin(hx(p["key"]))
        t.eq(f"pin {i} = H(HOST_PIN, key)[:16]", pin.hex(), p["pin"])
        t.eq(f"pin {i} text (unpadded base64url)", b64url(pin), p["pin_text"])


def check_secrets(t: Tally, d: dict[str, Any]) -> None:
    """"The invitation": R = H(INVITE_ROOM, T)[:16], S_i = H(INVITE_SEAT, T, u8(i))[:16]."""
    s = d["secrets"]
    table = hx(s["table"])
    t.eq("table secret: 16 bytes", len(table), 16)
    t.eq("room secret R = H(INVITE_ROOM, T)[:16]", room_secret(table).hex(), s["room"])
    t.eq("seat secrets for the joining seats 1..7", sorted(s["seats"], key=int),
         [str(i) for i in range(1, 8)])
    for i, want in s["seats"].items():
        t.eq(f"seat {i} secret S_i = H(INVITE_SEAT, T, u8(i))[:16]",
             seat_secret(table, int(i)).hex(), want)
    t.ok("seat secrets are distinct and differ from the room's",
         len({*s["seats"].values(), s["room"]}) == len(s["seats"]) + 1)


def check_invitations(t: Tally, d: dict[str, Any]) -> None:
    s = d["secrets"]
    for v in d["invitations"]:
        try:
            rid, pin, seat, room, secret = parse_invitation(v["url"])
            got: dict[str, Any] = {"result": "ok", "rid": rid.hex(), "pin": pin.hex(),
                                   "seat": seat, "room": room.hex(), "secret": secret.hex()}
        except Refused as e:
            got = {"result": "refused", "why": str(e), "part": e.part}
        want = {k: v[k] for k in ("result", "rid", "pin", "seat", "room", "secret", "part")
                if k in v}
        t.eq(f"invitation: {v['note']} ({got.get('why', 'read')})",
             {k: got.get(k) for k in want}, want)
        if got["result"] == "ok":
            t.eq(f"invitation: {v['note']}: ROOM is the table's R", got["room"], s["room"])
            t.eq(f"invitation: {v['note']}: SECRET is S_{got['seat']} of the table",
                 got["secret"], s["seats"].get(str(got["seat"])))


def _host_state(p: dict[str, Any], gens: dict[int, bytes], rid: bytes) -> dict[str, Any]:
    """The host's side of the round, from its seed and fresh bytes alone: for each joining
    seat i of its K, y_h,i and Y_h,i = y_h,i*G_i (`gens`: G_i over that seat's secret)."""
    h = p["host"]
    commitment, seats = hx(h["commitment"]), {}
    for i in range(1, p["seats"]):
        y = pake_scalar(hx(h["seed"]), rid, commitment, i, hx(h["fresh"]))
        seats[i] = (y, smul(y, gens[i]))
    return {"commitment": commitment, "seats": seats}


def _join_hello(j: dict[str, Any], rid: bytes, seat: int, answers: bytes, share: bytes,
                confirm: bytes, suite_name: str) -> bytes:
    """A joiner hello, signed by the joiner's seed; with an answer, its frame key in
    `suite_name` (8.3) and its binding at `seat` (12.3)."""
    key = frame_key(suite_name, hx(j["seed"])) if answers else b""
    bound = binding(suite_name, hx(j["seed"]), rid, seat) if answers else b""
    body = ["hello", PEER_VERSION, "join", hx(j["key"]), hx(j["commitment"]), seat, answers,
            share, confirm, suite_name, key, bound]
    return pack([*body, ed25519_sign(hx(j["seed"]), signed_bytes(rid, body))])


def check_pake(t: Tally, d: dict[str, Any], m: dict[str, list[Any]]) -> None:
    """Per joining seat of a K-seat table: the generator over S_i, both scalars (3.4
    hedged) and shares, ISK from either side, confirm; then joiner hellos through the
    host's checks: accepted with its confirm, refused with another seat's secret, for
    another seat, or answering another round."""
    p = d["pake"]
    rid, h, k = hx(p["rid"]), p["host"], p["seats"]
    hc = hx(h["commitment"])
    t.eq("pake: the table secret is secrets'", p["table"], d["secrets"]["table"])
    t.eq("pake: one exchange per joining seat 1..K-1", [e["seat"] for e in p["exchanges"]],
         list(range(1, k)))
    t.eq("pake host commitment = the host hello's", hc, m["hello (host)"][4])
    gens = {i: pake_generator(hx(d["secrets"]["seats"][str(i)]), rid) for i in range(1, k)}
    state = _host_state(p, gens, rid)
    played = m["hello (host)"][10]
    state["suite"] = played
    for e in p["exchanges"]:
        i, j = e["seat"], e["joiner"]
        nm = f"pake seat {i}"
        t.eq(f"{nm}: secret is S_{i} of the table", e["secret"], d["secrets"]["seats"][str(i)])
        gen = gens[i]
        t.eq(f"{nm}: generator G_i = H2P(PAKE_GENERATOR, S_i, rid)", gen.hex(), e["generator"])
        y_h, share_h = state["seats"][i]
        t.eq(f"{nm}: host scalar (3.4 k_0, label pake, rid || commitment || u8(i))",
             y_h.to_bytes(32, "little").hex(), e["host_scalar"])
        t.eq(f"{nm}: host share Y_h,i = y_h,i*G_i", share_h.hex(), e["host_share"])
        jc = hx(j["commitment"])
        y_j = pake_scalar(hx(j["seed"]), rid, jc, i, hx(j["fresh"]))
        share_j = smul(y_j, gen)
        t.eq(f"{nm}: joiner scalar (3.4 k_0, its own commitment)",
             y_j.to_bytes(32, "little").hex(), j["scalar"])
        t.eq(f"{nm}: joiner share Y_j = y_j*G_i", share_j.hex(), j["share"])
        t.eq(f"{nm}: joiner key of its seed", public_key(hx(j["seed"])).hex(), j["key"])
        isk_h = pake_isk(rid, i, y_h, share_h, share_j, share_j)
        isk_j = pake_isk(rid, i, y_j, share_h, share_j, share_h)
        t.eq(f"{nm}: ISK, the host's = the joiner's", isk_h, isk_j)
        ids = hx(j["key"]), jc, hc
        t.eq(f"{nm}: confirm (joiner side)", pake_confirm(isk_j, *ids).hex(), e["confirm"])
        t.eq(f"{nm}: confirm (host side)", pake_confirm(isk_h, *ids).hex(), e["confirm"])
        if i == 1:
            join = m["hello (join)"]
            t.eq(f"{nm}: the host hello's shares[0]", share_h, m["hello (host)"][9][0])
            t.eq(f"{nm}: joiner = the signed joiner hello's key and commitment",
                 (hx(j["key"]), jc), (join[3], join[4]))
            t.eq(f"{nm}: the signed joiner hello answers the host hello with this "
                 "exchange's share and confirm", (join[5], join[6], join[7], join[8]),
                 (1, hc, share_j, hx(e["confirm"])))
            t.eq(f"{nm}: the signed joiner hello's suite, frame key (8.3) and binding",
                 (join[9], join[10], join[11]), (played, frame_key(played, hx(j["seed"])),
                                                 binding(played, hx(j["seed"]), rid, 1)))
            join_wire = pack(join)
            t.code(f"{nm}: the host seats the signed joiner hello",
                   lambda w=join_wire: host_reads(w, rid, state), "ok")
        # The holder of another seat's secret S_o claiming seat i: its share y_j*G_o, and
        # its confirm over K = y_j*Y_h,i (the host's share for seat i).
        o = next(x for x in range(1, k) if x != i)
        wrong, wrong_confirm = hx(e["other_seat_share"]), hx(e["other_seat_confirm"])
        t.code(f"{nm}: other seat's share is a valid point (2.3)", lambda w=wrong:
               decode_point(w), "ok")
        t.eq(f"{nm}: other seat's share = y_j*G_o (S_{o}'s generator)",
             smul(y_j, gens[o]), wrong)
        t.eq(f"{nm}: other seat's confirm, over K = y_j*Y_h,i",
             pake_confirm(pake_isk(rid, i, y_j, share_h, wrong, share_h), *ids), wrong_confirm)
        host_sees = pake_confirm(pake_isk(rid, i, y_h, share_h, wrong, wrong), *ids)
        t.ok(f"{nm}: the host's confirm for the other seat's share differs from its "
             "sender's", host_sees != wrong_confirm)
        other = next(n for n in ("bls12381g1-sha256", "edwards25519-sha512") if n != played)
        for what, seat, answers, share, confirm, named, want in (
                ("with its confirm", i, hc, share_j, hx(e["confirm"]), played, "ok"),
                ("with the other seat's secret share", i, hc, wrong, wrong_confirm, played,
                 "pake/confirm"),
                ("with its confirm, claiming the other seat", o, hc, share_j,
                 hx(e["confirm"]), played, "pake/confirm"),
                ("answering another round", i, jc, share_j, hx(e["confirm"]), played,
                 "round"),
                ("for seat K, which the table has not", k, hc, share_j, hx(e["confirm"]),
                 played, "seat"),
                ("that has seen no host hello", i, b"", b"", b"", "", "ok"),
                ("that has seen no host hello, asking for its own suite", i, b"", b"", b"",
                 played, "ok"),
                (f"that has seen no host hello, asking for {other}", i, b"", b"", b"",
                 other, "suite"),
                (f"with its confirm and its frame key of {other}, another suite", i, hc,
                 share_j, hx(e["confirm"]), other, "suite")):
            wire = _join_hello(j, rid, seat, answers, share, confirm, named)
            t.code(f"{nm}: host reads a joiner hello {what}",
                   lambda w=wire: host_reads(w, rid, state), want)


def check_replay(t: Tally, d: dict[str, Any], m: dict[str, list[Any]]) -> None:
    """`round`: the five recorded messages of `signatures` made again from each side's own
    inputs, as a host and a joiner of 12.3 would, and the setup both then hold (8.2);
    `round_bls12381g1_sha256`: the same round at a table of that suite, from its own
    recorded messages, whose frame keys are keys of G1 (8.3)."""
    r = d["round"]
    replay_round(t, r, [pack(m[name]) for name in r["messages"]], "round")
    b = d["round_bls12381g1_sha256"]
    t.eq("round in bls12381g1-sha256: the same seats, nonces and table as `round`",
         {k: b[k] for k in ("rid", "table", "host", "joiner", "invitation", "messages")},
         {k: r[k] for k in ("rid", "table", "host", "joiner", "invitation", "messages")})
    replay_round(t, b, [hx(w) for w in b["wires"]], "round in bls12381g1-sha256")


def replay_round(t: Tally, r: dict[str, Any], wires: list[bytes], nm: str) -> None:
    """One round of `r`'s table: its five messages `wires` made again from each side's own
    inputs, and the setup both then hold."""
    rid, table, k, played = hx(r["rid"]), hx(r["table"]), r["seats"], r["suite"]

    def signed(seed: bytes, body: list[Any]) -> bytes:
        return pack([*body, ed25519_sign(seed, signed_bytes(rid, body))])

    # The host: its seed, nonce, fresh bytes and table secret.
    h = r["host"]
    h_seed, h_nonce = hx(h["seed"]), hx(h["nonce"])
    h_key, hc = public_key(h_seed), H("HELLO_COMMIT", h_nonce)[:32]
    seats = {}
    for i in range(1, k):
        y = pake_scalar(h_seed, rid, hc, i, hx(h["fresh"]))
        seats[i] = (y, smul(y, pake_generator(seat_secret(table, i), rid)))
    state = {"commitment": hc, "seats": seats, "suite": played}
    hello = ["hello", PEER_VERSION, "host", h_key, hc, r["rules"], r["params"], k,
             h["round"], [seats[i][1] for i in range(1, k)], played]
    t.eq(f"{nm}, host side: its hello", signed(h_seed, hello), wires[0])
    t.code(f"{nm}, host side: it seats the joiner's hello (frame key, suite, round, share, "
           "confirm)", lambda: host_reads(wires[1], rid, state), "ok")
    join = unpack(wires[1], MAX_MESSAGE)
    frame_keys = [frame_key(played, h_seed), join[10]]
    t.eq(f"{nm}: the frame keys (8.3), the host's from its seed", [f.hex() for f in frame_keys],
         r["frame_keys"])
    bindings = [binding(played, h_seed, rid, 0), join[11]]
    t.eq(f"{nm}: the frame-key bindings (12.3), the host's from its seed",
         [b.hex() for b in bindings], r["bindings"])
    t.eq(f"{nm}, host side: its roster", signed(h_seed, ["roster", [h_key, join[3]],
                                                          [hc, join[4]], frame_keys,
                                                          bindings]), wires[2])
    opened = unpack(wires[3], MAX_MESSAGE)
    t.code(f"{nm}, host side: the open verifies under the roster's key",
           lambda: host_reads(wires[3], rid), "ok")
    t.eq(f"{nm}, host side: the open is seat 1's and opens its commitment",
         (opened[1], H("HELLO_COMMIT", opened[2])[:32]), (join[3], join[4]))
    t.eq(f"{nm}, host side: its reveal", signed(h_seed, ["reveal", [h_nonce, opened[2]]]),
         wires[4])

    # The joiner: its seed, nonce, fresh bytes and invitation.
    j = r["joiner"]
    j_seed, j_nonce = hx(j["seed"]), hx(j["nonce"])
    j_key, jc = public_key(j_seed), H("HELLO_COMMIT", j_nonce)[:32]
    inv_rid, pin, seat, _, secret = parse_invitation(r["invitation"])
    t.eq(f"{nm}, joiner side: its invitation's rid and seat", (inv_rid, seat),
         (rid, j["seat"]))
    offer = joiner_reads(wires[0], rid, pin, b"")
    t.eq(f"{nm}, joiner side: the host hello names the suite", offer[10], played)
    y = pake_scalar(j_seed, rid, jc, seat, hx(j["fresh"]))
    share, host_share = smul(y, pake_generator(secret, rid)), offer[9][seat - 1]
    confirm = pake_confirm(pake_isk(rid, seat, y, host_share, share, host_share), j_key, jc,
                           offer[4])
    t.eq(f"{nm}, joiner side: its hello answering the host's, with its frame key and "
         "binding", signed(j_seed, ["hello", PEER_VERSION, "join", j_key, jc, seat, offer[4],
                                    share, confirm, offer[10], frame_key(offer[10], j_seed),
                                    binding(offer[10], j_seed, rid, seat)]), wires[1])
    roster = joiner_reads(wires[2], rid, pin, offer[3], offer[10])
    t.eq(f"{nm}, joiner side: the roster seats the host's hello, then it with its "
         "commitment and frame key", (roster[1][0], roster[2][0], roster[1][seat],
                                      roster[2][seat], roster[3][seat]),
         (offer[3], offer[4], j_key, jc, frame_key(offer[10], j_seed)))
    t.eq(f"{nm}, joiner side: its open", signed(j_seed, ["open", j_key, j_nonce]), wires[3])
    reveal = joiner_reads(wires[4], rid, pin, offer[3])
    t.eq(f"{nm}, joiner side: the reveal opens the roster's commitments",
         [H("HELLO_COMMIT", n)[:32] for n in reveal[1]], list(roster[2]))
    # 12.3: the setup carries the protocol version, dealerless/3, the host hello's suite,
    # and the roster's frame keys in it (8.2, 8.3).
    setup = pack(["dealerless/setup", 3, offer[5], offer[6], list(roster[3]),
                  list(reveal[1]), offer[10]])
    t.eq(f"{nm}: the setup both hold (8.2)", setup.hex(), r["setup"])
    t.eq(f"{nm}: its game id", decode_setup(setup).hex(), r["game_id"])


def check_ignored(t: Tally, d: dict[str, Any], rid: bytes, pin: bytes,
                  host_key: bytes) -> None:
    for v in d["ignored"]:
        wire = hx(v["wire"])
        t.code(f"ignored: {v['note']}", lambda w=wire: _reads(w, rid, pin, host_key),
               v["check"])
        m = unpack(wire, MAX_MESSAGE)
        who = "the joiner" if from_host(m) else "the host"
        t.ok(f"ignored: {v['note']}: {who} receives it", v["then"].startswith(who))
        if v["check"].startswith("point/"):  # refuse 'key' answers a bad identity key only
            try:
                decode_point(m[3])
                bad_key = False
            except SpecError:
                bad_key = True
            t.eq(f"ignored: {v['note']}: answered with refuse 'key' exactly when its "
                 "identity key is bad", "'key'" in v["then"], bad_key)
        if v["check"] == "pin":  # signed by the key it names, so the pin alone fails
            k = m[3] if m[0] == "hello" else m[1]
            then = "version" if m[0] == "hello" and m[1] != PEER_VERSION else "ok"
            t.code(f"ignored: {v['note']}: under its own key's pin, {then}",
                   lambda w=wire, k=k: joiner_reads(w, rid, host_pin(k), k), then)


def check_handshake(t: Tally) -> None:
    d = load(t, "handshake.json")
    check_secrets(t, d)
    ok = [v for v in d["invitations"] if v["result"] == "ok"]
    t.eq("one invitation is read per joining seat 1..K-1", [v["seat"] for v in ok],
         list(range(1, d["pake"]["seats"])))
    rid, pin = hx(ok[0]["rid"]), hx(ok[0]["pin"])
    t.eq("every invitation names the same rid, pin and room",
         {(v["rid"], v["pin"], v["room"]) for v in ok}, {(ok[0]["rid"], ok[0]["pin"],
                                                        ok[0]["room"])})
    t.eq("the invitations' rid is the key exchange's", ok[0]["rid"], d["pake"]["rid"])
    t.eq("each invitation's secret is its seat's key exchange's",
         [(v["seat"], v["secret"]) for v in ok],
         [(e["seat"], e["secret"]) for e in d["pake"]["exchanges"]])
    host_key = hx(d["pins"][0]["key"])
    t.eq("the invitations pin pins[0]'s key", d["pins"][0]["pin"], ok[0]["pin"])
    try:
        bodies = check_signatures(t, d, rid, pin, host_key)
        check_round(t, bodies)
        check_host_hello(t, d, bodies, rid, pin)
        check_pake(t, d, bodies)
        check_replay(t, d, bodies)
    except (SpecError, KeyError, IndexError, TypeError) as e:
        t.ok(f"signed messages readable: {type(e).__name__} {e}", False)
    check_pins(t, d)
    check_invitations(t, d)
    check_ignored(t, d, rid, pin, host_key)
