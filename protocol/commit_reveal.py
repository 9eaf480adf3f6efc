"""Simultaneous rule sets: stages of sealed commit-reveal (spec/10-session.md 10.8).

A simultaneous rule set (`rules.base.SimultaneousRules`) has no deck. Before the first
stage every seat publishes a share key (KEY). In every stage each living seat seals its
orders to the other seats (COMMIT), then opens its seal (OPEN); the session checks the
seals, the openings and the decryption shares (spec/06-proofs.md 6.6) and leaves the
orders to the rules. A seat that stays silent can be declared absent by the other seats
(ABSENT), in any order: against a missing OPEN a majority of the seal's holders declare,
then each posts its decryption share, and a majority of the shares opens the seal
without the seat; against a missing KEY or COMMIT a majority makes the seat forfeit. The
winner may owe a choice (CHOOSE). The session's phase and turn always follow what the
rules' `due` says is owed, so a cut transcript names the seat that owes, not its
declarers.
"""

from __future__ import annotations

from typing import Any

from .canonical import pack
from .errors import DealerlessError, LocalError, SealError, Violation
from .frames import Frame, MessageType
from .game import Game
from .messages import AbsentBody, ChooseBody, CommitBody, OpenBody, SealKeyBody
from .rules.base import RuleViolation
from .rules.simultaneous import StageState
from .seal import (
    Seal,
    SealContext,
    combine,
    open_with_secret,
    verify_decryption_share,
    verify_seal,
    verify_share_key,
)
from .sealed import holders_context, read_plaintext, stored_seal
from .state import Phase, PublicState, stage_position


def with_stage(game: Game, state: PublicState, rs: StageState) -> PublicState:
    """The session state around the rules' state: phase and turn follow what is owed."""
    phase, turn = stage_position(game.stages.due(rs))
    return state.with_(rules_state=rs, phase=phase, turn=turn)


def _answering(game: Game, state: PublicState) -> StageState:
    """The rules' state a KEY, COMMIT or OPEN applies to: the owing seat answers, and any
    declarations of its absence lapse (10.8)."""
    rs: StageState = state.rules_state
    return game.stages.answered(rs) if rs.absent is not None else rs


def seal_context_of(game: Game, rs: StageState, seat: int) -> SealContext:
    """The context of `seat`'s seal in the current stage (10.8)."""
    return holders_context(game.suite, game.game_id, rs.stage, seat, rs.keys)


