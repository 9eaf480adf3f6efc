"""In-process self-play: every seat runs the same Referee and SeatAgent a networked peer runs.

Frames go from the seat that owes one to every seat's referee, its own
included, exactly as they would over a transport; the transcript is what each
seat's referee accepted, and every seat's copy must be identical.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from peers.bots.registry import BOTS, THINKERS, check_bot, make_bot
from peers.entropy import Entropy
from protocol.errors import LocalError
from protocol.identity import Identity
from protocol.referee import Referee
from protocol.seat import SeatAgent, SeatView
from protocol.setup import GameSetup
from protocol.suite import Suite, table_suite
from protocol.tiles import TILE_SETS
from protocol.transcript import Transcript

Chooser = Callable[[SeatView], Any]


#: The suite of the tables made where their maker names none: the suite of this version's
#: new games, unless a generator of vectors plays in another (`tables_in`).
_TABLES_IN: ContextVar[Suite | None] = ContextVar("tables_in", default=None)


@contextmanager
def tables_in(chosen: Suite) -> Iterator[None]:
    """Every table made inside plays in `chosen` unless it names its own suite: how the
    vector generators replay a whole set of scripted games in one suite."""
    token = _TABLES_IN.set(chosen)
    try:
        yield
    finally:
        _TABLES_IN.reset(token)


@dataclass
class Table:
    """Seats, their agents and their referees for one in-process game."""

    setup: GameSetup
    agents: list[SeatAgent]
    referees: list[Referee]
    choosers: list[Chooser]
    entropy: Entropy

    @property
    def suite(self) -> Suite:
        return self.setup.suite

    @classmethod
    def create(cls, rules: str, params: dict[str, Any], bots: Sequence[str],
               entropy: Entropy, identities: Sequence[Identity] | None = None,
               think_ms: float | None = None, in_suite: Suite | None = None) -> Table:
        """A table for `bots`, one a seat; `identities` keeps the seats' keys (a match);
        `think_ms` is the thinking time of the bots that take one (the strong bot);
        `in_suite` the game's suite (the default one of this version if None)."""
        unknown = [b for b in bots if b not in BOTS]
        if unknown:
            raise LocalError("selfplay/bot", f"unknown bot {unknown[0]!r}; have {sorted(BOTS)}")
        for name in bots:
            check_bot(name, rules)
        if identities is None:
            identities = [Identity(entropy.bytes(f"identity {i}")) for i in range(len(bots))]
        chosen = in_suite or _TABLES_IN.get() or table_suite()
        setup = GameSetup.create(rules, params, [i.frame_key(chosen) for i in identities],
                                 [entropy.bytes(f"setup nonce {i}") for i in range(len(bots))],
                                 chosen)
        referees = [Referee(setup) for _ in bots]
        agents = [SeatAgent(referees[i].game, i, ident, entropy.bytes(f"seat secret {i}"))
                  for i, ident in enumerate(identities)]
        choosers = [make_bot(name, random.Random(entropy.bytes(f"bot {i}")),
                             think_ms=think_ms if name in THINKERS else None)
                    for i, name in enumerate(bots)]
        return cls(setup, agents, referees, choosers, entropy)

    def step(self) -> bytes | None:
        """Let the seat that owes a frame send it to every referee; None when done."""
        due = self.referees[0].awaiting
        if due is None:
            return None
        seat = due[0]
        wire = self.agents[seat].next_frame(self.referees[seat].state,
                                            self.entropy.bytes(f"fresh {seat}"),
                                            self.choosers[seat])
        self.deliver(wire)
        return wire

    def deliver(self, wire: bytes) -> None:
        for ref in self.referees:
            ref.receive(wire)

    def play(self, progress: Callable[[int], None] | None = None) -> Transcript:
        """The whole game; `progress(frames)` hears of every frame."""
        frames = 0
        while self.step() is not None:
            frames += 1
            if progress is not None:
                progress(frames)
        copies = {ref.transcript().encode() for ref in self.referees}
        if len(copies) != 1:
            raise LocalError("selfplay/diverged", "the seats' transcripts differ")
        return self.referees[0].transcript()


#: The domino sets a rule set may offer (`--set`).
SET_NAMES = sorted(TILE_SETS)


