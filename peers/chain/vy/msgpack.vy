#pragma version ~=0.4.3
"""
@title Canonical msgpack in calldata (spec/08-wire.md 8.1)
@notice unpack_code is 8.1's strict `unpack` over a byte range of calldata: 0, or the
        verdict code (step_codes.vy) of the first rule it breaks, in the reference's
        order. Once a range is accepted, the cursor readers walk it (read_header, skip,
        str_equals, map_find), and the encoders write canonical heads to re-encode a
        value (encode_uint, encode_int, encode_bin_head, encode_str_head,
        encode_array_head, encode_map_head). A contract that imports this module
        declares `initializes: msgpack` (rule 5's scratch is transient storage, below),
        and unpack_code is not a view.
@dev Calldata, not a memory Bytes buffer, by measure (py-evm, Prague; the same header walk
     both ways): over the largest state of the dispute vectors (27,323 bytes) 1,039,403
     gas from calldata against 1,110,269 from a Bytes[131072] argument, over a mid-game
     state (5,234 bytes) 107,988 against 258,896, over a SHUFFLE frame 1,713 against
     169,527. A memory read is a little cheaper, but Vyper copies a Bytes argument into
     memory and lays out the variables after it past its largest size, so the copy and
     the memory for that size are paid whatever the bytes: a package taken as
     Bytes[1249280] costs 3,095,284 gas before one byte is read (131 from calldata), and
     an internal function takes Bytes by value, a copy a call. So positions here are
     absolute calldata offsets, and a read past calldatasize gives zero bytes
     (word_at). For the same reason no function here holds a large memory array:
     Vyper lays every frame out statically, a caller's above its callees', so one would
     raise the memory of every call of unpack_code.

     unpack_code makes one pass, front to back, for rules 3, 3' and 4 in the reference
     parser's order (the first failure met in the bytes; an entry count at its header;
     a map key's type once its value is parsed), with an explicit stack: a word a level
     for the 17 levels rule 5 allows, 16 bits a level (items left, map, bad key) up to
     the parser's 1024. Runs of one-byte values in an array go 32 bytes at a time. The
     same pass notes what rules 5 and 6 need: a non-minimal header or a key not above
     the one before it in its map (non-canonical), a float, a bin key or a 17th level
     (rule 5). Only when rule 5 may fail does a second pass (_rule5) find which failure
     the reference's re-encoding meets first: bottom up, a container 16 deep is
     too-deep, a map with a bin key map-key, an array fails as its first failing item,
     a map as its least key whose value (a repeated key's last) fails. A map whose keys
     do not ascend needs each key's last value, noted in transient storage by digest
     of key (EIP-1153), then one more pass over its entries: the gas grows with the
     bytes times the nesting (at most 16), never with the square of a map's entries.
"""

import step_codes

# Rule 5's scratch over maps whose keys do not ascend (transient storage, EIP-1153): by
# digest of (map id, key), the index + 1 of the key's last entry << 8 | its value's
# failure (F_*); and the map ids given so far in the transaction.
_last: transient(HashMap[bytes32, uint256])
_maps: transient(uint256)

# What read_header reports. A canonical value holds no float, ext or invalid byte.
K_NIL: constant(uint8) = 1       # value 0
K_BOOL: constant(uint8) = 2      # value 0 or 1
K_UINT: constant(uint8) = 3      # value the integer
K_NINT: constant(uint8) = 4      # value the magnitude of a negative integer (1..2^63)
K_BIN: constant(uint8) = 5       # value the length; next is where the bytes start
K_STR: constant(uint8) = 6       # value the length in bytes; next is where they start
K_ARRAY: constant(uint8) = 7     # value the item count; next is the first item
K_MAP: constant(uint8) = 8       # value the entry count; next is the first key
K_FLOAT: constant(uint8) = 9     # next is after the value
K_EXT: constant(uint8) = 10      # next is after the value
K_INVALID: constant(uint8) = 11  # c1

