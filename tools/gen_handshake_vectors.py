#!/usr/bin/env python3
"""Generate spec/vectors/handshake.json: the handshake's authentication (spec/12-peers.md
12.3, "The invitation" and "Authentication").

    python tools/gen_handshake_vectors.py          # rewrite the file
    python tools/gen_handshake_vectors.py --check  # exit 1 if the file differs from the code

Sections: `signatures` (the exact signed bytes and the signature of each handshake
message kind), `pins` (a key and its pin, raw and as the invitation writes it),
`secrets` (a table secret, its room secret and its seats' secrets), `invitations` (URLs
and what a joiner reads from them, or why it stops), `pake` (the key exchange of each
joining seat of a three-seat table, with every intermediate value) and `ignored`
(messages a receiver must ignore, each with the check that fails first, in 12.3's order
of checks), and `round` (what each side needs to replay `signatures` as a test of its own
code: seeds, nonces, fresh bytes, the table secret, and the setup the round agrees on), in
the default suite, ristretto255-sha512, whose frame keys are the seats' Ed25519 keys; and
`round_bls12381g1_sha256`, the same round at a table of bls12381g1-sha256, whose hellos and
roster carry the seats' frame keys of G1 (8.3) and their bindings (12.3), with its own
messages and setup. Keys, nonces and fresh bytes come from public labels (test values
only).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from wire_common import write_or_check

from peers.net.handshake_answers import Judged
from peers.net.handshake_join import NotFromHost, from_pinned_host
from peers.net.invitation import (
    InvitationError,
    host_invitation,
    invitation_url,
    parse_invitation,
)
from peers.net.messages import PROTOCOL_VERSION, hello_commitment, read_offer
from protocol.canonical import pack
from protocol.errors import DealerlessError
from protocol.handshake_auth import (
    BINDING_CONTEXT,
    SIGNING_CONTEXT,
    bind_frame_key,
    check_confirm,
    host_pin,
    pake_confirm,
    pake_generator,
    pake_scalar,
    pake_share,
    room_secret,
    seat_secret,
    sign,
    signed_bytes,
)
from protocol.identity import Identity
from protocol.setup import GameSetup
from protocol.suite import Suite, suite, table_suite, v2_suite
from protocol.version import PROTOCOL

S = v2_suite()  # edwards25519-sha512, dealerless/2
scalar_bytes = S.encode_scalar
#: The suite of the `signatures` round (the default), and of `round_bls12381g1_sha256`.
PLAYED, BLS = table_suite(), suite("bls12381g1-sha256", PROTOCOL)

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "handshake.json"


def label(text: str, size: int = 32) -> bytes:
    return hashlib.sha256(b"dealerless test vector " + text.encode()).digest()[:size]


HOST, JOINER = Identity(label("host seed")), Identity(label("joiner seed"))
RID, TABLE = label("rid", 16), label("table secret", 16)
ROOM, SEAT1, SEAT2 = room_secret(TABLE), seat_secret(TABLE, 1), seat_secret(TABLE, 2)
BASE = f"ws://127.0.0.1:8765/room/{RID.hex()}"
HOST_NONCE, JOIN_NONCE = label("host nonce"), label("joiner nonce")
HOST_C, JOIN_C = hello_commitment(HOST_NONCE), hello_commitment(JOIN_NONCE)
HOST_FRESH, JOIN_FRESH = label("host fresh"), label("joiner fresh")
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")


RULES, PARAMS = "bram", {"komi_halves": 1}
#: The peer protocol before this one, and its signing prefix: a hello of it is refused by
#: its item 1, before any signature check (12.3).
OLD_VERSION, OLD_CONTEXT = 5, b"dealerless/handshake-signature/5\x00"


def host_hello_body(share: bytes, version: int = PROTOCOL_VERSION,
                    played: Suite = PLAYED) -> list[Any]:
    return ["hello", version, "host", HOST.public_key, HOST_C, RULES, PARAMS, 2, 0, [share],
            played.name]


def join_hello_body(played: Suite = PLAYED) -> list[Any]:
    """The joiner's hello for seat 1, answering the host hello of `signatures` (or of the
    round in `played`): its share and confirm are those of seat 1 in `pake`, its frame key
    the one of `played`."""
    y_h = pake_scalar(HOST, RID, HOST_C, 1, HOST_FRESH)
    y_j = pake_scalar(JOINER, RID, JOIN_C, 1, JOIN_FRESH)
    host_share, share = pake_share(SEAT1, RID, y_h), pake_share(SEAT1, RID, y_j)
    confirm = pake_confirm(RID, 1, y_j, host_share, share, host_share, JOINER.public_key,
                           JOIN_C, HOST_C)
    return ["hello", PROTOCOL_VERSION, "join", JOINER.public_key, JOIN_C, 1, HOST_C, share,
            confirm, played.name, JOINER.frame_key(played),
            bind_frame_key(JOINER, played, RID, 1)]


def round_bodies(played: Suite) -> list[tuple[str, list[Any]]]:
    """The round's messages at a table of `played`: who signs each, and its body."""
    share = pake_share(SEAT1, RID, pake_scalar(HOST, RID, HOST_C, 1, HOST_FRESH))
    return [("host", host_hello_body(share, played=played)),
            ("join", join_hello_body(played)),
            ("host", ["roster", [HOST.public_key, JOINER.public_key], [HOST_C, JOIN_C],
                      [HOST.frame_key(played), JOINER.frame_key(played)],
                      [bind_frame_key(HOST, played, RID, 0),
                       bind_frame_key(JOINER, played, RID, 1)]]),
            ("join", ["open", JOINER.public_key, JOIN_NONCE]),
            ("host", ["reveal", [HOST_NONCE, JOIN_NONCE]])]


