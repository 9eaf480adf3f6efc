"""Canonical msgpack, spec/08-wire.md 8.1, for the transcript verifier: msgpack-python.

`unpack` is strict decoding, rules 1 to 6 in order; `pack` the canonical encoding (sorted
map keys). wire.msgpack_pure is the hand-written implementation the vectors check.
"""

from __future__ import annotations

from typing import Any, NoReturn

import msgpack

from independent.errors import fail_err


class _ExtMet(Exception):
    pass


def _ext_hook(code: int, data: bytes) -> NoReturn:
    # With max_ext_len=0 every ext with a payload is already malformed (rule 3); what
    # reaches the hook is an ext with an empty payload other than type -1 (rule 3').
    raise _ExtMet(code)


def _canon(v: Any, depth: int) -> Any:
    """8.1 rule 5: walk the value as the re-encoding does; sort every map's keys [D7]."""
    if v is None or isinstance(v, bool | str | bytes):
        return v
    if isinstance(v, int):
        if not -(2**63) <= v <= 2**64 - 1:
            fail_err("msgpack/unencodable")
        return v
    if isinstance(v, list | tuple):
        if depth >= 16:
            fail_err("msgpack/too-deep", "more than 16 nested containers")
        return [_canon(x, depth + 1) for x in v]
    if isinstance(v, dict):
        if depth >= 16:
            fail_err("msgpack/too-deep", "more than 16 nested containers")
        if any(not isinstance(k, str) for k in v):
            fail_err("msgpack/map-key", "a map key is not text")
        return {k: _canon(v[k], depth + 1) for k in sorted(v)}  # code-point order
    fail_err("msgpack/type", f"{type(v).__name__} has no encoding")


def pack(v: Any) -> bytes:
    """8.1: msgpack-python's packb(value, use_bin_type=True) with sorted map keys."""
    return msgpack.packb(_canon(v, 0), use_bin_type=True)


def unpack(data: Any, max_size: int) -> Any:
    """8.1 strict decoding, rules 1 to 6 in order."""
    if not isinstance(data, bytes):
        fail_err("msgpack/type")
    if len(data) > max_size:
        fail_err("msgpack/too-large", f"{len(data)} > {max_size} bytes")
    try:
        value = msgpack.unpackb(
            data, raw=False, use_list=True, strict_map_key=True, timestamp=0,
            max_str_len=max_size, max_bin_len=max_size, max_array_len=4096,
            max_map_len=4096, max_ext_len=0, ext_hook=_ext_hook)
    except _ExtMet:
        fail_err("msgpack/ext")
    except msgpack.ExtraData:
        fail_err("msgpack/trailing-bytes")
    except Exception as e:  # any parse failure: truncated, bad UTF-8, limits, stack
        fail_err("msgpack/malformed", f"{type(e).__name__}: {e}")
    if pack(value) != data:
        fail_err("msgpack/non-canonical")
    return value