# The header bytes c0..df, a byte each: kind << 4 | the bytes of its argument (count,
# length or integer); kind 12 is a fixext (d4..d8, a payload of 1 << (b - d4) bytes).
T_FIXEXT: constant(uint256) = 12
# 0x84827472646261c0c0c0c0c048444241383432319894a4a2a15452512020b010
TABLE: constant(uint256) = 59935789817994202100127099742824822942252002274758074676546606725987825659920
# Every byte 80, 7f, c0, c1, fc: a word's bytes at once.
HIGH_BITS: constant(uint256) = 58123087930888129467517984631811969432229639361576439988433610796128943505536
LOW7_BYTES: constant(uint256) = 57669001306428065956053000376875938421040345304064124051023973211784186134399
C0_BYTES: constant(uint256) = 87184631896332194201276976947717954148344459042364659982650416194193415258304
C1_BYTES: constant(uint256) = 87638718520792257712741961202653985159533753099876975920060053778538172629441
FC_BYTES: constant(uint256) = 114429829363936004889176032243879814819702102493103616227228671254878857526524

MAX_CONTAINER: constant(uint256) = 4096   # rule 3: entries of an array or a map
MAX_NESTING: constant(uint256) = 1024     # rule 3: the reference parser's stack
MAX_DEPTH: constant(uint256) = 16         # rule 5
# Loop bounds only (a loop ends by returning or breaking): every step reads a byte.
MAX_STEPS: constant(uint256) = 1 << 32
ONE: constant(uint256) = 1
# Bit b set for a value of one byte b: fixint, negative fixint, nil, false, true.
ONE_BYTE: constant(uint256) = 115792089210356248838022667774047742696455898860624021489711006912273736269823
# unpack_code's word for an open container: items left (14 bits), map, bad key, and
# the map's last key (has, length << 32, position << 96).
L_REM: constant(uint256) = 16383
L_MAP: constant(uint256) = 16384
L_KEY_MASK: constant(uint256) = 16385    # L_MAP | 1: in a map, even items left: a key
L_KEY_BAD: constant(uint256) = 32768
L_HAS_PREV: constant(uint256) = 65536
L_VALUE_BAD: constant(uint256) = 49153   # L_MAP | L_KEY_BAD | 1: a value, its key bad
# A key compared in calldata, not a fixstr (whose word's last byte is 0).
SLOW_KEY: constant(uint256) = max_value(uint256)
# _rule5's failures, 2 bits: a float, a 17th level, a bin key.
F_TYPE: constant(uint256) = 1
F_TOO_DEEP: constant(uint256) = 2
F_MAP_KEY: constant(uint256) = 3


@internal
@view
def word_at(pos: uint256) -> uint256:
    """The 32 bytes of calldata at pos as a big-endian word, zero past calldatasize."""
    size: uint256 = len(msg.data)
    if pos + 32 <= size:
        return convert(slice(msg.data, pos, 32), uint256)
    if pos >= size:
        return 0
    if size >= 32:
        return convert(slice(msg.data, size - 32, 32), uint256) << (8 * (pos + 32 - size))
    w: uint256 = 0
    for i: uint256 in range(32):
        if pos + i >= size:
            break
        w |= convert(convert(slice(msg.data, pos + i, 1), bytes1), uint256) << (248 - 8 * i)
    return w


@internal
@view
def read_header(pos: uint256) -> (uint8, uint256, uint256):
    """The value at pos: (kind, value, next), K_* above. For bin and str, next is where
    the bytes start; for a container, where its first item starts; else after the value.
    Meant for a range unpack_code accepted (it reads past a range's end unchecked)."""
    w: uint256 = 0
    if unsafe_add(pos, 32) <= len(msg.data):
        w = convert(slice(msg.data, pos, 32), uint256)
    else:
        w = self.word_at(pos)
    b: uint256 = w >> 248
    if b < 128:
        return K_UINT, b, unsafe_add(pos, 1)
    if b >> 5 == 5:
        return K_STR, b & 31, unsafe_add(pos, 1)
    if b == 196:
        return K_BIN, (w >> 240) & 255, unsafe_add(pos, 2)
    if b >> 4 == 9:
        return K_ARRAY, b & 15, unsafe_add(pos, 1)
    if b >> 4 == 8:
        return K_MAP, b & 15, unsafe_add(pos, 1)
    if b >= 224:
        return K_NINT, unsafe_sub(256, b), unsafe_add(pos, 1)
    e: uint256 = (TABLE >> (unsafe_sub(b, 192) << 3)) & 255
    kind: uint256 = e >> 4
    s: uint256 = e & 15
    arg: uint256 = (w >> unsafe_sub(248, s << 3)) & unsafe_sub(ONE << (s << 3), 1)
    nxt: uint256 = unsafe_add(unsafe_add(pos, 1), s)
    if kind == convert(K_BOOL, uint256):
        return K_BOOL, unsafe_sub(b, 194), nxt
    if kind == convert(K_NINT, uint256):
        if arg >> unsafe_sub(s << 3, 1) == 0:
            return K_UINT, arg, nxt    # a signed format for a non-negative integer
        return K_NINT, unsafe_sub(ONE << (s << 3), arg), nxt
    if kind == convert(K_EXT, uint256):
        return K_EXT, 0, unsafe_add(unsafe_add(nxt, 1), arg)
    if kind == T_FIXEXT:
        return K_EXT, 0, unsafe_add(unsafe_add(pos, 2), ONE << unsafe_sub(b, 212))
    return convert(kind, uint8), arg, nxt


