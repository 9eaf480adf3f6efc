"""Rule sets: pure game logic behind one interface (spec/rules/bram.md section 1).

`RULESETS` maps a rule-set name to a factory taking its JSON parameters;
`make_rules(name, params, suite)` looks one up. Every factory returns a `RuleSet`; a rule
set whose state holds group elements (Mined Games' seals) checks them in the game's suite.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from ..errors import EncodingError
from ..suite import Suite
from .base import DealPlan, Outcome, Params, ParamValue, RuleSet, RuleViolation, halves_text
from .bram import BramRules
from .bram_state import BramState, End, Move, Pass, Play
from .mexican_train import MexicanTrainRules
from .mexican_train_state import MexicanState
from .mexican_train_state import Move as MexicanMove
from .mined_games import MinedGamesRules
from .mined_state import MinedState
from .mineshaft import MineshaftRules
from .mineshaft_state import MineshaftState
from .mineshaft_state import Move as MineshaftMove


def _bram(params: Mapping[str, object], suite: Suite | None) -> RuleSet[BramState, Move]:
    # Typed as the Protocol so mypy proves BramRules implements it.
    return BramRules.from_params(params)


def _mexican_train(params: Mapping[str, object],
                   suite: Suite | None) -> RuleSet[MexicanState, MexicanMove]:
    return MexicanTrainRules.from_params(params)


def _mineshaft(params: Mapping[str, object],
               suite: Suite | None) -> RuleSet[MineshaftState, MineshaftMove]:
    return MineshaftRules.from_params(params)


def _mined_games(params: Mapping[str, object], suite: Suite | None) -> RuleSet[MinedState, Any]:
    return MinedGamesRules.from_params(params, suite)


RuleSetFactory = Callable[[Mapping[str, object], Suite | None], RuleSet[Any, Any]]

RULESETS: Mapping[str, RuleSetFactory] = MappingProxyType({"bram": _bram,
                                                      "mexican-train": _mexican_train,
                                                      "mineshaft": _mineshaft,
                                                      "mined-games": _mined_games})


def make_rules(name: str, params: Mapping[str, object],
               suite: Suite | None = None) -> RuleSet[Any, Any]:
    """The rule set `name` with `params`, for a game in `suite` (None: dealerless/2's
    edwards25519-sha512); EncodingError for an unknown name or bad params."""
    factory = RULESETS.get(name)
    if factory is None:
        raise EncodingError("rules/unknown-ruleset", f"no rule set named {name!r}")
    return factory(params, suite)


__all__ = [
    "RULESETS",
    "BramRules",
    "BramState",
    "DealPlan",
    "End",
    "MexicanState",
    "MexicanTrainRules",
    "MinedGamesRules",
    "MinedState",
    "MineshaftRules",
    "MineshaftState",
    "Move",
    "Outcome",
    "ParamValue",
    "Params",
    "Pass",
    "Play",
    "RuleSet",
    "RuleSetFactory",
    "RuleViolation",
    "halves_text",
    "make_rules",
]
