"""Proof that no hand tile is playable (spec/06-proofs.md section 6.5).

Theory of operation
-------------------
Seat s holds deck positions j privately opened to it (spec/05-deck.md 5.6). For
each, everyone can compute the partial opening R_j = c2_j - sum_{i != s} D_i =
M_j + x_s*c1_j. To pass or draw when the rules force play, s shows that no M_j
is any tile point P_t of a public forbidden set F, without revealing M_j.

Camenisch-Shoup would publish, for every pair (j, t), C = r*(P_t - M_j) != O with
a two-equation proof. Here one blinding scalar r serves every pair, so the pair
value splits as C_{j,t} = Q_t - K_j with

    K_j = r*M_j   (one point per hand position)
    Q_t = r*P_t   (one point per forbidden tile)

and the |hand| x |F| inequality proofs collapse into one sigma protocol for the
linear relations, in the witnesses r and a = r*x_s,

    O   = a*G   - r*Y_s
    K_j = r*R_j - a*c1_j       (so K_j = r*(R_j - x_s*c1_j) = r*M_j)
    Q_t = r*P_t

Soundness: the first relation forces a = r*x_s, received K_j and Q_t are never
O so r != 0, and K_j != Q_t (byte comparison of canonical encodings) is then
exactly M_j != P_t. Cost: O(|hand| + |F|) group operations instead of
O(|hand| * |F|), and a proof of |hand| + |F| elements and three scalars. The points K_j, Q_t
are outputs of the function P -> r*P on distinct hash-to-point inputs, which
look random under DDH: the assumption that already hides every hand (ElGamal).
The spec (6.5.6) gives the full argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from .context import Context
from .elgamal import Ciphertext
from .errors import EncodingError, LocalError, ProofError
from .groups import Element
from .suite import Suite
from .tags import Tag, lp, require_fresh, u64
from .tiles import Tile, TileSet

#: At most one hand position per tile of the largest set (double-twelve).
MAX_HAND = 91


@dataclass(frozen=True, slots=True)
class HandPosition:
    """One deck position j privately opened to the prover (spec 6.5.1).

    `c1` is the first component of the ciphertext at j; `partial` is
    R_j = c2_j - sum of every other seat's verified decryption share. R_j is the
    verifier's own value, computed from public state (see `partial_opening`).
    """

    position: int
    c1: Element
    partial: Element

    def encode(self) -> bytes:
        """u64(j) || c1_j || R_j: 72 bytes."""
        return u64(self.position) + self.c1.data + self.partial.data


@dataclass(frozen=True, slots=True)
class CannotPlayStatement:
    """The public claim of spec 6.5.1: no M_j (j in hand) equals P_t (t in forbidden).

    The prover's seat is the `seat` of the proof context; `key` is its key share
    Y_s. Positions are strictly increasing, forbidden tiles strictly increasing in
    the set's canonical order (5.1); anything else is a LocalError, since the
    verifier builds the statement from its own public state.
    """

    suite: Suite
    tile_set: TileSet
    key: Element
    hand: tuple[HandPosition, ...]
    forbidden: tuple[Tile, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.hand) <= MAX_HAND:
            raise LocalError("cannot-play/size", f"the hand has 1..{MAX_HAND} positions")
        if not 1 <= len(self.forbidden) <= len(self.tile_set.tiles):
            raise LocalError("cannot-play/size",
                             f"the forbidden set has 1..{len(self.tile_set.tiles)} tiles")
        positions = [h.position for h in self.hand]
        if any(not 0 <= p < 1 << 64 for p in positions) or any(
                a >= b for a, b in pairwise(positions)):
            raise LocalError("cannot-play/order", "positions must be strictly increasing u64")
        indices = [self.tile_set.index.get(t, -1) for t in self.forbidden]
        if -1 in indices:
            raise LocalError("tile/not-in-set", f"a forbidden tile is not in {self.tile_set.name}")
        if any(a >= b for a, b in pairwise(indices)):
            raise LocalError("cannot-play/order",
                             "forbidden tiles must be strictly increasing in canonical order")

    @property
    def forbidden_points(self) -> tuple[Element, ...]:
        return tuple(self.tile_set.point(self.suite, t) for t in self.forbidden)

    def encode(self, ctx: Context) -> bytes:
        """stmt = ctx || G || Y_s || lp(set) || lp(hand block) || lp(forbidden block)."""
        hand = b"".join(h.encode() for h in self.hand)
        forbidden = b"".join(bytes(t) + p.data
                             for t, p in zip(self.forbidden, self.forbidden_points, strict=True))
        return (ctx.encode() + self.suite.group.generator.data + self.key.data
                + lp(self.tile_set.name.encode()) + lp(hand) + lp(forbidden))


@dataclass(frozen=True, slots=True)
class CannotPlayProof:
    """(K_0..K_{h-1}, Q_0..Q_{f-1}, c, z_r, z_a) of spec 6.5.3."""

    blinded_hand: tuple[Element, ...]
    """K_j = r*M_j, one per hand position, in statement order."""
    blinded_forbidden: tuple[Element, ...]
    """Q_t = r*P_t, one per forbidden tile, in statement order."""
    c: int
    z_r: int
    z_a: int

    def encode(self, suite: Suite) -> bytes:
        """K_0 || .. || K_{h-1} || Q_0 || .. || Q_{f-1} || c || z_r || z_a (spec 6.5.4)."""
        return (b"".join(p.data for p in self.blinded_hand + self.blinded_forbidden)
                + b"".join(map(suite.encode_scalar, (self.c, self.z_r, self.z_a))))

    @classmethod
    def decode(cls, data: bytes, statement: CannotPlayStatement) -> CannotPlayProof:
        """Strict decoding for the statement's sizes (spec 6.5.4): exact length, then
        every point by 2.3 and every scalar by 2.4, in order."""
        h, f = len(statement.hand), len(statement.forbidden)
        suite = statement.suite
        pw, sw = suite.point_bytes, suite.scalar_bytes
        size = pw * (h + f) + 3 * sw
        if not isinstance(data, bytes) or len(data) != size:
            raise EncodingError("cannot-play/length",
                                f"a proof for {h} positions and {f} tiles is {size} bytes")
        off = pw * (h + f)
        points = tuple(suite.decode_point(data[i:i + pw]) for i in range(0, off, pw))
        c, z_r, z_a = (suite.decode_scalar(data[off + i:off + i + sw])
                       for i in range(0, 3 * sw, sw))
        return cls(points[:h], points[h:], c, z_r, z_a)


def partial_opening(suite: Suite, ct: Ciphertext, other_shares: Sequence[Element]) -> Element:
    """R_j = c2 - sum of the other seats' verified shares (spec 5.6, 6.5.1)."""
    return suite.group.sub(ct.c2, suite.group.sum(other_shares))


