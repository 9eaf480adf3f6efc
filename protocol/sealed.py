"""A stage's sealed commitments: whom a seal is for, what it holds, and how the table
opens it (spec/10-session.md 10.8, built on spec/06-proofs.md 6.6).

A seat's COMMIT is a seal of the fixed-length plaintext `pad(msgpack([orders, nonce]),
PLAINTEXT_BYTES)` for the seal's holders: every other seat with a share key. The seal's
context binds the game, the stage, the committer and the holders' keys. The committer
opens it with the seal secret s (OPEN); without it, a majority of the holders opens it
with their decryption shares (ABSENT). Decryption is deterministic, so both ways give
the same plaintext, and a plaintext that does not decode is the committer's fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .canonical import pack, unpack
from .errors import DealerlessError, EncodingError, SealError
from .seal import Seal, SealContext, seal_context, seal_threshold, unpad
from .suite import Suite

#: Every sealed plaintext is this long (10.8): u16 length, msgpack([orders, nonce]) of at
#: most 128 + 35 bytes, zeros. Fixed, so a ciphertext's length tells nothing of the orders.
PLAINTEXT_BYTES = 192
NONCE_BYTES = 32
#: Orders are at most this many bytes of msgpack (a pair of a 64-letter text and a small
#: integer needs 68).
MAX_ORDERS_BYTES = 128


def holders_context(suite: Suite, game_id: bytes, stage: int, seat: int,
                    keys: Sequence[bytes | None]) -> SealContext:
    """The context of `seat`'s seal in `stage`: its holders are every other seat with a
    share key, in seat order (10.8). The keys were checked when they were sent."""
    recipients = [(s, suite.decode_point(y)) for s, y in enumerate(keys)
                  if s != seat and y is not None]
    return seal_context(suite, game_id, stage, seat, recipients)


def decode_seal(value: Any, ctx: SealContext) -> Seal:
    """A COMMIT body's seal, strictly (6.6.5); SealError blames the committer."""
    return Seal.decode(value, ctx, PLAINTEXT_BYTES)


def stored_seal(data: bytes, ctx: SealContext) -> Seal:
    """A seal kept in the rules' state as its msgpack bytes (rules/mined-games.md 9)."""
    try:
        value = unpack(data, len(data))
    except EncodingError as exc:
        raise SealError(exc.code, exc.detail, ctx.committer) from None
    return decode_seal(value, ctx)


def check_seal_bytes(suite: Suite, data: bytes, holders: int) -> None:
    """ValueError unless `data` is the msgpack of a seal's shape for this many holders: a
    state's stored seal (rules/mined-games.md 9). Its points and proofs were checked when
    it was sent; a forged state is refused by shape here and cannot crash a later step."""
    try:
        value = unpack(data, len(data))
    except EncodingError as exc:
        raise ValueError(f"a stored seal is not msgpack: {exc.detail}") from None
    t = seal_threshold(holders)
    shares = holders if holders >= 2 else 0
    sizes = [suite.point_bytes, suite.scalar_bytes, suite.scalar_bytes]
    if not (isinstance(value, list) and len(value) == 3 and isinstance(value[0], list)
            and len(value[0]) == t and isinstance(value[1], list) and len(value[1]) == shares
            and isinstance(value[2], bytes) and len(value[2]) == PLAINTEXT_BYTES
            and all(isinstance(c, bytes) and len(c) == suite.point_bytes for c in value[0])
            and all(isinstance(e, list) and [len(b) if isinstance(b, bytes) else -1
                                             for b in e] == sizes for e in value[1])
            and pack(value) == data):
        raise ValueError("a stored seal has the shape of 6.6.5 for its holders")


def sealed_plaintext(orders: Any, nonce: bytes) -> bytes:
    """What a seat seals (10.8): msgpack([orders, nonce]), to be padded."""
    return pack([orders, nonce])


def read_plaintext(padded: bytes, committer: int) -> tuple[Any, bytes]:
    """(orders, nonce) from an opened seal, strictly: SealError blames the committer for
    padding that does not unpad, bytes that are not canonical msgpack of
    [orders, 32-byte nonce], or orders longer than 128 bytes (10.8)."""
    data = unpad(padded, committer)
    try:
        value = unpack(data, len(data))
    except EncodingError as exc:
        raise SealError("open/plaintext", f"seat {committer}'s sealed plaintext is not "
                        f"canonical msgpack ({exc.code})", committer) from None
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[1], bytes)
            and len(value[1]) == NONCE_BYTES):
        raise SealError("open/plaintext", f"seat {committer}'s sealed plaintext is not "
                        "[orders, 32-byte nonce]", committer)
    orders, nonce = value
    if len(pack(orders)) > MAX_ORDERS_BYTES:
        raise SealError("open/plaintext", f"seat {committer}'s sealed orders take more than "
                        f"{MAX_ORDERS_BYTES} bytes", committer)
    return orders, nonce


def blamed(exc: DealerlessError, default: int) -> int:
    """The seat a seal check blames: a SealError names its own, else `default`."""
    return exc.seat if isinstance(exc, SealError) else default