def signatures() -> list[dict[str, Any]]:
    """One whole round of a two-seat handshake: the host's hello (with the share of
    `pake`), the joiner's hello answering it (with its share, confirm and frame key), the
    roster of both, the joiner's open, the reveal that opens both commitments; and a
    refusal."""
    bodies = [*round_bodies(PLAYED),
              ("host", ["refuse", HOST.public_key, JOINER.public_key, "full", 2])]
    out = []
    for signer, body in bodies:
        who = HOST if signer == "host" else JOINER
        wire = pack(sign(who, RID, body))
        out.append({"kind": body[0], "signer_seed": who.seed.hex(),
                    "key": who.public_key.hex(), "rid": RID.hex(),
                    "body": pack(body).hex(), "signed_bytes": signed_bytes(RID, body).hex(),
                    "wire": wire.hex()})
    return out


def pins() -> list[dict[str, Any]]:
    out = []
    for who in (HOST, JOINER):
        pin = host_pin(who.public_key)
        inv = host_invitation(BASE, who.public_key, TABLE)
        url = invitation_url(parse_invitation(f"{BASE}#{_b64(pin)}.1.{_b64(ROOM)}."
                                              f"{_b64(inv.seat_secret(1))}"), BASE)
        out.append({"key": who.public_key.hex(), "pin": pin.hex(),
                    "pin_text": url.partition("#")[2].partition(".")[0]})
    return out


