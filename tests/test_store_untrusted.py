"""A game database is untrusted input (issue 22): a crafted file keeps its own schema, so
a column the store reads as a BLOB may hold NULL, an integer, a real, text or an
oversized blob. Whatever it holds, `GameStore.open` accepts the file and every read
works, or it refuses it with one `CorruptGame` line naming the file; `games` names the
file on stderr and lists the others, `export` and `resume` exit 1 (spec/12-peers.md
12.7: an unreadable database is invalid input). Never a traceback, and never an
allocation beyond the spec's limits: the commands run in 1 GB of address space while a
file asks for 3 GB.
"""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peers.cli.main import main
from peers.entropy import Entropy
from peers.store.finding import find_game, list_games
from peers.store.games import SCHEMA, CorruptGame, GameStore
from peers.table.selfplay import Table, rule_params
from peers.web.api import Api
from peers.web.tables import TableError, Tables
from protocol.frames import MAX_FRAME_BYTES
from protocol.identity import Identity
from protocol.transcript import MAX_EVIDENCE, MAX_FRAMES

CLI = [sys.executable, "-m", "peers.cli"]

TABLE = Table.create("bram", rule_params("bram", 2), ["greedy"] * 2, Entropy(22))
FRAMES = list(TABLE.play().frames)
#: A finished game as seat 1 stored it, so `resume` of a readable copy reaches nobody.
META: dict[str, Any] = {"setup": TABLE.setup.encode(), "seat": b"1", "secret_seed": bytes(32),
                        "created": b"1700000000", "role": b"join", "status": b"complete",
                        "url": b"ws://127.0.0.1:9/room/" + b"ab" * 8, "bot": b"greedy"}

#: A cell is (an SQL expression with one ?, its parameter); None leaves the row out.
Cell = tuple[str, Any] | None
ints = st.sampled_from([0, 1, -1, 3_000_000_000, 2**62, 2**63 - 1, -2**63]) \
    | st.integers(-2**63, 2**63 - 1)
cells: st.SearchStrategy[Cell] = st.one_of(
    st.none(), st.just(("?", None)),
    ints.map(lambda n: ("?", n)),
    st.floats().map(lambda x: ("?", x)),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=12).map(lambda t: ("?", t)),
    st.binary(max_size=12).map(lambda b: ("CAST(? AS TEXT)", b)),   # text, often not UTF-8
    st.binary(max_size=40).map(lambda b: ("?", b)),
    st.sampled_from([b"0", b"1", b"2", b"-1", b"01", b"1\n", b"\x1b[2J", b"\xff",
                     FRAMES[0], META["setup"]]).map(lambda b: ("?", b)),
    st.sampled_from([33, 4097, MAX_FRAME_BYTES + 1]).map(lambda n: ("zeroblob(?)", n)),
)
targets = st.sampled_from([("meta", k) for k in [*META, "offending", "listen", "path"]]
                          + [("frames", s) for s in (0, 1, len(FRAMES) - 1)]
                          + [("evidence", 1)])


def craft(path: Path, changes: dict[tuple[str, Any], Cell] | None = None,
          schema: str = SCHEMA, user_version: int = 0) -> Path:
    """A game database with `changes` made to its cells. Its tables are made without
    NOT NULL, filled, then given the text `schema` records, as a crafted file can be."""
    cells: dict[tuple[str, Any], Cell] = {("meta", k): ("?", v) for k, v in META.items()}
    cells |= {("frames", seq): ("?", w) for seq, w in enumerate(FRAMES)}
    cells |= changes or {}
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(schema.replace(" NOT NULL", ""))
    with db:
        db.execute("BEGIN")
        for (table, key), cell in cells.items():
            if cell is not None:
                db.execute(f"INSERT INTO {table} VALUES (?, {cell[0]})", (key, cell[1]))
    db.execute("PRAGMA writable_schema = ON")
    with contextlib.closing(sqlite3.connect(":memory:")) as recorded:
        recorded.executescript(schema)
        for name, sql in recorded.execute("SELECT name, sql FROM sqlite_master "
                                          "WHERE type = 'table'"):
            db.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?", (sql, name))
    db.execute(f"PRAGMA user_version = {user_version}")
    db.close()
    return path


def one_line_naming(text: str, path: Path) -> bool:
    lines = text.strip().splitlines()
    return len(lines) == 1 and str(path) in lines[0] and "Traceback" not in text


