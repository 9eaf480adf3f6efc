"""Compiled programs kept between runs, in the user's cache directory.

Compiling the single-step check takes clvm_tools_rs seconds, and a large contract takes
Vyper longer; a command or a test process would pay that on every start. Each result is
kept under a digest of every source it was compiled from, so an edited source is never
read from a stale file, and written whole or not at all (a file renamed into place).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path


def cached_bytes(kind: str, key: str, build: Callable[[], bytes]) -> bytes:
    """The bytes kept under `kind`/`key`, else `build()`'s, kept for the next time. A
    cache that cannot be read or written only costs time."""
    import platformdirs

    path = Path(platformdirs.user_cache_dir("dealerless", appauthor=False)) / kind / key
    with suppress(OSError):
        return path.read_bytes()
    data = build()
    with suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}")
        temporary.write_bytes(data)
        temporary.replace(path)
    return data
