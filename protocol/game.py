"""The fixed facts of one game, derived from its setup (spec/10-session.md 10.1 and 10.3).

`Game` is what every step of the session takes besides the state and the frame:
the rule set, the number of seats, the game id, the deck tiles, the owner of each
deck position as dealt, and the state before the first frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .context import Context
from .errors import LocalError
from .frames import Frame
from .rules.base import RuleSet
from .rules.simultaneous import SimultaneousRules
from .setup import GameSetup
from .state import BONEYARD, HIDDEN, Phase, PublicState, stage_position
from .suite import Suite
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
    def suite(self) -> Suite:
        return self.setup.suite

    @cached_property
    def simultaneous(self) -> bool:
        """A rule set of simultaneous orders by commit-reveal, with no deck (10.8)."""
        return isinstance(self.rules, SimultaneousRules)

    @property
    def stages(self) -> SimultaneousRules[Any]:
        """The rules of a simultaneous game (10.8)."""
        if not isinstance(self.rules, SimultaneousRules):
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
            rs = self.stages.start_state()
            phase, turn = stage_position(self.stages.due(rs))
            return PublicState(
                game_id=self.game_id, seq=0, prev=self.game_id, phase=phase, turn=turn,
                key_shares=(), commitments=(), nonces=(), first_player=None, deck=(),
                owners=(), shares=(), opened=(), played=(), rules_state=rs)
        n = len(self.deck_tiles)
        return PublicState(
            game_id=self.game_id, seq=0, prev=self.game_id, phase=Phase.KEYS, turn=0,
            key_shares=(), commitments=(), nonces=(), first_player=None, deck=(),
            owners=self.owners, shares=tuple((None,) * self.seats for _ in range(n)),
            opened=(None,) * n, played=(False,) * n)

    def ctx(self, frame: Frame) -> Context:
        """Every proof in a frame is bound to (game id, the frame's seq, its sender)."""
        return Context(self.suite, self.game_id, frame.seq, frame.seat)
