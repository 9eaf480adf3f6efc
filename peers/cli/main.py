"""The `dealerless` command line (spec/11-verify.md section 11.1 lists the exit codes).

Results go to stdout, logs and progress to stderr. Exit codes: 0 ok or valid,
1 invalid or a violation, 2 usage error, 3 incomplete (a seat owes a frame).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from fractions import Fraction
from pathlib import Path

from protocol.errors import DealerlessError

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INCOMPLETE = 0, 1, 2, 3
#: Commands that never read the data directory.
HOMELESS = {"bench", "selfplay", "tournament", "verify", "dispute", "check-step", "play", "relay"}


def _fail(message: str, code: int = EXIT_USAGE) -> int:
    print(f"dealerless: {message}", file=sys.stderr)
    return code


def _read(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        print(f"dealerless: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return None


def _cmd_bench(args: argparse.Namespace) -> int:
    from peers.bench import measure as bench

    try:
        sizes = tuple(int(n) for n in args.sizes.split(","))
    except ValueError:
        sizes = ()
    if not sizes or any(n not in bench.SETS for n in sizes) or args.reps < 1:
        return _fail(f"bench: --sizes takes values from {sorted(bench.SETS)}; --reps >= 1")
    result = bench.run(reps=args.reps, sizes=sizes, game=not args.no_game,
                       table_seats=args.seats)
    print(json.dumps(result, indent=2, sort_keys=True) if args.json else bench.render(result))
    return EXIT_OK


def parse_komi(text: str) -> int:
    """Komi in whole or half pips ("0", "2.5", "-1") -> half pips, within the rules' range
    (spec/rules/bram.md), so that a bad value is a usage error before anything starts."""
    from protocol.rules.bram import KOMI_LIMIT_HALVES

    try:
        halves = Fraction(text) * 2
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of pips") from None
    if halves.denominator != 1:
        raise argparse.ArgumentTypeError("komi is a whole or half number of pips")
    if abs(halves) > KOMI_LIMIT_HALVES:
        raise argparse.ArgumentTypeError(
            f"komi {text} is out of range: at most {KOMI_LIMIT_HALVES // 2} pips either way")
    return int(halves)


def _cmd_selfplay(args: argparse.Namespace) -> int:
    from peers.table.report import summary
    from peers.table.selfplay import selfplay

    bots = args.bots.split(",") if args.bots else ["greedy", "random"]
    if len(bots) == 1:
        bots *= args.seats
    elif len(bots) == 2 and args.seats > 2 and args.bots is None:
        bots = [bots[s % 2] for s in range(args.seats)]
    if len(bots) != args.seats:
        return _fail(f"selfplay: --bots takes one bot name, or {args.seats} (one a seat), "
                     "like greedy,random")
    problem = _bot_problem(bots, args.rules, args.think_ms)
    if problem:
        return _fail(f"selfplay: {problem}")
    from peers.table.selfplay import rule_params

    try:
        mine_map = None if args.map is None else Path(args.map).read_text()
        params = rule_params(args.rules, args.seats, args.komi, args.set, mine_map)
    except OSError as exc:
        return _fail(f"selfplay: cannot read the map {args.map}: {exc.strerror}")
    except (ValueError, UnicodeDecodeError) as exc:
        return _fail(f"selfplay: {exc}")
    if args.match:
        return _selfplay_match(args, params, bots)
    try:
        transcript = selfplay(args.rules, params, bots, args.seed, args.think_ms)
    except DealerlessError as exc:
        return _fail(f"selfplay: {exc}")
    data = transcript.encode()
    try:
        Path(args.out).write_bytes(data)
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror}")
    from protocol.verifier import replay
    print(summary(replay(data), args.out, len(data)))
    return EXIT_OK


def _selfplay_match(args: argparse.Namespace, params: dict[str, object],
                    bots: list[str]) -> int:
    from peers.table.report import match_account
    from peers.table.selfplay import selfplay_match
    from protocol.match import encode_match, verify_match

    if args.rules == "mineshaft":
        params = {**params, "long": True}  # the long variant: rounds down to 0-0
    elif args.rules != "mexican-train":
        return _fail(f"selfplay: {args.rules} is played one round at a time (no --match)")
    try:
        rounds = selfplay_match(args.rules, dict(params), bots, args.seed)
    except DealerlessError as exc:
        return _fail(f"selfplay: {exc}")
    data = encode_match(rounds)
    try:
        Path(args.out).write_bytes(data)
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror}")
    print(match_account(verify_match(data)).splitlines()[-1])
    print(f"{len(rounds)} rounds, {len(data)} bytes; match written to {args.out}")
    return EXIT_OK


def _bot_problem(bots: list[str], rules: str, think_ms: float | None) -> str | None:
    """Why these bots cannot play `rules` with this budget, or None."""
    from peers.bots.registry import THINKERS, check_bot

    try:
        for name in bots:
            check_bot(name, rules)
    except DealerlessError as exc:
        return exc.detail or exc.code
    if think_ms is not None and not THINKERS & set(bots):
        return f"--think-ms is for the {', '.join(sorted(THINKERS))} bot, which is not playing"
    return None


def _cmd_tournament(args: argparse.Namespace) -> int:
    import protocol.rules as rules_pkg
    from peers.bots import tournament

    if args.rules != "bram":
        known = "" if args.rules in rules_pkg.RULESETS else " (no such rules)"
        return _fail(f"tournament: only bram has tournaments, not {args.rules!r}{known}")
    bots = args.bots.split(",")
    if len(bots) != 2:
        return _fail("tournament: --bots takes two bot names, like strong,greedy")
    problem = _bot_problem(bots, args.rules, args.think_ms)
    if problem:
        return _fail(f"tournament: {problem}")
    from peers.bots.registry import THINKERS

    nodes: list[int | None] = [None, None]
    if args.nodes is not None:
        try:
            values = [positive_int(n) for n in args.nodes.split(",")]
        except argparse.ArgumentTypeError as exc:
            return _fail(f"tournament: --nodes: {exc}")
        if len(values) not in (1, 2):
            return _fail("tournament: --nodes takes one budget, or two (A's,B's)")
        nodes = [values[0], values[-1]]
        if args.think_ms is not None:
            return _fail("tournament: give --nodes or --think-ms, not both")
        thinking = [b in THINKERS for b in bots]
        if not any(thinking) or (len(values) == 2 and not all(thinking)):
            return _fail(f"tournament: --nodes is for the {', '.join(sorted(THINKERS))} "
                         "bot: one budget for the bots that think, or two when both do")
        nodes = [n if t else None for n, t in zip(nodes, thinking, strict=True)]
    from protocol.rules.bram import DEFAULT_KOMI_HALVES

    komi = DEFAULT_KOMI_HALVES if args.komi is None else args.komi
    spec = tournament.Spec((bots[0], bots[1]), komi, args.seed, (nodes[0], nodes[1]),
                           args.think_ms)
    pairs = tournament.run_pairs(spec, args.hands, args.jobs, tournament.Progress(args.hands))
    result = tournament.summarize(spec, pairs)
    print(json.dumps(result, indent=2) if args.json else tournament.render(result))
    return EXIT_OK


def _cmd_verify(args: argparse.Namespace) -> int:
    from peers.table.report import account
    from protocol.verifier import replay

    data = _read(args.file)
    if data is None:
        return EXIT_USAGE
    from protocol.match import MATCH_MAGIC, verify_match

    if data.startswith(MATCH_MAGIC):
        from peers.table.report import match_account

        result = verify_match(data)
        print(json.dumps(result.to_json(), indent=2) if args.json else match_account(result))
        return result.exit_code
    verdict = replay(data)
    print(json.dumps(verdict.to_json(), indent=2) if args.json else account(verdict))
    return verdict.exit_code


def _cmd_dispute(args: argparse.Namespace) -> int:
    from protocol.verifier import dispute_package

    data = _read(args.file)
    if data is None:
        return EXIT_USAGE
    try:
        package = dispute_package(data, args.frame)
    except DealerlessError as exc:
        return _fail(f"dispute: {exc.detail or exc.code}", EXIT_INVALID)
    try:
        Path(args.out).write_bytes(package)
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror}")
    print(f"wrote the dispute package for frame {args.frame} to {args.out} "
          f"({len(package)} bytes)")
    return EXIT_OK


def _cmd_check_step(args: argparse.Namespace) -> int:
    from protocol.verifier import check_step

    data = _read(args.package)
    if data is None:
        return EXIT_USAGE
    try:
        trusted = bytes.fromhex(args.state_hash) if args.state_hash else None
    except ValueError:
        return _fail("check-step: --state-hash takes 64 hex digits")
    try:
        verdict = check_step(data, trusted)
    except DealerlessError as exc:
        return _fail(f"check-step: not a usable dispute package: {exc}", EXIT_INVALID)
    v = verdict.violation
    result = {"frame": verdict.index, "valid": verdict.valid,
              "violation": None if v is None else {"seat": v.seat, "frame": v.frame,
                                                   "rule": v.code, "detail": v.detail,
                                                   "authenticated": v.authenticated},
              "next_state_hash": verdict.next_state_hash.hex() if verdict.next_state_hash
              else None}
    if args.json:
        print(json.dumps(result, indent=2))
    elif v is None:
        print(f"frame {verdict.index}: valid step; next state hash "
              f"{result['next_state_hash']}")
    else:
        from peers.table.report import violation_text

        # Not authenticated: the frame or the package may be forged; nobody is blamed (11.4).
        text = violation_text(v, "frame or package")
        print(text if v.frame is not None else f"frame {verdict.index}: {text}")
    return EXIT_OK if v is None else EXIT_INVALID


def _cmd_play(args: argparse.Namespace) -> int:
    problem = _bot_problem([args.vs], "bram", args.think_ms)
    if problem:
        return _fail(f"play: {problem}")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return _fail("play: needs a terminal to show the table; for a game between bots "
                     "without one, run `dealerless selfplay`")
    from peers.ui.terminal import run_play  # Textual loads only for the commands that show it

    return run_play(args)


def _game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=None,
                   help="reproducible game from this seed (tests and demos only: anyone "
                        "who knows the seed knows every secret)")
    p.add_argument("--komi", type=parse_komi, default=None,
                   help="pips (whole or half) added to the first player's total (default: "
                        "the rules' own, spec/rules/bram.md section 11)")


def positive_int(text: str) -> int:
    """An argparse type: a whole number from 1 to 10**9."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 10**9:
        raise argparse.ArgumentTypeError(f"{text!r}: must be at least 1")
    return value


