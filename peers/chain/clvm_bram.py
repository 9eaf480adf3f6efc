"""Bram's rules (spec/rules/bram.md) in Chialisp: a thin bridge to clsp/bram.clib for tests.

clsp/bram_rules.clsp exposes each function of the library; `run_bram` runs a batch of
calls in one CLVM run and gives back the results as trees (`Tree`: an atom, or a pair
as a 2-tuple), with the run's cost. The helpers convert between the forms the library
uses and Python's:

- `_tagged`: a msgpack value (None, bool, int, bytes, str, list, dict with text keys) in
  the tagged form of msgpack.clib, (TAG . PAYLOAD);
- `state_sexp` / `state_json`: the public state's JSON object (`state_to_json`) to the
  library's native state (LINE HAND_COUNTS TURN FIRST PASSES FINISHED), and back;
- `move_sexp` / `move_of`: a move, () for pass or (A B END), from a tile and an end, and
  back.

Like the rest of peers.chain, nothing here imports protocol/.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TypeAlias

from .clvm import BLOCK_COST_LIMIT, ClvmCost, compile_program
from .errors import ChainUnavailable, ClvmAbort, ProgramError

PROGRAM = "bram_rules.clsp"

#: Solution values: an atom (int or bytes), a list, or a pair written as a 2-tuple.
Sexp: TypeAlias = "int | bytes | list[Sexp] | tuple[Sexp, Sexp]"
#: Result values: an atom, or a pair (first, rest); nil is b"".
Tree: TypeAlias = "bytes | tuple[Tree, Tree]"

#: The functions bram_rules.clsp dispatches to, by name (its OP numbers).
OPS = {"from_value": 1, "to_value": 2, "initial": 3, "to_move": 4, "is_over": 5,
       "move_from_id": 6, "played_tile": 7, "apply": 8, "reveal_check": 9,
       "tile_index": 10, "tile_at": 11}

FINISHED: dict[str | None, int] = {None: 0, "out": 1, "blocked": 2}
_FINISHED_NAME = {v: k for k, v in FINISHED.items()}

#: msgpack.clib's tags.
NIL, BOOL, INT, BYTES, TEXT, ARRAY, MAP = 1, 2, 3, 4, 5, 6, 7


def _tagged(obj: object) -> Sexp:
    """`obj` as msgpack.clib's decoder gives it: (TAG . PAYLOAD), maps in key order."""
    if obj is None:
        return (NIL, [])
    if isinstance(obj, bool):
        return (BOOL, int(obj))
    if isinstance(obj, int):
        return (INT, obj)
    if isinstance(obj, bytes):
        return (BYTES, obj)
    if isinstance(obj, str):
        return (TEXT, obj.encode())
    if isinstance(obj, list | tuple):
        return (ARRAY, [_tagged(x) for x in obj])
    if isinstance(obj, Mapping):
        keys = sorted(obj)
        if not all(isinstance(k, str) for k in keys):
            raise ValueError("map keys are text")
        return (MAP, [(str(k).encode(), _tagged(obj[k])) for k in keys])
    raise ValueError(f"{type(obj).__name__} is no msgpack value")


def untagged(tree: Tree) -> object:
    """Inverse of `_tagged` (a map's keys decoded as UTF-8)."""
    tag, payload = pair(tree)
    kind = as_int(tag)
    if kind == NIL:
        return None
    if kind == BOOL:
        return bool(as_int(payload))
    if kind == INT:
        return as_int(payload)
    if kind in (BYTES, TEXT):
        if not isinstance(payload, bytes):
            raise ProgramError("a bytes or text value holds a pair")
        return payload if kind == BYTES else payload.decode()
    if kind == ARRAY:
        return [untagged(x) for x in items(payload)]
    if kind == MAP:
        out: dict[str, object] = {}
        for entry in items(payload):
            key, value = pair(entry)
            if not isinstance(key, bytes):
                raise ProgramError("a map key is a pair")
            out[key.decode()] = untagged(value)
        return out
    raise ProgramError(f"unknown tag {kind}")


def state_sexp(obj: Mapping[str, object]) -> Sexp:
    """A Bram state's JSON object (as `state_to_json` gives it) as the native state."""
    line: list[Sexp] = []
    for p in _list(obj["line"]):
        a, b = _list(p)
        line.append((_int(a), _int(b)))
    counts: list[Sexp] = [_int(c) for c in _list(obj["hand_counts"])]
    finished = obj["finished"]
    if finished is not None and finished not in ("out", "blocked"):
        raise ValueError(f"finished {finished!r}")
    return [line, counts, _int(obj["turn"]), _int(obj["first_player"]), _int(obj["passes"]),
            FINISHED[None if finished is None else str(finished)]]


