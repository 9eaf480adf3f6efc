"""Joint key, initial deck, shuffle rounds and openings (spec/05-deck.md).

Each seat i holds a key share x_i with public Y_i = x_i*G; the deck is
encrypted under Y = sum Y_i, so opening a position needs a decryption share
D_i = x_i*c1 from every seat. A *private* opening to seat s publishes every
share except s's own: only s can finish the decryption. A *public* opening
publishes all of them. Every published share carries a DLEQ proof.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .context import Context
from .dleq import DleqProof, prove_dleq, verify_dleq
from .dleq_batch import prove_dleq_batch, verify_dleq_batch
from .elgamal import Ciphertext
from .errors import DeckError, LocalError
from .groups import Element
from .shuffle import (
    Deck,
    ShuffleProof,
    apply_shuffle,
    derive_witness,
    prove_shuffle,
    shuffle_hedge,
)
from .suite import Suite
from .tiles import Tile, TileSet

MIN_SEATS = 2
MAX_SEATS = 8


def joint_key(suite: Suite, keys: Sequence[Element]) -> Element:
    """Y = sum Y_i over 2..8 key shares; never the identity (spec/05-deck.md 5.3)."""
    if not MIN_SEATS <= len(keys) <= MAX_SEATS:
        raise LocalError("deck/seats", f"a game has {MIN_SEATS} to {MAX_SEATS} seats")
    y = suite.group.sum(keys)
    if y == suite.group.identity:
        # Only possible if the shares cancel, which a Schnorr-proven set of keys
        # cannot do by accident; refusing it keeps every tile from being public.
        raise DeckError("deck/joint-key-identity", "the joint key is the identity")
    return y


def initial_deck(suite: Suite, ts: TileSet, tiles: Sequence[Tile], key: Element) -> Deck:
    """(G, M_t + Y) for each tile, in the given order (spec/05-deck.md 5.4).

    The randomness is the public value 1, since (identity, M_t) would not be a
    valid encoding; the first shuffle round makes it secret.
    """
    if len(set(tiles)) != len(tiles) or not tiles:
        raise LocalError("deck/tiles", "the deck needs distinct tiles")
    g = suite.group
    return tuple(Ciphertext(g.generator, g.add(ts.point(suite, t), key)) for t in tiles)


def shuffle_round(deck: Deck, key: Element, ctx: Context, fresh: bytes,
                  secret: bytes) -> tuple[Deck, ShuffleProof]:
    """One seat's shuffle: permute and re-encrypt `deck`, and prove it.

    `fresh` must be at least 32 bytes from a CSPRNG (or a fixed seed in tests).
    The permutation and re-encryption randomness come from it hedged with the
    seat's `secret`, the context and the deck (7.3); the proof nonces are hedged
    with the witness and the statement (3.4).
    """
    witness = derive_witness(ctx.suite, len(deck), fresh, shuffle_hedge(secret, ctx, deck))
    out = apply_shuffle(ctx.suite, deck, key, witness)
    return out, prove_shuffle(deck, out, key, witness, ctx, fresh)


@dataclass(frozen=True, slots=True)
class DecryptionShare:
    """D_i = x_i*c1 with its DLEQ proof against the seat's key share Y_i."""

    share: Element
    proof: DleqProof


def make_share(secret: int, ct: Ciphertext, ctx: Context, fresh: bytes) -> DecryptionShare:
    share, proof = prove_dleq(secret, ct.c1, ctx, fresh)
    return DecryptionShare(share, proof)


def verify_share(key_share: Element, ct: Ciphertext, ds: DecryptionShare, ctx: Context) -> None:
    """Raise ProofError unless ds.share = x_i*c1 for the x_i behind key_share."""
    verify_dleq(key_share, ct.c1, ds.share, ds.proof, ctx)


def make_shares(secret: int, cts: Sequence[Ciphertext], ctx: Context,
                fresh: bytes) -> tuple[list[Element], list[DleqProof]]:
    """A seat's shares of `cts` with their proofs: one a share in dealerless/2 (6.3), one
    batched proof for all from dealerless/3 (6.3.1), none for no shares."""
    if ctx.suite.version < 3:
        made = [make_share(secret, ct, ctx, fresh) for ct in cts]
        return [d.share for d in made], [d.proof for d in made]
    if not cts:
        return [], []
    shares, proof = prove_dleq_batch(secret, [ct.c1 for ct in cts], ctx, fresh)
    return shares, [proof]


def verify_shares(key_share: Element, cts: Sequence[Ciphertext], shares: Sequence[Element],
                  proofs: Sequence[DleqProof], ctx: Context) -> None:
    """Raise ProofError unless every share is x_i*c1 of its ciphertext (6.3 or 6.3.1).

    The proofs are as many as the wire form of the version has them (8.5 decoding).
    """
    if ctx.suite.version < 3:
        for ct, d, proof in zip(cts, shares, proofs, strict=True):
            verify_share(key_share, ct, DecryptionShare(d, proof), ctx)
    elif shares or proofs:
        if len(proofs) != 1:
            raise LocalError("dleq/batch", "a batch of shares carries exactly one proof")
        verify_dleq_batch(key_share, [ct.c1 for ct in cts], shares, proofs[0], ctx)


def own_share(suite: Suite, secret: int, ct: Ciphertext) -> Element:
    """The share a seat computes privately to finish a private opening."""
    return suite.group.mul(secret, ct.c1)


def open_tile(suite: Suite, ts: TileSet, ct: Ciphertext, shares: Sequence[Element]) -> Tile:
    """M = c2 - sum D_i, decoded to a tile. `shares` must hold one per seat."""
    g = suite.group
    return ts.decode(suite, g.sub(ct.c2, g.sum(shares)))
