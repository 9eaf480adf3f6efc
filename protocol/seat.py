"""A seat's private side: its secrets, its hand, and the frames it owes (spec/10-session.md 10.4).

The session (protocol/session.py) is public and judges everyone; a SeatAgent is
what one player adds to it: the key share x_i, the first-player nonce, and the
hand it decrypts after the deal. It builds the frame its seat owes from the
public state, with all randomness passed in as `fresh` bytes, so a seed makes a
whole game reproducible while real play feeds it from the OS CSPRNG.

What a bot or a UI may see is a SeatView: the public rule state, this seat's
own hand, its legal moves and the rules' public parameters. Nothing else of the
agent is exposed to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cannot_play import prove_cannot_play
from .canonical import as_array, as_bytes, pack, unpack
from .claims import claim_statement
from .context import Context
from .deck import (
    DecryptionShare,
    joint_key,
    make_share,
    make_shares,
    open_tile,
    own_share,
    shuffle_round,
)
from .deck_phases import commitment
from .errors import DealerlessError, LocalError
from .frames import MAX_FRAME_BYTES, MessageType, build_frame
from .game import Game
from .identity import Identity
from .messages import (
    AbsentBody,
    ChooseBody,
    KeyBody,
    MoveBody,
    NonceBody,
    OpenBody,
    SealKeyBody,
    ShareEntry,
    SharesBody,
    ShuffleBody,
)
from .rules.base import DrawingRules
from .rules.simultaneous import Carries
from .schnorr import prove_key
from .seal import (
    deal,
    decryption_share,
    open_with_secret,
    pad,
    prove_share_key,
    seal_secret,
    share_key,
)
from .sealed import PLAINTEXT_BYTES, holders_context, sealed_plaintext, stored_seal
from .session import awaiting
from .state import HIDDEN, Phase, PublicState
from .tags import Tag, require_fresh, u64
from .tiles import Tile


@dataclass(frozen=True)
class SeatView:
    """Everything a seat's player may know when choosing a move."""

    seat: int
    rules_state: Any
    hand: tuple[Tile, ...]
    legal: tuple[Any, ...]
    params: Mapping[str, object] = field(default_factory=dict)
    """The rules' public parameters (komi, for one), as agreed in the setup."""


Chooser = Callable[[SeatView], Any]


