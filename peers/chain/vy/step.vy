#pragma version ~=0.4.3
"""
@title The single-step check of spec/11-verify.md 11.4 on the EVM: a dispute package in,
       the verdict out, for a game of Bram's rules in bls12381g1-sha256
@notice judge(committed, flags, table) is followed in calldata by the package (from byte
        100 to `table`) and the hint table (step_lib.vy says why and how). flags bit 0:
        the referee gives the committed state hash `committed`. The answer is
        (word, next state hash): word's low byte 1 for an unusable package (code in the
        next byte), 3 for a usable setup of another suite or rule set (no verdict), 2 for
        a verdict: code (0 valid), seat + 1, authenticated, frame + 1 (step_tx.vy); the
        same verdicts as peers/chain/clsp/step.clsp, which the reference's order fixes.
@dev The check is too big for one contract (EIP-170), so it is split in stages that this
     contract runs by DELEGATECALL with its own calldata: each reads the package in place
     (vy/msgpack.vy reads calldata) and they hand on what they found in transient
     storage (step_tx.vy). Stage by stage: step_package (rules 1-4), step_state (5-8),
     step_frame (rule 9, checks 1-9), step_keys or step_shares (check 10), then
     step_frame again for the evidence (rule 10) or step_next (the next state's hash).
     Proofs are checked by calls to g1_checks.vy and shuffle.vy; hashes of more than
     9 kB by step_hash.vy; the elements of a state that is not the committed one by
     step_elements.vy.
"""

import step_tx

initializes: step_tx

G1_CHECKS: immutable(address)
SHUFFLE: immutable(address)
HASHER: immutable(address)
ELEMENTS: immutable(address)
PACKAGE: immutable(address)
STATE: immutable(address)
FRAME: immutable(address)
KEYS: immutable(address)
SHARES: immutable(address)
NEXT: immutable(address)


@deploy
def __init__(g1_checks: address, shuffle: address, hasher: address, elements: address,
             package: address, state: address, frame: address, keys: address, shares: address,
             nxt: address):
    G1_CHECKS = g1_checks
    SHUFFLE = shuffle
    HASHER = hasher
    ELEMENTS = elements
    PACKAGE = package
    STATE = state
    FRAME = frame
    KEYS = keys
    SHARES = shares
    NEXT = nxt


@internal
def _stage(stage: address) -> bool:
    """Run a stage; True once the answer is set."""
    raw_call(stage, msg.data, is_delegate_call=True)
    return step_tx.answer != 0


@external
def judge(committed: bytes32, flags: uint256, table: uint256) -> (uint256, bytes32):
    step_tx.a_g1 = G1_CHECKS
    step_tx.a_shuffle = SHUFFLE
    step_tx.a_hash = HASHER
    step_tx.a_elements = ELEMENTS
    if self._stage(PACKAGE) or self._stage(STATE) or self._stage(FRAME):
        return step_tx.answer, empty(bytes32)
    body: address = SHARES
    if step_tx.ftype <= 3:
        body = KEYS
    if self._stage(body):
        return step_tx.answer, empty(bytes32)
    step_tx.mode = 1
    if self._stage(FRAME):   # the evidence: any record makes the step invalid
        return step_tx.answer, empty(bytes32)
    self._stage(NEXT)
    return step_tx.K_VERDICT, step_tx.next_hash
