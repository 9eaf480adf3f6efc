"""Frame bodies: one class per message type (spec/08-wire.md section 8.5).

Each body is a frozen dataclass with `encode()` to a canonical-msgpack value
and a strict `decode()` that validates every point and scalar, so a body that
decodes is well-formed and a body that is not cannot be built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .canonical import as_array, as_bytes, as_int, as_list
from .deck import DecryptionShare
from .dleq import DleqProof, dleq_proof_bytes
from .elgamal import ciphertext_bytes, decode_deck, encode_deck
from .errors import EncodingError
from .groups import Element
from .schnorr import SchnorrProof, schnorr_proof_bytes
from .seal import DecryptionShare as SealShare
from .seal import Seal, SealContext, SealProof
from .sealed import decode_seal
from .shuffle import Deck, ShuffleProof, proof_bytes
from .suite import Suite

COMMITMENT_BYTES = 32
NONCE_BYTES = 32


def max_claim_bytes(suite: Suite) -> int:
    """The largest "cannot play" proof: hand + forbidden elements, at most the 91 tiles of
    double-twelve, and three scalars (spec/06-proofs.md 6.5)."""
    return 91 * suite.point_bytes + 3 * suite.scalar_bytes


@dataclass(frozen=True, slots=True)
class KeyBody:
    """KEY: the seat's key share Y_i, its Schnorr proof, and its first-player commitment."""

    key_share: Element
    proof: SchnorrProof
    commitment: bytes

    def encode(self, suite: Suite) -> list[Any]:
        return [self.key_share.data, self.proof.encode(suite), self.commitment]

    @classmethod
    def decode(cls, suite: Suite, obj: Any) -> KeyBody:
        key, proof, commit = as_array(obj, 3, "key body")
        return cls(suite.decode_point(as_bytes(key, "key share",
                                               max_len=suite.point_bytes + 1)),
                   SchnorrProof.decode(suite, as_bytes(proof, "key proof",
                                                       max_len=schnorr_proof_bytes(suite) + 1)),
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

    def encode(self, suite: Suite) -> list[Any]:
        return [encode_deck(self.deck), self.proof.encode(suite)]

    @classmethod
    def decode(cls, suite: Suite, obj: Any, n: int) -> ShuffleBody:
        deck, proof = as_array(obj, 2, "shuffle body")
        # Each field is read as at most its length plus one byte, like every byte field
        # (8.5); the decoders then check the lengths with their own codes (deck/length,
        # shuffle/length), and only a shorter deck is left for the proof's shuffle/size.
        return cls(decode_deck(suite, as_bytes(deck, "deck",
                                               max_len=n * ciphertext_bytes(suite) + 1)),
                   ShuffleProof.decode(suite, as_bytes(proof, "shuffle proof",
                                                       max_len=proof_bytes(suite, n) + 1), n))


@dataclass(frozen=True, slots=True)
class ShareEntry:
    """One decryption share for one deck position, with its DLEQ proof."""

    position: int
    share: DecryptionShare

    def encode(self, suite: Suite) -> list[Any]:
        return [self.position, self.share.share.data, self.share.proof.encode(suite)]

    @classmethod
    def decode(cls, suite: Suite, obj: Any) -> ShareEntry:
        position, share, proof = as_array(obj, 3, "share entry")
        return cls(as_int(position, "position", 0, 4095),
                   decode_share(suite, share, proof))


def decode_share(suite: Suite, share: Any, proof: Any) -> DecryptionShare:
    return DecryptionShare(
        _decode_point(suite, share, "share"),
        DleqProof.decode(suite, as_bytes(proof, "share proof",
                                         max_len=dleq_proof_bytes(suite) + 1)))


@dataclass(frozen=True, slots=True)
class SharesBody:
    """DEAL, REVEAL and DRAW: decryption shares for a list of positions, ascending.

    In dealerless/2 each share carries its own DLEQ proof (`proofs` holds one a share);
    from dealerless/3 one batched proof covers them all (6.3.1: `proofs` holds one, or
    none for an empty list). The suite's version picks the wire form (8.5).
    """

    positions: tuple[int, ...]
    shares: tuple[Element, ...]
    proofs: tuple[DleqProof, ...]

    def encode(self, suite: Suite) -> list[Any]:
        if suite.version < 3:
            return [[p, d.data, pr.encode(suite)]
                    for p, d, pr in zip(self.positions, self.shares, self.proofs, strict=True)]
        rows = [[p, d.data] for p, d in zip(self.positions, self.shares, strict=True)]
        return [rows, self.proofs[0].encode(suite) if self.proofs else None]

    @classmethod
    def decode(cls, suite: Suite, obj: Any) -> SharesBody:
        if suite.version < 3:
            entries = [ShareEntry.decode(suite, e) for e in as_list(obj, "shares")]
            body = cls(tuple(e.position for e in entries),
                       tuple(e.share.share for e in entries),
                       tuple(e.share.proof for e in entries))
        else:
            rows, proof = as_array(obj, 2, "shares body")
            pairs = [_batch_entry(suite, r) for r in as_list(rows, "shares")]
            body = cls(tuple(p for p, _ in pairs), tuple(d for _, d in pairs),
                       _batch_proof(suite, proof, len(pairs)))
        if list(body.positions) != sorted(set(body.positions)):
            raise EncodingError("body/positions", "positions must be strictly ascending")
        return body


def _decode_point(suite: Suite, data: Any, what: str) -> Element:
    return suite.decode_point(as_bytes(data, what, max_len=suite.point_bytes + 1))


def _batch_entry(suite: Suite, obj: Any) -> tuple[int, Element]:
    position, share = as_array(obj, 2, "share entry")
    return as_int(position, "position", 0, 4095), _decode_point(suite, share, "share")


def _batch_proof(suite: Suite, proof: Any, n: int) -> tuple[DleqProof, ...]:
    """nil for no shares, else one DLEQ proof (8.5): a proof that is not nil is read as
    bytes first, and only then is its presence checked against the shares."""
    data = None if proof is None else as_bytes(proof, "share proof",
                                               max_len=dleq_proof_bytes(suite) + 1)
    if data is None and n == 0:
        return ()
    if data is None or n == 0:
        raise EncodingError("dleq/length", "a batch of shares carries one DLEQ proof, and "
                            "an empty batch none (nil)")
    return (DleqProof.decode(suite, data),)


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

    def encode(self, suite: Suite) -> list[Any]:
        head = [self.move_id, *(self.opening.encode(suite) if self.opening else (None,) * 3)]
        return head if self.claim is None else [*head, self.claim]

    @classmethod
    def decode(cls, suite: Suite, obj: Any) -> MoveBody:
        items = as_list(obj, "move body", 5)
        claim = None
        if len(items) == 5:  # a claim is never nil: without one the body has 4 items
            claim = as_bytes(items[4], "claim", max_len=max_claim_bytes(suite) + 1)
        move_id, position, share, proof = as_array(items[:4], 4, "move body")
        move_id = as_int(move_id, "move id", 0, 1 << 20)
        if position is None and share is None and proof is None:
            return cls(move_id, None, claim)
        return cls(move_id, ShareEntry.decode(suite, [position, share, proof]), claim)


@dataclass(frozen=True, slots=True)
class SealKeyBody:
    """KEY of a simultaneous game: the seat's share key y and its proof of possession
    (spec/10-session.md 10.8, 06-proofs.md 6.6.2)."""

    key: Element
    proof: SealProof

    def encode(self, suite: Suite) -> list[Any]:
        return [self.key.data, *self.proof.encode(suite)]

    @classmethod
    def decode(cls, suite: Suite, obj: Any) -> SealKeyBody:
        key, c, z = as_array(obj, 3, "share key body")
        width = suite.scalar_bytes + 1
        return cls(suite.decode_point(as_bytes(key, "share key",
                                               max_len=suite.point_bytes + 1)),
                   SealProof.decode(suite, as_bytes(c, "key proof c", max_len=width),
                                    as_bytes(z, "key proof z", max_len=width)))


@dataclass(frozen=True, slots=True)
class CommitBody:
    """COMMIT: the seat's seal of its orders and nonce for the stage (10.8, 6.6.5)."""

    seal: Seal

    def encode(self, suite: Suite) -> list[Any]:
        return self.seal.encode(suite)

    @classmethod
    def decode(cls, obj: Any, ctx: SealContext) -> CommitBody:
        """Strictly, for the seal's context; SealError blames the committer."""
        return cls(decode_seal(obj, ctx))


@dataclass(frozen=True, slots=True)
class OpenBody:
    """OPEN: the seal secret s of the seat's COMMIT; the orders and nonce come from the
    seal (10.8, 6.6.6)."""

    secret: int

    def encode(self, suite: Suite) -> list[Any]:
        return [suite.encode_scalar(self.secret)]

    @classmethod
    def decode(cls, suite: Suite, obj: Any) -> OpenBody:
        (secret,) = as_array(obj, 1, "open body")
        return cls(suite.decode_scalar(as_bytes(secret, "seal secret",
                                                max_len=suite.scalar_bytes + 1)))


@dataclass(frozen=True, slots=True)
class AbsentBody:
    """ABSENT: the sender declares that `seat` missed its deadline in `stage` (10.8);
    against a sealed OPEN it carries the sender's decryption share of that seat's seal."""

    seat: int
    stage: int
    share: SealShare | None = None

    def encode(self, suite: Suite) -> list[Any]:
        head: list[Any] = [self.seat, self.stage]
        return head if self.share is None else [*head, self.share.encode(suite)]

    @classmethod
    def decode(cls, suite: Suite, obj: Any, sender: int) -> AbsentBody:
        """Strictly; a decryption share by 6.6.7 checks 1-2, blaming `sender`."""
        items = as_list(obj, "absent body", 3)
        if len(items) < 2:
            raise EncodingError("schema/array", "absent body: [seat, stage] or "
                                "[seat, stage, decryption share]")
        seat = as_int(items[0], "absent seat", 0, 255)
        stage = as_int(items[1], "stage", 0, 1 << 16)
        if len(items) == 2:
            return cls(seat, stage)
        return cls(seat, stage, SealShare.decode(suite, items[2], sender))


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
