"""Per-game persistence: one SQLite database per game (spec/12-peers.md section 12.4).

WAL mode with synchronous=FULL, one transaction per step. A peer persists a
frame before it sends it, so after a crash it resends the stored bytes and
never signs a second, different frame for the same step (equivocation). The
database holds the setup, this seat's secret seed (so the file is 0600), the
accepted frames, the opening of a commitment this seat has sent but not yet
opened (a Mined Games COMMIT: written in the same transaction as that frame, so
a resumed seat can still open it), the frames a rival superseded
(spec/10-session.md 10.8: records, never part of the transcript) and, if the
game stopped on a proven violation, the frame that proved it.

A database is untrusted input: any file can land in the games folder, and a crafted
one brings its own schema, so a column declared BLOB may hold an integer, text or NULL.
`GameStore.open` reads the file read-only until it has compared the schema with the one
this code creates and checked every value the store reads. A value is fetched only
once SQL has said it is a blob within its limit (`_CHECKED`), so nothing is allocated
beyond the spec's sizes. A file that fails is a `CorruptGame`: one line naming it and
what is wrong.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from protocol.errors import DealerlessError, Violation
from protocol.frames import MAX_FRAME_BYTES
from protocol.referee import Referee
from protocol.setup import MAX_SETUP_BYTES, GameSetup
from protocol.transcript import MAX_EVIDENCE, MAX_FRAMES, Transcript

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS frames (seq INTEGER PRIMARY KEY, wire BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS evidence (id INTEGER PRIMARY KEY, wire BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS openings (stage INTEGER PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS superseded (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL,
                                       wire BLOB NOT NULL);
"""
#: `PRAGMA user_version` of the schema above: this code has never set one.
USER_VERSION = 0
#: The seat secret `create` is given (os.urandom(32) by the handshake).
SEED_BYTES = 32
#: A seat owes at most one opening at a time: that of its commitment in the current stage
#: (spec/rules/mined-games.md D17).
MAX_OPENINGS = 1
#: The most superseded frames a store keeps (10.8): as many as a transcript's frames.
MAX_SUPERSEDED = MAX_FRAMES
#: The meta values read as text: UTF-8 without control characters, no longer than a frame.
TEXT_KEYS = ("seat", "role", "url", "listen", "path", "bot", "status")

#: A BLOB column as (SQLite type, length, value); the value is fetched only if it is a
#: blob of at most :limit bytes, and is NULL otherwise (`_blob` then says why).
_CHECKED = ("typeof({0}), length({0}), "
            "CASE WHEN typeof({0}) = 'blob' AND length({0}) <= :limit THEN {0} END")


class StoreError(Exception):
    """A game database is missing, unreadable or not a dealerless game."""


class CorruptGame(StoreError):
    """A file refused by `GameStore.open`: not this code's schema, or a value of the wrong
    type or size. str() is one line naming the file and what is wrong."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(_line(f"{path} is not a dealerless game database: {what}"))
        self.path = path


def _line(text: str) -> str:
    """`text` with every control character escaped: file names and SQLite's messages
    come from the file, and a refusal is one line that cannot drive the terminal."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


