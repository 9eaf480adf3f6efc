"""Per-game persistence: one SQLite database per game (spec/12-peers.md section 12.4).

WAL mode with synchronous=FULL, one transaction per step. A peer persists a
frame before it sends it, so after a crash it resends the stored bytes and
never signs a second, different frame for the same step (equivocation). The
database holds the setup, this seat's secret seed (so the file is 0600), the
accepted frames and, if the game stopped on a proven violation, the frame
that proved it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from protocol.errors import DealerlessError, Violation
from protocol.referee import Referee
from protocol.setup import GameSetup
from protocol.transcript import Transcript

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS frames (seq INTEGER PRIMARY KEY, wire BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS evidence (id INTEGER PRIMARY KEY, wire BLOB NOT NULL);
"""


class StoreError(Exception):
    """A game database is missing, unreadable or not a dealerless game."""


@dataclass(frozen=True)
class GameInfo:
    path: Path
    game_id: str
    seat: int
    status: str
    frames: int
    rules: str = ""


class GameStore:
    """One game's database. Every write is one committed transaction."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)

    @classmethod
    def create(cls, games_dir: Path, setup: GameSetup, seat: int, secret_seed: bytes,
               meta: dict[str, str]) -> GameStore:
        games_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = games_dir / f"{setup.game_id.hex()[:16]}.sqlite"
        if path.exists():
            raise StoreError(f"a game database already exists at {path}")
        # Created 0600 before anything is written: it holds this seat's secret seed.
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        store = cls(path)
        with store.db:
            store.db.execute("BEGIN IMMEDIATE")
            rows = {"setup": setup.encode(), "seat": str(seat).encode(),
                    "secret_seed": secret_seed, "created": str(int(time.time())).encode(),
                    **{k: v.encode() for k, v in meta.items()}}
            store.db.executemany("INSERT INTO meta VALUES (?, ?)", rows.items())
        return store

    @classmethod
    def open(cls, path: Path) -> GameStore:
        if not path.is_file():
            raise StoreError(f"no game database at {path}")
        # Look before writing: only a dealerless game gets WAL mode and the schema.
        try:
            probe = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                probe.execute("SELECT value FROM meta WHERE key = 'setup'").fetchone()
            finally:
                probe.close()
        except sqlite3.Error:
            raise StoreError(f"{path} is not a dealerless game database") from None
        store = cls(path)
        if store.meta_bytes("setup") is None:
            raise StoreError(f"{path} is not a dealerless game database")
        return store

    def close(self) -> None:
        self.db.close()

    # -- reads -------------------------------------------------------------------------

    def meta_bytes(self, key: str) -> bytes | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else bytes(row[0])

    def meta(self, key: str, default: str = "") -> str:
        value = self.meta_bytes(key)
        return default if value is None else value.decode()

    @property
    def setup(self) -> GameSetup:
        data = self.meta_bytes("setup")
        if data is None:
            raise StoreError("the database has no setup")
        return GameSetup.decode(data)

    @property
    def seat(self) -> int:
        return int(self.meta("seat"))

    @property
    def secret_seed(self) -> bytes:
        seed = self.meta_bytes("secret_seed")
        if seed is None:
            raise StoreError("the database has no seat secret")
        return seed

    def frames(self, start: int = 0) -> list[bytes]:
        rows = self.db.execute("SELECT wire FROM frames WHERE seq >= ? ORDER BY seq", (start,))
        return [bytes(r[0]) for r in rows]

    def frame_count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM frames").fetchone()[0])

    def referee(self) -> Referee:
        """Rebuild the referee by replaying the stored frames (they were checked once)."""
        ref = Referee(self.setup)
        for wire in self.frames():
            ref.receive(wire)
        # The frame (or evidence record) that proved a violation: receiving it again
        # makes the referee keep the same violation, as it did when the game stopped,
        # so a resumed game never goes on signing frames to a proven cheater.
        proofs = [self.meta_bytes("offending"), *(bytes(r[0]) for r in self.db.execute(
            "SELECT wire FROM evidence ORDER BY id"))]
        for proof in proofs:
            if proof is not None and ref.violation is None:
                with contextlib.suppress(Violation):
                    ref.receive(proof)
        return ref

    def transcript(self) -> Transcript:
        frames = tuple(self.frames())
        offending = self.meta_bytes("offending")
        if offending is not None:
            frames += (offending,)
        evidence = tuple(bytes(r[0]) for r in self.db.execute(
            "SELECT wire FROM evidence ORDER BY id"))
        return Transcript(self.setup, frames, evidence)

    # -- writes: one transaction each ----------------------------------------------------

    def append(self, seq: int, wire: bytes) -> None:
        """Persist an accepted (or about to be sent) frame; idempotent for the same bytes."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            row = self.db.execute("SELECT wire FROM frames WHERE seq = ?", (seq,)).fetchone()
            if row is not None:
                if bytes(row[0]) != wire:
                    raise StoreError(f"step {seq} already holds a different frame")
                return
            self.db.execute("INSERT INTO frames VALUES (?, ?)", (seq, wire))

    def set_meta(self, key: str, value: bytes | str) -> None:
        data = value.encode() if isinstance(value, str) else value
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, data))

    def record_violation(self, offending: bytes | None, evidence: list[bytes],
                         status: str) -> None:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if offending is not None:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('offending', ?)",
                                (offending,))
            for wire in evidence:
                self.db.execute("INSERT INTO evidence (wire) VALUES (?)", (wire,))
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('status', ?)",
                            (status.encode(),))


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
    prefix = name.lower()
    if not 1 <= len(prefix) <= GAME_ID_HEX or any(c not in "0123456789abcdef" for c in prefix):
        raise GameNotFound(f"{name!r} is neither a game id (1 to {GAME_ID_HEX} hex digits, "
                           "see `dealerless games`) nor a path to a .sqlite game database")
    head = prefix[:FILE_ID_HEX]
    files = sorted(p for p in games_dir.glob("*.sqlite") if p.stem.startswith(head)) \
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
    except (StoreError, sqlite3.Error):
        return ""
    try:
        return store.setup.game_id.hex()
    except (DealerlessError, sqlite3.Error, ValueError):
        return ""
    finally:
        store.close()


def list_games(games_dir: Path) -> list[GameInfo]:
    out = []
    for path in sorted(games_dir.glob("*.sqlite")) if games_dir.is_dir() else []:
        try:
            store = GameStore.open(path)
        except (StoreError, sqlite3.Error):
            continue
        try:
            setup = store.setup
            out.append(GameInfo(path, setup.game_id.hex(), store.seat,
                                store.meta("status", "in progress"), store.frame_count(),
                                setup.rules))
        except (DealerlessError, sqlite3.Error, ValueError):
            continue  # not a readable game: skipped, as is any other stray file
        finally:
            store.close()
    return out
