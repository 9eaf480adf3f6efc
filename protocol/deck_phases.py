"""The deck game's phases, handler by handler (spec/10-session.md 10.2 and 10.4).

Every handler takes (game, state, frame) and returns the next state, or raises a
DealerlessError that the session blames on the frame's sender. In KEYS, NONCES,
SHUFFLE, DEAL and REVEAL the seats send in seat order; in PLAY the rules say who
moves; a move that draws opens the lowest boneyard position to its drawer (DRAW)
before play goes on. Once every seat has revealed, `deck_outcome` scores the
opened hands (10.6).
"""

from __future__ import annotations

from collections.abc import Callable

from .claims import audit, check_claim
from .deck import initial_deck, joint_key, open_tile, verify_share, verify_shares
from .errors import DealerlessError, EncodingError, LocalError
from .frames import Frame
from .game import Game
from .groups import Element
from .messages import KeyBody, MoveBody, NonceBody, SharesBody, ShuffleBody
from .rules.base import DrawingRules, Outcome
from .schnorr import verify_key
from .shuffle import verify_shuffle
from .state import BONEYARD, HIDDEN, Phase, PublicState
from .suite import Suite
from .tags import Tag
from .tiles import Tile


def commitment(suite: Suite, game_id: bytes, seat: int, nonce: bytes) -> bytes:
    """The first-player commitment H(COMMIT, game_id, u8 seat, nonce), 32 bytes."""
    return suite.H(Tag.COMMIT, game_id, bytes([seat]), nonce)[:32]


def first_player(suite: Suite, game_id: bytes, nonces: tuple[bytes, ...]) -> int:
    """H(FIRST_PLAYER, game_id, nonce_0, ..., nonce_{k-1}) mod k: uniform if one seat is."""
    return int.from_bytes(suite.H(Tag.FIRST_PLAYER, game_id, *nonces), "big") % len(nonces)


def _next_in_order(game: Game, state: PublicState, done: int,
                   then: Callable[[], PublicState]) -> PublicState:
    """Seat-order phases: the next seat owes, or the phase ends and `then` decides."""
    return state.with_(turn=done) if done < game.seats else then()


def on_key(game: Game, state: PublicState, frame: Frame) -> PublicState:
    body = KeyBody.decode(game.suite, frame.body)
    verify_key(body.key_share, body.proof, game.ctx(frame))
    state = state.with_(key_shares=(*state.key_shares, body.key_share),
                        commitments=(*state.commitments, body.commitment))

    def keys_done() -> PublicState:
        # Raises deck/joint-key-identity, blamed on the last seat.
        joint_key(game.suite, state.key_shares)
        return state.with_(phase=Phase.NONCES, turn=0)

    return _next_in_order(game, state, len(state.key_shares), keys_done)


def on_nonce(game: Game, state: PublicState, frame: Frame) -> PublicState:
    body = NonceBody.decode(frame.body)
    if commitment(game.suite, game.game_id, frame.seat,
                  body.nonce) != state.commitments[frame.seat]:
        raise DealerlessError("nonce/commitment-mismatch",
                              "the nonce does not open the seat's commitment")
    state = state.with_(nonces=(*state.nonces, body.nonce))

    def nonces_done() -> PublicState:
        ts = game.rules.tile_set
        deck = initial_deck(game.suite, ts, game.deck_tiles,
                            joint_key(game.suite, state.key_shares))
        return state.with_(phase=Phase.SHUFFLE, turn=0, deck=deck,
                           first_player=game.rules.first_player(
                               first_player(game.suite, game.game_id, state.nonces)))

    return _next_in_order(game, state, len(state.nonces), nonces_done)


def on_shuffle(game: Game, state: PublicState, frame: Frame) -> PublicState:
    body = ShuffleBody.decode(game.suite, frame.body, len(state.deck))
    verify_shuffle(state.deck, body.deck, joint_key(game.suite, state.key_shares), body.proof,
                   game.ctx(frame))
    state = state.with_(deck=body.deck)
    return _next_in_order(game, state, frame.seat + 1,
                          lambda: state.with_(phase=Phase.DEAL, turn=0))


def _with_shares(game: Game, state: PublicState, frame: Frame, body: SharesBody,
                 expected: list[int], what: str) -> list[list[Element | None]]:
    """Check that `body` covers exactly `expected` and every share's proof; return shares."""
    if list(body.positions) != expected:
        raise DealerlessError(f"{what}/positions",
                              f"expected shares for positions {expected}, got "
                              f"{list(body.positions)}")
    verify_shares(state.key_shares[frame.seat], [state.deck[p] for p in body.positions],
                  body.shares, body.proofs, game.ctx(frame))
    shares = [list(row) for row in state.shares]
    for p, d in zip(body.positions, body.shares, strict=True):
        shares[p][frame.seat] = d
    return shares


