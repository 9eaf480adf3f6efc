"""Forced play: "cannot play" claims, proven live and audited at the end (spec/10-session.md 10.4).

When the rules say a seat must play if it can (`DrawingRules.must_play_if_able`)
and it draws or passes instead, its MOVE carries a proof (spec/06-proofs.md 6.5)
that none of its unplayed positions holds a forbidden tile: a tile that is not
public yet and that `legal_moves` would let it play. Everything in the statement
comes from the public state, so every seat and the verifier build the same one.
Each accepted claim is kept in the state; once the hands are revealed, the audit
re-judges every claim from the opened tiles.
"""

from __future__ import annotations

from .cannot_play import (
    CannotPlayProof,
    CannotPlayStatement,
    HandPosition,
    partial_opening,
    verify_cannot_play,
)
from .context import Context
from .errors import DealerlessError, Violation
from .game import Game
from .rules.base import playable_tiles
from .state import Claim, PublicState
from .tiles import Tile


def forbidden_tiles(game: Game, state: PublicState) -> tuple[Tile, ...]:
    """The tiles the seat to move could play if it held them, among those not yet public.

    A tile is public once any position has opened it (played, or revealed); tiles set
    out on the table never enter the deck. In the tile set's canonical order (5.1).
    """
    public = {t for t in state.opened if t is not None}
    hidden = [t for t in game.deck_tiles if t not in public]  # already in canonical order
    return tuple(playable_tiles(game.rules, state.rules_state, hidden))


def claim_positions(state: PublicState, seat: int) -> tuple[int, ...]:
    """The seat's unplayed positions: those it owns whose tile is not public."""
    return tuple(p for p, o in enumerate(state.owners) if o == seat and state.opened[p] is None)


def claim_statement(game: Game, state: PublicState,
                    seat: int) -> CannotPlayStatement | None:
    """What a claim by `seat` in `state` proves (6.5.1), from public data alone; None when
    there is nothing to prove (no forbidden tile, or no tile in hand)."""
    forbidden = forbidden_tiles(game, state)
    if not forbidden or not claim_positions(state, seat):
        return None
    hand = []
    for p in claim_positions(state, seat):
        others = [share for i, share in enumerate(state.shares[p]) if i != seat]
        if any(share is None for share in others):
            # Every other seat's share of a dealt or drawn position is public (10.4).
            raise Violation("claim/unopened", f"position {p} is not opened to seat {seat}",
                            seat, state.seq)
        hand.append(HandPosition(p, state.deck[p].c1,
                                 partial_opening(game.suite, state.deck[p],
                                                 [s for s in others if s is not None])))
    return CannotPlayStatement(game.suite, game.rules.tile_set, state.key_shares[seat],
                               tuple(hand),
                               forbidden)


def check_claim(game: Game, state: PublicState, seat: int, proof: bytes | None,
                ctx: Context) -> Claim | None:
    """Verify the proof of a move that says its seat cannot play (10.4 PLAY): the Claim
    to keep, or None when there was nothing to prove. Raises the proof's own errors,
    `move/missing-claim` or `move/unexpected-claim`."""
    statement = claim_statement(game, state, seat)
    if statement is None:
        if proof is not None:
            raise DealerlessError("move/unexpected-claim", "nothing is forbidden, so the "
                                  "move carries no proof")
        return None
    if proof is None:
        raise DealerlessError("move/missing-claim", "this move says the seat cannot play: "
                              "it must carry the proof (6.5)")
    verify_cannot_play(statement, CannotPlayProof.decode(proof, statement), ctx)
    return Claim(state.seq, seat, tuple(h.position for h in statement.hand),
                 statement.forbidden)


def audit(claims: tuple[Claim, ...], opened: tuple[Tile | None, ...]) -> None:
    """Re-judge every claim from the revealed tiles (10.6); the first false one is a
    violation of its claimant at the frame that made it (`audit/false-claim`).

    A claim whose proof verified cannot be false unless the proof system failed, so
    this never fires in a game that got here honestly; it is the check of last resort
    the rules of forced play ask for, and what a reader of the transcript can redo
    without any cryptography.
    """
    for claim in claims:
        for p in claim.positions:
            tile = opened[p]
            if tile is not None and tile in claim.forbidden:
                raise Violation("audit/false-claim",
                                f"seat {claim.seat} claimed it could not play, but position "
                                f"{p} held {tile[0]}-{tile[1]}", claim.seat, claim.seq)

