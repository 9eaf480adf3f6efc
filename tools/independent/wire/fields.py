"""The typed field accessors of spec/08-wire.md 8.1 (schema/* codes), for decoded values."""

from __future__ import annotations

from typing import Any

from independent.errors import fail_err

MAX_LIST = 4096             # 8.1 list(m) default


def f_array(v: Any, n: int, what: str) -> list[Any]:
    if not isinstance(v, list) or len(v) != n:
        fail_err("schema/array", f"{what}: expected an array of {n}")
    return v


def f_list(v: Any, what: str, m: int = MAX_LIST) -> list[Any]:
    if not isinstance(v, list) or len(v) > m:
        fail_err("schema/array", f"{what}: expected an array of at most {m}")
    return v


def f_bytes(v: Any, what: str, n: int | None = None, at_most: int | None = None) -> bytes:
    if not isinstance(v, bytes) or (n is not None and len(v) != n) or (
            at_most is not None and len(v) > at_most):
        fail_err("schema/bytes", f"{what}: expected bytes" + (f"({n})" if n is not None else
                                                          f" of at most {at_most}"))
    return v


def f_int(v: Any, what: str, lo: int = 0, hi: int = 2**64 - 1) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        fail_err("schema/int", f"{what}: expected an integer in [{lo}, {hi}]")
    return v


def f_text(v: Any, what: str, m: int = 64) -> str:
    if not isinstance(v, str) or len(v) > m:
        fail_err("schema/str", f"{what}: expected text of at most {m} code points")
    return v