def _b64(data: bytes) -> str:
    import base64
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _odd(text: str) -> str:
    """`text` (16 bytes in base64url) with the next letter of the alphabet last: the same
    16 bytes, one of the unused low bits set."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    return text[:-1] + alphabet[alphabet.index(text[-1]) + 1]


def secrets() -> dict[str, Any]:
    """What the host derives from its table secret (12.3 "The invitation")."""
    return {"table": TABLE.hex(), "room": ROOM.hex(),
            "seats": {str(i): seat_secret(TABLE, i).hex() for i in range(1, 8)}}


def invitations() -> list[dict[str, Any]]:
    pin, room = _b64(host_pin(HOST.public_key)), _b64(ROOM)
    one, two = _b64(SEAT1), _b64(SEAT2)
    host = host_invitation(BASE, HOST.public_key, TABLE)
    made = [invitation_url(parse_invitation(f"{BASE}#{pin}.{i}.{room}.{_b64(S)}"), BASE)
            for i, S in ((1, SEAT1), (2, SEAT2))]
    assert made == [f"{BASE}#{pin}.1.{room}.{one}", f"{BASE}#{pin}.2.{room}.{two}"]
    assert host.seat_secret(2) == SEAT2
    cases = [(made[0], "the invitation to seat 1"),
             (made[1], "the invitation to seat 2"),
             (BASE, "no '#'"),
             (f"{BASE}#{pin}.{_b64(SEAT1)}", "pin and one secret: peer protocol 3's "
              "invitation, one secret for every seat"),
             (f"{BASE}#{pin}.1.{room}", "no seat secret"),
             (f"{BASE}#{pin}.0.{room}.{one}", "seat 0 is the host's: no invitation names it"),
             (f"{BASE}#{pin}.8.{room}.{one}", "seat 8: a table has at most 8 seats, 0..7"),
             (f"{BASE}#{pin}.01.{room}.{one}", "the seat is one digit"),
             (f"{BASE}#{pin}.\uff11.{room}.{one}",
              "the seat is an ASCII digit (this is FULLWIDTH DIGIT ONE)"),
             (f"{BASE}#{pin}.1.{room}.{one}=", "padding is not written"),
             (f"{BASE}#{pin}==.1.{room}.{one}", "the PIN with padding"),
             (f"{BASE}#{_odd(pin)}.1.{room}.{one}", "a non-canonical PIN: its last character "
              "sets one of the 4 bits past its 16 bytes (it would decode to the same pin)"),
             (f"{BASE}#{pin}.1.{_odd(room)}.{one}", "a non-canonical ROOM (the same fault)"),
             (f"{BASE}#{pin}.1.{room}.{_odd(one)}", "a non-canonical SECRET (the same fault)"),
             (f"{BASE}#{pin}.1.{room}.{_b64(SEAT1[:15])}", "a 15-byte secret"),
             (f"{BASE}#{pin}.1.{_b64(ROOM[:15])}.{one}", "a 15-byte room secret"),
             (f"{BASE}#{pin.replace('-', '+').replace('_', '/')}.1.{room}.{one}",
              "standard base64, not base64url (when the pin holds - or _)"),
             (f"ws://127.0.0.1:8765/room/{RID.hex()[:30]}#{pin}.1.{room}.{one}",
              "a rendezvous id of 15 bytes")]
    out = []
    for url, note in cases:
        try:
            inv = parse_invitation(url)
            result: dict[str, Any] = {"result": "ok", "rid": inv.rid.hex(),
                                      "pin": inv.pin.hex(), "seat": inv.seat,
                                      "room": inv.room.hex(), "secret": inv.secret.hex()}
        except InvitationError as exc:
            result = {"result": "refused", "part": exc.part}
        out.append({"url": url, "note": note, **result})
    assert [c["result"] for c in out][:3] == ["ok", "ok", "refused"]
    assert all(c["result"] == "refused" for c in out[2:])
    return out


def pake() -> dict[str, Any]:
    """The key exchange of each joining seat of a three-seat table: the host's hello
    carries one share per seat, and joiner j answers for seat j."""
    joiners = {1: JOINER, 2: Identity(label("second joiner seed"))}
    commitments = {1: JOIN_C, 2: hello_commitment(label("second joiner nonce"))}
    out: dict[str, Any] = {"rid": RID.hex(), "table": TABLE.hex(), "seats": 3,
                           "host": {"seed": HOST.seed.hex(), "commitment": HOST_C.hex(),
                                    "fresh": HOST_FRESH.hex()}, "exchanges": []}
    for seat, joiner in joiners.items():
        secret, jc = seat_secret(TABLE, seat), commitments[seat]
        y_h = pake_scalar(HOST, RID, HOST_C, seat, HOST_FRESH)
        y_j = pake_scalar(joiner, RID, jc, seat, JOIN_FRESH)
        y_hs, y_js = pake_share(secret, RID, y_h), pake_share(secret, RID, y_j)
        confirm = pake_confirm(RID, seat, y_j, y_hs, y_js, y_hs, joiner.public_key, jc,
                               HOST_C)
        assert confirm == pake_confirm(RID, seat, y_h, y_hs, y_js, y_js, joiner.public_key,
                                       jc, HOST_C)
        # Another seat's secret (what the holder of the other invitation has):
        other = seat_secret(TABLE, 3 - seat)
        wrong = pake_share(other, RID, y_j)
        out["exchanges"].append({
            "seat": seat, "secret": secret.hex(),
            "generator": pake_generator(secret, RID).data.hex(),
            "host_scalar": scalar_bytes(y_h).hex(), "host_share": y_hs.hex(),
            "joiner": {"seed": joiner.seed.hex(), "key": joiner.public_key.hex(),
                       "commitment": jc.hex(), "fresh": JOIN_FRESH.hex(),
                       "scalar": scalar_bytes(y_j).hex(), "share": y_js.hex()},
            "confirm": confirm.hex(),
            "other_seat_share": wrong.hex(),
            "other_seat_confirm": pake_confirm(RID, seat, y_j, y_hs, wrong, y_hs,
                                               joiner.public_key, jc, HOST_C).hex()})
    return out


def _old_signed(who: Identity, body: list[Any]) -> bytes:
    """`body` signed as peer protocol 4 signed it (its prefix, OLD_CONTEXT)."""
    return pack([*body, who.sign(OLD_CONTEXT + pack([RID, body]))])


def _flipped(message: list[Any]) -> bytes:
    """`message` (signed) with one bit of its signature flipped."""
    return pack([*message[:-1], bytes([message[-1][0] ^ 1]) + message[-1][1:]])


def joiner_verdict(obj: list[Any]) -> str:
    """The first check the reference joiner fails on the host's message `obj`
    (peers/net/handshake_join.py: from_pinned_host, then read_offer), or "ok"."""
    if obj[0] == "refuse" and len(obj) != 6:
        return "shape"
    inv = parse_invitation(invitations()[0]["url"])
    try:
        body = from_pinned_host(obj, obj[3] if obj[0] == "hello" else obj[1], inv)
        if obj[0] == "hello":
            read_offer(body)
    except NotFromHost as exc:
        return exc.check
    except DealerlessError as exc:
        return exc.code
    return "ok"


def host_verdict(obj: list[Any]) -> str:
    """The first check the reference host fails on the joiner hello `obj` before its round
    (peers/net/handshake_answers.py Judged.join_hello: read_join_hello, then the
    signature), or "ok"; its `hello/version` is the vectors' `version`."""
    try:
        Judged().join_hello(obj, RID)
    except DealerlessError as exc:
        return "version" if exc.code == "hello/version" else exc.code
    return "ok"


