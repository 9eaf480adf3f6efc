#!/usr/bin/env python3
"""Generate the wire-level vectors: spec/vectors/{ed25519,msgpack,setup,files}.json.

    python tools/gen_wire_vectors.py [--suite S]          # rewrite the files
    python tools/gen_wire_vectors.py [--suite S] --check  # exit 1 if they differ

With --suite, only the suite's files.json (spec/vectors/suites/S/, dealerless/3).

Each entry gives its input bytes and the result the reference code reaches
(`ok` or the error code); the generator also asserts that this is the result
the entry was made to show, so a change of behaviour fails here before it can
slip into the files. Keys and nonces come from public labels, as in
tools/gen_vectors.py. The setup and file cases are in tools/wire_setup_cases.py and
tools/wire_file_cases.py, the shared helpers in tools/wire_common.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

from nacl import bindings as na
from nacl.signing import SigningKey
from vector_common import Kit, kit_from_args
from wire_common import ABOUT, NO_X, ORDER8, non_canonical_twin, outcome, scalar, seed
from wire_file_cases import file_vectors
from wire_setup_cases import setup_vectors

from protocol.canonical import pack, unpack
from protocol.frames import signed_message
from protocol.groups.edwards25519 import P_FIELD
from protocol.identity import verify_signature
from protocol.suite import v2_suite

S = v2_suite()  # edwards25519-sha512, dealerless/2
L = S.order
base_mul = S.group.base_mul
scalar_bytes = S.encode_scalar

# -- Ed25519 (spec/08-wire.md 8.3) -------------------------------------------------------

def challenge(r_enc: bytes, a_enc: bytes, m: bytes) -> int:
    return int.from_bytes(hashlib.sha512(r_enc + a_enc + m).digest(), "little") % L


def sign_with(a: int, a_enc: bytes, r: int, m: bytes) -> bytes:
    """An Ed25519 signature from the scalar a (for the key a_enc) and the nonce r."""
    r_enc = base_mul(r).data
    return r_enc + scalar_bytes((r + challenge(r_enc, a_enc, m) * a) % L)


def ed25519_vectors() -> dict[str, Any]:
    m = signed_message(2, pack([1, b"payload"]))
    sk = SigningKey(seed("ed25519/seed"))
    key, good = bytes(sk.verify_key), sk.sign(m).signature
    a = scalar("ed25519/a")
    a_enc = base_mul(a).data
    mixed = na.crypto_core_ed25519_add(a_enc, ORDER8)   # aB + T, T of order 8
    # Under the mixed key, S = r + k*a satisfies the cofactored equation always and the
    # cofactorless one exactly when k*T = 0, that is when 8 divides k.
    by_k: dict[bool, bytes] = {}
    for i in range(64):
        sig = sign_with(a, mixed, scalar(f"ed25519/mixed-r{i}"), m)
        by_k.setdefault(challenge(sig[:32], mixed, m) % 8 == 0, sig)
        if len(by_k) == 2:
            break
    identity = (1).to_bytes(32, "little")
    identity_p1 = (P_FIELD + 1).to_bytes(32, "little")   # the identity, y written as p + 1
    r = scalar("ed25519/r")
    s_ok = int.from_bytes(good[32:], "little")
    k_id = challenge(identity, a_enc, m)
    k_p1 = challenge(identity_p1, a_enc, m)
    r_mixed = na.crypto_core_ed25519_add(base_mul(r).data, ORDER8)   # rB + T
    r_t = scalar("ed25519/r-order8")
    cases = [
        ("valid RFC 8032 signature", key, m, good, "ok", "", "ok"),
        ("valid signature made from the scalar a", a_enc, m, sign_with(a, a_enc, r, m),
         "ok", "", "ok"),
        ("message changed", key, m + b"\x00", good, "7", "", "frame/bad-signature"),
        ("signature 63 bytes", key, m, good[:63], "1", "", "frame/bad-signature"),
        ("S + L: the same value mod L, but S >= L", key, m,
         good[:32] + (s_ok + L).to_bytes(32, "little"), "2",
         "passes step 7 if step 2 is skipped (malleability)", "frame/bad-signature"),
        ("R is the identity, S = k*a", a_enc, m, identity + scalar_bytes(k_id * a % L), "3",
         "passes step 7 if step 3 is skipped", "frame/bad-signature"),
        ("key is the identity, S = r: verifies every message without step 3", identity, m,
         base_mul(r).data + scalar_bytes(r), "3", "passes step 7 if step 3 is skipped",
         "frame/bad-signature"),
        ("key is p + 1 (the identity, non-canonical)", identity_p1,
         m, base_mul(r).data + scalar_bytes(r), "3", "", "frame/bad-signature"),
        ("key of order 8", ORDER8, m, good, "3", "", "frame/bad-signature"),
        ("key non-canonical: y + p of a point with small y", non_canonical_twin(), m, good,
         "4", "", "frame/bad-signature"),
        ("key not on the curve (y = 2)", NO_X, m, good, "5", "", "frame/bad-signature"),
        ("R non-canonical: y + p of a point with small y", key, m,
         non_canonical_twin() + good[32:], "7", "", "frame/bad-signature"),
        ("mixed-order key aB + T, 8 does not divide k", mixed, m, by_k[False], "7",
         "valid under the cofactored equation only", "frame/bad-signature"),
        ("mixed-order key aB + T, 8 divides k", mixed, m, by_k[True], "ok",
         "valid under both equations; setup rule 11 (8.2) refuses such a key", "ok"),
        ("R of mixed order rB + T, S = r + k*a", a_enc, m,
         r_mixed + scalar_bytes((r + challenge(r_mixed, a_enc, m) * a) % L), "7",
         "valid under the cofactored equation only", "frame/bad-signature"),
        ("R is p + 1 (the identity, non-canonical), S = k*a", a_enc, m,
         identity_p1 + scalar_bytes(k_p1 * a % L), "3", "", "frame/bad-signature"),
        ("key of order 8, R = rB, S = r", ORDER8, m, base_mul(r_t).data + scalar_bytes(r_t),
         "3", "", "frame/bad-signature"),
    ]
    vectors = []
    for name, pk, msg, sig, step, note, want in cases:
        got = outcome(lambda pk=pk, msg=msg, sig=sig: verify_signature(pk, msg, sig))
        assert got == want, (name, got)
        entry = {"name": name, "key": pk.hex(), "message": msg.hex(), "signature": sig.hex(),
                 "fails_at_step": step, "expected": got,
                 "accepted_by": ED25519_ACCEPTED_BY.get(name, [])}
        if note:
            entry["note"] = note
        vectors.append(entry)
    return {"about": {**ABOUT, "section": "8.3", "scalar_a": str(a),
                      "note": "fails_at_step names the first step of 8.3 Verify that fails; "
                              "'ok' entries pass every step; accepted_by names the wrong "
                              "readings of 8.3 ('Readings that differ') that accept the "
                              "entry, and every reading accepts the 'ok' entries"},
            "vectors": vectors}


#: 8.3 "Readings that differ": which of them accept each rejected signature. The
#: independent check (tools/independent/wire/ed25519.py) runs every reading on every entry.
ED25519_ACCEPTED_BY: dict[str, list[str]] = {
    "S + L: the same value mod L, but S >= L": ["s-unreduced"],
    "R is the identity, S = k*a": ["no-blocklist", "noble-strict", "zip215"],
    "key is the identity, S = r: verifies every message without step 3": ["no-blocklist",
                                                                          "zip215"],
    "key is p + 1 (the identity, non-canonical)": ["zip215"],
    "mixed-order key aB + T, 8 does not divide k": ["cofactored", "noble-strict", "zip215"],
    "R of mixed order rB + T, S = r + k*a": ["cofactored", "noble-strict", "zip215"],
    "R is p + 1 (the identity, non-canonical), S = k*a": ["zip215"],
    "key of order 8, R = rB, S = r": ["zip215"],
}


# -- canonical msgpack (spec/08-wire.md 8.1) ---------------------------------------------

def _nest(depth: int) -> str:
    return "91" * (depth - 1) + "90"


MSGPACK_CASES: list[tuple[str, str, int, str]] = [
    # name, data hex, max_size, expected
    ("nil", "c0", 16, "ok"),
    ("false, true", "92c2c3", 16, "ok"),
    ("127 is a fixint", "7f", 16, "ok"),
    ("128 is uint8", "cc80", 16, "ok"),
    ("2^64 - 1 is uint64", "cf" + "ff" * 8, 16, "ok"),
    ("-32 is a negative fixint", "e0", 16, "ok"),
    ("-33 is int8", "d0df", 16, "ok"),
    ("-2^63 is int64", "d3" + "80" + "00" * 7, 16, "ok"),
    ("map with sorted text keys", "82a16101a16202", 16, "ok"),
    ("bin8 of 3 bytes", "c403616263", 16, "ok"),
    ("16 nested containers", _nest(16), 64, "ok"),
    ("data longer than max_size", "c403616263", 4, "msgpack/too-large"),
    ("truncated array", "9201", 16, "msgpack/malformed"),
    ("reserved byte c1", "c1", 16, "msgpack/malformed"),
    ("bin header longer than max_size", "c40a" + "00" * 7, 9, "msgpack/malformed"),
    ("array header of 4097 entries", "dc1001" + "c0" * 4097, 8192, "msgpack/malformed"),
    ("map header of 4097 entries", "de1001", 16, "msgpack/malformed"),
    ("text is not UTF-8", "a1ff", 16, "msgpack/malformed"),
    ("map key is an integer", "810101", 16, "msgpack/malformed"),
    ("fixext1: an ext with a payload", "d40100", 16, "msgpack/malformed"),
    ("timestamp32 (ext -1 with a payload)", "d6ff00000000", 16, "msgpack/malformed"),
    ("ext8 of type 5 with an empty payload", "c70005", 16, "msgpack/ext"),
    ("ext8 of type -1 with an empty payload (no valid timestamp)", "c700ff", 16,
     "msgpack/malformed"),
    ("1025 nested containers", _nest(1025), 4096, "msgpack/malformed"),
    ("trailing byte", "c0c0", 16, "msgpack/trailing-bytes"),
    ("17 nested containers", _nest(17), 64, "msgpack/too-deep"),
    ("16 nested containers around an integer", "91" * 16 + "01", 64, "ok"),
    ("16 nested containers, the innermost a map with a value", "91" * 15 + "81a16101", 64,
     "ok"),
    ("17 nested containers, the innermost an empty map", "91" * 16 + "80", 64,
     "msgpack/too-deep"),
    ("1024 nested containers around nil", "91" * 1024 + "c0", 4096, "msgpack/too-deep"),
    ("1024 nested containers", _nest(1024), 4096, "msgpack/too-deep"),
    ("float32", "ca00000000", 16, "msgpack/type"),
    ("float64 inside an array", "91cb" + "00" * 8, 16, "msgpack/type"),
    ("bin map key", "81c4016101", 16, "msgpack/map-key"),
    ("5 as uint8", "cc05", 16, "msgpack/non-canonical"),
    ("200 as uint16", "cd00c8", 16, "msgpack/non-canonical"),
    ("5 as int8 (a signed format for a non-negative integer)", "d005", 16,
     "msgpack/non-canonical"),
    ("200 as int16", "d100c8", 16, "msgpack/non-canonical"),
    ("-1 as int8", "d0ff", 16, "msgpack/non-canonical"),
    ("-33 as int16", "d1ffdf", 16, "msgpack/non-canonical"),
    ("short text as str8", "d90161", 16, "msgpack/non-canonical"),
    ("short bin as bin16", "c5000161", 16, "msgpack/non-canonical"),
    ("one-item array as array16", "dc000101", 16, "msgpack/non-canonical"),
    ("one-entry map as map16", "de0001a16101", 16, "msgpack/non-canonical"),
    ("map keys out of order", "82a16201a16102", 16, "msgpack/non-canonical"),
    ("repeated map key", "82a16101a16102", 16, "msgpack/non-canonical"),
    ("repeated map key, the last value a float", "82a16101a161ca00000000", 16, "msgpack/type"),
    ("repeated map key, the dropped value a float", "82a161ca00000000a16101", 16,
     "msgpack/non-canonical"),
    # 8.1 text: code-point order, U+FEFF kept, lengths in UTF-8 bytes in headers
    ("map keys U+FF61 then U+1F600 (code-point order)", "82a3efbda1c0a4f09f9880c0", 16, "ok"),
    ("map keys U+1F600 then U+FF61 (UTF-16 order)", "82a4f09f9880c0a3efbda1c0", 16,
     "msgpack/non-canonical"),
    ("text U+FEFF 'a'", "a4efbbbf61", 16, "ok"),
    ("map keys 'a' and U+FEFF 'a'", "82a161c0a4efbbbf61c0", 16, "ok"),
    ("map keys U+FEFF 'a' then 'b'", "82a4efbbbf61c0a162c0", 16, "msgpack/non-canonical"),
    ("text of 8 characters outside the BMP (32 bytes) as str8", "d920" + "f09f9880" * 8, 64,
     "ok"),
    ("the same text under a fixstr header of 16", "b0" + "f09f9880" * 8, 64,
     "msgpack/trailing-bytes"),
    # 8.1 rule 3: where a key type, an entry count and an ext are met
    ("integer map key, then an empty ext as its value", "8101c70005", 16, "msgpack/ext"),
    ("integer map key with a nil value, then an empty ext in the next entry",
     "8201c0a161c70005", 16, "msgpack/malformed"),
    ("map16 header of 4097 entries, then an empty ext", "de1001c70005", 16,
     "msgpack/malformed"),
    # 8.1 rule 5: a container's depth before its keys and items
    ("17th container a map with a bin key", "91" * 16 + "81c4016101", 64, "msgpack/too-deep"),
    ("17th container an array holding a float", "91" * 16 + "91ca00000000", 64,
     "msgpack/too-deep"),
    ("16th container a map with a bin key", "91" * 15 + "81c4016101", 64, "msgpack/map-key"),
]


#: What the vectors that settle 8.1's nesting limits catch (the wrong reading).
MSGPACK_NOTES = {
    "16 nested containers around an integer": "rule 5 counts containers, not values: an "
    "integer inside the 16th array is no 17th level",
    "16 nested containers, the innermost a map with a value": "a map is one level; its keys "
    "and a value that is no container add none",
    "17 nested containers, the innermost an empty map": "an empty container counts a level "
    "as a full one does",
    "1024 nested containers around nil": "rule 3's limit counts containers too: nil inside "
    "the 1024th container passes rule 3 (so rule 5's too-deep, not malformed)",
    "1024 nested containers": "1024 containers pass rule 3; the 1025th fails it "
    "(\"1025 nested containers\")",
    "map keys U+FF61 then U+1F600 (code-point order)": "keys sort by code point (U+FF61 < "
    "U+1F600, as in UTF-8 bytes); a UTF-16 sort (JavaScript's default) puts U+1F600 (D83D "
    "DE00) first and calls this non-canonical",
    "map keys U+1F600 then U+FF61 (UTF-16 order)": "the order a UTF-16 sort gives; a "
    "decoder or encoder sorting by UTF-16 units accepts it",
    "text U+FEFF 'a'": "a leading U+FEFF is a character of the text: a decoder that drops "
    "it as a byte-order mark (TextDecoder without ignoreBOM) reads 'a', which re-encodes as "
    "a161 (msgpack/non-canonical)",
    "map keys 'a' and U+FEFF 'a'": "two keys; dropping the U+FEFF makes them one repeated "
    "key (msgpack/non-canonical)",
    "map keys U+FEFF 'a' then 'b'": "U+FEFF sorts after 'b'; a decoder that drops it sees "
    "the sorted keys 'a', 'b'",
    "text of 8 characters outside the BMP (32 bytes) as str8": "a str header counts UTF-8 "
    "bytes (32: str8), not code points (8) or UTF-16 units (16), which would fit a fixstr",
    "the same text under a fixstr header of 16": "what an encoder counting UTF-16 units "
    "writes: the header covers 16 bytes, and 16 bytes trail",
    "integer map key, then an empty ext as its value": "rule 3 checks a key's type when its "
    "entry is complete, after the value: a decoder that checks the key as soon as it is "
    "read gives msgpack/malformed",
    "integer map key with a nil value, then an empty ext in the next entry": "the first "
    "entry is complete before the ext is met: a decoder that checks every key at the end of "
    "the map, or finds exts first, gives msgpack/ext",
    "map16 header of 4097 entries, then an empty ext": "the entry count is checked at the "
    "header, before anything after it (not msgpack/ext)",
    "17th container a map with a bin key": "rule 5 checks a container's depth before its "
    "keys: checking keys first gives msgpack/map-key",
    "17th container an array holding a float": "rule 5 checks a container's depth before "
    "its items: a decoder that looks for floats first gives msgpack/type",
    "16th container a map with a bin key": "the 16th level passes the depth check, and the "
    "key then fails",
}


def msgpack_vectors() -> dict[str, Any]:
    vectors = []
    for name, data, max_size, want in MSGPACK_CASES:
        got = outcome(lambda d=data, n=max_size: unpack(bytes.fromhex(d), n))
        assert got == want, (name, got)
        vectors.append({"name": name, "data": data, "max_size": max_size, "expected": got,
                        **({"note": MSGPACK_NOTES[name]} if name in MSGPACK_NOTES else {})})
    return {"about": {**ABOUT, "section": "8.1",
                      "note": "unpack(data, max_size) must succeed ('ok') or fail with "
                              "expected"},
            "vectors": vectors}


def build(v: Kit) -> dict[str, dict[str, Any]]:
    """dealerless/2's wire vectors; a suite's set has only its own files.json (its setups
    are setup.json's version-3 cases, msgpack.json holds for every version)."""
    if v.S.version > 2:
        return {"files": file_vectors(v)}
    return {"ed25519": ed25519_vectors(), "msgpack": msgpack_vectors(),
            "setup": setup_vectors(), "files": file_vectors(v)}


def main() -> int:
    v, args = kit_from_args(argparse.ArgumentParser(description=__doc__.split("\n")[0]))
    stale = []
    for name, data in build(v).items():
        path = v.out / f"{name}.json"
        text = json.dumps(data, indent=1, sort_keys=True) + "\n"
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
    if stale:
        print("stale: " + ", ".join(stale) + " (run python tools/gen_wire_vectors.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
