"""state_from_json of bram (bram.md 3), mexican-train (mexican-train.md 3) and mineshaft
(mineshaft.md 3): a received `rules` state read back for 10.3 decoding, refusing what the
rule set's state_to_json would not produce (rules/state-json). FROM_JSON adds mined-games
(rules.mined_json)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from independent.errors import fail_err
from independent.group.points import Tile
from independent.rules import mexican_train as imt
from independent.rules import mineshaft as ims
from independent.rules.bram import BramState
from independent.rules.mined_json import state_from_json as mined_from_json


def _sj(ok: bool, why: str) -> None:
    if not ok:
        fail_err("rules/state-json", why)


def _int(v: Any, lo: int | None = None, hi: int | None = None) -> int:
    _sj(isinstance(v, int) and not isinstance(v, bool), f"{v!r} is not an integer")
    _sj((lo is None or v >= lo) and (hi is None or v <= hi), f"{v} out of range")
    return v


def _bool(v: Any) -> bool:
    _sj(isinstance(v, bool), f"{v!r} is not a boolean")
    return v


def _list(v: Any, n: int | None = None) -> list[Any]:
    _sj(isinstance(v, list) and (n is None or len(v) == n), f"{v!r}: expected a list")
    return v


def _keys(obj: Any, keys: set[str]) -> dict[str, Any]:
    _sj(isinstance(obj, dict) and set(obj) == keys, "not an object with exactly the keys")
    return obj


def _line(v: Any, start: int, tiles: set[Tile], seen: set[Tile]) -> tuple[Tile, ...]:
    """A run of distinct set tiles `[inner, outer]` matching from `start`."""
    out = []
    end = start
    for x in _list(v):
        a, b = (_int(y) for y in _list(x, 2))
        t = (min(a, b), max(a, b))
        _sj(t in tiles and t not in seen, f"tile {a}-{b} not in the set or repeated")
        _sj(a == end, f"tile {a}-{b} does not match {end}")
        seen.add(t)
        out.append((a, b))
        end = b
    return tuple(out)


def _finished(v: Any) -> str | None:
    _sj(v in (None, "out", "blocked") and not isinstance(v, bool), f"finished {v!r}")
    return v


def bram_from_json(rules: Any, obj: Any) -> BramState:
    o = _keys(obj, {"finished", "first_player", "hand_counts", "line", "passes", "turn"})
    tiles = set(rules.tiles)
    seen: set[Tile] = set()
    line: list[Tile] = []
    for x in _list(o["line"]):
        a, b = (_int(y) for y in _list(x, 2))
        t = (min(a, b), max(a, b))
        _sj(t in tiles and t not in seen, "line tile not in the set or repeated")
        _sj(not line or line[-1][1] == a, "neighbours do not match")
        seen.add(t)
        line.append((a, b))
    _sj((6, 6) in seen, "the line lacks 6-6")
    counts = tuple(_int(c, 0, 13) for c in _list(o["hand_counts"], 2))
    _sj(sum(counts) == 26 - (len(line) - 1), "hand counts disagree with the line")
    turn, fp = _int(o["turn"], 0, 1), _int(o["first_player"], 0, 1)
    passes, fin = _int(o["passes"], 0, 2), _finished(o["finished"])
    _sj((fin == "blocked") == (passes == 2), "blocked iff two passes")
    _sj((fin == "out") == (0 in counts), "out iff a count is 0")
    _sj(fin != "out" or passes == 0, "out with passes")
    return BramState(tuple(line), counts, turn, fp, passes, fin)


def mexican_from_json(rules: imt.MexicanTrain, obj: Any) -> imt.MexState:
    o = _keys(obj, {"engine", "trains", "mexican", "markers", "pending", "hand_counts",
                    "boneyard", "turn", "first_player", "phase", "drawn", "owes",
                    "first_done", "stalled", "finished"})
    k = rules.seats
    engine = _int(o["engine"])
    _sj(engine == rules.engine, "another engine")
    tiles = set(imt.TILES) - {(engine, engine)}   # trains never contain the engine tile
    seen: set[Tile] = set()
    trains = tuple(_line(x, engine, tiles, seen) for x in _list(o["trains"], k))
    if rules.mexican_train:
        _sj(o["mexican"] is not None, "the Mexican train is on")
        mexican: tuple[Tile, ...] | None = _line(o["mexican"], engine, tiles, seen)
    else:
        _sj(o["mexican"] is None, "the Mexican train is off")
        mexican = None
    markers = tuple(_bool(x) for x in _list(o["markers"], k))
    counts = tuple(_int(c, 0) for c in _list(o["hand_counts"], k))
    full = 91 - k * rules.hand_size
    boneyard = _int(o["boneyard"], 0, full)
    turn, fp = _int(o["turn"], 0, k - 1), _int(o["first_player"], 0, k - 1)
    phase = o["phase"]
    _sj(phase in ("declare", "search", "play"), f"phase {phase!r}")
    drawn, owes = _bool(o["drawn"]), _bool(o["owes"])
    first_done = tuple(_bool(x) for x in _list(o["first_done"], k))
    stalled = _int(o["stalled"], 0)
    fin = _finished(o["finished"])
    pending = o["pending"]
    if pending is not None:
        _int(pending)
        _sj(pending in range(k) or (pending == imt.MEXICAN and mexican is not None),
            "pending names no train")
        tr = mexican if pending == imt.MEXICAN else trains[pending]
        _sj(bool(tr) and tr[-1][0] == tr[-1][1], "pending train does not end in a double")
    out = phase == "play"
    _sj(sum(counts) + boneyard + len(seen) + (1 if out else 0) == 91, "tiles do not add up")
    if not out:
        _sj(not seen and not any(markers) and not any(first_done),
            "something on the table before the engine is out")
    if phase == "declare":
        # SPEC GAP: "in declare nobody has drawn" is read as drawn false and a full boneyard.
        _sj(not drawn and boneyard == full, "a draw in declare")
    # SPEC GAP: "owes = false only in a first turn before any draw" is read as: the engine
    # is out, the seat to move has not finished its first turn and has not drawn.
    _sj(owes or (out and not first_done[turn] and not drawn), "owes false outside a run")
    _sj(stalled == 0 or boneyard == 0, "stalled with a boneyard")
    _sj((fin == "out") == (0 in counts), "out iff a count is 0")
    _sj((fin == "blocked") == (stalled == k), "blocked iff stalled = seats")
    return imt.MexState(engine, trains, mexican, markers, pending, counts, boneyard, turn, fp,
                        phase, drawn, owes, first_done, stalled, fin)


def mineshaft_from_json(rules: ims.Mineshaft, obj: Any) -> ims.MineState:
    o = _keys(obj, {"set", "hub", "shafts", "veins", "hand_counts", "boneyard", "turn",
                    "first_player", "phase", "passes", "finished"})
    _sj(o["set"] == rules.set_name, "another set")
    hub = _int(o["hub"])
    _sj(hub == rules.hub, "another hub")
    k = rules.seats
    tiles = set(rules.tiles) - {(hub, hub)}
    seen: set[Tile] = set()
    lines: list[tuple[Tile, ...]] = []
    shafts = tuple(_line(x, hub, tiles, seen) for x in _list(o["shafts"]))
    lines += shafts
    veins: list[ims.Vein] = []
    for x in _list(o["veins"]):
        v = _keys(x, {"double", "a", "b"})
        d = _int(v["double"], 0, rules.max_pip)
        a = _line(v["a"], d, tiles, seen)
        b = _line(v["b"], d, tiles, seen)
        veins.append(ims.Vein(d, a, b))
        lines += [a, b]
    _sj(len(shafts) <= ims.SHAFTS and all(shafts), "at most six non-empty shafts")
    if len(shafts) < ims.SHAFTS:
        _sj(all(len(s) == 1 for s in shafts) and not veins, "one tile per shaft, no veins")
    for ln in lines:   # a double only as a line's last tile
        _sj(all(a != b for a, b in ln[:-1]), "a double inside a line")
    ends = sorted(ln[-1][0] for ln in lines if ln and ln[-1][0] == ln[-1][1])
    _sj(ends == sorted(v.double for v in veins), "line-ending doubles are not the veins'")
    for i, v in enumerate(veins[:-1]):
        nxt = veins[i + 1].double
        _sj(len(v.a) + len(v.b) >= ims.VEIN_DEPTH or (nxt, nxt) in {
            (min(t), max(t)) for t in v.a + v.b}, "an old vein left unexplored")
    counts = tuple(_int(c, 0) for c in _list(o["hand_counts"], k))
    boneyard = _int(o["boneyard"], 0, rules.pile_size)
    turn, fp = _int(o["turn"], 0, k - 1), _int(o["first_player"], 0, k - 1)
    phase = o["phase"]
    _sj(phase in ("play", "drawn"), f"phase {phase!r}")
    passes, fin = _int(o["passes"], 0, k), _finished(o["finished"])
    _sj(sum(counts) + boneyard + len(seen) + 1 == len(rules.tiles), "tiles do not add up")
    _sj(phase != "drawn" or (boneyard < rules.pile_size and fin is None and 0 not in counts),
        "drawn without a draw, or after the end")
    _sj(passes == 0 or boneyard == 0, "passes with a pile")
    _sj((fin == "out") == (0 in counts), "out iff a count is 0")
    _sj(fin != "out" or passes == 0, "out with passes")
    _sj((fin == "blocked") == (passes == k), "blocked iff passes = seats")
    return ims.MineState(rules.set_name, hub, shafts, tuple(veins), counts, boneyard, turn, fp,
                         phase, passes, fin)


FROM_JSON: dict[str, Callable[[Any, Any], Any]] = {
    "bram": bram_from_json, "mexican-train": mexican_from_json,
    "mineshaft": mineshaft_from_json, "mined-games": mined_from_json}
