"""The `dealerless` command line (spec/11-verify.md section 11.1 lists the exit codes).

Results go to stdout, logs and progress to stderr. Exit codes: 0 ok or valid,
1 invalid or a violation, 2 usage error, 3 incomplete (a seat owes a frame).
Commands live by what they touch: `local` (files only), `network` (a seat at a
table), `saved` (the game store), `keys` (the identity key); `parser` lists them.
"""

from __future__ import annotations

import os
import sys

from peers.cli.options import fail
from peers.cli.parser import build_parser
from peers.keys import resolve_home

#: Commands that never read the data directory.
HOMELESS = {"bench", "selfplay", "tournament", "verify", "dispute", "check-step", "play", "relay"}


def _home_problem(home: str | None) -> str | None:
    """A data directory that exists but is no directory cannot hold keys or games."""

    path = resolve_home(home)
    if path.exists() and not path.is_dir():
        source = "--home" if home else "DEALERLESS_HOME" if os.environ.get(
            "DEALERLESS_HOME") else "the data directory"
        return f"{source} {path} is not a directory"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    if args.command not in HOMELESS and (problem := _home_problem(args.home)):
        return fail(problem)
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # The reader went away (`dealerless verify g.t | head`): stop quietly, as a
        # program killed by SIGPIPE would, and keep the exit from flushing into it again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