def on_deal(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """Seat i publishes its share of every position dealt to another seat (section 10.4)."""
    body = SharesBody.decode(game.suite, frame.body)
    expected = [p for p, o in enumerate(state.owners) if o >= 0 and o != frame.seat]
    shares = _with_shares(game, state, frame, body, expected, "deal")
    state = state.with_(shares=tuple(tuple(r) for r in shares))

    def deal_done() -> PublicState:
        if state.first_player is None:
            raise LocalError("session/state", "no first player after the nonce phase")
        rs = game.rules.initial_state(state.first_player)
        return state.with_(phase=Phase.PLAY, rules_state=rs, turn=game.rules.to_move(rs))

    return _next_in_order(game, state, frame.seat + 1, deal_done)


def on_move(game: Game, state: PublicState, frame: Frame) -> PublicState:
    body = MoveBody.decode(game.suite, frame.body)
    rules = game.rules
    try:
        move = rules.move_from_id(body.move_id)
    except (EncodingError, LocalError) as exc:
        raise DealerlessError("move/unknown-id", exc.detail) from None
    if isinstance(rules, DrawingRules) and rules.must_play_if_able(state.rules_state,
                                                                   frame.seat, move):
        claim = check_claim(game, state, frame.seat, body.claim, game.ctx(frame))
        if claim is not None:
            state = state.with_(claims=(*state.claims, claim))
    elif body.claim is not None:
        raise DealerlessError("move/unexpected-claim", "this move claims nothing")
    tile = rules.played_tile(move)
    shares, opened, played = state.shares, state.opened, state.played
    if tile is None:
        if body.opening is not None:
            raise DealerlessError("move/unexpected-opening", "this move plays no tile")
    else:
        if body.opening is None:
            raise DealerlessError("move/missing-opening",
                                  "a tile played must be opened with the mover's share")
        p = body.opening.position
        if p >= len(state.owners) or state.owners[p] != frame.seat:
            raise DealerlessError("move/not-dealt-to-seat",
                                  f"position {p} was not dealt to seat {frame.seat}")
        if state.opened[p] is not None:
            raise DealerlessError("move/already-played",
                                  f"position {p} was already played ({state.opened[p]})")
        verify_share(state.key_shares[frame.seat], state.deck[p], body.opening.share,
                     game.ctx(frame))
        row = list(state.shares[p])
        row[frame.seat] = body.opening.share.share
        got = open_tile(game.suite, rules.tile_set, state.deck[p],
                        [s for s in row if s is not None])
        if got != tile:
            raise DealerlessError("move/tile-mismatch",
                                  f"position {p} holds {got}, not the {tile} claimed")
        shares = (*state.shares[:p], tuple(row), *state.shares[p + 1:])
        opened = (*state.opened[:p], got, *state.opened[p + 1:])
        played = (*state.played[:p], True, *state.played[p + 1:])
    rs = rules.apply(state.rules_state, frame.seat, move)
    state = state.with_(rules_state=rs, shares=shares, opened=opened, played=played)
    if isinstance(rules, DrawingRules) and rules.draws(move):
        return _start_draw(game, state, frame.seat)
    if rules.is_over(rs):
        return state.with_(phase=Phase.REVEAL, turn=0)
    return state.with_(turn=rules.to_move(rs))


def _start_draw(game: Game, state: PublicState, seat: int) -> PublicState:
    """The lowest boneyard position becomes `seat`'s; the others open it to it (10.4 DRAW)."""
    p = next((p for p, o in enumerate(state.owners) if o == BONEYARD), None)
    if p is None:
        # The rules let a seat draw from an empty pile: their count and ours disagree.
        raise LocalError("session/boneyard", "the rules allowed a draw from an empty pile")
    owners = (*state.owners[:p], seat, *state.owners[p + 1:])
    return state.with_(phase=Phase.DRAW, drawing=p, owners=owners,
                       turn=_next_sharer(game, seat, -1))


def _next_sharer(game: Game, drawer: int, after: int) -> int | None:
    """The next seat after `after`, in seat order, that owes the drawer its share."""
    return next((s for s in range(after + 1, game.seats) if s != drawer), None)


def on_draw(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """A seat's share of the position being drawn, with its DLEQ proof (10.4 DRAW)."""
    p = state.drawing
    if p is None:
        raise LocalError("session/state", "no position is being drawn")
    body = SharesBody.decode(game.suite, frame.body)
    shares = _with_shares(game, state, frame, body, [p], "draw")
    state = state.with_(shares=tuple(tuple(r) for r in shares))
    drawer = state.owners[p]
    following = _next_sharer(game, drawer, frame.seat)
    if following is not None:
        return state.with_(turn=following)
    return state.with_(phase=Phase.PLAY, drawing=None,
                       turn=game.rules.to_move(state.rules_state))


def on_reveal(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """Seat i opens its unplayed positions and adds its share of the hidden ones."""
    body = SharesBody.decode(game.suite, frame.body)
    seat = frame.seat
    expected = [p for p, o in enumerate(state.owners)
                if (o == seat and state.opened[p] is None) or o == HIDDEN]
    shares = _with_shares(game, state, frame, body, expected, "reveal")
    opened = list(state.opened)
    for p in expected:
        if all(s is not None for s in shares[p]):
            opened[p] = open_tile(game.suite, game.rules.tile_set, state.deck[p],
                                  [s for s in shares[p] if s is not None])
    state = state.with_(shares=tuple(tuple(r) for r in shares), opened=tuple(opened))

    def reveal_done() -> PublicState:
        done = state.with_(phase=Phase.DONE, turn=None)
        audit(done.claims, done.opened)  # every "cannot play" claim, re-judged in the open
        deck_outcome(game, done)  # the revealed tiles must fit the public state
        return done

    return _next_in_order(game, state, seat + 1, reveal_done)



def deck_outcome(game: Game, state: PublicState) -> Outcome:
    """The rules' outcome from the opened tiles of a finished deck game (10.6): each
    unplayed position's tile joins its seat's hand, or the hidden tiles.

    Raises RuleViolation (rules/reveal-mismatch) if the opened tiles do not fit
    the public state, which the proofs make impossible for a game that got here.
    """
    hands: list[list[Tile]] = [[] for _ in range(game.seats)]
    hidden: list[Tile] = []
    for p, owner in enumerate(state.owners):
        tile = state.opened[p]
        if tile is None or state.played[p]:
            continue
        if owner >= 0:
            hands[owner].append(tile)
        elif owner == HIDDEN:
            hidden.append(tile)
    return game.rules.outcome(state.rules_state, hands, hidden)
