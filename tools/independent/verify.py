"""Verifying a transcript file, spec/11-verify.md 11.2 (steps 1 to 5), and the verdict
of 11.1 ([D5], [D9])."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any

from independent.errors import SpecError, detail_of
from independent.group.points import Tile, tile_text
from independent.rules.common import Outcome, halves_text
from independent.rules.mined_games import orders_text
from independent.session.frames import Frame, parse_frame, signature_ok
from independent.session.game import Game
from independent.session.handlers import compute_outcome
from independent.session.state import State, awaiting, initial_state
from independent.session.step import Violation, step
from independent.session.transcript import parse_transcript


@dataclass
class Verdict:
    exit: int
    frames: int = 0
    game: Game | None = None
    state: State | None = None
    violation: Violation | None = None
    outcome: Outcome | None = None
    moves: list[dict[str, Any]] = field(default_factory=list)
    # (seq, state hash the frame carries, hash recomputed from the replayed state)
    hashes: list[tuple[int, bytes, bytes]] = field(default_factory=list)
    decided: dict[str, Any] | None = None   # 11.2 step 5, for a valid prefix
    stage_outcome: dict[str, Any] | None = None  # 11.1 outcome of mined-games

    @property
    def valid(self) -> bool:
        return self.violation is None

    @property
    def complete(self) -> bool:
        return self.valid and self.state is not None and self.state.phase == "done"

    def to_json(self) -> dict[str, Any]:
        g, st = self.game, self.state
        aw = awaiting(st) if (st is not None and self.valid and not self.complete) else None
        return {
            "valid": self.valid, "complete": self.complete, "frames": self.frames,
            "game_id": g.game_id.hex() if g else None,
            "rules": {"name": g.rules.name, "params": g.rules.params} if g else None,
            "seats": [{"seat": s, "fingerprint": fingerprint(k)}
                      for s, k in enumerate(g.identities)] if g else [],
            "first_player": st.first_player if st else None,
            "outcome": self.outcome.to_json() if self.outcome else self.stage_outcome,
            "hidden_tile": [tile_text(t) for t in self.outcome.hidden] if self.outcome
            else None,
            "moves": self.moves,
            "violation": self.violation.to_json() if self.violation else None,
            "awaiting": {"seat": aw[0], "message": aw[1]} if aw else None,
            "decided": self.decided,
        }


def fingerprint(pk: bytes) -> str:
    """8.3: OpenSSH's SHA256 fingerprint of an ssh-ed25519 key."""
    blob = (11).to_bytes(4, "big") + b"ssh-ed25519" + (32).to_bytes(4, "big") + pk
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def judge_evidence(g: Game, accepted: list[Frame], wire: bytes) -> Violation:
    """11.2 step 4: what one E record proves, or transcript/bad-evidence [D5]."""
    def bad(why: str) -> Violation:
        return Violation("transcript/bad-evidence", None, None, False, why)

    try:
        ev = parse_frame(wire, g.suite.version)
    except SpecError as e:
        return bad(f"the evidence does not parse: {e.code}")
    if ev.seat >= g.k or not signature_ok(g.suite, g.identities[ev.seat], ev):
        return bad("the evidence is not signed by a seat of this game")
    if ev.seq >= len(accepted) or ev.game_id != g.game_id:
        return bad("the evidence is for no accepted step of this game")
    a = accepted[ev.seq]
    if ev.seat == a.seat and ev.prev == a.prev and ev.wire != a.wire:   # one place, 10.7
        return Violation("frame/equivocation", ev.seat, ev.seq, True,
                         f"seat {ev.seat} signed two different frames for step {ev.seq}")
    if ev.seat != a.seat and ev.prev == a.prev and ev.state_hash == a.state_hash and (
            10 not in (ev.type, a.type)):   # 10.7: an ABSENT race proves nothing
        return Violation("frame/out-of-turn", ev.seat, ev.seq, True,
                         f"seat {ev.seat} signed a frame for step {ev.seq} it did not owe")
    return bad("the evidence proves nothing")


def absent_text(seat: int, body: list[Any], absent_before: Any) -> str:
    """11.1 moves: an ABSENT, by whether its seat had declared already and its share."""
    who, stage = body[0], body[1]
    if absent_before is not None and seat in [d for d, _ in absent_before[1]]:
        return f"posts its share of seat {who}'s seal in stage {stage}"
    share = " with its share" if len(body) == 3 and body[2] is not None else ""
    return f"declares seat {who} absent in stage {stage}{share}"


