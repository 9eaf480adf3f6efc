"""Signed, hash-chained frames (spec/08-wire.md sections 8.3 and 8.4).

A frame on the wire is the canonical msgpack array [payload, signature] where
payload is itself canonical msgpack of

    [version, game_id, seq, prev, seat, type, state_hash, body]

and signature is the sender's signature, by its suite's scheme (8.3), over the version's
signing prefix || payload.
`prev` is the frame hash of frame seq-1 (the game id for seq 0) and
`state_hash` is the hash of the public state the frame applies to.

Parsing here checks only what needs no game state: sizes, shape, canonical
encoding and types. The session (protocol/session.py) checks the signature
against the seat's identity, the chain, the turn and the body.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from .canonical import as_array, as_bytes, as_int, pack, unpack
from .errors import EncodingError
from .identity import Identity
from .signature import SIGNATURE_BYTES
from .suite import Suite
from .tags import Tag
from .version import check_version, frame_signature_prefix

#: Upper bound on a frame's encoding, checked before unpacking. The largest
#: frame is a double-twelve shuffle: 91*64 deck bytes + 128*91+160 proof bytes.
MAX_FRAME_BYTES = 1 << 16
HASH_BYTES = 32


class MessageType(IntEnum):
    """Frame types (spec/08-wire.md 8.5)."""

    KEY = 1
    NONCE = 2
    SHUFFLE = 3
    DEAL = 4
    MOVE = 5
    REVEAL = 6
    DRAW = 7
    COMMIT = 8
    OPEN = 9
    ABSENT = 10
    CHOOSE = 11

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Frame:
    """A parsed frame. `wire` is the exact bytes received, `payload` what was signed;
    `suite` is the game's, whose H gives the frame's hash."""

    version: int
    game_id: bytes
    seq: int
    prev: bytes
    seat: int
    type: MessageType
    state_hash: bytes
    body: Any
    signature: bytes
    payload: bytes
    wire: bytes
    suite: Suite = field(compare=False, repr=False)

    @property
    def hash(self) -> bytes:
        """H(FRAME, wire bytes), first 32 bytes: the next frame's `prev`."""
        return frame_hash(self.suite, self.wire)


def frame_hash(suite: Suite, wire: bytes) -> bytes:
    return suite.H(Tag.FRAME, wire)[:HASH_BYTES]


def signed_message(version: int, payload: bytes) -> bytes:
    """The exact bytes a frame's signature covers (8.3). An identity key may also sign
    for other protocols (it can be an imported SSH key): the prefix, which no SSH signed
    blob or other dealerless message starts with, keeps a frame signature from ever
    being valid there, and theirs from being a frame signature here."""
    return frame_signature_prefix(version) + payload


def build_frame(identity: Identity, suite: Suite, game_id: bytes, seq: int, prev: bytes,
                seat: int, mtype: MessageType, state_hash: bytes, body: Any,
                fresh: bytes = b"") -> bytes:
    """Encode and sign a frame of a game in `suite`; returns its wire bytes. `fresh`
    hedges the signature's nonce where the suite's scheme has one (2.6)."""
    payload = pack([suite.version, game_id, seq, prev, seat, int(mtype), state_hash, body])
    signature = suite.signer.sign(identity.seed, signed_message(suite.version, payload), fresh)
    wire = pack([payload, signature])
    if len(wire) > MAX_FRAME_BYTES:
        raise EncodingError("frame/too-large", f"{len(wire)} bytes exceeds {MAX_FRAME_BYTES}")
    return wire


def parse_frame(wire: bytes, suite: Suite) -> Frame:
    """Strictly decode a frame's structure; raises EncodingError (frame/..., msgpack/...).
    `suite` is the game's (it hashes the frame)."""
    outer = as_array(unpack(wire, MAX_FRAME_BYTES), 2, "frame")
    payload = as_bytes(outer[0], "frame payload", max_len=MAX_FRAME_BYTES)
    signature = as_bytes(outer[1], "frame signature", SIGNATURE_BYTES)
    fields = as_array(unpack(payload, MAX_FRAME_BYTES), 8, "frame payload")
    version = as_int(fields[0], "version")
    check_version(version, "frame", suite.version)
    type_code = as_int(fields[5], "type")
    try:
        mtype = MessageType(type_code)
    except ValueError:
        raise EncodingError("frame/unknown-type", f"no message type {type_code}") from None
    return Frame(
        version=version,
        game_id=as_bytes(fields[1], "game id", HASH_BYTES),
        seq=as_int(fields[2], "seq"),
        prev=as_bytes(fields[3], "prev", HASH_BYTES),
        seat=as_int(fields[4], "seat", 0, 255),
        type=mtype,
        state_hash=as_bytes(fields[6], "state hash", HASH_BYTES),
        body=fields[7],
        signature=signature,
        payload=payload,
        wire=wire,
        suite=suite,
    )
