"""Identity key store, known players and the SAS (spec/12-peers.md section 12.2)."""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from peers import keys
from peers.cli.parser import build_parser
from protocol.errors import LocalError
from protocol.hashing import H
from protocol.identity import fingerprint, short_auth_string, verify_signature
from protocol.tags import Tag

HAS_BCRYPT = importlib.util.find_spec("bcrypt") is not None
needs_bcrypt = pytest.mark.skipif(not HAS_BCRYPT, reason="encrypted OpenSSH keys need bcrypt")
SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen not on PATH")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home, reached through $DEALERLESS_HOME (so home=None finds it)."""
    h = tmp_path / "home"
    monkeypatch.setenv("DEALERLESS_HOME", str(h))
    return h


def ssh_keygen(path: Path, key_type: str = "ed25519", passphrase: str = "") -> Path:
    assert SSH_KEYGEN is not None
    subprocess.run([SSH_KEYGEN, "-t", key_type, "-N", passphrase, "-C", "carol@example",
                    "-f", str(path), "-q"], check=True, capture_output=True)
    return path


def ssh_fingerprint(path: Path) -> str:
    assert SSH_KEYGEN is not None
    out = subprocess.run([SSH_KEYGEN, "-lf", str(path)], check=True, capture_output=True,
                         text=True).stdout
    return out.split()[1]


def write_foreign(path: Path, key: object, fmt: ser.PrivateFormat) -> Path:
    path.write_bytes(key.private_bytes(ser.Encoding.PEM, fmt, ser.NoEncryption()))  # type: ignore[attr-defined]
    return path


# -- home and files --------------------------------------------------------------------

def test_home_resolution_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEALERLESS_HOME", str(tmp_path / "env"))
    assert keys.resolve_home(tmp_path / "arg") == tmp_path / "arg"
    assert keys.resolve_home() == tmp_path / "env"
    monkeypatch.delenv("DEALERLESS_HOME")
    import platformdirs

    assert keys.resolve_home() == Path(platformdirs.user_data_dir("dealerless",
                                                                  appauthor=False))


def test_generate_load_round_trip_signs(home: Path) -> None:
    summary = keys.generate()
    identity = keys.load_identity()
    assert identity.public_key == summary.public_key
    assert summary.fingerprint == fingerprint(identity.public_key)
    assert summary.path == home / "keys" / "id_ed25519"
    assert summary.public_line == keys.public_line()
    assert keys.parse_public_line(summary.public_line) == identity.public_key
    assert summary.public_line.endswith(" " + keys.DEFAULT_COMMENT)
    verify_signature(identity.public_key, b"frame", identity.sign(b"frame"))
    assert summary.path.read_bytes().startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----")
    assert not summary.encrypted


def test_modes_private_0600_dirs_0700(home: Path) -> None:
    old = os.umask(0)  # the most permissive umask must not leak into the key's mode
    try:
        keys.generate()
        games = keys.games_dir()
    finally:
        os.umask(old)
    assert mode(home / "keys" / "id_ed25519") == 0o600
    assert mode(home) == mode(home / "keys") == mode(games) == 0o700
    assert games == home / "games"
    assert not [p for p in (home / "keys").iterdir() if p.name.endswith(".tmp")]


