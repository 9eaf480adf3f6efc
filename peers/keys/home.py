"""The data directory: where keys and games live, and how files in it are written.

The home is `--home`, else `$DEALERLESS_HOME`, else the platform's user data
directory (spec/12-peers.md 12.2). Secrets never reach stdout, stderr or an error
message: errors name files and key types, never key material or passphrases.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import TypeAlias

KEY_FILE = "id_ed25519"
Home: TypeAlias = "str | os.PathLike[str] | None"
"""A home argument: an explicit directory, or None for $DEALERLESS_HOME / the default."""


class KeyStoreError(Exception):
    """A key or the known-players file cannot be read, written or trusted. str() says why."""


class NoKeyError(KeyStoreError):
    """There is no identity key in this home yet."""


class KeyExistsError(KeyStoreError):
    """An identity key already exists and `force` was not given."""


class PassphraseError(KeyStoreError):
    """The key is encrypted and the passphrase is missing or wrong."""


# -- paths -----------------------------------------------------------------------------

def resolve_home(home: Home = None) -> Path:
    """`home` if given, else $DEALERLESS_HOME, else platformdirs' user data dir. Creates nothing."""
    if home is not None and os.fspath(home) != "":
        return Path(home).expanduser()
    env = os.environ.get("DEALERLESS_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("dealerless", appauthor=False))


def ensure_dir(path: Path) -> Path:
    """Create `path` (mode 0700, whatever the umask) if missing; existing dirs keep their mode."""
    try:
        if not path.is_dir():
            try:
                path.mkdir(mode=0o700, parents=True)
            except FileExistsError:
                pass
            else:
                os.chmod(path, 0o700)
    except OSError as exc:
        raise KeyStoreError(f"cannot create {path}: {exc.strerror}") from None
    if not path.is_dir():
        raise KeyStoreError(f"{path} exists and is not a directory")
    return path


def keys_dir(home: Home = None) -> Path:
    root = ensure_dir(resolve_home(home))
    return ensure_dir(root / "keys")


def games_dir(home: Home = None) -> Path:
    root = ensure_dir(resolve_home(home))
    return ensure_dir(root / "games")


def key_path(home: Home = None) -> Path:
    """Where the private key is (or would be); creates nothing."""
    return resolve_home(home) / "keys" / KEY_FILE


def write_atomic(path: Path, data: bytes, mode: int) -> None:
    """Write via a temp file in the same dir: mkstemp opens it O_EXCL with 0600, so the
    bytes are never readable by others, and os.replace makes the new file appear whole."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode != 0o600:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if os.name == "posix":
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
