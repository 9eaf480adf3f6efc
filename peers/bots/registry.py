"""Bots: move choosers that see only their seat's view (protocol/seat.py SeatView).

A bot is a callable SeatView -> move. It never receives the agent, the public
deck or any other seat's data, so it cannot peek at what its seat may not know.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from peers.bots.mined import mined_orders
from protocol.errors import LocalError
from protocol.rules.mined_state import MinedState
from protocol.seat import SeatView


def _plays(view: SeatView) -> list[Any]:
    return [m for m in view.legal if getattr(m, "tile", None) is not None]


def random_bot(rng: random.Random) -> Callable[[SeatView], Any]:
    """Plays a uniformly random legal tile; passes only when no tile fits. In Mined Games:
    random safe steps and a random paying mine (peers/bots/mined.py)."""
    def choose(view: SeatView) -> Any:
        if isinstance(view.rules_state, MinedState):
            return mined_orders(view, rng, greedy=False)
        plays = _plays(view)
        return rng.choice(plays) if plays else view.legal[0]
    return choose


def greedy_bot(rng: random.Random) -> Callable[[SeatView], Any]:
    """Sheds the heaviest tile that fits (most pips first); passes only when stuck. In
    Mined Games: the best paying mine within reach (peers/bots/mined.py)."""
    def choose(view: SeatView) -> Any:
        if isinstance(view.rules_state, MinedState):
            return mined_orders(view, rng, greedy=True)
        plays = _plays(view)
        if not plays:
            return view.legal[0]
        return max(plays, key=lambda m: (sum(m.tile), m.tile, str(getattr(m, "end", ""))))
    return choose


def strong_bot(rng: random.Random) -> Callable[[SeatView], Any]:
    """Bram's game only: the best expected margin over every world its seat cannot rule
    out, by alpha-beta in each (peers/bots/strong.py), with the default node budget."""
    from peers.bots.strong import StrongBot

    return StrongBot(rng)


BOTS: dict[str, Callable[[random.Random], Callable[[SeatView], Any]]] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "strong": strong_bot,
}
#: Bots that play one rule set only, and which.
RULES_OF = {"strong": "bram"}
#: Bots that take a thinking budget (--nodes, --think-ms).
THINKERS = {"strong"}
#: The strong bot's time a move, in ms, when it plays a person (`play`, `web`, a network
#: seat given to a bot) and no --think-ms is given: about as long as a person will wait,
#: and enough to search most of the last half of a hand to its end (README, "Bots").
#: Tournaments and selfplay keep the node budget, which makes them reproducible.
PERSON_THINK_MS = 1000.0


def make_bot(name: str, rng: random.Random, nodes: int | None = None,
             think_ms: float | None = None) -> Callable[[SeatView], Any]:
    """The bot `name` with an optional budget; LocalError for an unknown name or a budget
    given to a bot that does not think."""
    if name not in BOTS:
        raise LocalError("bot/unknown", f"unknown bot {name!r}; have {', '.join(sorted(BOTS))}")
    if nodes is None and think_ms is None:
        return BOTS[name](rng)
    if name not in THINKERS:
        raise LocalError("bot/budget", f"the {name} bot takes no thinking budget; "
                                       f"only {', '.join(sorted(THINKERS))} does")
    from peers.bots.strong import DEFAULT_NODES, StrongBot

    return StrongBot(rng, DEFAULT_NODES if nodes is None else nodes, think_ms)


def check_bot(name: str, rules: str) -> None:
    """LocalError if `name` is no bot or cannot play `rules`."""
    if name not in BOTS:
        raise LocalError("bot/unknown", f"unknown bot {name!r}; have {', '.join(sorted(BOTS))}")
    only = RULES_OF.get(name)
    if only is not None and only != rules:
        raise LocalError("bot/rules", f"the {name} bot plays {only} only, not {rules}")
