"""The session: one sans-IO state machine for every seat and the verifier (spec/10-session.md).

Theory of operation
-------------------
`step(game, state, wire)` is the whole protocol: it takes the public state and
one frame's bytes and returns the next state, or raises a Violation naming the
seat to blame, the frame and the rule. It never knows which seat "we" are, so
the same code judges our own frames, the other seats' frames, and a
transcript replayed by a stranger. A single step needs nothing but the state it
starts from, which is what makes the one-frame dispute check possible.

The phase machine is the table `PHASES`: (phase, message type) -> handler.
A frame whose (phase, type) pair is not in the table is a violation. Within a
phase the turn order is fixed (seat order, or the rules' turn in PLAY), so at
every point exactly one seat owes exactly one kind of message: `awaiting`.

The checks of `step` are numbered as in spec/10-session.md section 10.5; the
comments below quote those numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .claims import audit, check_claim
from .context import Context
from .deck import initial_deck, joint_key, open_tile, verify_share
from .errors import DealerlessError, EncodingError, LocalError, Violation
from .frames import Frame, MessageType, parse_frame, signed_message
from .group import Point
from .hashing import H, Tag
from .identity import SignatureError, verify_signature
from .messages import (
    AbsentBody,
    ChooseBody,
    CommitBody,
    KeyBody,
    MoveBody,
    NonceBody,
    OpenBody,
    SharesBody,
    ShuffleBody,
)
from .rules.base import DrawingRules, Outcome, RuleSet
from .rules.mined_games import MinedGamesRules, MinedOutcome, MinedState
from .rules.mined_games import commitment as orders_commitment
from .schnorr import verify_key
from .setup import GameSetup
from .shuffle import verify_shuffle
from .state import BONEYARD, HIDDEN, STAGE_PHASES, Phase, PublicState
from .tiles import Tile


@dataclass(frozen=True)
class Game:
    """The fixed facts of one game, derived from its setup."""

    setup: GameSetup

    @cached_property
    def rules(self) -> RuleSet[Any, Any]:
        ruleset: RuleSet[Any, Any] = self.setup.ruleset
        return ruleset

    @property
    def seats(self) -> int:
        return self.setup.seats

    @property
    def game_id(self) -> bytes:
        return self.setup.game_id

    @property
    def simultaneous(self) -> bool:
        """A rule set of simultaneous orders by commit-reveal, with no deck (10.8)."""
        return isinstance(self.rules, MinedGamesRules)

    @property
    def stages(self) -> MinedGamesRules:
        """The rules of a simultaneous game (10.8)."""
        if not isinstance(self.rules, MinedGamesRules):
            raise LocalError("session/not-simultaneous", "a deck game has no stages")
        return self.rules

    @cached_property
    def deck_tiles(self) -> tuple[Tile, ...]:
        if self.simultaneous:
            return ()
        return self.rules.deal.deck_tiles(self.rules.tile_set)

    @cached_property
    def owners(self) -> tuple[int, ...]:
        """Seat s gets positions [s*h, (s+1)*h); then the hidden ones; then the boneyard."""
        if self.simultaneous:
            return ()
        plan = self.rules.deal
        owners = [s for s in range(self.seats) for _ in range(plan.hand_size)]
        owners += [HIDDEN] * plan.hidden
        owners += [BONEYARD] * (len(self.deck_tiles) - len(owners))
        return tuple(owners)

    def owners_reachable(self, owners: tuple[int, ...]) -> bool:
        """Whether draws can turn the dealt owners into `owners`: the same, except that
        the first boneyard positions (in order) may have gone to seats (10.3)."""
        if len(owners) != len(self.owners):
            return False
        drawn = [o >= 0 for o, dealt in zip(owners, self.owners, strict=True)
                 if dealt == BONEYARD]
        return (all(o == dealt for o, dealt in zip(owners, self.owners, strict=True)
                    if dealt != BONEYARD)
                and drawn == sorted(drawn, reverse=True))

    def initial_state(self) -> PublicState:
        if self.simultaneous:
            empty = PublicState(
                game_id=self.game_id, seq=0, prev=self.game_id, phase=Phase.COMMIT, turn=0,
                key_shares=(), commitments=(), nonces=(), first_player=None, deck=(),
                owners=(), shares=(), opened=(), played=())
            return with_stage(self, empty, self.stages.start_state())
        n = len(self.deck_tiles)
        return PublicState(
            game_id=self.game_id, seq=0, prev=self.game_id, phase=Phase.KEYS, turn=0,
            key_shares=(), commitments=(), nonces=(), first_player=None, deck=(),
            owners=self.owners, shares=tuple((None,) * self.seats for _ in range(n)),
            opened=(None,) * n, played=(False,) * n)

    def ctx(self, frame: Frame) -> Context:
        """Every proof in a frame is bound to (game id, the frame's seq, its sender)."""
        return Context(self.game_id, frame.seq, frame.seat)


def commitment(game_id: bytes, seat: int, nonce: bytes) -> bytes:
    """The first-player commitment H(COMMIT, game_id, u8 seat, nonce), 32 bytes."""
    return H(Tag.COMMIT, game_id, bytes([seat]), nonce)[:32]


def first_player(game_id: bytes, nonces: tuple[bytes, ...]) -> int:
    """H(FIRST_PLAYER, game_id, nonce_0, ..., nonce_{k-1}) mod k: uniform if one seat is."""
    return int.from_bytes(H(Tag.FIRST_PLAYER, game_id, *nonces), "big") % len(nonces)


# -- handlers: (game, state, frame) -> next state, raising DealerlessError -------------

def _next_in_order(game: Game, state: PublicState, done: int,
                   then: Callable[[], PublicState]) -> PublicState:
    """Seat-order phases: the next seat owes, or the phase ends and `then` decides."""
    return state.with_(turn=done) if done < game.seats else then()


def on_key(game: Game, state: PublicState, frame: Frame) -> PublicState:
    body = KeyBody.decode(frame.body)
    verify_key(body.key_share, body.proof, game.ctx(frame))
    state = state.with_(key_shares=(*state.key_shares, body.key_share),
                        commitments=(*state.commitments, body.commitment))

    def keys_done() -> PublicState:
        joint_key(state.key_shares)  # raises deck/joint-key-identity, blamed on the last seat
        return state.with_(phase=Phase.NONCES, turn=0)

    return _next_in_order(game, state, len(state.key_shares), keys_done)


def on_nonce(game: Game, state: PublicState, frame: Frame) -> PublicState:
    body = NonceBody.decode(frame.body)
    if commitment(game.game_id, frame.seat, body.nonce) != state.commitments[frame.seat]:
        raise DealerlessError("nonce/commitment-mismatch",
                              "the nonce does not open the seat's commitment")
    state = state.with_(nonces=(*state.nonces, body.nonce))

    def nonces_done() -> PublicState:
        ts = game.rules.tile_set
        deck = initial_deck(ts, game.deck_tiles, joint_key(state.key_shares))
        return state.with_(phase=Phase.SHUFFLE, turn=0, deck=deck,
                           first_player=first_player(game.game_id, state.nonces))

    return _next_in_order(game, state, len(state.nonces), nonces_done)


def on_shuffle(game: Game, state: PublicState, frame: Frame) -> PublicState:
    body = ShuffleBody.decode(frame.body, len(state.deck))
    verify_shuffle(state.deck, body.deck, joint_key(state.key_shares), body.proof,
                   game.ctx(frame))
    state = state.with_(deck=body.deck)
    return _next_in_order(game, state, frame.seat + 1,
                          lambda: state.with_(phase=Phase.DEAL, turn=0))


def _with_shares(game: Game, state: PublicState, frame: Frame, body: SharesBody,
                 expected: list[int], what: str) -> list[list[Point | None]]:
    """Check that `body` covers exactly `expected` and every share's proof; return shares."""
    if body.positions != expected:
        raise DealerlessError(f"{what}/positions",
                              f"expected shares for positions {expected}, got {body.positions}")
    key = state.key_shares[frame.seat]
    ctx = game.ctx(frame)
    shares = [list(row) for row in state.shares]
    for entry in body.entries:
        verify_share(key, state.deck[entry.position], entry.share, ctx)
        shares[entry.position][frame.seat] = entry.share.share
    return shares


def on_deal(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """Seat i publishes its share of every position dealt to another seat (section 10.4)."""
    body = SharesBody.decode(frame.body)
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
    body = MoveBody.decode(frame.body)
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
        got = open_tile(rules.tile_set, state.deck[p], [s for s in row if s is not None])
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
    body = SharesBody.decode(frame.body)
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
    body = SharesBody.decode(frame.body)
    seat = frame.seat
    expected = [p for p, o in enumerate(state.owners)
                if (o == seat and state.opened[p] is None) or o == HIDDEN]
    shares = _with_shares(game, state, frame, body, expected, "reveal")
    opened = list(state.opened)
    for p in expected:
        if all(s is not None for s in shares[p]):
            opened[p] = open_tile(game.rules.tile_set, state.deck[p],
                                  [s for s in shares[p] if s is not None])
    state = state.with_(shares=tuple(tuple(r) for r in shares), opened=tuple(opened))

    def reveal_done() -> PublicState:
        done = state.with_(phase=Phase.DONE, turn=None)
        audit(done.claims, done.opened)  # every "cannot play" claim, re-judged in the open
        final_outcome(game, done)  # the revealed tiles must fit the public state
        return done

    return _next_in_order(game, state, seat + 1, reveal_done)


# -- simultaneous rule sets: stages of commit-reveal (spec/10-session.md 10.8) ---------

def with_stage(game: Game, state: PublicState, rs: MinedState) -> PublicState:
    """The session state around the rules' state: phase and turn follow what is owed."""
    due = game.stages.due(rs)
    if due is None:
        return state.with_(rules_state=rs, phase=Phase.DONE, turn=None)
    return state.with_(rules_state=rs, phase=STAGE_PHASES[due[0]], turn=due[1])


def _answering(game: Game, state: PublicState, frame: Frame, kind: str) -> MinedState:
    """The rules' state a COMMIT or OPEN applies to. In phase `absent` it comes from the
    seat being declared absent, which answers after all: the declarations lapse, and the
    frame must be the one that seat owed (10.8)."""
    rs: MinedState = state.rules_state
    if state.phase is Phase.ABSENT:
        rs = game.stages.answered(rs)
        if game.stages.due(rs) != (kind, frame.seat):
            raise DealerlessError("frame/unexpected-type", f"seat {frame.seat} owed no "
                                  f"{kind} frame when it was declared absent")
    return rs


def on_commit(game: Game, state: PublicState, frame: Frame) -> PublicState:
    rs = _answering(game, state, frame, "commit")
    body = CommitBody.decode(frame.body)
    return with_stage(game, state, game.stages.commit(rs, frame.seat, body.commitment))


def on_open(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """The orders must open the seat's commitment, then obey the rules (10.8)."""
    rs = _answering(game, state, frame, "open")
    body = OpenBody.decode(frame.body)
    rules = game.stages
    expected = rs.commits[frame.seat]
    if orders_commitment(game.game_id, rs.stage, frame.seat, body.orders,
                         body.nonce) != expected:
        raise DealerlessError("open/commitment-mismatch",
                              f"these orders and nonce do not open seat {frame.seat}'s "
                              f"commitment of stage {rs.stage}")
    orders = rules.decode_orders(rs, body.orders)
    rules.check(rs, frame.seat, orders)
    return with_stage(game, state, rules.open(game.game_id, rs, frame.seat, orders,
                                              body.nonce))


def on_absent(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """Another living seat declares the seat that owes a COMMIT or OPEN absent (10.8)."""
    body = AbsentBody.decode(frame.body)
    rs = game.stages.declare_absent(game.game_id, state.rules_state, frame.seat, body.seat,
                                   body.stage)
    return with_stage(game, state, rs)


def on_choose(game: Game, state: PublicState, frame: Frame) -> PublicState:
    body = ChooseBody.decode(frame.body)
    return with_stage(game, state, game.stages.choose(state.rules_state, frame.seat,
                                                     body.seat))


Handler = Callable[[Game, PublicState, Frame], PublicState]

#: The phase table (spec/10-session.md section 10.2). Nothing else is legal.
PHASES: dict[tuple[Phase, MessageType], Handler] = {
    (Phase.KEYS, MessageType.KEY): on_key,
    (Phase.NONCES, MessageType.NONCE): on_nonce,
    (Phase.SHUFFLE, MessageType.SHUFFLE): on_shuffle,
    (Phase.DEAL, MessageType.DEAL): on_deal,
    (Phase.PLAY, MessageType.MOVE): on_move,
    (Phase.DRAW, MessageType.DRAW): on_draw,
    (Phase.REVEAL, MessageType.REVEAL): on_reveal,
    (Phase.COMMIT, MessageType.COMMIT): on_commit,
    (Phase.OPEN, MessageType.OPEN): on_open,
    (Phase.CHOOSE, MessageType.CHOOSE): on_choose,
    (Phase.ABSENT, MessageType.ABSENT): on_absent,
    # Out of turn (10.8, see out_of_turn_allowed): the first declaration that a seat is
    # absent, from any other living seat, and that seat's late answer while it is declared.
    (Phase.COMMIT, MessageType.ABSENT): on_absent,
    (Phase.OPEN, MessageType.ABSENT): on_absent,
    (Phase.ABSENT, MessageType.COMMIT): on_commit,
    (Phase.ABSENT, MessageType.OPEN): on_open,
}

#: What the seat to send owes in each phase (an ABSENT frame is never owed while a
#: COMMIT or OPEN is: it is the other seats' remedy against the owing seat's silence).
EXPECTED: dict[Phase, MessageType] = {
    phase: mtype for phase, mtype in PHASES
    if (mtype is MessageType.ABSENT) == (phase is Phase.ABSENT)}


def out_of_turn_allowed(state: PublicState, frame: Frame) -> bool:
    """The exceptions to 10.5 check 8 (10.8): while a seat owes a COMMIT or OPEN, another
    seat may declare it absent; while it is being declared absent, it may still answer."""
    if state.phase in (Phase.COMMIT, Phase.OPEN):
        return frame.type is MessageType.ABSENT
    if state.phase is Phase.ABSENT:
        absent = state.rules_state.absent
        return (frame.type in (MessageType.COMMIT, MessageType.OPEN)
                and absent is not None and frame.seat == absent[0])
    return False


def awaiting(state: PublicState) -> tuple[int, MessageType] | None:
    """The seat that owes the next frame and its type, or None once the game is done."""
    if state.phase is Phase.DONE or state.turn is None:
        return None
    return state.turn, EXPECTED[state.phase]


def authenticate(game: Game, wire: bytes, index: int | None) -> Frame:
    """Checks 1-2: parse the frame and verify its signature. Raises Violation."""
    try:
        frame = parse_frame(wire)
    except EncodingError as exc:
        raise Violation(exc.code, exc.detail, seat=None, frame=index) from None
    if frame.seat >= game.seats:
        raise Violation("frame/unknown-seat", f"there is no seat {frame.seat}", None, index)
    try:
        verify_signature(game.setup.identities[frame.seat], signed_message(frame.payload),
                         frame.signature)
    except SignatureError as exc:
        # Anyone can put a seat number on garbage: the claimed seat is named, but
        # the frame is not evidence against it (authenticated=False).
        raise Violation(exc.code, exc.detail, frame.seat, index, authenticated=False) from None
    return frame


def step(game: Game, state: PublicState, wire: bytes) -> tuple[PublicState, Frame]:
    """Apply one frame's bytes to `state` (spec/10-session.md 10.5). Raises Violation."""
    frame = authenticate(game, wire, state.seq)                                # 1-2
    return apply_frame(game, state, frame), frame


def apply_frame(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """Checks 3-10 on an authenticated frame; returns the next state or raises Violation."""
    index = state.seq
    seat = frame.seat

    def blame(code: str, detail: str) -> Violation:
        return Violation(code, detail, seat, index)

    if frame.game_id != game.game_id:                                          # 3
        # Identity keys are long-term: anyone holding a frame of another game can
        # replay it here. It proves nothing against its signer in this game.
        raise Violation("frame/wrong-game", "the frame belongs to another game", seat, index,
                        authenticated=False)
    if frame.seq != state.seq:                                                 # 4
        # A frame out of place (lost, reordered or repeated by the network) is not
        # evidence either: the seat signed it for another position in the chain.
        raise Violation("frame/sequence", f"expected seq {state.seq}, got {frame.seq}",
                        seat, index, authenticated=False)
    if frame.prev != state.prev:                                               # 5
        # Built on another history: if someone else equivocated earlier, an honest
        # seat may have signed on the other branch. Not evidence against this seat.
        raise Violation("frame/chain", "prev is not the hash of the previous frame", seat,
                        index, authenticated=False)
    if frame.state_hash != state.hash(game.rules):                             # 6
        # Same history, different state: the sender computed or claimed a state
        # that this history does not give. That is the sender's doing.
        raise blame("state/hash-mismatch", "the frame commits to a different public state")
    if state.phase is Phase.DONE:                                              # 7
        raise blame("frame/after-end", "the game is over")
    if seat != state.turn and not out_of_turn_allowed(state, frame):          # 8
        raise blame("frame/out-of-turn", f"seat {state.turn} owes the next frame")
    handler = PHASES.get((state.phase, frame.type))                            # 9
    if handler is None:
        raise blame("frame/unexpected-type",
                    f"{frame.type.label} is not allowed in the {state.phase} phase")
    try:
        new = handler(game, state, frame)                                      # 10
    except (LocalError, Violation):
        raise  # a bug on this side is never blamed on the sender; a Violation names its own
    except DealerlessError as exc:
        raise blame(exc.code, exc.detail) from None
    return new.with_(seq=state.seq + 1, prev=frame.hash)


def final_outcome(game: Game, state: PublicState) -> Outcome | MinedOutcome:
    """The result once every seat has revealed (spec/10-session.md 10.6), or for a
    simultaneous rule set the verdict of its last stage (10.8).

    Raises RuleViolation (rules/reveal-mismatch) if the opened tiles do not fit
    the public state, which the proofs make impossible for a game that got here.
    """
    if state.phase is not Phase.DONE:
        raise LocalError("session/not-done", "the game is not over")
    if game.simultaneous:
        return game.stages.mined_outcome(state.rules_state)
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
