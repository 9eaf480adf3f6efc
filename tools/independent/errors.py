"""Failures with a stable `area/rule` code (spec/01-notation.md 1.4).

SpecError carries the code. The transcript verifier's failures (Err, spec 8, 10, 11) and
the rule sets' (RuleError, spec/rules/*.md) add a free-text detail; they stay apart because
the transcript parser (8.6) catches Err alone.
"""

from __future__ import annotations

from typing import NoReturn


class SpecError(Exception):
    """A check failed with a stable `area/rule` code (1.4)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def fail(code: str) -> NoReturn:
    raise SpecError(code)


class _Detailed(SpecError):
    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code)
        self.detail = detail or code


class Err(_Detailed):
    """A failed check of the transcript verifier, with a free-text detail."""


def fail_err(code: str, detail: str = "") -> NoReturn:
    raise Err(code, detail)


class RuleError(_Detailed):
    """A failed check of a rule set with its `rules/...` code and a free-text detail."""


def fail_rule(code: str, detail: str = "") -> NoReturn:
    raise RuleError(code, detail)


def detail_of(e: SpecError) -> str:
    return getattr(e, "detail", e.code)


#: spec/README.md "Versioning": the protocol version of this build, and those it reads (a
#: game of dealerless/2 is read as the edwards25519-sha512 game it is).
PROTOCOL = 3
READABLE = (2, 3)


def check_version(found: int, what: str, expected: int | None = None) -> int:
    """README "Versioning": a version this build does not read is `version/unsupported`,
    naming both; so is one other than `expected`, the version of the setup the artefact
    belongs to ("a frame, a dispute package or a transcript whose setup says another
    version than its own"). Returns `found`."""
    if found not in READABLE:
        reads = " and ".join(f"dealerless/{v}" for v in READABLE)
        fail_err("version/unsupported", f"this {what} is dealerless/{found}; this build "
                 f"reads {reads}")
    if expected is not None and found != expected:
        fail_err("version/unsupported",
                 f"this {what} is dealerless/{found}, in a game of dealerless/{expected}")
    return found


def check_magic(data: bytes, prefix: bytes, code: str, what: str) -> int:
    """8.6 rule 1 and 11.5 step 1: `prefix`, one ASCII digit d, a newline (else `code`);
    d is a version this build reads (else `version/unsupported`). Returns d."""
    n = len(prefix)
    if data[:n] != prefix or len(data) < n + 2 or data[n + 1] != 0x0A \
            or not 0x30 <= data[n] <= 0x39:
        fail_err(code)
    return check_version(data[n] - 0x30, what)


#: 8.2 "Which rule sets a verifier knows": the rule sets of dealerless/2 and 3, whatever a
#: verifier implements. Another name is rules/unknown-ruleset for every verifier.
RULE_SETS_OF_THE_VERSION = ("bram", "mexican-train", "mineshaft", "mined-games")


class NotJudged(Exception):
    """8.2: a setup of a rule set of this version that the verifier does not implement.
    No verdict: neither valid nor a violation (`verify` exits 2)."""

    def __init__(self, rules_name: str) -> None:
        super().__init__(f"this verifier does not implement the rule set {rules_name!r}")
        self.rules_name = rules_name
