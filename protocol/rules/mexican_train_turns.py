"""Mexican Train: how a move changes a round, `apply` (spec/rules/mexican-train.md 6.2).

`apply` judges a move from the public state alone, with its checks in the order of
the spec's table: the engine search (5.1), first turns and doubles (5.2, 5.3), the
trains open to a seat (5.4, `open_trains`) and the end of the round (7).
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import LocalError
from .base import RuleViolation
from .mexican_train_state import (
    MEXICAN,
    TILE_SET,
    Draw,
    MexicanState,
    Move,
    NotHolding,
    Pass,
    Play,
    move_text,
)


def open_trains(state: MexicanState, seat: int) -> tuple[int, ...]:
    """The trains `seat` may play on now, in index order (section 5.4)."""
    if state.pending is not None:
        return (state.pending,)  # a pending double must be satisfied first, wherever it is
    if not state.first_done[seat]:
        return (seat,)
    trains = [x for x in range(state.seats) if x == seat or state.markers[x]]
    return (*trains, MEXICAN) if state.mexican is not None else tuple(trains)


def apply(state: MexicanState, seat: int, move: Move) -> MexicanState:
    """The state after `seat` makes `move` (section 6.2), or RuleViolation.

    Checks run in the order of the spec's table so every implementation reports
    the same code. Possession of a played tile, and the truth of a claim that no
    play was possible, are for the session to prove.
    """
    if state.finished is not None:
        raise RuleViolation("rules/game-over", f"the round is over ({state.finished})", seat)
    if seat != state.turn:
        raise RuleViolation("rules/not-your-turn", f"seat {state.turn} is to move", seat)
    if not isinstance(move, Pass | Draw | NotHolding | Play):
        raise LocalError("rules/bad-move", f"{move!r} is not a Mexican Train move")
    if isinstance(move, Play):
        _check_tile(state, seat, move)
    if state.phase != "play":
        return _apply_search(state, seat, move)
    if isinstance(move, NotHolding):
        raise RuleViolation("rules/not-holding-now", "the engine is already out", seat)
    if isinstance(move, Draw):
        return _draw(state, seat) if state.owes else _refuse_draw(seat)
    if isinstance(move, Pass):
        if state.owes and not state.drawn and state.boneyard:
            raise RuleViolation("rules/must-draw", "draw before passing", seat)
        return _end_turn(state, seat, passed=True)
    return _play(state, seat, move)


def _refuse_draw(seat: int) -> MexicanState:
    raise RuleViolation("rules/draw-not-allowed", "a first turn's run ends with a pass", seat)


def _check_tile(state: MexicanState, seat: int, move: Play) -> None:
    text = move_text(move) if move.tile in TILE_SET else f"{move.tile}>{move.train}"
    if move.tile not in TILE_SET:
        raise RuleViolation("rules/not-in-set", f"{text} is not a double-twelve tile", seat)
    if move.train != MEXICAN and move.train >= state.seats:
        raise RuleViolation("rules/no-such-train", f"{text}: {state.seats} seats", seat)
    if move.train == MEXICAN and state.mexican is None:
        raise RuleViolation("rules/no-mexican-train", f"{text}: the round has none", seat)
    if move.tile in state.table():
        raise RuleViolation("rules/tile-already-played", f"{text}: already on the table", seat)


def _draw(state: MexicanState, seat: int) -> MexicanState:
    if state.drawn:
        raise RuleViolation("rules/already-drew", "one draw a turn", seat)
    if not state.boneyard:
        raise RuleViolation("rules/boneyard-empty", "nothing to draw", seat)
    counts = tuple(c + (s == seat) for s, c in enumerate(state.hand_counts))
    return replace(state, hand_counts=counts, boneyard=state.boneyard - 1, drawn=True,
                   stalled=0)


def _apply_search(state: MexicanState, seat: int, move: Move) -> MexicanState:
    """Section 5.1: open with the engine, declare not holding it, or draw to find it."""
    if isinstance(move, Draw):
        if state.phase == "declare":
            raise RuleViolation("rules/draw-not-allowed", "nobody draws in the first lap", seat)
        return _draw(state, seat)
    if isinstance(move, Pass):
        raise RuleViolation("rules/pass-not-allowed", "open or declare not holding", seat)
    if state.phase == "search" and not state.drawn:
        raise RuleViolation("rules/must-draw", "draw before opening or declaring", seat)
    if isinstance(move, NotHolding):
        nxt = (seat + 1) % state.seats
        lap_over = state.phase == "search" or nxt == state.first_player
        return replace(state, turn=nxt, phase="search" if lap_over else "declare", drawn=False)
    assert isinstance(move, Play)
    if move.tile != (state.engine, state.engine) or move.train != seat:
        raise RuleViolation("rules/engine-first",
                            f"{move_text(move)}: open with {state.engine}-{state.engine}>{seat}",
                            seat)
    counts = tuple(c - (s == seat) for s, c in enumerate(state.hand_counts))
    # Opening starts the opener's first turn afresh: a draw made to find the engine
    # is not that turn's draw (decision D5).
    return replace(state, hand_counts=counts, phase="play", drawn=False, owes=True,
                   finished="out" if counts[seat] == 0 else None)


def _play(state: MexicanState, seat: int, move: Play) -> MexicanState:
    """Section 6.2: a tile on an open train whose end it matches."""
    text, x = move_text(move), move.train
    if state.pending is not None and x != state.pending:
        raise RuleViolation("rules/double-pending",
                            f"{text}: satisfy the double on train {_train_name(state.pending)}",
                            seat)
    if x not in open_trains(state, seat):
        raise RuleViolation("rules/train-closed", f"{text}: that train is not open to you", seat)
    end = state.open_end(x)
    if end not in move.tile:
        raise RuleViolation("rules/tile-does-not-match", f"{text}: that train ends in {end}",
                            seat)
    a, b = move.tile
    placed = (a, b) if a == end else (b, a)
    trains, mexican = state.trains, state.mexican
    if x == MEXICAN:
        mexican = (*(mexican or ()), placed)
    else:
        trains = tuple((*t, placed) if i == x else t for i, t in enumerate(trains))
    counts = tuple(c - (s == seat) for s, c in enumerate(state.hand_counts))
    out, double = counts[seat] == 0, a == b
    # A double must be followed (section 5.3); a first turn's run goes on (5.2).
    run_on = not state.first_done[seat] and not state.drawn
    after = replace(state, trains=trains, mexican=mexican, hand_counts=counts,
                    markers=tuple(m and i != x for i, m in enumerate(state.markers)),
                    pending=x if double else None, stalled=0, owes=double or not run_on,
                    finished="out" if out else None)
    if out or double or run_on:
        return after
    return _end_turn(after, seat, passed=False)


def _end_turn(state: MexicanState, seat: int, *, passed: bool) -> MexicanState:
    """Hand the turn on; a pass by a seat that owed a tile puts its marker down.

    A pass that changes nothing public (empty boneyard, the seat's first turn
    already over, its marker already down) is a stall; `seats` stalls in a row
    mean every seat has claimed, in the same position, that it cannot play.
    """
    markers = tuple(m or (passed and state.owes and i == seat)
                    for i, m in enumerate(state.markers))
    stall = (passed and not state.boneyard and state.first_done[seat]
             and state.markers[seat])
    stalled = state.stalled + 1 if stall else 0
    return replace(state, markers=markers, turn=(seat + 1) % state.seats, drawn=False,
                   owes=True, first_done=tuple(d or i == seat
                                               for i, d in enumerate(state.first_done)),
                   stalled=stalled, finished="blocked" if stalled == state.seats else None)


def _train_name(x: int) -> str:
    return "M" if x == MEXICAN else str(x)