def _think_option(p: argparse.ArgumentParser, note: str = "") -> None:
    from peers.cli.network import think_ms

    p.add_argument("--think-ms", type=think_ms, default=None, metavar="MS",
                   help="the strong bot's thinking time a move, in milliseconds, instead of "
                        f"its fixed node budget{note}")


def build_parser() -> argparse.ArgumentParser:
    import protocol.rules as rules_pkg
    from peers.cli.network import ENVIRONMENT, HOME_HELP
    from peers.table.selfplay import SET_NAMES

    parser = argparse.ArgumentParser(
        prog="dealerless",
        description="Fair-play referee for remote tile games with no trusted dealer.",
        epilog=ENVIRONMENT, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"dealerless {_version()}")
    parser.add_argument("--home", default=None, help=HOME_HELP)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("bench", help="measure group operations, proofs, a game, and floors")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--reps", type=int, default=9, help="runs per step (median taken)")
    p.add_argument("--sizes", default="28,55,91", help="deck sizes among 28,55,91")
    p.add_argument("--no-game", action="store_true",
                   help="skip the full-game and table figures")
    p.add_argument("--seats", type=int, default=8, choices=range(2, 9), metavar="K",
                   help="seats at the Mexican Train table measured (default 8)")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("selfplay", help="play a complete game between local bots")
    p.add_argument("--rules", default="bram", choices=sorted(rules_pkg.RULESETS))
    p.add_argument("--seats", type=int, default=2, choices=range(2, 9), metavar="K",
                   help="number of seats, 2-8 (bram: 2)")
    p.add_argument("--set", default=None, choices=SET_NAMES,
                   help="the domino set, for rules that offer several (mineshaft)")
    p.add_argument("--map", default=None, metavar="FILE",
                   help="a map file, for rules played on one (mined-games; format in "
                        "spec/rules/mined-games.md 2.2); its text enters the game id")
    p.add_argument("--out", required=True, help="transcript file to write")
    p.add_argument("--match", action="store_true",
                   help="play a whole match, every round from the highest double down to "
                        "0-0, into one match file (mexican-train, or mineshaft's long "
                        "variant)")
    p.add_argument("--bots", default=None,
                   help="bot names, one for every seat or one for all: greedy, random, "
                        "strong (bram only) (default: greedy and random in turn)")
    _game_options(p)
    _think_option(p)
    p.set_defaults(func=_cmd_selfplay)

    p = sub.add_parser("tournament",
                       help="duplicate deals between two bots, on the rules alone (no keys, "
                            "shuffles or proofs)")
    p.add_argument("--rules", default="bram", help="the rules (bram only)")
    p.add_argument("--bots", required=True,
                   help="two bot names, A,B: A's results are reported, like strong,greedy")
    p.add_argument("--hands", type=positive_int, default=100, metavar="N",
                   help="deals, each played twice with the seats swapped (default 100)")
    p.add_argument("--komi", type=parse_komi, default=None,
                   help="pips (whole or half) added to the first player's total (default: "
                        "the rules' own, spec/rules/bram.md section 11)")
    p.add_argument("--seed", type=int, default=1,
                   help="seed of the deals and of the bots' randomness (default 1)")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="J",
                   help="worker processes (default 1)")
    p.add_argument("--nodes", default=None, metavar="N[,N]",
                   help="the strong bot's search budget a move, in nodes (deterministic); "
                        "two values give bot A's and bot B's")
    _think_option(p, " (results then depend on the machine's speed)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_tournament)

    p = sub.add_parser("verify", help="replay a transcript and print the verdict")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_verify)

    p = sub.add_parser("dispute", help="write the dispute package of one frame")
    p.add_argument("file")
    p.add_argument("frame", type=int, help="frame index N (0-based)")
    p.add_argument("--out", required=True, help="package file to write")
    p.set_defaults(func=_cmd_dispute)

    p = sub.add_parser("check-step", help="judge one frame from its dispute package alone")
    p.add_argument("package")
    p.add_argument("--state-hash", default=None,
                   help="the committed state hash you hold (hex); without it a state-hash "
                        "mismatch is reported as not authenticated")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_check_step)

    p = sub.add_parser("play", help="play a game in the terminal against a local bot")
    p.add_argument("--vs", default="greedy", choices=["greedy", "random", "strong"],
                   help="the bot to play against")
    _game_options(p)
    _think_option(p)
    p.add_argument("--seat", type=int, choices=[0, 1], default=0, help="your seat")
    p.add_argument("--out", default="dealerless-game.transcript", help="transcript file")
    p.set_defaults(func=_cmd_play)

    from peers.cli.keys import add_key_commands
    from peers.cli.network import add_network_commands
    add_network_commands(sub, parse_komi)
    add_key_commands(sub)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dealerless")
    except PackageNotFoundError:
        return "unknown (not installed)"


def _home_problem(home: str | None) -> str | None:
    """A data directory that exists but is no directory cannot hold keys or games."""
    from peers.keys import resolve_home

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
        return _fail(problem)
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # The reader went away (`dealerless verify g.t | head`): stop quietly, as a
        # program killed by SIGPIPE would, and keep the exit from flushing into it again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