def ignored() -> list[dict[str, Any]]:
    """Messages a receiver must ignore (or, for a bad key, refuse), each with the first
    check it fails in 12.3's order. Those with two faults show the order: a joiner checks
    the pin, then a hello's version, then the signature, then what the message carries; a
    host checks a hello's version, its shape, its key, then the signature, then its seat,
    round, share and confirm."""
    share = pake_share(SEAT1, RID, 5)
    stranger = Identity(label("stranger seed"))
    hello = host_hello_body(share)
    old_hello = host_hello_body(share, OLD_VERSION)
    cases: list[tuple[str, bytes, str, str]] = []
    good = sign(HOST, RID, hello)
    cases.append(("host hello signed by a key the pin does not name", pack(
        sign(stranger, RID, [*hello[:3], stranger.public_key, *hello[4:]])), "pin",
        "the joiner ignores it"))
    cases.append(("host hello with one byte of its signature flipped", _flipped(good),
                  "handshake/bad-signature", "the joiner ignores it"))
    cases.append(("host hello signed for another rendezvous id",
                  pack(sign(HOST, label("other rid", 16), hello)), "handshake/bad-signature",
                  "the joiner ignores it"))
    cases.append(("refuse without a signature (version 2's shape)",
                  pack(["refuse", JOINER.public_key, "full", 2]), "shape",
                  "the joiner ignores it"))
    cases.append((f"host hello of peer protocol {OLD_VERSION} from the pinned host, signed "
                  "as that version signed (its prefix): the version is read before the "
                  "signature", _old_signed(HOST, old_hello), "version",
                  f"the joiner ignores it, and at its timeout says the host speaks version "
                  f"{OLD_VERSION} and it speaks version {PROTOCOL_VERSION}"))
    cases.append((f"host hello of peer protocol {OLD_VERSION} from a key the pin does not "
                  "name: the pin is checked before the version",
                  _old_signed(stranger, [*old_hello[:3], stranger.public_key,
                                         *old_hello[4:]]), "pin",
                  "the joiner ignores it, and at its timeout says a host whose identity key "
                  "is not the one the invitation pins answered"))
    cases.append(("host hello from the pinned host with a small-order share and one bit "
                  "of its signature flipped: the signature is checked before the shares",
                  _flipped(sign(HOST, RID, [*hello[:9], [SMALL_ORDER], *hello[10:]])),
                  "handshake/bad-signature", "the joiner ignores it"))
    join = ["hello", PROTOCOL_VERSION, "join", SMALL_ORDER, JOIN_C, 1, b"", b"", b"", "",
            b"", b""]
    cases.append(("joiner hello whose key has small order, with no valid signature: the "
                  "key is checked before the signature", pack([*join, bytes(64)]),
                  "point/small-order", "the host answers refuse 'key'"))
    answer = join_hello_body()
    cases.append((f"joiner hello of peer protocol {OLD_VERSION}, signed as that version "
                  "signed", _old_signed(JOINER, [answer[0], OLD_VERSION, *answer[2:]]),
                  "version", "the host ignores it"))
    cases.append(("joiner hello answering the host hello with a small-order share and one "
                  "bit of its signature flipped: the signature is checked before the share",
                  _flipped(sign(JOINER, RID, [*answer[:7], SMALL_ORDER, *answer[8:]])),
                  "handshake/bad-signature", "the host ignores it"))
    cases.append((f"joiner hello answering the host hello in {PLAYED.name}, whose frame keys "
                   "are the seats' identity keys, with the host's key as its frame key: "
                   "checked after the signature", pack(sign(JOINER, RID, [*answer[:10],
                                                                          HOST.public_key,
                                                                          b""])),
                  "hello/frame-key", "the host ignores it"))
    g1_identity = b"\xc0" + bytes(47)
    bls = [*join_hello_body(BLS)[:10], g1_identity, b""]
    cases.append((f"joiner hello answering a host hello of {BLS.name} whose frame key is the "
                  "identity of G1 (2.5)", pack(sign(JOINER, RID, bls)), "point/identity",
                  "the host ignores it"))
    cases.append((f"the same hello of {BLS.name} with one bit of its signature flipped: the "
                  "signature is checked before the frame key", _flipped(sign(JOINER, RID, bls)),
                  "handshake/bad-signature", "the host ignores it"))
    squat = [*join_hello_body(BLS)[:10], HOST.frame_key(BLS),
             bind_frame_key(HOST, BLS, RID, 1)]
    cases.append((f"joiner hello answering a host hello of {BLS.name} that announces the "
                  "host's frame key of G1 as its own, with the host's binding of it at seat "
                  "1: the binding's identity signature is not the joiner's", pack(sign(
                      JOINER, RID, squat)), "hello/frame-key", "the host ignores it"))
    forged = bind_frame_key(JOINER, BLS, RID, 1)[:64] + bind_frame_key(HOST, BLS, RID, 1)[64:]
    cases.append(("the same hello with the joiner's identity signature of that binding "
                  "but no frame-key signature by the key it announces (no proof of "
                  "possession)", pack(sign(JOINER, RID, [*squat[:11], forged])),
                  "hello/frame-key", "the host ignores it"))
    out = []
    for note, wire, check, then in cases:
        out.append({"note": note, "wire": wire.hex(), "check": check, "then": then})
    # The reference code stops at each stated check.
    from protocol.canonical import unpack
    for case in out:
        obj = unpack(bytes.fromhex(case["wire"]), 1 << 16)
        joiner_side = obj[0] != "hello" or obj[2] == "host"
        got = joiner_verdict(obj) if joiner_side else host_verdict(obj)
        assert got == case["check"], (case["note"], got)
    try:
        check_confirm(bytes(32), bytes(31) + b"\1")
        raise AssertionError("confirm")
    except DealerlessError as exc:
        assert exc.code == "pake/confirm"
    return out