@internal
@view
def skip(pos: uint256) -> uint256:
    """Where the value at pos ends (the position after it), in an accepted range."""
    return self._skip_items(pos, 1)


@internal
@view
def _skip_items(pos: uint256, count: uint256) -> uint256:
    """Where `count` values from pos end."""
    p: uint256 = pos
    pending: uint256 = count
    kind: uint8 = 0
    arg: uint256 = 0
    for _: uint256 in range(MAX_STEPS):
        if pending == 0:
            break
        kind, arg, p = self.read_header(p)
        if kind == K_ARRAY:
            pending = unsafe_add(pending, arg)
        elif kind == K_MAP:
            pending = unsafe_add(pending, arg << 1)
        elif kind == K_STR or kind == K_BIN:
            p = unsafe_add(p, arg)
        pending = unsafe_sub(pending, 1)
    return p


@internal
@view
def str_equals(pos: uint256, text: Bytes[64]) -> (bool, uint256):
    """Whether the value at pos is the str `text` (its UTF-8 bytes), and where the value
    ends if it is a str (else pos)."""
    kind: uint8 = 0
    n: uint256 = 0
    p: uint256 = 0
    kind, n, p = self.read_header(pos)
    if kind != K_STR:
        return False, pos
    if n != len(text):
        return False, p + n
    padded: Bytes[128] = concat(text, empty(bytes32), empty(bytes32))
    for i: uint256 in range(2):
        if 32 * i >= n:
            break
        w: uint256 = self.word_at(p + 32 * i)
        if n - 32 * i < 32:
            sh: uint256 = 8 * (32 - (n - 32 * i))
            w = (w >> sh) << sh
        if w != convert(extract32(padded, 32 * i), uint256):
            return False, p + n
    return True, p + n


@internal
@view
def map_find(pos: uint256, key: Bytes[64]) -> (bool, uint256):
    """In the map at pos: whether it has the key `key`, and where its value starts."""
    kind: uint8 = 0
    n: uint256 = 0
    q: uint256 = 0
    kind, n, q = self.read_header(pos)
    if kind != K_MAP:
        return False, pos
    found: bool = False
    for i: uint256 in range(n, bound=MAX_CONTAINER):
        found, q = self.str_equals(q, key)
        if found:
            return True, q
        q = self.skip(q)
    return False, pos


@internal
@view
def _less(a: uint256, alen: uint256, b: uint256, blen: uint256) -> bool:
    """Whether the bytes at [a, a + alen) sort strictly before those at [b, b + blen)
    (for UTF-8, the order of code points)."""
    n: uint256 = min(alen, blen)
    for k: uint256 in range(MAX_STEPS):
        i: uint256 = 32 * k
        if i >= n:
            break
        wa: uint256 = self.word_at(a + i)
        wb: uint256 = self.word_at(b + i)
        if n - i < 32:
            sh: uint256 = 8 * (32 - (n - i))
            wa = wa >> sh
            wb = wb >> sh
        if wa != wb:
            return wa < wb
    return alen < blen


