"""Human-readable accounts of a verdict, for `dealerless verify` and `selfplay`.

The text says what the verdict proves and what it does not (spec/11-verify.md 11.1):
a violation not authenticated blames nobody, and a valid prefix names the seat that
owes the next frame without calling it a forfeit (each rule set's own decision:
spec/rules/bram.md D14, mexican-train.md D22, mineshaft.md D18, mined-games.md D16).
"""

from __future__ import annotations

from protocol.errors import Violation
from protocol.match import MatchVerdict
from protocol.rules.mined_stage import MinedOutcome
from protocol.verifier import Decided, Verdict

from .mined_account import mined_rounds_text

NOT_PROVEN_SILENCE = ("Not proven: that seat {seat} abandoned the game; a cut file or a lost "
                      "connection looks the same (a forfeit needs a deadline the seats agreed "
                      "on outside the transcript, spec/{rule}).")
#: Each rule set's own decision on abandonment: a transcript proves no silence.
ABANDONMENT = {"bram": "rules/bram.md D14", "mexican-train": "rules/mexican-train.md D22",
               "mineshaft": "rules/mineshaft.md D18", "mined-games": "rules/mined-games.md D16"}


def abandonment_rule(rules: str | None) -> str:
    """Where the spec says why a silence is not proven, for these rules."""
    return ABANDONMENT.get(rules or "bram", ABANDONMENT["bram"])


def params_text(params: dict[str, object]) -> str:
    """Rule parameters in words: `3 seats, round 12, after nothing, mexican train no`."""
    words = []
    for key, value in sorted(params.items(), key=lambda kv: (kv[0] != "seats", kv[0])):
        name = key.replace("_", " ")
        if key == "seats":
            words.append(f"{value} seats")
        elif key == "round":
            words.append(f"round {value} (starting double {value}-{value})")
        elif key == "komi_halves" and isinstance(value, int):
            words.append(f"komi {value / 2:g} pips")
        elif key == "after":
            words.append(f"after the round ending in frame hash {str(value)[:16]}..." if value
                         else "after nothing (the first round)")
        elif key == "first":
            words.append("first player drawn" if value == -1 else f"first player seat {value}")
        elif key == "map":
            words.append(f"a map of {len(str(value))} cells" if value else "a drawn map")
        elif isinstance(value, bool):
            words.append(f"{name} {'yes' if value else 'no'}")
        else:
            words.append(f"{name} {value}")
    return ", ".join(words) or "no parameters"


def violation_text(v: Violation, what: str = "file") -> str:
    """One violation for people: proven against a seat, or no evidence against anyone."""
    where = "" if v.frame is None else f" at frame {v.frame}"
    if not v.authenticated:
        return (f"NOT PROVEN: corrupt or tampered {what}{where} ({v.code}: {v.detail}); "
                f"no seat is blamed")
    return (f"INVALID{where}: seat {v.seat} broke {v.code}: {v.detail} (proven by seat "
            f"{v.seat}'s own signature)")


def _decided_text(d: Decided) -> str:
    margin = (f" by {d.to_json()['margin']}" if d.margin_halves is not None
              else "; the margin is unknown until every hand is revealed")
    return f"seat {d.winner} went out and wins{margin}; the hidden tile was not opened"


