"""The operation counter behind the benchmark's cost floor (spec/09-bench.md).

Every group backend bumps `OPS` once per operation, and the hash and signature code
once per call, so a step's floor is its counts times each operation's measured cost.
"""

from __future__ import annotations


class OpCounter:
    """Counts group operations, hashes and signature checks."""

    __slots__ = ("add", "base", "h2p", "hash_blocks", "hash_bytes", "hashes", "msm",
                 "msm_sizes", "msm_terms", "sig", "sig_blocks", "valid", "var")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.var = 0
        self.base = 0
        self.add = 0
        self.valid = 0
        self.h2p = 0
        self.msm = 0        # multi-scalar multiplications, and their terms in all
        self.msm_terms = 0
        # How many MSMs of each size: Pippenger's cost a term falls as the size grows, so
        # the benchmark prices each size at its own measured cost. Not in `snapshot`.
        self.msm_sizes: dict[int, int] = {}
        self.sig = 0        # frame signature verifications (protocol/identity.py)
        self.hashes = 0     # calls of H and the bytes they hash, length prefixes
        self.hash_bytes = 0  # included: for on-chain cost estimates
        # SHA-512 compression blocks of those calls, and of the signatures' R || A || m:
        # what a chain without a SHA-512 syscall pays for (spec/09-bench.md 9.3). Not in
        # `snapshot`, whose keys the benchmark reports.
        self.hash_blocks = 0
        self.sig_blocks = 0

    def snapshot(self) -> dict[str, int]:
        return {"var": self.var, "base": self.base, "add": self.add,
                "valid": self.valid, "h2p": self.h2p, "msm": self.msm,
                "msm_terms": self.msm_terms, "sig": self.sig,
                "hashes": self.hashes, "hash_bytes": self.hash_bytes}


def sha512_blocks(size: int) -> int:
    """The SHA-512 compression blocks of a `size`-byte message: its padding adds a 0x80
    byte and a 16-byte length, rounded up to 128-byte blocks (FIPS 180-4 5.1.2)."""
    return (size + 17 + 127) // 128


OPS = OpCounter()
