"""Mined Games: a stage resolved, the end of the game and its verdict
(spec/rules/mined-games.md sections 3, 5, 6 and 7).

Once every living seat has opened its orders, `resolve_stage` draws the map from the
opened nonces (stage 0), places the miners (stage 1) or plays a round (mined_round.py),
then starts the next stage or ends the game. At the end the iron bonus is paid (5.6)
and `final_result` finds the token winner and the elimination candidate, drawing ties
from the last stage's opened nonces (D14); `MinedOutcome` is the verdict as the
verifier reports it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..suite import Suite
from ..tags import Tag
from .mined_map import generate_map, map_seed
from .mined_round import (
    IRON_BONUS,
    Miner,
    Orders,
    RoundReport,
    resolve_round,
    resources_reachable,
    rounded_share,
)
from .mined_state import SEED_STAGE, START_STAGE, MinedState, Result


@dataclass(frozen=True)
class MinedOutcome:
    """The end of a game of Mined Games, as the verifier reports it (section 7)."""

    winner: int | None
    elimination_candidate: int | None
    end: str
    how: str
    money: tuple[int, ...]
    status: tuple[str, ...]
    forfeits: tuple[tuple[int, int, tuple[int, ...]], ...]
    pool: int
    # For the account of the verifier's text (5.7), not in the JSON: each round played
    # (its number and what happened) and each seat's rounds of paid iron (5.6).
    rounds: tuple[tuple[int, RoundReport], ...] = ()
    iron_rounds: tuple[int, ...] = ()
    withheld: tuple[tuple[int, int, tuple[int, ...]], ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        """The token winner, or every seat tied with it for the most money (section 7)."""
        return tuple(tied_for_tokens(tuple(Miner(None, money=m, status=st) for m, st in
                                           zip(self.money, self.status, strict=True))))

    def to_json(self) -> dict[str, Any]:
        return {"token_winner": self.winner, "winners": list(self.winners),
                "elimination_candidate": self.elimination_candidate,
                "end": self.end, "how": self.how, "money": list(self.money),
                "status": list(self.status),
                "forfeits": [{"seat": s, "stage": t, "declared_by": list(d),
                              "proven": False} for s, t, d in self.forfeits],
                "withheld": [{"seat": s, "stage": t, "opened_by": list(d)}
                             for s, t, d in self.withheld],
                "prize_pool_added": self.pool}


def _draw(suite: Suite, game_id: bytes, state: MinedState, tied: list[int]) -> int:
    """A tie broken by the stage's opened nonces (D14): nobody can steer it, since every
    nonce was committed before any was opened."""
    if len(tied) == 1:
        return tied[0]
    nonces = [n for n in state.nonces if n is not None]
    u = int.from_bytes(suite.H(Tag.MINED_TIE, game_id, *nonces)[:8], "big")
    return sorted(tied)[u % len(tied)]


def tied_for_tokens(miners: tuple[Miner, ...]) -> list[int]:
    """The seats with the most money among those the token winner comes from (section 7):
    the living; if none, every seat that did not forfeit; if none, every seat. One seat,
    or every tied seat (the draw of D14 picks the token winner among them)."""
    forfeited = [s for s, m in enumerate(miners) if m.status == "forfeit"]
    pool = ([s for s, m in enumerate(miners) if m.alive]
            or [s for s in range(len(miners)) if s not in forfeited] or list(range(len(miners))))
    best = max(miners[s].money for s in pool)
    return [s for s in pool if miners[s].money == best]


def final_result(suite: Suite, game_id: bytes, state: MinedState) -> Result:
    """The token winner and elimination candidate (section 7, D12-D15)."""
    miners = state.miners
    forfeited = [s for s, m in enumerate(miners) if m.status == "forfeit"]
    dead = [s for s, m in enumerate(miners) if not m.alive]
    living = [s for s, m in enumerate(miners) if m.alive]
    winner = _draw(suite, game_id, state, tied_for_tokens(miners))
    candidates = forfeited or dead
    if not candidates:
        least = min(miners[s].money for s in living)
        tied = [s for s in living if miners[s].money == least]
        return Result(winner, _draw(suite, game_id, state, tied), "least money")
    if len(candidates) == 1:
        return Result(winner, candidates[0], "forfeited" if forfeited else "died")
    if living:
        return Result(winner, None, "chosen by the winner", tuple(candidates))
    least = min(miners[s].money for s in candidates)
    tied = [s for s in candidates if miners[s].money == least]
    return Result(winner, _draw(suite, game_id, state, tied),
                  "forfeited with the least money" if forfeited else "died with the least money")


def _iron_bonus(miners: tuple[Miner, ...]) -> tuple[Miner, ...]:
    most = max(m.iron_rounds for m in miners)
    if most == 0:
        return miners
    top = [s for s, m in enumerate(miners) if m.iron_rounds == most]
    share = rounded_share(IRON_BONUS, len(top))
    return tuple(replace(m, money=m.money + share) if s in top else m
                 for s, m in enumerate(miners))


def finish(suite: Suite, game_id: bytes, state: MinedState, end: str) -> MinedState:
    """The game ends (section 6): the iron bonus once the miners are placed (5.6), then
    the verdict."""
    if state.stage > START_STAGE:
        state = replace(state, miners=_iron_bonus(state.miners))
    # The seals go (nothing is left to open); the last stage's openings stay in the state.
    return replace(state, end=end, result=final_result(suite, game_id, state),
                   commits=(None,) * state.seats, absent=None)


def resolve_stage(suite: Suite, game_id: bytes, state: MinedState, width: int, height: int,
                  rounds: int) -> tuple[MinedState, RoundReport | None]:
    """Resolve the stage from its openings (the map seed, the start, or a round: 3, 5) and
    start the next stage, or end the game (6) after the last of `rounds` rounds."""
    playing = state.playing()
    report = None
    died_now = any(m.died == state.stage for m in state.miners)
    if state.stage == SEED_STAGE:
        seed = map_seed(suite, game_id, [n for n in state.nonces if n is not None])
        mine = generate_map(suite, seed, width, height)
        state = replace(state, mine=mine, dur=mine.fresh_durability())
    elif state.stage == START_STAGE:
        state = replace(state, miners=tuple(
            replace(m, at=(0, *state.opened[s])) if s in playing else m
            for s, m in enumerate(state.miners)))
    else:
        assert state.mine is not None
        orders = {s: Orders(*state.opened[s]) for s in playing}
        dur, miners, report = resolve_round(state.mine, state.dur, state.miners, orders,
                                            state.stage)
        state = replace(state, dur=dur, miners=miners, pool=state.pool + report.pool,
                        reports=(*state.reports, (state.round, report)))
        died_now = died_now or bool(report.killed)
    end = None
    if not state.playing():
        end = "every miner is dead"
    elif died_now:
        end = "a miner died"
    elif state.round >= rounds:
        end = f"{rounds} rounds were played"
    elif state.stage > START_STAGE and state.mine is not None and \
            not resources_reachable(state.mine, state.dur, state.miners):
        end = "no resource is reachable"
    if end is not None:
        return finish(suite, game_id, state, end), report
    k = state.seats
    return replace(state, stage=state.stage + 1, commits=(None,) * k,
                   opened=(None,) * k, nonces=(None,) * k), report
