#!/usr/bin/env python3
"""Generate spec/vectors/handshake.json: the handshake's authentication (spec/12-peers.md
12.3, "The invitation" and "Authentication").

    python tools/gen_handshake_vectors.py          # rewrite the file
    python tools/gen_handshake_vectors.py --check  # exit 1 if the file differs from the code

Sections: `signatures` (the exact signed bytes and the signature of each handshake
message kind), `pins` (a key and its pin, raw and as the invitation writes it),
`invitations` (URLs and what a joiner reads from them, or why it stops), `pake` (a whole
key exchange with every intermediate value) and `ignored` (messages a receiver must
ignore, each with the check that fails). Keys, nonces and fresh bytes come from public
labels (test values only).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from peers.net.config import PeerError
from peers.net.invitation import invitation_url, parse_invitation
from peers.net.messages import PROTOCOL_VERSION, hello_commitment, read_join_hello
from protocol.canonical import pack
from protocol.errors import DealerlessError
from protocol.group import scalar_bytes
from protocol.handshake_auth import (
    check_confirm,
    check_signature,
    host_pin,
    pake_confirm,
    pake_generator,
    pake_scalar,
    pake_share,
    sign,
    signed_bytes,
)
from protocol.identity import Identity

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "handshake.json"


def label(text: str, size: int = 32) -> bytes:
    return hashlib.sha256(b"dealerless test vector " + text.encode()).digest()[:size]


HOST, JOINER = Identity(label("host seed")), Identity(label("joiner seed"))
RID, SECRET = label("rid", 16), label("secret", 16)
HOST_NONCE, JOIN_NONCE = label("host nonce"), label("joiner nonce")
HOST_C, JOIN_C = hello_commitment(HOST_NONCE), hello_commitment(JOIN_NONCE)
HOST_FRESH, JOIN_FRESH = label("host fresh"), label("joiner fresh")
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")


def host_hello_body(share: bytes) -> list[Any]:
    return ["hello", PROTOCOL_VERSION, "host", HOST.public_key, HOST_C, "bram",
            {"komi_halves": 1}, 2, 0, share]


def signatures() -> list[dict[str, Any]]:
    """One round of a two-seat handshake: the host's hello (with the share of `pake`),
    a joiner's first hello, the roster of both, the joiner's open, the reveal that opens
    both commitments, and a refusal."""
    share = pake_share(SECRET, RID, pake_scalar(HOST, RID, HOST_C, HOST_FRESH))
    bodies = [("host", host_hello_body(share)),
              ("join", ["hello", PROTOCOL_VERSION, "join", JOINER.public_key, JOIN_C, b"",
                        b"", b""]),
              ("host", ["roster", [HOST.public_key, JOINER.public_key], [HOST_C, JOIN_C]]),
              ("join", ["open", JOINER.public_key, JOIN_NONCE]),
              ("host", ["reveal", [HOST_NONCE, JOIN_NONCE]]),
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
        url = invitation_url(parse_invitation(f"ws://h:1/dealerless/{RID.hex()}#"
                                              f"{_b64(pin)}.{_b64(SECRET)}"),
                             f"ws://h:1/dealerless/{RID.hex()}")
        out.append({"key": who.public_key.hex(), "pin": pin.hex(),
                    "pin_text": url.partition("#")[2].partition(".")[0]})
    return out


def _b64(data: bytes) -> str:
    import base64
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def invitations() -> list[dict[str, Any]]:
    base = f"ws://127.0.0.1:8765/room/{RID.hex()}"
    pin, secret = _b64(host_pin(HOST.public_key)), _b64(SECRET)
    cases = [(f"{base}#{pin}.{secret}", "a whole invitation"),
             (base, "no '#': an invitation of an older dealerless"),
             (f"{base}#{pin}", "no secret"),
             (f"{base}#{pin}.{secret}=", "padding is not written"),
             (f"{base}#{pin}.{_b64(SECRET[:15])}", "a 15-byte secret"),
             (f"{base}#{pin.replace('-', '+').replace('_', '/')}.{secret}",
              "standard base64, not base64url (when the pin holds - or _)"),
             (f"ws://127.0.0.1:8765/room/{RID.hex()[:30]}#{pin}.{secret}",
              "a rendezvous id of 15 bytes")]
    out = []
    for url, note in cases:
        try:
            inv = parse_invitation(url)
            result: dict[str, Any] = {"result": "ok", "rid": inv.rid.hex(),
                                      "pin": inv.pin.hex(), "secret": inv.secret.hex()}
        except PeerError:
            result = {"result": "refused"}
        out.append({"url": url, "note": note, **result})
    assert [c["result"] for c in out][:2] == ["ok", "refused"]
    return out


def pake() -> dict[str, Any]:
    fresh_h, fresh_j = HOST_FRESH, JOIN_FRESH
    y_h = pake_scalar(HOST, RID, HOST_C, fresh_h)
    y_j = pake_scalar(JOINER, RID, JOIN_C, fresh_j)
    y_hs, y_js = pake_share(SECRET, RID, y_h), pake_share(SECRET, RID, y_j)
    confirm = pake_confirm(RID, y_j, y_hs, y_js, y_hs, JOINER.public_key, JOIN_C, HOST_C)
    assert confirm == pake_confirm(RID, y_h, y_hs, y_js, y_js, JOINER.public_key, JOIN_C,
                                   HOST_C)
    wrong = pake_share(label("a guessed secret", 16), RID, y_j)
    return {"rid": RID.hex(), "secret": SECRET.hex(),
            "generator": pake_generator(SECRET, RID).data.hex(),
            "host": {"seed": HOST.seed.hex(), "commitment": HOST_C.hex(),
                     "fresh": fresh_h.hex(), "scalar": scalar_bytes(y_h).hex(),
                     "share": y_hs.hex()},
            "joiner": {"seed": JOINER.seed.hex(), "key": JOINER.public_key.hex(),
                       "commitment": JOIN_C.hex(), "fresh": fresh_j.hex(),
                       "scalar": scalar_bytes(y_j).hex(), "share": y_js.hex()},
            "confirm": confirm.hex(),
            "wrong_secret_share": wrong.hex(),
            "wrong_secret_confirm": pake_confirm(RID, y_j, y_hs, wrong, y_hs,
                                                 JOINER.public_key, JOIN_C, HOST_C).hex()}


def ignored() -> list[dict[str, Any]]:
    """Messages a receiver must ignore (or, for a bad key, refuse), with the failing check."""
    share = pake_share(SECRET, RID, 5)
    stranger = Identity(label("stranger seed"))
    hello = host_hello_body(share)
    cases: list[tuple[str, bytes, str, str]] = []
    good = sign(HOST, RID, hello)
    cases.append(("host hello signed by a key the pin does not name", pack(
        sign(stranger, RID, [*hello[:3], stranger.public_key, *hello[4:]])), "pin",
        "the joiner ignores it"))
    cases.append(("host hello with one byte of its signature flipped",
                  pack([*good[:-1], bytes([good[-1][0] ^ 1]) + good[-1][1:]]),
                  "handshake/bad-signature", "the joiner ignores it"))
    cases.append(("host hello signed for another rendezvous id",
                  pack(sign(HOST, label("other rid", 16), hello)), "handshake/bad-signature",
                  "the joiner ignores it"))
    cases.append(("refuse without a signature (version 2's shape)",
                  pack(["refuse", JOINER.public_key, "full", 2]), "shape",
                  "the joiner ignores it"))
    join = ["hello", PROTOCOL_VERSION, "join", SMALL_ORDER, JOIN_C, b"", b"", b""]
    cases.append(("joiner hello whose key has small order", pack([*join, bytes(64)]),
                  "point/small-order", "the host answers refuse 'key'"))
    out = []
    for note, wire, check, then in cases:
        out.append({"note": note, "wire": wire.hex(), "check": check, "then": then})
    # The reference code reaches each stated check.
    from protocol.canonical import unpack
    for case in out:
        obj = unpack(bytes.fromhex(case["wire"]), 1 << 16)
        if case["check"] == "pin":
            assert host_pin(obj[3]) != host_pin(HOST.public_key)
        elif case["check"] == "handshake/bad-signature":
            try:
                check_signature(HOST.public_key, RID, obj)
                raise AssertionError(case["note"])
            except DealerlessError as exc:
                assert exc.code == case["check"]
        elif case["check"].startswith("point/"):
            try:
                read_join_hello(obj[:-1])
                raise AssertionError(case["note"])
            except DealerlessError as exc:
                assert exc.code == case["check"], exc.code
    try:
        check_confirm(bytes(32), bytes(31) + b"\1")
        raise AssertionError("confirm")
    except DealerlessError as exc:
        assert exc.code == "pake/confirm"
    return out


def build() -> dict[str, Any]:
    return {"about": {"generated_by": "python tools/gen_handshake_vectors.py",
                      "spec": "spec/12-peers.md 12.3"},
            "signing_context": "dealerless/handshake-signature/2\\x00",
            "signatures": signatures(), "pins": pins(), "invitations": invitations(),
            "pake": pake(), "ignored": ignored()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    args = ap.parse_args()
    text = json.dumps(build(), indent=1, sort_keys=True) + "\n"
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: run python tools/gen_handshake_vectors.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