class GameStore:
    """One game's database. Every write is one committed transaction."""

    def __init__(self, path: Path, setup: GameSetup, seat: int) -> None:
        self.path, self.setup, self.seat = path, setup, seat
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)

    @classmethod
    def create(cls, games_dir: Path, setup: GameSetup, seat: int, secret_seed: bytes,
               meta: dict[str, str]) -> GameStore:
        if not 0 <= seat < setup.seats or len(secret_seed) != SEED_BYTES:
            raise ValueError(f"a store holds a seat of the game and a {SEED_BYTES}-byte secret")
        games_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = games_dir / f"{setup.game_id.hex()[:16]}.sqlite"
        if path.exists():
            raise StoreError(f"a game database already exists at {path}")
        # Created 0600 before anything is written: it holds this seat's secret seed.
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        store = cls(path, setup, seat)
        with store.db:
            store.db.execute("BEGIN IMMEDIATE")
            rows = {"setup": setup.encode(), "seat": str(seat).encode(),
                    "secret_seed": secret_seed, "created": str(int(time.time())).encode(),
                    **{k: v.encode() for k, v in meta.items()}}
            store.db.executemany("INSERT INTO meta VALUES (?, ?)", rows.items())
        return store

    @classmethod
    def open(cls, path: Path) -> GameStore:
        """The game at `path` once the file has passed every check: StoreError if there
        is none, CorruptGame if it fails one."""
        if not path.is_file():
            raise StoreError(_line(f"no game database at {path}"))
        # Read-only until it passes: only a dealerless game gets WAL mode and the schema.
        try:
            probe = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise CorruptGame(path, str(exc)) from None
        with contextlib.closing(probe):
            setup, seat = _check(probe, path)
        try:
            return cls(path, setup, seat)
        except sqlite3.Error as exc:
            raise StoreError(_line(f"cannot open {path}: {exc}")) from None

    def close(self) -> None:
        self.db.close()

    # -- reads: every value checked (`_CHECKED`) -----------------------------------------

    def meta(self, key: str, default: str = "") -> str:
        value = _text(self.db, self.path, key)
        return default if value is None else value

    @property
    def secret_seed(self) -> bytes:
        seed = _meta(self.db, self.path, "secret_seed", SEED_BYTES)
        if seed is None:
            raise CorruptGame(self.path, "it has no seat secret")
        return seed

    def frames(self, start: int = 0) -> list[bytes]:
        return _wires(self.db, self.path, "frames", "seq", "WHERE seq >= :start",
                      {"start": start})

    def openings(self) -> dict[int, bytes]:
        """The kept opening(s), by stage, as `SeatAgent.openings` gave them."""
        return _openings(self.db, self.path)

    def frame_count(self) -> int:
        return int(_rows(self.db, self.path, "SELECT count(*) FROM frames")[0][0])

    def referee(self) -> Referee:
        """Rebuild the referee by replaying the stored frames (they were checked once)."""
        ref = Referee(self.setup)
        for wire in self.frames():
            ref.receive(wire)
        # The frame (or evidence record) that proved a violation: receiving it again
        # makes the referee keep the same violation, as it did when the game stopped,
        # so a resumed game never goes on signing frames to a proven cheater.
        for proof in [self._offending(), *self._evidence()]:
            if proof is not None and ref.violation is None:
                with contextlib.suppress(Violation):
                    ref.receive(proof)
        return ref

    def transcript(self) -> Transcript:
        frames = tuple(self.frames())
        offending = self._offending()
        if offending is not None:
            frames += (offending,)
        return Transcript(self.setup, frames, tuple(self._evidence()))

    def superseded(self) -> list[bytes]:
        """The frames this seat held until a rival took their place (10.8), oldest first."""
        return _wires(self.db, self.path, "superseded", "id")

    def _offending(self) -> bytes | None:
        return _meta(self.db, self.path, "offending", MAX_FRAME_BYTES)

    def _evidence(self) -> list[bytes]:
        return _wires(self.db, self.path, "evidence", "id")

    # -- writes: one transaction each ----------------------------------------------------

    def append(self, seq: int, wire: bytes, openings: dict[int, bytes] | None = None) -> None:
        """Persist an accepted (or about to be sent) frame; idempotent for the same bytes.
        With `openings` (this seat's own frame), they replace the kept openings in the same
        transaction, so a COMMIT is never stored without what opens it."""
        if openings is not None and (len(openings) > MAX_OPENINGS or any(
                len(v) > MAX_FRAME_BYTES for v in openings.values())):
            raise ValueError(f"a seat keeps at most {MAX_OPENINGS} opening of at most "
                             f"{MAX_FRAME_BYTES} bytes")
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            stored = _wires(self.db, self.path, "frames", "seq", "WHERE seq = :seq",
                            {"seq": seq})
            if stored:
                if stored[0] != wire:
                    raise StoreError(f"step {seq} already holds a different frame")
                return
            self.db.execute("INSERT INTO frames VALUES (?, ?)", (seq, wire))
            if openings is not None:
                self.db.execute("DELETE FROM openings")
                self.db.executemany("INSERT INTO openings VALUES (?, ?)", openings.items())

    def rewind(self, seq: int) -> None:
        """Move the frames from `seq` on to the superseded records, in one transaction:
        a rival took place `seq` (10.8). Only records beyond MAX_SUPERSEDED, the
        oldest first, are ever forgotten."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT INTO superseded (seq, wire) SELECT seq, wire FROM frames "
                            "WHERE seq >= ? ORDER BY seq", (seq,))
            self.db.execute("DELETE FROM frames WHERE seq >= ?", (seq,))
            self.db.execute("DELETE FROM superseded WHERE id NOT IN (SELECT id FROM "
                            "superseded ORDER BY id DESC LIMIT ?)", (MAX_SUPERSEDED,))

    def set_meta(self, key: str, value: bytes | str) -> None:
        data = value.encode() if isinstance(value, str) else value
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, data))

    def overwrite_meta(self, key: str, value: str) -> None:
        """set_meta, leaving no copy of the old value in the file: SQLite zeroes what it
        frees (secure_delete) and the write-ahead log is checkpointed and truncated."""
        self.db.execute("PRAGMA secure_delete = ON")
        self.set_meta(key, value)
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

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


# -- reading an untrusted file ---------------------------------------------------------


def _schema(db: sqlite3.Connection) -> list[tuple[Any, ...]]:
    """The schema's rows as bytes: a crafted name need not be UTF-8."""
    return db.execute("SELECT CAST(type AS BLOB), CAST(name AS BLOB), CAST(tbl_name AS BLOB), "
                      "CAST(sql AS BLOB) FROM sqlite_master ORDER BY 1, 2").fetchall()