def _list(x: object) -> list[object]:
    if not isinstance(x, list):
        raise ValueError(f"{x!r} is not a list")
    return x


def _int(x: object) -> int:
    if not isinstance(x, int) or isinstance(x, bool):
        raise ValueError(f"{x!r} is not an integer")
    return x


def state_json(tree: Tree) -> dict[str, object]:
    """The native state as the JSON object `state_to_json` gives."""
    fields = items(tree)
    if len(fields) != 6:
        raise ProgramError("a Bram state has six fields")
    line, counts, turn, first, passes, finished = fields
    return {"line": [[as_int(a), as_int(b)] for a, b in (pair(p) for p in items(line))],
            "hand_counts": [as_int(c) for c in items(counts)], "turn": as_int(turn),
            "first_player": as_int(first), "passes": as_int(passes),
            "finished": _FINISHED_NAME[as_int(finished)]}


def move_sexp(tile: tuple[int, int] | None, end: str = "R") -> Sexp:
    """() for pass (tile None), else (A B END) with END 0 for "L" and 1 for "R"."""
    if tile is None:
        return []
    return [tile[0], tile[1], 0 if end == "L" else 1]


def move_of(tree: Tree) -> tuple[tuple[int, int], str] | None:
    """Inverse of `move_sexp`: None for pass, else (tile, end)."""
    fields = items(tree)
    if not fields:
        return None
    a, b, end = (as_int(x) for x in fields)
    return (a, b), "R" if end else "L"


# -- trees ----------------------------------------------------------------------------


def as_int(tree: Tree) -> int:
    """An atom read as CLVM reads a number: signed big-endian, nil is 0."""
    if not isinstance(tree, bytes):
        raise ProgramError("expected an atom, got a pair")
    return int.from_bytes(tree, "big", signed=True)


def pair(tree: Tree) -> tuple[Tree, Tree]:
    if isinstance(tree, bytes):
        raise ProgramError("expected a pair, got an atom")
    return tree


def items(tree: Tree) -> list[Tree]:
    """The items of a proper list."""
    out: list[Tree] = []
    while not isinstance(tree, bytes):
        out.append(tree[0])
        tree = tree[1]
    if tree:
        raise ProgramError("not a proper list")
    return out


def _tree(node: object) -> Tree:
    """A chia_rs LazyNode as a Tree; iterative along the rest of each pair."""
    firsts: list[Tree] = []
    while True:
        p = getattr(node, "pair", None)
        if p is None:
            break
        firsts.append(_tree(p[0]))
        node = p[1]
    atom = getattr(node, "atom", None)
    if not isinstance(atom, bytes):
        raise ProgramError("a CLVM result that is neither an atom nor a pair")
    out: Tree = atom
    for first in reversed(firsts):
        out = (first, out)
    return out


# -- running ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BramRun:
    """The results of a batch of calls, in order, and the cost of the one run."""

    results: list[Tree]
    cost: ClvmCost


def _chia_rs() -> ModuleType:
    try:
        return importlib.import_module("chia_rs")
    except ImportError as exc:
        raise ChainUnavailable("chia_rs is not installed: pip install 'dealerless[chain]'") \
            from exc


def run_solution(solution: Sexp) -> tuple[Tree, ClvmCost]:
    """Run bram_rules.clsp on `solution` under MEMPOOL_MODE: its result and cost."""
    chia_rs = _chia_rs()
    program = compile_program(PROGRAM)
    args = bytes(chia_rs.Program.to(solution).to_bytes())
    try:
        cost, node = chia_rs.run_chia_program(program, args, BLOCK_COST_LIMIT,
                                              chia_rs.MEMPOOL_MODE)
    except ValueError as exc:
        raise ClvmAbort(PROGRAM, str(exc)) from None
    return _tree(node), ClvmCost(int(cost), len(program), len(args))


def call(op: str, *args: Sexp) -> tuple[Tree, ClvmCost]:
    """One function of bram.clib on `args` (OPS names it): its result and the run's cost."""
    return run_solution([OPS[op], list(args)])


def run_bram(calls: Sequence[tuple[str, Sequence[Sexp]]]) -> BramRun:
    """Many calls (name, args) in one run (bram_rules.clsp's OP 0)."""
    batch: list[Sexp] = [[OPS[op], *args] for op, args in calls]
    result, cost = run_solution([0, batch])
    out = items(result)
    if len(out) != len(calls):
        raise ProgramError("bram_rules.clsp gave a result per call")
    return BramRun(out, cost)


def program_bytes() -> int:
    """The size of the compiled bram_rules.clsp."""
    return len(compile_program(PROGRAM))
