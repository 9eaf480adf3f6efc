"""Canonical msgpack on CLVM (spec/08-wire.md 8.1): clsp/msgpack.clib's strict decoder and
canonical encoder, run through its two small programs, and the tagged values they use.

A value inside CLVM is a pair (TAG . PAYLOAD), the contract of msgpack.clib:

| tag | value | payload |
| --- | --- | --- |
| 1 | nil | nil |
| 2 | bool | 0 (nil) or 1 |
| 3 | int | the CLVM integer (shortest signed big-endian; 2^64 - 1 is 00 ff .. ff) |
| 4 | bytes (msgpack bin) | the atom |
| 5 | text (msgpack str) | its UTF-8 |
| 6 | array | a proper list of values |
| 7 | map | a proper list of (KEY . VALUE), KEY the text's UTF-8, ascending |

Here a pair is a Python tuple of two, a proper list a Python list (or the pairs it is
made of), and an atom bytes or an int, as `clvm.Value` holds them.

- `to_tagged`, `from_tagged`: Python msgpack values (None, bool, int, bytes, str, list,
  dict with str keys) to tagged values and back;
- `unpack(data, max_size)`: 8.1's strict decoding inside CLVM (clsp/msgpack_unpack.clsp):
  "ok" or the spec code of the first rule `data` breaks, in the reference's order
  (protocol/canonical.py), the value, and the cost;
- `pack(obj)`: 8.1's canonical encoding inside CLVM (clsp/msgpack_pack.clsp), and the cost;
- `tree(node)`: a chia_rs result as a tagged value (pairs as tuples, atoms as bytes).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeAlias

from .clvm import BLOCK_COST_LIMIT, ClvmCost, Value, _module, compile_program, serialize
from .codes import code_of
from .errors import ClvmAbort, ProgramError

#: What msgpack-python gives for a canonical value (8.1's values).
MsgpackValue: TypeAlias = (bool | int | bytes | str | list["MsgpackValue"]
                           | dict[str, "MsgpackValue"] | None)

NIL, BOOL, INT, BYTES, TEXT, ARRAY, MAP = range(1, 8)

UNPACK = "msgpack_unpack.clsp"
PACK = "msgpack_pack.clsp"


def to_tagged(obj: object) -> Value:
    """The tagged value of a msgpack value (8.1). A map's entries are written in
    ascending key order, by code point, as the canonical encoding has them; TypeError for
    anything 8.1 has no value for (a float, a map key that is not text)."""
    if obj is None:
        return (NIL, b"")
    if isinstance(obj, bool):
        return (BOOL, int(obj))
    if isinstance(obj, int):
        return (INT, obj)
    if isinstance(obj, bytes):
        return (BYTES, obj)
    if isinstance(obj, str):
        return (TEXT, obj.encode())
    if isinstance(obj, list | tuple):
        return (ARRAY, [to_tagged(x) for x in obj])
    if isinstance(obj, dict):
        if not all(isinstance(k, str) for k in obj):
            raise TypeError("a map key must be text (spec/08-wire.md 8.1)")
        return (MAP, [(k.encode(), to_tagged(obj[k])) for k in sorted(obj)])
    raise TypeError(f"{type(obj).__name__} has no msgpack value (spec/08-wire.md 8.1)")


def _atom(value: Value) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, int):
        return _int_atom(value)
    if isinstance(value, list) and not value:
        return b""
    raise ProgramError("expected an atom in a tagged value")


def _int_atom(n: int) -> bytes:
    """CLVM's encoding of an integer: the shortest signed big-endian bytes, nil for 0."""
    return n.to_bytes((n + (n < 0)).bit_length() // 8 + 1, "big", signed=True) if n else b""


def _items(value: Value) -> Iterator[Value]:
    """The items of a CLVM list: a Python list, or pairs (tuples) ending in nil."""
    while True:
        if isinstance(value, list):
            yield from value
            return
        if isinstance(value, tuple):
            if len(value) != 2:
                raise ProgramError("a pair of a tagged value is a tuple of two")
            yield value[0]
            value = value[1]
            continue
        if _atom(value):
            raise ProgramError("a list in a tagged value ends in nil")
        return


def _pair(value: Value) -> tuple[Value, Value]:
    if isinstance(value, tuple) and len(value) == 2:
        return value[0], value[1]
    if isinstance(value, list) and value:     # (A . (B C)) written as the list [A, B, C]
        return value[0], value[1:]
    raise ProgramError("expected a pair in a tagged value")


def from_tagged(value: Value) -> MsgpackValue:
    """The msgpack value of a tagged value (msgpack-python's reading of its encoding)."""
    tag_atom, payload = _pair(value)
    tag = int.from_bytes(_atom(tag_atom), "big", signed=True)
    if tag == NIL:
        return None
    if tag == BOOL:
        return bool(_atom(payload))
    if tag == INT:
        return int.from_bytes(_atom(payload), "big", signed=True)
    if tag == BYTES:
        return _atom(payload)
    if tag == TEXT:
        return _atom(payload).decode()
    if tag == ARRAY:
        return [from_tagged(x) for x in _items(payload)]
    if tag == MAP:
        out: dict[str, MsgpackValue] = {}
        for entry in _items(payload):
            key, item = _pair(entry)
            out[_atom(key).decode()] = from_tagged(item)
        return out
    raise ProgramError(f"{tag} is not a tag of a msgpack value")


def tree(node: object) -> Value:
    """A chia_rs LazyNode as a tagged-value tree: a pair as a tuple, an atom as bytes.
    The spine of a list is walked in a loop, so long lists need no deep recursion."""
    firsts: list[Value] = []
    while True:
        pair = getattr(node, "pair", None)
        if pair is None:
            break
        firsts.append(tree(pair[0]))
        node = pair[1]
    atom = getattr(node, "atom", None)
    if not isinstance(atom, bytes):
        raise ProgramError("a CLVM result that is neither an atom nor a pair")
    out: Value = atom
    for first in reversed(firsts):
        out = (first, out)
    return out


def _run(name: str, solution: Sequence[Value]) -> tuple[Value, ClvmCost]:
    chia_rs = _module("chia_rs")
    program = compile_program(name)
    args = serialize(solution)
    try:
        cost, node = chia_rs.run_chia_program(program, args, BLOCK_COST_LIMIT,
                                              chia_rs.MEMPOOL_MODE)
    except ValueError as exc:
        raise ClvmAbort(name, str(exc)) from None
    return tree(node), ClvmCost(int(cost), len(program), len(args))


def unpack(data: bytes, max_size: int) -> tuple[str, MsgpackValue | None, ClvmCost]:
    """8.1's strict decoding of `data` in CLVM: ("ok", the value, cost), or the spec code
    of the first rule it breaks (8.1's order, as protocol.canonical.unpack), None and the
    cost."""
    result, cost = _run(UNPACK, [data, max_size])
    code_atom, value = _pair(result)
    code = code_of(int.from_bytes(_atom(code_atom), "big", signed=True))
    if code != "ok":
        return code, None, cost
    return code, from_tagged(value), cost


def pack(obj: object) -> tuple[bytes, ClvmCost]:
    """8.1's canonical encoding of `obj` in CLVM, and the cost."""
    result, cost = _run(PACK, [to_tagged(obj)])
    if not isinstance(result, bytes):
        raise ProgramError("msgpack_pack.clsp must return an atom")
    return result, cost
