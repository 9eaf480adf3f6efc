#!/usr/bin/env python3
"""Generate spec/vectors/suites/S/signatures.json: frame signatures in suite S at
dealerless/3 (spec/08-wire.md 8.3, spec/02-group.md 2.6).

    python tools/gen_signature_vectors.py --suite S          # rewrite the file
    python tools/gen_signature_vectors.py --suite S --check  # exit 1 if it differs

dealerless/2 signs with Ed25519 under the prefix `/1`; its vectors are ed25519.json
(tools/gen_wire_vectors.py), whose cases of 8.3 Verify hold for the Ed25519 suites of
dealerless/3 too. This file gives, in each suite, signatures of frame payloads under the
version's prefix with their frame keys, and the changes every verifier must refuse: each
with the outcome of Verify (8.3) and of the key check of 8.2 rule 11.
"""

from __future__ import annotations

import sys
from typing import Any

from vector_common import Kit, seed, write_or_check_suite
from wire_common import outcome

from protocol.canonical import pack
from protocol.frames import signed_message
from protocol.signature import SchnorrSigner
from protocol.suite import suite
from protocol.tags import Tag
from protocol.version import frame_signature_prefix


def positive(v: Kit, i: int) -> dict[str, Any]:
    signer = v.S.signer
    key_seed, fresh = seed(f"signatures/identity/{i}"), seed(f"signatures/fresh/{i}")
    payload = pack([v.S.version, seed(f"signatures/game/{i}"), i, b"\x00" * 64, i % 3, i])
    message = signed_message(v.S.version, payload)
    entry: dict[str, Any] = {
        "name": f"frame {i}", "seed": key_seed.hex(), "key": signer.public_key(key_seed).hex(),
        "payload": payload.hex(), "message": message.hex(), "fresh": fresh.hex(),
        "signature": signer.sign(key_seed, message, fresh).hex()}
    if isinstance(signer, SchnorrSigner):   # the intermediates of 2.6
        x = v.hash_to_scalar(Tag.FRAME_KEY, key_seed)
        (k,) = v.nonce_scalars(Tag.FRAME_SIGNATURE.value, v.scalar_bytes(x),
                               bytes.fromhex(entry["key"]) + message, fresh, 1)
        entry.update({"secret": str(x), "nonce": str(k),
                      "commitment": v.base_mul(k).data.hex()})
    return entry


def negatives(v: Kit, base: dict[str, Any], other: dict[str, Any]) -> list[dict[str, Any]]:
    """The changes to refuse. Ed25519 keys and signatures are of edwards25519 whatever the
    suite's group, so their bad encodings are edwards25519's."""
    judge_in = v
    if not isinstance(v.S.signer, SchnorrSigner):
        v = Kit(suite("edwards25519-sha512", v.S.version))
    sig = bytes.fromhex(base["signature"])
    payload = bytes.fromhex(base["payload"])
    half = len(sig) // 2
    cases: list[tuple[str, dict[str, Any]]] = [
        ("another seat's key", {"key": other["key"]}),
        ("first half changed", {"signature": v.flip_scalar_hex(sig, 0)}),
        ("second half changed", {"signature": v.flip_scalar_hex(sig, half)}),
        ("second half + L", {"signature": v.bump_scalar_hex(sig, half)}),
        ("another frame's signature", {"signature": other["signature"]}),
        ("the payload signed under dealerless/2's prefix",
         {"message": (frame_signature_prefix(2) + payload).hex()}),
        ("the payload without a prefix", {"message": payload.hex()}),
        ("signature one byte short", {"signature": sig[:-1].hex()}),
        ("key one byte long", {"key": base["key"] + "00"}),
        ("identity key", {"key": v.identity_hex}),
        ("non-canonical key", {"key": v.noncanon_hex}),
        ("key not on the curve", {"key": v.not_on_curve_hex}),
    ]
    if v.order2_hex is not None:
        cases.append(("small-order key", {"key": v.order2_hex}))
    torsion = v.torsion_of(v.base_mul(1))
    if torsion is not None:
        cases.append(("key outside the prime-order group", {"key": torsion}))
    out = []
    for name, change in cases:
        vec = {**base, **change}
        out.append({"case": base["name"], "name": name, **change, **judge(judge_in, vec)})
    return out


def judge(v: Kit, vec: dict[str, Any]) -> dict[str, str]:
    """The outcome of Verify (8.3) and of the frame-key check (8.2 rule 11)."""
    key, signer = bytes.fromhex(vec["key"]), v.S.signer
    return {"expected": outcome(lambda: signer.verify(key, bytes.fromhex(vec["message"]),
                                                      bytes.fromhex(vec["signature"]))),
            "key_check": outcome(lambda: signer.check_key(key))}


def build(v: Kit) -> dict[str, Any]:
    if v.S.version < 3:
        raise SystemExit("dealerless/2's signature vectors are ed25519.json "
                         "(tools/gen_wire_vectors.py): give --suite")
    pos = [{**p, **judge(v, p)} for p in (positive(v, i) for i in range(3))]
    assert all(p["expected"] == p["key_check"] == "ok" for p in pos)
    return {"about": {"generated_by": "python tools/gen_signature_vectors.py --suite "
                                      + v.S.name,
                      "seeds": "SHA-512('dealerless-vectors/' || label)[:32]",
                      "spec": "spec/08-wire.md 8.3, spec/02-group.md 2.6",
                      "version": v.S.context.decode(),
                      "scheme": "schnorr-g1" if isinstance(v.S.signer, SchnorrSigner)
                      else "ed25519"},
            "prefix": frame_signature_prefix(v.S.version).hex(),
            "positive": pos, "negative": negatives(v, pos[0], pos[1])}


def main() -> int:
    return write_or_check_suite("signatures.json", build, __doc__)


if __name__ == "__main__":
    sys.exit(main())
