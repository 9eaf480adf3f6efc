"""The rule set `mineshaft` (spec/rules/mineshaft.md), one round.

Written from spec/rules/mineshaft.md, with spec/rules/bram.md 1 for the interface and
spec/10-session.md / spec/11-verify.md for how a rule set plugs into the session. Section
numbers below are those of spec/rules/mineshaft.md unless another document is named.
Decisions where the document is ambiguous or silent are marked `# SPEC GAP:`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from independent.errors import fail_rule
from independent.group.points import SETS, Tile
from independent.rules.common import Outcome, norm, set_tiles

PASS, DRAW, PLAY = 0, 1, 2           # 4: Pass is id 0, Draw id 1, plays from id 2
HUB = 0                              # 4: target 0 is the hub, 1 + k shaft k, 7 + 2n (+1) veins
SHAFTS = 6                           # 5.1 / D4
VEIN_DEPTH = 3                       # 5.3 / D7
HAND_SIZE = 5                        # 2 / D16
MAX_SEATS = {"double-six": 4, "double-nine": 8, "double-twelve": 8}   # 2 / D3


def target_text(x: int) -> str:
    if x == HUB:
        return "H"
    if x <= SHAFTS:
        return f"S{x - 1}"
    n, arm = divmod(x - 7, 2)
    return f"V{n}{'ab'[arm]}"


# --- 3 state ---------------------------------------------------------------------------------
Line = tuple[Tile, ...]


@dataclass(frozen=True)
class Vein:
    double: int
    a: Line
    b: Line


@dataclass(frozen=True)
class MineState:
    set_name: str
    hub: int
    shafts: tuple[Line, ...]
    veins: tuple[Vein, ...]
    hand_counts: tuple[int, ...]
    boneyard: int
    turn: int
    first_player: int
    phase: str                 # "play" or "drawn"
    passes: int
    finished: str | None       # None, "out" or "blocked"

    def to_json(self) -> dict[str, Any]:
        """3: the JSON form (the session hashes it, spec/10-session.md 10.3 `rules`)."""
        def line(ln: Line) -> list[list[int]]:
            return [list(x) for x in ln]

        return {"set": self.set_name, "hub": self.hub,
                "shafts": [line(s) for s in self.shafts],
                "veins": [{"double": v.double, "a": line(v.a), "b": line(v.b)}
                          for v in self.veins],
                "hand_counts": list(self.hand_counts), "boneyard": self.boneyard,
                "turn": self.turn, "first_player": self.first_player, "phase": self.phase,
                "passes": self.passes, "finished": self.finished}

    # 3 derived values
    def line(self, x: int) -> Line | None:
        """The line of target x (1..6 a shaft, 7.. a vein arm), None if not there."""
        if 1 <= x <= SHAFTS:
            return self.shafts[x - 1] if x - 1 < len(self.shafts) else None
        n, arm = divmod(x - 7, 2)
        for v in self.veins:
            if v.double == n:
                return v.b if arm else v.a
        return None

    def start(self, x: int) -> int:
        return self.hub if x <= SHAFTS else (x - 7) // 2

    def open_end(self, x: int) -> int:
        ln = self.line(x)
        return ln[-1][1] if ln else self.start(x)

    def closed(self, x: int) -> bool:
        ln = self.line(x)
        return ln is not None and len(ln) > 0 and ln[-1][0] == ln[-1][1]

    def exploring(self) -> Vein | None:
        """3 / D7: the newest vein while it holds fewer than three tiles."""
        if self.veins and len(self.veins[-1].a) + len(self.veins[-1].b) < VEIN_DEPTH:
            return self.veins[-1]
        return None

    def table(self) -> set[Tile]:
        """1 `table_tiles`: the hub and every tile of a line."""
        out = {(self.hub, self.hub)}
        for s in self.shafts:
            out |= {norm(t) for t in s}
        for v in self.veins:
            out |= {norm(t) for t in v.a} | {norm(t) for t in v.b}
        return out

    def targets(self) -> list[int]:
        """5: the targets open now, ascending by target number."""
        if len(self.shafts) < SHAFTS:
            return [HUB]                                                        # 5.1
        v = self.exploring()
        if v is not None:                                                       # 5.3
            return [x for x in (7 + 2 * v.double, 8 + 2 * v.double) if not self.closed(x)]
        out = [1 + k for k in range(SHAFTS) if not self.closed(1 + k)]          # 5.2
        for vn in sorted(self.veins, key=lambda v_: v_.double):
            out += [x for x in (7 + 2 * vn.double, 8 + 2 * vn.double) if not self.closed(x)]
        return out


# --- 4 moves -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class MineMove:
    kind: int                  # PASS, DRAW or PLAY
    tile: Tile | None = None
    target: int = 0

    def text(self) -> str:
        if self.kind != PLAY:
            return ("pass", "draw")[self.kind]
        a, b = self.tile  # type: ignore[misc]
        return f"{a}-{b}>{target_text(self.target)}"


NUM = r"(0|[1-9][0-9]*)"
MOVE_TEXT = re.compile(rf"{NUM}-{NUM}>(H|S[0-5]|V{NUM}[ab])", re.ASCII)


def round_winners(o: Outcome) -> list[int]:
    """8 / D12: the winning seats (several for a shared win)."""
    if o.winner is not None:
        return [o.winner]
    low = min(o.hand_pips)
    return [s for s, p in enumerate(o.hand_pips) if p == low]


def next_round(r: int) -> int | None:
    """9: the next lower double, none after 0."""
    return r - 1 if r > 0 else None


class Mineshaft:
    """The rule set `mineshaft` (one round)."""

    name = "mineshaft"
    hidden = 0
    hand_size = HAND_SIZE
    drawing_rules = True       # spec/10-session.md 10.4: a `DrawingRules`

    def __init__(self, params: dict[str, Any]) -> None:
        # 2 / 8.2 row 9 ([D3]): a parameter the rule set refuses
        # is rules/params; a default left out is setup/params in decode_setup.
        def bad(why: str) -> NoReturn:
            fail_rule("rules/params", f"mineshaft: {why}, got {params}")

        if not isinstance(params, dict):
            bad("params must be a map")
        if set(params) - {"set", "seats", "round", "long", "after", "first"}:
            bad("unknown parameter")
        set_name = params.get("set", "double-six")
        if not isinstance(set_name, str) or set_name not in SETS:
            bad("set is double-six, double-nine or double-twelve")
        m = SETS[set_name]
        seats = params.get("seats")
        rnd = params.get("round", m)
        long_ = params.get("long", False)
        after = params.get("after", "")
        if not isinstance(seats, int) or isinstance(seats, bool) or not (
                2 <= seats <= MAX_SEATS[set_name]):
            bad(f"seats is a required integer 2..{MAX_SEATS[set_name]}")       # 2 / D3
        if not isinstance(rnd, int) or isinstance(rnd, bool) or not 0 <= rnd <= m:
            bad(f"round is an integer 0..{m}")
        if not isinstance(long_, bool):
            bad("long is a boolean")
        if not long_ and rnd != m:
            bad("a short game is one round on the set's highest double")        # D13
        # 2 "Checking the parameters" 8 and 9: `after` is empty or 64 lowercase hex
        # digits, and empty in a short game (which follows no round).
        if not isinstance(after, str) or not (after == "" or re.fullmatch(r"[0-9a-f]{64}",
                                                                            after)):
            bad("after is empty or 64 lowercase hex digits")
        if not long_ and after:
            bad("a short game follows no round: after is empty")
        first = params.get("first", -1)                                          # 2 / D19
        if not isinstance(first, int) or isinstance(first, bool) or not -1 <= first < seats:
            bad("first is -1 or a seat")
        if not long_ and first != -1:
            bad("only a long game's rounds fix the first player")
        self.first = first
        self.set_name, self.max_pip, self.seats = set_name, m, seats
        self.round, self.long, self.after = rnd, long_, after
        self.hub = rnd
        self.tiles = set_tiles(m)
        self.index = {t: i for i, t in enumerate(self.tiles)}
        self.on_table = ((rnd, rnd),)                                            # D1
        self.targets_n = 7 + 2 * (m + 1)                                         # 4: T
        self.pile_size = len(self.tiles) - 1 - HAND_SIZE * seats                 # 2
        self.params = {"set": set_name, "seats": seats, "round": rnd, "long": long_,
                       "after": after, "first": first}

    def next_rules(self) -> Mineshaft | None:
        """9: the same rules one round lower (long variant only)."""
        nr = next_round(self.round)
        if not self.long or nr is None:
            return None
        # SPEC GAP: 9 does not say what `after` the next rules carry (it is the hash of a
        # frame not known to the rules); it is left empty for whoever runs the match.
        return Mineshaft({**self.params, "round": nr, "after": ""})

    # 3
    def initial_state(self, first_player: int) -> MineState:
        k = self.seats
        return MineState(self.set_name, self.hub, (), (), (HAND_SIZE,) * k, self.pile_size,
                         first_player, first_player, "play", 0, None)

    def to_move(self, s: MineState) -> int | None:
        return None if s.finished else s.turn

    def is_over(self, s: MineState) -> bool:
        return s.finished is not None

    def table_tiles(self, s: MineState) -> set[Tile]:
        return s.table()

    # 4
    def move_from_id(self, move_id: int) -> MineMove | None:
        """None for an id that names no move (the session's move/unknown-id)."""
        if isinstance(move_id, bool) or not 0 <= move_id < 2 + self.targets_n * len(self.tiles):
            return None
        if move_id < 2:
            return MineMove(move_id)
        i, x = divmod(move_id - 2, self.targets_n)
        return MineMove(PLAY, self.tiles[i], x)

    def move_id(self, m: MineMove) -> int:
        if m.kind != PLAY:
            return m.kind
        if not 0 <= m.target < self.targets_n:
            fail_rule("rules/no-such-target", m.text())
        return 2 + self.targets_n * self.index[m.tile] + m.target  # type: ignore[index]

    def parse_move(self, s: str) -> MineMove:
        """4 text form."""
        if s in ("pass", "draw"):
            return MineMove(("pass", "draw").index(s))
        mt = MOVE_TEXT.fullmatch(s)
        if not mt or (int(mt[1]), int(mt[2])) not in self.index:
            fail_rule("rules/move-text", repr(s))
        tile = (int(mt[1]), int(mt[2]))
        tg = mt[3]
        if tg == "H":
            x = HUB
        elif tg[0] == "S":
            x = 1 + int(tg[1])
        else:
            n = int(mt[4])
            if n > self.max_pip:
                fail_rule("rules/move-text", repr(s))
            x = 7 + 2 * n + (tg[-1] == "b")
        return MineMove(PLAY, tile, x)

    def played_tile(self, m: MineMove) -> Tile | None:
        return m.tile if m.kind == PLAY else None

    def draws(self, m: MineMove) -> bool:
        return m.kind == DRAW

    # 6
    def legal_moves(self, s: MineState, hand: Any) -> list[MineMove]:
        # SPEC GAP: 6 does not say what a finished round's legal moves are: none (so F is
        # empty there too). Nor what becomes of a tile of `hand` that is on the table (no
        # real hand holds one): it is ignored, as apply would refuse its play (6.2 row 8).
        if s.finished is not None:
            return []
        on_table = s.table()
        targets = s.targets()
        plays = [MineMove(PLAY, t, x) for t in set(hand) if t not in on_table
                 for x in targets if s.open_end(x) in t]                           # 1
        if plays:
            return sorted(plays, key=self.move_id)
        if s.phase == "play" and s.boneyard > 0:                                   # 2
            return [MineMove(DRAW)]
        return [MineMove(PASS)]                                                    # 3

    # 6.1
    def must_play_if_able(self, s: MineState, seat: int, m: MineMove) -> bool:
        return m.kind != PLAY

    def forbidden_tiles(self, s: MineState, candidates: list[Tile]) -> list[Tile]:
        """6.1 F(state), among `candidates` (the session's unopened deck tiles), canonical
        order: the tiles t off the table whose one-tile hand {t} has a play of t."""
        if s.finished is not None:
            # SPEC GAP: 6.1 does not define F for a finished state (no move is legal); it
            # is empty, and apply refuses the move anyway (rules/game-over).
            return []
        on_table = s.table()
        return sorted((t for t in candidates if t not in on_table
                       and any(m.kind == PLAY for m in self.legal_moves(s, [t]))),
                      key=self.index.__getitem__)

    # 6.2
    def apply(self, s: MineState, seat: int, m: MineMove) -> MineState:
        def violate(code: str, detail: str) -> NoReturn:
            fail_rule(code, f"{m.text()}: {detail}")

        if s.finished is not None:                                                 # 1
            violate("rules/game-over", "the round is over")
        if seat != s.turn:                                                         # 2
            violate("rules/not-your-turn", f"seat {s.turn} is to move")
        nxt_seat = (seat + 1) % self.seats
        if m.kind == DRAW:
            if s.phase == "drawn":                                                 # 3
                violate("rules/already-drew", "one draw a turn")
            if s.boneyard == 0:                                                    # 4
                violate("rules/boneyard-empty", "the rubble pile is empty")
            return replace(s, hand_counts=self._count(s, seat, +1), boneyard=s.boneyard - 1,
                           phase="drawn")
        if m.kind == PASS:
            if s.phase == "play" and s.boneyard > 0:                               # 5
                violate("rules/must-draw", "draw before passing")
            passes = s.passes + 1 if s.boneyard == 0 else 0
            return replace(s, turn=nxt_seat, phase="play", passes=passes,
                           finished="blocked" if passes == self.seats else None)
        t, x = m.tile, m.target
        if t not in self.index:                                                    # 6
            violate("rules/not-in-set", f"not a {self.set_name} tile")
        if not 0 <= x < self.targets_n:                                            # 7
            violate("rules/no-such-target", f"no target {x} on {self.set_name}")
        if t in s.table():                                                         # 8
            violate("rules/tile-already-played", "the tile is on the table")
        six = len(s.shafts) >= SHAFTS
        if not six and x != HUB:                                                   # 9
            violate("rules/hub-only", "fewer than six shafts: play on the hub")
        if six and x == HUB:                                                       # 10
            violate("rules/hub-full", "six shafts are dug")
        if x != HUB and s.line(x) is None:                                         # 11
            violate("rules/no-such-line", f"vein {(x - 7) // 2} has not been struck")
        if x != HUB and s.closed(x):                                               # 12
            violate("rules/line-closed", "that line ends in a double")
        ex = s.exploring()
        if ex is not None and x not in (7 + 2 * ex.double, 8 + 2 * ex.double):     # 13
            violate("rules/vein-unexplored", f"the vein of {ex.double} is being explored")
        end = s.hub if x == HUB else s.open_end(x)
        assert t is not None
        if end not in t:                                                           # 14
            violate("rules/tile-does-not-match", f"the open end shows {end}")
        placed = (end, t[1] if t[0] == end else t[0])
        shafts, veins = list(s.shafts), list(s.veins)
        if x == HUB:
            shafts.append((placed,))
        elif x <= SHAFTS:
            shafts[x - 1] = (*shafts[x - 1], placed)
        else:
            n, arm = divmod(x - 7, 2)
            i = next(i for i, v in enumerate(veins) if v.double == n)
            v = veins[i]
            veins[i] = replace(v, b=(*v.b, placed)) if arm else replace(v, a=(*v.a, placed))
        if t[0] == t[1]:                                                           # 5.3 / D6
            veins.append(Vein(t[0], (), ()))
        counts = self._count(s, seat, -1)
        return replace(s, shafts=tuple(shafts), veins=tuple(veins), hand_counts=counts,
                       passes=0, phase="play", turn=nxt_seat,
                       finished="out" if counts[seat] == 0 else None)

    def _count(self, s: MineState, seat: int, d: int) -> tuple[int, ...]:
        c = list(s.hand_counts)
        c[seat] += d
        return tuple(c)

    # 8
    def outcome(self, s: MineState, hands: list[list[Tile]],
                hidden: list[Tile]) -> Outcome:
        if s.finished is None:
            raise RuntimeError("rules/not-over")
        on_table = s.table()
        seen: set[Tile] = set()
        for h, c in zip(hands, s.hand_counts, strict=True):
            if (len(h) != c or len(set(h)) != len(h) or any(
                    t not in self.index or t in on_table or t in seen for t in h)):
                fail_rule("rules/reveal-mismatch", "the revealed hands disagree with the table")
            seen |= set(h)
        if hidden:
            # SPEC GAP: 8 says `hidden` "must be empty" without a code; a non-empty one is
            # rules/reveal-mismatch (it cannot arise: the rule set hides no position).
            fail_rule("rules/reveal-mismatch", "mineshaft hides no tile")
        pips = [sum(a + b for a, b in h) for h in hands]
        if s.finished == "out":
            winner: int | None = s.hand_counts.index(0)
        else:
            low = min(pips)
            winner = pips.index(low) if pips.count(low) == 1 else None          # D12
        margin = 0 if winner is None else 2 * (
            min(p for i, p in enumerate(pips) if i != winner) - pips[winner])    # D14
        return Outcome(winner, s.finished, pips, [2 * p for p in pips], margin, [])
