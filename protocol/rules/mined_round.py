"""One round of Mined Games, resolved from every living miner's orders
(spec/rules/mined-games.md sections 4-6).

Pure and deterministic: `resolve_round` takes the mine, the miners and the orders
that were committed and opened, and returns the mine and miners after attacks,
steps, mines and falls, with what happened for the verdict and the vectors.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from .base import RuleViolation
from .mined_map import (
    B3,
    BOTTOM,
    EMERALD_POOL,
    GARNETS_PER_MINE,
    KINDS,
    SELF_BONUS,
    SELF_BONUS_MONEY,
    MineMap,
)

FREE_MOVES = 5
STEP_MONEY = 400
BREAK_FALL_BONUS = 4000
KILL_BONUS = 4000
IRON_BONUS = 6000
MAX_MOVES = 64  # a garnet buys one step more; no miner holds more than this in practice

Pos = tuple[int, int, int]  # floor (0 = B1), row (0 = top), column (0 = left)

DIRS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
#: Action codes (section 4.1): 0 nothing; 1-5 mine here/U/D/L/R on the miner's floor;
#: 6-10 mine the floor above: straight up, then above U/D/L/R; 11-14 attack U/D/L/R.
MINE_TARGETS: dict[int, tuple[int, str]] = {1: (0, ""), 2: (0, "U"), 3: (0, "D"), 4: (0, "L"),
                                            5: (0, "R"), 6: (-1, ""), 7: (-1, "U"),
                                            8: (-1, "D"), 9: (-1, "L"), 10: (-1, "R")}
ATTACKS = {11: "U", 12: "D", 13: "L", 14: "R"}
ACTION_TEXT = {0: "", 1: "mine here", 2: "mine U", 3: "mine D", 4: "mine L", 5: "mine R",
               6: "mine above", 7: "mine above-U", 8: "mine above-D", 9: "mine above-L",
               10: "mine above-R", 11: "attack U", 12: "attack D", 13: "attack L",
               14: "attack R"}
ALIVE = "alive"
DEATHS = ("lava", "attack", "forfeit")


@dataclass(frozen=True, slots=True)
class Orders:
    """A miner's orders for one round: steps in order, then one action (code above)."""

    moves: str
    action: int

    def text(self) -> str:
        parts = [self.moves] if self.moves else []
        if self.action:
            parts.append(ACTION_TEXT[self.action])
        return " ".join(parts) or "stay"


def parse_orders(text: str) -> Orders:
    """Orders from their text: steps as letters U/D/L/R, then an optional action
    ("mine here", "mine above-L", "attack R", ...); "stay" for none."""
    words = text.split()
    moves = ""
    if words and words[0] != "stay" and words[0] not in ("mine", "attack"):
        moves = words.pop(0)
    elif words and words[0] == "stay":
        words.pop(0)
    action_text = " ".join(words)
    codes = {v: k for k, v in ACTION_TEXT.items()}
    if set(moves) - set(DIRS) or action_text not in codes:
        raise RuleViolation("mined/orders-text", f"cannot read orders {text!r}")
    return Orders(moves, codes[action_text])


@dataclass(frozen=True, slots=True)
class Miner:
    """One seat's miner: where it is (None before it starts), money in dollars, garnets,
    rounds in which it earned from iron, and its status ("alive" or how it died)."""

    at: Pos | None
    money: int = 0
    garnets: int = 0
    iron_rounds: int = 0
    status: str = ALIVE
    died: int | None = None  # the stage it died in

    @property
    def alive(self) -> bool:
        return self.status == ALIVE


@dataclass(frozen=True)
class MinerRound:
    """One miner's round, for the account a player checks by hand (section 5)."""

    start: Pos
    path: tuple[Pos, ...]          # every tile stepped onto, in order
    action: str                    # the action's text ("" none)
    target: Pos | None             # the tile mined, if it mined
    kind: str                      # the mined tile's kind letter ("" if it did not mine)
    shared: int                    # how many miners mined that tile at that index
    mined: int                     # mining money paid (its share, and the bonus below)
    bonus: int                     # the self-mining bonus paid (5.3)
    unpaid: str                    # why its mine paid nothing ("" if it paid or none)
    fell_to: Pos | None            # where it landed, if it fell
    died: str                      # "attack", "lava" or ""
    earned: int                    # money this round, every source
    money: int                     # money after the round


@dataclass(frozen=True)
class RoundReport:
    """What happened in one round (for the vectors and the account)."""

    killed: dict[int, str]         # seat -> "attack" or "lava"
    fell: dict[int, Pos]           # seat -> where it landed
    earned: dict[int, int]         # seat -> money this round (all sources)
    breakers_paid: tuple[int, ...]  # seats paid the break-and-fall bonus
    killers_paid: tuple[int, ...]   # seats paid the kill bonus
    pool: int                       # dollars added to the prize pool (emerald)
    miners: dict[int, MinerRound] = field(default_factory=dict)  # seat -> its round


