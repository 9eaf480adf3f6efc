"""`dealerless games` and `dealerless export`: the games stored in the data directory."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from peers.cli.network import home_dir
from peers.cli.options import EXIT_FAILED, fail
from peers.store.finding import GameNotFound, find_game, list_games
from peers.store.games import GameStore, StoreError


def cmd_games(args: argparse.Namespace) -> int:
    try:
        games, refused = list_games(home_dir(args) / "games")
    except OSError as exc:
        print(f"dealerless: {exc}", file=sys.stderr)
        return EXIT_FAILED
    for refusal in refused:  # a stray or damaged file is named, and the others listed
        print(f"dealerless: games: {refusal}", file=sys.stderr)
    home = home_dir(args)
    seen = [_table(home, g.path, g.seat) for g in games]
    if args.json:
        print(json.dumps([{"game_id": g.game_id, "seat": g.seat, "status": g.status,
                           "frames": g.frames, "path": str(g.path), "rules": g.rules,
                           "params": params, "opponents": opponents}
                          for g, (params, opponents) in zip(games, seen, strict=True)],
                         indent=2))
    else:
        from peers.table.report import params_text

        for g, (params, opponents) in zip(games, seen, strict=True):
            against = "; ".join(f"seat {o['seat']} {o['name'] or o['fingerprint']}"
                                for o in opponents)
            print(f"{g.game_id[:16]}  seat {g.seat}  {g.frames:>3} frames  {g.status}\n"
                  f"    {g.rules} ({params_text(params)}) against {against}")
        if not games:
            print("no local games", file=sys.stderr)
    return 0


def _table(home: Path, path: Path, me: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A stored game's rule parameters, and its other seats: each seat's fingerprint and
    the name its key is known under (spec/12-peers.md 12.2), or None."""
    from peers.keys.known import known_names
    from peers.store.seats import KEYS_META, seat_keys
    from protocol.errors import EncodingError
    from protocol.identity import fingerprint

    store = GameStore.open(path)
    try:
        stored = store.meta(KEYS_META)
    finally:
        store.close()
    setup = store.setup
    try:
        keys = seat_keys(setup, stored)
    except EncodingError:   # a damaged record names nobody; the game is still listed
        keys = ()
    others = [{"seat": s, "fingerprint": fingerprint(key),
               "name": ", ".join(known_names(home, key)) or None}
              for s, key in enumerate(keys) if s != me]
    return dict(setup.params), others


def cmd_export(args: argparse.Namespace) -> int:
    try:
        store = GameStore.open(find_game(home_dir(args) / "games", args.game))
        try:
            data = store.transcript().encode()
        finally:
            store.close()
    except GameNotFound as exc:
        return fail(f"export: {exc}")
    except StoreError as exc:  # a file that is no usable game: invalid input, exit 1
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
