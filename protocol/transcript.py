"""The transcript file (spec/08-wire.md section 8.6).

    file   = MAGIC record*
    MAGIC  = "DEALERLESS-T3\\n" (14 bytes; the digit is the protocol version, the setup's)
    record = kind (1 byte) || u32 big-endian length || payload

Kinds: 'S' the setup (exactly one, first), 'F' a frame (in chain order), 'E' an
evidence frame (equivocation or out of turn, after the frames). Records can be appended as the
game goes, a file cut at any record boundary is a valid prefix of a game, and a
verifier needs nothing but the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import EncodingError
from .frames import MAX_FRAME_BYTES
from .setup import MAX_SETUP_BYTES, GameSetup
from .version import check_magic, check_version, magic

MAGIC_PREFIX = b"DEALERLESS-T"
SETUP, FRAME, EVIDENCE = b"S", b"F", b"E"
MAX_FRAMES = 4096
MAX_EVIDENCE = 16


def record(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


@dataclass(frozen=True)
class Transcript:
    setup: GameSetup
    frames: tuple[bytes, ...]
    evidence: tuple[bytes, ...] = ()

    def encode(self) -> bytes:
        out = [magic(MAGIC_PREFIX, self.setup.version), record(SETUP, self.setup.encode())]
        out += [record(FRAME, f) for f in self.frames]
        out += [record(EVIDENCE, e) for e in self.evidence]
        return b"".join(out)

    @classmethod
    def decode(cls, data: bytes) -> Transcript:
        """Parse the record structure; frames are checked later by the replay."""
        version = check_magic(data, MAGIC_PREFIX, "transcript", "transcript/magic")
        pos = len(MAGIC_PREFIX) + 2
        setup: GameSetup | None = None
        frames: list[bytes] = []
        evidence: list[bytes] = []
        while pos < len(data):
            if len(data) - pos < 5:
                raise EncodingError("transcript/truncated", f"a record header is cut at byte {pos}")
            kind = data[pos:pos + 1]
            length = int.from_bytes(data[pos + 1:pos + 5], "big")
            limit = MAX_SETUP_BYTES if kind == SETUP else MAX_FRAME_BYTES
            if length > limit:
                raise EncodingError("transcript/too-large",
                                    f"record at byte {pos} claims {length} bytes")
            payload = data[pos + 5:pos + 5 + length]
            if len(payload) != length:
                raise EncodingError("transcript/truncated", f"the record at byte {pos} is cut")
            if kind == SETUP and setup is None and not frames:
                setup = GameSetup.decode(payload)
                check_version(setup.version, "setup", version)
            elif kind == FRAME and setup is not None and not evidence:
                if len(frames) >= MAX_FRAMES:
                    raise EncodingError("transcript/too-large", "too many frames")
                frames.append(payload)
            elif kind == EVIDENCE and setup is not None and len(evidence) < MAX_EVIDENCE:
                evidence.append(payload)
            else:
                raise EncodingError("transcript/record",
                                    f"unexpected record {kind!r} at byte {pos}")
            pos += 5 + length
        if setup is None:
            raise EncodingError("transcript/no-setup", "the file has no setup record")
        return cls(setup, tuple(frames), tuple(evidence))