@internal
@view
def _utf8(p: uint256, q: uint256) -> bool:
    """Whether [p, q) is well-formed UTF-8 (Unicode's table 3-7, Python's strict codec):
    ASCII a word at a time, up to the first byte with its top bit set, then that
    character."""
    i: uint256 = p
    for _: uint256 in range(MAX_STEPS):
        if i >= q:
            break
        w: uint256 = self.word_at(i)
        high: uint256 = w & HIGH_BITS
        if q - i < 32:
            high = high >> ((32 - (q - i)) << 3) << ((32 - (q - i)) << 3)
        if high == 0:
            i = unsafe_add(i, 32)
            continue
        # The ASCII bytes before the first other one.
        k: uint256 = 0
        if high >> 128 == 0:
            k = 16
            high = high << 128
        if high >> 192 == 0:
            k = unsafe_add(k, 8)
            high = high << 64
        if high >> 224 == 0:
            k = unsafe_add(k, 4)
            high = high << 32
        if high >> 240 == 0:
            k = unsafe_add(k, 2)
            high = high << 16
        if high >> 248 == 0:
            k = unsafe_add(k, 1)
        if k != 0:
            i = unsafe_add(i, k)
            continue
        b0: uint256 = w >> 248
        n: uint256 = 0
        lo: uint256 = 128
        hi: uint256 = 191
        if b0 < 194:
            return False
        elif b0 < 224:
            n = 2
        elif b0 < 240:
            n = 3
            if b0 == 224:
                lo = 160
            elif b0 == 237:
                hi = 159
        elif b0 < 245:
            n = 4
            if b0 == 240:
                lo = 144
            elif b0 == 244:
                hi = 143
        else:
            return False
        if i + n > q:
            return False
        b1: uint256 = (w >> 240) & 255
        if b1 < lo or b1 > hi:
            return False
        if n >= 3 and (w >> 232) & 192 != 128:
            return False
        if n == 4 and (w >> 224) & 192 != 128:
            return False
        i = unsafe_add(i, n)
    return True


