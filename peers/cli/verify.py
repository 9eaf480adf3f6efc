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

import json
import sys
from concurrent.futures import Executor, as_completed
from pathlib import Path

from peers.cli.options import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from peers.cli.progress import Progress
from peers.cli.workers import pool
from peers.table.checked import Checked, games_of, judge, text_of
from protocol.verifier import Verdict, replay

#: Exit codes from the best to the worst (11.1): complete, valid prefix, unreadable, invalid.
SEVERITY = (EXIT_OK, 3, EXIT_USAGE, EXIT_INVALID)


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
            games += games_of(item, data)
        spans.append((start, len(games)))
    with Progress("verify", "games") as progress:
        verdicts = replay_all(games, executor, progress)
    for item, data, (start, end) in zip(checked, contents, spans, strict=True):
        if data is not None:
            judge(item, data, verdicts[start:end])
    return checked


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
