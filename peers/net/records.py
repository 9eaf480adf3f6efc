"""The handshake records a seat keeps in its home until its game's database exists
(spec/12-peers.md 12.3, "Restarting a seat"): `<home>/joining/` for a joiner,
`<home>/hosting/` for a host. Each holds a nonce that must stay unknown until the seats
are fixed, so it is written 0600, whole or not at all, and the temporary files of a
write cut short are removed before the record is read again.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from peers.keys.home import ensure_dir, write_atomic


class RecordError(ValueError):
    """A handshake record cannot be read or does not decode; str() names the file. Like
    any invalid input, it stops the command (exit 1) and is left for the user to remove."""


def read_record(path: Path) -> bytes | None:
    """The record's bytes, or None if there is none; RecordError if it cannot be read."""
    drop_leftovers(path)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None


def write_record(path: Path, data: bytes) -> None:
    """Write the record down, before what it commits to leaves."""
    ensure_dir(path.parent)
    write_atomic(path, data, 0o600)


def remove_record(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    drop_leftovers(path)


def drop_leftovers(path: Path) -> None:
    """Remove the temporary files of writes of `path` cut short (write_atomic names them
    `.<name>.<random>.tmp`): a crash may leave one, holding a nonce."""
    if path.parent.is_dir():
        for tmp in path.parent.glob(f".{path.name}.*.tmp"):
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
