"""The rule set `mexican-train` (spec/rules/mexican-train.md), one round.

Section numbers below are those of spec/rules/mexican-train.md unless another document is
named. Decisions where the document is ambiguous or silent are marked `# SPEC GAP:`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from independent.errors import fail_rule
from independent.group.points import Tile
from independent.rules.common import Outcome, norm, set_tiles

MEXICAN = 8                        # 4: the train index of the Mexican train
PASS, DRAW, NOT_HOLDING = 0, 1, 2  # 4: ids of the three non-play moves


# --- 2 tile set ------------------------------------------------------------------------------
TILES: tuple[Tile, ...] = set_tiles(12)  # 5.1 order
INDEX = {t: i for i, t in enumerate(TILES)}


def hand_size_for(seats: int) -> int:
    return 15 if seats <= 4 else 12 if seats <= 6 else 10       # 2, D2


# --- 3 state ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class MexState:
    engine: int
    trains: tuple[tuple[Tile, ...], ...]
    mexican: tuple[Tile, ...] | None
    markers: tuple[bool, ...]
    pending: int | None
    hand_counts: tuple[int, ...]
    boneyard: int
    turn: int
    first_player: int
    phase: str                 # "declare", "search" or "play"
    drawn: bool
    owes: bool
    first_done: tuple[bool, ...]
    stalled: int
    finished: str | None

    def to_json(self) -> dict[str, Any]:
        """3: the JSON form the session hashes (10.3 `rules`)."""
        return {"engine": self.engine, "trains": [[list(x) for x in tr] for tr in self.trains],
                "mexican": None if self.mexican is None else [list(x) for x in self.mexican],
                "markers": list(self.markers), "pending": self.pending,
                "hand_counts": list(self.hand_counts), "boneyard": self.boneyard,
                "turn": self.turn, "first_player": self.first_player, "phase": self.phase,
                "drawn": self.drawn, "owes": self.owes, "first_done": list(self.first_done),
                "stalled": self.stalled, "finished": self.finished}

    def train(self, x: int) -> tuple[Tile, ...]:
        return self.mexican if x == MEXICAN else self.trains[x]  # type: ignore[return-value]

    def open_end(self, x: int) -> int:
        """3: a train's open end is its last outer half, or the engine while it is empty."""
        tr = self.train(x)
        return tr[-1][1] if tr else self.engine

    def table(self) -> set[Tile]:
        """1 `table_tiles`: the trains and, once out, the engine."""
        out = {norm(t) for tr in self.trains for t in tr}
        if self.mexican is not None:
            out |= {norm(t) for t in self.mexican}
        if self.phase == "play":
            out.add((self.engine, self.engine))
        return out


# --- 4 moves -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class MexMove:
    kind: int                  # PASS, DRAW, NOT_HOLDING, or 3 for a play
    tile: Tile | None = None
    train: int = 0

    def text(self) -> str:
        if self.kind != 3:
            return ("pass", "draw", "not-holding")[self.kind]
        a, b = self.tile  # type: ignore[misc]
        return f"{a}-{b}>" + ("M" if self.train == MEXICAN else str(self.train))

    @property
    def id(self) -> int:
        return self.kind if self.kind != 3 else 3 + 9 * INDEX[self.tile] + self.train  # type: ignore[index]


MOVE_TEXT = re.compile(r"(0|[1-9][0-9]*)-(0|[1-9][0-9]*)>([0-7M])")


def parse_move(s: str) -> MexMove:
    """4 text form (not needed by the verifier; kept for a self-check)."""
    if s in ("pass", "draw", "not-holding"):
        return MexMove(("pass", "draw", "not-holding").index(s))
    m = MOVE_TEXT.fullmatch(s)
    if not m or (int(m[1]), int(m[2])) not in INDEX:
        fail_rule("rules/move-text", f"{s!r}")
    return MexMove(3, (int(m[1]), int(m[2])), MEXICAN if m[3] == "M" else int(m[3]))


