"""Matches: rounds played as a chain of games, and their standings (spec/11-verify.md 11.5).

A match is no second protocol. Each round is a whole game (setup, shuffles, deal,
play, reveal) whose rule parameters name the round (`round`, the starting double
of that round) and the round before it (`after`, the hash of that round's last
frame, which covers its whole chain and its setup). Round after round the same
seats, in the same order, under the same rules, with `round` going down by one
from the set's highest double to 0-0. The standings add up every seat's pips left
in hand (`Outcome.hand_pips`) over the rounds; the lowest total wins, ties share.

    file   = MATCH_MAGIC record*
    record = "R" || u32 big-endian length || a transcript file (8.6)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import EncodingError, LocalError, Violation
from .frames import frame_hash
from .rules.base import Outcome
from .transcript import MAGIC_PREFIX, Transcript
from .verifier import Verdict, replay
from .version import PROTOCOL, check_magic, magic

MATCH_PREFIX = b"DEALERLESS-M"
ROUND = b"R"
#: Double-twelve: rounds 12-12 down to 0-0.
MAX_ROUNDS = 13
MAX_ROUND_BYTES = 1 << 24


def encode_match(rounds: list[bytes]) -> bytes:
    """The match file of these rounds' transcript files, at their protocol version."""
    version = check_magic(rounds[0], MAGIC_PREFIX, "transcript", "transcript/magic") \
        if rounds else PROTOCOL
    return magic(MATCH_PREFIX, version) + b"".join(ROUND + len(r).to_bytes(4, "big") + r
                                                   for r in rounds)


def decode_match(data: bytes) -> list[bytes]:
    """The rounds' transcript files; EncodingError (`match/...`) if the container is bad."""
    check_magic(data, MATCH_PREFIX, "match file", "match/magic")
    rounds: list[bytes] = []
    pos = len(MATCH_PREFIX) + 2
    while pos < len(data):
        if len(data) - pos < 5 or data[pos:pos + 1] != ROUND:
            raise EncodingError("match/record", f"no round record at byte {pos}")
        length = int.from_bytes(data[pos + 1:pos + 5], "big")
        if length > MAX_ROUND_BYTES or pos + 5 + length > len(data):
            raise EncodingError("match/record", f"the round at byte {pos} is cut or too large")
        if len(rounds) == MAX_ROUNDS:
            raise EncodingError("match/record", f"a match has at most {MAX_ROUNDS} rounds")
        rounds.append(data[pos + 5:pos + 5 + length])
        pos += 5 + length
    if not rounds:
        raise EncodingError("match/record", "a match file holds at least one round")
    return rounds


def link_of(transcript: bytes) -> str:
    """What the next round's `after` must be: the hash of this round's last frame, hex.
    Only a complete round is followed (11.5), and a complete round has frames; the empty
    text of a round without frames is never a link."""
    decoded = Transcript.decode(transcript)
    if not decoded.frames:
        return ""
    return frame_hash(decoded.setup.suite, decoded.frames[-1]).hex()


@dataclass(frozen=True)
class MatchVerdict:
    rounds: list[Verdict]
    violation: Violation | None = None
    """A round's own violation, or a broken chain (`match/link`, no seat blamed)."""
    broken_round: int | None = None
    totals: tuple[int, ...] | None = None
    winners: tuple[int, ...] = field(default_factory=tuple)
    rounds_due: int = 0

    @property
    def valid(self) -> bool:
        return self.violation is None

    @property
    def complete(self) -> bool:
        return self.valid and len(self.rounds) == self.rounds_due and all(
            r.complete for r in self.rounds)

    @property
    def exit_code(self) -> int:
        return 1 if not self.valid else 0 if self.complete else 3

    def to_json(self) -> dict[str, Any]:
        v = self.violation
        return {
            "match": True, "valid": self.valid, "complete": self.complete,
            "rounds_played": len(self.rounds), "rounds_due": self.rounds_due,
            "rounds": [r.to_json() for r in self.rounds],
            "totals": None if self.totals is None else list(self.totals),
            "winners": list(self.winners),
            "violation": None if v is None else {
                "round": self.broken_round, "seat": v.seat, "frame": v.frame,
                "rule": v.code, "detail": v.detail, "authenticated": v.authenticated},
        }


