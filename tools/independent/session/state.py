"""The public state, spec/10-session.md 10.3: its fields, canonical encoding and hash,
the state before the first frame, and what it awaits (10.2, 10.8)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from independent.group.points import Tile, tile_text
from independent.group.suites import Suite
from independent.session.frames import PHASE_TYPE, TYPES
from independent.session.game import Game
from independent.wire.msgpack_lib import pack


@dataclass
class State:
    game_id: bytes
    seq: int
    prev: bytes
    phase: str
    turn: int | None
    key_shares: list[bytes]
    commitments: list[bytes]
    nonces: list[bytes]
    first_player: int | None
    deck: bytes
    owners: list[int]
    shares: list[list[bytes | None]]
    opened: list[Tile | None]
    played: list[bool]
    rules: Any                     # BramState, MexState, MineState or None
    drawing: int | None = None     # 10.3: in phase draw, the position opened to its drawer
    # 10.3: the proven "cannot play" claims, each [seq, seat, [position, ...], ["a-b", ...]]
    claims: list[Any] = field(default_factory=list)

    def encode(self) -> bytes:
        """10.3: the canonical encoding (8.1) of the 18-key map."""
        return pack({
            "magic": "dealerless/state", "game_id": self.game_id, "seq": self.seq,
            "prev": self.prev, "phase": self.phase, "turn": self.turn,
            "key_shares": self.key_shares, "commitments": self.commitments,
            "nonces": self.nonces, "first_player": self.first_player, "deck": self.deck,
            "owners": self.owners, "shares": self.shares,
            "opened": [None if t is None else tile_text(t) for t in self.opened],
            "played": self.played,
            "rules": None if self.rules is None else self.rules.to_json(),
            "drawing": self.drawing, "claims": self.claims})

    def hash(self, s: Suite) -> bytes:
        """10.3: the first 32 bytes of H(STATE, the encoding), in the game's suite."""
        return s.H("STATE", self.encode())[:32]

    def ct(self, p: int, w: int) -> tuple[bytes, bytes]:
        """5.2: (c1, c2) of position p, points of w bytes (the suite's, 3.5)."""
        return self.deck[2 * w * p : 2 * w * p + w], self.deck[2 * w * p + w : 2 * w * (p + 1)]


def initial_state(g: Game) -> State:
    if getattr(g.rules, "simultaneous", False):   # 10.8
        st = State(g.game_id, 0, g.game_id, "keys", 0, [], [], [], None, b"", [], [], [],
                   [], g.rules.start())
        stage_due(g, st)
        return st
    n = len(g.deck_tiles)
    return State(g.game_id, 0, g.game_id, "keys", 0, [], [], [], None, b"", list(g.owners),
                 [[None] * g.k for _ in range(n)], [None] * n, [False] * n, None)


def awaiting(st: State) -> tuple[int, str] | None:
    """10.2: (turn, label of the phase's message type), none once done."""
    if st.phase == "done":
        return None
    return st.turn, TYPES[PHASE_TYPE[st.phase]][1]


def stage_due(g: Game, st: State) -> None:
    """10.8: the phase and turn are what the rules' state owes."""
    due = g.rules.due(st.rules)
    st.phase, st.turn = ("done", None) if due is None else due
