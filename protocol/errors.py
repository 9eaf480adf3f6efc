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


class SealError(DealerlessError):
    """A sealed commitment, its opening or a decryption share breaks a rule of
    spec/06-proofs.md 6.6. `seat` is the seat to blame: the committer for the seal,
    its opening and its plaintext, the sender for a decryption share. It need not be
    the seat whose frame triggered the check (a share that completes a combination
    can reveal the committer's bad padding)."""

    def __init__(self, code: str, detail: str, seat: int) -> None:
        super().__init__(code, detail)
        self.seat = seat


class Violation(DealerlessError):
    """A frame breaks the protocol (spec/10-session.md section 10.5).

    `seat` is the seat to blame, or None when no seat can be named (bytes that
    do not even parse). `frame` is the index (seq) of the offending frame.
    `authenticated` is False when the frame's signature did not verify: then
    the seat is only the one the frame claims to come from, and the frame is
    no evidence against it (a relay or a third party may have sent it).
    """

    def __init__(self, code: str, detail: str, seat: int | None, frame: int | None,
                 authenticated: bool = True) -> None:
        super().__init__(code, detail)
        self.seat = seat
        self.frame = frame
        self.authenticated = authenticated and seat is not None

    def __reduce__(self) -> tuple[type[Violation], tuple[str, str, int | None, int | None,
                                                      bool]]:
        # A verdict crosses process boundaries (`verify --jobs`, 11.1): rebuild it from
        # its fields, since Exception would pass only its message to __init__.
        return Violation, (self.code, self.detail, self.seat, self.frame, self.authenticated)

    def describe(self) -> str:
        """One line for logs. A violation that is no evidence names no culprit
        (spec/11-verify.md 11.1): the seat the frame claims is not proven to have sent it."""
        if self.seat is None:
            who = "no seat can be named"
        elif self.authenticated:
            who = f"seat {self.seat}"
        else:
            who = f"not proven against any seat; the frame names seat {self.seat}"
        where = f"frame {self.frame}" if self.frame is not None else "the transcript"
        return f"{where}: {self.code} ({who}): {self.detail}"