@internal
def unpack_code(start: uint256, end: uint256, max_size: uint256) -> uint8:
    """8.1's unpack(data, max_size) for data = calldata [start, end): 0 if it is the
    canonical encoding of one value, else the code of the first rule it breaks."""
    size: uint256 = len(msg.data)
    assert start <= end and end <= size, "the range is not in calldata"
    if end - start > max_size:
        return step_codes.E_MSGPACK_TOO_LARGE
    pos: uint256 = start
    # The innermost open container, one word (L_*): its items left (a map's keys and
    # values both count), whether it is a map, whether the current entry's key is
    # neither str nor bin, and the map's last key for rule 6's order. At depth 0, the
    # top level: one item.
    top: uint256 = 1
    depth: uint256 = 0
    # The open containers around it: levels 0..16 whole, deeper ones in 16 bits.
    near: uint256[17] = empty(uint256[17])
    far: uint256[64] = empty(uint256[64])
    key_pos: uint256 = 0        # the current entry's key, if str or bin
    key_len: uint256 = 0
    key_word: uint256 = 0       # a fixstr key's bytes, zero-padded (else SLOW_KEY)
    prev_word: uint256 = 0      # the same of the map's last key
    near_word: uint256[17] = empty(uint256[17])
    minimal: bool = True        # every header so far is the shortest
    ordered: bool = True        # every map's keys so far ascend strictly (levels <= 16)
    rule5: bool = False         # a float, a bin key or a 17th level
    bin_key: bool = False
    w: uint256 = 0
    b: uint256 = 0
    n: uint256 = 0
    at_key: bool = False
    for _: uint256 in range(MAX_STEPS):
        if pos >= end:
            return step_codes.E_MSGPACK_MALFORMED
        if unsafe_add(pos, 32) <= size:
            w = convert(slice(msg.data, pos, 32), uint256)
        else:
            w = self.word_at(pos)
        b = w >> 248
        at_key = top & L_KEY_MASK == L_MAP

        if (ONE_BYTE >> b) & 1 == 1:
            # fixint, negative fixint, nil, false, true
            if at_key:
                top = top | L_KEY_BAD
            elif top & L_MAP == 0 and top & L_REM > 3:
                # A run of them in an array, 32 bytes at a time: a byte's top bit says
                # whether it is one (the last item is left to close the array below).
                z: uint256 = (w ^ C0_BYTES) & FC_BYTES
                o: uint256 = w ^ C1_BYTES
                z = (unsafe_add(z & LOW7_BYTES, LOW7_BYTES) | z) & HIGH_BITS
                o = (unsafe_add(o & LOW7_BYTES, LOW7_BYTES) | o) & HIGH_BITS
                others: uint256 = ~(~w | w & (w << 1) & (w << 2) | ~z & o) & HIGH_BITS
                k: uint256 = 32
                if others != 0:
                    k = 0
                    if others >> 128 == 0:
                        k = 16
                        others = others << 128
                    if others >> 192 == 0:
                        k = unsafe_add(k, 8)
                        others = others << 64
                    if others >> 224 == 0:
                        k = unsafe_add(k, 4)
                        others = others << 32
                    if others >> 240 == 0:
                        k = unsafe_add(k, 2)
                        others = others << 16
                    if others >> 248 == 0:
                        k = unsafe_add(k, 1)
                k = min(min(k, unsafe_sub(end, pos)), unsafe_sub(top & L_REM, 1))
                pos = unsafe_add(pos, k)
                top = unsafe_sub(top, k)
                continue
            pos = unsafe_add(pos, 1)
        elif b >> 5 == 5:
            # fixstr: its bytes are in w, ASCII unless a top bit is set.
            n = b & 31
            pos = unsafe_add(unsafe_add(pos, 1), n)
            if pos > end:
                return step_codes.E_MSGPACK_MALFORMED
            mask: uint256 = ~unsafe_sub(ONE << ((32 - n) << 3), 1)
            if (w << 8) & HIGH_BITS & mask != 0:
                if not self._utf8(unsafe_sub(pos, n), pos):
                    return step_codes.E_MSGPACK_MALFORMED
            if at_key:
                top = top & ~L_KEY_BAD
                key_pos = unsafe_sub(pos, n)
                key_len = n
                key_word = (w << 8) & mask
        elif b >> 4 == 9 and b != 144:
            # A fixarray of some items: open it (the innermost container's state goes
            # on the stack).
            if depth >= MAX_NESTING:
                return step_codes.E_MSGPACK_MALFORMED
            if at_key:
                top = top | L_KEY_BAD
            if depth <= MAX_DEPTH:
                near[depth] = top
                near_word[depth] = prev_word
            else:
                sh: uint256 = (depth & 15) << 4
                far[depth >> 4] = far[depth >> 4] & ~(65535 << sh) | (top & 65535) << sh
            if depth >= MAX_DEPTH:
                rule5 = True
            depth = unsafe_add(depth, 1)
            top = b & 15
            pos = unsafe_add(pos, 1)
            continue
        elif b == 196:
            # bin8
            n = (w >> 240) & 255
            pos = unsafe_add(unsafe_add(pos, 2), n)
            if pos > end:
                return step_codes.E_MSGPACK_MALFORMED
            if at_key:
                top = top & ~L_KEY_BAD
                key_pos = unsafe_sub(pos, n)
                key_len = n
                key_word = SLOW_KEY
                rule5 = True
                bin_key = True
        else:
            kind: uint256 = 0
            s: uint256 = 0
            if b < 144:
                kind = convert(K_MAP, uint256)
                n = unsafe_sub(b, 128)
            elif b < 160:
                kind = convert(K_ARRAY, uint256)
                n = unsafe_sub(b, 144)
            else:
                e: uint256 = (TABLE >> (unsafe_sub(b, 192) << 3)) & 255
                kind = e >> 4
                s = e & 15
                if unsafe_add(unsafe_add(pos, 1), s) > end:
                    return step_codes.E_MSGPACK_MALFORMED
                n = (w >> unsafe_sub(248, s << 3)) & unsafe_sub(ONE << (s << 3), 1)
            nxt: uint256 = unsafe_add(unsafe_add(pos, 1), s)
            if at_key:
                top = top | L_KEY_BAD
            if kind == convert(K_ARRAY, uint256) or kind == convert(K_MAP, uint256):
                if depth >= MAX_NESTING or n > MAX_CONTAINER:
                    return step_codes.E_MSGPACK_MALFORMED
                if s == 2:
                    minimal = minimal and n >= 16
                elif s == 4:
                    minimal = False
                if depth >= MAX_DEPTH:
                    rule5 = True
                pos = nxt
                if n != 0:
                    # Open it: the innermost container's state goes on the stack.
                    if depth <= MAX_DEPTH:
                        near[depth] = top
                        near_word[depth] = prev_word
                    else:
                        sh: uint256 = (depth & 15) << 4
                        far[depth >> 4] = far[depth >> 4] & ~(65535 << sh) | (top & 65535) << sh
                    depth = unsafe_add(depth, 1)
                    top = n
                    if kind == convert(K_MAP, uint256):
                        top = n << 1 | L_MAP
                    continue
            elif kind == convert(K_STR, uint256) or kind == convert(K_BIN, uint256):
                # str8/16/32, bin16/32
                if n > unsafe_sub(end, nxt):
                    return step_codes.E_MSGPACK_MALFORMED
                pos = unsafe_add(nxt, n)
                if kind == convert(K_STR, uint256):
                    if s == 1:
                        minimal = minimal and n >= 32
                    else:
                        minimal = minimal and n >= ONE << (s << 2)
                    if not self._utf8(nxt, pos):
                        return step_codes.E_MSGPACK_MALFORMED
                else:
                    minimal = minimal and n >= ONE << (s << 2)
                    bin_key = bin_key or at_key
                if at_key:
                    top = top & ~L_KEY_BAD
                    key_pos = nxt
                    key_len = n
                    key_word = SLOW_KEY
                    rule5 = rule5 or bin_key
            elif kind == convert(K_UINT, uint256):
                # uint8/16/32/64
                if s == 1:
                    minimal = minimal and n >= 128
                else:
                    minimal = minimal and n >= ONE << (s << 2)
                pos = nxt
            elif kind == convert(K_NINT, uint256):
                # int8/16/32/64
                if n >> unsafe_sub(s << 3, 1) == 0:
                    minimal = False      # a signed format for a non-negative integer
                elif s == 1:
                    minimal = minimal and n < 224
                else:
                    minimal = minimal and \
                        unsafe_sub(ONE << (s << 3), n) > ONE << unsafe_sub(s << 2, 1)
                pos = nxt
            elif kind == convert(K_FLOAT, uint256):
                rule5 = rule5 or not at_key
                pos = nxt
            elif kind == convert(K_EXT, uint256):
                # ext8/16/32: a payload is rule 3 (max_ext_len 0), and so is an empty one
                # of type -1 (no valid timestamp); any other empty one is rule 3' here.
                if n != 0 or nxt >= end or (w >> unsafe_sub(240, s << 3)) & 255 == 255:
                    return step_codes.E_MSGPACK_MALFORMED
                return step_codes.E_MSGPACK_EXT
            else:
                return step_codes.E_MSGPACK_MALFORMED    # c1, or a fixext (a payload)

        # An item is complete: in a map, a key (rem even) or a value.
        if top & L_MAP != 0:
            if top & 1 == 0:
                # A key: above the last one? (Only where rule 5 lets it matter.)
                if top & L_KEY_BAD == 0 and ordered and depth <= MAX_DEPTH:
                    if top & L_HAS_PREV != 0:
                        if key_word != SLOW_KEY and prev_word != SLOW_KEY:
                            # fixstr keys: their bytes, zero-padded, then their lengths
                            ordered = key_word > prev_word or key_word == prev_word and \
                                key_len > (top >> 32) & (2**64 - 1)
                        else:
                            ordered = self._less(top >> 96, (top >> 32) & (2**64 - 1),
                                                 key_pos, key_len)
                    top = top & 65535 | L_HAS_PREV | key_len << 32 | key_pos << 96
                    prev_word = key_word
            elif top & L_KEY_BAD != 0:
                return step_codes.E_MSGPACK_MALFORMED
        top = unsafe_sub(top, 1)
        if top & L_REM != 0:
            continue
        # Its container is complete too, an item of the one around it (a key of a
        # container is bad), and so on.
        for _k: uint256 in range(MAX_NESTING):
            if depth == 0:
                break
            depth = unsafe_sub(depth, 1)
            if depth <= MAX_DEPTH:
                top = near[depth]
                prev_word = near_word[depth]
            else:
                top = (far[depth >> 4] >> ((depth & 15) << 4)) & 65535
            if top & L_VALUE_BAD == L_VALUE_BAD:
                return step_codes.E_MSGPACK_MALFORMED
            top = unsafe_sub(top, 1)
            if top & L_REM != 0:
                break
        if top & L_REM == 0:
            break

    if pos < end:
        return step_codes.E_MSGPACK_TRAILING_BYTES
    if rule5:
        code: uint8 = self._rule5(start, not ordered)
        if code != 0:
            return code
    if not (minimal and ordered):
        return step_codes.E_MSGPACK_NON_CANONICAL
    return 0


