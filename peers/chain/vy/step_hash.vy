#pragma version ~=0.4.3
"""
@title SHA-256 of a long stretch of the check's calldata (the stages' slow path)
@notice step_lib.sha hashes pre || calldata[h_at, h_at + h_len) || post in its own
        contract when the calldata part fits 9 kB; longer ones (a state of up to 128 kB,
        a frame or an evidence record of up to 64 kB, which no honest Bram step has)
        come here by DELEGATECALL, so that only they pay for the memory: Vyper lays out
        every buffer at its largest, and memory is priced quadratically.
"""

import step_lib
import step_tx

initializes: step_tx

BLOCK: constant(uint256) = 16 * step_lib.CHUNK
# 131072 bytes of state fit 9 blocks.
BLOCKS: constant(uint256) = 9


@internal
@view
def _block(at: uint256, n: uint256, b: uint256) -> Bytes[BLOCK]:
    """Bytes [BLOCK * b, BLOCK * (b + 1)) of calldata[at, at + n)."""
    off: uint256 = BLOCK * b
    if off >= n:
        return b""
    m: uint256 = min(BLOCK, n - off)
    p: uint256 = at + off
    return concat(step_lib.chunk(p, m, 0), step_lib.chunk(p, m, 1), step_lib.chunk(p, m, 2),
                  step_lib.chunk(p, m, 3), step_lib.chunk(p, m, 4), step_lib.chunk(p, m, 5),
                  step_lib.chunk(p, m, 6), step_lib.chunk(p, m, 7), step_lib.chunk(p, m, 8),
                  step_lib.chunk(p, m, 9), step_lib.chunk(p, m, 10), step_lib.chunk(p, m, 11),
                  step_lib.chunk(p, m, 12), step_lib.chunk(p, m, 13), step_lib.chunk(p, m, 14),
                  step_lib.chunk(p, m, 15))


@external
def judge(committed: bytes32, flags: uint256, table: uint256):
    at: uint256 = step_tx.h_at
    n: uint256 = step_tx.h_len
    assert n <= BLOCK * BLOCKS, "too long to hash"
    step_tx.h_out = sha256(concat(
        step_tx.h_pre, self._block(at, n, 0), self._block(at, n, 1), self._block(at, n, 2),
        self._block(at, n, 3), self._block(at, n, 4), self._block(at, n, 5),
        self._block(at, n, 6), self._block(at, n, 7), self._block(at, n, 8), step_tx.h_post))
