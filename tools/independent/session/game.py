"""The setup and the game it fixes: spec/08-wire.md 8.2 decoding, 10.1 and 10.3's
positions and owners, with the rule sets of spec/rules/ ([D2], [D3]).

A setup of dealerless/3 has seven items, the seventh the suite (3.5) every hash, point,
scalar and proof of the game is in; one of dealerless/2 has six, and is a game of
edwards25519-sha512 whose context is `dealerless/2` (README "Versioning")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from independent.errors import (
    RULE_SETS_OF_THE_VERSION,
    NotJudged,
    SpecError,
    check_version,
    fail_err,
)
from independent.group.groups import BLS12381G1
from independent.group.ops import accept_point
from independent.group.points import Tile, tile_points
from independent.group.suites import SUITES, Suite, suite
from independent.rules.bram import Bram
from independent.rules.mexican_train import MexicanTrain
from independent.rules.mined_games import MinedGames
from independent.rules.mineshaft import Mineshaft
from independent.wire.fields import f_bytes, f_int, f_list, f_text
from independent.wire.msgpack_lib import unpack

MAX_SETUP_BYTES = 4096      # 8.2


RULESETS: dict[str, Any] = {"bram": Bram, "mexican-train": MexicanTrain,
                            "mineshaft": Mineshaft, "mined-games": MinedGames}
HIDDEN, BONEYARD = -1, -2



@dataclass
class Game:
    """10.1: the fixed facts derived from the setup."""

    setup: bytes
    suite: Suite             # 3.5: the game's suite at the setup's version
    rules: Any               # Bram, MexicanTrain, Mineshaft or MinedGames
    identities: list[bytes]
    k: int
    game_id: bytes
    deck_tiles: list[Tile]
    owners: list[int]
    point_of: dict[Tile, bytes]
    tile_of: dict[bytes, Tile]


def decode_setup(data: bytes, implemented: tuple[str, ...] = tuple(RULESETS)) -> Game:
    """8.2: the checks in their order. `implemented` narrows the rule sets this verifier
    judges (8.2: a partial verifier stops at rule 8 with NotJudged for the others)."""
    v = unpack(data, MAX_SETUP_BYTES)                                           # 1
    if not isinstance(v, list) or len(v) not in (6, 7):
        fail_err("schema/array", "setup: expected an array of 6 or 7")
    magic, version, rules_name, params, ids, nonces = v[:6]
    if magic != "dealerless/setup":                                             # [D2]
        fail_err("setup/version", "magic is not dealerless/setup")
    version = check_version(f_int(version, "version"), "setup")
    if len(v) != (6 if version == 2 else 7):                                    # 2'
        fail_err("schema/array", f"setup: {6 if version == 2 else 7} items at version "
                 f"{version}")
    name = "edwards25519-sha512" if version == 2 else f_text(v[6], "suite")
    if name not in SUITES:
        fail_err("setup/suite", f"unknown suite {name!r}")
    s = suite(name, version)
    f_text(rules_name, "rules")
    if not isinstance(params, dict) or any(
            not isinstance(x, int | str) for x in params.values()):  # bool is an int
        fail_err("setup/params", "params must map names to integers, text or booleans")
    for x in f_list(ids, "identities", 8):
        f_bytes(x, "identity", s.frame_key_bytes)
    for x in f_list(nonces, "nonces", 8):
        f_bytes(x, "nonce", 32)
    if not 2 <= len(ids) <= 8:
        fail_err("schema/int", "2 to 8 identities")
    if rules_name not in RULE_SETS_OF_THE_VERSION:
        fail_err("rules/unknown-ruleset", f"unknown rule set {rules_name!r}")   # 8.2 row 8
    if rules_name not in implemented:
        raise NotJudged(rules_name)
    rules = RULESETS[rules_name](params)
    if params != rules.params:
        fail_err("setup/params")
    rules.suite = s   # 3.5: the rule set's hashes (mined-games) are the suite's
    k = rules.seats
    if len(ids) != k or len(nonces) != k or len(set(ids)) != k:
        fail_err("setup/seats", f"{k} distinct identities and {k} nonces")
    for key in ids:                                                     # 8.2 row 11
        try:
            # 8.3: a frame key of G1 by 2.5, an Ed25519 key (the other suites) by 2.3
            s.ops.accept(key) if s.group is BLS12381G1 else accept_point(key)
        except SpecError as e:
            fail_err("setup/identity", f"an identity key is no prime-order point ({e})")
    game_id = s.H("GAME", data)[:32]
    if getattr(rules, "simultaneous", False):  # 10.8: no deck
        return Game(data, s, rules, list(ids), k, game_id, [], [], {}, {})
    # 10.3 positions and owners; 5.1 the tile table of the whole set.
    deck_tiles = [t for t in rules.tiles if t not in rules.on_table]
    h = rules.hand_size
    owners = [s for s in range(k) for _ in range(h)] + [HIDDEN] * rules.hidden
    owners += [BONEYARD] * (len(deck_tiles) - len(owners))
    table = tile_points(s, rules.set_name)
    point_of = {rules.tiles[i]: pt for i, pt in enumerate(table.values())}  # canonical order
    return Game(data, s, rules, list(ids), k, game_id, deck_tiles, owners, point_of,
                {pt: t for t, pt in point_of.items()})