class MexicanTrain:
    """The rule set `mexican-train` (one round)."""

    name = "mexican-train"
    set_name = "double-twelve"
    hidden, on_table = 0, ()
    tiles = TILES
    drawing_rules = True       # 10.4: a `DrawingRules` (boneyard draws and forced play)

    def __init__(self, params: dict[str, Any]) -> None:
        # 2 / 8.2 row 9 ([D3]): a parameter the rule set refuses
        # is rules/params; a default left out is setup/params in decode_setup.
        def bad(why: str) -> NoReturn:
            fail_rule("rules/params", f"mexican-train: {why}, got {params}")

        if not isinstance(params, dict):
            bad("params must be a map")
        if set(params) - {"seats", "round", "mexican_train", "after"}:
            bad("unknown parameter")
        seats = params.get("seats")
        rnd = params.get("round", 12)
        mex = params.get("mexican_train", False)
        after = params.get("after", "")
        if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 8:
            bad("seats is a required integer 2..8")                    # D20
        if not isinstance(rnd, int) or isinstance(rnd, bool) or not 0 <= rnd <= 12:
            bad("round is an integer 0..12")
        if not isinstance(mex, bool):
            bad("mexican_train is a boolean")
        # SPEC GAP: 2 says `after` is "the hash of its last frame as 64 lowercase hex
        # digits" or empty, but not whether the rule set rejects other text; we reject it.
        if not isinstance(after, str) or not (after == "" or re.fullmatch(r"[0-9a-f]{64}",
                                                                            after)):
            bad("after is empty or 64 lowercase hex digits")
        self.seats, self.round, self.mexican_train, self.after = seats, rnd, mex, after
        self.engine = rnd
        self.hand_size = hand_size_for(seats)
        self.boneyard_size = 91 - seats * self.hand_size
        self.params = {"seats": seats, "round": rnd, "mexican_train": mex, "after": after}

    # 3
    def initial_state(self, first_player: int) -> MexState:
        k = self.seats
        return MexState(self.engine, ((),) * k, () if self.mexican_train else None,
                        (False,) * k, None, (self.hand_size,) * k, self.boneyard_size,
                        first_player, first_player, "declare", False, True, (False,) * k, 0,
                        None)

    def to_move(self, s: MexState) -> int | None:
        return None if s.finished else s.turn

    def is_over(self, s: MexState) -> bool:
        return s.finished is not None

    # 4
    def move_from_id(self, move_id: int) -> MexMove | None:
        """None for an id that names no move (the session's move/unknown-id)."""
        if not 0 <= move_id <= 821:
            return None
        if move_id < 3:
            return MexMove(move_id)
        i, x = divmod(move_id - 3, 9)
        return MexMove(3, TILES[i], x)

    def played_tile(self, m: MexMove) -> Tile | None:
        return m.tile if m.kind == 3 else None

    def draws(self, m: MexMove) -> bool:
        return m.kind == DRAW

    # 5.3 / 5.4
    def _trains_open(self, s: MexState, seat: int) -> list[int]:
        """The trains `seat` may play on now (the mover: `seat` = turn)."""
        if s.pending is not None:
            # D8: a pending double comes first, for every seat and in first turns too, on
            # whatever train it lies.
            # SPEC GAP: 5.3/D8 vs 5.4/D15: a double pending on the Mexican train (or on a
            # train closed to the mover) is read as open to the mover even in its first
            # turn ("whatever train it is on"); only the pending train is open.
            return [s.pending]
        if not s.first_done[seat]:
            return [seat]                                       # 5.2
        out = [x for x in range(self.seats) if x == seat or s.markers[x]]
        if s.mexican is not None:
            out.append(MEXICAN)                                 # D15
        return out

    # 6
    def legal_moves(self, s: MexState, hand: list[Tile]) -> list[MexMove]:
        if s.finished is not None:
            return []
        eng = (s.engine, s.engine)
        if s.phase == "declare" or (s.phase == "search" and s.drawn):
            return [MexMove(3, eng, s.turn)] if eng in hand else [MexMove(NOT_HOLDING)]
        if s.phase == "search":
            return [MexMove(DRAW)] if s.boneyard > 0 else []    # D19
        on_table = s.table()
        plays = [MexMove(3, t, x) for t in hand if t not in on_table
                 for x in self._trains_open(s, s.turn) if s.open_end(x) in t]
        if plays:
            return sorted(plays, key=lambda m: m.id)
        if s.owes and not s.drawn and s.boneyard > 0:
            return [MexMove(DRAW)]
        return [MexMove(PASS)]

    # 6.1
    def must_play_if_able(self, s: MexState, seat: int, m: MexMove) -> bool:
        if m.kind == 3:
            return False
        # SPEC GAP: "the draw that begins a turn of the engine search" is read as a draw in
        # phase `search` before the turn's draw (drawn = false). A draw in `declare` (which
        # apply rejects) or a second draw in `search` is a claim like any other.
        return not (m.kind == DRAW and s.phase == "search" and not s.drawn)

    def forbidden_tiles(self, s: MexState, candidates: list[Tile]) -> list[Tile]:
        """6.1 F(state), among `candidates` (the session's unopened deck tiles), canonical
        order: the tiles t whose one-tile hand {t} has a play of t."""
        if s.finished is not None:
            return []
        on_table = s.table()
        return [t for t in candidates if t not in on_table
                and any(m.kind == 3 and m.tile == t for m in self.legal_moves(s, [t]))]

    # 6.2
    def apply(self, s: MexState, seat: int, m: MexMove) -> MexState:
        def violate(code: str, detail: str) -> NoReturn:
            fail_rule(code, f"{m.text()}: {detail}")

        if s.finished is not None:                                                  # 1
            violate("rules/game-over", "the round is over")
        if seat != s.turn:                                                          # 2
            violate("rules/not-your-turn", f"seat {s.turn} is to move")
        t, x = m.tile, m.train
        if m.kind == 3:
            if t not in INDEX:                                                      # 3
                violate("rules/not-in-set", "not a double-twelve tile")
            if x != MEXICAN and x >= self.seats:                                   # 4
                violate("rules/no-such-train", f"there are {self.seats} seats")
            if x == MEXICAN and s.mexican is None:                                  # 5
                violate("rules/no-mexican-train", "the Mexican train is not in play")
            if t in s.table():                                                      # 6
                violate("rules/tile-already-played", "the tile is on the table")
        eng = (s.engine, s.engine)
        if s.phase in ("declare", "search"):
            if m.kind == DRAW:                                                      # 7
                if s.phase == "declare":
                    violate("rules/draw-not-allowed", "nobody draws in the declaration lap")
                if s.drawn:
                    violate("rules/already-drew", "one draw a turn")
                if s.boneyard == 0:
                    violate("rules/boneyard-empty", "nothing to draw")
                return replace(s, hand_counts=self._count(s, seat, +1),
                               boneyard=s.boneyard - 1, drawn=True, stalled=0)
            if m.kind == PASS:                                                      # 8
                violate("rules/pass-not-allowed", "open or declare not-holding")
            if s.phase == "search" and not s.drawn:                                 # 9
                violate("rules/must-draw", "draw first")
            if m.kind == NOT_HOLDING:
                after = (seat + 1) % self.seats
                # 5.1: the first lap ends after the seat before first_player declares.
                phase = "search" if (s.phase == "declare" and after == s.first_player) \
                    else s.phase
                return replace(s, turn=after, drawn=False, phase=phase)
            if t != eng or x != seat:                                               # 10
                violate("rules/engine-first", f"open with {eng[0]}-{eng[1]}>{seat}")
            # Open: the engine is out (on no train), the opener's first turn begins afresh.
            # SPEC GAP: 6.2 "open" does not say whether `stalled` is reset; it is 0 anyway
            # before the engine is out (stalls need an empty boneyard and a first turn over).
            return replace(s, hand_counts=self._count(s, seat, -1), phase="play", owes=True,
                           drawn=False, stalled=0)
        # phase play
        if m.kind == NOT_HOLDING:                                                   # 7
            violate("rules/not-holding-now", "the engine is out")
        if m.kind == DRAW:
            if not s.owes:                                                          # 8
                violate("rules/draw-not-allowed", "the seat owes no tile")
            if s.drawn:
                violate("rules/already-drew", "one draw a turn")
            if s.boneyard == 0:
                violate("rules/boneyard-empty", "nothing to draw")
            return replace(s, hand_counts=self._count(s, seat, +1), boneyard=s.boneyard - 1,
                           drawn=True, stalled=0)
        if m.kind == PASS:
            if s.owes and not s.drawn and s.boneyard > 0:                           # 9
                violate("rules/must-draw", "draw before passing")
            markers = list(s.markers)
            if s.owes:
                markers[seat] = True
            # 7: a stall is a pass with an empty boneyard by a seat whose first turn was
            # over before this turn and whose marker was already down.
            stall = s.boneyard == 0 and s.first_done[seat] and s.markers[seat]
            stalled = s.stalled + 1 if stall else 0
            return self._turn_end(replace(s, markers=tuple(markers)), seat, stalled)
        # a play
        assert t is not None
        if s.pending is not None and x != s.pending:                                # 10
            violate("rules/double-pending", f"a double is pending on train {s.pending}")
        if x not in self._trains_open(s, seat):                                     # 11
            violate("rules/train-closed", f"train {x} is not open to seat {seat}")
        end = s.open_end(x)
        if end not in t:                                                            # 12
            violate("rules/tile-does-not-match", f"train {x} ends in {end}")
        oriented = (end, t[1] if t[0] == end else t[0])
        trains, mexican = list(s.trains), s.mexican
        if x == MEXICAN:
            mexican = (*s.mexican, oriented)  # type: ignore[misc]
        else:
            trains[x] = (*trains[x], oriented)
        markers = list(s.markers)
        if x != MEXICAN:
            markers[x] = False
        counts = self._count(s, seat, -1)
        double = t[0] == t[1]
        nxt = replace(s, trains=tuple(trains), mexican=mexican, markers=tuple(markers),
                      hand_counts=counts, pending=x if double else None, stalled=0)
        if counts[seat] == 0:
            return replace(nxt, finished="out")                                     # D13
        if double:
            return replace(nxt, owes=True)
        if not s.first_done[seat] and not s.drawn:
            return replace(nxt, owes=False)
        return self._turn_end(nxt, seat, 0)

    def _count(self, s: MexState, seat: int, d: int) -> tuple[int, ...]:
        c = list(s.hand_counts)
        c[seat] += d
        return tuple(c)

    def _turn_end(self, s: MexState, seat: int, stalled: int) -> MexState:
        done = list(s.first_done)
        done[seat] = True
        return replace(s, first_done=tuple(done), turn=(seat + 1) % self.seats, owes=True,
                       drawn=False, stalled=stalled,
                       finished="blocked" if stalled == self.seats else None)

    # 8.1
    def outcome(self, s: MexState, hands: list[list[Tile]], hidden: list[Tile]) -> Outcome:
        if s.finished is None:
            raise RuntimeError("rules/not-over")
        on_table = s.table()
        seen: set[Tile] = set()
        for h, c in zip(hands, s.hand_counts, strict=True):
            if (len(h) != c or len(set(h)) != len(h) or any(
                    t not in INDEX or t in on_table or t in seen for t in h)):
                fail_rule("rules/reveal-mismatch", "the revealed hands disagree with the table")
            seen |= set(h)
        if hidden:
            fail_rule("rules/reveal-mismatch", "mexican-train hides no tile")
        pips = [sum(a + b for a, b in h) for h in hands]
        if s.finished == "out":
            winner: int | None = s.hand_counts.index(0)
        else:
            low = min(pips)
            winner = pips.index(low) if pips.count(low) == 1 else None          # D14
        margin = 0 if winner is None else 2 * (
            min(p for i, p in enumerate(pips) if i != winner) - pips[winner])
        return Outcome(winner, s.finished, pips, [2 * p for p in pips], margin, [])
