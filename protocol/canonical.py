"""Canonical msgpack: the one encoding for hashing, signing and the wire (spec/08-wire.md 8.1).

Values are restricted to nil, booleans, integers, byte strings (bin), text
strings, arrays and maps with text keys. The canonical encoding is what
msgpack-python's `packb(use_bin_type=True)` gives once map keys are sorted:
minimal integer and length headers, bin for bytes, str for text. Floats and
extension types do not exist here.

Decoding is strict: the size is checked before unpacking, per-container limits
bound memory, trailing bytes are an error, and the value must re-encode to
exactly the bytes received, so every value has one encoding.
"""

from __future__ import annotations

from typing import Any

import msgpack

from .errors import EncodingError

MAX_CONTAINER = 4096
MAX_BYTES = 1 << 20
#: No dealerless value nests deeper than 6; the limit keeps hostile input from
#: exhausting the stack while it is re-encoded.
MAX_DEPTH = 16


_SCALARS = frozenset({type(None), bool, int, bytes, str})


def _normalise(obj: Any, depth: int = 0) -> Any:
    """`obj` in canonical form; `depth` counts the containers around it (8.1 rule 5)."""
    if depth >= MAX_DEPTH and isinstance(obj, dict | list | tuple):
        raise EncodingError("msgpack/too-deep", f"values nest at most {MAX_DEPTH} deep")
    if isinstance(obj, dict):
        if not all(isinstance(k, str) for k in obj):
            raise EncodingError("msgpack/map-key", "map keys must be text")
        return {k: _normalise(obj[k], depth + 1) for k in sorted(obj)}
    if isinstance(obj, list | tuple):
        # Most arrays (shares, owners, proofs) hold scalars only: msgpack packs those as
        # they are, so the walk below, one call per item, is only for nested containers.
        if all(type(x) in _SCALARS for x in obj):
            return obj
        return [_normalise(x, depth + 1) for x in obj]
    if obj is None or isinstance(obj, bool | int | bytes | str):
        return obj
    raise EncodingError("msgpack/type", f"{type(obj).__name__} has no canonical encoding")


def pack(obj: Any) -> bytes:
    """The canonical encoding of `obj`."""
    try:
        out: bytes = msgpack.packb(_normalise(obj), use_bin_type=True)
    except (OverflowError, ValueError) as exc:
        raise EncodingError("msgpack/unencodable", str(exc)) from None
    return out


def pack_record(fields: dict[str, Any], nested: str) -> bytes:
    """The canonical encoding of a map whose values the caller built from validated,
    typed fields (nil, bools, ints, bytes, text, and arrays of them), except `nested`,
    which is normalised like any value. The public state (10.3) is encoded for every
    frame, and walking its thousands of shares item by item would cost more than the
    group operations of most steps; the golden vectors pin the bytes either way.
    """
    record = {k: fields[k] for k in sorted(fields)}
    record[nested] = _normalise(record[nested], 1)
    try:
        out: bytes = msgpack.packb(record, use_bin_type=True)
    except (OverflowError, ValueError) as exc:
        raise EncodingError("msgpack/unencodable", str(exc)) from None
    return out


def _no_ext(code: int, data: bytes) -> Any:
    raise EncodingError("msgpack/ext", "extension types are not allowed")


def unpack(data: bytes, max_size: int) -> Any:
    """Strictly decode canonical msgpack of at most `max_size` bytes."""
    if not isinstance(data, bytes):
        raise EncodingError("msgpack/type", "expected bytes")
    if len(data) > max_size:
        raise EncodingError("msgpack/too-large", f"{len(data)} bytes exceeds the {max_size} limit")
    try:
        obj = msgpack.unpackb(
            data, raw=False, use_list=True, strict_map_key=True, ext_hook=_no_ext,
            max_str_len=max_size, max_bin_len=max_size, max_array_len=MAX_CONTAINER,
            max_map_len=MAX_CONTAINER, max_ext_len=0)
    except EncodingError:
        raise
    except msgpack.ExtraData:
        raise EncodingError("msgpack/trailing-bytes", "bytes follow the encoded value") from None
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as exc:
        raise EncodingError("msgpack/malformed", f"not valid msgpack: {exc}") from None
    try:
        again = pack(obj)
    except EncodingError:
        raise
    if again != data:
        raise EncodingError("msgpack/non-canonical", "the value has a shorter or sorted encoding")
    return obj


# -- typed accessors: each names what was expected, for a clear error ------------------

def as_array(obj: Any, length: int, what: str) -> list[Any]:
    if not isinstance(obj, list) or len(obj) != length:
        raise EncodingError("schema/array", f"{what}: expected an array of {length}")
    return obj


def as_list(obj: Any, what: str, max_len: int = MAX_CONTAINER) -> list[Any]:
    if not isinstance(obj, list) or len(obj) > max_len:
        raise EncodingError("schema/array", f"{what}: expected an array of at most {max_len}")
    return obj


def as_bytes(obj: Any, what: str, length: int | None = None, max_len: int = MAX_BYTES) -> bytes:
    if not isinstance(obj, bytes):
        raise EncodingError("schema/bytes", f"{what}: expected bytes")
    if length is not None and len(obj) != length:
        raise EncodingError("schema/bytes", f"{what}: expected {length} bytes")
    if len(obj) > max_len:
        raise EncodingError("schema/bytes", f"{what}: more than {max_len} bytes")
    return obj


def as_int(obj: Any, what: str, lo: int = 0, hi: int = (1 << 64) - 1) -> int:
    if not isinstance(obj, int) or isinstance(obj, bool) or not lo <= obj <= hi:
        raise EncodingError("schema/int", f"{what}: expected an integer in [{lo}, {hi}]")
    return obj


def as_str(obj: Any, what: str, max_len: int = 64) -> str:
    if not isinstance(obj, str) or len(obj) > max_len:
        raise EncodingError("schema/str", f"{what}: expected text of at most {max_len}")
    return obj


def as_bool(obj: Any, what: str) -> bool:
    if not isinstance(obj, bool):
        raise EncodingError("schema/bool", f"{what}: expected true or false")
    return obj
