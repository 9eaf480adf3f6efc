"""Network commands: host, join, resume, games, export, relay (spec/12-peers.md).

A game is hosted (`host --listen HOST:PORT`, or `host --relay URL` through a
relay) for 2 to 8 seats (`--seats K`, as the rules allow) and joined by K-1
players with the printed invitation URL. Each seat is a bot
(`--bot NAME`) or a person (the terminal UI). Results go to stdout, progress
to stderr; the exit code is the verdict's (0 complete, 1 violation, 3 stopped
waiting for a seat).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import os
import random
import socket
import sqlite3
import sys
from pathlib import Path
from typing import Any

import protocol.rules as rules_pkg
from peers.bots.registry import BOTS, THINKERS, check_bot, make_bot
from peers.keys import KeyStoreError, PassphraseError
from peers.net.config import HOST, JOIN, MAX_SEATS, MIN_SEATS, PeerConfig, PeerError, PeerResult
from peers.net.link import ClientLink, HostLink, Link, LinkError, check_url
from peers.net.peer import Peer
from peers.net.relay import OPEN_ROOM, Chaos, Limits, run_relay
from peers.store.games import GameNotFound, GameStore, StoreError, find_game, list_games
from peers.table.driver import (
    AsyncChooser,
    EndEvent,
    Event,
    NoticeEvent,
    Notify,
    SetupEvent,
    StepEvent,
)
from peers.table.report import headline
from peers.table.selfplay import SET_NAMES, rule_params
from protocol.errors import DealerlessError, LocalError
from protocol.identity import fingerprint, short_auth_string
from protocol.setup import GameSetup
from protocol.verifier import replay

EXIT_FAILED, EXIT_USAGE, EXIT_INCOMPLETE = 1, 2, 3
PASSPHRASE_HINT = ("set DEALERLESS_PASSPHRASE in the environment, or run from a terminal "
                   "to be asked")


#: Rule sets the terminal interface cannot show (it draws dominoes): bots only.
NO_INTERFACE = frozenset({"mined-games"})


class UsageError(Exception):
    """A command-line value that cannot work; reported before anything waits (exit 2)."""


class NotStarted(Exception):
    """The person left before a game was agreed: there is nothing to resume (exit 3)."""


def _home(args: argparse.Namespace) -> Path:
    from peers import keys
    return keys.resolve_home(args.home)


def _identity(args: argparse.Namespace) -> Any:
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


def _number(text: str, convert: Any, noun: str, ok: Any, want: str) -> Any:
    """Parse an option's number; argparse turns the error into a usage message (exit 2)."""
    try:
        value = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {noun}") from None
    if not ok(value):
        raise argparse.ArgumentTypeError(f"{text!r}: {want}")
    return value


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds greater than zero."""
    return float(_number(text, float, "a number of seconds",
                         lambda v: math.isfinite(v) and v > 0,
                         "seconds must be finite and above 0"))


def _count(text: str) -> int:
    return int(_number(text, int, "a whole number", lambda v: 1 <= v <= 10**9,
                       "want a whole number from 1 to 10^9"))


def _seats(text: str) -> int:
    return int(_number(text, int, "a whole number of seats",
                       lambda v: MIN_SEATS <= v <= MAX_SEATS,
                       f"a game has {MIN_SEATS} to {MAX_SEATS} seats"))


def host_params(rules: str, seats: int, komi: int | None, tile_set: str | None = None,
                map_file: str | None = None) -> dict[str, Any]:
    """The rule set's parameters from `host`'s options, or UsageError (see rule_params)."""
    try:
        mine_map = None if map_file is None else Path(map_file).read_text()
        return rule_params(rules, seats, komi, tile_set, mine_map)
    except OSError as exc:
        raise UsageError(f"host: cannot read the map {map_file}: {exc.strerror}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"host: {exc}") from None


def _probability(text: str) -> float:
    return float(_number(text, float, "a probability", lambda v: 0.0 <= v <= 1.0,
                         "a probability is from 0 to 1"))


def _ws_url(text: str) -> str:
    try:
        return check_url(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _relay_base(text: str) -> str:
    """`--relay`: the relay's own address; the room path is added by `host`."""
    url = _ws_url(text).rstrip("/")
    if "/room/" in url or "?" in url:
        raise argparse.ArgumentTypeError(f"--relay takes the relay's address, like "
                                         f"ws://RELAY:8765, not a room URL ({text!r})")
    return url


