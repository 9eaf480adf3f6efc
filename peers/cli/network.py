"""Network commands: host, join, resume and relay (spec/12-peers.md).

A game is hosted (`host --listen HOST:PORT`, or `host --relay URL` through a
relay) for 2 to 8 seats (`--seats K`, as the rules allow) and joined by K-1
players, each with the invitation printed for its seat. Each seat is a bot
(`--bot NAME`) or a person (the terminal UI). Results go to stdout, progress
to stderr; the exit code is the verdict's (0 complete, 1 violation, 3 stopped
waiting for a seat).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

from peers.bots.registry import BOTS, PERSON_THINK_MS, THINKERS, check_bot, make_bot
from peers.cli.options import (
    EXIT_FAILED,
    EXIT_INCOMPLETE,
    UsageError,
    fail,
    read_map,
)
from peers.keys import KeyStoreError, PassphraseError
from peers.net.announce import announcer
from peers.net.config import HOST, JOIN, PeerConfig, PeerError, PeerResult
from peers.net.driver import NetworkDriver
from peers.net.hosting import Hosting
from peers.net.invitation import (
    browser_link,
    dial_url,
    host_invitation,
    join_commands,
    parse_invitation,
)
from peers.net.launch import join_meta, open_host, open_join, reopen, url_host
from peers.net.link import Link, LinkError
from peers.net.peer import Peer
from peers.net.relay import Chaos, Limits
from peers.net.relay_limits import limit_flags
from peers.net.relay_run import run_relay
from peers.store.finding import GameNotFound, find_game
from peers.store.games import GameStore, StoreError
from peers.table.driver import (
    AsyncChooser,
    Event,
    LobbyEvent,
    NoticeEvent,
    SetupEvent,
    StepEvent,
)
from peers.table.report import headline
from peers.table.selfplay import default_seats, rule_params
from protocol.errors import DealerlessError, LocalError
from protocol.handshake_auth import room_secret
from protocol.verifier import replay

PASSPHRASE_HINT = ("set DEALERLESS_PASSPHRASE in the environment, or run from a terminal "
                   "to be asked")

#: Rule sets the terminal interface cannot show (it draws dominoes): bots only.
TERMINAL_RULES = frozenset({"bram"})


def no_terminal_table(command: str, rules: str) -> str:
    return (f"{command}: the terminal table draws Bram's game only; play {rules} in the "
            "browser with `dealerless web`, or add --bot NAME (one of "
            f"{', '.join(sorted(BOTS))}) to let a bot play this seat")


class NotStarted(Exception):
    """The person left before a game was agreed: there is nothing to resume (exit 3)."""


def home_dir(args: argparse.Namespace) -> Path:
    from peers import keys
    return keys.resolve_home(args.home)


def identity_of(args: argparse.Namespace) -> Any:
    """The user's identity key; made on first use, so that a first game just works."""
    from peers import keys
    if not keys.key_path(args.home).exists():
        summary = keys.generate(args.home)
        print(f"dealerless: made your identity key {summary.fingerprint} at "
              f"{summary.path} (see `dealerless key show`)", file=sys.stderr)
    passphrase = os.environ.get("DEALERLESS_PASSPHRASE")
    if passphrase is None and keys.is_encrypted(args.home) and sys.stdin.isatty():
        import getpass
        try:
            passphrase = getpass.getpass("passphrase for your identity key: ")
        except EOFError:
            passphrase = None
    try:
        return keys.load_identity(args.home, passphrase)
    except PassphraseError as exc:
        raise PassphraseError(f"{exc}: {PASSPHRASE_HINT}") from None


def _has_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _need_terminal(command: str, bot: str | None) -> None:
    """A person's seat draws the terminal UI: without a terminal it would wait forever."""
    if bot is None and not _has_terminal():
        raise UsageError(f"{command}: a person's seat needs a terminal; add --bot NAME "
                         f"(one of {', '.join(sorted(BOTS))}) to let a bot play it")


def host_params(rules: str, seats: int, komi: int | None, tile_set: str | None = None,
                map_file: str | None = None) -> dict[str, Any]:
    """The rule set's parameters from `host`'s options, or UsageError (see rule_params)."""
    try:
        mine_map = None if map_file is None else read_map(map_file)
        return rule_params(rules, seats, komi, tile_set, mine_map)
    except ValueError as exc:
        raise UsageError(f"host: {exc}") from None


def _setup_lines(event: SetupEvent) -> list[str]:
    if event.seats == 2:
        return [f"game {event.game_id[:16]}: you are seat {event.seat}; rules {event.rules}; "
                f"suite {event.suite}",
                f"opponent: {event.opponent}",
                f"short authentication string: {event.sas} (compare it with your opponent "
                "out of band)"]
    return [f"game {event.game_id[:16]}: {event.seats} seats, you are seat {event.seat}; "
            f"rules {event.rules}; suite {event.suite}",
            f"opponents: {event.opponent}",
            f"short authentication string: {event.sas} (compare it with all {event.seats - 1} "
            "opponents out of band: every player must see the same)"]


