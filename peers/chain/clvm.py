"""Chialisp programs on Chia's CLVM: compile once, run, and measure what Chia charges.

Programs are the `*.clsp` files of peers/chain/clsp, compiled by clvm_tools_rs with
that directory on the include path (its `*.clib` files are the libraries). A compiled
program is kept in memory under the SHA-256 of its source and of every library, so an
edited library is never run from a stale compilation.

Chia charges a spend its CLVM run cost plus 12,000 for every byte of the program and of
its solution (chia-blockchain's COST_PER_BYTE), against a block limit of 11,000,000,000
(MAX_BLOCK_COST_CLVM); `ClvmCost` reports both parts and the share of a block. Programs
run with MEMPOOL_MODE, the strict flags a full node applies to a transaction it accepts.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TypeAlias

from .cache import cached_bytes
from .codes import CLSP_DIR
from .errors import ChainUnavailable, ClvmAbort, ProgramError

#: chia-blockchain's MAX_BLOCK_COST_CLVM and COST_PER_BYTE.
BLOCK_COST_LIMIT = 11_000_000_000
COST_PER_BYTE = 12_000

#: What a solution may hold: an atom (bytes, or an int, which CLVM encodes as the shortest
#: signed big-endian bytes) or a list of such values.
Value: TypeAlias = bytes | int | Sequence["Value"]


def _module(name: str) -> ModuleType:
    """A tool of the [chain] extra, or ChainUnavailable naming it. (clvm_tools_rs ships no
    type information, so it is imported by name and its answers are checked.)"""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ChainUnavailable(f"{name} is not installed: pip install 'dealerless[chain]'") \
            from exc


@dataclass(frozen=True)
class ClvmCost:
    """The cost of one run: the CLVM's own measure, and the bytes Chia charges for."""

    run: int
    program_bytes: int
    solution_bytes: int

    @property
    def byte_cost(self) -> int:
        return COST_PER_BYTE * (self.program_bytes + self.solution_bytes)

    @property
    def total(self) -> int:
        return self.run + self.byte_cost

    @property
    def block_share(self) -> float:
        """The part of one block's cost limit this run takes."""
        return self.total / BLOCK_COST_LIMIT

    def __add__(self, other: ClvmCost) -> ClvmCost:
        return ClvmCost(self.run + other.run, self.program_bytes + other.program_bytes,
                        self.solution_bytes + other.solution_bytes)


@dataclass(frozen=True)
class ClvmRun:
    """A program's result (a tree of atoms, as `Value`) and its cost."""

    result: Value
    cost: ClvmCost


_COMPILED: dict[str, bytes] = {}


def source_digest(name: str) -> str:
    """SHA-256 over the program's source and every library it may include."""
    h = hashlib.sha256()
    for path in [CLSP_DIR / name, *sorted(CLSP_DIR.glob("*.clib"))]:
        data = path.read_bytes()
        h.update(len(path.name).to_bytes(4, "big") + path.name.encode())
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def compile_program(name: str) -> bytes:
    """The serialized CLVM of clsp/`name`, compiled once per source digest (and kept on
    disk: the step program takes the compiler seconds)."""
    key = source_digest(name)
    if key not in _COMPILED:
        _COMPILED[key] = cached_bytes("clvm", key, lambda: _compile(name))
    return _COMPILED[key]


def _compile(name: str) -> bytes:
    compiler = _module("clvm_tools_rs")
    try:
        compiled = compiler.compile((CLSP_DIR / name).read_text(), [str(CLSP_DIR)])
    except Exception as exc:   # the compiler raises its own CompError
        raise ProgramError(f"{name} does not compile: {exc}") from exc
    if not isinstance(compiled, str):
        raise ProgramError(f"{name}: the compiler returned {type(compiled).__name__}")
    return bytes.fromhex(compiled)


def _value(node: object) -> Value:
    """A chia_rs LazyNode as nested lists of atoms (a CLVM list ends in nil)."""
    items: list[Value] = []
    while True:
        pair = getattr(node, "pair", None)
        if pair is None:
            atom = getattr(node, "atom", None)
            if not isinstance(atom, bytes):
                raise ProgramError("a CLVM result that is neither an atom nor a pair")
            if not items:
                return atom
            if atom:
                raise ProgramError("a CLVM result that is not a proper list")
            return items
        items.append(_value(pair[0]))
        node = pair[1]


def serialize(solution: Value) -> bytes:
    """The solution as CLVM's serialization, what a spend carries and pays for."""
    program = _module("chia_rs").Program.to(solution)
    return bytes(program.to_bytes())


def run_program(name: str, solution: Sequence[Value], extra_flags: int = 0) -> ClvmRun:
    """Run clsp/`name` on `solution` (its list of arguments) under MEMPOOL_MODE and
    `extra_flags` (such as chia_rs.RELAXED_BLS, which Chia's hard fork 2 turns on).

    ClvmAbort if the program aborts or passes the block's cost limit."""
    chia_rs = _module("chia_rs")
    program = compile_program(name)
    args = serialize(solution)
    try:
        cost, node = chia_rs.run_chia_program(program, args, BLOCK_COST_LIMIT,
                                              chia_rs.MEMPOOL_MODE | extra_flags)
    except ValueError as exc:   # chia_rs reports every abort so, with the VM's reason
        raise ClvmAbort(name, str(exc)) from None
    return ClvmRun(_value(node), ClvmCost(int(cost), len(program), len(args)))


def as_int(value: Value) -> int:
    """An atom read as CLVM reads a number: signed big-endian, nil is 0."""
    if not isinstance(value, bytes):
        raise ProgramError("expected an atom, got a list")
    return int.from_bytes(value, "big", signed=True)
