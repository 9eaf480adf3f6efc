"""The game setup and the game id (spec/08-wire.md section 8.2).

Before the first frame the seats agree on a setup: the protocol version, the rule set
and its parameters, every seat's frame key in seat order, one fresh 32-byte nonce per
seat and, from dealerless/3, the ciphersuite. The game id is the hash of its canonical
encoding, so it binds all of these, and every frame and proof carries it: nothing from
one game verifies in another.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .canonical import as_array, as_bytes, as_int, as_list, as_str, pack, unpack
from .errors import EncodingError, LocalError
from .rules import make_rules
from .rules.base import ParamValue, RuleSet
from .suite import SUITE_NAMES, Suite, suite
from .tags import Tag
from .version import PROTOCOL, check_version

#: The suite of every dealerless/2 game (spec/02-group.md 2.5).
V2_SUITE = "edwards25519-sha512"

SETUP_MAGIC = "dealerless/setup"
NONCE_BYTES = 32
MAX_SETUP_BYTES = 4096


@dataclass(frozen=True)
class GameSetup:
    rules: str
    params: tuple[tuple[str, ParamValue], ...]
    identities: tuple[bytes, ...]
    nonces: tuple[bytes, ...]
    #: The ciphersuite (3.5), an item of the setup from dealerless/3 on.
    suite_name: str = V2_SUITE
    version: int = PROTOCOL

    def __post_init__(self) -> None:
        if (self.version == 2 and self.suite_name != V2_SUITE) or \
                self.suite_name not in SUITE_NAMES:
            raise LocalError("setup/suite", f"no suite {self.suite_name!r} in "
                             f"dealerless/{self.version}")
        ruleset = self.ruleset  # validates the name and the parameters
        if dict(self.params) != ruleset.params:
            # One setup, one encoding: defaults are spelled out, never implied.
            raise LocalError("setup/params", "the parameters must list every key, in full")
        k = ruleset.deal.seats
        if len(self.identities) != k or len(self.nonces) != k:
            raise LocalError("setup/seats", f"{self.rules} needs {k} identities and nonces")
        if len(set(self.identities)) != k:
            raise LocalError("setup/seats", "two seats have the same identity key")
        signer = self.suite.signer
        for key in self.identities:
            if not isinstance(key, bytes) or len(key) != signer.key_bytes:
                raise LocalError("setup/identity", f"a frame key of {self.suite_name} is "
                                 f"{signer.key_bytes} bytes")
            try:
                signer.check_key(key)
            except EncodingError as exc:
                raise LocalError("setup/identity", f"an identity key is no point of the "
                                 f"prime-order group ({exc.code})") from None
        for nonce in self.nonces:
            if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
                raise LocalError("setup/nonce", "a setup nonce is 32 bytes")

    @classmethod
    def create(cls, rules: str, params: dict[str, ParamValue], identities: list[bytes],
               nonces: list[bytes], in_suite: Suite | None = None) -> GameSetup:
        """A setup with every parameter spelled out, defaults included, of a game in
        `in_suite` (None: dealerless/2's edwards25519-sha512). `identities` are the
        seats' frame keys in that suite (`Identity.frame_key`)."""
        chosen = in_suite or suite(V2_SUITE, 2)
        try:
            full = make_rules(rules, params).params
        except EncodingError as exc:
            raise LocalError(exc.code, exc.detail) from None
        return cls(rules, tuple(sorted(full.items())), tuple(identities), tuple(nonces),
                   chosen.name, chosen.version)

    @cached_property
    def ruleset(self) -> RuleSet[Any, Any]:
        try:
            return make_rules(self.rules, dict(self.params), self.suite)
        except EncodingError as exc:
            raise LocalError(exc.code, exc.detail) from None

    @property
    def suite(self) -> Suite:
        """The game's ciphersuite (3.5), at the setup's protocol version."""
        return suite(self.suite_name, self.version)

    @property
    def seats(self) -> int:
        return len(self.identities)

    def encode(self) -> bytes:
        tail = [] if self.version == 2 else [self.suite_name]
        return pack([SETUP_MAGIC, self.version, self.rules, dict(self.params),
                     list(self.identities), list(self.nonces), *tail])

    @cached_property
    def game_id(self) -> bytes:
        """H(GAME, setup bytes), first 32 bytes."""
        return self.suite.H(Tag.GAME, self.encode())[:32]

    @classmethod
    def decode(cls, data: bytes) -> GameSetup:
        """Strictly, in the order of 8.2's table."""
        obj = unpack(data, MAX_SETUP_BYTES)
        if not isinstance(obj, list) or len(obj) not in (6, 7):
            raise EncodingError("schema/array", "setup: expected an array of 6 (dealerless/2)"
                                " or 7")
        if obj[0] != SETUP_MAGIC:
            raise EncodingError("setup/version", "not a dealerless setup")
        version = check_version(as_int(obj[1], "setup version"), "setup")
        as_array(obj, 6 if version == 2 else 7, f"a setup of dealerless/{version}")
        name = V2_SUITE if version == 2 else as_str(obj[6], "suite")
        if name not in SUITE_NAMES:
            raise EncodingError("setup/suite", f"no suite named {name!r}")
        key_bytes = suite(name, version).signer.key_bytes
        rules = as_str(obj[2], "setup rules")
        params = obj[3]
        if not isinstance(params, dict) or not all(
                isinstance(v, int | str | bool) for v in params.values()):
            raise EncodingError("setup/params", "parameters are a map of scalars")
        ids = tuple(as_bytes(x, "identity key", key_bytes)
                    for x in as_list(obj[4], "identities", 8))
        nonces = tuple(as_bytes(x, "setup nonce", NONCE_BYTES) for x in as_list(obj[5],
                                                                                "nonces", 8))
        as_int(len(ids), "seat count", 2, 8)
        try:
            return cls(rules, tuple(sorted(params.items())), ids, nonces, name, version)
        except LocalError as exc:
            raise EncodingError(exc.code, exc.detail) from None