@internal
@view
def _key_hash(map_id: uint256, pos: uint256, n: uint256) -> bytes32:
    """A digest of the map's id and the key [pos, pos + n)."""
    h: bytes32 = keccak256(abi_encode(map_id, n))
    for k: uint256 in range(MAX_STEPS):
        i: uint256 = k << 5
        if i >= n:
            break
        w: uint256 = self.word_at(unsafe_add(pos, i))
        if n - i < 32:
            sh: uint256 = (32 - (n - i)) << 3
            w = (w >> sh) << sh
        h = keccak256(abi_encode(h, w))
    return h


@internal
@view
def _unordered(map_id: uint256, first: uint256, n: uint256) -> uint256:
    """A map whose keys (str) do not ascend strictly, of n entries from `first`, whose
    entries' last values' failures _rule5 noted under map_id: the failure (F_*) of the
    least key whose last value fails, or 0."""
    best: uint256 = 0
    best_pos: uint256 = 0
    best_len: uint256 = 0
    q: uint256 = first
    kind: uint8 = 0
    klen: uint256 = 0
    kpos: uint256 = 0
    for i: uint256 in range(n, bound=MAX_CONTAINER):
        kind, klen, kpos = self.read_header(q)
        last: uint256 = self._last[self._key_hash(map_id, kpos, klen)]
        if last >> 8 == i + 1 and last & 3 != 0:
            if best == 0 or self._less(kpos, klen, best_pos, best_len):
                best = last & 3
                best_pos = kpos
                best_len = klen
        q = self.skip(unsafe_add(kpos, klen))
    return best


