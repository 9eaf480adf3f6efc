"""Frame bodies: one class per message type (spec/08-wire.md section 8.5).

Each body is a frozen dataclass with `encode()` to a canonical-msgpack value
and a strict `decode()` that validates every point and scalar, so a body that
decodes is well-formed and a body that is not cannot be built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .canonical import as_array, as_bytes, as_int, as_list, pack
from .deck import DecryptionShare
from .dleq import DLEQ_PROOF_BYTES, DleqProof
from .elgamal import CIPHERTEXT_BYTES, decode_deck, encode_deck
from .errors import EncodingError
from .group import POINT_BYTES, Point, decode_point
from .schnorr import SCHNORR_PROOF_BYTES, SchnorrProof
from .shuffle import Deck, ShuffleProof, proof_bytes

COMMITMENT_BYTES = 32
NONCE_BYTES = 32
#: The largest "cannot play" proof: 32 * (hand + forbidden + 3) with hand + forbidden
#: at most the 91 tiles of double-twelve (spec/06-proofs.md 6.5).
MAX_CLAIM_BYTES = 32 * (91 + 3)


@dataclass(frozen=True, slots=True)
class KeyBody:
    """KEY: the seat's key share Y_i, its Schnorr proof, and its first-player commitment."""

    key_share: Point
    proof: SchnorrProof
    commitment: bytes

    def encode(self) -> list[Any]:
        return [self.key_share.data, self.proof.encode(), self.commitment]

    @classmethod
    def decode(cls, obj: Any) -> KeyBody:
        key, proof, commit = as_array(obj, 3, "key body")
        return cls(decode_point(as_bytes(key, "key share", max_len=POINT_BYTES + 1)),
                   SchnorrProof.decode(as_bytes(proof, "key proof",
                                                max_len=SCHNORR_PROOF_BYTES + 1)),
                   as_bytes(commit, "commitment", COMMITMENT_BYTES))


@dataclass(frozen=True, slots=True)
class NonceBody:
    """NONCE: the opening of the seat's first-player commitment."""

    nonce: bytes

    def encode(self) -> list[Any]:
        return [self.nonce]

    @classmethod
    def decode(cls, obj: Any) -> NonceBody:
        (nonce,) = as_array(obj, 1, "nonce body")
        return cls(as_bytes(nonce, "nonce", NONCE_BYTES))


@dataclass(frozen=True, slots=True)
class ShuffleBody:
    """SHUFFLE: the seat's output deck and its proof of shuffle."""

    deck: Deck
    proof: ShuffleProof

    def encode(self) -> list[Any]:
        return [encode_deck(self.deck), self.proof.encode()]

    @classmethod
    def decode(cls, obj: Any, n: int) -> ShuffleBody:
        deck, proof = as_array(obj, 2, "shuffle body")
        # Each field is read as at most its length plus one byte, like every byte field
        # (8.5); the decoders then check the lengths with their own codes (deck/length,
        # shuffle/length), and only a shorter deck is left for the proof's shuffle/size.
        return cls(decode_deck(as_bytes(deck, "deck", max_len=n * CIPHERTEXT_BYTES + 1)),
                   ShuffleProof.decode(as_bytes(proof, "shuffle proof",
                                                max_len=proof_bytes(n) + 1), n))


@dataclass(frozen=True, slots=True)
class ShareEntry:
    """One decryption share for one deck position, with its DLEQ proof."""

    position: int
    share: DecryptionShare

    def encode(self) -> list[Any]:
        return [self.position, self.share.share.data, self.share.proof.encode()]

    @classmethod
    def decode(cls, obj: Any) -> ShareEntry:
        position, share, proof = as_array(obj, 3, "share entry")
        return cls(as_int(position, "position", 0, 4095),
                   decode_share(share, proof))


def decode_share(share: Any, proof: Any) -> DecryptionShare:
    return DecryptionShare(decode_point(as_bytes(share, "share", max_len=POINT_BYTES + 1)),
                           DleqProof.decode(as_bytes(proof, "share proof",
                                                     max_len=DLEQ_PROOF_BYTES + 1)))


