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


#: spec/README.md "Versioning": the one protocol version this verifier reads.
PROTOCOL = 2


def check_version(found: int, what: str) -> None:
    """README "Versioning": any other version is `version/unsupported`, naming both."""
    if found != PROTOCOL:
        fail_err("version/unsupported",
                 f"this {what} is dealerless/{found}; this build reads dealerless/{PROTOCOL}")


def check_magic(data: bytes, prefix: bytes, code: str, what: str) -> int:
    """8.6 rule 1 and 11.5 step 1: `prefix`, one ASCII digit d, a newline (else `code`);
    d is the protocol version (else `version/unsupported`). Returns the header's length."""
    n = len(prefix)
    if data[:n] != prefix or len(data) < n + 2 or data[n + 1] != 0x0A \
            or not 0x30 <= data[n] <= 0x39:
        fail_err(code)
    check_version(data[n] - 0x30, what)
    return n + 2


#: 8.2 "Which rule sets a verifier knows": the rule sets of dealerless/2, whatever a
#: verifier implements. Another name is rules/unknown-ruleset for every verifier.
RULE_SETS_OF_THE_VERSION = ("bram", "mexican-train", "mineshaft", "mined-games")


class NotJudged(Exception):
    """8.2: a setup of a rule set of this version that the verifier does not implement.
    No verdict: neither valid nor a violation (`verify` exits 2)."""

    def __init__(self, rules_name: str) -> None:
        super().__init__(f"this verifier does not implement the rule set {rules_name!r}")
        self.rules_name = rules_name
