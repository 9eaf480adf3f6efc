"""`dealerless keygen` and `dealerless key ...`: the identity-key commands (spec/12-peers.md 12.2).

Passphrases come from the environment variable named by --passphrase-env, or
from the terminal (getpass); never from argv, which other users can see.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from pathlib import Path
from typing import Any

from peers.cli.options import ENVIRONMENT, home_option
from peers.keys import (
    DEFAULT_COMMENT,
    KeyExistsError,
    KeyStoreError,
    PassphraseError,
    check_name,
    format_public_line,
    generate,
    import_key,
    key_path,
    known_players,
    show,
    trust,
)
from peers.keys.known import key_from, known_file
from peers.keys.openssh import ARMOR, read_header
from protocol.identity import fingerprint

# -- the command line ------------------------------------------------------------------

class _UsageError(Exception):
    pass


def _fail(message: str, code: int) -> int:
    print(f"dealerless: {message}", file=sys.stderr)
    return code


def _passphrase(args: argparse.Namespace, needed: bool, confirm: bool = False,
                prompt: str = "Passphrase: ") -> str | None:
    """From the variable named by --passphrase-env, else $DEALERLESS_PASSPHRASE, else the
    terminal, else none."""
    if args.passphrase_env:
        value = os.environ.get(args.passphrase_env)
        if value is None:
            raise _UsageError(f"--passphrase-env: {args.passphrase_env} is not set")
        return value or None
    if os.environ.get("DEALERLESS_PASSPHRASE") is not None:
        return os.environ["DEALERLESS_PASSPHRASE"] or None
    if not needed or not sys.stdin.isatty():
        return None
    try:
        first = getpass.getpass(prompt)
        if confirm and getpass.getpass("Same passphrase again: ") != first:
            raise KeyStoreError("the two passphrases differ; nothing was written")
    except EOFError:
        raise KeyStoreError("no passphrase was read") from None
    return first or None


def _run(body: Any) -> Any:
    def command(args: argparse.Namespace) -> int:
        try:
            return int(body(args))
        except _UsageError as exc:
            return _fail(str(exc), 2)
        except PassphraseError as exc:
            return _fail(f"{exc}: set DEALERLESS_PASSPHRASE (or --passphrase-env VAR), or "
                         "run from a terminal to be asked", 1)
        except KeyStoreError as exc:
            return _fail(str(exc), 1)
        except (KeyboardInterrupt, EOFError):
            return _fail("interrupted; nothing was written", 1)
        except OSError as exc:
            return _fail(f"{exc.strerror or exc}", 1)
    return command


def _keygen(args: argparse.Namespace) -> int:
    if not args.force and key_path(args.home).exists():
        raise KeyExistsError(f"an identity key already exists at {key_path(args.home)}; "
                             "replacing it (--force) loses the old identity")
    if args.no_passphrase:
        passphrase = None
    elif (not args.passphrase_env and "DEALERLESS_PASSPHRASE" not in os.environ
          and not sys.stdin.isatty()):
        # Asked nothing, a key would be written unencrypted: say so and write nothing.
        raise _UsageError("keygen: no terminal to ask for a passphrase; set "
                          "DEALERLESS_PASSPHRASE (or --passphrase-env VAR), or pass "
                          "--no-passphrase to write the key unencrypted")
    else:
        passphrase = _passphrase(args, needed=True, confirm=True,
                                 prompt="Passphrase for the new key (empty for none): ")
    print(generate(args.home, passphrase, args.comment, args.force).describe())
    return 0


def _show(args: argparse.Namespace) -> int:
    summary = show(args.home)
    print(json.dumps(summary.to_json(), indent=2) if args.json else summary.describe())
    return 0


def _import(args: argparse.Namespace) -> int:
    try:
        data = Path(args.path).read_bytes()
    except OSError as exc:
        raise KeyStoreError(f"cannot read {args.path}: {exc.strerror}") from None
    head = data.lstrip()[:64]
    encrypted = (read_header(data, args.path).cipher != "none"
                 if head.startswith(ARMOR[0]) else b"ENCRYPTED" in head)
    passphrase = _passphrase(args, needed=encrypted, prompt=f"Passphrase for {args.path}: ")
    print(import_key(args.home, args.path, passphrase, args.force).describe())
    return 0


def _trust(args: argparse.Namespace) -> int:
    try:
        check_name(args.name)
        public = key_from(args.key)
    except KeyStoreError as exc:
        raise _UsageError(f"key trust: {exc}") from None
    added = trust(args.home, args.name, public)
    state = "trusted" if added else "already trusted"
    print(f"{state}: {args.name} {fingerprint(public)}")
    return 0


def _known(args: argparse.Namespace) -> int:
    players = known_players(args.home)
    if not players:
        print(f"dealerless: no known players yet ({known_file(args.home)})", file=sys.stderr)
    for p in players:
        print(f"{p.name}  {p.fingerprint}  {format_public_line(p.public_key)}")
    return 0


def add_key_commands(subparsers: Any) -> None:
    """Register `keygen` and `key {show,import,trust,known}` on an argparse subparsers
    action. Each sets `func(args) -> int`: 0 ok, 1 failure, 2 usage error."""
    def common(p: argparse.ArgumentParser, passphrase: bool = False) -> None:
        home_option(p)
        if passphrase:
            p.add_argument("--passphrase-env", metavar="VAR", default=None,
                           help="read the passphrase from environment variable VAR "
                                "(default: DEALERLESS_PASSPHRASE if set, else ask on the "
                                "terminal)")

    p = subparsers.add_parser("keygen", help="create your long-term identity key",
                              epilog=ENVIRONMENT,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    common(p, passphrase=True)
    p.add_argument("--no-passphrase", action="store_true",
                   help="write the key unencrypted without asking (anyone who can read "
                        "the file can then play as you)")
    p.add_argument("--force", action="store_true",
                   help="replace an existing key (the old identity is lost)")
    p.add_argument("--comment", default=DEFAULT_COMMENT, help="comment in the .pub line")
    p.set_defaults(func=_run(_keygen))

    key = subparsers.add_parser("key", help="show, import and trust identity keys")
    sub = key.add_subparsers(dest="key_command", required=True)
    p = sub.add_parser("show", help="print your key's fingerprint and public line")
    common(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run(_show))
    p = sub.add_parser("import", help="adopt an existing ssh-ed25519 private key")
    p.add_argument("path", help="the private key file (e.g. ~/.ssh/id_ed25519)")
    common(p, passphrase=True)
    p.add_argument("--force", action="store_true",
                   help="replace an existing key (the old identity is lost)")
    p.set_defaults(func=_run(_import))
    p = sub.add_parser("trust", help="record a public key as belonging to NAME")
    p.add_argument("name")
    p.add_argument("key", help="an OpenSSH public line or a .pub file")
    common(p)
    p.set_defaults(func=_run(_trust))
    p = sub.add_parser("known", help="list the known players and their keys")
    common(p)
    p.set_defaults(func=_run(_known))
