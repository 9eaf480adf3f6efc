"""The `dealerless` argument parser: every command, its arguments and their help."""

from __future__ import annotations

import argparse
from typing import Any

import protocol.rules as rules_pkg
from peers.bots.registry import BOTS
from peers.cli import local, network, saved, web
from peers.cli.keys import add_key_commands
from peers.cli.options import (
    ENVIRONMENT,
    HOME_HELP,
    count,
    home_option,
    invitation_arg,
    ipv4_prefix,
    ipv6_prefix,
    listen_address,
    non_negative_seconds,
    parse_hostport,
    parse_komi,
    port_number,
    positive_int,
    positive_seconds,
    probability,
    relay_base,
    seat_count,
    think_ms,
    work_bits,
)
from peers.net.config import MAX_SEATS, MIN_SEATS
from peers.net.relay_limits import limit_flags
from peers.table.selfplay import SET_NAMES
from protocol.suite import DEFAULT, SUITE_NAMES


def _suite_option(p: argparse.ArgumentParser, what: str = "the ciphersuite of the game") \
        -> None:
    p.add_argument("--suite", default=DEFAULT, choices=SUITE_NAMES,
                   help=f"{what} (spec/03-hashing.md 3.5; default {DEFAULT}; "
                        "bls12381g1-sha256 is the one chains check natively)")


def _game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=None,
                   help="reproducible game from this seed (tests and demos only: anyone "
                        "who knows the seed knows every secret)")
    p.add_argument("--komi", type=parse_komi, default=None,
                   help="pips (whole or half) added to the first player's total (default: "
                        "the rules' own, spec/rules/bram.md section 11)")


def _think_option(p: argparse.ArgumentParser, note: str = "") -> None:
    p.add_argument("--think-ms", type=think_ms, default=None, metavar="MS",
                   help="the strong bot's thinking time a move, in milliseconds, instead of "
                        f"its fixed node budget{note}")


def build_parser() -> argparse.ArgumentParser:
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
    p.add_argument("--relay", type=positive_int, default=None, metavar="GAMES",
                   help="instead: run a relay process, put GAMES games at once through it "
                        "(lightweight seats, spec/09-bench.md 9.4) and report its CPU time "
                        "and memory per game")
    p.add_argument("--verify", default=None, metavar="MATCH",
                   help="instead: time `verify` of the match file MATCH with 1 job and with "
                        "--jobs jobs (spec/09-bench.md 9.5; median of --reps runs, at most "
                        "3) and report the speed-up")
    p.add_argument("--jobs", type=positive_int, default=2, metavar="N",
                   help="worker processes for --verify (default 2)")
    p.set_defaults(func=local.cmd_bench)

    p = sub.add_parser("selfplay", help="play a complete game between local bots")
    p.add_argument("--rules", default="bram", choices=sorted(rules_pkg.RULESETS))
    p.add_argument("--seats", type=int, default=None, choices=range(2, 9), metavar="K",
                   help="number of seats, 2-8 as the rules allow (default: the rules' own, "
                        "5 for mined-games, else 2)")
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
    _suite_option(p)
    _game_options(p)
    _think_option(p)
    p.set_defaults(func=local.cmd_selfplay)

    p = sub.add_parser("tournament",
                       help="duplicate deals between two bots, on the rules alone (no keys, "
                            "shuffles or proofs)")
    p.add_argument("--rules", default="bram", help="the rules (bram only)")
    p.add_argument("--bots", required=True,
                   help="two bot names, A,B: A's results are reported, like strong,greedy")
    p.add_argument("--hands", type=positive_int, default=100, metavar="N",
                   help="deals, each played twice as --design says (default 100)")
    p.add_argument("--design", choices=("seats", "first"), default="seats",
                   help="what changes between a deal's two games: seats, the bots swap "
                        "seats (to compare two bots; the default); first, the same hands "
                        "with the other seat moving first (the first player's edge, komi)")
    p.add_argument("--komi", type=parse_komi, default=None,
                   help="pips (whole or half) added to the first player's total (default: "
                        "the rules' own, spec/rules/bram.md section 11)")
    p.add_argument("--seed", type=int, default=1,
                   help="seed of the deals and of the bots' randomness (default 1)")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="J",
                   help="worker processes (default 1)")
    p.add_argument("--dask", default=None, metavar="ADDRESS",
                   help="play the deals on the workers of the Dask scheduler at ADDRESS, "
                        "like tcp://HOST:8786, instead of --jobs (needs dealerless[cluster] "
                        "here and on the workers)")
    p.add_argument("--nodes", default=None, metavar="N[,N]",
                   help="the strong bot's search budget a move, in nodes (deterministic); "
                        "two values give bot A's and bot B's")
    _think_option(p, " (results then depend on the machine's speed)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=local.cmd_tournament)

    p = sub.add_parser(
        "verify", help="replay a transcript and print the verdict",
        description="Replay transcripts and match files from nothing and print each "
                    "verdict (spec/11-verify.md 11.1). The exit code is the worst verdict: "
                    "1 if a file is invalid, else 2 if a file cannot be read, else 3 if a "
                    "game is a valid prefix, else 0. Progress goes to stderr.")
    p.add_argument("file", nargs="+",
                   help="a transcript file (a game) or a match file (its rounds); several "
                        "are verified together")
    p.add_argument("--json", action="store_true",
                   help="print the verdict as JSON: one object for one file, one line "
                        "with a \"file\" key per file for several")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                   help="verify the games (each transcript, and each round of a match) on "
                        "N worker processes (default 1: in this process)")
    p.add_argument("--dask", default=None, metavar="ADDRESS",
                   help="verify on the workers of the Dask scheduler at ADDRESS, like "
                        "tcp://HOST:8786, instead of --jobs (needs dealerless[cluster] "
                        "here and on the workers; default: no cluster)")
    p.set_defaults(func=local.cmd_verify)

    p = sub.add_parser(
        "dispute", help="write the dispute package of one frame",
        description="Write the dispute package of one frame: the frame, the state before it "
                    "and what a third party needs to judge that step alone with `dealerless "
                    "check-step` (spec/11-verify.md 11.3).")
    p.add_argument("file", help="a transcript file, or a match file with --round")
    p.add_argument("frame", type=int, help="the frame's index N in its game (0-based)")
    p.add_argument("--out", required=True, help="the package file to write (required)")
    p.add_argument("--round", type=positive_int, default=None, metavar="R",
                   help="for a match file: the round (1-based) whose frame N is disputed "
                        "(default: none; a match file needs it)")
    p.set_defaults(func=local.cmd_dispute)

    p = sub.add_parser("check-step", help="judge one frame from its dispute package alone")
    p.add_argument("package")
    p.add_argument("--state-hash", default=None,
                   help="the committed state hash you hold (hex); without it a state-hash "
                        "mismatch is reported as not authenticated")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--vm", choices=["clvm", "evm"], default=None,
                   help="run the check as a chain does: clvm, the Chialisp program on Chia's "
                        "VM, or evm, the contracts on the EVM at Prague (games of bram in "
                        "bls12381g1-sha256; needs dealerless[chain]); prints its cost too")
    p.set_defaults(func=local.cmd_check_step)

    p = sub.add_parser("play", help="play a game in the terminal against a local bot")
    p.add_argument("--vs", default="greedy", choices=["greedy", "random", "strong"],
                   help="the bot to play against")
    _game_options(p)
    p.add_argument("--think-ms", type=think_ms, default=None, metavar="MS",
                   help="the strong bot's thinking time a move, in milliseconds (default "
                        "1000)")
    p.add_argument("--seat", type=int, choices=[0, 1], default=0, help="your seat")
    p.add_argument("--out", default="dealerless-game.transcript", help="transcript file")
    p.set_defaults(func=local.cmd_play)

    add_network_commands(sub)
    add_key_commands(sub)
    return parser