def dealerless(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def check_rule(home: Path, path: Path) -> CorruptGame | None:
    """The rule of issue 22 for one file in `home`'s games folder; its refusal, if any."""
    try:
        store = GameStore.open(path)
    except CorruptGame as exc:
        refused: CorruptGame | None = exc
    else:
        refused = None
        for wire in [*store.frames(), *store.transcript().frames]:
            assert type(wire) is bytes and len(wire) <= MAX_FRAME_BYTES
        assert store.frame_count() == len(store.frames())
        assert len(store.secret_seed) == 32 and store.seat in (0, 1)
        for key in ("role", "url", "listen", "path", "bot", "status"):
            assert store.meta(key).isprintable()
        store.close()
    games, refusals = list_games(home / "games")
    assert [g.path for g in games] == ([] if refused else [path])
    assert [str(r) for r in refusals] == ([str(refused)] if refused else [])
    code, out, err = dealerless("games", "--home", str(home))
    assert code == 0 and (out == "") == bool(refused)
    assert (f"dealerless: games: {refused}\n" in err) == bool(refused), err
    out_file = home / "out.t"
    code, _, err = dealerless("export", str(path), str(out_file), "--home", str(home))
    if refused is None:
        assert code == 0 and out_file.exists(), err
        return None
    assert one_line_naming(str(refused), path), refused
    assert code == 1 and one_line_naming(err, path) and not out_file.exists(), err
    code, out, err = dealerless("resume", str(path), "--bot", "greedy", "--home", str(home))
    assert code == 1 and out == "" and one_line_naming(err, path), err
    return refused


def test_the_crafted_copy_of_a_good_game_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    path = craft(tmp_path / "games" / f"{TABLE.setup.game_id.hex()[:16]}.sqlite")
    assert check_rule(tmp_path, path) is None
    store = GameStore.open(path)
    assert store.transcript().frames == tuple(FRAMES) and store.seat == 1
    assert find_game(tmp_path / "games", TABLE.setup.game_id.hex()[:20]) == path


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.dictionaries(targets, cells, min_size=1, max_size=3))
def test_every_cell_holding_anything_is_accepted_or_refused_in_one_line(
        changes: dict[tuple[str, Any], Cell]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "games").mkdir()
        path = craft(home / "games" / "crafted.sqlite", changes)
        check_rule(home, path)


def _table(name: str, columns: str) -> str:
    return f"CREATE TABLE {name} ({columns});"


WRONG_SCHEMAS = {
    "missing table": SCHEMA.replace("CREATE TABLE IF NOT EXISTS evidence", "-- "),
    "extra table": SCHEMA + _table("stray", "x"),
    "missing column": SCHEMA.replace("evidence (id INTEGER PRIMARY KEY, wire BLOB NOT NULL)",
                                     "evidence (id INTEGER PRIMARY KEY)"),
    "extra column": SCHEMA.replace("evidence (id INTEGER PRIMARY KEY, wire BLOB NOT NULL",
                                   "evidence (id INTEGER PRIMARY KEY, wire BLOB NOT NULL, x"),
    "other create text": SCHEMA.replace("value BLOB", "value  BLOB"),
    "no NOT NULL": SCHEMA.replace("value BLOB NOT NULL", "value BLOB"),
    "extra index": SCHEMA + "CREATE INDEX wires ON frames (wire);",
    "a trigger": SCHEMA + "CREATE TRIGGER t AFTER INSERT ON evidence BEGIN "
                          "DELETE FROM meta; END;",
    "a view": SCHEMA + "CREATE VIEW v AS SELECT 1;",
}


@pytest.mark.parametrize("case", sorted(WRONG_SCHEMAS))
def test_a_wrong_schema_is_refused(tmp_path: Path, case: str) -> None:
    (tmp_path / "games").mkdir()
    path = craft(tmp_path / "games" / "x.sqlite", schema=WRONG_SCHEMAS[case])
    refused = check_rule(tmp_path, path)
    assert refused is not None and "schema" in str(refused)


