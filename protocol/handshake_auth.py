"""Authenticating the handshake (spec/12-peers.md 12.3, "Authentication").

Three pieces, each pure and deterministic given the caller's fresh bytes:

- Every handshake message is signed by its sender's identity key over the rendezvous id
  and the message: the signed bytes are SIGNING_CONTEXT || pack([rid, body]), and the
  wire message is body with the signature appended. A joiner's signed hello answers the
  host's round commitment, so it also proves possession of its key, fresh for that round.
- The invitation pins the host: pin = H(HOST_PIN, host key)[:16]. A joiner obeys only
  messages signed by the key the pin names.
- Each joining seat i has an invitation of its own, whose secret S_i the host derives
  from its table secret T: S_i = H(INVITE_SEAT, T, u8(i))[:16]; every invitation also
  carries the room secret R = H(INVITE_ROOM, T)[:16] (what a relay room's key comes
  from). Nobody holding one invitation can work out another's S_i, so an invitee can
  take its own seat and no other.
- A joiner proves it holds S_i by a CPace-style exchange on G_i = H2P(PAKE_GENERATOR,
  S_i, rid): the host's hello carries Y_h,i = y_h,i*G_i for every seat i, the joiner's
  Y_j = y_j*G_i and confirm = H(PAKE_CONFIRM, ISK, joiner key, joiner commitment, host
  commitment)[:32], ISK = H(PAKE_KEY, rid, u8(i), Y_h,i, Y_j, y*Y'). Someone who sees
  the rendezvous id (a relay operator) but not S_i cannot produce confirm, and a
  transcript of the exchange gives no offline test of a guessed secret (CDH on
  edwards25519).
"""

from __future__ import annotations

import hmac
from typing import Any

from .canonical import pack
from .deck import MAX_SEATS
from .errors import EncodingError
from .groups import Element
from .hashing import PEER, H, Tag
from .identity import SIGNATURE_BYTES, Identity, SignatureError, verify_signature
from .suite import ED25519, Suite
from .version import PEER_PROTOCOL

#: Prefixed to pack([rid, body]) before signing: no frame signature (8.3) and no other
#: protocol's signed blob starts with it, so a handshake signature is valid nowhere else.
#: It carries the peer protocol's number (spec/README.md "Versioning"), so a hello of
#: another version never verifies as one of this.
SIGNING_CONTEXT = f"dealerless/handshake-signature/{PEER_PROTOCOL}\x00".encode()
#: Prefixed to pack([rid, seat, identity key, frame key]) for a seat's frame-key binding
#: (12.3 "Authentication"): no frame signature (8.3) and no handshake signature starts
#: with it, so neither half of a binding is valid as either.
BINDING_CONTEXT = f"dealerless/frame-key-binding/{PEER_PROTOCOL}\x00".encode()
#: A binding: the identity key's Ed25519 signature, then the frame key's own (8.3).
BINDING_BYTES = 2 * SIGNATURE_BYTES
PIN_BYTES = SECRET_BYTES = 16
CONFIRM_BYTES = 32


def signed_bytes(rid: bytes, body: list[Any]) -> bytes:
    """The exact bytes a handshake message's signature covers (12.3)."""
    return SIGNING_CONTEXT + pack([rid, body])


def sign(identity: Identity, rid: bytes, body: list[Any]) -> list[Any]:
    """`body` with its sender's signature appended."""
    return [*body, identity.sign(signed_bytes(rid, body))]


def check_signature(key: bytes, rid: bytes, message: list[Any]) -> list[Any]:
    """The body of a signed message if its last item is `key`'s signature over it;
    SignatureError (handshake/bad-signature) otherwise."""
    if len(message) < 2 or not isinstance(message[-1], bytes) \
            or len(message[-1]) != SIGNATURE_BYTES:
        raise SignatureError("handshake/bad-signature", "a handshake message ends with a "
                             "64-byte signature")
    body = message[:-1]
    try:
        verify_signature(key, signed_bytes(rid, body), message[-1])
    except SignatureError:
        raise SignatureError("handshake/bad-signature", "the signature does not verify "
                             "under the sender's identity key") from None
    return body


def host_pin(key: bytes) -> bytes:
    """The invitation's pin of the host's identity key."""
    return H(Tag.HOST_PIN, key)[:PIN_BYTES]


def room_secret(table: bytes) -> bytes:
    """R, the secret every invitation of the table `table` carries (12.3)."""
    return H(Tag.INVITE_ROOM, table)[:SECRET_BYTES]


