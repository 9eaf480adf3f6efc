"""Commands that need no network and no data directory: selfplay, tournament, verify,
dispute, check-step, play and bench (spec/11-verify.md 11.1 lists the exit codes)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from peers.cli.options import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    fail,
    positive_int,
    read_map,
)
from peers.cli.progress import Progress
from protocol.errors import DealerlessError
from protocol.suite import suite
from protocol.version import PROTOCOL


def _read(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        print(f"dealerless: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return None


def cmd_bench(args: argparse.Namespace) -> int:
    from peers.bench import measure as bench
    from peers.bench.steps import SETS

    if args.verify is not None:
        return _bench_verify(args)
    if args.relay is not None:
        from peers.bench.relay_load import measure_relay
        from peers.bench.render import render_relay

        with Progress("bench relay", "steps") as progress:
            figures = measure_relay(args.relay, progress=progress)
        print(json.dumps(figures, indent=2, sort_keys=True) if args.json
              else render_relay(figures))
        return EXIT_OK

    try:
        sizes = tuple(int(n) for n in args.sizes.split(","))
    except ValueError:
        sizes = ()
    if not sizes or any(n not in SETS for n in sizes) or args.reps < 1:
        return fail(f"bench: --sizes takes values from {sorted(SETS)}; --reps >= 1")
    from peers.bench.render import render

    with Progress("bench", "steps") as progress:
        result = bench.run(reps=args.reps, sizes=sizes, game=not args.no_game,
                           table_seats=args.seats, progress=progress)
    print(json.dumps(result, indent=2, sort_keys=True) if args.json else render(result))
    return EXIT_OK


def _bench_verify(args: argparse.Namespace) -> int:
    from peers.bench.parallel import measure_parallel_verify
    from peers.bench.render import render_parallel

    data = _read(args.verify)
    if data is None:
        return EXIT_USAGE
    if args.jobs < 2 or args.reps < 1:
        return fail("bench: --verify needs --jobs 2 or more, and --reps 1 or more")
    try:
        with Progress("bench verify", "runs") as progress:
            figures = measure_parallel_verify(data, args.jobs, min(args.reps, 3), progress)
    except DealerlessError as exc:
        return fail(f"bench: {args.verify}: {exc.detail or exc.code}")
    print(json.dumps(figures, indent=2, sort_keys=True) if args.json
          else render_parallel(figures, args.verify))
    return EXIT_OK


def cmd_selfplay(args: argparse.Namespace) -> int:
    from peers.table.report import summary
    from peers.table.selfplay import default_seats, selfplay

    if args.seats is None:
        args.seats = default_seats(args.rules)
    bots = args.bots.split(",") if args.bots else ["greedy", "random"]
    if len(bots) == 1:
        bots *= args.seats
    elif len(bots) == 2 and args.seats > 2 and args.bots is None:
        bots = [bots[s % 2] for s in range(args.seats)]
    if len(bots) != args.seats:
        return fail(f"selfplay: --bots takes one bot name, or {args.seats} (one a seat), "
                     "like greedy,random")
    problem = _bot_problem(bots, args.rules, args.think_ms)
    if problem:
        return fail(f"selfplay: {problem}")
    from peers.table.selfplay import rule_params

    try:
        mine_map = None if args.map is None else read_map(args.map)
        params = rule_params(args.rules, args.seats, args.komi, args.set, mine_map)
    except ValueError as exc:
        return fail(f"selfplay: {exc}")
    if args.match:
        return _selfplay_match(args, params, bots)
    try:
        with Progress(f"selfplay {args.rules}", "frames") as progress:
            transcript = selfplay(args.rules, params, bots, args.seed, args.think_ms,
                                  lambda frames: progress(frames),
                                  suite(args.suite, PROTOCOL))
    except DealerlessError as exc:
        return fail(f"selfplay: {exc}")
    data = transcript.encode()
    try:
        Path(args.out).write_bytes(data)
    except OSError as exc:
        return fail(f"cannot write {args.out}: {exc.strerror}")
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
        return fail(f"selfplay: {args.rules} is played one round at a time (no --match)")
    def tick(done: int, total: int, frames: int) -> None:
        progress(done, total, f"round {done + 1} at frame {frames}")

    try:
        with Progress(f"selfplay {args.rules} match", "rounds") as progress:
            rounds = selfplay_match(args.rules, dict(params), bots, args.seed, tick,
                                    suite(args.suite, PROTOCOL))
            progress(len(rounds), len(rounds), "")
    except DealerlessError as exc:
        return fail(f"selfplay: {exc}")
    data = encode_match(rounds)
    try:
        Path(args.out).write_bytes(data)
    except OSError as exc:
        return fail(f"cannot write {args.out}: {exc.strerror}")
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


def cmd_tournament(args: argparse.Namespace) -> int:
    import protocol.rules as rules_pkg
    from peers.bots import tournament

    if args.rules != "bram":
        known = "" if args.rules in rules_pkg.RULESETS else " (no such rules)"
        return fail(f"tournament: only bram has tournaments, not {args.rules!r}{known}")
    bots = args.bots.split(",")
    if len(bots) != 2:
        return fail("tournament: --bots takes two bot names, like strong,greedy")
    problem = _bot_problem(bots, args.rules, args.think_ms)
    if problem:
        return fail(f"tournament: {problem}")
    from peers.bots.registry import THINKERS

    nodes: list[int | None] = [None, None]
    if args.nodes is not None:
        try:
            values = [positive_int(n) for n in args.nodes.split(",")]
        except argparse.ArgumentTypeError as exc:
            return fail(f"tournament: --nodes: {exc}")
        if len(values) not in (1, 2):
            return fail("tournament: --nodes takes one budget, or two (A's,B's)")
        nodes = [values[0], values[-1]]
        if args.think_ms is not None:
            return fail("tournament: give --nodes or --think-ms, not both")
        thinking = [b in THINKERS for b in bots]
        if not any(thinking) or (len(values) == 2 and not all(thinking)):
            return fail(f"tournament: --nodes is for the {', '.join(sorted(THINKERS))} "
                         "bot: one budget for the bots that think, or two when both do")
        nodes = [n if t else None for n, t in zip(nodes, thinking, strict=True)]
    from protocol.rules.bram import DEFAULT_KOMI_HALVES

    komi = DEFAULT_KOMI_HALVES if args.komi is None else args.komi
    spec = tournament.Spec((bots[0], bots[1]), komi, args.seed, (nodes[0], nodes[1]),
                           args.think_ms, args.design)
    if args.dask is not None and args.jobs != 1:
        return fail("tournament: give --jobs or --dask, not both")
    from peers.cli.workers import pool

    try:
        with pool(args.jobs, args.dask) as executor, \
                Progress(f"tournament {bots[0]} vs {bots[1]}", "deals", args.hands) as progress:
            pairs = tournament.run_pairs(spec, args.hands, args.jobs,
                                         lambda done: progress(done, args.hands), executor)
    except UsageError as exc:
        return fail(f"tournament: {exc}")
    result = tournament.summarize(spec, pairs)
    print(json.dumps(result, indent=2) if args.json else tournament.render(result))
    return EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    from peers.cli.verify import run

    if args.dask is not None and args.jobs != 1:
        return fail("verify: give --jobs or --dask, not both")
    try:
        return run(args.file, args.jobs, args.dask, args.json)
    except UsageError as exc:
        return fail(f"verify: {exc}")


def cmd_dispute(args: argparse.Namespace) -> int:
    from protocol.verifier import dispute_package

    data = _read(args.file)
    if data is None:
        return EXIT_USAGE
    from protocol.match import MATCH_PREFIX, decode_match

    if data.startswith(MATCH_PREFIX):   # a round of a match is a game of its own (11.5)
        try:
            rounds = decode_match(data)
        except DealerlessError as exc:
            return fail(f"dispute: {exc.detail or exc.code}", EXIT_INVALID)
        if args.round is None or not 1 <= args.round <= len(rounds):
            return fail(f"dispute: {args.file} is a match of {len(rounds)} rounds, each a game "
                        f"of its own: give --round R (1 to {len(rounds)}) to dispute frame "
                        f"{args.frame} of round R")
        data = rounds[args.round - 1]
    elif args.round is not None:
        return fail(f"dispute: {args.file} is one game, not a match: no --round")
    try:
        package = dispute_package(data, args.frame)
    except DealerlessError as exc:
        return fail(f"dispute: {exc.detail or exc.code}", EXIT_INVALID)
    try:
        Path(args.out).write_bytes(package)
    except OSError as exc:
        return fail(f"cannot write {args.out}: {exc.strerror}")
    of = "" if args.round is None else f" of round {args.round}"
    print(f"wrote the dispute package for frame {args.frame}{of} to {args.out} "
          f"({len(package)} bytes)")
    return EXIT_OK


def cmd_check_step(args: argparse.Namespace) -> int:
    from protocol.verifier import check_step

    data = _read(args.package)
    if data is None:
        return EXIT_USAGE
    try:
        trusted = bytes.fromhex(args.state_hash) if args.state_hash else None
    except ValueError:
        return fail("check-step: --state-hash takes 64 hex digits")
    if args.vm:
        from peers.cli.chain import cmd_check_step_vm

        return cmd_check_step_vm(args, data, trusted)
    try:
        verdict = check_step(data, trusted)
    except DealerlessError as exc:
        return fail(f"check-step: not a usable dispute package: {exc}", EXIT_INVALID)
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


def cmd_play(args: argparse.Namespace) -> int:
    problem = _bot_problem([args.vs], "bram", args.think_ms)
    if problem:
        return fail(f"play: {problem}")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return fail("play: needs a terminal to show the table; for a game between bots "
                     "without one, run `dealerless selfplay`")
    from peers.ui.terminal import run_play  # Textual loads only for the commands that show it

    return run_play(args)