def _seat_options(p: argparse.ArgumentParser) -> None:
    home_option(p)
    p.add_argument("--bot", choices=sorted(BOTS), default=None,
                   help="let a bot play this seat (default: you, in the terminal UI); "
                        "strong plays bram only")
    p.add_argument("--think-ms", type=think_ms, default=None, metavar="MS",
                   help="the strong bot's thinking time a move, in milliseconds (default "
                        "1000)")
    p.add_argument("--timeout", type=positive_seconds, default=300.0,
                   help="seconds to wait for the opponent's next frame (default 300)")


def add_network_commands(sub: Any) -> None:
    seat = {"epilog": ENVIRONMENT, "formatter_class": argparse.RawDescriptionHelpFormatter}
    p = sub.add_parser("host", help="host a game: print an invitation and wait for a player",
                       **seat)
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--listen", type=parse_hostport, help="HOST:PORT to listen on")
    where.add_argument("--relay", type=relay_base,
                       help="relay URL, e.g. ws://relay.example:8765")
    # The rule sets known when the parser is built (tests may register one of their own).
    p.add_argument("--rules", default="bram", choices=sorted(rules_pkg.RULESETS))
    p.add_argument("--seats", type=seat_count, default=None,
                   help=f"players at the table, host included ({MIN_SEATS} to {MAX_SEATS}, "
                        "as the rules allow; default: the rules' own, 5 for mined-games, "
                        "else 2)")
    p.add_argument("--komi", type=parse_komi, default=None,
                   help="pips (whole or half) added to the first player's total (default: "
                        "the rules' own, spec/rules/bram.md section 11)")
    p.add_argument("--set", default=None, choices=SET_NAMES,
                   help="the domino set, for rules that offer several (mineshaft)")
    p.add_argument("--map", default=None, metavar="FILE",
                   help="a map file, for rules played on one (mined-games; format in "
                        "spec/rules/mined-games.md 2.2)")
    _suite_option(p, "the ciphersuite of the table: every joiner plays it, and one started "
                     "with another --suite is refused")
    _seat_options(p)
    p.set_defaults(func=network.cmd_host)

    p = sub.add_parser("join", help="join a game from its invitation URL", **seat)
    p.add_argument("url", type=invitation_arg,
                   help="the invitation: ws://...#PIN.SEAT.ROOM.SECRET, as the host "
                        "printed it for your seat")
    p.add_argument("--suite", default=None, choices=SUITE_NAMES,
                   help="play only a table of this ciphersuite (spec/03-hashing.md 3.5), and "
                        "leave one the host plays in another, naming both (default: the "
                        "host's suite, shown when the game starts)")
    p.set_defaults(komi=0)
    _seat_options(p)
    p.set_defaults(func=network.cmd_join)

    p = sub.add_parser("resume", help="resume a stopped or crashed game", **seat)
    p.add_argument("game", help="game id or any unambiguous prefix of it (see `dealerless "
                                "games`), or the path of its database")
    p.set_defaults(komi=0)
    _seat_options(p)
    p.set_defaults(func=network.cmd_resume)

    p = sub.add_parser(
        "games", help="list local games and their state",
        description="List the games stored in the data directory: each game's id, your "
                    "seat, its frames and state, its rules in words and the other seats "
                    "(by the name you trust their key under, else its fingerprint). Give an "
                    "id, or any unambiguous prefix of it, to `resume` or `export`.")
    p.add_argument("--json", action="store_true",
                   help="print one JSON list: game_id, seat, status, frames, path, rules, "
                        "params and opponents (seat, fingerprint, name or null) of each game")
    home_option(p)
    p.set_defaults(func=saved.cmd_games)

    p = sub.add_parser("export", help="write a local game's transcript file")
    p.add_argument("game", help="game id or any unambiguous prefix of it, or a database path")
    p.add_argument("file")
    home_option(p)
    p.set_defaults(func=saved.cmd_export)

    p = sub.add_parser("web", help="play in the browser: start this machine's own peer and "
                                   "open its page")
    p.add_argument("--port", type=port_number, default=0,
                   help="the port on 127.0.0.1 to serve the page on (default 0: any free "
                        "port)")
    p.add_argument("--no-open", action="store_true",
                   help="print the page's address instead of opening a browser")
    _suite_option(p, "the ciphersuite the page offers first for a new table, against bots "
                     "or hosted (its Advanced settings choose another; joining plays the "
                     "host's unless they name one)")
    home_option(p)
    p.set_defaults(func=web.cmd_web)

    p = sub.add_parser("seat", help="write the browser seat as one self-contained HTML file",
                       description="The seat a relay serves at /seat/, as one file to open "
                                   "from disk (spec/12-peers.md 12.9); prints its SHA-256 "
                                   "and the code hash its page shows.")
    p.add_argument("file", help="where to write it")
    p.set_defaults(func=web.cmd_seat)

    p = sub.add_parser(
        "relay", help="run an untrusted store-and-forward relay",
        description="Serve ws://HOST:PORT/room/<rendezvous id> for hosts and joiners who "
                    "cannot reach each other (spec/12-peers.md 12.5). The relay verifies "
                    "nothing and can forge nothing. It logs one line per room event on "
                    "stderr, and GET http://HOST:PORT/stats answers its counters as JSON.")
    p.add_argument("--listen", type=listen_address, required=True, metavar="HOST:PORT",
                   help="the address and port to serve on (port 0: any free port; :PORT "
                        "serves every interface, IPv4 and IPv6)")
    special = {"work_bits": work_bits, "ipv4_prefix": ipv4_prefix, "ipv6_prefix": ipv6_prefix}
    for name, flag, default, meaning in limit_flags():
        kind = positive_seconds if isinstance(default, float) else special.get(name, count)
        p.add_argument(flag, dest=name, type=kind, default=default,
                       metavar="SECONDS" if kind is positive_seconds else "N",
                       help=f"{meaning} (default {default:g})" if kind is positive_seconds
                       else f"{meaning} (default {default})")
    p.add_argument("--suite", action="append", choices=SUITE_NAMES, default=None,
                   help="admit only rooms of this ciphersuite (spec/03-hashing.md 3.5): a "
                        "host says its table's when it opens a room, a room for another is "
                        "refused (HTTP 403, naming both) and a room whose host hello names "
                        "another is freed; give it again to admit several (default: every "
                        "suite)")
    p.add_argument("--stats-every", type=non_negative_seconds, default=60.0,
                   metavar="SECONDS",
                   help="log the counters this often when they have changed (default 60; "
                        "0: never)")
    for name in ("drop", "dup", "reorder"):
        p.add_argument(f"--chaos-{name}", type=probability, default=0.0, metavar="P",
                       help=f"testing only: probability to {name} a forwarded message "
                            "(default 0)")
    p.add_argument("--chaos-seed", type=int, default=None, metavar="N",
                   help="testing only: seed of the chaos (default: a random one)")
    p.set_defaults(func=network.cmd_relay)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dealerless")
    except PackageNotFoundError:
        return "unknown (not installed)"
