#!/usr/bin/env python3
"""Generate the wire-level vectors: spec/vectors/{ed25519,msgpack,setup}.json.

    python tools/gen_wire_vectors.py          # rewrite the files
    python tools/gen_wire_vectors.py --check  # exit 1 if the files differ from the code

Each entry gives its input bytes and the result the reference code reaches
(`ok` or the error code); the generator also asserts that this is the result
the entry was made to show, so a change of behaviour fails here before it can
slip into the files. Keys and nonces come from public labels, as in
tools/gen_vectors.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nacl import bindings as na
from nacl.signing import SigningKey

from protocol.canonical import pack, unpack
from protocol.errors import DealerlessError
from protocol.frames import SIGNING_CONTEXT
from protocol.group import P_FIELD, L, base_mul, scalar_bytes
from protocol.identity import verify_signature
from protocol.match import MATCH_MAGIC, verify_match
from protocol.setup import GameSetup
from protocol.transcript import MAGIC, Transcript
from protocol.verifier import replay
from protocol.version import PROTOCOL

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors"
ABOUT = {"generated_by": "python tools/gen_wire_vectors.py", "spec": "spec/08-wire.md"}

#: A point of order 8 (libsodium's blocklist), and y values with no point on the curve
#: and with a point whose encoding has a non-canonical twin (y + p < 2^255).
ORDER8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
NO_X = (2).to_bytes(32, "little")


def seed(label: str) -> bytes:
    return hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest()[:32]


def scalar(label: str) -> int:
    return int.from_bytes(hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest(),
                          "little") % L


def outcome(check: Callable[[], object]) -> str:
    try:
        check()
    except DealerlessError as exc:
        return exc.code
    return "ok"


# -- Ed25519 (spec/08-wire.md 8.3) -------------------------------------------------------

def challenge(r_enc: bytes, a_enc: bytes, m: bytes) -> int:
    return int.from_bytes(hashlib.sha512(r_enc + a_enc + m).digest(), "little") % L


def sign_with(a: int, a_enc: bytes, r: int, m: bytes) -> bytes:
    """An Ed25519 signature from the scalar a (for the key a_enc) and the nonce r."""
    r_enc = base_mul(r).data
    return r_enc + scalar_bytes((r + challenge(r_enc, a_enc, m) * a) % L)


def non_canonical_twin() -> bytes:
    """The encoding y + p of the first point with y < 19 that has one (y = 2 has none)."""
    for y in range(2, 19):
        enc = (y + P_FIELD).to_bytes(32, "little")
        if _on_curve(y):
            return enc
    raise AssertionError("no small y on the curve")


def _on_curve(y: int) -> bool:
    d = (-121665 * pow(121666, -1, P_FIELD)) % P_FIELD
    u, v = (y * y - 1) % P_FIELD, (d * y * y + 1) % P_FIELD
    x2 = u * pow(v, -1, P_FIELD) % P_FIELD
    return pow(x2, (P_FIELD - 1) // 2, P_FIELD) in (0, 1)


def ed25519_vectors() -> dict[str, Any]:
    m = SIGNING_CONTEXT + pack([1, b"payload"])
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
    r = scalar("ed25519/r")
    s_ok = int.from_bytes(good[32:], "little")
    k_id = challenge(identity, a_enc, m)
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
        ("key is p + 1 (the identity, non-canonical)", (P_FIELD + 1).to_bytes(32, "little"),
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
    ]
    vectors = []
    for name, pk, msg, sig, step, note, want in cases:
        got = outcome(lambda pk=pk, msg=msg, sig=sig: verify_signature(pk, msg, sig))
        assert got == want, (name, got)
        entry = {"name": name, "key": pk.hex(), "message": msg.hex(), "signature": sig.hex(),
                 "fails_at_step": step, "expected": got}
        if note:
            entry["note"] = note
        vectors.append(entry)
    return {"about": {**ABOUT, "section": "8.3", "scalar_a": str(a),
                      "note": "fails_at_step names the first step of 8.3 Verify that fails; "
                              "'ok' entries pass every step"},
            "vectors": vectors}


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


# -- setups (spec/08-wire.md 8.2) --------------------------------------------------------

def setup_vectors() -> dict[str, Any]:
    ids = [bytes(SigningKey(seed(f"setup/id{i}")).verify_key) for i in range(3)]
    nonces = [seed(f"setup/nonce{i}") for i in range(3)]
    bram = GameSetup.create("bram", {}, ids[:2], nonces[:2])
    train = GameSetup.create("mexican-train", {"seats": 3}, ids, nonces)
    params = dict(bram.params)

    def setup(magic: Any = "dealerless/setup", version: Any = PROTOCOL, rules: Any = "bram",
              par: Any = None, identities: Any = None, nons: Any = None) -> bytes:
        return pack([magic, version, rules, params if par is None else par,
                     ids[:2] if identities is None else identities,
                     nonces[:2] if nons is None else nons])

    mixed = na.crypto_core_ed25519_add(ids[0], ORDER8)
    five = [bytes(SigningKey(seed(f"setup/id{i}")).verify_key) for i in range(5)]
    mined = GameSetup.create("mined-games", {}, five, [seed(f"setup/nonce{i}") for i in range(5)])
    shaft = GameSetup.create("mineshaft", {"seats": 2}, ids[:2], nonces[:2])
    cases: list[tuple[str, bytes, str]] = [
        ("bram with every parameter spelled out", bram.encode(), "ok"),
        ("mexican-train for 3 seats", train.encode(), "ok"),
        ("over 4096 bytes", setup(rules="x" * 4100), "msgpack/too-large"),
        ("five items", pack(["dealerless/setup", PROTOCOL, "bram", params, ids[:2]]),
         "schema/array"),
        ("wrong magic", setup(magic="dealerless/setuq"), "setup/version"),
        ("version 1", setup(version=1), "version/unsupported"),
        ("version 3", setup(version=3), "version/unsupported"),
        ("wrong magic and version 1", setup(magic="dealerless/setuq", version=1), "setup/version"),
        ("version true", setup(version=True), "schema/int"),
        ("rules of 65 characters", setup(rules="b" * 65), "schema/str"),
        ("rules not text", setup(rules=b"bram"), "schema/str"),
        ("a parameter that is a list", setup(par={**params, "komi_halves": [0]}),
         "setup/params"),
        ("params not a map", setup(par=[1]), "setup/params"),
        ("nine identities", setup(identities=[seed(f"x{i}") for i in range(9)]),
         "schema/array"),
        ("an identity of 31 bytes", setup(identities=[ids[0], ids[1][:31]]), "schema/bytes"),
        ("a nonce of 33 bytes", setup(nons=[nonces[0], nonces[1] + b"\x00"]),
         "schema/bytes"),
        ("one identity", setup(identities=ids[:1], nons=nonces[:1]), "schema/int"),
        ("unknown rule set", setup(rules="chess"), "rules/unknown-ruleset"),
        ("komi out of range", setup(par={**params, "komi_halves": 10 ** 6}), "rules/params"),
        ("a parameter left to its default", setup(par={}), "setup/params"),
        ("three identities for bram", setup(identities=ids, nons=nonces), "setup/seats"),
        ("two nonces, three identities", pack(["dealerless/setup", PROTOCOL, "mexican-train",
                                               dict(train.params), ids, nonces[:2]]),
         "setup/seats"),
        ("the same identity twice", setup(identities=[ids[0], ids[0]]), "setup/seats"),
        ("identity of small order (the identity point)",
         setup(identities=[ids[0], (1).to_bytes(32, "little")]), "setup/identity"),
        ("identity of order 8", setup(identities=[ids[0], ORDER8]), "setup/identity"),
        ("identity of mixed order (aB + T)", setup(identities=[ids[1], mixed]),
         "setup/identity"),
        ("identity non-canonical", setup(identities=[ids[0], non_canonical_twin()]),
         "setup/identity"),
        ("identity off the curve", setup(identities=[ids[0], NO_X]), "setup/identity"),
        ("non-canonical encoding (mexican-train params unsorted)", _unsorted(train),
         "msgpack/non-canonical"),
        ("mineshaft for 2 seats", shaft.encode(), "ok"),
        ("mined-games for 5 seats", mined.encode(), "ok"),
        ("rule set named Bram", setup(rules="Bram"), "rules/unknown-ruleset"),
        ("rule set named mexican_train", setup(rules="mexican_train"), "rules/unknown-ruleset"),
        ("mexican-train with an identity of order 8",
         pack(["dealerless/setup", PROTOCOL, "mexican-train", dict(train.params),
               [ids[0], ids[1], ORDER8], nonces]), "setup/identity"),
    ]
    # 8.2 "Which rule sets a verifier knows": one that implements only bram gives no
    # verdict for a setup naming another rule set of the version, from rule 8 on.
    not_judged = {"mexican-train for 3 seats", "two nonces, three identities",
                  "mineshaft for 2 seats", "mined-games for 5 seats",
                  "mexican-train with an identity of order 8"}
    vectors = []
    for name, data, want in cases:
        got = outcome(lambda d=data: GameSetup.decode(d))
        assert got == want, (name, got)
        entry: dict[str, Any] = {"name": name, "setup": data.hex(), "expected": got}
        if got == "ok":
            entry["game_id"] = GameSetup.decode(data).game_id.hex()
        if name in not_judged:
            entry["if_only_bram"] = "not judged"
        if name in SETUP_NOTES:
            entry["note"] = SETUP_NOTES[name]
        vectors.append(entry)
    return {"about": {**ABOUT, "section": "8.2",
                      "note": "decode the setup by 8.2's rules in order; 'ok' entries give "
                              "the game id H(GAME, setup)[:32]; `if_only_bram` is what a "
                              "verifier that implements only bram gives instead (8.2)"},
            "vectors": vectors}


SETUP_NOTES = {
    "mexican-train with an identity of order 8": "a verifier of bram alone stops at rule 8 "
    "(not judged): it does not go on to rules 9-11 with a rule set it lacks",
    "mexican-train for 3 seats": "a verifier of bram alone gives no verdict, not "
    "rules/unknown-ruleset: the name is one of the version's rule sets",
    "rule set named Bram": "names are compared exactly: only the four of the version are "
    "known, to every verifier",
    "rule set named mexican_train": "an unknown name is rules/unknown-ruleset for every "
    "verifier, a partial one included",
}


def _unsorted(setup: GameSetup) -> bytes:
    """The setup with its params map written in reverse key order."""
    encoded = setup.encode()
    params = pack(dict(setup.params))
    keys = [pack(k) + pack(v) for k, v in setup.params]
    reversed_map = params[:len(params) - sum(map(len, keys))] + b"".join(reversed(keys))
    return encoded.replace(params, reversed_map)


# -- transcript and match files (spec/08-wire.md 8.6, spec/11-verify.md 11.2, 11.5) ------

def _record(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


def file_vectors() -> dict[str, Any]:
    golden = Transcript.decode((OUT / "transcripts" / "valid.transcript").read_bytes())
    setup, frames = golden.setup.encode(), golden.frames
    t_magic = MAGIC
    magic, _, *rest = unpack(setup, 4096)
    setup_v1 = pack([magic, 1, *rest])
    head = t_magic + _record(b"S", setup)
    train = [GameSetup.create("mexican-train", {"seats": 2, **extra},
                              [bytes(SigningKey(seed(f"match/id{i}")).verify_key)
                               for i in range(2)],
                              [seed(f"match/nonce{r}/{i}") for i in range(2)]).encode()
             for r, extra in enumerate(({}, {"round": 11}))]
    rounds = [t_magic + _record(b"S", s) for s in train]
    # rules/mineshaft.md D19: only the rounds after the first name their first player.
    seated = GameSetup.create("mineshaft", {"seats": 2, "long": True, "first": 1},
                              [bytes(SigningKey(seed(f"match/id{i}")).verify_key)
                               for i in range(2)],
                              [seed(f"match/nonce/{i}") for i in range(2)]).encode()
    m_magic = MATCH_MAGIC
    transcripts: list[tuple[str, bytes]] = [
        ("setup and two frames: a valid prefix", head + _record(b"F", frames[0])
         + _record(b"F", frames[1])),
        ("wrong magic", b"DEALERLESS-X2\n" + head[len(t_magic):]),
        ("a magic without its version digit", b"DEALERLESS-T\n" + head[len(t_magic):]),
        ("a dealerless/1 file", b"DEALERLESS-T1\n" + head[len(t_magic):]),
        ("a dealerless/3 file", b"DEALERLESS-T3\n" + head[len(t_magic):]),
        ("a dealerless/1 setup", t_magic + _record(b"S", setup_v1)),
        ("magic only", t_magic),
        ("a record header cut after 3 bytes", head + b"F\x00\x00"),
        ("a frame record claiming 65537 bytes", head + b"F" + (65537).to_bytes(4, "big")),
        ("a setup record claiming 4097 bytes", t_magic + b"S" + (4097).to_bytes(4, "big")),
        ("a frame record cut short", head + _record(b"F", frames[0])[:-1]),
        ("a frame before the setup", t_magic + _record(b"F", frames[0]) + _record(b"S", setup)),
        ("a second setup", head + _record(b"S", setup)),
        ("a record of kind X", head + _record(b"X", b"")),
        ("a frame after evidence", head + _record(b"F", frames[0]) + _record(b"E", frames[0])
         + _record(b"F", frames[1])),
        ("evidence repeating an accepted frame", head + _record(b"F", frames[0])
         + _record(b"E", frames[0])),
        ("evidence that is not a frame", head + _record(b"F", frames[0])
         + _record(b"E", b"\xc0")),
        ("a setup that fails 8.2", t_magic + _record(b"S", setup[:-1])),
    ]
    matches: list[tuple[str, bytes]] = [
        ("wrong magic", b"DEALERLESS-X2\n" + _record(b"R", rounds[0])),
        ("a dealerless/1 match file", b"DEALERLESS-M1\n" + _record(b"R", rounds[0])),
        ("no rounds", m_magic),
        ("a record of kind T", m_magic + _record(b"T", rounds[0])),
        ("a round cut short", m_magic + _record(b"R", rounds[0])[:-1]),
        ("a first round that does not start at 12-12", m_magic + _record(b"R", rounds[1])),
        ("a bram game as a round", m_magic + _record(b"R", head)),
        ("a round after an unfinished round", m_magic + _record(b"R", rounds[0])
         + _record(b"R", rounds[0])),
        ("a round after a round without frames, its after empty", m_magic
         + _record(b"R", rounds[0]) + _record(b"R", rounds[1])),
        ("a first round whose file is cut short", m_magic + _record(b"R", rounds[0][:-1])),
        ("a first round of dealerless/1", m_magic
         + _record(b"R", b"DEALERLESS-T1\n" + rounds[0][len(t_magic):])),
        ("a first round whose setup fails 8.2", m_magic + _record(b"R", t_magic + _record(
            b"S", train[0][:-1]))),
        ("a first round of a long Mineshaft game that does not draw its first player",
         m_magic + _record(b"R", t_magic + _record(b"S", seated))),
    ]
    notes = {
        "a round after a round without frames, its after empty": "11.5: a round without "
        "frames is unfinished, so nothing follows it; its 'last frame' is not read as the "
        "empty text that would link round 1",
        "a first round whose file is cut short": "11.5 step 2a: a round whose own file "
        "fails gives its own code (transcript/truncated), not match/link",
        "a first round of dealerless/1": "11.5 step 2a: version/unsupported, the round's "
        "own refusal, not match/link",
        "a first round whose setup fails 8.2": "11.5 step 2a: the setup's own code",
    }
    return {"about": {**ABOUT, "spec": "spec/08-wire.md 8.6, spec/11-verify.md 11.2 and 11.5",
                      "note": "transcripts: the verdict of 11.2; matches: the violation of "
                              "11.5 and the round it is charged to"},
            "transcripts": [{"name": n, "file": d.hex(), **_transcript_verdict(d)}
                            for n, d in transcripts],
            "matches": [{"name": n, "file": d.hex(), **_match_verdict(d),
                         **({"note": notes[n]} if n in notes else {})} for n, d in matches]}


def _violation(v: Any) -> dict[str, Any] | None:
    return None if v is None else {"rule": v.code, "seat": v.seat, "frame": v.frame,
                                   "authenticated": v.authenticated}


def _transcript_verdict(data: bytes) -> dict[str, Any]:
    v = replay(data)
    return {"valid": v.valid, "complete": v.complete, "frames": v.frames,
            "violation": _violation(v.violation)}


def _match_verdict(data: bytes) -> dict[str, Any]:
    v = verify_match(data)
    return {"valid": v.valid, "violation": _violation(v.violation),
            "broken_round": v.broken_round}


def build() -> dict[str, dict[str, Any]]:
    return {"ed25519": ed25519_vectors(), "msgpack": msgpack_vectors(),
            "setup": setup_vectors(), "files": file_vectors()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    args = ap.parse_args()
    stale = []
    for name, data in build().items():
        path = OUT / f"{name}.json"
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