def _progress(event: Event) -> None:
    """Bot seats: notices on stdout, each verified step on stderr."""
    if isinstance(event, NoticeEvent):
        print(event.text, flush=True)
    elif isinstance(event, SetupEvent):
        print("\n".join(_setup_lines(event)), flush=True)
    elif isinstance(event, LobbyEvent) and event.seats > 2:
        print(f"dealerless: {sum(f is not None for f in event.joined)} of the "
              f"{event.seats - 1} players have joined",
              file=sys.stderr, flush=True)
    elif isinstance(event, StepEvent):
        print(f"  frame {event.seq:>3}  seat {event.seat}  {event.kind:<8} {event.note}",
              file=sys.stderr)


def _bot_chooser(name: str, think_ms: float | None = None) -> AsyncChooser:
    if think_ms is None and name in THINKERS:
        think_ms = PERSON_THINK_MS  # the other seat is most likely a person
    bot = make_bot(name, random.Random(), think_ms=think_ms)

    async def choose(view: Any) -> Any:
        return bot(view)
    return choose


async def _run(link: Link, config: PeerConfig, store: GameStore | None, bot: str | None,
               title: str, invitation: str | None = None,
               think_ms: float | None = None) -> PeerResult | None:
    if bot is not None:
        config.choose, config.notify = _bot_chooser(bot, think_ms), _progress
        return await Peer(link, config, store).run()
    if store is not None and store.setup.rules not in TERMINAL_RULES:
        raise UsageError(no_terminal_table(title, store.setup.rules))

    def refuse_without_interface(rules: str) -> None:
        # A joiner learns the rules from the host's offer: it leaves before taking a seat.
        if rules not in TERMINAL_RULES:
            raise PeerError(no_terminal_table(title, rules))

    config.offer_check = refuse_without_interface
    from peers.ui.terminal import PlayApp
    driver = NetworkDriver(link, config, store)
    app = PlayApp(driver, title=title, invitation=invitation,
                  komi_halves=config.params.get("komi_halves"))
    await app.run_async()
    await link.close()  # again if the peer closed it: the person may have left mid-close
    if app.error is not None:  # shown in the UI; _guard prints it and picks the exit code
        raise app.error
    if driver.result is None and not driver.started:
        raise NotStarted("quit before any game was agreed; nothing was saved")
    return driver.result


def _report(result: PeerResult | None) -> int:
    if result is None:
        print("dealerless: stopped before the end; `dealerless resume` continues the game "
              "(see `dealerless games`)", file=sys.stderr)
        return 3
    print(headline(result.verdict))
    print(result.message)
    print(f"game database: {result.path}")
    return result.verdict.exit_code


def _config(args: argparse.Namespace, role: str, meta: dict[str, str], identity: Any,
            params: dict[str, Any] | None = None) -> PeerConfig:
    home = home_dir(args)
    async def unset(_v: Any) -> Any:
        raise PeerError("no chooser")
    config = PeerConfig(games_dir=home / "games", role=role, identity=identity,
                        choose=unset, notify=_progress, rules=getattr(args, "rules", "bram"),
                        params=params or {}, move_timeout=args.timeout,
                        meta={**meta, "bot": args.bot or ""})
    config.on_setup = announcer(home, config)
    return config


def _retrying(url: str) -> Any:
    def say(text: str) -> None:
        print(f"dealerless: {url}: {text}", file=sys.stderr, flush=True)
    return say


def cmd_host(args: argparse.Namespace) -> int:
    if args.seats is None:
        args.seats = default_seats(args.rules)
    try:
        params = host_params(args.rules, args.seats, args.komi, args.set, args.map)
        _check_bot_options(args, args.rules)
    except UsageError as exc:
        return fail(str(exc))
    if args.rules not in TERMINAL_RULES and args.bot is None:
        return fail(no_terminal_table("host", args.rules))

    async def main() -> PeerResult | None:
        # In this order: what the network says (at once), then the seat and the key, and
        # only then the invitation, so that nobody is invited to a game that cannot start.
        where = args.relay or "the network"
        table = f"relay {args.relay}" if args.relay else \
            f"listen {url_host(args.listen[0])}:{args.listen[1]}"
        hosting = Hosting.take_up(home_dir(args), args.rules, params, table, args.timeout,
                                  args.suite)
        opened = await open_host(args.relay, args.listen, _retrying(where),
                                 room_secret(hosting.secret),
                                 hosting.meta if hosting.taken_up else None, args.suite)
        hosting.meta = opened.meta
        _need_terminal("host", args.bot)
        identity = identity_of(args)
        invitation = host_invitation(opened.url, identity.public_key, hosting.secret)
        commands = join_commands(invitation, opened.url, args.seats)
        if hosting.taken_up:
            print("dealerless: taking up the table this home was hosting when it stopped, "
                  f"in round {hosting.round} of its handshake: the invitations are the same "
                  f"(to host a new table instead, remove {hosting.path})",
                  file=sys.stderr, flush=True)
        for seat, command in enumerate(commands, 1):
            print(f"invitation: {command}" if len(commands) == 1 else
                  f"invitation for seat {seat}: {command}", flush=True)
            if link := browser_link(command, args.relay):
                print(f"  or in a browser, with nothing to install: {link}", flush=True)
        if len(commands) > 1:
            print(f"dealerless: a table of {args.seats}: give each of the {args.seats - 1} "
                  "other players their own invitation (one holder, one seat)",
                  file=sys.stderr, flush=True)
        if opened.note:
            print(f"dealerless: {opened.note}", file=sys.stderr, flush=True)
        config = _config(args, HOST, opened.meta, identity, params)
        config.hosting, config.invitation, config.suite = hosting, invitation, args.suite
        return await _run(opened.link, config, None, args.bot,
                          "dealerless host", commands[0], args.think_ms)
    return _guard(main)


