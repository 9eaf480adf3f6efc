"""What the page may offer a Mined Games miner (spec/rules/mined-games.md 4.1 and 4.2).

The page composes orders a step at a time on the map; it must never let a person build
orders the rules refuse (a refused COMMIT cannot be sent, and a page that offered one
leaves its person nothing to click). So every limit comes from the session's own rule
set: each candidate is put through `decode_orders` and `check` exactly as the peer does
before it commits, and the page is told which starts, steps and actions pass.
"""

from __future__ import annotations

from typing import Any

from protocol.errors import DealerlessError
from protocol.rules.mined_round import ACTION_TEXT
from protocol.rules.mined_state import START_STAGE
from protocol.seat import SeatView

STEPS = "UDLR"


def refusal(game: Any, view: SeatView, orders: Any) -> str | None:
    """Why the session's rules refuse `orders` (wire form) for this seat, or None."""
    rules, state = game.stages, view.rules_state
    try:
        rules.check(state, view.seat, rules.decode_orders(state, orders))
    except DealerlessError as exc:
        return f"{exc.code}: {exc.detail}" if exc.detail else exc.code
    return None


def starts(game: Any, view: SeatView) -> list[list[int]] | None:
    """In the start stage, every B1 tile a miner may start on; None in other stages."""
    state = view.rules_state
    if state is None or state.stage != START_STAGE or state.mine is None:
        return None
    return [[r, c] for r in range(state.mine.height) for c in range(state.mine.width)
            if refusal(game, view, [r, c]) is None]


def draft(game: Any, view: SeatView, choice: Any) -> dict[str, Any]:
    """A round's orders being composed, `[steps, action]`: whether they may be sent, and
    which step may come next and which action may end them. Every entry is None where
    the rules accept, else the refusal, so the page can say why a button is off."""
    if (not isinstance(choice, list) or len(choice) != 2 or type(choice[0]) is not str
            or type(choice[1]) is not int or set(choice[0]) - set(STEPS)):
        return {"error": "a draft is [steps of U/D/L/R, an action code]"}
    steps, action = choice
    return {"stage": view.rules_state.stage, "steps": steps, "action": action,
            "problem": refusal(game, view, [steps, action]),
            "next": {d: refusal(game, view, [steps + d, 0]) for d in STEPS},
            "actions": [{"code": code, "problem": refusal(game, view, [steps, code])}
                        for code in sorted(ACTION_TEXT)]}