def seat_secret(table: bytes, seat: int) -> bytes:
    """S_i, the secret of the invitation to joining seat `seat` (1..7) of a table (12.3)."""
    if not 1 <= seat < MAX_SEATS:
        raise ValueError(f"joining seats are 1..{MAX_SEATS - 1}, not {seat}")
    return H(Tag.INVITE_SEAT, table, bytes([seat]))[:SECRET_BYTES]


def pake_generator(secret: bytes, rid: bytes) -> Element:
    return PEER.hash_to_point(Tag.PAKE_GENERATOR, secret, rid)


def pake_scalar(identity: Identity, rid: bytes, commitment: bytes, seat: int,
                fresh: bytes) -> int:
    """A seat's fresh exchange scalar for joining seat `seat`, hedged with its own seed
    (3.4; the public part is rid || commitment || u8(seat))."""
    return PEER.nonce_scalars(b"pake", identity.seed, rid + commitment + bytes([seat]),
                              fresh, 1)[0]


def pake_share(secret: bytes, rid: bytes, scalar: int) -> bytes:
    """Y = y*G, sent in the hello."""
    return PEER.group.mul(scalar, pake_generator(secret, rid)).data


def pake_confirm(rid: bytes, seat: int, scalar: int, host_share: bytes, join_share: bytes,
                 their_share: bytes, joiner: bytes, join_commitment: bytes,
                 host_commitment: bytes) -> bytes:
    """The confirmation of the joiner of seat `seat`, as either side computes it from its
    own scalar and the other side's share (`their_share`, validated first: EncodingError
    point/*)."""
    shared = PEER.group.mul(scalar, PEER.decode_point(their_share))
    isk = H(Tag.PAKE_KEY, rid, bytes([seat]), host_share, join_share, shared.data)
    return H(Tag.PAKE_CONFIRM, isk, joiner, join_commitment, host_commitment)[:CONFIRM_BYTES]


def check_confirm(expected: bytes, given: bytes) -> None:
    """EncodingError pake/confirm unless the joiner's confirmation is the expected one."""
    if not hmac.compare_digest(expected, given):
        raise EncodingError("pake/confirm", "the joiner does not hold the secret of the "
                            "invitation to the seat it claims")


def binding_bytes(rid: bytes, seat: int, key: bytes, frame_key: bytes) -> bytes:
    """What both halves of seat `seat`'s frame-key binding sign (12.3)."""
    return BINDING_CONTEXT + pack([rid, seat, key, frame_key])


def bind_frame_key(identity: Identity, played: Suite, rid: bytes, seat: int) -> bytes:
    """This identity's binding of its frame key in `played` to its identity key at seat
    `seat` of the table `rid` (12.3): empty in a suite signed by Ed25519, whose frame key
    is the identity key; else the identity key's signature of binding_bytes, then the
    frame key's (its proof of possession), made without fresh bytes (8.3: its nonce
    comes from the key and the message) so that it is the same every time."""
    if played.signer is ED25519:
        return b""
    frame_key = identity.frame_key(played)
    message = binding_bytes(rid, seat, identity.public_key, frame_key)
    return identity.sign(message) + played.signer.sign(identity.seed, message, b"")


def check_binding(played: Suite, rid: bytes, seat: int, key: bytes, frame_key: bytes,
                  binding: bytes, code: str) -> None:
    """EncodingError `code` unless `binding` binds `frame_key` to the identity key `key`
    at seat `seat` of the table `rid` in `played` (12.3): both the identity key and the
    frame key signed it, so nobody can pair a seat's identity with a frame key that seat
    did not announce, nor announce a frame key they do not hold. In a suite signed by
    Ed25519 the frame key is the identity key and the binding is empty."""
    if played.signer is ED25519:
        if frame_key != key or binding:
            raise EncodingError(code, f"seat {seat}: in {played.name} a frame key is the "
                                "identity key itself, with an empty binding")
        return
    if len(binding) != BINDING_BYTES:
        raise EncodingError(code, f"seat {seat}: a frame-key binding of {played.name} is "
                            f"{BINDING_BYTES} bytes, not {len(binding)}")
    message = binding_bytes(rid, seat, key, frame_key)
    try:
        verify_signature(key, message, binding[:SIGNATURE_BYTES])
    except SignatureError:
        raise EncodingError(code, f"seat {seat}: its identity key did not sign the binding "
                            "of this frame key at this seat of this table") from None
    try:
        played.signer.verify(frame_key, message, binding[SIGNATURE_BYTES:])
    except SignatureError:
        raise EncodingError(code, f"seat {seat}: the frame key's own signature of its "
                            "binding does not verify (no proof that this seat holds it)") \
            from None