@internal
def _rule5(start: uint256, unordered: bool) -> uint8:
    """Rule 5 over a value that passed rules 3 and 4: the first of too-deep, a float
    (type) and a bin key (map-key) that the reference's re-encoding meets, or 0.
    Computed bottom up in one pass over the bytes: a container 16 deep is too-deep; a
    map with a bin key is map-key; an array fails as its first failing item; a map as
    its least key whose value (a repeated key's last) fails: its first failing value if
    its keys ascend strictly, else (`unordered`: some map's keys do not) as
    _unordered finds from the failures noted in transient storage."""
    # The open containers, levels 0..15: items left (a map's keys and values), map?,
    # and for a map: its keys ascend so far?, its last key (pos << 64 | length, 0 for
    # none), its first failing value (F_*), its entries so far, where they start, how
    # many, its id (unordered) and the digest of its current key.
    rem: uint256[16] = empty(uint256[16])
    is_map: bool[16] = empty(bool[16])
    ordered: bool[16] = empty(bool[16])
    prev: uint256[16] = empty(uint256[16])
    code: uint256[16] = empty(uint256[16])
    entry: uint256[16] = empty(uint256[16])
    first: uint256[16] = empty(uint256[16])
    count: uint256[16] = empty(uint256[16])
    ids: uint256[16] = empty(uint256[16])
    key: bytes32[16] = empty(bytes32[16])
    d: uint256 = 0
    pos: uint256 = start
    kind: uint8 = 0
    arg: uint256 = 0
    nxt: uint256 = 0
    for _: uint256 in range(MAX_STEPS):
        kind, arg, nxt = self.read_header(pos)
        f: uint256 = 0     # the failure of the item just complete (F_*)
        pos = nxt
        if kind == K_FLOAT:
            f = F_TYPE
        elif kind == K_STR or kind == K_BIN:
            pos = unsafe_add(nxt, arg)
        elif kind == K_ARRAY or kind == K_MAP:
            if d >= MAX_DEPTH:
                f = F_TOO_DEEP
                pos = self._skip_items(nxt, arg << convert(kind == K_MAP, uint256))
            elif arg != 0:
                rem[d] = arg
                is_map[d] = kind == K_MAP
                if kind == K_MAP:
                    rem[d] = arg << 1
                    ordered[d] = True
                    prev[d] = 0
                    code[d] = 0
                    entry[d] = 0
                    first[d] = nxt
                    count[d] = arg
                    if unordered:
                        self._maps += 1
                        ids[d] = self._maps
                d = unsafe_add(d, 1)
                continue
        # Complete the items it completes, from the innermost container out.
        for _k: uint256 in range(MAX_DEPTH + 1):
            if d == 0:
                if f == F_TYPE:
                    return step_codes.E_MSGPACK_TYPE
                if f == F_TOO_DEEP:
                    return step_codes.E_MSGPACK_TOO_DEEP
                if f == F_MAP_KEY:
                    return step_codes.E_MSGPACK_MAP_KEY
                return 0
            t: uint256 = unsafe_sub(d, 1)
            fails_all: bool = False
            if is_map[t]:
                if rem[t] & 1 == 0:
                    # A key, a str or a bin by rule 3; a bin fails the map.
                    if kind == K_BIN:
                        f = F_MAP_KEY
                        fails_all = True
                    else:
                        if ordered[t]:
                            if prev[t] != 0:
                                ordered[t] = self._less(prev[t] >> 64, prev[t] & (2**64 - 1),
                                                        nxt, arg)
                            prev[t] = nxt << 64 | arg
                        if unordered:
                            key[t] = self._key_hash(ids[t], nxt, arg)
                else:
                    entry[t] += 1
                    if unordered:
                        self._last[key[t]] = entry[t] << 8 | f
                    if f != 0 and code[t] == 0:
                        code[t] = f
            elif f != 0:
                fails_all = True
            if fails_all:
                # The container fails as this item does, whatever follows it.
                pos = self._skip_items(pos, rem[t] - 1)
            else:
                rem[t] -= 1
                if rem[t] != 0:
                    break
                f = 0
                if is_map[t] and code[t] != 0:
                    f = code[t]
                    if not ordered[t]:
                        f = self._unordered(ids[t], first[t], count[t])
            d = t
            kind = K_ARRAY     # a container is complete: no key
    return 0


