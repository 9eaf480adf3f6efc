"""The wire vectors: ed25519.json (8.3), msgpack.json (8.1) and setup.json (8.2), through
the pure-Python wire layer."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from independent.checks.tally import VECTORS
from independent.errors import NotJudged, SpecError
from independent.group.curve import (
    NEUTRAL,
    B,
    decode,
    encode,
    point_rule,
    pt_add,
    pt_eq,
    pt_mul,
    pt_neg,
)
from independent.wire.ed25519 import (
    READINGS,
    SIGN_PREFIX,
    ed25519_verify,
    reading_accepts,
    verify_signature,
)
from independent.wire.msgpack_pure import pack, unpack
from independent.wire.setup_pure import decode_setup


def _run(fn: Callable[[], Any]) -> tuple[Any, str]:
    try:
        return fn(), "ok"
    except SpecError as e:
        return None, e.code


def _load(t: Any, name: str) -> list[dict[str, Any]]:
    t.file = name
    vectors: list[dict[str, Any]] = json.loads((VECTORS / name).read_text())["vectors"]
    return vectors


def check_ed25519(t: Any) -> None:
    """vectors/ed25519.json: verdict, failing step, and each vector's note."""
    about = json.loads((VECTORS / "ed25519.json").read_text())["about"]
    a_scalar = int(about["scalar_a"])
    caught: set[str] = set()
    for v in _load(t, "ed25519.json"):
        nm, key, m, sig = v["name"], *(bytes.fromhex(v[f]) for f in ("key", "message",
                                                                        "signature"))
        t.ok(f"{nm}: message starts with the 8.3 prefix", m.startswith(SIGN_PREFIX))
        step = ed25519_verify(key, m, sig)
        t.eq(f"{nm}: fails_at_step", step, v["fails_at_step"])
        _, code = _run(lambda key=key, m=m, sig=sig: verify_signature(key, m, sig))
        t.eq(f"{nm}: verdict", code, v["expected"])
        note = v.get("note", "")
        for n in re.findall(r"passes step 7 if step (\d) is skipped", note):
            t.eq(f"{nm}: with step {n} skipped", ed25519_verify(key, m, sig, frozenset({
                int(n)})), "ok")
        if "cofactored equation only" in note or "valid under both equations" in note:
            t.eq(f"{nm}: cofactored equation", ed25519_verify(key, m, sig, cofactored=True),
                 "ok")
        if "scalar a" in nm:
            t.eq(f"{nm}: key = [a]B", key.hex(), encode(pt_mul(a_scalar, B)).hex())
        if "aB + T" in nm:  # the key minus [a]B is a torsion point other than O
            a = decode(key)
            tors = a and pt_add(a, pt_neg(pt_mul(a_scalar, B)))
            t.ok(f"{nm}: key - [a]B is a nonzero small-order point", tors is not None and
                 not pt_eq(tors, NEUTRAL) and pt_eq(pt_mul(8, tors), NEUTRAL))
            t.eq(f"{nm}: 2.3 refuses the key", point_rule(key), "point/torsion")
        # 8.3 "Readings that differ": exactly the readings in accepted_by accept a rejected
        # signature, and every reading accepts a valid one.
        for reading in READINGS:
            want = v["expected"] == "ok" or reading in v["accepted_by"]
            t.eq(f"{nm}: {reading} accepts", reading_accepts(reading, key, m, sig), want)
        caught |= set(v["accepted_by"])
    t.eq("ed25519.json: every reading of 8.3 is caught by a vector", sorted(caught),
         sorted(READINGS))


def check_msgpack(t: Any) -> None:
    """vectors/msgpack.json: unpack(data, max_size) by 8.1."""
    for v in _load(t, "msgpack.json"):
        data = bytes.fromhex(v["data"])
        value, code = _run(lambda d=data, n=v["max_size"]: unpack(d, n))
        t.eq(f"{v['name']}: unpack", code, v["expected"])
        if code == "ok":
            t.eq(f"{v['name']}: re-encodes to itself", pack(value).hex(), v["data"])


def check_setup(t: Any) -> None:
    """vectors/setup.json: 8.2's rules in order, and the game id."""
    for v in _load(t, "setup.json"):
        setup = bytes.fromhex(v["setup"])
        try:
            game_id, code = _run(lambda s=setup: decode_setup(s))
        except NotJudged as e:  # this decoder implements some of the rule sets only (8.2)
            game_id, code, lacking = None, "not judged", e.rules_name
        else:
            lacking = None
        # A setup a verifier of bram alone does not judge names a rule set of the version
        # past rule 7; this decoder judges it exactly if it implements that rule set.
        want = ("not judged" if v.get("if_only_bram") == "not judged"
                and lacking is not None else v["expected"])
        t.eq(f"{v['name']}: decode", code, want)
        if ("game_id" in v and lacking is None) or code == "ok":
            t.eq(f"{v['name']}: game id", game_id and game_id.hex(), v.get("game_id"))


CHECKS = (check_ed25519, check_msgpack, check_setup)
