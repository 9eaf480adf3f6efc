"""Match files, spec/11-verify.md 11.5: rounds linked by their setups, each verified. The
magic's digit is the protocol version of the rounds (2 or 3)."""

from __future__ import annotations

from typing import Any

from independent.errors import READABLE, Err, check_magic, check_version, detail_of
from independent.session.frames import frame_hash
from independent.session.game import Game
from independent.session.step import Violation
from independent.session.transcript import MAGIC_PREFIX as TRANSCRIPT_PREFIX
from independent.session.transcript import parse_transcript
from independent.verify import Verdict, verify

MATCH_PREFIX = b"DEALERLESS-M"
# 11.5: the parameters that chain the rounds; every other one is the same in each.
LINKED = ("round", "after", "first")


def verify_match(data: bytes) -> dict[str, Any]:
    def bad(rule: str, rnd: int | None, vio: Violation | None = None) -> dict[str, Any]:
        if vio is None:
            vio = Violation(rule, None, None, False, rule)
        return {"valid": False, "violation": vio.to_json(), "broken_round": rnd}

    try:
        version = check_magic(data, MATCH_PREFIX, "match/magic", "match file")
    except Err as e:
        return bad(e.code, None)
    i = len(MATCH_PREFIX) + 2
    rounds: list[bytes] = []
    while i < len(data):
        if len(data) - i < 5 or data[i : i + 1] != b"R":
            return bad("match/record", None)
        n = int.from_bytes(data[i + 1 : i + 5], "big")
        if n > 2**24 or len(data) - i - 5 < n or len(rounds) == 13:
            return bad("match/record", None)
        rounds.append(data[i + 5 : i + 5 + n])
        i += 5 + n
    if not rounds:
        return bad("match/record", None)
    prev: tuple[Game, Verdict, bytes] | None = None
    verdicts = []
    for r, tdata in enumerate(rounds):
        # SPEC GAP: 11.5 calls the magic's digit "the protocol version of its rounds" and step
        # 2a fails a round of "another version" with its own violation: a round whose
        # transcript says another version than the match file is version/unsupported.
        head = len(TRANSCRIPT_PREFIX)
        if tdata[:head] == TRANSCRIPT_PREFIX and len(tdata) > head + 1 \
                and 0x30 <= tdata[head] <= 0x39 and tdata[head] - 0x30 in READABLE:
            try:
                check_version(tdata[head] - 0x30, "round", version)
            except Err as e:
                return bad(e.code, r, Violation(e.code, None, None, False, detail_of(e)))
        v = verify(tdata)
        g = v.game
        # 11.5 step 2: a round whose file does not parse has no setup: its own violation,
        # no link. Else the link (setup and previous round) before the round's replay.
        if g is not None:
            p = g.rules.params
            if not {"round", "after"} <= set(p):
                return bad("match/link", r)
            top = g.rules.tiles[-1][1]
            if prev is None:
                if p["round"] != top or p["after"] != "" or p.get("first", -1) != -1:
                    return bad("match/link", r)
            else:
                pg, pv, last = prev
                pp = pg.rules.params
                if (not pv.complete or g.rules.name != pg.rules.name
                        or g.identities != pg.identities or p["round"] != pp["round"] - 1
                        or p["after"] != frame_hash(pg.suite, last).hex()
                        or ("first" in p and verdicts[0].state is not None
                            and p["first"] != verdicts[0].state.first_player)
                        or {a: b for a, b in p.items() if a not in LINKED}
                        != {a: b for a, b in pp.items() if a not in LINKED}):
                    return bad("match/link", r)
        if v.violation is not None:
            return bad(v.violation.rule, r, v.violation)
        tr, _, _ = parse_transcript(tdata)
        # A round without frames is not complete, so no round may follow it (11.5): its
        # "last frame" is never used.
        prev = (g, v, tr.frames[-1] if tr.frames else b"")  # type: ignore[union-attr]
        verdicts.append(v)
    due = verdicts[0].game.rules.tiles[-1][1] + 1  # type: ignore[union-attr]
    return {"valid": True, "violation": None, "broken_round": None,
            "complete": all(v.complete for v in verdicts) and len(rounds) == due}