@dataclass(frozen=True, slots=True)
class _Commitments:
    t0: Element
    t_hand: tuple[Element, ...]
    u_forbidden: tuple[Element, ...]


def _challenge(statement: CannotPlayStatement, ctx: Context, proof_k: tuple[Element, ...],
               proof_q: tuple[Element, ...], com: _Commitments) -> int:
    """c = H_scalar(CANNOT_PLAY, stmt, K block, Q block, T_0, T block, U block)."""
    return statement.suite.hash_to_scalar(
        Tag.CANNOT_PLAY, statement.encode(ctx), b"".join(p.data for p in proof_k),
        b"".join(p.data for p in proof_q), com.t0.data, b"".join(p.data for p in com.t_hand),
        b"".join(p.data for p in com.u_forbidden))


def prove_cannot_play(secret: int, statement: CannotPlayStatement, ctx: Context,
                      fresh: bytes) -> CannotPlayProof:
    """Prove the statement with key share `secret` = x_s (spec 6.5.3).

    Refuses (LocalError `cannot-play/witness`) unless `secret` is the key behind
    `statement.key` and no hand position holds a forbidden tile: a seat that can
    play never gets a proof out of this function.
    """
    require_fresh(fresh)
    g = statement.suite.group
    secret %= g.order
    if g.base_mul(secret) != statement.key:
        raise LocalError("cannot-play/witness", "the secret is not the key share's")
    plain = _hand_points(secret, statement)
    forbidden = set(statement.forbidden)
    for h, m in zip(statement.hand, plain, strict=True):
        held = statement.tile_set.decode(statement.suite, m)
        if held in forbidden:
            raise LocalError("cannot-play/witness",
                             f"position {h.position} holds the forbidden tile {held}")
    return _prove(secret, statement, ctx, fresh, plain)