def neighbour(mine: MineMap, pos: Pos, dr: int, dc: int) -> Pos | None:
    f, r, c = pos
    r, c = r + dr, c + dc
    return (f, r, c) if 0 <= r < mine.height and 0 <= c < mine.width else None


def mine_target(mine: MineMap, pos: Pos, action: int) -> Pos | None:
    """The tile an action mines from `pos`, or None if it is off the mine."""
    df, d = MINE_TARGETS[action]
    f = pos[0] + df
    if f < 0:
        return None
    dr, dc = DIRS[d] if d else (0, 0)
    return neighbour(mine, (f, pos[1], pos[2]), dr, dc)


def rounded_share(amount: int, n: int) -> int:
    """amount / n to the nearest whole dollar, halves up (section 5.3)."""
    return (2 * amount + n) // (2 * n)


def check_orders(mine: MineMap, miner: Miner, orders: Orders) -> None:
    """RuleViolation (mined/...) if `orders` break the rules for `miner` (section 4.2)."""
    if miner.at is None or not miner.alive:
        raise RuleViolation("mined/not-playing", "this miner is not in the mine")
    extra = len(orders.moves) - FREE_MOVES
    if extra > miner.garnets:
        raise RuleViolation("mined/too-many-moves",
                            f"{len(orders.moves)} steps need {extra} garnets; the miner has "
                            f"{miner.garnets}")
    pos: Pos | None = miner.at
    if orders.action in ATTACKS and miner.at[0] != B3:
        raise RuleViolation("mined/attack-off-b3", "pickaxes attack only on B3")
    if orders.action in ATTACKS and neighbour(mine, miner.at, *DIRS[ATTACKS[orders.action]]) \
            is None:
        raise RuleViolation("mined/off-mine", "the attack is aimed off the mine")
    for i, step in enumerate(orders.moves):
        assert pos is not None
        pos = neighbour(mine, pos, *DIRS[step])
        if pos is None:
            raise RuleViolation("mined/off-mine", f"step {i + 1} ({step}) leaves the mine")
    # Where the miner would stand if nothing stopped it: falls can only end the orders
    # early, and then the action is never taken, so this is the only place it can be.
    if orders.action in MINE_TARGETS and pos is not None and \
            mine_target(mine, pos, orders.action) is None:
        raise RuleViolation("mined/off-mine", f"{ACTION_TEXT[orders.action]} from "
                            f"{pos_text(pos)} is off the mine")


def pos_text(pos: Pos) -> str:
    f, r, c = pos
    return f"B{f + 1} r{r} c{c}"


def _broken(dur: list[list[int]], mine: MineMap, p: Pos) -> bool:
    return dur[p[0]][p[1] * mine.width + p[2]] == 0