def _link_problem(previous: Verdict, before: bytes, current: Verdict,
                  first: Verdict) -> str | None:
    """Why round `current` does not follow round `previous` (whose file is `before`) in
    the match whose first round is `first`."""
    a, b = previous.setup, current.setup
    if a is None or b is None:
        return "a round has no setup"
    if b.rules != a.rules or b.identities != a.identities:
        return "every round is played by the same seats, in order, under the same rules"
    pa, pb = dict(a.params), dict(b.params)
    if pb.get("round") != int(pa.get("round", 0)) - 1:
        return f"round {pa.get('round')} must be followed by round {int(pa['round']) - 1}"
    if pb.get("after") != link_of(before):
        return "`after` is not the hash of the previous round's last frame"
    if "first" in pb and pb["first"] != first.first_player:
        return (f"every round is led by the first round's first player, seat "
                f"{first.first_player} (`first`), not {pb['first']}")
    linked = ("round", "after", "first")
    same = {k: v for k, v in pa.items() if k not in linked}
    if same != {k: v for k, v in pb.items() if k not in linked}:
        return "the rounds' other parameters differ"
    return None


def replay_each(files: list[bytes]) -> Iterator[Verdict]:
    """The rounds replayed one after another, as they are asked for."""
    return map(replay, files)


def verify_match(data: bytes,
                 replays: Callable[[list[bytes]], Iterable[Verdict]] = replay_each,
                 ) -> MatchVerdict:
    """Replay every round (11.2), check the chain of rounds, and add up the standings.

    Each round is replayed alone and the chain is checked on the verdicts, so
    `replays` may verify the rounds in any order or in parallel (11.5); it returns
    their verdicts in round order, and the verdict is the same either way."""
    try:
        files = decode_match(data)
    except EncodingError as exc:
        return MatchVerdict([], Violation(exc.code, exc.detail, None, None, False))
    version = check_magic(data, MATCH_PREFIX, "match file", "match/magic")
    verdicts: list[Verdict] = []
    results = iter(replays(files))
    for i, _ in enumerate(files):
        verdict = next(results)
        verdicts.append(verdict)
        problem = None
        setup = verdict.setup
        if setup is None:
            # The round's own file does not parse (11.2 step 1): its own violation, and no
            # link to check without a setup.
            return MatchVerdict(verdicts, verdict.violation, i)
        if setup.version != version:     # 11.5: the magic's digit is its rounds' version
            return MatchVerdict(verdicts, Violation(
                "version/unsupported", f"this round is dealerless/{setup.version}, in a match "
                f"file of dealerless/{version}", None, None, False), i)
        if "round" not in dict(setup.params):
            problem = "the rules of this round take no round number: not a match"
        elif i == 0:
            params = dict(setup.params)
            if params["round"] != setup.ruleset.tile_set.max_pip or params.get("after") != "" \
                    or params.get("first", -1) != -1:
                problem = ("the first round starts at the set's highest double, after "
                           "nothing, and draws its first player")
        else:
            problem = _link_problem(verdicts[i - 1], files[i - 1], verdict, verdicts[0])
        if problem is not None:
            return MatchVerdict(verdicts, Violation("match/link", problem, None, None, False),
                                i)
        if not verdict.valid:
            return MatchVerdict(verdicts, verdict.violation, i)
        if not verdict.complete and i + 1 < len(files):
            return MatchVerdict(verdicts, Violation(
                "match/link", "a round after an unfinished round", None, None, False), i + 1)
    first = verdicts[0].setup
    if first is None:  # the loop returned for a round without a setup
        raise LocalError("match/state", "a checked match has a first setup")
    due = int(dict(first.params)["round"]) + 1
    done = [v.outcome.hand_pips for v in verdicts
            if v.complete and isinstance(v.outcome, Outcome)]
    totals = tuple(sum(row[s] for row in done) for s in range(first.seats)) if done else None
    winners: tuple[int, ...] = ()
    if totals is not None and len(done) == due:
        low = min(totals)
        winners = tuple(s for s, t in enumerate(totals) if t == low)
    return MatchVerdict(verdicts, None, None, totals, winners, due)

