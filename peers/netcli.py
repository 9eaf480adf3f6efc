"""Network commands: host, join, resume, games, export, relay (spec/12-peers.md).

A game is hosted (`host --listen HOST:PORT`, or `host --relay URL` through a
relay) and joined with the printed invitation URL. Each seat is a bot
(`--bot NAME`) or a person (the terminal UI). Results go to stdout, progress
to stderr; the exit code is the verdict's (0 complete, 1 violation, 3 stopped
waiting for a seat).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

from protocol.errors import DealerlessError
from protocol.identity import short_auth_string
from protocol.setup import GameSetup

from .bots import BOTS
from .driver import AsyncChooser, Event, NoticeEvent, Notify, SetupEvent, StepEvent
from .keys import KeyStoreError
from .link import ClientLink, HostLink, Link
from .peer import HOST, JOIN, Peer, PeerConfig, PeerError, PeerResult
from .relay import Chaos, Limits, run_relay
from .report import headline
from .store import GameStore, StoreError, find_game, list_games

EXIT_USAGE = 2


def _home(args: argparse.Namespace) -> Path:
    from . import keys
    return keys.resolve_home(args.home)


def _identity(args: argparse.Namespace) -> Any:
    """The user's identity key; made on first use, so that a first game just works."""
    from . import keys
    if not keys.key_path(args.home).exists():
        summary = keys.generate(args.home)
        print(f"dealerless: made your identity key {summary.fingerprint} at "
              f"{summary.path} (see `dealerless key show`)", file=sys.stderr)
    passphrase = os.environ.get("DEALERLESS_PASSPHRASE")
    if passphrase is None and keys.is_encrypted(args.home) and sys.stdin.isatty():
        import getpass
        passphrase = getpass.getpass("passphrase for your identity key: ")
    return keys.load_identity(args.home, passphrase)