def _parse_hostport(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not host or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT (port 0-65535)")
    return host.strip("[]"), int(port)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


WILDCARDS = ("0.0.0.0", "::", "")


def reachable_hosts(listen: str) -> list[str]:
    """Addresses an opponent might use to reach a server listening on `listen`.

    A wildcard address is no address to connect to: list this machine's own
    addresses instead (non-loopback first). Behind NAT none of them may be what the
    opponent sees; the invitation then says to replace the host (or use a relay).
    """
    if listen not in WILDCARDS:
        return [listen]
    family = socket.AF_INET6 if listen == "::" else socket.AF_INET
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if address not in found and not address.startswith(("127.", "::1", "fe80")):
            found.append(address)
    return found


def _setup_lines(event: SetupEvent) -> list[str]:
    if event.seats == 2:
        return [f"game {event.game_id[:16]}: you are seat {event.seat}; rules {event.rules}",
                f"opponent: {event.opponent}",
                f"short authentication string: {event.sas} (compare it with your opponent "
                "out of band)"]
    return [f"game {event.game_id[:16]}: {event.seats} seats, you are seat {event.seat}; "
            f"rules {event.rules}",
            f"opponents: {event.opponent}",
            f"short authentication string: {event.sas} (compare it with all {event.seats - 1} "
            "opponents out of band: every player must see the same)"]


def _progress(event: Event) -> None:
    """Bot seats: notices on stdout, each verified step on stderr."""
    if isinstance(event, NoticeEvent):
        print(event.text, flush=True)
    elif isinstance(event, SetupEvent):
        print("\n".join(_setup_lines(event)), flush=True)
    elif isinstance(event, StepEvent):
        print(f"  frame {event.seq:>3}  seat {event.seat}  {event.kind:<8} {event.note}",
              file=sys.stderr)


class NetworkDriver:
    """Runs a Peer for a person at the terminal UI (peers/ui/terminal.py)."""

    def __init__(self, link: Link, config: PeerConfig, store: GameStore | None) -> None:
        self.link, self.config = link, config
        self.peer = Peer(link, config, store)
        self.seat = store.seat if store is not None else (0 if config.role == HOST else 1)
        self.result: PeerResult | None = None

    @property
    def started(self) -> bool:
        """Whether a game was agreed (and so stored, and can be resumed)."""
        return self.peer.store is not None

    async def run(self, choose: AsyncChooser, notify: Notify) -> Any:
        def keep_end(event: Event) -> None:
            # The result exists from the EndEvent on: a person who leaves while the link
            # is still closing must not be told the game stopped before the end.
            if isinstance(event, EndEvent) and self.peer.store is not None:
                self.result = PeerResult(event.verdict, self.peer.store.path, event.message)
            if isinstance(event, SetupEvent):
                self.seat = event.seat  # a joiner learns its seat from the roster
            notify(event)
        self.config.choose, self.config.notify = choose, keep_end
        self.result = await self.peer.run()
        return self.result.verdict


def _bot_chooser(name: str, think_ms: float | None = None) -> AsyncChooser:
    bot = make_bot(name, random.Random(), think_ms=think_ms)

    async def choose(view: Any) -> Any:
        return bot(view)
    return choose


def _announce(home: Path, config: PeerConfig) -> Any:
    """Once the setup is agreed: the game, the opponent's key, the SAS to compare."""
    from peers import keys

    def described(key: bytes) -> str:
        known = keys.check_opponent(home, key)
        # Always the fingerprint too: a name alone cannot be compared out of band.
        return known if "SHA256:" in known else f"{known} ({fingerprint(key)})"

    def on_setup(setup: GameSetup, store: GameStore) -> None:
        others = [s for s in range(setup.seats) if s != store.seat]
        opponent = (described(setup.identities[others[0]]) if setup.seats == 2 else
                    "; ".join(f"seat {s}: {described(setup.identities[s])}" for s in others))
        config.notify(SetupEvent(setup.game_id.hex(), store.seat,
                                 f"{setup.rules} {dict(setup.params)}", opponent,
                                 short_auth_string(setup.game_id), setup.seats))
    return on_setup


async def _run(link: Link, config: PeerConfig, store: GameStore | None, bot: str | None,
               title: str, invitation: str | None = None,
               think_ms: float | None = None) -> PeerResult | None:
    if bot is not None:
        config.choose, config.notify = _bot_chooser(bot, think_ms), _progress
        return await Peer(link, config, store).run()
    if store is not None and store.setup.rules in NO_INTERFACE:
        raise UsageError(f"{title}: {store.setup.rules} has no terminal interface yet; add "
                         f"--bot NAME (one of {', '.join(sorted(BOTS))})")
    announce = config.on_setup

    def refuse_without_interface(setup: GameSetup, game: GameStore) -> None:
        # A joiner learns the rules only here: the game is stored, and `dealerless resume
        # GAME --bot NAME` can still play it before the others declare this seat absent.
        if setup.rules in NO_INTERFACE:
            raise PeerError(f"this table plays {setup.rules}, which has no terminal "
                            "interface yet; `dealerless resume` the game with --bot NAME")
        if announce is not None:
            announce(setup, game)

    config.on_setup = refuse_without_interface
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
    home = _home(args)
    async def unset(_v: Any) -> Any:
        raise PeerError("no chooser")
    config = PeerConfig(games_dir=home / "games", role=role, identity=identity,
                        choose=unset, notify=_progress, rules=getattr(args, "rules", "bram"),
                        params=params or {}, move_timeout=args.timeout,
                        meta={**meta, "bot": args.bot or ""})
    config.on_setup = _announce(home, config)
    return config


def _retrying(url: str) -> Any:
    def say(text: str) -> None:
        print(f"dealerless: {url}: {text}", file=sys.stderr, flush=True)
    return say


async def _listen(host: str, port: int, path: str) -> tuple[HostLink, int]:
    server = HostLink(host, port, path)
    try:
        return server, await server.start()
    except OSError as exc:
        raise LinkError(f"cannot listen on {_url_host(host)}:{port}: "
                        f"{exc.strerror or exc}") from None


def _invitation(listen: str, port: int, path: str) -> tuple[str, str | None]:
    """The invitation URL, and a note when its host is a guess the person must check."""
    hosts = reachable_hosts(listen)
    shown = hosts[0] if hosts else "HOST"
    url = f"ws://{_url_host(shown)}:{port}{path}"
    if listen not in WILDCARDS:
        return url, None
    if not hosts:
        return url, ("listening on every address, but this machine's address is unknown: "
                     "replace HOST in the invitation with an address your opponent can "
                     "reach, or use a relay")
    others = f" (this machine's addresses: {', '.join(hosts)})" if len(hosts) > 1 else ""
    return url, (f"listening on every address; if your opponent cannot reach {shown}, "
                 f"replace it in the invitation with an address they can reach{others}, "
                 "or use a relay")


def cmd_host(args: argparse.Namespace) -> int:
    try:
        params = host_params(args.rules, args.seats, args.komi, args.set, args.map)
        _check_bot_options(args, args.rules)
    except UsageError as exc:
        return _usage(str(exc))
    if args.rules in NO_INTERFACE and args.bot is None:
        # The terminal interface shows dominoes; Mined Games' orders have none yet.
        return _usage("host: mined-games has no terminal interface yet; add --bot NAME "
                      f"(one of {', '.join(sorted(BOTS))})")

    async def main() -> PeerResult | None:
        # In this order: what the network says (at once), then the seat and the key, and
        # only then the invitation, so that nobody is invited to a game that cannot start.
        rid = os.urandom(16).hex()
        link: Link
        note = None
        if args.relay:
            url = f"{args.relay}/room/{rid}"
            client = ClientLink(url + OPEN_ROOM, fail_fast=True,
                                on_retry=_retrying(args.relay),
                                label=f"the relay {args.relay}")
            client.start()
            await client.wait_connected()
            link, meta = client, {"url": url, "relay": args.relay}
        else:
            host, port = args.listen
            server, port = await _listen(host, port, f"/dealerless/{rid}")
            url, note = _invitation(host, port, server.path)
            link, meta = server, {"url": url, "listen": f"{_url_host(host)}:{port}",
                                  "path": server.path}
        _need_terminal("host", args.bot)
        identity = _identity(args)
        print(f"invitation: dealerless join {url}", flush=True)
        if args.seats > 2:
            print(f"dealerless: a table of {args.seats}: waiting for {args.seats - 1} "
                  "players to join with this invitation", file=sys.stderr, flush=True)
        if note:
            print(f"dealerless: {note}", file=sys.stderr, flush=True)
        return await _run(link, _config(args, HOST, meta, identity, params), None, args.bot,
                          "dealerless host", f"dealerless join {url}", args.think_ms)
    return _guard(main)


def cmd_join(args: argparse.Namespace) -> int:
    try:
        _check_bot_options(args, None)
    except UsageError as exc:
        return _usage(str(exc))

    async def main() -> PeerResult | None:
        link = ClientLink(args.url, fail_fast=True, on_retry=_retrying(args.url))
        link.start()
        await link.wait_connected()  # a wrong or dead invitation is reported before any UI
        _need_terminal("join", args.bot)
        identity = _identity(args)
        return await _run(link, _config(args, JOIN, {"url": args.url}, identity), None,
                          args.bot, "dealerless join", None, args.think_ms)
    return _guard(main)


def cmd_resume(args: argparse.Namespace) -> int:
    try:
        _check_bot_options(args, None)
    except UsageError as exc:
        return _usage(str(exc))

    async def main() -> PeerResult | None:
        store = GameStore.open(find_game(_home(args) / "games", args.game))
        done = replay(store.transcript().encode())
        if done.complete or not done.valid:  # nothing is owed: no need to reach anyone
            return PeerResult(done, store.path, "the game is already over; nothing to "
                              "resume (`dealerless export` writes its transcript)")
        role = store.meta("role")
        bot = args.bot or store.meta("bot") or None
        _need_terminal("resume", bot)
        identity = _identity(args)
        link: Link
        if role == HOST and store.meta("listen"):
            host, port = _parse_hostport(store.meta("listen"))
            link, _ = await _listen(host, port, store.meta("path"))
        else:
            # The other side may still be on its way back: keep trying (no fail_fast).
            url = store.meta("url") + (OPEN_ROOM if role == HOST else "")
            client = ClientLink(url, on_retry=_retrying(store.meta("url")))
            client.start()
            link = client
        config = _config(args, role, {}, identity)
        config.on_setup = None
        print(f"resuming game {store.setup.game_id.hex()[:16]} as seat {store.seat} "
              f"({store.frame_count()} frames stored)", file=sys.stderr)
        return await _run(link, config, store, bot, "dealerless resume", None, args.think_ms)
    return _guard(main)


def think_ms(text: str) -> float:
    """An argparse type: a finite number of milliseconds above 0 and at most a minute."""
    return float(_number(text, float, "a number of milliseconds",
                         lambda v: math.isfinite(v) and 0 < v <= 60_000,
                         "milliseconds must be above 0 and at most 60000"))


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


def _usage(message: str) -> int:
    print(f"dealerless: {message}", file=sys.stderr)
    return EXIT_USAGE


def _guard(main: Any) -> int:
    """Run a network command; every failure is one line on stderr and an exit code (12.7)."""
    try:
        return _report(asyncio.run(main()))
    except (UsageError, GameNotFound) as exc:
        return _usage(str(exc))
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


def cmd_games(args: argparse.Namespace) -> int:
    try:
        games = list_games(_home(args) / "games")
    except (DealerlessError, sqlite3.Error, OSError) as exc:
        print(f"dealerless: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        print(json.dumps([{"game_id": g.game_id, "seat": g.seat, "status": g.status,
                           "frames": g.frames, "path": str(g.path)} for g in games], indent=2))
    else:
        for g in games:
            print(f"{g.game_id[:16]}  seat {g.seat}  {g.frames:>3} frames  {g.status}")
        if not games:
            print("no local games", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    try:
        store = GameStore.open(find_game(_home(args) / "games", args.game))
        data = store.transcript().encode()
    except GameNotFound as exc:
        return _usage(f"export: {exc}")
    except (StoreError, DealerlessError, sqlite3.Error) as exc:
        print(f"dealerless: export: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        Path(args.file).write_bytes(data)
    except OSError as exc:
        print(f"dealerless: export: cannot write {args.file}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_FAILED
    print(f"wrote {len(data)} bytes to {args.file}")
    return 0


def cmd_relay(args: argparse.Namespace) -> int:
    host, port = args.listen
    limits = Limits(max_rooms=args.max_rooms, max_messages_per_room=args.max_frames,
                    idle_seconds=args.idle)
    chaos = Chaos(args.chaos_drop, args.chaos_dup, args.chaos_reorder,
                  random.Random(args.chaos_seed))
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        asyncio.run(run_relay(host, port, limits, chaos))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        print(f"dealerless: relay: cannot listen on {_url_host(host)}:{port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILED
    return 0


HOME_HELP = "data directory (default: $DEALERLESS_HOME, else the user data directory)"
ENVIRONMENT = """environment:
  DEALERLESS_HOME        the data directory, unless --home is given
  DEALERLESS_PASSPHRASE  the passphrase of an encrypted identity key; without it
                         you are asked on the terminal"""


def home_option(p: argparse.ArgumentParser) -> None:
    """`--home`, also accepted before the subcommand: a subcommand's copy only overrides
    the top-level one when given (SUPPRESS), so `dealerless --home D games` works."""
    p.add_argument("--home", default=argparse.SUPPRESS, help=HOME_HELP)


def _seat_options(p: argparse.ArgumentParser) -> None:
    home_option(p)
    p.add_argument("--bot", choices=sorted(BOTS), default=None,
                   help="let a bot play this seat (default: you, in the terminal UI); "
                        "strong plays bram only")
    p.add_argument("--think-ms", type=think_ms, default=None, metavar="MS",
                   help="the strong bot's thinking time a move, in milliseconds (default: "
                        "its fixed node budget)")
    p.add_argument("--timeout", type=positive_seconds, default=300.0,
                   help="seconds to wait for the opponent's next frame (default 300)")


def add_network_commands(sub: Any, parse_komi: Any) -> None:
    seat = {"epilog": ENVIRONMENT, "formatter_class": argparse.RawDescriptionHelpFormatter}
    p = sub.add_parser("host", help="host a game: print an invitation and wait for a player",
                       **seat)
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--listen", type=_parse_hostport, help="HOST:PORT to listen on")
    where.add_argument("--relay", type=_relay_base,
                       help="relay URL, e.g. ws://relay.example:8765")
    # The rule sets known when the parser is built (tests may register one of their own).
    p.add_argument("--rules", default="bram", choices=sorted(rules_pkg.RULESETS))
    p.add_argument("--seats", type=_seats, default=2,
                   help=f"players at the table, host included ({MIN_SEATS} to {MAX_SEATS}, "
                        "as the rules allow; default 2)")
    p.add_argument("--komi", type=parse_komi, default=None,
                   help="pips (whole or half) added to the first player's total (default: "
                        "the rules' own, spec/rules/bram.md section 11)")
    p.add_argument("--set", default=None, choices=SET_NAMES,
                   help="the domino set, for rules that offer several (mineshaft)")
    p.add_argument("--map", default=None, metavar="FILE",
                   help="a map file, for rules played on one (mined-games; format in "
                        "spec/rules/mined-games.md 2.2)")
    _seat_options(p)
    p.set_defaults(func=cmd_host)

    p = sub.add_parser("join", help="join a game from its invitation URL", **seat)
    p.add_argument("url", type=_ws_url, help="the ws://... URL from the invitation")
    p.set_defaults(komi=0)
    _seat_options(p)
    p.set_defaults(func=cmd_join)

    p = sub.add_parser("resume", help="resume a stopped or crashed game", **seat)
    p.add_argument("game", help="game id or any unambiguous prefix of it (see `dealerless "
                                "games`), or the path of its database")
    p.set_defaults(komi=0)
    _seat_options(p)
    p.set_defaults(func=cmd_resume)

    p = sub.add_parser("games", help="list local games and their state")
    p.add_argument("--json", action="store_true")
    home_option(p)
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("export", help="write a local game's transcript file")
    p.add_argument("game", help="game id or any unambiguous prefix of it, or a database path")
    p.add_argument("file")
    home_option(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("relay", help="run an untrusted store-and-forward relay")
    p.add_argument("--listen", type=_parse_hostport, required=True, help="HOST:PORT")
    p.add_argument("--max-rooms", type=_count, default=256)
    p.add_argument("--max-frames", type=_count, default=4096, help="messages kept per room")
    p.add_argument("--idle", type=positive_seconds, default=3600.0,
                   help="seconds before an idle room expires")
    for name in ("drop", "dup", "reorder"):
        p.add_argument(f"--chaos-{name}", type=_probability, default=0.0,
                       help=f"testing only: probability to {name} a forwarded message")
    p.add_argument("--chaos-seed", type=int, default=None)
    p.set_defaults(func=cmd_relay)
