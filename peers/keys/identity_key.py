"""The player's identity key: make, import, load and show it (spec/12-peers.md 12.2).

It lives in `<home>/keys/id_ed25519` as an OpenSSH private key (0600), optionally
encrypted with a passphrase, with its public line beside it in `id_ed25519.pub`.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ed25519

from peers.keys.home import (
    KEY_FILE,
    Home,
    KeyExistsError,
    KeyStoreError,
    NoKeyError,
    key_path,
    keys_dir,
    write_atomic,
)
from peers.keys.openssh import (
    BCRYPT_HINT,
    check_comment,
    decode_private,
    format_public_line,
    parse_public_line,
    passphrase_bytes,
    read_header,
)
from protocol.identity import Identity, fingerprint

DEFAULT_COMMENT = "dealerless"


@dataclass(frozen=True)
class KeySummary:
    """What `key show` prints: nothing in it is secret."""

    path: Path
    public_path: Path
    public_line: str
    fingerprint: str
    encrypted: bool
    public_key: bytes = field(repr=False)

    def to_json(self) -> dict[str, object]:
        return {"path": str(self.path), "public_path": str(self.public_path),
                "public_line": self.public_line, "fingerprint": self.fingerprint,
                "encrypted": self.encrypted, "public_key": self.public_key.hex()}

    def describe(self) -> str:
        return (f"fingerprint  {self.fingerprint}\npublic key   {self.public_line}\n"
                f"file         {self.path}\nencrypted    {'yes' if self.encrypted else 'no'}")


def _read_private(path: Path) -> bytes:
    try:
        with open(path, "rb") as f:
            mode = os.fstat(f.fileno()).st_mode
            data = f.read()
    except FileNotFoundError:
        raise NoKeyError(f"no identity key at {path}; run `dealerless keygen` "
                         "or `dealerless key import`") from None
    except OSError as exc:
        raise KeyStoreError(f"cannot read {path}: {exc.strerror}") from None
    if os.name == "posix" and mode & 0o077:
        raise KeyStoreError(f"permissions {mode & 0o777:04o} on {path} are too open: "
                            f"the key must be private to you (chmod 600 {path})")
    return data


def _store(home: Home, key: ed25519.Ed25519PrivateKey,
           passphrase: str | bytes | None, comment: str, force: bool) -> KeySummary:
    check_comment(comment)
    path = keys_dir(home) / KEY_FILE
    if not force and (path.exists() or path.is_symlink()):
        raise KeyExistsError(f"an identity key already exists at {path}; "
                             "replacing it (--force) loses the old identity")
    enc: ser.KeySerializationEncryption = ser.NoEncryption()
    password = passphrase_bytes(passphrase)
    if password is not None:
        enc = ser.BestAvailableEncryption(password)
    try:
        data = key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, enc)
    except UnsupportedAlgorithm:
        raise KeyStoreError(BCRYPT_HINT) from None
    public = key.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    try:
        write_atomic(path, data, 0o600)
        write_atomic(path.with_name(KEY_FILE + ".pub"),
                      (format_public_line(public, comment) + "\n").encode(), 0o644)
    except OSError as exc:
        raise KeyStoreError(f"cannot write {path}: {exc.strerror}") from None
    return show(home)


def generate(home: Home = None, passphrase: str | bytes | None = None,
             comment: str = DEFAULT_COMMENT, force: bool = False) -> KeySummary:
    """Make a fresh Ed25519 identity key from the OS CSPRNG and store it (0600, atomic).

    An empty or None passphrase stores the key unencrypted. Raises KeyExistsError if a
    key is already there, unless `force`."""
    return _store(home, ed25519.Ed25519PrivateKey.generate(), passphrase, comment, force)


def import_key(home: Home, path: str | os.PathLike[str],
               passphrase: str | bytes | None = None, force: bool = False) -> KeySummary:
    """Adopt an existing ssh-ed25519 private key file (OpenSSH format, or PKCS#8 PEM).

    `passphrase` decrypts the source, and the stored copy is encrypted with the same
    passphrase (unencrypted if the source was). The comment comes from `<path>.pub`
    when that file holds the same key. Other key types are refused, naming the type."""
    if not force and key_path(home).exists():
        raise KeyExistsError(f"an identity key already exists at {key_path(home)}; "
                             "replacing it (--force) loses the old identity")
    source = Path(path)
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise KeyStoreError(f"cannot read {source}: {exc.strerror}") from None
    key = decode_private(data, passphrase, str(source))
    public = key.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    comment = DEFAULT_COMMENT
    with contextlib.suppress(OSError, UnicodeDecodeError, KeyStoreError):
        line = Path(f"{source}.pub").read_text().strip()
        if parse_public_line(line) == public:
            parts = line.split(maxsplit=2)
            comment = check_comment(parts[2]) if len(parts) == 3 else ""
    return _store(home, key, passphrase, comment, force)


def is_encrypted(home: Home = None) -> bool:
    """Whether the stored key needs a passphrase (read from the unencrypted header)."""
    path = key_path(home)
    return read_header(_read_private(path), str(path)).cipher != "none"


def load_identity(home: Home = None,
                  passphrase: str | bytes | None = None) -> Identity:
    """The stored key as a protocol Identity (its 32-byte Ed25519 seed).

    A passphrase given for an unencrypted key is ignored. Raises NoKeyError,
    PassphraseError (missing or wrong), or KeyStoreError (bad mode, corrupt file)."""
    path = key_path(home)
    key = decode_private(_read_private(path), passphrase, str(path))
    return Identity(key.private_bytes(ser.Encoding.Raw, ser.PrivateFormat.Raw,
                                      ser.NoEncryption()))


def public_line(home: Home = None) -> str:
    """The .pub line; its key must equal the one in the private key's clear header."""
    path = key_path(home)
    header = read_header(_read_private(path), str(path))
    if header.public_key is None:
        raise KeyStoreError(f"{path} is not an ssh-ed25519 key")
    pub = path.with_name(KEY_FILE + ".pub")
    try:
        line = pub.read_text().strip()
    except FileNotFoundError:
        return format_public_line(header.public_key)
    except (OSError, UnicodeDecodeError):
        raise KeyStoreError(f"cannot read {pub}") from None
    if parse_public_line(line) != header.public_key:
        raise KeyStoreError(f"{pub} does not match {path}; delete it or restore the pair")
    return line


def show(home: Home = None) -> KeySummary:
    """Fingerprint, public line and paths of the stored key; needs no passphrase."""
    path = key_path(home)
    line = public_line(home)
    key = parse_public_line(line)
    return KeySummary(path, path.with_name(KEY_FILE + ".pub"), line, fingerprint(key),
                      is_encrypted(home), key)