def headline(verdict: Verdict) -> str:
    if not verdict.valid and verdict.violation is not None:
        return violation_text(verdict.violation)
    if not verdict.complete and verdict.awaiting is not None:
        seat, message = verdict.awaiting
        article = "an" if message[:1] in ("a", "e", "i", "o", "u") else "a"
        owes = f"seat {seat} owes the next frame ({article} {message} frame)"
        rules = verdict.setup.rules if verdict.setup is not None else None
        silence = NOT_PROVEN_SILENCE.format(seat=seat, rule=abandonment_rule(rules))
        if verdict.setup is not None and verdict.setup.rules == "mined-games" and message in (
                "key", "commit", "open"):
            silence += (f" Past that deadline any other seat may sign that seat {seat} is "
                        "absent: " + (
                            "once a majority of its seal's holders have declared it, they "
                            "post their decryption shares, its seal opens and its orders "
                            "count as if it had opened them" if message == "open" else
                            "with a majority of the other living seats, it forfeits")
                        + " (spec/10-session.md 10.8).")
        d = verdict.decided
        if d is None:
            return (f"VALID PREFIX of {verdict.frames} frames: {owes}.\n"
                    f"Proven: every frame so far is valid.\n{silence}")
        return (f"VALID PREFIX of {verdict.frames} frames, winner proven: {_decided_text(d)}."
                f"\nProven: every frame so far is valid, and seat {d.winner} played its "
                f"last tile in public.\n{owes[0].upper()}{owes[1:]}.\n{silence}")
    out = verdict.outcome
    if out is None:
        return "VALID"
    if isinstance(out, MinedOutcome):
        return mined_headline(out)
    pips = ", ".join(f"seat {i}: {p}" for i, p in enumerate(verdict.to_json()["outcome"]["pips"]))
    bram = verdict.setup is not None and verdict.setup.rules == "bram"
    how = ("went out" if out.reason == "out" else "had fewer pips after two passes" if bram
           else "had the fewest pips when nobody could play")
    margin = verdict.to_json()["outcome"]["margin"]
    tied = seats_text(out.winners)
    tie = (f"a draw between {tied}" if bram
           else f"{tied} tie for the fewest pips and share the win")
    result = tie if out.winner is None else f"seat {out.winner} wins by {margin} ({how})"
    return f"VALID and complete: {result}; {'pips with komi' if bram else 'pips left'} {pips}"


