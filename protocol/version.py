"""The protocol version and the one refusal for any other (spec/README.md "Versioning").

Every format that can outlive a build carries the version where a reader meets it
first: the transcript and match files in their magic, the setup, the frame and the
dispute package in their item 1 or 0. A reader checks it before anything that the
version changes (a hash, a signature), so a file from another version is refused as
such (`version/unsupported`), never as a forgery.
"""

from __future__ import annotations

from .errors import EncodingError

#: The protocol version of every game this build starts: its setup, frames and files say
#: it, and its suite's context (3.5) is hashed into every hash.
PROTOCOL = 3
#: The versions this build reads: a game of dealerless/2 is an edwards25519-sha512 game
#: (3.5), replayed and judged as it was written.
READABLE = (2, 3)
#: The peer protocol's own number (spec/12-peers.md 12.3): item 1 of every hello, and the
#: number in the handshake's signing prefix (protocol/handshake_auth.py). It moves when
#: 12.3 changes what two seats must agree on to sit at one table: 5 since the fork-choice
#: rule of 10.8 judges a rival branch whole, 6 since no seat is declared absent on one
#: seat's word alone and a branch is judged by its seals, then its signers, 7 since
#: decryption shares against a withheld OPEN wait for t declarations (issue 30), 8 since
#: the tables it sets are games of dealerless/3 in a suite (issue 31), 9 since the host's
#: hello names the table's suite and every seat announces its frame key in it (issue 31),
#: 10 since every seat binds its frame key to its identity key and seat, signed by both,
#: and every joiner checks every seat's binding in the roster (issue 31).
PEER_PROTOCOL = 10


def check_version(found: int, what: str, expected: int | None = None) -> int:
    """`found` if this build reads it, and it is `expected` when given (the version of
    the setup a frame or file belongs to); else `version/unsupported` naming both."""
    if found not in READABLE:
        reads = " and ".join(f"dealerless/{v}" for v in READABLE)
        raise EncodingError("version/unsupported",
                            f"this {what} is dealerless/{found}; this build reads {reads}")
    if expected is not None and found != expected:
        raise EncodingError("version/unsupported",
                            f"this {what} is dealerless/{found}, in a game of "
                            f"dealerless/{expected}")
    return found


def magic(prefix: bytes, version: int = PROTOCOL) -> bytes:
    """A file magic: `prefix`, the version digit, a newline."""
    return prefix + b"%d\n" % version


def check_magic(data: bytes, prefix: bytes, what: str, code: str) -> int:
    """The version of a file that starts with `prefix`, one ASCII digit d and a newline
    (else `code`), d a version this build reads (else `version/unsupported`)."""
    head = data[:len(prefix) + 2]
    if len(head) != len(prefix) + 2 or not head.startswith(prefix) \
            or head[-1:] != b"\n" or not head[-2:-1].isdigit():
        raise EncodingError(code, f"not a dealerless {what}")
    return check_version(int(head[-2:-1]), what)


def frame_signature_prefix(version: int) -> bytes:
    """What a frame's signature covers before its payload (8.3): `/1` under dealerless/2,
    which kept version 1's, and the version itself from dealerless/3 on."""
    return b"dealerless/frame-signature/%d\x00" % (1 if version == 2 else version)
