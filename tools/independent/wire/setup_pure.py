"""Decoding a received setup, spec/08-wire.md 8.2's rules in order (1, 2, 2', 3-11), in
pure Python, for the four rule sets of the version: six items at dealerless/2, seven at
dealerless/3, the seventh the suite (3.5).

With the parameters of spec/rules/*.md 2, wire.msgpack_pure for rule 1 and 2.3 point
decoding (group.curve) for rule 11; checks spec/vectors/setup.json (checks.wire). The
transcript verifier decodes setups with session.game.

[W5] 8.2 rule 2: item 0 is checked first (setup/version), then item 1 with the int
     accessor (schema/int: `true`, a negative or a non-integer), then its value
     (version/unsupported: 2 or 3 is read), then rule 2' (the item count for that version,
     schema/array; the suite as text(64), schema/str, naming a suite of 3.5, setup/suite).
[W6] 8.2 rule 9 with rules/*.md 2: unknown keys, ill-typed or out-of-range values and a
     missing *required* parameter (`seats`) are rules/params; a parameter with a default
     left out is setup/params. `after` must be "" or 64 lowercase hex digits (11.5);
     Mineshaft refuses a `round` other than the highest double unless `long` (D13).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from independent.errors import RULE_SETS_OF_THE_VERSION, NotJudged, SpecError, fail
from independent.group import bls12381
from independent.group.curve import point_rule
from independent.group.points import SETS
from independent.group.suites import SUITES
from independent.wire.msgpack_pure import unpack

MAX_SETUP_BYTES = 4096
HEX64 = re.compile(r"[0-9a-f]{64}")


def _param(params: dict[str, Any], name: str, kind: type, default: Any = None,
           lo: int | None = None, hi: int | None = None) -> Any:
    """One parameter of rules/*.md 2: present and well typed, or its default."""
    if name not in params:
        if default is None:
            fail("rules/params")  # a required parameter [W6]
        return default
    v = params[name]
    if kind is int and (not isinstance(v, int) or isinstance(v, bool)):
        fail("rules/params")
    if kind is not int and not isinstance(v, kind):
        fail("rules/params")
    if lo is not None and hi is not None and not lo <= v <= hi:
        fail("rules/params")
    return v


def _after(params: dict[str, Any]) -> str:
    after: str = _param(params, "after", str, "")
    if after and not HEX64.fullmatch(after):  # 11.5: 64 lowercase hex digits [W6]
        fail("rules/params")
    return after


def _known(params: dict[str, Any], names: set[str]) -> None:
    if set(params) - names:
        fail("rules/params")  # unknown keys (bram.md 1)


def bram_params(params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """rules/bram.md 2: komi_halves, integer -336..336, default 3; 2 seats."""
    _known(params, {"komi_halves"})
    return {"komi_halves": _param(params, "komi_halves", int, 3, -336, 336)}, 2


def mexican_train_params(params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """rules/mexican-train.md 2."""
    _known(params, {"seats", "round", "mexican_train", "after"})
    seats = _param(params, "seats", int, None, 2, 8)
    full = {"seats": seats, "round": _param(params, "round", int, 12, 0, 12),
            "mexican_train": _param(params, "mexican_train", bool, False),
            "after": _after(params)}
    return full, seats


def mineshaft_params(params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """rules/mineshaft.md 2, "Checking the parameters" 1-11 in order (max_seats: D3; short
    games on the highest double: D13; first: D19). A cross-check compares with the other
    parameters, a left-out one at its default, never with the identities."""
    _known(params, {"set", "seats", "round", "long", "after", "first"})  # 1
    if "seats" not in params:  # 2
        fail("rules/params")
    tile_set = _param(params, "set", str, "double-six")  # 3
    if tile_set not in SETS:
        fail("rules/params")
    top = SETS[tile_set]
    seats = _param(params, "seats", int, None, 2, 4 if tile_set == "double-six" else 8)  # 4
    long = _param(params, "long", bool, False)  # 5
    rnd = _param(params, "round", int, top, 0, top)  # 6
    if not long and rnd != top:  # 7
        fail("rules/params")
    after = _after(params)  # 8
    if not long and after:  # 9: a short game follows no round
        fail("rules/params")
    first = _param(params, "first", int, -1, -1, seats - 1)  # 10: -1 draws the first player
    if not long and first != -1:  # 11
        fail("rules/params")
    full = {"set": tile_set, "seats": seats, "round": rnd, "long": long,
            "after": after, "first": first}
    return full, seats


MINED_KINDS = frozenset("GSIERDAL")  # rules/mined-games.md 2.1


def _mined_map(text: str) -> tuple[int, int]:
    """rules/mined-games.md 2.2: four floors of equal size, 3..12 each way, known kind
    letters, and a B1 tile that is neither air nor lava. Returns (width, height)."""
    floors = [f.split(",") for f in text.split("/")]
    if len(floors) != 4:
        fail("rules/params")
    h, w = len(floors[0]), len(floors[0][0])
    if any(len(f) != h or any(len(row) != w or set(row) - MINED_KINDS for row in f)
           for f in floors):
        fail("rules/params")
    if not (3 <= w <= 12 and 3 <= h <= 12) or set("".join(floors[0])) <= set("AL"):
        fail("rules/params")
    return w, h


def mined_games_params(params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """rules/mined-games.md 2: seats, width, height, map, rounds; a given map fixes the size."""
    _known(params, {"seats", "width", "height", "map", "rounds"})
    text = _param(params, "map", str, "")
    size = _mined_map(text) if text else None
    width = _param(params, "width", int, size[0] if size else 7, 3, 12)
    height = _param(params, "height", int, size[1] if size else 7, 3, 12)
    if size is not None and (width, height) != size:
        fail("rules/params")
    seats = _param(params, "seats", int, 5, 2, 8)
    full = {"seats": seats, "width": width, "height": height, "map": text,
            "rounds": _param(params, "rounds", int, 10, 1, 10)}
    return full, seats


RULESETS: dict[str, Callable[[dict[str, Any]], tuple[dict[str, Any], int]]] = {
    "bram": bram_params, "mexican-train": mexican_train_params, "mineshaft": mineshaft_params,
    "mined-games": mined_games_params}


def H_game(setup: bytes, context: bytes = b"dealerless/2", hash_name: str = "sha512") -> bytes:
    """3.1 / 3.5 H(GAME, setup bytes) under the suite's context and hash, first 32 bytes
    (8.2)."""
    def lp(x: bytes) -> bytes:
        return len(x).to_bytes(4, "big") + x
    parts = (context, b"dealerless/game-id", setup)
    return hashlib.new(hash_name, b"".join(lp(x) for x in parts)).digest()[:32]


def _identity_refused(key: bytes, suite: str) -> bool:
    """8.2 rule 11: a key of G1 by 2.5 in bls12381g1-sha256, else an Ed25519 key by 2.3."""
    if suite != "bls12381g1-sha256":
        return point_rule(key) is not None
    try:
        bls12381.decode(key)
    except SpecError:
        return True
    return False


def decode_setup(data: bytes) -> bytes:
    """8.2 "Decoding a received setup", rules 1 to 11 in order; returns the game id."""
    v = unpack(data, MAX_SETUP_BYTES)  # 1
    if not isinstance(v, list) or len(v) not in (6, 7):
        fail("schema/array")
    magic, version, rules, params, ids, nonces = v[:6]
    if magic != "dealerless/setup":  # 2 [W5]
        fail("setup/version")
    if not isinstance(version, int) or isinstance(version, bool) or not (
            0 <= version <= 2**64 - 1):
        fail("schema/int")
    if version not in (2, 3):  # README "Versioning"
        fail("version/unsupported")
    if len(v) != (6 if version == 2 else 7):  # 2'
        fail("schema/array")
    suite = "edwards25519-sha512" if version == 2 else v[6]
    if not isinstance(suite, str) or len(suite) > 64:
        fail("schema/str")
    if suite not in SUITES:
        fail("setup/suite")
    key_bytes = 48 if suite == "bls12381g1-sha256" else 32
    if not isinstance(rules, str) or len(rules) > 64:  # 3
        fail("schema/str")
    if not isinstance(params, dict) or any(  # 4 (bool is an int in Python)
            not isinstance(x, int | str) for x in params.values()):
        fail("setup/params")
    for items, n in ((ids, key_bytes), (nonces, 32)):  # 5, 6
        if not isinstance(items, list) or len(items) > 8:
            fail("schema/array")
        if any(not isinstance(x, bytes) or len(x) != n for x in items):
            fail("schema/bytes")
    if len(ids) < 2:  # 7
        fail("schema/int")
    if rules not in RULE_SETS_OF_THE_VERSION:  # 8
        fail("rules/unknown-ruleset")
    if rules not in RULESETS:  # 8.2: a rule set of the version this decoder lacks
        raise NotJudged(rules)
    full, k = RULESETS[rules](params)  # 9
    if params != full:
        fail("setup/params")
    if len(ids) != k or len(nonces) != k or len(set(ids)) != k:  # 10
        fail("setup/seats")
    if any(_identity_refused(key, suite) for key in ids):  # 11
        fail("setup/identity")
    if version == 2:
        return H_game(data)
    return H_game(data, f"dealerless/3/{suite}".encode(), SUITES[suite][1])
