"""The sealed stages of a simultaneous rule set, spec/10-session.md 10.8, on spec/06-proofs.md
6.6: share keys (KEY), seals (COMMIT), openings (OPEN) and declarations of absence
(ABSENT), for `mined-games` (spec/rules/mined-games.md 8, D19-D21).

Written from 10.8's text. The holders of seat c's seal are every other seat with a share
key, in seat order; t = m // 2 + 1 of m holders (m >= 2) open it; a forfeit needs a
majority of the other living seats. Every failure raises SpecError with the 10.8 code;
`Blame` names a seat other than the frame's sender (the committer of a seal the table
opened). Every point, scalar and hash is the game's suite's (3.5), given as `s`.
"""

from __future__ import annotations

from typing import Any

from independent.errors import SpecError, fail, fail_rule
from independent.group.suites import Suite
from independent.proofs.seal import Ctx, check_dec, check_seal, combine, key_check, open_seal, unpad
from independent.rules.mined_map import State
from independent.wire.msgpack_lib import pack, unpack

SIZE = 192          # 10.8: every sealed plaintext is 192 bytes


class Blame(SpecError):
    """A violation of `seat`, not of the frame's sender (10.8: a seal opened by the table
    whose plaintext is no orders is its committer's)."""

    def __init__(self, code: str, seat: int) -> None:
        super().__init__(code)
        self.seat = seat


def holders(st: State, seat: int) -> list[int]:
    return [s for s in range(len(st.keys)) if s != seat and st.keys[s] is not None]


def ctx_of(s: Suite, gid: bytes, st: State, seat: int) -> Ctx:
    ks = st.keys
    return Ctx(s, gid, st.stage, seat, [(s, ks[s]) for s in holders(st, seat)])  # type: ignore[misc]


def sealed(st: State, seat: int) -> bool:
    """10.8: the seat owes an OPEN and its seal has shares (m >= 2)."""
    return (st.commits[seat] is not None and st.nonces[seat] is None
            and len(holders(st, seat)) >= 2)


def majority(n: int) -> int:
    return n // 2 + 1


def may_carry(eligible: list[int], is_sealed: bool, before: list[Any],
              declarer: int) -> set[bool] | None:
    """10.8 "Shares wait for t declarations": the share-presence values an ABSENT of
    `declarer` may have after the frames `before` ([seat, share or None] in order), or
    None when it may send no ABSENT at all."""
    if declarer not in eligible:
        return None
    seats = {d for d, _ in before}
    if not is_sealed:
        return None if declarer in seats else {False}
    t = majority(len(eligible))
    if len(seats) < t - 1:
        return None if declarer in seats else {False}
    if len(seats) == t - 1:
        return None if declarer in seats else {False, True}
    posted = {d for d, sh in before if sh is not None}
    return None if declarer in posted else {True}


def on_key(s: Suite, gid: bytes, st: State, seat: int, body: Any) -> None:
    """10.8 share keys: [y, c, z], 6.6.2."""
    if not isinstance(body, list) or len(body) != 3:
        fail_rule("schema/array", "key body")
    # SPEC GAP: 10.8 reads each item as bytes of at most 33; in G1 the point y is 48 bytes,
    # so y is read as at most P + 1 (the point's length plus one, as 8.5 reads a field)
    # and c and z as at most 33.
    for b, most in zip(body, (s.ops.P + 1, 33, 33), strict=True):
        if not isinstance(b, bytes):
            fail_rule("schema/bytes", "key body")
        if len(b) > most:
            fail_rule("schema/bytes", "key body")
    key_check(s, body[0], body[1], body[2], gid, seat)
    st.keys[seat] = body[0]
    st.absent = None


def on_commit(s: Suite, gid: bytes, st: State, seat: int, body: Any) -> None:
    """10.8 Commitment: the seal's checks 1-4 (6.6.5) for the seat's holders, at once."""
    check_seal(ctx_of(s, gid, st, seat), body, SIZE)
    st.commits[seat] = pack(body)
    st.absent = None


