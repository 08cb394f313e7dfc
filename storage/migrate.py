"""A tiny migration runner: numbered ``.sql`` files, a ``schema_version`` table, one transaction each.

Migrations live in ``storage/migrations/NNNN_name.sql`` (``0001_initial.sql``...), numbered
from 1 without gaps, and are never edited once released: a schema change is a new file.
PostgreSQL's twins live in ``storage/migrations/postgresql/`` with the same numbers (run by
`storage.postgres.migrate_postgres`).
Each migration runs in its own ``BEGIN IMMEDIATE`` transaction together with the row that
records it in ``schema_version``, so a database is always at exactly one complete version,
and two processes starting at once cannot both apply the same migration. Foreign keys are
switched off while migrating (SQLite's recommended procedure for table rebuilds) and checked
with ``PRAGMA foreign_key_check`` before each commit.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

import aiosqlite

from storage.errors import MigrationError

APPLICATION_ID = 0x48455254
"""``PRAGMA application_id`` of a Heroes Table database (ASCII "HERT")."""

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step.

    Attributes:
        version: the schema version the database is at after this step (1, 2, ...).
        name: a short name (the file name without number and suffix).
        sql: the statements, separated by semicolons (triggers allowed).
    """

    version: int
    name: str
    sql: str


SQLITE_MIGRATIONS = "storage.migrations"
POSTGRESQL_MIGRATIONS = "storage.migrations.postgresql"
"""The PostgreSQL twins: the same numbers and meaning, in PostgreSQL's dialect (issue 18)."""


def load_migrations(package: str = SQLITE_MIGRATIONS) -> tuple[Migration, ...]:
    """Read the packaged migrations of ``package`` (SQLite's by default) in version order.

    :raises MigrationError: if a file name is malformed or the numbers have a gap.
    """
    found: list[Migration] = []
    for entry in resources.files(package).iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(f"Badly named migration file {entry.name!r} (want NNNN_name.sql).")
        found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    check_sequence(found)
    return tuple(found)


def check_sequence(migrations: Sequence[Migration]) -> None:
    """Check that ``migrations`` are numbered 1, 2, 3 ... in order.

    :raises MigrationError: naming the first out-of-place version.
    """
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"Migration {migration.version:04d}_{migration.name} is out of sequence "
                f"(expected version {expected})."
            )


def split_statements(sql: str) -> list[str]:
    """Split a migration script into complete statements (``CREATE TRIGGER`` bodies intact).

    Uses `sqlite3.complete_statement`, so semicolons inside strings, comments and trigger
    bodies do not split.

    :raises MigrationError: if the script ends inside an unterminated statement.
    """
    statements: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    leftover = "\n".join(
        line for line in pending.splitlines() if line.strip() and not line.strip().startswith("--")
    )
    if leftover:
        raise MigrationError(f"Unterminated SQL statement in a migration: {leftover[:60]!r}")
    return statements


async def schema_version(conn: aiosqlite.Connection) -> int:
    """Return the database's schema version (0 for a database without our schema)."""
    cursor = await conn.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    )
    row = await cursor.fetchone()
    if row is None or row[0] == 0:
        return 0
    cursor = await conn.execute("SELECT coalesce(max(version), 0) FROM schema_version")
    row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def migrate(
    conn: aiosqlite.Connection,
    migrations: Sequence[Migration] | None = None,
    *,
    target: int | None = None,
    clock: Callable[[], datetime] | None = None,
) -> list[int]:
    """Bring the database on ``conn`` up to ``target`` (default: the newest migration).

    ``conn`` must be in autocommit mode (``isolation_level=None``) and outside a
    transaction. Foreign key enforcement is switched off while migrating and back on after.

    :param migrations: the steps to use (default: `load_migrations`); tests pass their own.
    :param target: stop at this version (tests build databases at older versions).
    :param clock: the time source for ``schema_version.applied_at`` (default: now, UTC).
    :returns: the versions applied, in order (empty when already current).
    :raises MigrationError: if a step fails (that step is rolled back entirely; the
        database stays at the previous version), or the database is newer than ``target``.
    """
    steps = tuple(load_migrations() if migrations is None else migrations)
    check_sequence(steps)
    goal = len(steps) if target is None else target
    now = clock or (lambda: datetime.now(UTC))
    applied: list[int] = []
    await conn.execute("PRAGMA foreign_keys = OFF")
    try:
        for migration in steps[:goal]:
            if await _apply_one(conn, migration, now()):
                applied.append(migration.version)
    finally:
        await conn.execute("PRAGMA foreign_keys = ON")
    return applied


async def _apply_one(conn: aiosqlite.Connection, migration: Migration, now: datetime) -> bool:
    """Apply ``migration`` in one transaction unless the database already has it.

    :returns: whether it was applied now.
    :raises MigrationError: on any SQL error or foreign key violation (rolled back).
    """
    label = f"{migration.version:04d}_{migration.name}"
    await conn.execute("BEGIN IMMEDIATE")
    try:
        current = await schema_version(conn)
        if current >= migration.version:
            await conn.execute("ROLLBACK")
            return False
        if current != migration.version - 1:
            raise MigrationError(
                f"Cannot apply migration {label} to a database at schema {current}."
            )
        if current == 0:
            await conn.execute(
                "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
                "name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
            )
            await conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for statement in split_statements(migration.sql):
            await conn.execute(statement)
        cursor = await conn.execute("PRAGMA foreign_key_check")
        if await cursor.fetchone() is not None:
            raise MigrationError(f"Migration {label} left rows that break a foreign key.")
        await conn.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.name, int(now.timestamp() * 1000)),
        )
        await conn.execute("COMMIT")
    except sqlite3.Error as error:
        await conn.rollback()
        raise MigrationError(
            f"Migration {label} failed ({error}); the database was left at schema "
            f"{migration.version - 1}."
        ) from error
    except BaseException:
        await conn.rollback()
        raise
    return True
