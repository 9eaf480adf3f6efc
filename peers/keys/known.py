"""Known players: `NAME ssh-ed25519 BASE64` lines in `<home>/known_players`.

A player checks an opponent's key against the keys already known for that person,
as ssh checks known_hosts (spec/12-peers.md 12.2).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from peers.keys.home import Home, KeyStoreError, ensure_dir, resolve_home, write_atomic
from peers.keys.openssh import check_key, format_public_line, parse_public_line
from protocol.identity import fingerprint

KNOWN_PLAYERS = "known_players"
_NAME = re.compile(r"\w[\w.@+-]{0,63}")


@dataclass(frozen=True)
class KnownPlayer:
    name: str
    public_key: bytes = field(repr=False)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    @property
    def line(self) -> str:
        return f"{self.name} {format_public_line(self.public_key)}"


def check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise KeyStoreError(f"bad player name {name!r}: 1-64 letters, digits or ._@+- "
                            "(no spaces), starting with a letter or digit")
    return name


def known_file(home: Home) -> Path:
    return resolve_home(home) / KNOWN_PLAYERS


def _read_known(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError):
        raise KeyStoreError(f"cannot read {path}") from None


def known_players(home: Home = None) -> list[KnownPlayer]:
    """Every entry of `<home>/known_players`, in file order. A malformed line is an
    error (naming the line), never skipped: a garbled file must not hide a mismatch."""
    path = known_file(home)
    players = []
    for number, raw in enumerate(_read_known(path).splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        name, _, rest = text.partition(" ")
        try:
            players.append(KnownPlayer(check_name(name), parse_public_line(rest)))
        except KeyStoreError as exc:
            raise KeyStoreError(f"{path} line {number}: {exc}") from None
    return players


def key_from(key: str | os.PathLike[str] | bytes) -> bytes:
    if isinstance(key, bytes):
        check_key(key)
        return key
    text = os.fspath(key)
    if text.startswith("ssh-"):   # a public line, not a path (which could be too long)
        return parse_public_line(text)
    if Path(text).is_file():
        try:
            lines = [s for s in Path(text).read_text().splitlines()
                     if s.strip() and not s.startswith("#")]
        except (OSError, UnicodeDecodeError):
            raise KeyStoreError(f"cannot read {text}") from None
        if len(lines) != 1:
            raise KeyStoreError(f"{text} should hold exactly one public key line")
        text = lines[0]
    return parse_public_line(text)


def trust(home: Home, name: str,
          key: str | os.PathLike[str] | bytes) -> bool:
    """Record `key` (a public line, a .pub path, or 32 raw bytes) as a key of `name`.

    A person may have several keys; returns False if this pair was already known."""
    check_name(name)
    public = key_from(key)
    if any(p.name == name and p.public_key == public for p in known_players(home)):
        return False
    path = known_file(home)
    text = _read_known(path)
    if text and not text.endswith("\n"):
        text += "\n"
    text += KnownPlayer(name, public).line + "\n"
    ensure_dir(path.parent)
    try:
        write_atomic(path, text.encode("utf-8"), 0o600)
    except OSError as exc:
        raise KeyStoreError(f"cannot write {path}: {exc.strerror}") from None
    return True


def known_names(home: Home, public_key: bytes) -> list[str]:
    """Names whose stored key equals `public_key`, in file order, without repeats."""
    check_key(public_key)
    names = [p.name for p in known_players(home) if p.public_key == public_key]
    return list(dict.fromkeys(names))


def check_opponent(home: Home, public_key: bytes,
                   expected: str | None = None) -> str:
    """A sentence for the player: "known as alice", "NOT the key you know for alice
    (...)" when `expected` has known keys and this is none of them, or
    "unknown key SHA256:...". Only a sentence starting "known as" is reassuring."""
    names = known_names(home, public_key)
    if expected is not None:
        check_name(expected)
        if expected in names:
            return f"known as {expected}"
        if any(p.name == expected for p in known_players(home)):
            also = f"; it is known as {', '.join(names)}" if names else ""
            return (f"NOT the key you know for {expected} "
                    f"(this key is {fingerprint(public_key)}{also})")
    if names:
        return "known as " + ", ".join(names)
    return f"unknown key {fingerprint(public_key)}"