def _created_schema() -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        db.executescript(SCHEMA)
        return _schema(db)


#: The schema exactly as SQLite records it for `SCHEMA`.
EXPECTED_SCHEMA = _created_schema()


def _check(db: sqlite3.Connection, path: Path) -> tuple[GameSetup, int]:
    """The setup and seat of a file that passes every check `open` makes, cheapest first."""
    try:
        schema = _schema(db)
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error as exc:
        raise CorruptGame(path, str(exc)) from None
    except UnicodeDecodeError:  # SQLite's own message quoted a name that is not UTF-8
        raise CorruptGame(path, "its schema does not parse") from None
    if schema != EXPECTED_SCHEMA:
        raise CorruptGame(path, f"its schema is not the game store's ({_diff(schema)})")
    if version != USER_VERSION:
        raise CorruptGame(path, f"its user_version is {version}, not {USER_VERSION}")
    data = _meta(db, path, "setup", MAX_SETUP_BYTES)
    if data is None:
        raise CorruptGame(path, "it has no setup")
    try:
        setup = GameSetup.decode(data)
    except DealerlessError as exc:
        raise CorruptGame(path, f"its setup does not decode ({exc})") from None
    seat = {key: _text(db, path, key) for key in TEXT_KEYS}["seat"]  # each one checked
    if seat not in [str(s) for s in range(setup.seats)]:
        raise CorruptGame(path, f"its seat {seat!r} is not one of 0 to {setup.seats - 1}")
    if len(_meta(db, path, "secret_seed", SEED_BYTES) or b"") != SEED_BYTES:
        raise CorruptGame(path, f"its seat secret is not {SEED_BYTES} bytes")
    offending = _meta(db, path, "offending", MAX_FRAME_BYTES)
    count, first, last = _rows(db, path, "SELECT count(*), min(seq), max(seq) FROM frames")[0]
    if count and (first, last) != (0, count - 1):
        raise CorruptGame(path, f"its {count} frames are not numbered 0 to {count - 1}")
    if count + (offending is not None) > MAX_FRAMES:  # the transcript's limits (8.6)
        raise CorruptGame(path, f"it holds more than the {MAX_FRAMES} frames of a transcript")
    if _rows(db, path, "SELECT count(*) FROM evidence")[0][0] > MAX_EVIDENCE:
        raise CorruptGame(path, f"it holds more than {MAX_EVIDENCE} evidence records")
    if _rows(db, path, "SELECT count(*) FROM superseded")[0][0] > MAX_SUPERSEDED:
        raise CorruptGame(path, f"it holds more than {MAX_SUPERSEDED} superseded frames")
    # Each raises on its first bad value.
    for table, key in (("frames", "seq"), ("evidence", "id"), ("superseded", "id")):
        _wires(db, path, table, key, "WHERE NOT (typeof(wire) = 'blob' AND "
               "length(wire) <= :limit)", most=1)
    _openings(db, path)
    return setup, int(seat)


