"""One frame through the checks of spec/10-session.md 10.5, in order, and the violation
it finds (10.1)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from independent.errors import SpecError, detail_of
from independent.rules.mined_seals import Blame
from independent.session.frames import (
    PHASE_TYPE,
    TYPES,
    Frame,
    frame_hash,
    parse_frame,
    signature_ok,
)
from independent.session.game import Game
from independent.session.handlers import ABSENT_PHASES, HANDLERS, ClaimError
from independent.session.state import State

# 1.4: LocalErrors are bugs of the verifier itself, never blamed on a seat (10.5).
LOCAL_CODES = {"hash/untagged", "nonce/fresh-too-short", "context/game-id", "shuffle/witness",
               "deck/seats", "tile/not-in-set", "rules/bad-hand", "rules/not-over",
               "rules/bad-move", "rules/bad-state", "rules/first-player",
               "cannot-play/size", "cannot-play/order", "cannot-play/witness",
               "session/boneyard"}


@dataclass
class Violation(Exception):
    """10.1: the rule broken, the seat to blame (or None), the frame, authenticated."""

    rule: str
    seat: int | None
    frame: int | None
    authenticated: bool
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "frame": self.frame, "rule": self.rule,
                "detail": self.detail, "authenticated": self.authenticated}


def step(g: Game, st: State, wire: bytes) -> tuple[State, Frame]:
    """One frame through checks 1 to 10 of 10.5; raises Violation (frame = state.seq)."""
    i = st.seq

    def v(code: str, seat: int | None, auth: bool, detail: str = "") -> Violation:
        return Violation(code, seat, i, auth, detail or code)

    try:                                                                     # 1
        fr = parse_frame(wire, g.suite.version)
    except SpecError as e:
        raise v(e.code, None, False, detail_of(e)) from None
    if fr.seat >= g.k:
        raise v("frame/unknown-seat", None, False, f"seat {fr.seat}")
    if not signature_ok(g.suite, g.identities[fr.seat], fr):                 # 2
        raise v("frame/bad-signature", fr.seat, False, "the signature does not verify")
    if fr.game_id != g.game_id:                                              # 3
        raise v("frame/wrong-game", fr.seat, False, "the frame belongs to another game")
    if fr.seq != st.seq:                                                     # 4
        raise v("frame/sequence", fr.seat, False, f"seq {fr.seq}, expected {st.seq}")
    if fr.prev != st.prev:                                                   # 5
        raise v("frame/chain", fr.seat, False, "prev is not the last frame's hash")
    if fr.state_hash != st.hash(g.suite):                                    # 6
        raise v("state/hash-mismatch", fr.seat, True,
                "the frame commits to a different public state")
    if st.phase == "done":                                                   # 7
        raise v("frame/after-end", fr.seat, True, "the game is over")
    declares = (fr.type == ABSENT_PHASES[0] and st.phase in ABSENT_PHASES[1]
                and getattr(g.rules, "simultaneous", False))   # 10.8: any seat, any order
    if fr.seat != st.turn and not declares:                                  # 8
        raise v("frame/out-of-turn", fr.seat, True, f"seat {st.turn} owes the next frame")
    if PHASE_TYPE[st.phase] != fr.type and not declares:                     # 9
        raise v("frame/unexpected-type", fr.seat, True,
                f"{TYPES[fr.type][0]} in phase {st.phase}")
    nxt = copy.deepcopy(st)  # 10.4: a step is atomic
    try:                                                                     # 10
        HANDLERS[fr.type](g, nxt, fr)
    except ClaimError as e:  # 10.5 REVEAL: the claimant, at the claim's frame
        raise Violation(e.code, e.seat, e.frame, True, e.detail) from None
    except Blame as e:  # 10.8: a seal the table opened is its committer's
        raise v(e.code, e.seat, True, f"seat {e.seat}'s sealed plaintext ({e.code})") from None
    except SpecError as e:
        if e.code in LOCAL_CODES:
            raise RuntimeError(f"verifier bug: {e.code}") from e
        raise v(e.code, fr.seat, True, detail_of(e)) from None
    nxt.seq, nxt.prev = st.seq + 1, frame_hash(g.suite, wire)
    return nxt, fr