@dataclass(frozen=True, slots=True)
class SharesBody:
    """DEAL and REVEAL: decryption shares for a list of positions, ascending."""

    entries: tuple[ShareEntry, ...]

    def encode(self) -> list[Any]:
        return [e.encode() for e in self.entries]

    @classmethod
    def decode(cls, obj: Any) -> SharesBody:
        entries = tuple(ShareEntry.decode(e) for e in as_list(obj, "shares"))
        positions = [e.position for e in entries]
        if positions != sorted(set(positions)):
            raise EncodingError("body/positions", "positions must be strictly ascending")
        return cls(entries)

    @property
    def positions(self) -> list[int]:
        return [e.position for e in self.entries]


@dataclass(frozen=True, slots=True)
class MoveBody:
    """MOVE: a move id and, when the move plays a tile, the opening that proves it.

    The opening is the deck position the tile was dealt to and the mover's own
    decryption share of it: with the other seats' shares from the deal, it opens
    the position publicly, which proves the tile was the mover's and unplayed.
    """

    move_id: int
    opening: ShareEntry | None
    claim: bytes | None = None
    """A "cannot play" proof (6.5) when the rules force play and the move is none."""

    def encode(self) -> list[Any]:
        head = [self.move_id, *(self.opening.encode() if self.opening else (None,) * 3)]
        return head if self.claim is None else [*head, self.claim]

    @classmethod
    def decode(cls, obj: Any) -> MoveBody:
        items = as_list(obj, "move body", 5)
        claim = None
        if len(items) == 5:  # a claim is never nil: without one the body has 4 items
            claim = as_bytes(items[4], "claim", max_len=MAX_CLAIM_BYTES + 1)
        move_id, position, share, proof = as_array(items[:4], 4, "move body")
        move_id = as_int(move_id, "move id", 0, 1 << 20)
        if position is None and share is None and proof is None:
            return cls(move_id, None, claim)
        return cls(move_id, ShareEntry.decode([position, share, proof]), claim)


@dataclass(frozen=True, slots=True)
class CommitBody:
    """COMMIT: the seat's commitment to its orders for the stage (spec/10-session.md 10.8)."""

    commitment: bytes

    def encode(self) -> list[Any]:
        return [self.commitment]

    @classmethod
    def decode(cls, obj: Any) -> CommitBody:
        (commit,) = as_array(obj, 1, "commit body")
        return cls(as_bytes(commit, "commitment", COMMITMENT_BYTES))


#: Orders on the wire are at most this many bytes of msgpack (a pair of a 64-letter text
#: and a small integer needs 68).
MAX_ORDERS_BYTES = 128


@dataclass(frozen=True, slots=True)
class OpenBody:
    """OPEN: the orders the seat committed to and the commitment's nonce (10.8). The
    orders' shape depends on the stage; the rules decode them."""

    orders: Any
    nonce: bytes

    def encode(self) -> list[Any]:
        return [self.orders, self.nonce]

    @classmethod
    def decode(cls, obj: Any) -> OpenBody:
        orders, nonce = as_array(obj, 2, "open body")
        if len(pack(orders)) > MAX_ORDERS_BYTES:
            raise EncodingError("body/orders-size", f"orders take at most {MAX_ORDERS_BYTES} "
                                "bytes")
        return cls(orders, as_bytes(nonce, "nonce", NONCE_BYTES))


@dataclass(frozen=True, slots=True)
class AbsentBody:
    """ABSENT: the sender declares that `seat` missed its deadline in `stage` (10.8)."""

    seat: int
    stage: int

    def encode(self) -> list[Any]:
        return [self.seat, self.stage]

    @classmethod
    def decode(cls, obj: Any) -> AbsentBody:
        seat, stage = as_array(obj, 2, "absent body")
        return cls(as_int(seat, "absent seat", 0, 255), as_int(stage, "stage", 0, 1 << 16))


@dataclass(frozen=True, slots=True)
class ChooseBody:
    """CHOOSE: the token winner names the elimination candidate among the dead (10.8)."""

    seat: int

    def encode(self) -> list[Any]:
        return [self.seat]

    @classmethod
    def decode(cls, obj: Any) -> ChooseBody:
        (seat,) = as_array(obj, 1, "choose body")
        return cls(as_int(seat, "chosen seat", 0, 255))
