"""The protocol version and the one refusal for any other (spec/README.md "Versioning").

Every format that can outlive a build carries the version where a reader meets it
first: the transcript and match files in their magic, the setup, the frame and the
dispute package in their item 1 or 0. A reader checks it before anything that the
version changes (a hash, a signature), so a file from another version is refused as
such (`version/unsupported`), never as a forgery.
"""

from __future__ import annotations

from .errors import EncodingError

#: The protocol version number; `dealerless/<PROTOCOL>` is hashed into every hash (3.1).
PROTOCOL = 2
VERSION = f"dealerless/{PROTOCOL}".encode()
#: The peer protocol's own number (spec/12-peers.md 12.3): item 1 of every hello, and the
#: number in the handshake's signing prefix (protocol/handshake_auth.py). It moves when
#: 12.3 changes what two seats must agree on to sit at one table: 5 since the fork-choice
#: rule of 10.8 judges a rival branch whole, 6 since no seat is declared absent on one
#: seat's word alone and a branch is judged by its seals, then its signers, 7 since
#: decryption shares against a withheld OPEN wait for t declarations (issue 30).
PEER_PROTOCOL = 7


def check_version(found: int, what: str) -> None:
    """Refuse `what` (e.g. "setup") when it says another protocol version."""
    if found != PROTOCOL:
        raise EncodingError("version/unsupported",
                            f"this {what} is dealerless/{found}; "
                            f"this build reads dealerless/{PROTOCOL}")


def magic(prefix: bytes) -> bytes:
    """A file magic of this version: `prefix`, the version digit, a newline."""
    return prefix + b"%d\n" % PROTOCOL


def check_magic(data: bytes, prefix: bytes, what: str, code: str) -> None:
    """A file starts with `prefix`, one ASCII digit d and a newline (else `code`),
    and d is this version (else `version/unsupported`)."""
    head = data[:len(prefix) + 2]
    if len(head) != len(prefix) + 2 or not head.startswith(prefix) \
            or head[-1:] != b"\n" or not head[-2:-1].isdigit():
        raise EncodingError(code, f"not a dealerless {what}")
    check_version(int(head[-2:-1]), what)
