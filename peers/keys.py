"""Long-term identity keys, known players and the short authentication string.

Implements spec/12-peers.md section 12.2. Theory of operation: a player's identity
key (spec/08-wire.md 8.3) lives in `<home>/keys/id_ed25519` as an OpenSSH private
key, optionally encrypted with a passphrase, with its public line beside it in
`id_ed25519.pub`. The home is `--home`, else `$DEALERLESS_HOME`, else the platform's
user data directory. `<home>/known_players` holds `NAME ssh-ed25519 BASE64` lines,
so a player can check an opponent's key against the keys already known for that
person, as ssh checks known_hosts. Secrets never reach stdout, stderr or an error
message: errors name files and key types, never key material or passphrases.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed448, ed25519, rsa

from protocol.identity import Identity, fingerprint

KEY_TYPE = "ssh-ed25519"
KEY_FILE = "id_ed25519"
KNOWN_PLAYERS = "known_players"
DEFAULT_COMMENT = "dealerless"
ARMOR = (b"-----BEGIN OPENSSH PRIVATE KEY-----", b"-----END OPENSSH PRIVATE KEY-----")
_MAGIC = b"openssh-key-v1\0"
_NAME = re.compile(r"\w[\w.@+-]{0,63}")
_SSH_TYPES = {"ssh-rsa": "RSA", "ssh-dss": "DSA", "ecdsa-sha2-nistp256": "ECDSA",
              "ecdsa-sha2-nistp384": "ECDSA", "ecdsa-sha2-nistp521": "ECDSA",
              "sk-ssh-ed25519@openssh.com": "FIDO security-key Ed25519",
              "sk-ecdsa-sha2-nistp256@openssh.com": "FIDO security-key ECDSA"}
_PY_TYPES = ((rsa.RSAPrivateKey, "RSA (ssh-rsa)"), (ec.EllipticCurvePrivateKey, "ECDSA"),
             (dsa.DSAPrivateKey, "DSA (ssh-dss)"), (ed448.Ed448PrivateKey, "Ed448"))
Home: TypeAlias = "str | os.PathLike[str] | None"
"""A home argument: an explicit directory, or None for $DEALERLESS_HOME / the default."""
_BCRYPT_HINT = ("passphrase-protected OpenSSH keys need the bcrypt package "
                "(pip install 'cryptography[ssh]')")


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


def _ensure_dir(path: Path) -> Path:
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
    root = _ensure_dir(resolve_home(home))
    return _ensure_dir(root / "keys")


def games_dir(home: Home = None) -> Path:
    root = _ensure_dir(resolve_home(home))
    return _ensure_dir(root / "games")


def key_path(home: Home = None) -> Path:
    """Where the private key is (or would be); creates nothing."""
    return resolve_home(home) / "keys" / KEY_FILE


def _write_atomic(path: Path, data: bytes, mode: int) -> None:
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


# -- OpenSSH encodings -----------------------------------------------------------------

def _string(buf: bytes, pos: int) -> tuple[bytes, int]:
    """One SSH wire `string` (u32 big-endian length, then the bytes) at `pos`."""
    if pos + 4 > len(buf):
        raise ValueError("truncated")
    end = pos + 4 + int.from_bytes(buf[pos:pos + 4], "big")
    if end > len(buf):
        raise ValueError("truncated")
    return buf[pos + 4:end], end


def _check_key(public_key: bytes) -> None:
    if not isinstance(public_key, bytes) or len(public_key) != 32:
        raise KeyStoreError("an Ed25519 public key is exactly 32 bytes")


def format_public_line(public_key: bytes, comment: str = "") -> str:
    """`ssh-ed25519 BASE64 [comment]`, the OpenSSH public line (as in a .pub file)."""
    _check_key(public_key)
    name = KEY_TYPE.encode()
    blob = len(name).to_bytes(4, "big") + name + (32).to_bytes(4, "big") + public_key
    line = f"{KEY_TYPE} {base64.b64encode(blob).decode()}"
    return f"{line} {comment}" if comment else line


def parse_public_line(line: str) -> bytes:
    """The 32-byte key of an OpenSSH public line, checked strictly: the outer type is
    ssh-ed25519, the base64 is canonical, and the blob is exactly string(ssh-ed25519)
    || string(32-byte key). Anything after the base64 is a comment and is ignored."""
    fields = line.strip().split(maxsplit=2)
    if len(fields) < 2:
        raise KeyStoreError("not an OpenSSH public key line (want 'ssh-ed25519 AAAA...')")
    if fields[0] != KEY_TYPE:
        raise KeyStoreError(f"key type {fields[0][:40]!r} is not {KEY_TYPE}")
    try:
        blob = base64.b64decode(fields[1], validate=True)
        if base64.b64encode(blob).decode() != fields[1]:
            raise ValueError("non-canonical base64")
        name, pos = _string(blob, 0)
        key, pos = _string(blob, pos)
    except (binascii.Error, ValueError):
        raise KeyStoreError("the key's base64 blob is malformed") from None
    if name != KEY_TYPE.encode() or len(key) != 32 or pos != len(blob):
        raise KeyStoreError("the key's blob is not one ssh-ed25519 key")
    return key


def _comment_ok(comment: str) -> str:
    if len(comment) > 256 or any(not c.isprintable() for c in comment):
        raise KeyStoreError("a key comment is at most 256 printable characters on one line")
    return comment


@dataclass(frozen=True)
class _Header:
    """The unencrypted part of an openssh-key-v1 file: cipher and the one public key."""

    cipher: str
    key_type: str
    public_key: bytes | None


def read_header(data: bytes, source: str) -> _Header:
    begin, end = ARMOR
    text = data.strip()
    stop = text.find(end)
    bad = KeyStoreError(f"{source} is not a valid OpenSSH private key file")
    if not text.startswith(begin) or stop < 0:
        raise bad
    try:
        raw = base64.b64decode(b"".join(text[len(begin):stop].split()), validate=True)
        if not raw.startswith(_MAGIC):
            raise ValueError("magic")
        cipher, pos = _string(raw, len(_MAGIC))
        _kdf, pos = _string(raw, pos)
        _kdf_options, pos = _string(raw, pos)
        count = int.from_bytes(raw[pos:pos + 4], "big")
        if count != 1:
            raise ValueError("one key per file")
        blob, pos = _string(raw, pos + 4)
        key_type, at = _string(blob, 0)
        key = _string(blob, at)[0] if key_type == KEY_TYPE.encode() else None
    except (binascii.Error, ValueError):
        raise bad from None
    if key is not None and len(key) != 32:
        raise bad
    return _Header(cipher.decode("ascii", "replace"), key_type.decode("ascii", "replace"), key)


def _secret(passphrase: str | bytes | None) -> bytes | None:
    """A passphrase as bytes (str is UTF-8); empty means none, as with ssh-keygen -N ''."""
    if passphrase is None or passphrase in ("", b""):
        return None
    return passphrase.encode() if isinstance(passphrase, str) else bytes(passphrase)


def _decode_private(data: bytes, passphrase: str | bytes | None,
                    source: str) -> ed25519.Ed25519PrivateKey:
    """Decrypt and check an Ed25519 private key (OpenSSH format, or PKCS#8 PEM)."""
    password = _secret(passphrase)
    if data.lstrip().startswith(ARMOR[0]):
        header = read_header(data, source)
        if header.key_type != KEY_TYPE:
            kind = _SSH_TYPES.get(header.key_type, "unsupported")
            raise KeyStoreError(f"{source} holds a {kind} key ({header.key_type[:60]}); "
                                "dealerless identity keys are ssh-ed25519 "
                                "(ssh-keygen -t ed25519)")
        encrypted = header.cipher != "none"
        load: Any = ser.load_ssh_private_key
    elif data.lstrip().startswith(b"-----BEGIN "):
        encrypted = b"ENCRYPTED" in data.lstrip()[:64]
        load = ser.load_pem_private_key
    else:
        raise KeyStoreError(f"{source} is not a private key file (OpenSSH or PEM)")
    if encrypted and password is None:
        raise PassphraseError(f"{source} is protected by a passphrase and none was given")
    try:
        key = load(data, password if encrypted else None)
    except UnsupportedAlgorithm:
        raise KeyStoreError(_BCRYPT_HINT) from None
    except (ValueError, TypeError):
        if encrypted:
            raise PassphraseError(f"wrong passphrase for {source}") from None
        raise KeyStoreError(f"{source} is corrupt or not a supported private key") from None
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        kind = next((n for t, n in _PY_TYPES if isinstance(key, t)), type(key).__name__)
        raise KeyStoreError(f"{source} holds a {kind} key; dealerless identity keys are "
                            "ssh-ed25519 (ssh-keygen -t ed25519)")
    return key


# -- the identity key ------------------------------------------------------------------

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
    _comment_ok(comment)
    path = keys_dir(home) / KEY_FILE
    if not force and (path.exists() or path.is_symlink()):
        raise KeyExistsError(f"an identity key already exists at {path}; "
                             "replacing it (--force) loses the old identity")
    enc: ser.KeySerializationEncryption = ser.NoEncryption()
    password = _secret(passphrase)
    if password is not None:
        enc = ser.BestAvailableEncryption(password)
    try:
        data = key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, enc)
    except UnsupportedAlgorithm:
        raise KeyStoreError(_BCRYPT_HINT) from None
    public = key.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    try:
        _write_atomic(path, data, 0o600)
        _write_atomic(path.with_name(KEY_FILE + ".pub"),
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
    key = _decode_private(data, passphrase, str(source))
    public = key.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    comment = DEFAULT_COMMENT
    with contextlib.suppress(OSError, UnicodeDecodeError, KeyStoreError):
        line = Path(f"{source}.pub").read_text().strip()
        if parse_public_line(line) == public:
            parts = line.split(maxsplit=2)
            comment = _comment_ok(parts[2]) if len(parts) == 3 else ""
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
    key = _decode_private(_read_private(path), passphrase, str(path))
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


# -- known players ---------------------------------------------------------------------

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
        _check_key(key)
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
    _ensure_dir(path.parent)
    try:
        _write_atomic(path, text.encode("utf-8"), 0o600)
    except OSError as exc:
        raise KeyStoreError(f"cannot write {path}: {exc.strerror}") from None
    return True


def known_names(home: Home, public_key: bytes) -> list[str]:
    """Names whose stored key equals `public_key`, in file order, without repeats."""
    _check_key(public_key)
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