# -- canonical heads, for re-encoding --------------------------------------------------

@internal
@pure
def _head(prefix: uint256, v: uint256, s: uint256) -> Bytes[9]:
    """prefix then v in s big-endian bytes (s of 0, 1, 2, 4, 8)."""
    w: bytes32 = convert((prefix << (248)) | (v << (248 - 8 * s)), bytes32)
    if s == 0:
        return slice(w, 0, 1)
    if s == 1:
        return slice(w, 0, 2)
    if s == 2:
        return slice(w, 0, 3)
    if s == 4:
        return slice(w, 0, 5)
    return slice(w, 0, 9)


@internal
@pure
def encode_uint(v: uint256) -> Bytes[9]:
    """The canonical encoding of the integer v, 0 <= v < 2^64."""
    assert v < 2**64, "msgpack/unencodable"
    if v < 128:
        return self._head(v, 0, 0)
    if v < 256:
        return self._head(204, v, 1)
    if v < 2**16:
        return self._head(205, v, 2)
    if v < 2**32:
        return self._head(206, v, 4)
    return self._head(207, v, 8)


@internal
@pure
def encode_int(v: int256) -> Bytes[9]:
    """The canonical encoding of the integer v, -2^63 <= v < 2^64."""
    if v >= 0:
        return self.encode_uint(convert(v, uint256))
    assert v >= -(2**63), "msgpack/unencodable"
    m: uint256 = convert(-v, uint256)
    if m <= 32:
        return self._head(256 - m, 0, 0)
    if m <= 128:
        return self._head(208, 2**8 - m, 1)
    if m <= 2**15:
        return self._head(209, 2**16 - m, 2)
    if m <= 2**31:
        return self._head(210, 2**32 - m, 4)
    return self._head(211, 2**64 - m, 8)


@internal
@pure
def _len_head(fix: uint256, fix_max: uint256, b8: uint256, b16: uint256, b32: uint256,
              n: uint256) -> Bytes[9]:
    assert n < 2**32, "msgpack/unencodable"
    if n <= fix_max and fix != 0:
        return self._head(fix | n, 0, 0)
    if n < 256 and b8 != 0:
        return self._head(b8, n, 1)
    if n < 2**16:
        return self._head(b16, n, 2)
    return self._head(b32, n, 4)


@internal
@pure
def encode_bin_head(n: uint256) -> Bytes[9]:
    """The head of n bytes (bin8, bin16 or bin32); the bytes follow it."""
    return self._len_head(0, 0, 196, 197, 198, n)


@internal
@pure
def encode_str_head(n: uint256) -> Bytes[9]:
    """The head of a text of n UTF-8 bytes (fixstr, str8, str16 or str32)."""
    return self._len_head(160, 31, 217, 218, 219, n)


@internal
@pure
def encode_array_head(n: uint256) -> Bytes[9]:
    """The head of an array of n items (fixarray, array16 or array32)."""
    return self._len_head(144, 15, 0, 220, 221, n)


@internal
@pure
def encode_map_head(n: uint256) -> Bytes[9]:
    """The head of a map of n entries (fixmap, map16 or map32); the entries follow it,
    keys ascending."""
    return self._len_head(128, 15, 0, 222, 223, n)
