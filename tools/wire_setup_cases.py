"""The setup vectors, spec/vectors/setup.json (spec/08-wire.md 8.2), for
tools/gen_wire_vectors.py: each setup's bytes, the result the reference code reaches, the
game id of an accepted one, and what a verifier of `bram` alone gives (8.2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nacl import bindings as na
from nacl.signing import SigningKey
from wire_common import ABOUT, NO_X, ORDER8, non_canonical_twin, outcome, seed

from protocol.canonical import pack, unpack
from protocol.rules import make_rules
from protocol.setup import GameSetup


def setup_vectors() -> dict[str, Any]:
    ids = [bytes(SigningKey(seed(f"setup/id{i}")).verify_key) for i in range(3)]
    nonces = [seed(f"setup/nonce{i}") for i in range(3)]
    bram = GameSetup.create("bram", {}, ids[:2], nonces[:2])
    train = GameSetup.create("mexican-train", {"seats": 3}, ids, nonces)
    params = dict(bram.params)

    def setup(magic: Any = "dealerless/setup", version: Any = 2, rules: Any = "bram",
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
        ("five items", pack(["dealerless/setup", 2, "bram", params, ids[:2]]),
         "schema/array"),
        ("wrong magic", setup(magic="dealerless/setuq"), "setup/version"),
        ("version 1", setup(version=1), "version/unsupported"),
        ("version 4", setup(version=4), "version/unsupported"),
        ("wrong magic and version 1", setup(magic="dealerless/setuq", version=1), "setup/version"),
        ("version true", setup(version=True), "schema/int"),
        # dealerless/3 (3.5): a seventh item names the suite, and the keys are its own.
        ("version 3 in ristretto255-sha512", pack(["dealerless/setup", 3, "bram", params,
                                                   ids[:2], nonces[:2],
                                                   "ristretto255-sha512"]), "ok"),
        ("version 3 without its suite", setup(version=3), "schema/array"),
        ("version 2 with a suite", pack(["dealerless/setup", 2, "bram", params, ids[:2],
                                         nonces[:2], "edwards25519-sha512"]), "schema/array"),
        ("version 3 in an unknown suite", pack(["dealerless/setup", 3, "bram", params,
                                                ids[:2], nonces[:2], "ed448-shake256"]),
         "setup/suite"),
        ("version 3 in bls12381g1-sha256 with Ed25519 keys",
         pack(["dealerless/setup", 3, "bram", params, ids[:2], nonces[:2],
               "bls12381g1-sha256"]), "schema/bytes"),
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
        ("two nonces, three identities", pack(["dealerless/setup", 2, "mexican-train",
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
         pack(["dealerless/setup", 2, "mexican-train", dict(train.params),
               [ids[0], ids[1], ORDER8], nonces]), "setup/identity"),
    ]
    cases += (_text_cases(setup) + _order_cases(setup, train) + _param_cases(ids, nonces)
              + _mineshaft_order_cases(ids, nonces))
    vectors = []
    for name, data, want in cases:
        got = outcome(lambda d=data: GameSetup.decode(d))
        assert got == want, (name, got)
        entry: dict[str, Any] = {"name": name, "setup": data.hex(), "expected": got}
        if got == "ok":
            entry["game_id"] = GameSetup.decode(data).game_id.hex()
        if _not_judged_by_bram_alone(data, got):
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
    "rules of 64 characters outside the BMP": "text(64) counts code points (64), not UTF-16 "
    "units (128) or UTF-8 bytes (256): either of those gives schema/str",
    "rules of 64 characters of two UTF-8 bytes": "64 code points, 128 UTF-8 bytes: a byte "
    "count gives schema/str",
    "rules of 65 characters outside the BMP": "one code point over text(64)",
    "rules U+FEFF then bram": "the U+FEFF is kept: a decoder that drops it reads 'bram' and "
    "accepts the setup (or, re-encoding, calls it msgpack/non-canonical)",
    "magic as bytes": "rule 2 compares item 0 with the text: bytes or any other type is "
    "setup/version, not schema/str or schema/bytes",
    "magic an integer": "a non-text item 0 is setup/version, like a wrong text",
    "bram: an unknown key, and komi_halves left out": "rule 9 checks the rule set's "
    "acceptance (rules/params) before the full map (setup/params): checking the map against "
    "its defaults first gives setup/params",
    "mexican-train: round 13, and mexican_train and after left out": "rules/params first, "
    "as above: not setup/params",
    "bram: komi_halves -336": "the lower bound is in range",
    "bram: komi_halves 337": "one past the range -336..336",
    "bram: komi_halves true": "a boolean is no integer (a reader that takes true as 1 "
    "accepts it)",
    "bram: komi_halves as text": "a text value is no integer",
    "mexican-train: round 0 with the Mexican train, after a round": "round 0 is in range and "
    "after is 64 lowercase hex digits",
    "mexican-train: round 13": "round is 0..12",
    "mexican-train: seats left out": "seats is required: a missing required parameter is "
    "rules/params, not setup/params (a default left out)",
    "mexican-train: mexican_train 1": "a boolean parameter takes true or false, not 1",
    "mexican-train: after in uppercase hex": "after is lowercase hex (11.5); a case-blind "
    "reader accepts it",
    "mexican-train: after of 63 hex digits": "after is empty or exactly 64 digits",
    "mineshaft: a short game on double-nine": "max_seats is 8 on double-nine (D3); the "
    "round is the set's highest double, 9",
    "mineshaft: a long round on 5-5 whose first player is seat 1": "a long round may start "
    "on any double and name its first player (D13, D19)",
    "mineshaft: a short game on 5-5": "D13: a short game is one round on the set's highest "
    "double; a reader that only checks round's range accepts it",
    "mineshaft: round 10 on double-nine": "round is 0..max pip of the set, 9 on double-nine, "
    "even in a long game",
    "mineshaft: 5 seats on double-six": "max_seats is 4 on double-six (D3), 8 on the others",
    "mineshaft: a short game naming its first player": "D19: only a long round may set "
    "first",
    "mineshaft: first 2 of 2 seats": "first is -1 or a seat, 0..seats - 1",
    "mineshaft: set double-seven": "set is one of the three names, compared exactly",
    "mineshaft: 5 seats with set left out": "set takes its default, double-six, before seats "
    "is checked against it (at most 4, D3): rules/params, not the setup/params of a default "
    "left out (rule 9 checks the rule set first)",
    "mineshaft: round 5 with long left out": "long takes its default, false, before D13 "
    "compares round with it: rules/params, not setup/params",
    "mineshaft: first 2 under seats 3, with two identities": "first is checked against the "
    "seats parameter, never the identities: the parameters pass and rule 10 fails "
    "(setup/seats), not rules/params",
    "mineshaft: first 2 of 2 seats, with three identities": "first is checked against the "
    "seats parameter (2), and rule 9 comes before rule 10: rules/params, not setup/seats",
    "mineshaft: a short game after a round": "a short game follows no round (D13): after is "
    "empty; well-formed hex is refused there (check 9), as first is (D19)",
    "mined-games: a map 4 wide and 3 high": "width counts letters per row, height rows per "
    "floor (2.2)",
    "mined-games: rounds 1, a generated 12 x 3 mine": "an empty map: the mine is generated "
    "(3) at the given size, 3..12 each way",
    "mined-games: the map with width and height swapped": "a reader that takes width as the "
    "number of rows accepts this and refuses the map's own size",
    "mined-games: a map whose B1 is air and lava": "B1 needs a tile that is neither air "
    "nor lava (2.2, D5)",
    "mined-games: a map of three floors": "four floors, B1 to B4",
    "mined-games: a map with a lowercase kind": "kind letters are the eight capitals of "
    "2.1, compared exactly",
    "mined-games: a map with rows of different lengths": "every row of every floor has "
    "width letters",
    "mined-games: a map with a space": "the map parameter holds no whitespace (only the "
    "--map file's reader removes it, 2.2)",
    "mined-games: a map 2 wide": "3..12 letters per row",
    "mined-games: rounds 0": "rounds is 1..10",
    "mined-games: rounds 11": "rounds is 1..10",
    "mined-games: width 13": "width is 3..12",
    "mined-games: seats 9": "seats is 2..8; checked before the seat count of rule 10",
}

#: The codes of 8.2 rules 9 to 11, which a verifier lacking the rule set never reaches.
_RULE_SET_CODES = {"ok", "rules/params", "setup/params", "setup/seats", "setup/identity"}


def _not_judged_by_bram_alone(data: bytes, got: str) -> bool:
    """8.2 "Which rule sets a verifier knows": a verifier of bram alone stops at rule 8,
    giving no verdict, for a setup that names another rule set of the version."""
    rules = unpack(data, 4096)[2] if got in _RULE_SET_CODES else None
    return rules in ("mexican-train", "mineshaft", "mined-games")


Build = Callable[..., bytes]


def _text_cases(setup: Build) -> list[tuple[str, bytes, str]]:
    """8.1 text(m) counts code points; a leading U+FEFF is part of the text."""
    return [
        ("rules of 64 characters outside the BMP", setup(rules="\U0001f600" * 64),
         "rules/unknown-ruleset"),
        ("rules of 64 characters of two UTF-8 bytes", setup(rules="\u00e9" * 64),
         "rules/unknown-ruleset"),
        ("rules of 65 characters outside the BMP", setup(rules="\U0001f600" * 65),
         "schema/str"),
        ("rules U+FEFF then bram", setup(rules="\ufeffbram"), "rules/unknown-ruleset"),
    ]


def _order_cases(setup: Build, train: GameSetup) -> list[tuple[str, bytes, str]]:
    """8.2 rules 2 and 9 where two codes could apply."""
    return [
        ("magic as bytes", setup(magic=b"dealerless/setup"), "setup/version"),
        ("magic an integer", setup(magic=2), "setup/version"),
        ("bram: an unknown key, and komi_halves left out", setup(par={"komi": 3}),
         "rules/params"),
        ("mexican-train: round 13, and mexican_train and after left out",
         setup(rules="mexican-train", par={"seats": 2, "round": 13}), "rules/params"),
    ]


def _unsorted(setup: GameSetup) -> bytes:
    """The setup with its params map written in reverse key order."""
    encoded = setup.encode()
    params = pack(dict(setup.params))
    keys = [pack(k) + pack(v) for k, v in setup.params]
    reversed_map = params[:len(params) - sum(map(len, keys))] + b"".join(reversed(keys))
    return encoded.replace(params, reversed_map)


#: rules/mined-games.md 2.2: a map 4 wide and 3 high (B1 has tiles to start on).
MAP_4x3 = "DGDD,DDDD,DDDD/DDDD,DIDD,DDDD/DDDD,DDDD,DDDD/LLLL,LLLL,LLLL"


def _param_cases(ids: list[bytes], nonces: list[bytes]) -> list[tuple[str, bytes, str]]:
    """Each rule set's section 2 (8.2 rule 9), on two seats, every other parameter spelled
    out so that one parameter is at fault."""
    def rs(rules: str, given: dict[str, Any], **change: Any) -> bytes:
        params = {**make_rules(rules, given).params, **change}
        for key in [k for k, v in change.items() if v is _DROP]:
            del params[key]
        return pack(["dealerless/setup", 2, rules, params, ids[:2], nonces[:2]])

    after = seed("setup/after").hex()
    two = {"seats": 2}
    long_shaft = {"seats": 2, "long": True, "round": 5}
    mined = {"seats": 2, "map": MAP_4x3}
    return [
        ("bram: komi_halves -336", rs("bram", {"komi_halves": -336}), "ok"),
        ("bram: komi_halves 337", rs("bram", {}, komi_halves=337), "rules/params"),
        ("bram: komi_halves true", rs("bram", {}, komi_halves=True), "rules/params"),
        ("bram: komi_halves as text", rs("bram", {}, komi_halves="3"), "rules/params"),
        ("mexican-train: round 0 with the Mexican train, after a round",
         rs("mexican-train", {**two, "round": 0, "mexican_train": True, "after": after}),
         "ok"),
        ("mexican-train: round 13", rs("mexican-train", two, round=13), "rules/params"),
        ("mexican-train: seats left out", rs("mexican-train", two, seats=_DROP),
         "rules/params"),
        ("mexican-train: mexican_train 1", rs("mexican-train", two, mexican_train=1),
         "rules/params"),
        ("mexican-train: after in uppercase hex", rs("mexican-train", two,
                                                     after=after.upper()), "rules/params"),
        ("mexican-train: after of 63 hex digits", rs("mexican-train", two, after=after[:63]),
         "rules/params"),
        ("mineshaft: a short game on double-nine", rs("mineshaft", {
            **two, "set": "double-nine"}), "ok"),
        ("mineshaft: a long round on 5-5 whose first player is seat 1",
         rs("mineshaft", {**long_shaft, "first": 1}), "ok"),
        ("mineshaft: a short game on 5-5", rs("mineshaft", two, round=5), "rules/params"),
        ("mineshaft: round 10 on double-nine", rs("mineshaft", {
            **long_shaft, "set": "double-nine"}, round=10), "rules/params"),
        ("mineshaft: 5 seats on double-six", rs("mineshaft", two, seats=5), "rules/params"),
        ("mineshaft: a short game naming its first player", rs("mineshaft", two, first=1),
         "rules/params"),
        ("mineshaft: first 2 of 2 seats", rs("mineshaft", long_shaft, first=2),
         "rules/params"),
        ("mineshaft: set double-seven", rs("mineshaft", two, set="double-seven"),
         "rules/params"),
        ("mined-games: a map 4 wide and 3 high", rs("mined-games", mined), "ok"),
        ("mined-games: rounds 1, a generated 12 x 3 mine", rs("mined-games", {
            **two, "rounds": 1, "width": 12, "height": 3}), "ok"),
        ("mined-games: the map with width and height swapped",
         rs("mined-games", mined, width=3, height=4), "rules/params"),
        ("mined-games: a map whose B1 is air and lava",
         rs("mined-games", mined, map="AALL,AAAA,LLLL" + MAP_4x3[14:]), "rules/params"),
        ("mined-games: a map of three floors",
         rs("mined-games", mined, map=MAP_4x3.rsplit("/", 1)[0]), "rules/params"),
        ("mined-games: a map with a lowercase kind",
         rs("mined-games", mined, map="d" + MAP_4x3[1:]), "rules/params"),
        ("mined-games: a map with rows of different lengths",
         rs("mined-games", mined, map="DGDDD" + MAP_4x3[4:]), "rules/params"),
        ("mined-games: a map with a space", rs("mined-games", mined, map=MAP_4x3 + " "),
         "rules/params"),
        ("mined-games: a map 2 wide", rs("mined-games", {**two, "width": 3}, width=2, map=(
            "DG,DD,DD/DD,DI,DD/DD,DD,DD/LL,LL,LL")), "rules/params"),
        ("mined-games: rounds 0", rs("mined-games", two, rounds=0), "rules/params"),
        ("mined-games: rounds 11", rs("mined-games", two, rounds=11), "rules/params"),
        ("mined-games: width 13", rs("mined-games", two, width=13), "rules/params"),
        ("mined-games: seats 9", rs("mined-games", two, seats=9), "rules/params"),
    ]


def _mineshaft_order_cases(ids: list[bytes], nonces: list[bytes]) -> list[tuple[str, bytes, str]]:
    """rules/mineshaft.md 2 "Checking the parameters": two faults at once, where what a
    cross-check compares with (the parameters, a default for one left out, never the
    identities) decides the code."""
    def rs(given: dict[str, Any], k: int, **change: Any) -> bytes:
        params = {**make_rules("mineshaft", given).params, **change}
        for key in [key for key, v in change.items() if v is _DROP]:
            del params[key]
        return pack(["dealerless/setup", 2, "mineshaft", params, ids[:k], nonces[:k]])

    long_shaft = {"seats": 2, "long": True, "round": 5}
    return [
        ("mineshaft: 5 seats with set left out", rs({"seats": 2}, 2, seats=5, set=_DROP),
         "rules/params"),
        ("mineshaft: round 5 with long left out", rs(long_shaft, 2, long=_DROP),
         "rules/params"),
        ("mineshaft: first 2 under seats 3, with two identities",
         rs({**long_shaft, "seats": 3, "first": 2}, 2), "setup/seats"),
        ("mineshaft: first 2 of 2 seats, with three identities",
         rs(long_shaft, 3, first=2), "rules/params"),
        ("mineshaft: a short game after a round", rs({"seats": 2}, 2, after="ab" * 32),
         "rules/params"),
    ]


_DROP = object()