def _diff(schema: list[tuple[Any, ...]]) -> str:
    """What differs from EXPECTED_SCHEMA, by name."""
    want = {row[1]: row for row in EXPECTED_SCHEMA}
    have = {row[1]: row for row in schema}
    parts = ([f"no {n.decode()}" for n in want if n not in have]
             + [f"a different {n.decode()}" for n in want if n in have and have[n] != want[n]]
             + [f"an extra {(n or b'').decode(errors='replace')}" for n in have if n not in want])
    return ", ".join(parts) or "its rows differ"


def _rows(db: sqlite3.Connection, path: Path, sql: str,
          params: dict[str, Any] | None = None) -> list[Any]:
    try:
        return db.execute(sql, params or {}).fetchall()
    except sqlite3.Error as exc:
        raise StoreError(_line(f"cannot read {path}: {exc}")) from None


def _blob(path: Path, row: tuple[Any, ...], limit: int, what: str) -> bytes:
    """The value of a `_CHECKED` triple, or CorruptGame saying why it is none."""
    kind, length, value = row
    if isinstance(value, bytes):
        return value
    if kind != "blob":
        raise CorruptGame(path, f"{what} holds SQLite {kind}, not a blob")
    raise CorruptGame(path, f"{what} is {length} bytes, more than {limit}")


def _meta(db: sqlite3.Connection, path: Path, key: str, limit: int) -> bytes | None:
    rows = _rows(db, path, f"SELECT {_CHECKED.format('value')} FROM meta WHERE key = :key",
                 {"key": key, "limit": limit})
    return _blob(path, rows[0], limit, f"meta {key}") if rows else None


def _text(db: sqlite3.Connection, path: Path, key: str) -> str | None:
    data = _meta(db, path, key, MAX_FRAME_BYTES)
    if data is None:
        return None
    try:
        text = data.decode()
    except UnicodeDecodeError:
        raise CorruptGame(path, f"meta {key} is not UTF-8 text") from None
    if not text.isprintable():
        raise CorruptGame(path, f"meta {key} holds control characters")
    return text


def _wires(db: sqlite3.Connection, path: Path, table: str, key: str, where: str = "",
           params: dict[str, Any] | None = None, most: int = -1) -> list[bytes]:
    """The frames or evidence records in order (the first `most`; -1: all), each a blob
    of at most MAX_FRAME_BYTES."""
    rows = _rows(db, path, f"SELECT {key}, {_CHECKED.format('wire')} FROM {table} {where} "
                 f"ORDER BY {key} LIMIT :most",
                 {**(params or {}), "limit": MAX_FRAME_BYTES, "most": most})
    return [_blob(path, row[1:], MAX_FRAME_BYTES, f"{table} {key} {row[0]}") for row in rows]


def _openings(db: sqlite3.Connection, path: Path) -> dict[int, bytes]:
    """The openings table: at most MAX_OPENINGS rows, each a stage below MAX_FRAMES (a
    stage takes frames) and a blob of at most MAX_FRAME_BYTES (it fits an OPEN frame)."""
    if _rows(db, path, "SELECT count(*) FROM openings")[0][0] > MAX_OPENINGS:
        raise CorruptGame(path, f"it keeps more than {MAX_OPENINGS} opening")
    rows = _rows(db, path, f"SELECT stage, {_CHECKED.format('value')} FROM openings "
                 "ORDER BY stage", {"limit": MAX_FRAME_BYTES})
    kept = {}
    for stage, *cell in rows:
        if not 0 <= stage < MAX_FRAMES:
            raise CorruptGame(path, f"it keeps an opening of stage {stage}, not 0 to "
                              f"{MAX_FRAMES - 1}")
        kept[stage] = _blob(path, tuple(cell), MAX_FRAME_BYTES, f"opening {stage}")
    return kept