def test_a_schema_version_from_elsewhere_is_refused(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    path = craft(tmp_path / "games" / "x.sqlite", user_version=7)
    refused = check_rule(tmp_path, path)
    assert refused is not None and "user_version is 7" in str(refused)


@pytest.mark.parametrize("sql", [
    # a table whose name (in its row and its CREATE text) is not UTF-8
    "UPDATE sqlite_master SET name = CAST(x'ff' AS TEXT), tbl_name = CAST(x'ff' AS TEXT), "
    "sql = CAST(x'435245415445205441424c452022ff2220287829' AS TEXT) WHERE name = 's'",
    # a name that is not UTF-8 and does not parse: SQLite's own message quotes it
    "UPDATE sqlite_master SET name = CAST(x'ff1b' AS TEXT) WHERE name = 's'",
    # a column name that is not UTF-8
    "UPDATE sqlite_master SET sql = CAST(x'435245415445205441424c4520732028ff29' AS TEXT) "
    "WHERE name = 's'",
])
def test_names_that_are_not_utf8_are_refused(tmp_path: Path, sql: str) -> None:
    (tmp_path / "games").mkdir()
    path = craft(tmp_path / "games" / "x.sqlite", schema=SCHEMA + _table("s", "x"))
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA writable_schema = ON")
    db.execute(sql)
    db.close()
    refused = check_rule(tmp_path, path)
    assert refused is not None and "schema" in str(refused) and str(refused).isprintable()


@pytest.mark.parametrize(("changes", "why"), [
    ({("frames", s): ("?", b"f") for s in range(len(FRAMES), MAX_FRAMES + 1)},
     f"more than the {MAX_FRAMES} frames"),
    ({("frames", s): ("?", b"f") for s in range(len(FRAMES), MAX_FRAMES)}
     | {("meta", "offending"): ("?", b"f")}, f"more than the {MAX_FRAMES} frames"),
    ({("frames", len(FRAMES) + 1): ("?", b"f")}, f"not numbered 0 to {len(FRAMES)}"),
    ({("frames", -1): ("?", b"f")}, f"not numbered 0 to {len(FRAMES)}"),
    ({("evidence", i): ("?", b"e") for i in range(MAX_EVIDENCE + 1)},
     f"more than {MAX_EVIDENCE} evidence records"),
])
def test_more_rows_than_a_transcript_holds_are_refused(
        tmp_path: Path, changes: dict[tuple[str, Any], Cell], why: str) -> None:
    (tmp_path / "games").mkdir()
    refused = check_rule(tmp_path, craft(tmp_path / "games" / "x.sqlite", changes))
    assert refused is not None and why in str(refused)


def test_games_lists_the_good_and_names_each_bad_file(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    good = craft(games / f"{TABLE.setup.game_id.hex()[:16]}.sqlite")
    bad = [craft(games / "a.sqlite", {("meta", "setup"): ("?", 3_000_000_000)}),
           craft(games / "b\nc.sqlite", {("frames", 0): ("?", "text")})]
    (games / "d.sqlite").write_bytes(b"SQLite format 3\x00" + os.urandom(2000))
    (games / "e.sqlite").write_text("not a database\n")
    code, out, err = dealerless("games", "--home", str(tmp_path))
    assert code == 0 and out.split()[0] == TABLE.setup.game_id.hex()[:16]
    lines = err.splitlines()
    assert len(lines) == 4 and all(" is not a dealerless game database: " in x for x in lines)
    assert "meta setup holds SQLite integer, not a blob" in lines[0] and str(bad[0]) in lines[0]
    assert "b\\nc.sqlite" in lines[1] and "frames seq 0 holds SQLite text" in lines[1]
    assert [g.path for g in list_games(games)[0]] == [good]


@pytest.mark.asyncio
async def test_the_web_server_skips_and_refuses_a_bad_file(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    craft(games / "0123456789abcdef.sqlite", {("meta", "seat"): ("?", 2**62)})
    tables = Tables(tmp_path, Identity(bytes(32)))
    api = Api(tables)
    assert api._games() == []
    request = make_mocked_request("GET", "/api/games/0123/transcript",
                                  match_info={"game": "0123"})
    with pytest.raises(web.HTTPBadRequest) as refused:
        await api.export(request)
    assert refused.value.text is not None and "seat holds SQLite integer" in refused.value.text
    for name in ("0123", "ffff"):  # a bad file, and no file at all
        with pytest.raises(TableError):
            await tables.resume(name, 300.0)


#: Runs a command in at most argv[1] bytes of address space; prints its exit code, its
#: seconds and its peak resident memory in KB. A child forked from pytest would count
#: pytest's own pages in its peak until it execs, so this small process is the parent.
MEASURE = """
import resource, subprocess, sys, time
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]),) * 2)
start = time.monotonic()
code = subprocess.run(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL).returncode
print(code, time.monotonic() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def _measured(args: list[str], address_space: int) -> tuple[int, str, float, float]:
    """`dealerless args` run in `address_space` bytes: exit code, stderr, seconds, MB."""
    proc = subprocess.run([sys.executable, "-c", MEASURE, str(address_space), *CLI, *args],
                          capture_output=True, text=True, timeout=60)
    code, seconds, kilobytes = proc.stdout.split()
    return int(code), proc.stderr, float(seconds), int(kilobytes) / 1024


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS and ru_maxrss in KB: Linux")
def test_an_integer_of_three_billion_is_refused_fast_and_small(tmp_path: Path) -> None:
    """The issue's cases: 3e9 in the setup (3 GB asked for on open) and 2e8 in a frame
    (200 MB written by export). Measured: about 0.4 s and 42 MB each."""
    games = tmp_path / "games"
    games.mkdir()
    setup = craft(games / "0123456789abcdef.sqlite", {("meta", "setup"): ("?", 3_000_000_000)})
    frame = craft(tmp_path / "frame.sqlite", {("frames", 5): ("?", 200_000_000)})
    home = ["--home", str(tmp_path)]
    runs = {"games": ["games", *home], "export": ["export", "0123", str(tmp_path / "o"), *home],
            "resume": ["resume", "0123", "--bot", "greedy", *home],
            "export frame": ["export", str(frame), str(tmp_path / "o"), *home]}
    for name, args in runs.items():
        code, err, seconds, megabytes = _measured(args, 1 << 30)
        print(f"{name}: exit {code}, {seconds:.2f} s, {megabytes:.0f} MB")
        assert code == (0 if name == "games" else 1), err
        refusal = err.removesuffix("no local games\n")  # games: also says none are left
        assert one_line_naming(refusal, frame if name == "export frame" else setup), err
        assert seconds < 5 and megabytes < 100, (name, seconds, megabytes)
    assert not (tmp_path / "o").exists()
