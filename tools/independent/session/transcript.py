"""The transcript file, spec/08-wire.md 8.6: its records, decoded in order. The magic's
digit is the protocol version (2 or 3), and the setup's must be it (README "Versioning")."""

from __future__ import annotations

from dataclasses import dataclass

from independent.errors import Err, check_magic, check_version, fail_err
from independent.session.frames import MAX_FRAME_BYTES
from independent.session.game import MAX_SETUP_BYTES, Game, decode_setup

MAGIC_PREFIX = b"DEALERLESS-T"


@dataclass
class Transcript:
    setup: bytes
    game: Game
    frames: list[bytes]
    evidence: list[bytes]


def parse_transcript(data: bytes) -> tuple[Transcript | None, Err | None, Game | None]:
    """8.6 decoding checks, in order, record by record."""
    game: Game | None = None
    setup = b""
    frames: list[bytes] = []
    evidence: list[bytes] = []
    try:
        version = check_magic(data, MAGIC_PREFIX, "transcript/magic", "transcript")
        i = len(MAGIC_PREFIX) + 2
        while i < len(data):
            if len(data) - i < 5:
                fail_err("transcript/truncated", f"record header at byte {i}")
            kind, n = data[i : i + 1], int.from_bytes(data[i + 1 : i + 5], "big")
            if n > (MAX_SETUP_BYTES if kind == b"S" else MAX_FRAME_BYTES):
                fail_err("transcript/too-large", f"record of {n} bytes at byte {i}")
            if len(data) - i - 5 < n:
                fail_err("transcript/truncated", f"record payload at byte {i}")
            payload = data[i + 5 : i + 5 + n]
            i += 5 + n
            if (kind not in (b"S", b"F", b"E") or (kind == b"S" and game is not None)
                    or (kind != b"S" and game is None) or (kind == b"F" and evidence)
                    or (kind == b"E" and len(evidence) == 16)):
                fail_err("transcript/record", f"record {kind!r} not allowed here")
            if kind == b"S":
                decoded = decode_setup(payload)
                # README "Versioning": a transcript whose setup says another version than
                # its own is version/unsupported (checked once the setup decodes, 8.6 row 6)
                check_version(version, "transcript", decoded.suite.version)
                setup, game = payload, decoded
            elif kind == b"F":
                if len(frames) == 4096:
                    fail_err("transcript/too-large", "more than 4096 frames")
                frames.append(payload)
            else:
                evidence.append(payload)
        if game is None:
            fail_err("transcript/no-setup")
    except Err as e:
        return None, e, game
    return Transcript(setup, game, frames, evidence), None, game