def _hand_points(secret: int, statement: CannotPlayStatement) -> tuple[Element, ...]:
    """M_j = R_j - x_s*c1_j: the prover's own tiles."""
    g = statement.suite.group
    return tuple(g.sub(h.partial, g.mul(secret, h.c1)) for h in statement.hand)


def _prove_unchecked(secret: int, statement: CannotPlayStatement, ctx: Context,
                     fresh: bytes) -> CannotPlayProof:
    """The prover of 6.5.3 without the witness check; tests and vectors use it to
    build the proof of a false claim, which verification must reject."""
    secret %= statement.suite.order
    return _prove(secret, statement, ctx, fresh, _hand_points(secret, statement))


def _prove(secret: int, statement: CannotPlayStatement, ctx: Context, fresh: bytes,
           plain: tuple[Element, ...]) -> CannotPlayProof:
    require_fresh(fresh)
    suite, g = statement.suite, statement.suite.group
    stmt = statement.encode(ctx)
    r, k_r, k_a = suite.nonce_scalars(Tag.CANNOT_PLAY.value, suite.encode_scalar(secret), stmt,
                                      fresh, 3)
    if r == 0:  # probability 2^-252; K_j and Q_t would be O
        raise LocalError("cannot-play/nonce", "the blinding scalar r is zero")
    a = r * secret % g.order
    blinded_hand = tuple(g.mul(r, m) for m in plain)
    points = statement.forbidden_points
    blinded_forbidden = tuple(g.mul(r, p) for p in points)
    com = _Commitments(
        g.base_mul(k_a - k_r * secret),          # = k_a*G - k_r*Y_s
        tuple(g.sub(g.mul(k_r, h.partial), g.mul(k_a, h.c1)) for h in statement.hand),
        tuple(g.mul(k_r, p) for p in points))
    c = _challenge(statement, ctx, blinded_hand, blinded_forbidden, com)
    return CannotPlayProof(blinded_hand, blinded_forbidden, c, (k_r + c * r) % g.order,
                           (k_a + c * a) % g.order)


def recompute_commitments(statement: CannotPlayStatement,
                          proof: CannotPlayProof) -> tuple[Element, ...]:
    """T_0', T_0'..T_{h-1}', U_0'..U_{f-1}' of spec 6.5.5, in hashed order."""
    com = _recompute(statement, proof)
    return (com.t0, *com.t_hand, *com.u_forbidden)


def _recompute(statement: CannotPlayStatement, proof: CannotPlayProof) -> _Commitments:
    if (len(proof.blinded_hand) != len(statement.hand)
            or len(proof.blinded_forbidden) != len(statement.forbidden)):
        raise EncodingError("cannot-play/length", "the proof does not fit the statement")
    g = statement.suite.group
    c, z_r, z_a = proof.c, proof.z_r, proof.z_a
    return _Commitments(
        g.sub(g.base_mul(z_a), g.mul(z_r, statement.key)),
        tuple(g.sub(g.sub(g.mul(z_r, h.partial), g.mul(z_a, h.c1)), g.mul(c, k))
              for h, k in zip(statement.hand, proof.blinded_hand, strict=True)),
        tuple(g.sub(g.mul(z_r, p), g.mul(c, q))
              for p, q in zip(statement.forbidden_points, proof.blinded_forbidden,
                              strict=True)))


def verify_cannot_play(statement: CannotPlayStatement, proof: CannotPlayProof,
                       ctx: Context) -> None:
    """Raise unless `proof` shows that no hand position holds a forbidden tile (6.5.5).

    `cannot-play/challenge`: the recomputed challenge differs; `cannot-play/identity`:
    a valid proof in which some C_{j,t} = Q_t - K_j is O, i.e. position j holds t.
    """
    com = _recompute(statement, proof)
    if _challenge(statement, ctx, proof.blinded_hand, proof.blinded_forbidden, com) != proof.c:
        raise ProofError("cannot-play/challenge", "recomputed challenge differs")
    blinded = {q.data: t for q, t in zip(proof.blinded_forbidden, statement.forbidden,
                                         strict=True)}
    for h, k in zip(statement.hand, proof.blinded_hand, strict=True):
        if k.data in blinded:
            raise ProofError("cannot-play/identity",
                             f"C = O: position {h.position} holds a forbidden tile")
