#pragma version ~=0.4.3
"""
@title The single-step check: the state's elements (11.4 rule 5, spec/02-group.md 2.5)
@notice A state that is not the committed one has every element decoded by 2.5: the
        deck's 48-byte pieces, the key shares, the shares (as state.clib's fields_ok);
        any failure is state/schema. step_state.vy runs this by DELEGATECALL, once the
        fields passed their accessors, and reads `elements_bad`.
@dev A contract of its own so that its buffers (the G1MSM's terms) cost memory only when
     a state is decoded this way: Vyper lays every variable out at its largest size.
     Rules 0-2 with each element's hint, then rules 3 and 4 by G1MSMs of up to 184 terms
     (the scalar 1 each); only when one refuses its points are they tested one by one.
"""

import bls12381g1 as g1
import msgpack
import points
import step_lib
import step_tx

initializes: step_tx


@internal
@view
def _flush(terms: DynArray[uint256, points.MAX_TERM_WORDS]) -> bool:
    """Rules 3 and 4 for a batch of decoded elements (a point and the scalar 1 each): one
    G1MSM, and only if it refuses them, each by itself (which reverts on a wrong hint)."""
    ok: bool = False
    out: Bytes[128] = b""
    if len(terms) == 0:
        return True
    ok, out = points.msm(terms)
    if ok:
        return True
    for k: uint256 in range(points.MAX_TERMS):
        if 5 * k == len(terms):
            break
        xy: Bytes[128] = concat(convert(terms[5 * k], bytes32), convert(terms[5 * k + 1], bytes32),
                                convert(terms[5 * k + 2], bytes32),
                                convert(terms[5 * k + 3], bytes32))
        if not g1.on_curve(xy) or not g1.subgroup_ok(xy):
            return False
    raise "G1MSM refused points that pass one by one"


@internal
@view
def _elements_ok(fld: uint256[18], deck_len: uint256, nkeys: uint256) -> bool:
    """Every element of the state by 2.5: the deck's, the key shares, the shares."""
    terms: DynArray[uint256, points.MAX_TERM_WORDS] = []
    code: uint8 = 0
    xy: Bytes[128] = b""
    kind: uint8 = 0
    v: uint256 = 0
    q: uint256 = 0
    m: uint256 = 0
    kind, v, q = msgpack.read_header(fld[2])
    deck: uint256 = q
    kind, v, q = msgpack.read_header(fld[6])
    keys: uint256 = q
    kind, m, q = msgpack.read_header(fld[16])
    rows: uint256 = q
    # Element k: the deck's 48-byte pieces, the key shares (bin8 c4 30 before each), then
    # the shares' non-nil slots.
    count: uint256 = deck_len // 48 + nkeys
    k: uint256 = 0
    slot: uint256 = 0
    for _: uint256 in range(4096 * 4 + 2):
        pos: uint256 = 0
        if k < deck_len // 48:
            pos = deck + 48 * k
        elif k < count:
            pos = keys + 2 + 50 * (k - deck_len // 48)
        else:
            # the next non-nil slot of the shares
            found: bool = False
            for _j: uint256 in range(2 * 4096):
                if slot == 2 * m:
                    break
                if slot % 2 == 0:
                    rows += 1           # a row's fixarray header
                kind, v, q = msgpack.read_header(rows)
                slot += 1
                if kind == msgpack.K_BIN:
                    pos = q
                    rows = q + 48
                    found = True
                    break
                rows = q
            if not found:
                break
        k += 1
        code, xy = step_lib.element(pos, 48)
        if code != 0:
            return False
        for w: uint256 in range(4):
            terms.append(convert(extract32(xy, 32 * w), uint256))
        terms.append(1)
        if len(terms) == points.MAX_TERM_WORDS:
            if not self._flush(terms):
                return False
            terms = []
    return self._flush(terms)




@external
def judge(committed: bytes32, flags: uint256, table: uint256):
    e: uint256[3] = step_tx.elements
    step_tx.elements_bad = not self._elements_ok(step_tx.fld, e[0], e[1])
