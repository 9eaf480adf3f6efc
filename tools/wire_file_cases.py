"""The transcript-file and match-file vectors, spec/vectors/files.json (spec/08-wire.md 8.6,
spec/11-verify.md 11.2 and 11.5), for tools/gen_wire_vectors.py.

Each entry gives the file's bytes and the verdict the reference code reaches. Keys and
nonces come from public labels, as in tools/gen_vectors.py.
"""

from __future__ import annotations

from typing import Any

from vector_common import Kit
from wire_common import ABOUT, seed

from protocol.canonical import pack, unpack
from protocol.identity import Identity
from protocol.match import MATCH_PREFIX, verify_match
from protocol.setup import GameSetup
from protocol.transcript import MAGIC_PREFIX, Transcript
from protocol.verifier import replay
from protocol.version import magic as file_magic

# -- transcript and match files (spec/08-wire.md 8.6, spec/11-verify.md 11.2, 11.5) ------

def _record(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


def file_vectors(v: Kit) -> dict[str, Any]:
    """The files of the suite's set, from its golden `valid` game and tables of its own."""
    golden = Transcript.decode((v.out / "transcripts" / "valid.transcript").read_bytes())
    setup, frames = golden.setup.encode(), golden.frames
    t_magic = file_magic(MAGIC_PREFIX, v.S.version)
    other = 3 if v.S.version == 2 else 2   # a version the file does not have
    keys = [Identity(seed(f"match/id{i}")).frame_key(v.S) for i in range(2)]
    magic, _, *rest = unpack(setup, 4096)
    setup_v1 = pack([magic, 1, *rest])
    head = t_magic + _record(b"S", setup)
    train = [GameSetup.create("mexican-train", {"seats": 2, **extra}, keys,
                              [seed(f"match/nonce{r}/{i}") for i in range(2)], v.S).encode()
             for r, extra in enumerate(({}, {"round": 11}))]
    rounds = [t_magic + _record(b"S", s) for s in train]
    # rules/mineshaft.md D19: only the rounds after the first name their first player.
    seated = GameSetup.create("mineshaft", {"seats": 2, "long": True, "first": 1}, keys,
                              [seed(f"match/nonce/{i}") for i in range(2)], v.S).encode()
    m_magic = file_magic(MATCH_PREFIX, v.S.version)
    transcripts: list[tuple[str, bytes]] = [
        ("setup and two frames: a valid prefix", head + _record(b"F", frames[0])
         + _record(b"F", frames[1])),
        ("wrong magic", b"DEALERLESS-X2\n" + head[len(t_magic):]),
        ("a magic without its version digit", b"DEALERLESS-T\n" + head[len(t_magic):]),
        ("a dealerless/1 file", b"DEALERLESS-T1\n" + head[len(t_magic):]),
        (f"a dealerless/{other} file", b"DEALERLESS-T%d\n" % other + head[len(t_magic):]),
        ("a dealerless/1 setup", t_magic + _record(b"S", setup_v1)),
        ("magic only", t_magic),
        ("a record header cut after 3 bytes", head + b"F\x00\x00"),
        ("a frame record claiming 65537 bytes", head + b"F" + (65537).to_bytes(4, "big")),
        ("a setup record claiming 4097 bytes", t_magic + b"S" + (4097).to_bytes(4, "big")),
        ("a frame record cut short", head + _record(b"F", frames[0])[:-1]),
        ("a frame before the setup", t_magic + _record(b"F", frames[0]) + _record(b"S", setup)),
        ("a second setup", head + _record(b"S", setup)),
        ("a record of kind X", head + _record(b"X", b"")),
        ("a frame after evidence", head + _record(b"F", frames[0]) + _record(b"E", frames[0])
         + _record(b"F", frames[1])),
        ("evidence repeating an accepted frame", head + _record(b"F", frames[0])
         + _record(b"E", frames[0])),
        ("evidence that is not a frame", head + _record(b"F", frames[0])
         + _record(b"E", b"\xc0")),
        ("a setup that fails 8.2", t_magic + _record(b"S", setup[:-1])),
    ]
    matches: list[tuple[str, bytes]] = [
        ("wrong magic", b"DEALERLESS-X2\n" + _record(b"R", rounds[0])),
        ("a dealerless/1 match file", b"DEALERLESS-M1\n" + _record(b"R", rounds[0])),
        ("no rounds", m_magic),
        ("a record of kind T", m_magic + _record(b"T", rounds[0])),
        ("a round cut short", m_magic + _record(b"R", rounds[0])[:-1]),
        ("a first round that does not start at 12-12", m_magic + _record(b"R", rounds[1])),
        ("a bram game as a round", m_magic + _record(b"R", head)),
        ("a round after an unfinished round", m_magic + _record(b"R", rounds[0])
         + _record(b"R", rounds[0])),
        ("a round after a round without frames, its after empty", m_magic
         + _record(b"R", rounds[0]) + _record(b"R", rounds[1])),
        ("a first round whose file is cut short", m_magic + _record(b"R", rounds[0][:-1])),
        ("a first round of dealerless/1", m_magic
         + _record(b"R", b"DEALERLESS-T1\n" + rounds[0][len(t_magic):])),
        ("a first round whose setup fails 8.2", m_magic + _record(b"R", t_magic + _record(
            b"S", train[0][:-1]))),
        ("a first round of a long Mineshaft game that does not draw its first player",
         m_magic + _record(b"R", t_magic + _record(b"S", seated))),
    ]
    notes = {
        "a round after a round without frames, its after empty": "11.5: a round without "
        "frames is unfinished, so nothing follows it; its 'last frame' is not read as the "
        "empty text that would link round 1",
        "a first round whose file is cut short": "11.5 step 2a: a round whose own file "
        "fails gives its own code (transcript/truncated), not match/link",
        "a first round of dealerless/1": "11.5 step 2a: version/unsupported, the round's "
        "own refusal, not match/link",
        "a first round whose setup fails 8.2": "11.5 step 2a: the setup's own code",
    }
    return {"about": {**ABOUT, "spec": "spec/08-wire.md 8.6, spec/11-verify.md 11.2 and 11.5",
                      "note": "transcripts: the verdict of 11.2; matches: the violation of "
                              "11.5 and the round it is charged to"},
            "transcripts": [{"name": n, "file": d.hex(), **_transcript_verdict(d)}
                            for n, d in transcripts],
            "matches": [{"name": n, "file": d.hex(), **_match_verdict(d),
                         **({"note": notes[n]} if n in notes else {})} for n, d in matches]}


def _violation(v: Any) -> dict[str, Any] | None:
    return None if v is None else {"rule": v.code, "seat": v.seat, "frame": v.frame,
                                   "authenticated": v.authenticated}


def _transcript_verdict(data: bytes) -> dict[str, Any]:
    v = replay(data)
    return {"valid": v.valid, "complete": v.complete, "frames": v.frames,
            "violation": _violation(v.violation)}


def _match_verdict(data: bytes) -> dict[str, Any]:
    v = verify_match(data)
    return {"valid": v.valid, "violation": _violation(v.violation),
            "broken_round": v.broken_round}
