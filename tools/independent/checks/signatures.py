"""signatures.json of a ciphersuite's set (spec/08-wire.md 8.3, spec/02-group.md 2.6):
frame signatures under the version's prefix, each signed again from its seed (Ed25519 in
edwards25519-sha512 and ristretto255-sha512; Schnorr over G1 in bls12381g1-sha256, with
its secret x = H_scalar(FRAME_KEY, seed), nonce and commitment), Verify's outcome of
every entry, and the frame-key check of 8.2 rule 11 on its key (an Ed25519 key decodes
as a point by 2.3 in both Ed25519 suites, a key of G1 by 2.5)."""

from __future__ import annotations

from typing import Any

from nacl import bindings as nb
from nacl import exceptions as nacl_exc

from independent.checks.tally import Tally, VectorSet, load, negatives
from independent.errors import SpecError
from independent.group.ops import accept_point, hx
from independent.group.suites import Suite
from independent.session.frames import schnorr_g1_ok
from independent.wire.ed25519 import ed25519_sign, ed25519_verify, public_key

SCHEMES = {"edwards25519-sha512": "ed25519", "ristretto255-sha512": "ed25519",
           "bls12381g1-sha256": "schnorr-g1"}


def key_check(s: Suite, key: bytes) -> str:
    """8.2 rule 11 on one frame key: "ok" or the decoding rule's code."""
    try:
        if SCHEMES[s.name] == "ed25519":
            accept_point(key)
        else:
            s.ops.accept(key)
    except SpecError as err:
        return err.code
    return "ok"


def verify(s: Suite, key: bytes, m: bytes, sig: bytes) -> str:
    """8.3 Verify: "ok" or frame/bad-signature. Ed25519 by its seven steps (pure Python)
    and by libsodium's crypto_sign_open, which 8.3 says it is; the two must agree."""
    if SCHEMES[s.name] == "schnorr-g1":
        return "ok" if schnorr_g1_ok(s, key, m, sig) else "frame/bad-signature"
    steps = ed25519_verify(key, m, sig) == "ok"
    try:
        sodium = len(key) == 32 and len(sig) == 64 and nb.crypto_sign_open(sig + m, key) == m
    except (nacl_exc.CryptoError, ValueError, TypeError):
        sodium = False
    if steps != sodium:
        return f"8.3's steps say {steps}, libsodium {sodium}"
    return "ok" if steps else "frame/bad-signature"


def sign_g1(s: Suite, v: dict[str, Any]) -> dict[str, Any]:
    """8.3 "Schnorr over G1" from the seed: x = H_scalar(FRAME_KEY, seed) (0 taken as 1),
    k the nonce of 3.4 (label dealerless/frame-signature, secret x, public Y || m),
    R = k*G1, c = H_scalar(FRAME_SIGNATURE, Y, R, m), s = k + c*x mod r."""
    o, m = s.ops, hx(v["message"])
    x = s.H_scalar("FRAME_KEY", hx(v["seed"])) or 1
    y = o.base(x)
    k = s.nonce(b"dealerless/frame-signature", o.sc(x), y + m, hx(v["fresh"]), 0)
    r = o.base(k)
    c = s.H_scalar("FRAME_SIGNATURE", y, r, m)
    return {"secret": str(x), "key": y.hex(), "nonce": str(k), "commitment": r.hex(),
            "signature": (o.sc(c) + o.sc(k + c * x)).hex()}


def check_signatures(t: Tally, vs: VectorSet) -> None:
    d, s = load(t, "signatures.json", vs), vs.suite
    t.eq("scheme (3.5's table)", d["about"]["scheme"], SCHEMES[s.name])
    t.eq("prefix (8.3)", d["prefix"], s.signature_prefix.hex())
    for v in d["positive"]:
        nm, m = v["name"], hx(v["message"])
        t.eq(f"{nm}: message = prefix || payload", v["message"], d["prefix"] + v["payload"])
        if SCHEMES[s.name] == "ed25519":
            got = {"key": public_key(hx(v["seed"])).hex(),
                   "signature": ed25519_sign(hx(v["seed"]), m).hex()}
        else:
            got = sign_g1(s, v)
        for field, value in got.items():
            t.eq(f"{nm}: {field} signed again", value, v[field])
    for v in [*d["positive"], *negatives(d)]:
        nm = v["name"]
        t.eq(f"{nm}: Verify", verify(s, hx(v["key"]), hx(v["message"]), hx(v["signature"])),
             v["expected"])
        t.eq(f"{nm}: the frame-key check (8.2 rule 11)", key_check(s, hx(v["key"])),
             v["key_check"])