def cmd_join(args: argparse.Namespace) -> int:
    try:
        _check_bot_options(args, None)
    except UsageError as exc:
        return fail(str(exc))

    async def main() -> PeerResult | None:
        invitation = parse_invitation(args.url)   # an incomplete one, before dialling
        link = await open_join(args.url, _retrying(dial_url(args.url)),  # before any UI
                               home_dir(args), args.timeout)
        _need_terminal("join", args.bot)
        identity = identity_of(args)
        config = _config(args, JOIN, join_meta(args.url), identity)
        config.invitation, config.suite = invitation, args.suite
        return await _run(link, config, None, args.bot, "dealerless join", None,
                          args.think_ms)
    return _guard(main)


def cmd_resume(args: argparse.Namespace) -> int:
    try:
        _check_bot_options(args, None)
    except UsageError as exc:
        return fail(str(exc))

    async def main() -> PeerResult | None:
        store = GameStore.open(find_game(home_dir(args) / "games", args.game))
        done = replay(store.transcript().encode())
        if done.complete or not done.valid:  # nothing is owed: no need to reach anyone
            return PeerResult(done, store.path, "the game is already over; nothing to "
                              "resume (`dealerless export` writes its transcript)")
        role = store.meta("role")
        bot = args.bot or store.meta("bot") or None
        if bot is None and store.setup.rules not in TERMINAL_RULES:
            raise UsageError(no_terminal_table("resume", store.setup.rules))
        _need_terminal("resume", bot)
        identity = identity_of(args)
        link = await reopen(store, _retrying(dial_url(store.meta("url"))))
        config = _config(args, role, {}, identity)
        config.on_setup = None
        print(f"resuming game {store.setup.game_id.hex()[:16]} as seat {store.seat} "
              f"({store.frame_count()} frames stored)", file=sys.stderr)
        return await _run(link, config, store, bot, "dealerless resume", None, args.think_ms)
    return _guard(main)


def _check_bot_options(args: argparse.Namespace, rules: str | None) -> None:
    """UsageError for a bot that cannot play `rules` (when known) or a budget it cannot use."""
    bot = args.bot
    if args.think_ms is not None and (bot is None or bot not in THINKERS):
        raise UsageError(f"--think-ms is for the {', '.join(sorted(THINKERS))} bot "
                         f"(add --bot {min(THINKERS)})")
    if bot is not None and rules is not None:
        try:
            check_bot(bot, rules)
        except LocalError as exc:
            raise UsageError(exc.detail or exc.code) from None


def _guard(main: Any) -> int:
    """Run a network command; every failure is one line on stderr and an exit code (12.7)."""
    try:
        return _report(asyncio.run(main()))
    except (UsageError, GameNotFound) as exc:
        return fail(str(exc))
    except LinkError as exc:
        print(f"dealerless: {exc}; no game was started", file=sys.stderr)
        return EXIT_FAILED
    except (PeerError, NotStarted) as exc:
        print(f"dealerless: {exc}", file=sys.stderr)
        return EXIT_INCOMPLETE
    except (StoreError, KeyStoreError, DealerlessError, sqlite3.Error, OSError,
            ValueError) as exc:
        print(f"dealerless: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("dealerless: interrupted; `dealerless resume` continues the game",
              file=sys.stderr)
        return EXIT_INCOMPLETE


def cmd_relay(args: argparse.Namespace) -> int:
    host, port = args.listen
    limits = Limits(**{name: getattr(args, name) for name, *_ in limit_flags()})
    chaos = Chaos(args.chaos_drop, args.chaos_dup, args.chaos_reorder,
                  random.Random(args.chaos_seed))
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        asyncio.run(run_relay(host, port, limits, chaos, stats_every=args.stats_every,
                              suites=frozenset(args.suite or ())))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        print(f"dealerless: relay: cannot listen on {url_host(host)}:{port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILED
    return 0
