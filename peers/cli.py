"""The `dealerless` command line (spec/README.md lists the exit codes).

Results go to stdout, logs and progress to stderr. Exit codes: 0 ok or valid,
1 invalid or a violation, 2 usage error, 3 incomplete (waiting on a seat).
"""

from __future__ import annotations

import argparse
import json
import sys

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INCOMPLETE = 0, 1, 2, 3


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import bench

    sizes = tuple(int(n) for n in args.sizes.split(","))
    if any(n not in bench.SETS for n in sizes):
        print(f"dealerless bench: --sizes takes values from {sorted(bench.SETS)}", file=sys.stderr)
        return EXIT_USAGE
    result = bench.run(reps=args.reps, sizes=sizes)
    print(json.dumps(result, indent=2, sort_keys=True) if args.json else bench.render(result))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dealerless",
        description="Fair-play referee for remote tile games with no trusted dealer.")
    sub = parser.add_subparsers(dest="command", required=True)

    bench = sub.add_parser("bench", help="measure group operations, proofs and their floors")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--reps", type=int, default=9, help="runs per step (median taken)")
    bench.add_argument("--sizes", default="28,55,91", help="deck sizes among 28,55,91")
    bench.set_defaults(func=_cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
