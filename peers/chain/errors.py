"""What can go wrong when a check runs in a chain's virtual machine.

None of these is a verdict about the data checked: a verdict is a value
(`peers.chain.codes.Verdict`). These say that no verdict could be had, and why, so a
caller can never mistake a VM that failed for a proof that failed.
"""

from __future__ import annotations


class ChainError(Exception):
    """Base of the errors of peers.chain."""


class ChainUnavailable(ChainError):
    """A tool of the `[chain]` extra is not installed (named in the message)."""


class ProgramError(ChainError):
    """A chain program (Chialisp or Vyper source) does not compile, or a compiled program
    does not keep the conventions its caller relies on (its result's shape, its codes)."""


class ClvmAbort(ChainError):
    """A CLVM program aborted (`x`, an operator refusing its arguments, or the cost limit).

    On chain an aborted spend is not included: it costs nothing and decides nothing, which
    is why the checks in peers.chain.clvm_checks never let a received element's refusal
    end as an abort (g1.clib's g1_check names it instead).
    """

    def __init__(self, program: str, reason: str) -> None:
        super().__init__(f"{program}: CLVM aborted: {reason}")
        self.program = program
        self.reason = reason


class EvmRevert(ChainError):
    """An EVM call reverted or ran out of gas. The contracts revert only on a wrong
    decoding hint, which the caller supplied (a hint never changes a verdict)."""

    def __init__(self, method: str, reason: str, gas_used: int) -> None:
        super().__init__(f"{method}: EVM call reverted after {gas_used} gas: {reason}")
        self.method = method
        self.reason = reason
        self.gas_used = gas_used


class InconsistentVerdict(ChainError):
    """The fast check aborted on an element that g1_check then found valid: the two ways
    of decoding disagree, which is a bug in a program, never a verdict."""
