#pragma version ~=0.4.3
"""
@title Bram's dominoes (spec/rules/bram.md) for the single-step check
@notice The rules state of the public state (spec/10-session.md 10.3, `rules`) read
        strictly from its msgpack, the moves (bram.md 4, 6), the reveal check (8) and the
        state's canonical encoding, as peers/chain/clsp/bram.clib has them.
@dev The state is one word: the line's tiles as they lie, 6 bits each (a << 3 | b) from
     bit 0, then its length (5 bits at 168), the hand counts (4 bits at 176 and 180), the
     turn (184), the first player (185), the passes (2 bits at 186) and `finished` (2
     bits at 188: 0 on, 1 out, 2 blocked). A valid state always holds the double-six in
     its line, so no state is the word 0 (which stands for a nil `rules`). Tile a-b
     (a <= b) is bit 7a + b of a mask; canonical index a(13 - a)/2 + b (5.1).
"""

import msgpack

E_STATE_SCHEMA: constant(uint8) = 48
E_RULES_GAME_OVER: constant(uint8) = 76
E_RULES_NOT_YOUR_TURN: constant(uint8) = 77
E_RULES_TILE_ALREADY_PLAYED: constant(uint8) = 79
E_RULES_TILE_DOES_NOT_MATCH: constant(uint8) = 80
E_RULES_NON_CANONICAL_END: constant(uint8) = 81
E_RULES_REVEAL_MISMATCH: constant(uint8) = 82

LEN_AT: constant(uint256) = 168
C0_AT: constant(uint256) = 176
C1_AT: constant(uint256) = 180
TURN_AT: constant(uint256) = 184
FIRST_AT: constant(uint256) = 185
PASSES_AT: constant(uint256) = 186
FIN_AT: constant(uint256) = 188
LINE_BITS: constant(uint256) = 2**168 - 1
# Every tile of the double-six set, and the double-six.
FULL: constant(uint256) = 284803830071167  # 0x0103070f1f3f7f
DOUBLE_SIX: constant(uint256) = 2**48


@internal
@pure
def tile_bit(a: uint256, b: uint256) -> uint256:
    """The bit of tile a-b in either order, 0 if a half is above 6."""
    lo: uint256 = min(a, b)
    hi: uint256 = max(a, b)
    if hi > 6:
        return 0
    return 1 << (7 * lo + hi)


@internal
@pure
def tile_at(i: uint256) -> (uint256, uint256):
    """The tile of canonical index i (0..27): a is how many rows end before i."""
    a: uint256 = convert(i > 6, uint256) + convert(i > 12, uint256) + convert(i > 17, uint256) \
        + convert(i > 21, uint256) + convert(i > 24, uint256) + convert(i > 26, uint256)
    return a, i - a * (13 - a) // 2


@internal
@pure
def tile_index(a: uint256, b: uint256) -> uint256:
    return a * (13 - a) // 2 + b


@internal
@pure
def field(s: uint256, at: uint256, bits: uint256) -> uint256:
    return (s >> at) & ((1 << bits) - 1)


@internal
@pure
def line_mask(s: uint256) -> (bool, uint256):
    """The mask of the line's tiles, and whether neighbours match and no tile lies twice."""
    n: uint256 = self.field(s, LEN_AT, 5)
    m: uint256 = 0
    prev: uint256 = 0
    for i: uint256 in range(28):
        if i == n:
            break
        x: uint256 = (s >> (6 * i)) & 63
        a: uint256 = x >> 3
        b: uint256 = x & 7
        bit: uint256 = self.tile_bit(a, b)
        if (i > 0 and a != prev) or bit == 0 or m & bit != 0:
            return False, 0
        m |= bit
        prev = b
    return True, m


@internal
@pure
def initial(first: uint256) -> uint256:
    """bram.initial_state: the double-six on the table, 13 tiles a hand, first to move."""
    return 54 | 1 << LEN_AT | 13 << C0_AT | 13 << C1_AT | first << TURN_AT | first << FIRST_AT


@internal
@pure
def is_over(s: uint256) -> bool:
    return self.field(s, FIN_AT, 2) != 0


@internal
@pure
def to_move(s: uint256) -> uint256:
    return self.field(s, TURN_AT, 1)


@internal
@view
def _int(pos: uint256, hi: uint256) -> (bool, uint256, uint256):
    """An integer in [0, hi] at pos: ok, its value, the position after it."""
    kind: uint8 = 0
    v: uint256 = 0
    q: uint256 = 0
    kind, v, q = msgpack.read_header(pos)
    return kind == msgpack.K_UINT and v <= hi, v, q


