"""One file judged as `dealerless verify FILE` judges it, and the words for it (spec/11-verify.md
11.1): a transcript, a match, or either cut inside a record. The command line and the web
page's verify both use this, so they say the same thing word for word (spec/12-peers.md
12.8.2)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import partial
from typing import Any

from peers.table.report import account, headline, match_account
from protocol.errors import EncodingError
from protocol.match import MATCH_PREFIX, MatchVerdict, decode_match, verify_match
from protocol.transcript import MAGIC_PREFIX
from protocol.verifier import Verdict, replay

#: The exit code of a file that cannot be read at all (the CLI's usage code, 11.1).
EXIT_UNREADABLE = 2


@dataclass
class Checked:
    """One file's verdict, or why it could not be read."""

    path: str
    verdict: Verdict | MatchVerdict | None = None
    problem: str = ""
    cut: int | None = None        # the file is cut inside a record; its last whole one ends here
    intact: Verdict | MatchVerdict | None = None   # the verdict of what comes before the cut

    @property
    def exit_code(self) -> int:
        return EXIT_UNREADABLE if self.verdict is None else self.verdict.exit_code

    def to_json(self) -> dict[str, Any]:
        if self.verdict is None:
            return {"file": self.path, "error": self.problem}
        out = {"file": self.path, **self.verdict.to_json()}
        if self.cut is not None:
            out["cut_at"] = self.cut
            out["intact_prefix"] = None if self.intact is None else self.intact.to_json()
        return out


def cut_at(data: bytes, prefix: bytes) -> int | None:
    """Where the last whole record ends, if the file is cut inside a record; else None.
    Transcript (8.6) and match (11.5) records alike: after the magic (`prefix`, a version
    digit, a newline), a kind byte, a u32 big-endian length, the payload. Records are
    appended, so what comes before is a clean prefix."""
    if not data.startswith(prefix) or len(data) < len(prefix) + 2:
        return None
    pos = len(prefix) + 2
    while pos < len(data):
        end = pos + 5 + int.from_bytes(data[pos + 1:pos + 5], "big")
        if len(data) - pos < 5 or end > len(data):
            return pos
        pos = end
    return None


def _verdicts(done: list[Verdict], _files: list[bytes]) -> list[Verdict]:
    """A match's rounds, already replayed (verify_match then checks their chain)."""
    return done


def verify_data(data: bytes, name: str = "") -> Checked:
    """One file's bytes judged as `verify_files` judges a file, in this process: the web
    page's verify gives the same verdict and text as the command line (spec/12-peers.md
    12.8.2)."""
    item = Checked(name)
    judge(item, data, [replay(game) for game in games_of(item, data)])
    return item


def games_of(item: Checked, data: bytes) -> list[bytes]:
    """The games to replay for one file (setting `item.cut`): a match's rounds, or a
    transcript and, if it is cut inside a record, the whole records before the cut."""
    if data.startswith(MATCH_PREFIX):
        item.cut = cut_at(data, MATCH_PREFIX)
        whole = data if item.cut is None else data[:item.cut]
        with contextlib.suppress(EncodingError):   # verify_match reports it
            return decode_match(whole)
        return []
    item.cut = cut_at(data, MAGIC_PREFIX)
    return [data] if item.cut is None else [data, data[:item.cut]]


def judge(item: Checked, data: bytes, verdicts: list[Verdict]) -> None:
    """The file's verdict from the verdicts of the games `games_of` gave, in order."""
    if data.startswith(MATCH_PREFIX) and item.cut is not None:
        item.verdict = verify_match(data)   # the container is cut: no round is read
        if verdicts:
            item.intact = verify_match(data[:item.cut], partial(_verdicts, verdicts))
    elif data.startswith(MATCH_PREFIX):
        item.verdict = verify_match(data, partial(_verdicts, verdicts))
    else:
        item.verdict = verdicts[0]
        item.intact = verdicts[1] if item.cut is not None else None


def cut_text(item: Checked) -> str:
    """A file cut inside a record: what the whole records before the cut prove, then the
    file's own verdict last (11.1: the last lines say what is proven)."""
    if isinstance(item.verdict, MatchVerdict):
        done = item.intact.rounds if isinstance(item.intact, MatchVerdict) else []
        verdict = (f"NOT A VALID MATCH: the file is cut inside round {len(done) + 1} (at byte "
                   f"{item.cut}); no seat is blamed.")
        if not isinstance(item.intact, MatchVerdict):
            return f"No round before the cut is complete.\n{verdict}"
        return (f"The {len(done)} whole round{'s' if len(done) > 1 else ''} before the cut "
                f"prove:\n{match_account(item.intact)}\n{verdict}")
    assert isinstance(item.verdict, Verdict) and isinstance(item.intact, Verdict)
    n = item.intact.frames
    return (f"The file is cut inside a record at byte {item.cut}. Its {n} whole "
            f"frame{'' if n == 1 else 's'} before the cut are a clean prefix; they prove:\n"
            f"{account(item.intact)}\n{headline(item.verdict)}")


def text_of(item: Checked) -> str:
    """The account printed for one judged file (11.1)."""
    assert item.verdict is not None
    return (cut_text(item) if item.cut is not None
            else match_account(item.verdict) if isinstance(item.verdict, MatchVerdict)
            else account(item.verdict))
