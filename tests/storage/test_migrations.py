"""Schema migrations: from an empty file and from every earlier version, atomic, refused when newer."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from storage.errors import DatabaseUnusable, MigrationError
from storage.migrate import (
    APPLICATION_ID,
    POSTGRESQL_MIGRATIONS,
    Migration,
    load_migrations,
    migrate,
    schema_version,
    split_statements,
)
from storage.replay import read_full_log, verify_game
from storage.sqlite import SqliteRepository, connect, open_repository
from tests.storage.helpers import HOST, play_one, started_game

LATEST = len(load_migrations())


def schema_of(path: Path) -> list[tuple[str, str, str]]:
    """Every table, index and trigger of the database with its SQL, sorted."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name"
        ).fetchall()
    conn.close()
    return [(t, n, s) for t, n, s in rows]


async def raw_connection(path: Path) -> aiosqlite.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    return await aiosqlite.connect(path, isolation_level=None)


def test_both_backends_have_the_same_migration_numbers_and_names() -> None:
    """Each SQLite step has its PostgreSQL twin (issue 18): same number, same name."""
    sqlite = [(m.version, m.name) for m in load_migrations()]
    postgresql = [(m.version, m.name) for m in load_migrations(POSTGRESQL_MIGRATIONS)]
    assert postgresql == sqlite


def test_packaged_migrations_are_numbered_from_one() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, LATEST + 1))
    assert migrations[0].name == "initial"


async def test_fresh_database_gets_every_migration(db_path: Path) -> None:
    repo = await open_repository(db_path)
    await repo.close()
    with sqlite3.connect(db_path) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY 1")]
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    conn.close()
    assert versions == list(range(1, LATEST + 1))
    assert app_id == APPLICATION_ID
    assert mode == "wal"
    tables = {name for kind, name, _ in schema_of(db_path) if kind == "table"}
    assert {"games", "seats", "game_log", "decks", "guild_settings", "deadlines"} <= tables


@pytest.mark.parametrize("start", range(LATEST))
async def test_upgrade_from_every_earlier_version_matches_a_fresh_schema(
    tmp_path: Path, start: int
) -> None:
    fresh, old = tmp_path / "fresh.db", tmp_path / "old.db"
    await (await open_repository(fresh)).close()
    conn = await raw_connection(old)
    await migrate(conn, target=start)
    assert await schema_version(conn) == start
    await conn.close()

    repo = await open_repository(old)
    await repo.close()
    assert schema_of(old) == schema_of(fresh)


async def test_reopening_a_current_database_applies_nothing_and_keeps_data(
    db_path: Path,
) -> None:
    repo = await open_repository(db_path)
    game = await repo.create_game(7, ruleset="dice_race", options={"target": 12}, seed=5)
    await repo.close()
    conn = await raw_connection(db_path)
    assert await migrate(conn) == []
    await conn.close()
    repo = await open_repository(db_path)
    again = await repo.get_game(game.id)
    await repo.close()
    assert (again.channel_id, again.options, again.seed) == (7, {"target": 12}, 5)


async def test_a_game_started_before_schema_5_keeps_playing_after_the_upgrade(
    db_path: Path,
) -> None:
    db_path.parent.mkdir(parents=True)
    writer, reader = await connect(db_path, 5.0), await connect(db_path, 5.0)
    await migrate(writer, target=4)
    old = SqliteRepository(db_path, writer, reader)
    game = await started_game(old, 1, options={"target": 100_000})
    await old.pause(game.id, moderator_user_id=HOST, reason="lunch")  # seq moves, version not
    await old.resume(game.id, moderator_user_id=HOST, reason="back")
    await old.close()

    repo = await open_repository(db_path)  # schema 5: a commit is one statement
    try:
        rng = random.Random(4)
        entries = [await play_one(repo, game.id, rng) for _ in range(5)]
        assert [(e.seq, e.version_after) for e in entries] == [(4 + i, 1 + i) for i in range(5)]
        log = await read_full_log(repo, game.id)
        assert [e.seq for e in log] == list(range(1, 9))
        assert log[-5:] == entries
        assert (await verify_game(repo, game.id)).ok
    finally:
        await repo.close()


