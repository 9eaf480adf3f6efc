"""Simultaneous rule sets: stages of commit-reveal (spec/10-session.md 10.8).

A simultaneous rule set (`rules.base.SimultaneousRules`) has no deck. In every
stage each living seat commits to its orders (COMMIT), then opens them (OPEN); the
session checks that each opening opens the seat's commitment and leaves the rest
to the rules. A seat that stays silent can be declared absent by every other
living seat (ABSENT), and the winner may owe a choice (CHOOSE). The session's
phase and turn always follow what the rules' `due` says is owed.
"""

from __future__ import annotations

from typing import Any

from .canonical import pack
from .errors import DealerlessError
from .frames import Frame, MessageType
from .game import Game
from .hashing import H, Tag, u64
from .messages import AbsentBody, ChooseBody, CommitBody, OpenBody
from .rules.base import StageState
from .state import Phase, PublicState, stage_position


def orders_commitment(game_id: bytes, stage: int, seat: int, orders: Any,
                      nonce: bytes) -> bytes:
    """H(MINED_COMMIT, game_id, u64 stage, u8 seat, pack(orders), nonce), 32 bytes (10.8)."""
    return H(Tag.MINED_COMMIT, game_id, u64(stage), bytes([seat]), pack(orders), nonce)[:32]


def with_stage(game: Game, state: PublicState, rs: StageState) -> PublicState:
    """The session state around the rules' state: phase and turn follow what is owed."""
    phase, turn = stage_position(game.stages.due(rs))
    return state.with_(rules_state=rs, phase=phase, turn=turn)


def _answering(game: Game, state: PublicState, frame: Frame, kind: str) -> StageState:
    """The rules' state a COMMIT or OPEN applies to. In phase `absent` it comes from the
    seat being declared absent, which answers after all: the declarations lapse, and the
    frame must be the one that seat owed (10.8)."""
    rs: StageState = state.rules_state
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


def out_of_turn_allowed(state: PublicState, frame: Frame) -> bool:
    """The exceptions to 10.5 check 8 (10.8): while a seat owes a COMMIT or OPEN, another
    seat may declare it absent; while it is being declared absent, it may still answer."""
    if state.phase in (Phase.COMMIT, Phase.OPEN):
        return frame.type is MessageType.ABSENT
    if state.phase is Phase.ABSENT:
        rs: StageState = state.rules_state
        absent = rs.absent
        return (frame.type in (MessageType.COMMIT, MessageType.OPEN)
                and absent is not None and frame.seat == absent[0])
    return False

