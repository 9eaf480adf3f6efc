"""`dealerless verify FILE...`: many transcripts and match files, on several cores or a
Dask cluster (spec/11-verify.md 11.1 and 11.6).

Theory of operation
-------------------
The unit of work is one game: a transcript file, or one round of a match file. Every
round of a match is replayed alone (protocol/match.py), so all the games of all the
files are handed to the pool at once and verified in any order; then each match's
chain of rounds is checked on the verdicts, in round order, as `verify_match` does
when it replays them itself. The verdicts are therefore the same with one job, N
jobs or a cluster; only the time differs. The pool is this process (`--jobs 1`),
worker processes (`--jobs N`) or the workers of a Dask scheduler (`--dask ADDRESS`,
the optional extra `dealerless[cluster]`), which must have dealerless installed.
"""

from __future__ import annotations

import contextlib
import json
import sys
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from peers.cli.options import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from peers.cli.progress import Progress
from peers.cli.workers import pool
from protocol.errors import EncodingError
from protocol.match import MATCH_MAGIC, MATCH_PREFIX, MatchVerdict, decode_match, verify_match
from protocol.transcript import MAGIC
from protocol.verifier import Verdict, replay

#: Exit codes from the best to the worst (11.1): complete, valid prefix, unreadable, invalid.
SEVERITY = (EXIT_OK, 3, EXIT_USAGE, EXIT_INVALID)


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
        return EXIT_USAGE if self.verdict is None else self.verdict.exit_code

    def to_json(self) -> dict[str, Any]:
        if self.verdict is None:
            return {"file": self.path, "error": self.problem}
        out = {"file": self.path, **self.verdict.to_json()}
        if self.cut is not None:
            out["cut_at"] = self.cut
            out["intact_prefix"] = None if self.intact is None else self.intact.to_json()
        return out


def cut_at(data: bytes, magic: bytes) -> int | None:
    """Where the last whole record ends, if the file is cut inside a record; else None.
    Transcript (8.6) and match (11.5) records alike: a kind byte, a u32 big-endian
    length, the payload. Records are appended, so what comes before is a clean prefix."""
    if not data.startswith(magic):
        return None
    pos = len(magic)
    while pos < len(data):
        end = pos + 5 + int.from_bytes(data[pos + 1:pos + 5], "big")
        if len(data) - pos < 5 or end > len(data):
            return pos
        pos = end
    return None


def worst(codes: list[int]) -> int:
    return max(codes, key=SEVERITY.index, default=EXIT_OK)


def replay_all(games: list[bytes], executor: Executor | None,
               progress: Progress) -> list[Verdict]:
    """Every game's verdict, in order; progress as each one is done."""
    progress(0, len(games))
    if executor is None:
        verdicts = []
        for game in games:
            verdicts.append(replay(game))
            progress(len(verdicts), len(games))
        return verdicts
    futures = [executor.submit(replay, game) for game in games]
    for done, _ in enumerate(as_completed(futures), 1):
        progress(done, len(games))
    return [future.result() for future in futures]


def _verdicts(done: list[Verdict], _files: list[bytes]) -> list[Verdict]:
    """A match's rounds, already replayed (verify_match then checks their chain)."""
    return done


def verify_files(paths: list[str], executor: Executor | None) -> list[Checked]:
    """Read every file, verify all their games on `executor`, and judge each file."""
    checked = [Checked(path) for path in paths]
    contents: list[bytes | None] = []
    games: list[bytes] = []
    spans: list[tuple[int, int]] = []     # where each file's games are in `games`
    for item in checked:
        try:
            data = Path(item.path).read_bytes()
        except OSError as exc:
            item.problem = f"cannot read {item.path}: {exc.strerror}"
            print(f"dealerless: {item.problem}", file=sys.stderr)
            data = None
        contents.append(data)
        start = len(games)
        if data is not None:
            games += _games_of(item, data)
        spans.append((start, len(games)))
    with Progress("verify", "games") as progress:
        verdicts = replay_all(games, executor, progress)
    for item, data, (start, end) in zip(checked, contents, spans, strict=True):
        if data is not None:
            _judge(item, data, verdicts[start:end])
    return checked


def verify_data(data: bytes, name: str = "") -> Checked:
    """One file's bytes judged as `verify_files` judges a file, in this process: the web
    page's verify gives the same verdict and text as the command line (spec/12-peers.md
    12.8.2)."""
    item = Checked(name)
    _judge(item, data, [replay(game) for game in _games_of(item, data)])
    return item


def _games_of(item: Checked, data: bytes) -> list[bytes]:
    """The games to replay for one file (setting `item.cut`): a match's rounds, or a
    transcript and, if it is cut inside a record, the whole records before the cut."""
    if data.startswith(MATCH_PREFIX):
        item.cut = cut_at(data, MATCH_MAGIC)
        whole = data if item.cut is None else data[:item.cut]
        with contextlib.suppress(EncodingError):   # verify_match reports it
            return decode_match(whole)
        return []
    item.cut = cut_at(data, MAGIC)
    return [data] if item.cut is None else [data, data[:item.cut]]


def _judge(item: Checked, data: bytes, verdicts: list[Verdict]) -> None:
    """The file's verdict from the verdicts of the games `_games_of` gave, in order."""
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
    from peers.table.report import account, headline, match_account

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
    from peers.table.report import account, match_account

    assert item.verdict is not None
    return (cut_text(item) if item.cut is not None
            else match_account(item.verdict) if isinstance(item.verdict, MatchVerdict)
            else account(item.verdict))


def render(checked: list[Checked], as_json: bool) -> None:
    """One file: its account (or one JSON object) as ever; several: one block (or one
    JSON line) each, named by its path."""
    for i, item in enumerate(checked):
        if item.verdict is None:
            if as_json and len(checked) > 1:
                print(json.dumps(item.to_json()))
            continue
        if as_json:
            if len(checked) == 1:
                print(json.dumps({k: v for k, v in item.to_json().items() if k != "file"},
                                 indent=2))
            else:
                print(json.dumps(item.to_json()))
            continue
        text = text_of(item)
        if len(checked) > 1:
            text = f"{'' if i == 0 else chr(10)}== {item.path} ==\n{text}"
        print(text)


def run(paths: list[str], jobs: int, dask: str | None, as_json: bool) -> int:
    with pool(jobs, dask) as executor:
        checked = verify_files(paths, executor)
    render(checked, as_json)
    return worst([item.exit_code for item in checked])
