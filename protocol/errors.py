"""Typed errors, split by who is to blame (spec/01-notation.md section 1.4).

Nothing in `protocol/` reports failure with a bare bool: a check returns None or
raises one of these. Each error carries a stable machine-readable `code` (the
rule that was broken, as listed in the spec) and a human-readable `detail`.
"""

from __future__ import annotations


class DealerlessError(Exception):
    """Base of every error raised by the protocol package."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


class EncodingError(DealerlessError):
    """Received bytes or values do not decode under the strict rules of the spec."""


class ProofError(DealerlessError):
    """A zero-knowledge proof failed to verify."""


class DeckError(DealerlessError):
    """A deck operation got inputs that break its preconditions (spec/05-deck.md)."""


class LocalError(DealerlessError):
    """Our own caller misused the API: a bug on this side, not a remote fault."""
