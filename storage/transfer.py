"""Copy a live SQLite install into PostgreSQL and prove the copy by replay (issue 18:
``heroes-table migrate-db --to postgresql://...``).

Order of work, so that a mistake changes nothing:

1. The URL must be PostgreSQL's; the SQLite file is checked read-only (ours, current);
   then the server is reached. A bad URL, an unreachable server or an unusable source
   raises `DatabaseUnusable` before anything is written anywhere.
2. The target must hold no game (no row in any of our tables) unless ``replace=True``,
   which drops our tables there first and builds them anew.
3. The SQLite file is opened read-only and read inside ONE read transaction: in WAL mode
   that is one consistent snapshot while the bot keeps writing. Its schema version must
   be the newest this code knows (a bot start migrates it).
4. Every table is copied with ``COPY`` in ONE PostgreSQL transaction, parents before
   children (foreign keys), each in primary-key order, with the target's own triggers
   switched off for it (the rows are history: the log's triggers must not add news owed
   or count missed deadlines again). The identity counters then continue after the copied
   ids. Either everything lands or nothing does.
5. Row counts are compared table by table, and every started game is replayed from its
   seed and log and compared with its snapshot (`storage.replay.verify_game`).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.core.ruleset import Ruleset
from storage.errors import DatabaseUnusable, StorageError
from storage.migrate import APPLICATION_ID, load_migrations
from storage.postgres import (
    Connection,
    PostgresRepository,
    is_postgres_url,
    open_postgres,
    redact_url,
)
from storage.replay import Verification, verify_games

_BATCH = 2000
"""Rows per ``COPY`` batch (bounded memory whatever the table's size)."""


@dataclass(frozen=True, slots=True)
class TransferReport:
    """What `copy_sqlite_to_postgres` copied and found.

    Attributes:
        rows: rows copied per table (equal in source and target, else it raised).
        games_verified: started games whose replay equals their snapshot.
        failed: the verifications that did not match (empty when all is well).
        seconds: how long the copy and the checks took.
    """

    rows: dict[str, int]
    games_verified: int
    failed: tuple[Verification, ...] = field(default=())
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Whether every game replayed to its snapshot."""
        return not self.failed


def _read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to an existing SQLite file (never created, never migrated).

    :raises DatabaseUnusable: when the file is missing or not SQLite.
    """
    if not path.is_file():
        raise DatabaseUnusable(f"Cannot copy the database {path}: there is no such file.")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
    except sqlite3.DatabaseError as error:
        conn.close()
        raise DatabaseUnusable(
            f"Cannot copy the database {path}: {error}. It is not a readable SQLite file."
        ) from error
    return conn


def _source_tables(conn: sqlite3.Connection, path: Path) -> list[str]:
    """The source's tables, parents before children, after checking it is ours and current.

    :raises DatabaseUnusable: for another program's database or an older/newer schema.
    """
    (app_id,) = conn.execute("PRAGMA application_id").fetchone()
    if app_id != APPLICATION_ID:
        raise DatabaseUnusable(
            f"Cannot copy the database {path}: it is not a Heroes Table database."
        )
    (version,) = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    latest = len(load_migrations())
    if version != latest:
        raise DatabaseUnusable(
            f"Cannot copy the database {path}: it is at schema {version}, this version "
            f"writes {latest}. Start this version of the bot on it once (it migrates), "
            "then copy."
        )
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name <> 'schema_version' ORDER BY name"
        )
    ]
    parents = {
        name: {row[2] for row in conn.execute(f"PRAGMA foreign_key_list({name})") if row[2] != name}
        for name in names
    }
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:  # pragma: no cover - our schema has no foreign key cycle
            raise StorageError("The SQLite schema's foreign keys form a cycle.")
        ordered.extend(ready)
    return ordered


async def _target_tables(conn: Connection) -> dict[str, dict[str, str]]:
    """The target schema's tables: name -> {column: data type}."""
    rows = await conn.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    )
    tables: dict[str, dict[str, str]] = {}
    for row in rows:
        tables.setdefault(row["table_name"], {})[row["column_name"]] = row["data_type"]
    return tables


async def _drop_ours(conn: Connection) -> None:
    """Drop every table and function our migrations made in the connection's schema."""
    async with conn.transaction():
        for name in await _target_tables(conn):
            await conn.execute(f'DROP TABLE IF EXISTS "{name}" CASCADE')
        functions = await conn.fetch(
            "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n "
            "ON n.oid = p.pronamespace WHERE n.nspname = current_schema()"
        )
        for (signature,) in functions:
            await conn.execute(f"DROP FUNCTION IF EXISTS {signature} CASCADE")


async def _batches(
    source: sqlite3.Connection, table: str, columns: Sequence[str], booleans: set[str]
) -> AsyncIterator[list[tuple[Any, ...]]]:
    """The table's rows in primary-key order, ``_BATCH`` at a time, read in a worker thread."""
    listed = ", ".join(f'"{c}"' for c in columns)
    keys = sorted(
        (row[5], row[1]) for row in source.execute(f"PRAGMA table_info({table})") if row[5]
    )
    order = ", ".join(f'"{name}"' for _, name in keys)
    cursor = source.execute(
        f'SELECT {listed} FROM "{table}"' + (f" ORDER BY {order}" if order else "")
    )
    flags = [c in booleans for c in columns]
    while True:
        rows = await asyncio.to_thread(cursor.fetchmany, _BATCH)
        if not rows:
            return
        yield [
            tuple(
                (None if v is None else bool(v)) if is_bool else v
                for v, is_bool in zip(row, flags, strict=True)
            )
            for row in rows
        ]