def replay_round(played: Suite = PLAYED) -> dict[str, Any]:
    """What each side needs to replay `signatures` (its first five messages) as a test
    of its own code, and the setup the round agrees on; for another suite than the
    default, the round's own five messages (`wires`)."""
    frame_keys = [HOST.frame_key(played), JOINER.frame_key(played)]
    setup = GameSetup.create(RULES, dict(PARAMS), frame_keys, [HOST_NONCE, JOIN_NONCE],
                             played)
    out = {"rules": RULES, "params": PARAMS, "seats": 2, "rid": RID.hex(),
           "table": TABLE.hex(), "invitation": invitations()[0]["url"],
           "suite": played.name, "frame_keys": [f.hex() for f in frame_keys],
           "bindings": [bind_frame_key(who, played, RID, seat).hex()
                        for seat, who in enumerate((HOST, JOINER))],
           "host": {"seed": HOST.seed.hex(), "nonce": HOST_NONCE.hex(),
                    "fresh": HOST_FRESH.hex(), "round": 0},
           "joiner": {"seed": JOINER.seed.hex(), "nonce": JOIN_NONCE.hex(),
                      "fresh": JOIN_FRESH.hex(), "seat": 1},
           "messages": ["hello (host)", "hello (join)", "roster", "open", "reveal"],
           "setup": setup.encode().hex(), "game_id": setup.game_id.hex()}
    if played is not PLAYED:
        out["wires"] = [pack(sign(HOST if who == "host" else JOINER, RID, body)).hex()
                        for who, body in round_bodies(played)]
    return out


def build() -> dict[str, Any]:
    return {"about": {"generated_by": "python tools/gen_handshake_vectors.py",
                      "spec": "spec/12-peers.md 12.3"},
            "peer_protocol": PROTOCOL_VERSION,
            "signing_context": SIGNING_CONTEXT.decode("ascii").replace("\x00", "\\x00"),
            "binding_context": BINDING_CONTEXT.decode("ascii").replace("\x00", "\\x00"),
            "signatures": signatures(), "pins": pins(), "secrets": secrets(),
            "invitations": invitations(),
            "pake": pake(), "ignored": ignored(), "round": replay_round(),
            "round_bls12381g1_sha256": replay_round(BLS)}


def main() -> int:
    return write_or_check(OUT, build, __doc__)


if __name__ == "__main__":
    sys.exit(main())