def plaintext_orders(p: bytes) -> tuple[Any, bytes]:
    """10.8 Opening: unpad, then the canonical msgpack of [orders (<= 128 bytes), nonce(32)]."""
    data = unpad(p)
    try:
        v = unpack(data, len(data))
    except SpecError:
        fail("open/plaintext")
    if not (isinstance(v, list) and len(v) == 2 and isinstance(v[1], bytes)
            and len(v[1]) == 32 and len(pack(v[0])) <= 128):
        fail("open/plaintext")
    return v[0], v[1]


def stored(s: Suite, gid: bytes, st: State,
           seat: int) -> tuple[Ctx, list[bytes], list[bytes], bytes]:
    ctx = ctx_of(s, gid, st, seat)
    data = st.commits[seat]
    assert data is not None
    cs, ys, ct = check_seal(ctx, unpack(data, len(data)), SIZE)
    return ctx, cs, ys, ct


def on_open(s: Suite, gid: bytes, st: State, seat: int, body: Any) -> tuple[Any, bytes]:
    """10.8 Opening: [s]; s*Hs = C_0; the plaintext's [orders, nonce]."""
    if not isinstance(body, list) or len(body) != 1:
        fail_rule("schema/array", "open body")
    if not isinstance(body[0], bytes) or len(body[0]) > 33:
        fail_rule("schema/bytes", "secret")
    ctx, cs, _ys, ct = stored(s, gid, st, seat)
    st.absent = None
    return plaintext_orders(open_seal(ctx, cs, ct, body[0]))


def on_absent(s: Suite, gid: bytes, st: State, declarer: int, body: Any,
              owing: tuple[str, int] | None) -> tuple[str, Any]:
    """10.8 Absence. Returns ("pending", None), ("forfeit", declarers ascending) or
    ("opened", (orders, nonce, openers ascending))."""
    if not isinstance(body, list) or len(body) not in (2, 3):
        fail_rule("schema/array", "absent body")
    who, stage = body[0], body[1]
    for x, hi in ((who, 255), (stage, 65536)):
        if type(x) is not int or not 0 <= x <= hi:
            fail_rule("schema/int")
    share = body[2] if len(body) == 3 else None
    if len(body) == 3:      # 8.5: the body's third item by 6.6.7 checks 1-2 (nil fails)
        if not (isinstance(share, list) and len(share) == 3
                and all(isinstance(b, bytes) for b in share)):
            fail("seal/shape")
        s.ops.accept(share[0])
        s.ops.scalar(share[1])
        s.ops.scalar(share[2])
    if owing is None or owing[0] not in ("keys", "commit", "open") or who != owing[1] \
            or stage != st.stage:
        fail_rule("absent/wrong-seat")
    is_sealed = sealed(st, who)
    eligible = holders(st, who) if is_sealed else [s for s in st.living() if s != who]
    if len(eligible) < 2:   # 10.8: one seat's word alone settles nothing
        eligible = []
    before = st.absent[1] if st.absent is not None else []
    allowed = may_carry(eligible, is_sealed, before, declarer)
    if allowed is None:
        fail_rule("absent/declarer")
    elif (share is not None) not in allowed:
        fail_rule("absent/share")
    if share is None and is_sealed:     # a declaration before the shares
        st.absent = [who, [*before, [declarer, None]]]
        return "pending", None
    if not is_sealed:
        declared = [*before, [declarer, None]]
        if len(declared) < majority(len(eligible)):
            st.absent = [who, declared]
            return "pending", None
        st.absent = None
        return "forfeit", sorted(d for d, _ in declared)
    ctx, _cs, ys, ct = stored(s, gid, st, who)
    s_d = check_dec(ctx, ys, declarer, share)
    declared = [*before, [declarer, s_d.hex()]]
    st.absent = [who, declared]
    posted = {d: bytes.fromhex(h) for d, h in declared if h is not None}
    if len(posted) < ctx.t:
        return "pending", None
    try:
        orders, nonce = plaintext_orders(combine(ctx, ct, posted))
    except SpecError as e:
        raise Blame(e.code, who) from None
    st.absent = None
    return "opened", (orders, nonce, sorted(posted))