@internal
@view
def parse(pos: uint256) -> (bool, uint256, uint256):
    """The map at pos as bram_state.state_from_json reads it and no other: exactly the keys
    finished, first_player, hand_counts, line, passes, turn, their values of the types
    state_to_json writes, and a state play reaches (bram_state._state_problem): ok, the
    state, where the map ends. The caller has read nil. False for anything else
    (state/schema)."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    ok: bool = False
    v: uint256 = 0
    kind, n, q = msgpack.read_header(pos)
    if kind != msgpack.K_MAP or n != 6:
        return False, 0, 0
    ok, q = msgpack.str_equals(q, b"finished")
    if not ok:
        return False, 0, 0
    fin: uint256 = 0
    kind, v, n = msgpack.read_header(q)
    if kind == msgpack.K_STR:
        ok, n = msgpack.str_equals(q, b"out")
        fin = 1
        if not ok:
            ok, n = msgpack.str_equals(q, b"blocked")
            fin = 2
        if not ok:
            return False, 0, 0
    elif kind != msgpack.K_NIL:
        return False, 0, 0
    q = n
    ok, q = msgpack.str_equals(q, b"first_player")
    if not ok:
        return False, 0, 0
    first: uint256 = 0
    ok, first, q = self._int(q, 1)
    if not ok:
        return False, 0, 0
    ok, q = msgpack.str_equals(q, b"hand_counts")
    if not ok:
        return False, 0, 0
    kind, n, q = msgpack.read_header(q)
    if kind != msgpack.K_ARRAY or n != 2:
        return False, 0, 0
    c0: uint256 = 0
    c1: uint256 = 0
    ok, c0, q = self._int(q, 13)
    if not ok:
        return False, 0, 0
    ok, c1, q = self._int(q, 13)
    if not ok:
        return False, 0, 0
    ok, q = msgpack.str_equals(q, b"line")
    if not ok:
        return False, 0, 0
    kind, n, q = msgpack.read_header(q)
    if kind != msgpack.K_ARRAY or n > 28:
        return False, 0, 0
    s: uint256 = n << LEN_AT
    for i: uint256 in range(28):
        if i == n:
            break
        m: uint256 = 0
        kind, m, q = msgpack.read_header(q)
        if kind != msgpack.K_ARRAY or m != 2:
            return False, 0, 0
        a: uint256 = 0
        b: uint256 = 0
        ok, a, q = self._int(q, 6)
        if not ok:
            return False, 0, 0
        ok, b, q = self._int(q, 6)
        if not ok:
            return False, 0, 0
        s |= (a << 3 | b) << (6 * i)
    ok, q = msgpack.str_equals(q, b"passes")
    if not ok:
        return False, 0, 0
    passes: uint256 = 0
    ok, passes, q = self._int(q, 2)
    if not ok:
        return False, 0, 0
    ok, q = msgpack.str_equals(q, b"turn")
    if not ok:
        return False, 0, 0
    turn: uint256 = 0
    ok, turn, q = self._int(q, 1)
    if not ok:
        return False, 0, 0
    mask: uint256 = 0
    ok, mask = self.line_mask(s)
    if not ok or mask & DOUBLE_SIX == 0 or c0 + c1 + n != 27:
        return False, 0, 0
    # finished: out exactly when a hand is empty (with no pass just made), blocked
    # exactly after two passes.
    if c0 == 0 or c1 == 0:
        if passes != 0 or fin != 1:
            return False, 0, 0
    elif fin != convert(passes == 2, uint256) * 2:
        return False, 0, 0
    return True, s | c0 << C0_AT | c1 << C1_AT | turn << TURN_AT | first << FIRST_AT \
        | passes << PASSES_AT | fin << FIN_AT, q


@internal
@pure
def apply(s: uint256, seat: uint256, move_id: uint256) -> (uint8, uint256):
    """bram.apply of the move with id 0 (pass) or 1 + 2 * index + end (end 0 left, 1
    right), id <= 56: 0 and the next state, or the first rules/* code of rules 6."""
    code: uint8 = 0
    if self.is_over(s):
        code = E_RULES_GAME_OVER
    elif seat != self.to_move(s):
        code = E_RULES_NOT_YOUR_TURN
    if code != 0:
        return code, 0
    c0: uint256 = self.field(s, C0_AT, 4)
    c1: uint256 = self.field(s, C1_AT, 4)
    keep: uint256 = s & (LINE_BITS | 31 << LEN_AT | 1 << FIRST_AT)
    if move_id == 0:
        passes: uint256 = self.field(s, PASSES_AT, 2)
        fin: uint256 = 0
        if passes != 0:
            fin = 2
        return 0, s & ~(1 << TURN_AT | 3 << PASSES_AT | 3 << FIN_AT) | (1 - seat) << TURN_AT \
            | (passes + 1) << PASSES_AT | fin << FIN_AT
    a: uint256 = 0
    b: uint256 = 0
    a, b = self.tile_at((move_id - 1) >> 1)
    right: bool = (move_id - 1) & 1 == 1
    n: uint256 = self.field(s, LEN_AT, 5)
    ok: bool = False
    mask: uint256 = 0
    ok, mask = self.line_mask(s)
    left_pip: uint256 = (s >> 3) & 7
    right_pip: uint256 = (s >> (6 * (n - 1))) & 7
    pip: uint256 = left_pip
    if right:
        pip = right_pip
    if mask & self.tile_bit(a, b) != 0:
        return E_RULES_TILE_ALREADY_PLAYED, 0
    if pip != a and pip != b:
        return E_RULES_TILE_DOES_NOT_MATCH, 0
    if not right and left_pip == right_pip:
        return E_RULES_NON_CANONICAL_END, 0
    other: uint256 = a + b - pip
    line: uint256 = s & LINE_BITS
    if right:
        line |= (pip << 3 | other) << (6 * n)
    else:
        line = (line << 6 | other << 3 | pip) & LINE_BITS
    if seat == 0:
        c0 -= 1
    else:
        c1 -= 1
    fin: uint256 = 0
    if c0 == 0 or c1 == 0:
        fin = 1
    return 0, line | (n + 1) << LEN_AT | c0 << C0_AT | c1 << C1_AT | (1 - seat) << TURN_AT \
        | (keep & 1 << FIRST_AT) | fin << FIN_AT


@internal
@pure
def reveal_check(s: uint256, counts: uint256[3], mask: uint256, distinct: bool) -> uint8:
    """bram._check_reveal: the hidden tiles are one, seat s shows its hand count, and with
    the line they hold each tile of the set exactly once. counts: hidden, seat 0, seat 1;
    mask their tiles', distinct False if one is there twice."""
    ok: bool = False
    line: uint256 = 0
    ok, line = self.line_mask(s)
    if counts[0] != 1 or counts[1] != self.field(s, C0_AT, 4) \
            or counts[2] != self.field(s, C1_AT, 4) or not distinct or mask & line != 0 \
            or mask | line != FULL:
        return E_RULES_REVEAL_MISMATCH
    return 0


@internal
@pure
def encode(s: uint256) -> Bytes[176]:
    """The canonical encoding of state_to_json(s): {finished, first_player, hand_counts,
    line, passes, turn}."""
    fin: Bytes[8] = b"\xc0"
    f: uint256 = self.field(s, FIN_AT, 2)
    if f == 1:
        fin = b"\xa3out"
    elif f == 2:
        fin = b"\xa7blocked"
    n: uint256 = self.field(s, LEN_AT, 5)
    head: Bytes[3] = slice(convert(14417920 | n, bytes32), 29, 3)
    if n < 16:
        head = slice(convert(144 | n, bytes32), 31, 1)
    # The tiles, [a, b] each (92 0a 0b), ten to a word.
    words: uint256[3] = empty(uint256[3])
    sizes: uint256[3] = empty(uint256[3])
    for i: uint256 in range(28):
        if i == n:
            break
        x: uint256 = (s >> (6 * i)) & 63
        words[i // 10] |= (9568256 | (x >> 3) << 8 | (x & 7)) << (8 * (29 - 3 * (i % 10)))
        sizes[i // 10] += 3
    tiles: Bytes[96] = concat(slice(convert(words[0], bytes32), 0, sizes[0]),
                              slice(convert(words[1], bytes32), 0, sizes[1]),
                              slice(convert(words[2], bytes32), 0, sizes[2]))
    return concat(b"\x86\xa8finished", fin, b"\xacfirst_player",
                  slice(convert(self.field(s, FIRST_AT, 1), bytes32), 31, 1),
                  b"\xabhand_counts\x92", slice(convert(self.field(s, C0_AT, 4), bytes32), 31, 1),
                  slice(convert(self.field(s, C1_AT, 4), bytes32), 31, 1), b"\xa4line", head,
                  tiles, b"\xa6passes", slice(convert(self.field(s, PASSES_AT, 2), bytes32), 31, 1),
                  b"\xa4turn", slice(convert(self.to_move(s), bytes32), 31, 1))