def test_explicit_home_beats_env(home: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    keys.generate(other)
    assert (other / "keys" / "id_ed25519").exists()
    assert not home.exists()


def test_refuses_to_overwrite_without_force(home: Path) -> None:
    first = keys.generate()
    with pytest.raises(keys.KeyExistsError, match="already exists"):
        keys.generate()
    assert keys.load_identity().public_key == first.public_key
    second = keys.generate(force=True)
    assert second.public_key != first.public_key
    assert keys.load_identity().public_key == second.public_key


def test_missing_key_is_a_clear_error(home: Path) -> None:
    with pytest.raises(keys.NoKeyError, match="keygen"):
        keys.load_identity()
    with pytest.raises(keys.NoKeyError):
        keys.show()


def test_too_open_key_file_is_refused(home: Path) -> None:
    path = keys.generate().path
    os.chmod(path, 0o644)
    with pytest.raises(keys.KeyStoreError, match="too open"):
        keys.load_identity()


def test_pub_file_that_disagrees_is_an_error(home: Path, tmp_path: Path) -> None:
    keys.generate()
    stranger = keys.generate(tmp_path / "stranger")
    (home / "keys" / "id_ed25519.pub").write_text(stranger.public_line + "\n")
    with pytest.raises(keys.KeyStoreError, match="does not match"):
        keys.public_line()


# -- passphrases -----------------------------------------------------------------------

@needs_bcrypt
def test_passphrase_key_loads_only_with_its_passphrase(home: Path) -> None:
    summary = keys.generate(passphrase="correct horse")
    assert summary.encrypted and keys.is_encrypted()
    with pytest.raises(keys.PassphraseError, match="passphrase"):
        keys.load_identity()
    with pytest.raises(keys.PassphraseError, match="wrong passphrase") as info:
        keys.load_identity(passphrase="battery staple")
    assert "battery" not in str(info.value)
    assert keys.load_identity(passphrase="correct horse").public_key == summary.public_key
    assert keys.show().public_line == summary.public_line  # show needs no passphrase


@pytest.mark.skipif(HAS_BCRYPT, reason="only without bcrypt")
def test_without_bcrypt_encryption_is_a_clear_error(home: Path) -> None:
    with pytest.raises(keys.KeyStoreError, match="bcrypt"):
        keys.generate(passphrase="pw")
    assert not (home / "keys" / "id_ed25519").exists()


def test_passphrase_for_unencrypted_key_is_ignored(home: Path) -> None:
    summary = keys.generate(passphrase="")
    assert not summary.encrypted
    assert keys.load_identity(passphrase="anything").public_key == summary.public_key


# -- import ----------------------------------------------------------------------------

@needs_ssh_keygen
def test_import_ssh_keygen_key_keeps_fingerprint(home: Path, tmp_path: Path) -> None:
    source = ssh_keygen(tmp_path / "id_ed25519")
    summary = keys.import_key(None, source)
    assert summary.fingerprint == ssh_fingerprint(source)
    assert summary.public_line == (tmp_path / "id_ed25519.pub").read_text().strip()
    assert mode(summary.path) == 0o600
    identity = keys.load_identity()
    assert fingerprint(identity.public_key) == summary.fingerprint
    verify_signature(identity.public_key, b"m", identity.sign(b"m"))


@needs_ssh_keygen
def test_ssh_keygen_reads_our_files(home: Path) -> None:
    summary = keys.generate(comment="dave@example")
    assert ssh_fingerprint(summary.public_path) == summary.fingerprint
    assert ssh_fingerprint(summary.path) == summary.fingerprint
    derived = subprocess.run([str(SSH_KEYGEN), "-y", "-f", str(summary.path)], check=True,
                             capture_output=True, text=True).stdout.split()[:2]
    assert " ".join(derived) == keys.format_public_line(summary.public_key)


@needs_ssh_keygen
@needs_bcrypt
def test_import_encrypted_ssh_keygen_key(home: Path, tmp_path: Path) -> None:
    source = ssh_keygen(tmp_path / "id_ed25519", passphrase="s3cret")
    with pytest.raises(keys.PassphraseError, match="wrong passphrase"):
        keys.import_key(None, source, passphrase="nope")
    assert not (home / "keys" / "id_ed25519").exists()
    summary = keys.import_key(None, source, passphrase="s3cret")
    assert summary.encrypted and summary.fingerprint == ssh_fingerprint(source)
    assert keys.load_identity(passphrase="s3cret").public_key == summary.public_key


@pytest.mark.parametrize("make, fmt, kind", [
    (lambda: rsa.generate_private_key(public_exponent=65537, key_size=1024),
     ser.PrivateFormat.OpenSSH, "RSA"),
    (lambda: rsa.generate_private_key(public_exponent=65537, key_size=1024),
     ser.PrivateFormat.PKCS8, "RSA"),
    (lambda: ec.generate_private_key(ec.SECP256R1()), ser.PrivateFormat.OpenSSH, "ECDSA"),
])
def test_import_other_key_types_refused(home: Path, tmp_path: Path, make: object,
                                        fmt: ser.PrivateFormat, kind: str) -> None:
    source = write_foreign(tmp_path / "foreign", make(), fmt)  # type: ignore[operator]
    with pytest.raises(keys.KeyStoreError, match=kind) as info:
        keys.import_key(None, source)
    assert "ssh-ed25519" in str(info.value)
    assert not (home / "keys" / "id_ed25519").exists()


def test_import_pkcs8_ed25519_and_refuse_overwrite(home: Path, tmp_path: Path) -> None:
    key = ed25519.Ed25519PrivateKey.generate()
    source = write_foreign(tmp_path / "k.pem", key, ser.PrivateFormat.PKCS8)
    raw = key.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    assert keys.import_key(None, source).public_key == raw
    with pytest.raises(keys.KeyExistsError):
        keys.import_key(None, source)
    assert keys.import_key(None, source, force=True).public_key == raw


def test_import_garbage_refused(home: Path, tmp_path: Path) -> None:
    (tmp_path / "junk").write_bytes(b"not a key")
    with pytest.raises(keys.KeyStoreError, match="not a private key"):
        keys.import_key(None, tmp_path / "junk")


# -- public lines ----------------------------------------------------------------------

def _blob(name: bytes, key: bytes, extra: bytes = b"") -> str:
    data = len(name).to_bytes(4, "big") + name + len(key).to_bytes(4, "big") + key + extra
    return base64.b64encode(data).decode()


@pytest.mark.parametrize("line", [
    "",
    "ssh-ed25519",
    "ssh-rsa " + _blob(b"ssh-rsa", bytes(32)),
    "ssh-ed25519 " + _blob(b"ssh-rsa", bytes(32)),
    "ssh-ed25519 " + _blob(b"ssh-ed25519", bytes(31)),
    "ssh-ed25519 " + _blob(b"ssh-ed25519", bytes(32), b"\0"),
    "ssh-ed25519 " + _blob(b"ssh-ed25519", bytes(32)) + "==",
    "ssh-ed25519 " + _blob(b"ssh-ed25519", bytes(32))[:-1] + "=",
    "ssh-ed25519 " + _blob(b"ssh-ed25519", bytes(32))[:-3] + "!==",
])
def test_public_line_parsing_is_strict(line: str) -> None:
    with pytest.raises(keys.KeyStoreError):
        keys.parse_public_line(line)


def test_public_line_round_trip() -> None:
    key = bytes(range(32))
    line = keys.format_public_line(key, "eve@example")
    assert line.startswith("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI")
    assert keys.parse_public_line(line) == key


# -- known players ---------------------------------------------------------------------

def test_trust_known_and_check_opponent(home: Path, tmp_path: Path) -> None:
    alice = keys.generate(tmp_path / "alice", comment="alice@laptop")
    bob = keys.generate(tmp_path / "bob")
    mallory = keys.generate(tmp_path / "mallory")
    assert keys.check_opponent(None, alice.public_key) == f"unknown key {alice.fingerprint}"

    assert keys.trust(None, "alice", alice.public_line) is True
    assert keys.trust(None, "alice", alice.public_line) is False
    assert keys.trust(None, "bob", bob.public_path) is True
    assert keys.known_names(None, alice.public_key) == ["alice"]
    assert keys.known_names(None, mallory.public_key) == []

    assert keys.check_opponent(None, alice.public_key) == "known as alice"
    assert keys.check_opponent(None, alice.public_key, "alice") == "known as alice"
    assert keys.check_opponent(None, mallory.public_key, "alice").startswith(
        "NOT the key you know for alice")
    assert "known as bob" in keys.check_opponent(None, bob.public_key, "alice")
    assert keys.check_opponent(None, mallory.public_key) == (
        f"unknown key {mallory.fingerprint}")
    assert keys.check_opponent(None, mallory.public_key, "zoe") == (
        f"unknown key {mallory.fingerprint}")

    text = (home / "known_players").read_text()
    assert text.splitlines() == [f"alice {keys.format_public_line(alice.public_key)}",
                                 f"bob {keys.format_public_line(bob.public_key)}"]
    assert "alice@laptop" not in text  # comments chosen by others are not kept


def test_a_person_may_have_two_keys(home: Path) -> None:
    one, two = bytes(32), bytes([1]) * 32
    keys.trust(None, "alice", one)
    keys.trust(None, "alice", two)
    keys.trust(None, "alicia", two)
    assert keys.known_names(None, two) == ["alice", "alicia"]
    assert keys.check_opponent(None, one, "alice") == "known as alice"
    assert keys.check_opponent(None, two) == "known as alice, alicia"


def test_trust_rejects_bad_names_and_keys(home: Path) -> None:
    for name in ["", "two words", "#hash", "a" * 65, "tab\there"]:
        with pytest.raises(keys.KeyStoreError, match="name"):
            keys.trust(None, name, bytes(32))
    with pytest.raises(keys.KeyStoreError):
        keys.trust(None, "alice", "ssh-rsa AAAAB3NzaC1yc2E")
    with pytest.raises(keys.KeyStoreError):
        keys.trust(None, "alice", bytes(31))
    assert not (home / "known_players").exists()


def test_malformed_known_players_line_is_named(home: Path) -> None:
    home.mkdir()
    good = keys.format_public_line(bytes(32))
    (home / "known_players").write_text(f"# friends\n\nalice {good}\nbob ssh-ed25519 AAAA\n")
    with pytest.raises(keys.KeyStoreError, match="line 4"):
        keys.known_names(None, bytes(32))


# -- short authentication string -------------------------------------------------------

def test_sas_format_determinism_and_derivation() -> None:
    game = bytes(32)
    sas = short_auth_string(game)
    assert re.fullmatch(r"\d{4}-\d{4}-\d{4}", sas)
    assert sas == short_auth_string(bytes(32))
    assert short_auth_string(b"\x01" + bytes(31)) != sas
    # spec/12-peers.md 12.2: first 8 bytes of H(SAS, game id), big-endian, mod 10^12.
    n = int.from_bytes(H(Tag.SAS, game)[:8], "big") % 10**12
    assert sas.replace("-", "") == f"{n:012d}"
    with pytest.raises(LocalError):
        short_auth_string(b"")


def test_sas_values_spread() -> None:
    values = {short_auth_string(i.to_bytes(32, "big")) for i in range(200)}
    assert len(values) == 200


# -- command line ----------------------------------------------------------------------

def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    args = build_parser().parse_args(argv)
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


def secrets_of(path: Path) -> list[str]:
    lines = path.read_text().splitlines()
    return ["PRIVATE KEY", *[line for line in lines[1:-1] if len(line) > 20]]


def test_cli_keygen_without_a_terminal_writes_no_unencrypted_key_unasked(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEALERLESS_PASSPHRASE", raising=False)
    code, out, err = run(["keygen"], capsys)   # pytest's stdin is no terminal
    assert code == 2 and out == ""
    assert "no terminal" in err and "DEALERLESS_PASSPHRASE" in err and "--no-passphrase" in err
    assert not (home / "keys" / "id_ed25519").exists()
    monkeypatch.setenv("DEALERLESS_PASSPHRASE", "from the environment")
    code, out, err = run(["keygen"], capsys)
    assert code == 0 and "encrypted    yes" in out
    assert keys.is_encrypted(home)


def test_cli_keygen_show_known_trust(home: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["keygen", "--no-passphrase"], capsys)
    assert code == 0 and "SHA256:" in out and err == ""
    summary = keys.show()
    code, out, err = run(["keygen", "--no-passphrase"], capsys)
    assert code == 1 and err.startswith("dealerless: ") and "already exists" in err
    assert run(["keygen", "--force", "--no-passphrase"], capsys)[0] == 0
    assert keys.show().public_key != summary.public_key

    code, out, _ = run(["key", "show", "--json"], capsys)
    shown = json.loads(out)
    assert code == 0 and shown["fingerprint"] == keys.show().fingerprint
    assert shown["path"] == str(home / "keys" / "id_ed25519")

    other = keys.generate(tmp_path / "alice")
    code, out, _ = run(["key", "trust", "alice", str(other.public_path)], capsys)
    assert code == 0 and out.startswith("trusted: alice SHA256:")
    code, out, _ = run(["key", "trust", "alice", other.public_line], capsys)
    assert code == 0 and out.startswith("already trusted")
    code, out, _ = run(["key", "known"], capsys)
    assert code == 0 and out.split()[:2] == ["alice", other.fingerprint]
    code, _, err = run(["key", "trust", "alice", "ssh-ed25519 AAAA"], capsys)
    assert code == 2 and err.startswith("dealerless: key trust:")
    assert run(["key", "trust", "two words", other.public_line], capsys)[0] == 2

    explicit = tmp_path / "explicit"
    assert run(["keygen", "--no-passphrase", "--home", str(explicit)], capsys)[0] == 0
    assert (explicit / "keys" / "id_ed25519").exists()

    code, out, err = run(["key", "show"], capsys)
    for secret in secrets_of(home / "keys" / "id_ed25519"):
        assert secret not in out + err


def test_cli_usage_and_missing_key(home: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_SUCH_PASSPHRASE_VAR", raising=False)
    code, _, err = run(["keygen", "--passphrase-env", "NO_SUCH_PASSPHRASE_VAR"], capsys)
    assert code == 2 and "NO_SUCH_PASSPHRASE_VAR is not set" in err
    code, _, err = run(["key", "show"], capsys)
    assert code == 1 and "no identity key" in err
    with pytest.raises(SystemExit) as info:
        run(["key"], capsys)
    assert info.value.code == 2


@needs_bcrypt
def test_cli_passphrase_from_env_never_printed(home: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DL_PASS", "hunter2-passphrase")
    code, out, err = run(["keygen", "--passphrase-env", "DL_PASS"], capsys)
    assert code == 0 and "encrypted    yes" in out
    key_file = home / "keys" / "id_ed25519"
    assert keys.load_identity(passphrase="hunter2-passphrase")

    monkeypatch.setenv("DL_WRONG", "not-it")
    target = tmp_path / "second"
    code, out, err = run(["key", "import", str(key_file), "--home", str(target),
                          "--passphrase-env", "DL_WRONG"], capsys)
    assert code == 1 and "wrong passphrase" in err
    code, out, err = run(["key", "import", str(key_file), "--home", str(target)], capsys)
    assert code == 1 and "passphrase" in err  # stdin is no TTY: no prompt, clear error
    code, out, err = run(["key", "import", str(key_file), "--home", str(target),
                          "--passphrase-env", "DL_PASS"], capsys)
    assert code == 0
    assert keys.load_identity(target, "hunter2-passphrase").public_key == \
        keys.load_identity(None, "hunter2-passphrase").public_key
    for secret in [*secrets_of(key_file), "hunter2", "not-it"]:
        assert secret not in out + err


class _Tty:
    def isatty(self) -> bool:
        return True


def test_cli_prompts_on_a_tty(home: Path, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["one", "two"])
    monkeypatch.setattr(sys, "stdin", _Tty())
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    code, _, err = run(["keygen"], capsys)
    assert code == 1 and "differ" in err
    assert not (home / "keys" / "id_ed25519").exists()

    answers = iter(["", ""])
    code, out, _ = run(["keygen"], capsys)
    assert code == 0 and "encrypted    no" in out


@needs_ssh_keygen
def test_cli_import_rsa_refused(home: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    source = ssh_keygen(tmp_path / "id_rsa", key_type="rsa")
    code, _, err = run(["key", "import", str(source)], capsys)
    assert code == 1 and "RSA" in err and "ssh-rsa" in err
    assert "PRIVATE KEY" not in err
