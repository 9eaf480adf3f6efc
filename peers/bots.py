"""Bots: move choosers that see only their seat's view (protocol/seat.py SeatView).

A bot is a callable SeatView -> move. It never receives the agent, the public
deck or any other seat's data, so it cannot peek at what its seat may not know.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from protocol.rules.mined_games import MinedState
from protocol.seat import SeatView

from .mined_bots import mined_orders


def _plays(view: SeatView) -> list[Any]:
    return [m for m in view.legal if getattr(m, "tile", None) is not None]


def random_bot(rng: random.Random) -> Callable[[SeatView], Any]:
    """Plays a uniformly random legal tile; passes only when no tile fits. In Mined Games:
    random safe steps and a random paying mine (peers/mined_bots.py)."""
    def choose(view: SeatView) -> Any:
        if isinstance(view.rules_state, MinedState):
            return mined_orders(view, rng, greedy=False)
        plays = _plays(view)
        return rng.choice(plays) if plays else view.legal[0]
    return choose


def greedy_bot(rng: random.Random) -> Callable[[SeatView], Any]:
    """Sheds the heaviest tile that fits (most pips first); passes only when stuck. In
    Mined Games: the best paying mine within reach (peers/mined_bots.py)."""
    def choose(view: SeatView) -> Any:
        if isinstance(view.rules_state, MinedState):
            return mined_orders(view, rng, greedy=True)
        plays = _plays(view)
        if not plays:
            return view.legal[0]
        return max(plays, key=lambda m: (sum(m.tile), m.tile, str(getattr(m, "end", ""))))
    return choose


BOTS: dict[str, Callable[[random.Random], Callable[[SeatView], Any]]] = {
    "random": random_bot,
    "greedy": greedy_bot,
}