def _parse_hostport(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not host or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT (port 0-65535)")
    return host.strip("[]"), int(port)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _setup_lines(event: SetupEvent) -> list[str]:
    return [f"game {event.game_id[:16]}: you are seat {event.seat}; rules {event.rules}",
            f"opponent: {event.opponent}",
            f"short authentication string: {event.sas} (compare it with your opponent "
            "out of band)"]


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
    """Runs a Peer for a person at the terminal UI (peers/tui.py)."""

    def __init__(self, link: Link, config: PeerConfig, store: GameStore | None) -> None:
        self.link, self.config, self.store = link, config, store
        self.seat = store.seat if store is not None else (0 if config.role == HOST else 1)
        self.result: PeerResult | None = None

    async def run(self, choose: AsyncChooser, notify: Notify) -> Any:
        self.config.choose, self.config.notify = choose, notify
        self.result = await Peer(self.link, self.config, self.store).run()
        return self.result.verdict


def _bot_chooser(name: str) -> AsyncChooser:
    bot = BOTS[name](random.Random())

    async def choose(view: Any) -> Any:
        return bot(view)
    return choose


def _announce(home: Path, config: PeerConfig) -> Any:
    """Once the setup is agreed: the game, the opponent's key, the SAS to compare."""
    from . import keys

    def on_setup(setup: GameSetup, store: GameStore) -> None:
        other = setup.identities[1 - store.seat]
        config.notify(SetupEvent(setup.game_id.hex(), store.seat,
                                 f"{setup.rules} {dict(setup.params)}",
                                 keys.check_opponent(home, other),
                                 short_auth_string(setup.game_id)))
    return on_setup


async def _run(link: Link, config: PeerConfig, store: GameStore | None, bot: str | None,
               title: str, invitation: str | None = None) -> PeerResult | None:
    if bot is not None:
        config.choose, config.notify = _bot_chooser(bot), _progress
        return await Peer(link, config, store).run()
    from .tui import PlayApp
    driver = NetworkDriver(link, config, store)
    await PlayApp(driver, title=title, invitation=invitation).run_async()
    if driver.result is None:
        await link.close()
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


def _config(args: argparse.Namespace, role: str, meta: dict[str, str]) -> PeerConfig:
    home = _home(args)
    async def unset(_v: Any) -> Any:
        raise PeerError("no chooser")
    config = PeerConfig(games_dir=home / "games", role=role, identity=_identity(args),
                        choose=unset, notify=_progress, params={"komi_halves": args.komi}
                        if role == HOST else {}, move_timeout=args.timeout,
                        meta={**meta, "bot": args.bot or ""})
    config.on_setup = _announce(home, config)
    return config


def cmd_host(args: argparse.Namespace) -> int:
    async def main() -> PeerResult | None:
        rid = os.urandom(16).hex()
        link: Link
        if args.relay:
            url = f"{args.relay.rstrip('/')}/room/{rid}"
            client = ClientLink(url)
            client.start()
            link, meta = client, {"url": url, "relay": args.relay}
        else:
            host, port = args.listen
            server = HostLink(host, port, f"/dealerless/{rid}")
            port = await server.start()
            url = f"ws://{_url_host(host)}:{port}/dealerless/{rid}"
            link, meta = server, {"url": url, "listen": f"{_url_host(host)}:{port}",
                                  "path": server.path}
        print(f"invitation: dealerless join {url}", flush=True)
        return await _run(link, _config(args, HOST, meta), None, args.bot,
                          "dealerless host", f"dealerless join {url}")
    return _guard(main)


def cmd_join(args: argparse.Namespace) -> int:
    async def main() -> PeerResult | None:
        link = ClientLink(args.url)
        link.start()
        return await _run(link, _config(args, JOIN, {"url": args.url}), None, args.bot,
                          "dealerless join")
    return _guard(main)


def cmd_resume(args: argparse.Namespace) -> int:
    async def main() -> PeerResult | None:
        store = GameStore.open(find_game(_home(args) / "games", args.game))
        role = store.meta("role")
        link: Link
        if role == HOST and store.meta("listen"):
            host, port = _parse_hostport(store.meta("listen"))
            server = HostLink(host, port, store.meta("path"))
            await server.start()
            link = server
        else:
            client = ClientLink(store.meta("url"))
            client.start()
            link = client
        bot = args.bot or store.meta("bot") or None
        config = _config(args, role, {})
        config.on_setup = None
        print(f"resuming game {store.setup.game_id.hex()[:16]} as seat {store.seat} "
              f"({store.frame_count()} frames stored)", file=sys.stderr)
        return await _run(link, config, store, bot, "dealerless resume")
    return _guard(main)


def _guard(main: Any) -> int:
    try:
        return _report(asyncio.run(main()))
    except PeerError as exc:
        print(f"dealerless: {exc}", file=sys.stderr)
        return 3
    except (StoreError, KeyStoreError, DealerlessError, sqlite3.Error, OSError,
            ValueError) as exc:
        print(f"dealerless: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("dealerless: interrupted; `dealerless resume` continues the game",
              file=sys.stderr)
        return 3


def cmd_games(args: argparse.Namespace) -> int:
    try:
        games = list_games(_home(args) / "games")
    except (DealerlessError, sqlite3.Error, OSError) as exc:
        print(f"dealerless: {exc}", file=sys.stderr)
        return 1
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
        Path(args.file).write_bytes(data)
    except (StoreError, DealerlessError, sqlite3.Error, OSError) as exc:
        print(f"dealerless: {exc}", file=sys.stderr)
        return 1
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
        print(f"dealerless: relay: {exc}", file=sys.stderr)
        return 1
    return 0


def _common(p: argparse.ArgumentParser, bot: bool = True) -> None:
    p.add_argument("--home", default=None, help="data directory (or DEALERLESS_HOME)")
    if bot:
        p.add_argument("--bot", choices=sorted(BOTS), default=None,
                       help="let a bot play this seat (default: you, in the terminal UI)")
        p.add_argument("--timeout", type=float, default=300.0,
                       help="seconds to wait for the opponent's next frame")


def add_network_commands(sub: Any, parse_komi: Any) -> None:
    p = sub.add_parser("host", help="host a game: print an invitation and wait for a player")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--listen", type=_parse_hostport, help="HOST:PORT to listen on")
    where.add_argument("--relay", help="relay URL, e.g. ws://relay.example:8765")
    p.add_argument("--rules", default="bram", choices=["bram"])
    p.add_argument("--komi", type=parse_komi, default=0,
                   help="pips (whole or half) added to the first player's total")
    _common(p)
    p.set_defaults(func=cmd_host)

    p = sub.add_parser("join", help="join a game from its invitation URL")
    p.add_argument("url")
    p.set_defaults(komi=0)
    _common(p)
    p.set_defaults(func=cmd_join)

    p = sub.add_parser("resume", help="resume a stopped or crashed game")
    p.add_argument("game", help="game id prefix (see `dealerless games`) or database path")
    p.set_defaults(komi=0)
    _common(p)
    p.set_defaults(func=cmd_resume)

    p = sub.add_parser("games", help="list local games and their state")
    p.add_argument("--json", action="store_true")
    _common(p, bot=False)
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("export", help="write a local game's transcript file")
    p.add_argument("game")
    p.add_argument("file")
    _common(p, bot=False)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("relay", help="run an untrusted store-and-forward relay")
    p.add_argument("--listen", type=_parse_hostport, required=True, help="HOST:PORT")
    p.add_argument("--max-rooms", type=int, default=256)
    p.add_argument("--max-frames", type=int, default=4096, help="messages kept per room")
    p.add_argument("--idle", type=float, default=3600.0, help="seconds before an idle room "
                   "expires")
    for name in ("drop", "dup", "reorder"):
        p.add_argument(f"--chaos-{name}", type=float, default=0.0,
                       help=f"testing only: probability to {name} a forwarded message")
    p.add_argument("--chaos-seed", type=int, default=None)
    p.set_defaults(func=cmd_relay)