def default_seats(rules: str) -> int:
    """The seats a rule set is played with when none are asked for: its own default
    (mined-games: 5), else 2 (the rules that need a count are played by two)."""
    from protocol.errors import DealerlessError
    from protocol.rules import make_rules

    try:
        return int(make_rules(rules, {}).deal.seats)
    except DealerlessError:
        return 2


def rule_params(rules: str, seats: int, komi_halves: int | None = None,
                tile_set: str | None = None, mine_map: str | None = None) -> dict[str, Any]:
    """A rule set's parameters from the command line's --seats, --komi, --set and --map
    (the text of a map file); ValueError naming what cannot work (an unknown rule set, a
    seat count the rules do not allow, a komi, a set or a map for rules that take none, a
    bad map). Without a komi the rules' default applies."""
    from protocol.errors import DealerlessError
    from protocol.rules import make_rules

    probe: Any = None
    problem = ""
    # Some rule sets require their seat count, and some allow more seats on a larger set.
    guesses: list[dict[str, Any]] = [{}, {"seats": seats}]
    if tile_set is not None:
        guesses += [{"set": tile_set}, {"set": tile_set, "seats": seats}]
    for guess in guesses:
        try:
            probe = make_rules(rules, guess)
            break
        except DealerlessError as exc:
            problem = exc.detail or exc.code
    if probe is None:
        raise ValueError(problem)
    params: dict[str, Any] = {}
    if tile_set is not None:
        if "map" in probe.params:
            raise ValueError(f"the rules {rules} use no dominoes (no --set)")
        if "set" not in probe.params:
            raise ValueError(f"the rules {rules} are played with one set (no --set)")
        params["set"] = tile_set
    if "komi_halves" in probe.params:
        if komi_halves is not None:  # else the rules' default
            params["komi_halves"] = komi_halves
    elif komi_halves:
        raise ValueError(f"the rules {rules} have no komi (--komi)")
    if "seats" in probe.params:
        params["seats"] = seats
    if mine_map is not None:
        if "map" not in probe.params:
            raise ValueError(f"the rules {rules} take no --map")
        params["map"] = "".join(mine_map.split())  # whitespace in the file is layout
    try:
        ruleset = make_rules(rules, params)
    except DealerlessError as exc:
        raise ValueError(exc.detail or exc.code) from None
    if ruleset.deal.seats != seats:
        raise ValueError(f"the rules {rules} are for {ruleset.deal.seats} players only, not "
                         f"--seats {seats}")
    return params


def selfplay(rules: str = "bram", params: dict[str, Any] | None = None,
             bots: Sequence[str] = ("greedy", "random"), seed: int | None = None,
             think_ms: float | None = None,
             progress: Callable[[int], None] | None = None,
             in_suite: Suite | None = None) -> Transcript:
    return Table.create(rules, params or {}, bots, Entropy(seed),
                        think_ms=think_ms, in_suite=in_suite).play(progress)


def selfplay_match(rules: str, params: dict[str, Any], bots: Sequence[str],
                   seed: int | None = None,
                   progress: Callable[[int, int, int], None] | None = None,
                   in_suite: Suite | None = None) -> list[bytes]:
    """Every round of a match (spec/11-verify.md 11.5), each a game chained to the last:
    `round` from the set's highest double down to 0-0, `after` the previous round's link.
    `progress(rounds done, rounds in all, frames of the round being played)`."""
    from protocol.match import link_of
    from protocol.rules import make_rules

    top = make_rules(rules, {**params, "round": 0}).tile_set.max_pip
    entropy = Entropy(seed)
    seats = [Identity(entropy.bytes(f"identity {i}")) for i in range(len(bots))]
    rounds: list[bytes] = []

    def tick(frames: int) -> None:   # while a round is played, len(rounds) are done
        if progress is not None:
            progress(len(rounds), top + 1, frames)

    fixed = "first" in make_rules(rules, {**params, "round": 0}).params
    lead: int | None = None
    for number in range(top, -1, -1):
        after = link_of(rounds[-1]) if rounds else ""
        round_params = {**params, "round": number, "after": after}
        if fixed and lead is not None:
            round_params["first"] = lead  # the seating holds for the rest of the game
        table = Table.create(rules, round_params, bots, entropy, seats, in_suite=in_suite)
        rounds.append(table.play(tick).encode())
        if lead is None:
            lead = table.referees[0].state.first_player
    return rounds