def seats_text(seats: tuple[int, ...]) -> str:
    """"seat 2", "seats 0 and 3", "seats 0, 1 and 3"."""
    names = [str(s) for s in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return f"seats {', '.join(names[:-1])} and {names[-1]}"


def mined_headline(out: MinedOutcome) -> str:
    """The verdict of a Mined Games game (spec/rules/mined-games.md section 7)."""
    money = ", ".join(f"seat {s}: ${m:,}" + ("" if st == "alive" else f" ({st})")
                      for s, (m, st) in enumerate(zip(out.money, out.status, strict=True)))
    # A forfeit ends the game as a death does (10.8); say which it was.
    end = out.end
    if end in ("a miner died", "every miner is dead") and "forfeit" in out.status and not \
            {"lava", "attack"} & set(out.status):
        end = ("every seat forfeited" if "alive" not in out.status
               else "a seat forfeited (it missed its deadline)")
    lines = [f"VALID and complete: seat {out.winner} wins two tokens of life; seat "
             f"{out.elimination_candidate} is the elimination candidate ({out.how}); the game "
             f"ended because {end}; money {money}"]
    lines += mined_ties(out)
    for seat, stage, by in out.forfeits:
        names = ", ".join(str(d) for d in by)
        lines.append(f"Seat {seat} forfeited in stage {stage}: seats {names} each signed that "
                     f"it missed its deadline. This rests on their declarations, not on proof: "
                     "a transcript cannot prove silence (spec/rules/mined-games.md D16).")
    for seat, stage, by in out.withheld:
        names = ", ".join(str(d) for d in by)
        lines.append(f"Seat {seat} withheld its OPEN in stage {stage}: seats {names} opened "
                     "its seal with their decryption shares, and its sealed orders counted "
                     "as if it had opened them (spec/rules/mined-games.md D20).")
    return "\n".join(lines)


def mined_ties(out: MinedOutcome) -> list[str]:
    """Which seats tied for the most or the least money and that the lot decided
    (spec/rules/mined-games.md 7, D14); why one seat is both winner and candidate."""
    seats = range(len(out.money))
    alive = [s for s in seats if out.status[s] == "alive"]
    gone = [s for s in seats if out.status[s] == "forfeit"] or [s for s in seats
                                                                if s not in alive]
    field = alive or [s for s in seats if out.status[s] != "forfeit"] or list(seats)
    lot = ("the lot drawn from the last stage's opened nonces picked seat {0} "
           "(spec/rules/mined-games.md D14)")
    lines = []
    for word, pick, group, seat in (
            ("most", max, field, out.winner),
            ("least", min, alive if out.how == "least money" else gone,
             out.elimination_candidate if "least money" in out.how else None)):
        if seat is None or not group:
            continue
        value = pick(out.money[s] for s in group)
        tied = [s for s in group if out.money[s] == value]
        if len(tied) > 1:
            role = "token winner" if word == "most" else "elimination candidate"
            lines.append(f"Seats {', '.join(map(str, tied))} tied for the {word} money "
                         f"(${value:,}); {lot.format(seat)} as the {role}.")
    if out.winner is not None and out.winner == out.elimination_candidate:
        lines.append(f"Seat {out.winner} is both the token winner and the elimination "
                     "candidate: no miner is alive, so the richest seat wins the tokens and "
                     f"the candidate comes from the fallen ({out.how}), and both fall on "
                     f"seat {out.winner} (spec/rules/mined-games.md 7).")
    return lines


def account(verdict: Verdict) -> str:
    """The game move by move, then the verdict."""
    data = verdict.to_json()
    lines = []
    if data["rules"]:
        setup = verdict.setup
        assert setup is not None
        lines.append(f"rules {data['rules']['name']} ({params_text(data['rules']['params'])}); "
                     f"{setup.suite_name}, dealerless/{setup.version}; "
                     f"game {data['game_id'][:16]}...")
        lines += [f"  seat {s['seat']}: {s['fingerprint']}" for s in data["seats"]]
    if data["first_player"] is not None:
        lines.append(f"first player: seat {data['first_player']}")
    for m in data["moves"]:
        lines.append(f"  frame {m['frame']:>3}  seat {m['seat']}  {m['move']}")
    if data["hidden_tile"]:
        lines.append(f"hidden tile: {', '.join(data['hidden_tile'])}")
    if isinstance(verdict.outcome, MinedOutcome):
        lines += mined_rounds_text(verdict.outcome)
    lines.append(headline(verdict))
    return "\n".join(lines)


def summary(verdict: Verdict, path: str, size: int) -> str:
    hidden = verdict.to_json()["hidden_tile"]
    has_hidden = verdict.setup is not None and verdict.setup.ruleset.deal.hidden > 0
    tile = ("" if not has_hidden else f", hidden tile {', '.join(hidden)}" if hidden
            else ", hidden tile not opened")
    return (f"{headline(verdict)}\n{verdict.frames} frames, {size} bytes, {len(verdict.moves)} "
            f"moves{tile}; transcript written to {path}")


def match_account(result: MatchVerdict) -> str:
    """A match round by round, then the standings (spec/11-verify.md 11.5)."""
    lines = []
    for i, verdict in enumerate(result.rounds):
        params = dict(verdict.setup.params) if verdict.setup else {}
        head = headline(verdict).splitlines()[0]
        r = params.get("round", "?")
        lines.append(f"round {i + 1} (starting double {r}-{r}): {head}")
    v = result.violation
    if v is not None:
        where = f"round {(result.broken_round or 0) + 1}"
        if v.code == "match/link" or not v.authenticated:
            lines.append(f"NOT A VALID MATCH at {where}: {v.code}: {v.detail}; no seat is "
                         "blamed")
        else:
            lines.append(f"INVALID MATCH at {where}: {violation_text(v)}")
        return "\n".join(lines)
    totals = ", ".join(f"seat {s}: {t}" for s, t in enumerate(result.totals or ()))
    if result.complete:
        won = seats_text(result.winners)
        share = " (shared)" if len(result.winners) > 1 else ""
        lines.append(f"VALID and complete match of {len(result.rounds)} rounds: {won} "
                     f"win{'s' if len(result.winners) == 1 else ''}{share} with the fewest "
                     f"pips in all; totals {totals}")
    else:
        lines.append(f"VALID PREFIX of a match: {len(result.rounds)} of {result.rounds_due} "
                     f"rounds played; totals so far {totals or 'none'}")
    return "\n".join(lines)