SYNTHETIC = (
    Migration(1, "things", "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL);"),
    Migration(2, "colour", "ALTER TABLE things ADD COLUMN colour TEXT NOT NULL DEFAULT 'red';"),
)


async def test_a_later_migration_keeps_rows_written_at_an_earlier_version(tmp_path: Path) -> None:
    conn = await raw_connection(tmp_path / "x.db")
    assert await migrate(conn, SYNTHETIC, target=1) == [1]
    await conn.execute("INSERT INTO things (name) VALUES ('golem')")
    assert await migrate(conn, SYNTHETIC) == [2]
    rows = await conn.execute_fetchall("SELECT name, colour FROM things")
    await conn.close()
    assert [tuple(r) for r in rows] == [("golem", "red")]


async def test_a_failing_migration_is_rolled_back_entirely(tmp_path: Path) -> None:
    broken = (
        SYNTHETIC[0],
        Migration(
            2,
            "broken",
            "CREATE TABLE other (x INTEGER);\nINSERT INTO things (missing) VALUES (1);",
        ),
    )
    conn = await raw_connection(tmp_path / "x.db")
    with pytest.raises(MigrationError, match=r"0002_broken failed .* left at schema 1"):
        await migrate(conn, broken)
    assert await schema_version(conn) == 1
    tables = await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE name = 'other'")
    await conn.close()
    assert list(tables) == []


async def test_migrations_out_of_sequence_are_refused(tmp_path: Path) -> None:
    conn = await raw_connection(tmp_path / "x.db")
    with pytest.raises(MigrationError, match="out of sequence"):
        await migrate(conn, (SYNTHETIC[1],))
    await conn.close()


async def test_a_database_from_a_newer_version_is_refused_untouched(db_path: Path) -> None:
    await (await open_repository(db_path)).close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (?, 'future', 0)", (LATEST + 1,))
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(DatabaseUnusable, match=f"newer Heroes Table .*schema {LATEST + 1}"):
        await open_repository(db_path)
    assert db_path.read_bytes() == before


async def test_two_openers_racing_on_a_new_file_migrate_it_once(db_path: Path) -> None:
    first, second = await asyncio.gather(open_repository(db_path), open_repository(db_path))
    await first.close()
    await second.close()
    with sqlite3.connect(db_path) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_version")]
    conn.close()
    assert versions == list(range(1, LATEST + 1))


@pytest.mark.slow
async def test_many_openers_racing_on_new_files_all_open_it(tmp_path: Path) -> None:
    """Four openers at once on each of 100 new files (bots restarted together, a backup and
    the bot...): every one opens the file, none takes it for another program's database
    (the application id and the tables are read in one statement) or gives up on SQLite's
    immediate "database is locked" while another switches the new file to WAL (retried
    within the busy timeout). Before both fixes about 1 opener in 100 failed here."""
    failures: list[str] = []
    for n in range(100):
        path = tmp_path / f"race{n}" / "heroes-table.db"
        opened = await asyncio.gather(
            *(open_repository(path) for _ in range(4)), return_exceptions=True
        )
        for repo in opened:
            if isinstance(repo, BaseException):
                failures.append(f"{path.parent.name}: {repo}")
            else:
                await repo.close()
        with sqlite3.connect(path) as conn:
            versions = [r[0] for r in conn.execute("SELECT version FROM schema_version")]
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        conn.close()
        assert (versions, mode) == (list(range(1, LATEST + 1)), "wal")
    assert failures == []


def test_statements_split_on_semicolons_but_keep_trigger_bodies_whole() -> None:
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE a (x TEXT DEFAULT 'a;b');\n"
        "CREATE TRIGGER t BEFORE DELETE ON a\nBEGIN\n    SELECT RAISE(ABORT, 'no');\nEND;\n"
        "-- trailing comment\n"
    )
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


def test_an_unterminated_statement_is_an_error() -> None:
    with pytest.raises(MigrationError, match="Unterminated"):
        split_statements("CREATE TABLE a (x)")
