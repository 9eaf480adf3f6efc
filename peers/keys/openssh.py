"""OpenSSH key encodings: public lines and openssh-key-v1 private key files.

The identity key (spec/08-wire.md 8.3, spec/12-peers.md 12.2) is stored as a
standard OpenSSH Ed25519 key, so `ssh-keygen` can make one and `dealerless key
import` can adopt it. Only the clear header is parsed here; decryption is
cryptography's. Errors name files and key types, never key material.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed448, ed25519, rsa

from peers.keys.home import KeyStoreError, PassphraseError

KEY_TYPE = "ssh-ed25519"
ARMOR = (b"-----BEGIN OPENSSH PRIVATE KEY-----", b"-----END OPENSSH PRIVATE KEY-----")
_MAGIC = b"openssh-key-v1\0"
_SSH_TYPES = {"ssh-rsa": "RSA", "ssh-dss": "DSA", "ecdsa-sha2-nistp256": "ECDSA",
              "ecdsa-sha2-nistp384": "ECDSA", "ecdsa-sha2-nistp521": "ECDSA",
              "sk-ssh-ed25519@openssh.com": "FIDO security-key Ed25519",
              "sk-ecdsa-sha2-nistp256@openssh.com": "FIDO security-key ECDSA"}
_PY_TYPES = ((rsa.RSAPrivateKey, "RSA (ssh-rsa)"), (ec.EllipticCurvePrivateKey, "ECDSA"),
             (dsa.DSAPrivateKey, "DSA (ssh-dss)"), (ed448.Ed448PrivateKey, "Ed448"))
BCRYPT_HINT = ("passphrase-protected OpenSSH keys need the bcrypt package "
                "(pip install 'cryptography[ssh]')")



def _string(buf: bytes, pos: int) -> tuple[bytes, int]:
    """One SSH wire `string` (u32 big-endian length, then the bytes) at `pos`."""
    if pos + 4 > len(buf):
        raise ValueError("truncated")
    end = pos + 4 + int.from_bytes(buf[pos:pos + 4], "big")
    if end > len(buf):
        raise ValueError("truncated")
    return buf[pos + 4:end], end


def check_key(public_key: bytes) -> None:
    if not isinstance(public_key, bytes) or len(public_key) != 32:
        raise KeyStoreError("an Ed25519 public key is exactly 32 bytes")


def format_public_line(public_key: bytes, comment: str = "") -> str:
    """`ssh-ed25519 BASE64 [comment]`, the OpenSSH public line (as in a .pub file)."""
    check_key(public_key)
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


def check_comment(comment: str) -> str:
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


def passphrase_bytes(passphrase: str | bytes | None) -> bytes | None:
    """A passphrase as bytes (str is UTF-8); empty means none, as with ssh-keygen -N ''."""
    if passphrase is None or passphrase in ("", b""):
        return None
    return passphrase.encode() if isinstance(passphrase, str) else bytes(passphrase)


def decode_private(data: bytes, passphrase: str | bytes | None,
                    source: str) -> ed25519.Ed25519PrivateKey:
    """Decrypt and check an Ed25519 private key (OpenSSH format, or PKCS#8 PEM)."""
    password = passphrase_bytes(passphrase)
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
        raise KeyStoreError(BCRYPT_HINT) from None
    except (ValueError, TypeError):
        if encrypted:
            raise PassphraseError(f"wrong passphrase for {source}") from None
        raise KeyStoreError(f"{source} is corrupt or not a supported private key") from None
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        kind = next((n for t, n in _PY_TYPES if isinstance(key, t)), type(key).__name__)
        raise KeyStoreError(f"{source} holds a {kind} key; dealerless identity keys are "
                            "ssh-ed25519 (ssh-keygen -t ed25519)")
    return key