async def copy_sqlite_to_postgres(
    source: str | Path,
    target_url: str,
    *,
    replace: bool = False,
    ruleset_for: Callable[[str], Ruleset[Any]] | None = None,
    progress: Callable[[str], None] | None = None,
    clock: Callable[[], datetime] | None = None,
) -> TransferReport:
    """Copy the SQLite database ``source`` (live or not) into the PostgreSQL database at
    ``target_url``, then check the copy (module docstring).

    :param replace: drop our tables in the target first (its games are lost) instead of
        refusing a target that holds any row.
    :param ruleset_for: the ruleset of a game's ``ruleset`` id for replay (default: the
        engine's registry; import ``engine.rulesets`` first).
    :param progress: called with a short line per step (the CLI prints them).
    :raises DatabaseUnusable: bad URL, unreachable server, foreign or non-empty target,
        missing/foreign/outdated source; nothing changed.
    :raises StorageError: when the row counts of a table differ after the copy.
    """
    say = progress or (lambda _line: None)
    loop = asyncio.get_running_loop()
    started = loop.time()
    if not is_postgres_url(target_url):
        raise DatabaseUnusable(
            f"Cannot copy into {redact_url(target_url)}: not a PostgreSQL URL (want "
            "postgresql://user@host:port/database). Nothing was changed."
        )
    path = Path(source).expanduser()
    # Check the source before the target is touched, and the target before copying.
    reader = await asyncio.to_thread(_read_only, path)
    try:
        tables = await asyncio.to_thread(_source_tables, reader, path)
        target = await open_postgres(target_url, clock=clock, migrate=False)
        try:
            async with target.connection() as conn:
                await _prepare_target(conn, target_url, replace=replace)
            await target.close()
            target = await open_postgres(target_url, clock=clock)  # migrates the empty schema
            say(f"target {redact_url(target_url)} is ready (schema {len(load_migrations())})")
            rows = await _copy_tables(reader, target, tables, say)
        except BaseException:
            await target.close()
            raise
    finally:
        reader.close()
    try:
        verified, failed = await verify_games(target, await target.started_games(), ruleset_for)
        say(f"replayed {verified + len(failed)} games: {verified} match their snapshots")
    finally:
        await target.close()
    return TransferReport(rows, verified, tuple(failed), loop.time() - started)


async def _prepare_target(conn: Connection, url: str, *, replace: bool) -> None:
    """Refuse a target holding rows of ours unless ``replace``; then drop our tables."""
    tables = await _target_tables(conn)
    ours = [name for name in tables if name != "schema_version"]
    filled = []
    for name in ours:
        if await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{name}")'):
            filled.append(name)
    if filled and not replace:
        raise DatabaseUnusable(
            f"Cannot copy into {redact_url(url)}: it already holds data (table {filled[0]}"
            f"{' and more' if len(filled) > 1 else ''}). Nothing was changed; pass --replace "
            "to drop it and copy anew."
        )
    if tables:
        await _drop_ours(conn)


async def _copy_tables(
    reader: sqlite3.Connection,
    target: PostgresRepository,
    tables: Sequence[str],
    say: Callable[[str], None],
) -> dict[str, int]:
    """Copy every table in ONE transaction (read in one SQLite snapshot); check counts."""
    counts: dict[str, int] = {}
    async with target.connection() as conn, conn.transaction():
        columns_of = await _target_tables(conn)
        await asyncio.to_thread(reader.execute, "BEGIN")  # one snapshot for the whole copy
        try:
            for table in tables:
                if table not in columns_of:
                    raise StorageError(f"The PostgreSQL schema has no table {table}.")
                source_columns = [r[1] for r in reader.execute(f"PRAGMA table_info({table})")]
                missing = set(source_columns) - set(columns_of[table])
                if missing:
                    raise StorageError(
                        f"The PostgreSQL table {table} lacks the column(s) {sorted(missing)}."
                    )
                booleans = {c for c, t in columns_of[table].items() if t == "boolean"}
                await conn.execute(f'ALTER TABLE "{table}" DISABLE TRIGGER USER')
                copied = 0
                async for batch in _batches(reader, table, source_columns, booleans):
                    await conn.copy_records_to_table(table, records=batch, columns=source_columns)
                    copied += len(batch)
                await conn.execute(f'ALTER TABLE "{table}" ENABLE TRIGGER USER')
                expected = await asyncio.to_thread(_count_rows, reader, table)
                landed = await conn.fetchval(f'SELECT count(*) FROM "{table}"')
                if not expected == landed == copied:
                    raise StorageError(
                        f"Table {table}: {expected} rows in SQLite but {landed} copied; "
                        "nothing was kept."
                    )
                counts[table] = copied
                say(f"copied {table}: {copied} rows")
            for table, column in await conn.fetch(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND is_identity = 'YES'"
            ):
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                    f'coalesce(max("{column}"), 1), max("{column}") IS NOT NULL) FROM "{table}"'
                )
        finally:
            await asyncio.to_thread(reader.execute, "ROLLBACK")
    return counts


def _count_rows(source: sqlite3.Connection, table: str) -> int:
    (count,) = source.execute(f'SELECT count(*) FROM "{table}"').fetchone()
    return int(count)