def verify(data: bytes) -> Verdict:
    tr, err, game = parse_transcript(data)                                   # 1
    if tr is None:
        return Verdict(1, 0, game, None, Violation(err.code, None, None, False,
                                                   detail_of(err)))
    g = tr.game                                                              # 2
    st = initial_state(g)
    verdict = Verdict(1, 0, g, st)
    accepted: list[Frame] = []
    for wire in tr.frames:                                                   # 3
        before = st.hash(g.suite)
        absent_before = getattr(st.rules, "absent", None)
        try:
            st, fr = step(g, st, wire)
        except Violation as vio:  # any failure ends the replay, authenticated or not [D9]
            verdict.violation = vio
            if vio.authenticated:  # it passed check 5 or failed it: record both hashes
                carried = parse_frame(wire, g.suite.version).state_hash
                verdict.hashes.append((st.seq, carried, before))
            break
        verdict.hashes.append((fr.seq, fr.state_hash, before))
        accepted.append(fr)
        if fr.type == 5:
            move = g.rules.move_from_id(fr.body[0])
            verdict.moves.append({"frame": fr.seq, "seat": fr.seat, "move": move.text()})
        elif fr.type in (9, 10, 11):   # 11.1 moves of mined-games
            text = (orders_text(st.rules.last_orders) if fr.type == 9 else
                    absent_text(fr.seat, fr.body, absent_before)
                    if fr.type == 10 else f"names seat {fr.body[0]} the elimination candidate")
            if fr.type == 10 and st.rules.opened_now:   # this declaration opened a seal
                seats = ", ".join(str(d) for d in st.rules.withheld[-1][2])
                text += f"; seats {seats} open its seal: {orders_text(st.rules.last_orders)}"
            verdict.moves.append({"frame": fr.seq, "seat": fr.seat, "move": text})
        verdict.state, verdict.frames = st, len(accepted)
    if verdict.violation is None or not verdict.violation.authenticated:   # 4
        # 11.2 step 4: after an unauthenticated failure, an evidence record that
        # proves a violation names the seat really to blame.
        proven: Violation | None = None
        for wire in tr.evidence:
            vio = judge_evidence(g, accepted, wire)
            if vio.rule == "transcript/bad-evidence":
                proven = vio
                break
            proven = proven or vio
        if verdict.violation is None or (proven is not None and proven.authenticated):
            verdict.violation = proven
    if verdict.violation is not None:
        return verdict
    if st.phase == "done" and getattr(g.rules, "simultaneous", False):
        verdict.exit, verdict.stage_outcome = 0, g.rules.outcome(st.rules)
    elif st.phase == "done":                                                 # 5
        verdict.exit, verdict.outcome = 0, compute_outcome(g, st)
    else:
        verdict.exit, verdict.decided = 3, decided(g, st)
    return verdict


def decided(g: Game, st: State) -> dict[str, Any] | None:
    """11.2 step 5 / bram.md D14: in the reveal phase, the one seat that played every
    position dealt to it went out and has won; the margin once only hidden positions
    are unopened (they then hold the deck tiles nothing opened), else null."""
    if st.phase != "reveal":
        return None
    # SPEC GAP: "every position dealt to it" is read with the current owners, the positions
    # a seat drew included (10.3: draws change `owners`).
    out = [s for s in range(g.k)
           if all(st.played[p] for p, o in enumerate(st.owners) if o == s)]
    if len(out) != 1:
        return None
    verdict = {"winner": out[0], "reason": "out", "margin": None, "margin_halves": None}
    # SPEC GAP: 11.2 step 5 asks for every position "whose owner is not HIDDEN" to be
    # opened, which BONEYARD positions never are, and takes the unopened deck tiles as the
    # hidden ones. With a boneyard (mexican-train) we require every seat-owned position
    # opened and pass the rules their own hidden count of tiles: none without hidden
    # positions (for bram, which has no boneyard, this is the text as written).
    if all(t is not None for t, o in zip(st.opened, st.owners, strict=True) if o >= 0):
        hands: list[list[Tile]] = [[] for _ in range(g.k)]
        for p, t in enumerate(st.opened):
            if st.owners[p] >= 0 and not st.played[p]:
                hands[st.owners[p]].append(t)
        left = [t for t in g.deck_tiles if t not in set(st.opened)] if g.rules.hidden else []
        o = g.rules.outcome(st.rules, hands, left)
        verdict.update(reason=o.reason, margin=halves_text(o.margin_halves),
                       margin_halves=o.margin_halves)
    return verdict


def summary(name: str, v: Verdict) -> str:
    j = v.to_json()
    if v.violation:
        x = v.violation
        what = (f"INVALID {x.rule} seat={x.seat} frame={x.frame} "
                f"authenticated={str(x.authenticated).lower()} ({x.detail})")
    elif v.complete and v.stage_outcome is not None:
        o = v.stage_outcome
        what = (f"VALID complete token_winner={o['token_winner']} "
                f"ec={o['elimination_candidate']} end={o['end']!r} money={o['money']}")
    elif v.complete:
        o = j["outcome"]
        what = (f"VALID complete winner={o['winner']} reason={o['reason']} "
                f"pips_halves={o['pips_halves']} margin_halves={o['margin_halves']} "
                f"hidden={j['hidden_tile']}")
    else:
        what = f"VALID prefix awaiting seat {j['awaiting']['seat']} {j['awaiting']['message']}"
        if j["decided"]:
            d = j["decided"]
            what += (f" decided winner={d['winner']} reason={d['reason']} "
                     f"margin_halves={d['margin_halves']}")
    return f"{name}: exit {v.exit} frames={v.frames} first_player={j['first_player']} {what}"
