#pragma version ~=0.4.3
"""
@title What the stages of the single-step check hand on (transient storage, EIP-1153)
@notice The check of spec/11-verify.md 11.4 is one transaction to step.vy, which runs its
        stages (step_package.vy, step_state.vy, step_frame.vy, step_keys.vy,
        step_shares.vy, step_next.vy, and step_elements.vy and step_hash.vy when needed)
        by DELEGATECALL with its own calldata: each stage reads the package where the
        transaction put it, and they share these variables, which live in step.vy's
        transient storage for the one transaction.
@dev Every contract of the check declares `initializes: step_tx` first, so that these
     variables take the same slots in all of them (evm_step.py compares the layouts).
     Positions are absolute calldata offsets. ABSENT marks an absent optional integer.
"""

ABSENT: constant(uint256) = 255

# The answer: 0 while the check goes on; else kind | code << 8 | (seat + 1) << 16 |
# authenticated << 24 | (frame + 1) << 64, kind 1 unusable, 2 a verdict, 3 another
# suite or rule set (no verdict). The next state's hash is `next_hash`.
K_UNUSABLE: constant(uint256) = 1
K_VERDICT: constant(uint256) = 2
K_UNSUPPORTED: constant(uint256) = 3
answer: transient(uint256)
next_hash: transient(bytes32)

# The contracts the stages call (set by step.vy).
a_g1: transient(address)
a_shuffle: transient(address)
a_hash: transient(address)
a_elements: transient(address)
mode: transient(uint256)

# step_package.vy: the game, the state's bytes and hash, where the frame and evidence are.
gid: transient(bytes32)
ids: transient(uint256[8])      # the two identity keys, EIP-2537's four words each
idpos: transient(uint256[2])    # where their 48 bytes are
st: transient(uint256)          # the state's bytes
stn: transient(uint256)
shash: transient(bytes32)       # H(STATE, the state's bytes)
frame_item: transient(uint256)  # the package's items 5 and 6
evid_item: transient(uint256)

# step_state.vy: the decoded state (Bram's: 27 positions, 0-12 seat 0's, 13-25 seat 1's).
fld: transient(uint256[18])     # where each field's value starts, in key order
fend: transient(uint256[18])    # and ends
phase: transient(uint256)       # step_state.P_* (keys 0 .. choose 10)
turn: transient(uint256)        # ABSENT in phase done
seq: transient(uint256)
first: transient(uint256)       # ABSENT before the nonces are in
drawing: transient(uint256)     # ABSENT unless phase draw
nkeys: transient(uint256)
nnonces: transient(uint256)
rules: transient(uint256)       # step_bram's packed state; 0 for nil
opened: transient(uint256)      # 5 bits a position: tile index + 1, 0 for nil
played: transient(uint256)      # bit p
shmask: transient(uint256)      # bit 2p + i: shares[p][i] is set
opened_at: transient(uint256[27])  # where opened[p] starts
shares_at: transient(uint256[27])  # where the row shares[p] starts
played_at: transient(uint256)      # where played[0] is (a byte each)
elements: transient(uint256[3]) # for step_elements.vy: deck bytes, key shares, share rows
elements_bad: transient(bool)
wire: transient(uint256)        # frame N's wire bytes
wiren: transient(uint256)

# step_frame.vy: frame N as accepted by checks 1 to 9, and which handler takes its body.
fseat: transient(uint256)
ftype: transient(uint256)
fbody: transient(uint256)       # where the body value starts
fsh: transient(bytes32)         # its state hash
fprev: transient(bytes32)

# The handlers' changes to the state, which step_next.vy writes out.
n_phase: transient(uint256)
n_turn: transient(uint256)      # ABSENT for nil
n_first: transient(uint256)     # 0 unchanged, else the first player + 1
a_key: transient(uint256)       # where an appended key share, commitment, nonce is (0 none)
a_com: transient(uint256)
a_non: transient(uint256)
n_deck: transient(uint256)      # 0 unchanged, 1 the bytes at deck_at, 2 deck_words
deck_at: transient(uint256)
deck_words: transient(uint256[81])
n_undraw: transient(bool)       # drawing becomes nil
n_share: transient(uint256[27]) # where the sender's new share of position p is (0 none)
n_open: transient(uint256)      # as `opened`, the positions opened by this step
n_play: transient(uint256)      # bit p: played by this step
n_rules: transient(uint256)     # the new packed rules state, 0 unchanged

# step_hash.vy's job: SHA-256 of pre || calldata[h_at, h_at + h_len) || post.
h_pre: transient(Bytes[352])
h_at: transient(uint256)
h_len: transient(uint256)
h_post: transient(Bytes[64])
h_out: transient(bytes32)


@internal
def finish(kind: uint256, code: uint8, seat: uint256, frame: uint256, auth: bool):
    """Set the answer (seat and frame ABSENT or max_value for none)."""
    word: uint256 = kind | convert(code, uint256) << 8
    if seat != ABSENT:
        word |= (seat + 1) << 16
    if auth:
        word |= 1 << 24
    if frame != max_value(uint256):
        word |= (frame + 1) << 64
    self.answer = word


@internal
def unusable(code: uint8):
    self.finish(K_UNUSABLE, code, ABSENT, max_value(uint256), False)


@internal
def violation(code: uint8, seat: uint256, auth: bool):
    """A violation of frame N (the state's seq)."""
    self.finish(K_VERDICT, code, seat, self.seq, auth)
