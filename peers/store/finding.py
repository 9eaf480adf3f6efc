"""Finding the local games: by path or game id prefix, and listing them (spec/12-peers.md
12.4). Every file is opened through `GameStore.open`, so a crafted one is refused."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from peers.store.games import GameStore, StoreError


@dataclass(frozen=True)
class GameInfo:
    path: Path
    game_id: str
    seat: int
    status: str
    frames: int
    rules: str = ""


class GameNotFound(StoreError):
    """The name given for a game is no game id prefix or path, or matches none or several."""


GAME_ID_HEX = 64
#: A database is named by this many hex digits of its game id (`GameStore.create`).
FILE_ID_HEX = 16


def find_game(games_dir: Path, name: str) -> Path:
    """A game by the path of its database, or by any unambiguous prefix of its game id
    (1 to 64 hex digits, as `dealerless games --json` prints it) among the local games."""
    if os.sep in name or name.endswith(".sqlite") or (os.altsep and os.altsep in name):
        path = Path(name).expanduser()
        if not path.is_file():
            raise GameNotFound(f"no game database at {path}")
        return path
    if not _is_id(name):
        raise GameNotFound(f"{name!r} is neither a game id (1 to {GAME_ID_HEX} hex digits, "
                           "see `dealerless games`) nor a path to a .sqlite game database")
    return find_game_id(games_dir, name, links=True)


def _is_id(name: str) -> bool:
    return 1 <= len(name) <= GAME_ID_HEX and all(c in "0123456789abcdef" for c in name.lower())


def find_game_id(games_dir: Path, name: str, *, links: bool = False) -> Path:
    """A local game by an unambiguous prefix of its game id, and nothing else: never a
    path, and never a file outside `games_dir` (a symbolic link there is followed only
    with `links`, as the command line does). The web server names games this way (spec/
    12-peers.md 12.8.2), since a name a page sends must not reach a file the person did
    not store there."""
    if not _is_id(name):
        raise GameNotFound(f"{name!r} is not a game id (1 to {GAME_ID_HEX} hex digits)")
    prefix = name.lower()
    head = prefix[:FILE_ID_HEX]
    files = sorted(p for p in games_dir.glob("*.sqlite")
                   if p.stem.startswith(head)
                   and (links or (not p.is_symlink() and p.is_file()))) \
        if games_dir.is_dir() else []
    if len(prefix) > FILE_ID_HEX:  # the file name holds only the id's first 16 digits
        files = [p for p in files if _game_id(p).startswith(prefix)]
    if len(files) != 1:
        what = "no local game" if not files else f"{len(files)} local games"
        raise GameNotFound(f"{what} under {games_dir} match{'es' if not files else ''} "
                           f"{name!r}" + (": give more digits" if files else ""))
    return files[0]


def _game_id(path: Path) -> str:
    """The full game id of a database, or "" if it is not a readable game."""
    try:
        store = GameStore.open(path)
    except StoreError:
        return ""
    store.close()
    return store.setup.game_id.hex()


def list_games(games_dir: Path) -> tuple[list[GameInfo], list[StoreError]]:
    """The games in `games_dir`, and the refusal of each other *.sqlite file there."""
    games: list[GameInfo] = []
    refused: list[StoreError] = []
    for path in sorted(games_dir.glob("*.sqlite")) if games_dir.is_dir() else []:
        try:
            store = GameStore.open(path)
            try:
                games.append(GameInfo(path, store.setup.game_id.hex(), store.seat,
                                      store.meta("status", "in progress"),
                                      store.frame_count(), store.setup.rules))
            finally:
                store.close()
        except StoreError as exc:
            refused.append(exc)
    return games, refused