def resolve_round(mine: MineMap, dur_in: tuple[tuple[int, ...], ...],
                  miners_in: tuple[Miner, ...], orders: dict[int, Orders],
                  stage: int) -> tuple[tuple[tuple[int, ...], ...], tuple[Miner, ...],
                                       RoundReport]:
    """Resolve one round (section 5): attacks, then step i of every miner at once and
    the mines due at step i, for i = 0, 1, ...; then mining money, then falls. `orders`
    holds the orders of every living miner (check_orders passed)."""
    w = mine.width
    dur = [list(f) for f in dur_in]
    miners = list(miners_in)
    pos: dict[int, Pos] = {s: m.at for s, m in enumerate(miners) if m.alive and m.at}
    start = dict(pos)
    paths: dict[int, list[Pos]] = {s: [] for s in pos}
    active = set(pos)
    falling: set[int] = set()
    killed: dict[int, str] = {}
    earned: Counter[int] = Counter()
    garnets: Counter[int] = Counter()
    spent: Counter[int] = Counter()
    iron: set[int] = set()
    pool = 0
    killers: set[int] = set()
    broken_by: dict[Pos, set[int]] = {}
    mined_by: dict[Pos, set[int]] = {}          # every miner that mined a tile this round
    owed: dict[int, tuple[Pos, int]] = {}       # seat -> (tile, share): paid in 5.3
    targets: dict[int, Pos] = {}
    shared: dict[int, int] = {}                 # seat -> miners of its tile at its index

    def d(p: Pos) -> int:
        return dur[p[0]][p[1] * w + p[2]]

    def set_d(p: Pos, v: int) -> None:
        dur[p[0]][p[1] * w + p[2]] = max(0, v)

    def fall_check() -> None:
        for s in sorted(active - falling):
            if pos[s][0] < BOTTOM and d(pos[s]) == 0:
                falling.add(s)

    # 5.1 Attacks, all at once, from where the miners stand at the start of the round.
    for s in sorted(active):
        act = orders[s].action
        if act in ATTACKS:
            target = neighbour(mine, pos[s], *DIRS[ATTACKS[act]])
            victims = [v for v in sorted(active) if pos[v] == target]
            if victims:
                killers.add(s)
            for v in victims:
                killed[v] = "attack"
    active -= set(killed)
    # 5.2 Steps and mines, index by index.
    last = max((len(orders[s].moves) for s in active), default=0)
    for i in range(last + 1):
        movers = [s for s in sorted(active - falling) if i < len(orders[s].moves)]
        for p, n in Counter(pos[s] for s in movers).items():
            set_d(p, d(p) - n)
        for s in movers:
            dr, dc = DIRS[orders[s].moves[i]]
            nxt = neighbour(mine, pos[s], dr, dc)
            assert nxt is not None  # check_orders keeps every step on the mine
            pos[s] = nxt
            paths[s].append(nxt)
            earned[s] += STEP_MONEY
            if i >= FREE_MOVES:
                spent[s] += 1
            if mine.kind(*nxt) == "L" and d(nxt) > 0:
                killed[s] = "lava"
        active -= set(killed)
        fall_check()
        by_tile: dict[Pos, list[int]] = {}
        for s in sorted(active - falling):
            if orders[s].action in MINE_TARGETS and len(orders[s].moves) == i:
                target = mine_target(mine, pos[s], orders[s].action)
                assert target is not None
                by_tile.setdefault(target, []).append(s)
                targets[s] = target
        for tile, group in by_tile.items():
            mined_by.setdefault(tile, set()).update(group)
            shared.update(dict.fromkeys(group, len(group)))
            before = d(tile)
            set_d(tile, before - len(group))
            if before == 0:
                continue  # mined away already: nothing to earn (seed clarification)
            for s in group:
                owed[s] = (tile, rounded_share(KINDS[mine.kind(*tile)][2], len(group)))
            if d(tile) == 0:
                broken_by[tile] = set(group)
        fall_check()
    # 5.3 Mining money, once every step and mine is done: a miner now falling earns
    # nothing from its mine (D22), and the self-mining bonus needs the tile to have been
    # mined by nobody else in the round (D23).
    paid: dict[int, int] = {}
    bonus: dict[int, int] = {}
    for s, (tile, amount) in sorted(owed.items()):
        if s in falling:
            continue
        kind = mine.kind(*tile)
        if tile == pos[s] and kind in SELF_BONUS and mined_by[tile] == {s}:
            bonus[s] = SELF_BONUS_MONEY
        paid[s] = amount + bonus.get(s, 0)
        earned[s] += paid[s]
        if kind == "R":
            garnets[s] += GARNETS_PER_MINE
        elif kind == "E":
            pool += EMERALD_POOL
        elif kind == "I":
            iron.add(s)
    # 5.4 Falls.
    fell: dict[int, Pos] = {}
    breakers: set[int] = set()
    for s in sorted(falling & active):
        f, r, c = pos[s]
        while f < BOTTOM and d((f, r, c)) == 0:
            breakers |= broken_by.get((f, r, c), set()) - {s}
            f += 1
        pos[s] = fell[s] = (f, r, c)
        if mine.kind(f, r, c) == "L" and d((f, r, c)) > 0:
            killed[s] = "lava"
    for s in killers:
        earned[s] += KILL_BONUS
    for s in breakers:
        earned[s] += BREAK_FALL_BONUS
    for s in pos:
        m = miners[s]
        status, died = (killed[s], stage) if s in killed else (m.status, m.died)
        miners[s] = replace(m, at=pos[s], money=m.money + earned[s],
                            garnets=m.garnets - spent[s] + garnets[s],
                            iron_rounds=m.iron_rounds + (s in iron), status=status, died=died)
    accounts = {s: MinerRound(
        start[s], tuple(paths[s]), ACTION_TEXT[orders[s].action], targets.get(s),
        mine.kind(*targets[s]) if s in targets else "", shared.get(s, 0), paid.get(s, 0),
        bonus.get(s, 0), _unpaid(s, targets, owed, paid), fell.get(s), killed.get(s, ""),
        earned[s], miners[s].money) for s in sorted(pos)}
    report = RoundReport(killed, fell, dict(earned), tuple(sorted(breakers)),
                         tuple(sorted(killers)), pool, accounts)
    return tuple(tuple(f) for f in dur), tuple(miners), report


def _unpaid(s: int, targets: dict[int, Pos], owed: dict[int, tuple[Pos, int]],
            paid: dict[int, int]) -> str:
    """Why a miner's mine paid nothing, for the account ("" if it paid or did not mine)."""
    if s not in targets or s in paid:
        return ""
    return "the tile was already broken" if s not in owed else "it fell (D22)"


def resources_reachable(mine: MineMap, dur: tuple[tuple[int, ...], ...],
                        miners: tuple[Miner, ...]) -> bool:
    """Whether a living miner can still reach an unbroken resource tile (D11): walking
    is free on a floor, a miner can always go down (break a tile and fall) but never
    up, and it can mine one floor up."""
    floors = [m.at[0] for m in miners if m.alive and m.at is not None]
    if not floors:
        return False
    top = max(0, min(floors) - 1)
    return any(k in "GSIER" and dur[f][i] > 0
               for f in range(top, len(mine.kinds)) for i, k in enumerate(mine.kinds[f]))