def on_seal_key(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """KEY of a simultaneous game: the seat's share key and its proof (10.8, 6.6.2)."""
    rs = _answering(game, state)
    body = SealKeyBody.decode(game.suite, frame.body)
    verify_share_key(game.suite, body.key, body.proof, game.game_id, frame.seat)
    return with_stage(game, state, game.stages.share_key(rs, frame.seat, body.key.data))


def on_commit(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """The seat's seal, checked at once by everyone: a bad one is the committer's (10.8)."""
    rs = _answering(game, state)
    ctx = seal_context_of(game, rs, frame.seat)
    body = CommitBody.decode(frame.body, ctx)
    verify_seal(ctx, body.seal)
    sealed = pack(body.encode(game.suite))
    return with_stage(game, state, game.stages.commit(rs, frame.seat, sealed))


def on_open(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """The seal secret must open the seat's seal to orders that obey the rules (10.8)."""
    rs = _answering(game, state)
    ctx, seal = _seal_of(game, rs, frame.seat)
    body = OpenBody.decode(game.suite, frame.body)
    orders, nonce = read_plaintext(open_with_secret(ctx, seal, body.secret), frame.seat)
    rules = game.stages
    decoded = rules.decode_orders(rs, orders)
    rules.check(rs, frame.seat, decoded)
    return with_stage(game, state, rules.open(game.game_id, rs, frame.seat, decoded, nonce))


def on_absent(game: Game, state: PublicState, frame: Frame) -> PublicState:
    """A seat declares the seat that owes a KEY, COMMIT or OPEN absent (10.8). Against a
    sealed OPEN a decryption share, once the rules admit one, is checked at once (a bad
    one is its sender's); with the t-th the seal opens, and its orders count as the
    seat's."""
    if not game.simultaneous:
        raise DealerlessError("frame/unexpected-type", "only a simultaneous game declares "
                              "absence")
    body = AbsentBody.decode(game.suite, frame.body, frame.seat)
    rules = game.stages
    rs: StageState = state.rules_state
    share = None if body.share is None else body.share.point.data
    new = rules.declare_absent(game.game_id, rs, frame.seat, body.seat, body.stage, share)
    if body.share is None:
        return with_stage(game, state, new)
    ctx, seal = _seal_of(game, rs, body.seat)
    verify_decryption_share(ctx, seal, frame.seat, body.share)
    declared = new.absent[1] if new.absent is not None else ()
    if _shares(declared) < ctx.t:
        return with_stage(game, state, new)
    try:
        orders, nonce = _recover(ctx, seal, declared)
        decoded = rules.decode_orders(new, orders)
        rules.check(new, body.seat, decoded)
    except (SealError, RuleViolation) as exc:
        # The seal binds its plaintext: what the table recovers is what the committer
        # sealed, so a plaintext that does not decode or orders that break the rules are
        # the committer's, proven by this frame.
        raise Violation(exc.code, f"recovered from its seal: {exc.detail}", body.seat,
                        state.seq) from None
    return with_stage(game, state, rules.recovered(game.game_id, new, body.seat, decoded,
                                                   nonce))


def _shares(declared: tuple[tuple[int, bytes | None], ...]) -> int:
    return sum(share is not None for _, share in declared)


def _recover(ctx: SealContext, seal: Seal,
             declared: tuple[tuple[int, bytes | None], ...]) -> tuple[Any, bytes]:
    """(orders, nonce) of a seal from its holders' checked decryption shares (6.6.8)."""
    shares = {d: ctx.suite.decode_point(s) for d, s in declared if s is not None}
    return read_plaintext(combine(ctx, seal, shares), ctx.committer)


def opened_orders(game: Game, before: PublicState, frame: Frame) -> Any:
    """The orders an accepted OPEN opened, or an accepted ABSENT recovered, from the state
    before it (10.8); None for any other frame."""
    rs: StageState = before.rules_state
    if frame.type is MessageType.OPEN:
        ctx, seal = _seal_of(game, rs, frame.seat)
        secret = OpenBody.decode(game.suite, frame.body).secret
        return read_plaintext(open_with_secret(ctx, seal, secret), frame.seat)[0]
    if frame.type is MessageType.ABSENT:
        body = AbsentBody.decode(game.suite, frame.body, frame.seat)
        before_shares = rs.absent[1] if rs.absent is not None else ()
        if body.share is not None:
            ctx, seal = _seal_of(game, rs, body.seat)
            if _shares(before_shares) + 1 >= ctx.t:
                return _recover(ctx, seal, (*before_shares,
                                            (frame.seat, body.share.point.data)))[0]
    return None


def _seal_of(game: Game, rs: StageState, seat: int) -> tuple[SealContext, Seal]:
    """The context and the stored seal of `seat` in the current stage."""
    ctx = seal_context_of(game, rs, seat)
    data = rs.commits[seat]
    if data is None:
        raise LocalError("session/no-seal", f"seat {seat} has no seal in stage {rs.stage}")
    return ctx, stored_seal(data, ctx)


def on_choose(game: Game, state: PublicState, frame: Frame) -> PublicState:
    body = ChooseBody.decode(frame.body)
    return with_stage(game, state, game.stages.choose(state.rules_state, frame.seat,
                                                     body.seat))


def out_of_turn_allowed(game: Game, state: PublicState, frame: Frame) -> bool:
    """The exception to 10.5 check 8 (10.8): while a seat owes a KEY, COMMIT or OPEN of a
    simultaneous game, any other seat may declare it absent, in any order; the rules
    judge whether that seat may."""
    return (game.simultaneous and frame.type is MessageType.ABSENT
            and state.phase in (Phase.KEYS, Phase.COMMIT, Phase.OPEN))