class SeatAgent:
    """One seat's secrets and frame builder. Never shared with other seats."""

    def __init__(self, game: Game, seat: int, identity: Identity, secret_seed: bytes) -> None:
        if identity.frame_key(game.suite) != game.setup.identities[seat]:
            raise LocalError("seat/identity", f"this identity is not seat {seat}'s")
        require_fresh(secret_seed)
        self.game = game
        self.seat = seat
        self.identity = identity
        # Bound to the game: a seed reused by mistake still gives unrelated secrets.
        gid = game.game_id
        self.suite = suite = game.suite
        self._x = suite.hash_to_scalar(Tag.KEY_SHARE, secret_seed, gid, b"x") or 1
        self._nonce = suite.H(Tag.KEY_SHARE, secret_seed, gid, b"first-player nonce")[:32]
        self._hand: dict[int, Tile] | None = None
        self._orders_key = suite.H(Tag.MINED_NONCE, secret_seed, gid, b"orders nonce key")[:32]
        self._pending: dict[int, tuple[Any, bytes]] = {}  # stage -> (orders, nonce)
        # The share key of a simultaneous game (10.8): its seals' holders decrypt with it.
        self._seal_x = share_key(suite, secret_seed, gid) if game.simultaneous else 0

    def __repr__(self) -> str:  # never print secrets
        return f"SeatAgent(seat={self.seat})"

    def owed(self, state: PublicState) -> MessageType | None:
        """The type of the frame this seat owes now, or None. A declaration of absence is
        never owed: see `may_declare` (10.8)."""
        due = awaiting(state)
        return due[1] if due is not None and due[0] == self.seat else None

    def owes(self, state: PublicState) -> bool:
        return self.owed(state) is not None

    def asks(self, state: PublicState, mtype: MessageType) -> bool:
        """Whether the `mtype` frame this seat owes carries its player's choice: a move,
        the winner's pick, or a stage's orders when the rules take any (10.8)."""
        if mtype is MessageType.COMMIT:
            return self.asks_orders(state)
        return mtype in (MessageType.MOVE, MessageType.CHOOSE)

    def hand_positions(self, state: PublicState) -> dict[int, Tile]:
        """Position -> tile of this seat's unplayed tiles (known once the deal is done;
        a drawn tile once every other seat's share of it is in)."""
        if state.phase in (Phase.KEYS, Phase.NONCES, Phase.SHUFFLE, Phase.DEAL):
            return {}
        hand = self._hand if self._hand is not None else {}
        ts = self.game.rules.tile_set
        for p, owner in enumerate(state.owners):
            if owner == self.seat and p not in hand and p != state.drawing:
                others = [s for i, s in enumerate(state.shares[p])
                          if i != self.seat and s is not None]
                hand[p] = open_tile(self.suite, ts, state.deck[p], [
                    *others, own_share(self.suite, self._x, state.deck[p])])
        self._hand = hand
        return {p: t for p, t in hand.items() if not state.played[p]}

    def view(self, state: PublicState) -> SeatView:
        if self.game.simultaneous:
            rs = state.rules_state
            among = self.game.stages.choices(rs) if state.phase is Phase.CHOOSE else ()
            return SeatView(self.seat, rs, (), among)
        hand = tuple(sorted(self.hand_positions(state).values()))
        legal = (self.game.rules.legal_moves(state.rules_state, hand)
                 if state.phase is Phase.PLAY and self.owes(state) else ())
        return SeatView(self.seat, state.rules_state, hand, legal, self.game.rules.params)

    def body(self, state: PublicState, fresh: bytes,
             choose: Chooser | None = None) -> tuple[MessageType, Any]:
        """The body of the frame this seat owes now, as (type, canonical value)."""
        if not self.owes(state):
            raise LocalError("seat/not-our-turn", f"seat {self.seat} owes nothing now")
        suite = self.suite
        ctx = Context(suite, self.game.game_id, state.seq, self.seat)
        phase = state.phase
        if self.game.simultaneous:
            return self._stage_body(state, fresh, choose)
        if phase is Phase.KEYS:
            return MessageType.KEY, KeyBody(
                suite.group.base_mul(self._x), prove_key(self._x, ctx, fresh),
                commitment(suite, self.game.game_id, self.seat, self._nonce)).encode(suite)
        if phase is Phase.NONCES:
            return MessageType.NONCE, NonceBody(self._nonce).encode()
        if phase is Phase.SHUFFLE:
            deck, proof = shuffle_round(state.deck, joint_key(suite, state.key_shares), ctx,
                                        fresh, suite.encode_scalar(self._x))
            return MessageType.SHUFFLE, ShuffleBody(deck, proof).encode(suite)
        if phase is Phase.DEAL:
            positions = [p for p, o in enumerate(state.owners) if o >= 0 and o != self.seat]
            return MessageType.DEAL, self.shares_body(state, positions, fresh).encode(suite)
        if phase is Phase.PLAY:
            move = self._choice(state, choose)
            return MessageType.MOVE, self._move_body(state, move, fresh).encode(suite)
        if phase is Phase.DRAW:
            if state.drawing is None:
                raise LocalError("seat/state", "a draw phase without a position")
            body = self.shares_body(state, [state.drawing], fresh)
            return MessageType.DRAW, body.encode(suite)
        if phase is Phase.REVEAL:
            positions = [p for p, o in enumerate(state.owners)
                         if (o == self.seat and state.opened[p] is None) or o == HIDDEN]
            return MessageType.REVEAL, self.shares_body(state, positions, fresh).encode(suite)
        raise LocalError("seat/done", "the game is over")

    def _stage_body(self, state: PublicState, fresh: bytes,
                    choose: Chooser | None) -> tuple[MessageType, Any]:
        """KEY, COMMIT, OPEN or CHOOSE of a simultaneous rule set (10.8)."""
        rules = self.game.stages
        rs = state.rules_state
        phase = state.phase
        gid, suite = self.game.game_id, self.suite
        if phase is Phase.KEYS:
            key, proof = prove_share_key(suite, self._seal_x, gid, self.seat, fresh)
            return MessageType.KEY, SealKeyBody(key, proof).encode(suite)
        if phase is Phase.COMMIT:
            ctx = holders_context(suite, gid, rs.stage, self.seat, rs.keys)
            kept = self._recommit(rs)
            if kept is not None:
                # Committed in this stage already, on a branch a rival took (10.8): the
                # same orders and nonce again, so that the OPEN is the same whichever of
                # the two COMMITs the chain ends up holding.
                orders, nonce = kept
            else:
                orders = None
                if rules.takes_orders(rs):
                    if choose is None:
                        raise LocalError("seat/no-chooser", "orders need a chooser")
                    orders = choose(self.view(state))
                try:
                    rules.check(rs, self.seat, rules.decode_orders(rs, orders))
                except DealerlessError as exc:
                    raise LocalError("seat/illegal-choice", f"the chooser's orders "
                                     f"{orders!r} break {exc.code}: {exc.detail}") from None
                require_fresh(fresh)
                nonce = suite.H(Tag.MINED_NONCE, self._orders_key, u64(rs.stage), fresh)[:32]
            # The one thing to remember until the OPEN: the seal is rebuilt from it.
            self._pending[rs.stage] = (orders, nonce)
            plaintext = pad(sealed_plaintext(orders, nonce), PLAINTEXT_BYTES)
            return MessageType.COMMIT, deal(ctx, nonce, plaintext, fresh).encode(suite)
        if phase is Phase.OPEN:
            if rs.stage not in self._pending:
                raise LocalError("seat/lost-orders", f"this seat's orders of stage {rs.stage} "
                                 "were not kept (mined-games.md D17)")
            # Kept for the whole game: the frame may have to be built again on a later
            # state (sent while the other seats were declaring this seat absent), or
            # after a rival took a place in an earlier stage (10.8) and the chain rewound.
            _orders, nonce = self._pending[rs.stage]
            ctx = holders_context(suite, gid, rs.stage, self.seat, rs.keys)
            return MessageType.OPEN, OpenBody(seal_secret(ctx, nonce)).encode(suite)
        if phase is Phase.CHOOSE:
            return MessageType.CHOOSE, ChooseBody(self._choice(state, choose)).encode()
        raise LocalError("seat/done", "the game is over")

    def _recommit(self, rs: Any) -> tuple[Any, bytes] | None:
        """The orders and nonce this seat sealed in the current stage on another branch,
        if it did and they are still legal here; None otherwise (10.8)."""
        kept = self._pending.get(rs.stage)
        if kept is None:
            return None
        rules = self.game.stages
        try:
            rules.check(rs, self.seat, rules.decode_orders(rs, kept[0]))
        except DealerlessError:
            return None
        return kept

    def asks_orders(self, state: PublicState) -> bool:
        """Whether this seat's COMMIT now needs its player's orders: the rules take some,
        and it has none of this stage to seal again (10.8)."""
        rs = state.rules_state
        return self.game.stages.takes_orders(rs) and self._recommit(rs) is None

    def openings(self, state: PublicState) -> dict[int, bytes]:
        """What this seat must keep to open its commitment of the current stage, as
        {stage: pack([orders, nonce])}, or {} when it holds none (rules/mined-games.md
        D17). A peer stores it with the COMMIT frame, before that frame leaves; it is as
        secret as the seat's seed until the OPEN is sent."""
        if not self.game.simultaneous or state.rules_state.stage not in self._pending:
            return {}
        stage = state.rules_state.stage
        return {stage: pack(list(self._pending[stage]))}

    def restore_openings(self, state: PublicState, openings: Mapping[int, bytes]) -> None:
        """Take back what `openings` gave, on the state a resumed seat rebuilt from its
        frames: the current stage's opening if this seat has committed in it (any other
        is spent). LocalError if it does not open that seal (D17)."""
        rs = state.rules_state
        if not self.game.simultaneous or rs.stage not in openings \
                or rs.commits[self.seat] is None:
            return
        stage = rs.stage
        try:
            orders, nonce = as_array(unpack(openings[stage], MAX_FRAME_BYTES), 2, "opening")
            nonce = as_bytes(nonce, "nonce", 32)
        except DealerlessError as exc:
            raise LocalError("seat/bad-opening", f"the kept opening of stage {stage} does "
                             f"not decode: {exc.detail}") from None
        ctx = holders_context(self.suite, self.game.game_id, stage, self.seat, rs.keys)
        try:
            sealed = open_with_secret(ctx, stored_seal(rs.commits[self.seat], ctx),
                                      seal_secret(ctx, nonce))
        except DealerlessError:
            sealed = b""
        if sealed != pad(sealed_plaintext(orders, nonce), PLAINTEXT_BYTES):
            raise LocalError("seat/bad-opening", f"the kept opening of stage {stage} does "
                             f"not open seat {self.seat}'s seal")
        self._pending[stage] = (orders, nonce)

    def _choice(self, state: PublicState, choose: Chooser | None) -> Any:
        """What the chooser picks from this seat's view: a move, or the elimination
        candidate; a pick that is not legal is a bug of the chooser's, never sent."""
        if choose is None:
            raise LocalError("seat/no-chooser", "a move or a choice needs a chooser")
        view = self.view(state)
        picked = choose(view)
        if picked not in view.legal:
            raise LocalError("seat/illegal-choice", f"the chooser picked {picked!r}")
        return picked

    def may_declare(self, state: PublicState) -> bool:
        """Whether this seat may send an ABSENT against the seat that owes the next KEY,
        COMMIT or OPEN now (10.8): the rules admit one from it (a first declaration, or
        its decryption share once t holders have declared a sealed OPEN absent)."""
        return self._carries(state) is not None

    def shares_now(self, state: PublicState) -> bool:
        """Whether this seat's ABSENT now would post its decryption share because t
        holders have declared (10.8): the deadline has passed, so it sends that soon."""
        return self._carries(state) is Carries.SHARE

    def _carries(self, state: PublicState) -> Carries | None:
        due = awaiting(state)
        if not self.game.simultaneous or due is None or due[0] == self.seat or due[1] not in (
                MessageType.KEY, MessageType.COMMIT, MessageType.OPEN):
            return None
        return self.game.stages.admits(state.rules_state, due[0], self.seat)

    def declare_absent(self, state: PublicState, fresh: bytes) -> bytes:
        """An ABSENT frame naming the seat that owes the next KEY, COMMIT or OPEN (10.8),
        for when it missed the deadline the seats agreed on. Against a sealed OPEN it
        carries this seat's decryption share of that seat's seal whenever the rules admit
        one (the t-th declaration carries it, saving a frame)."""
        carries = self._carries(state)
        if carries is None:
            raise LocalError("seat/no-absence", "this seat may not declare anyone absent now")
        due = awaiting(state)
        assert due is not None
        rs = state.rules_state
        share = None
        if carries is not Carries.NOTHING:
            ctx = holders_context(self.suite, self.game.game_id, rs.stage, due[0], rs.keys)
            seal = stored_seal(bytes(rs.commits[due[0]]), ctx)
            share = decryption_share(ctx, seal, self.seat, self._seal_x, fresh)
        return self.sign(state, MessageType.ABSENT,
                         AbsentBody(due[0], rs.stage, share).encode(self.suite), fresh)

    def share_for(self, state: PublicState, position: int, fresh: bytes) -> DecryptionShare:
        """This seat's decryption share of `position`, proven for the current step."""
        ctx = Context(self.suite, self.game.game_id, state.seq, self.seat)
        return make_share(self._x, state.deck[position], ctx, fresh)

    def shares_body(self, state: PublicState, positions: list[int], fresh: bytes) -> SharesBody:
        """This seat's shares of `positions` with their proof(s), for the current step."""
        ctx = Context(self.suite, self.game.game_id, state.seq, self.seat)
        shares, proofs = make_shares(self._x, [state.deck[p] for p in positions], ctx, fresh)
        return SharesBody(tuple(positions), tuple(shares), tuple(proofs))

    def _move_body(self, state: PublicState, move: Any, fresh: bytes) -> MoveBody:
        rules = self.game.rules
        tile = rules.played_tile(move)
        if isinstance(rules, DrawingRules) and rules.must_play_if_able(state.rules_state,
                                                                       self.seat, move):
            statement = claim_statement(self.game, state, self.seat)
            if statement is not None:
                ctx = Context(self.suite, self.game.game_id, state.seq, self.seat)
                proof = prove_cannot_play(self._x, statement, ctx, fresh)
                return MoveBody(rules.move_id(move), None, proof.encode(self.suite))
        if tile is None:
            return MoveBody(rules.move_id(move), None)
        position = next(p for p, t in self.hand_positions(state).items() if t == tile)
        return MoveBody(rules.move_id(move), ShareEntry(
            position, self.share_for(state, position, fresh)))

    def sign(self, state: PublicState, mtype: MessageType, body: Any,
             fresh: bytes = b"") -> bytes:
        """Wrap a body into this seat's signed frame for the current step; `fresh`
        hedges the signature where the suite's scheme takes a nonce (2.6)."""
        return build_frame(self.identity, self.suite, self.game.game_id, state.seq, state.prev,
                           self.seat, mtype, state.hash(self.game.rules, self.suite), body,
                           fresh)

    def next_frame(self, state: PublicState, fresh: bytes, choose: Chooser | None = None) -> bytes:
        return self.sign(state, *self.body(state, fresh, choose), fresh=fresh)
