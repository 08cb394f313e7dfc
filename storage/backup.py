"""`heroes-table backup PATH`: copy the live database while the bot runs.

SQLite: SQLite's online backup API. The copy is consistent even while the bot writes (it
reads one WAL snapshot), is written to a hidden temporary file next to PATH, checked with
``PRAGMA quick_check``, switched to a self-contained rollback-journal file and only then
given its name.

PostgreSQL (``--db postgresql://…`` or ``HEROES_DATABASE_URL``; issue 18): PostgreSQL's own
``pg_dump`` in its custom format (restore with ``pg_restore``, docs/DEPLOY.md), of the
repository's schema only, from a snapshot this command exports and counts the games in,
so the count printed is the dump's; the dump is written to a hidden temporary file, read
back with ``pg_restore --list`` and only then given its name. Without ``pg_dump`` on the
PATH (or ``HEROES_PG_DUMP``) it writes nothing and prints the command to run.

PATH is never overwritten. Module-level imports are kept light: the CLI imports this module to build
its help. Storage knows no bot: the configured database (the bot's settings) reaches
`main` as a parameter, from `bot.backup`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import aiosqlite
    import asyncpg


@dataclass(frozen=True, slots=True)
class BackupReport:
    """What a backup wrote.

    Attributes:
        path: the finished copy.
        size_bytes: its size.
        games: how many games it holds (all statuses).
        schema: its schema version.
    """

    path: Path
    size_bytes: int
    games: int
    schema: int


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``backup`` subcommand's arguments to ``parser``."""
    parser.add_argument("path", type=Path, help="where to write the copy (must not exist yet)")
    parser.add_argument(
        "--db",
        default=None,
        help=(
            "the database to copy: an SQLite file or a postgresql:// URL (default: "
            "HEROES_DATABASE_URL, else HEROES_DB_PATH, from the settings)"
        ),
    )


def main(
    args: argparse.Namespace, configured_db_path: Callable[[], str | Path] | None = None
) -> int:
    """Run ``heroes-table backup``; print one line; return 0, or 1 with one error line.

    ``args`` holds ``path`` and ``db`` (see `add_arguments`); without ``--db`` the copied
    database is ``configured_db_path()`` (the bot passes its settings' store: the
    PostgreSQL URL of HEROES_DATABASE_URL, else HEROES_DB_PATH), and when no such function
    is given either, the one error line asks for ``--db``. A PostgreSQL store is dumped
    with ``pg_dump`` (`backup_postgres`); the line names it without its password.
    """
    import asyncio
    import sys

    from storage.errors import StorageError
    from storage.postgres import is_postgres_url, redact_url

    try:
        source: str | Path
        if args.db is not None:
            source = args.db
        elif configured_db_path is not None:
            source = configured_db_path()
        else:
            raise ValueError("give the database to copy with --db.")
        if isinstance(source, str) and is_postgres_url(source):
            report = asyncio.run(backup_postgres(source, args.path))
            shown = redact_url(source)
        else:
            report = asyncio.run(backup_database(source, args.path))
            shown = str(source)
    except (StorageError, ValueError) as error:
        print(f"heroes-table backup: {error}", file=sys.stderr)
        return 1
    print(
        f"Backed up {shown} to {report.path}: {report.games} games, "
        f"{report.size_bytes} bytes, schema {report.schema}."
    )
    return 0


async def backup_database(
    source: str | Path, dest: str | Path, *, busy_timeout: float = 5.0
) -> BackupReport:
    """Copy the Heroes Table database ``source`` to the new file ``dest``.

    Safe while the bot runs (SQLite's online backup of one consistent snapshot). File work
    runs off the event loop.

    :raises DatabaseUnusable: if ``source`` is missing, not ours or the copy is damaged.
    :raises StorageError: if ``dest`` already exists or cannot be written.
    """
    import asyncio
    import secrets
    import sqlite3

    import aiosqlite

    from storage.errors import StorageError
    from storage.sqlite import check_database, connect, open_failure

    src_path, dst_path = Path(source).expanduser(), Path(dest).expanduser()
    await asyncio.to_thread(_check_paths, src_path, dst_path)
    partial = dst_path.with_name(f".{dst_path.name}.{secrets.token_hex(4)}.partial")
    src: aiosqlite.Connection | None = None
    dst: aiosqlite.Connection | None = None
    try:
        try:
            src = await connect(src_path, busy_timeout)
            await check_database(src, src_path, check_integrity=False)
        except sqlite3.Error as error:
            raise open_failure(error, src_path) from error
        try:
            dst = await aiosqlite.connect(partial, isolation_level=None)
            await src.backup(dst)
            report = await _finish_copy(dst, dst_path)
            await dst.close()
            dst = None
        except sqlite3.Error as error:
            raise StorageError(f"Cannot write the backup {dst_path}: {error}.") from error
        await asyncio.to_thread(_publish, partial, dst_path)
        return report
    finally:
        for conn in (src, dst):
            if conn is not None:
                await conn.close()
        await asyncio.to_thread(partial.unlink, missing_ok=True)


async def _finish_copy(dst: aiosqlite.Connection, final: Path) -> BackupReport:
    """Make the copy self-contained, check it, and describe it."""
    from storage.errors import DatabaseUnusable

    await dst.execute("PRAGMA journal_mode = DELETE")
    check = list(await dst.execute_fetchall("PRAGMA quick_check(1)"))
    if [tuple(row) for row in check] != [("ok",)]:
        raise DatabaseUnusable(f"The copy failed its integrity check ({check[0][0]}); not saved.")
    games = await _scalar(dst, "SELECT count(*) FROM games")
    schema = await _scalar(dst, "SELECT max(version) FROM schema_version")
    size = await _scalar(dst, "PRAGMA page_count") * await _scalar(dst, "PRAGMA page_size")
    return BackupReport(final, size, games, schema)


async def _scalar(conn: aiosqlite.Connection, sql: str) -> int:
    """The single integer a one-row, one-column query returns."""
    rows = list(await conn.execute_fetchall(sql))
    return int(rows[0][0])


def _check_paths(source: Path, dest: Path) -> None:
    """Refuse a missing or unreadable source or an existing destination; create the
    destination's folder."""
    import os

    from storage.errors import DatabaseUnusable

    if not source.is_file():
        raise DatabaseUnusable(f"There is no database file at {source}.")
    if not os.access(source, os.R_OK):
        raise DatabaseUnusable(f"Cannot read the database {source}: file permissions.")
    _check_dest(dest)


def _publish(partial: Path, dest: Path) -> None:
    """Give the finished copy its name without ever replacing an existing file."""
    import os

    from storage.errors import StorageError

    try:
        os.link(partial, dest)
    except FileExistsError as error:
        raise StorageError(f"{dest} appeared while backing up; nothing was overwritten.") from error
    except OSError:  # a filesystem without hard links
        if dest.exists():
            raise StorageError(
                f"{dest} appeared while backing up; nothing was overwritten."
            ) from None
        os.replace(partial, dest)


PG_DUMP_ENV = "HEROES_PG_DUMP"
"""The environment variable that names the ``pg_dump`` to run (default: the PATH's)."""


async def backup_postgres(
    url: str, dest: str | Path, *, pg_dump: str | None = None
) -> BackupReport:
    """Dump the Heroes Table schema of the PostgreSQL database at ``url`` to the new file
    ``dest`` with ``pg_dump --format=custom`` (restorable with ``pg_restore``).

    Safe while the bots write: the dump reads a snapshot exported by a read-only REPEATABLE
    READ transaction of this call, which also counts the games and reads the schema
    version in it, so the report describes exactly what the dump holds. Only the schema
    the URL's connections use (``current_schema()``) is dumped. The password, if the URL
    has one, reaches ``pg_dump`` in its environment (``PGPASSWORD``), never on its command
    line. The dump is checked with ``pg_restore --list`` before it is given its name.

    :param pg_dump: the program to run (default: ``HEROES_PG_DUMP``, else ``pg_dump`` on the
        PATH; ``pg_restore`` is looked for beside it, then on the PATH).
    :raises DatabaseUnusable: the URL is not PostgreSQL's, the server cannot be reached or
        the schema is not ours (nothing written).
    :raises StorageError: ``pg_dump`` is missing (the message names the command to run
        instead), it failed (its first error line), or ``dest`` exists or cannot be
        written; nothing is left at ``dest``.
    """
    import asyncio
    import os
    import secrets
    import shutil

    import asyncpg

    from storage.errors import StorageError
    from storage.postgres import check_ports, connect_failure, is_postgres_url, redact_url

    if not is_postgres_url(url):
        from storage.errors import DatabaseUnusable

        raise DatabaseUnusable(f"Cannot back up {redact_url(url)}: not a PostgreSQL URL.")
    dst_path = Path(dest).expanduser()
    await asyncio.to_thread(_check_dest, dst_path)
    dump_program = pg_dump or os.environ.get(PG_DUMP_ENV) or shutil.which("pg_dump")
    if dump_program is None or shutil.which(dump_program) is None:
        raise StorageError(
            "pg_dump was not found (install PostgreSQL's client tools, e.g. Debian's "
            "postgresql-client, or set HEROES_PG_DUMP); nothing was written. Or run it "
            f'yourself: pg_dump --format=custom --file={dst_path} "$HEROES_DATABASE_URL"'
        )
    restore_program = _beside(dump_program, "pg_restore")
    try:
        check_ports(url)
        conn = await asyncpg.connect(url, timeout=10.0)
    except (
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        OSError,
        TimeoutError,
        ValueError,
    ) as error:
        raise await connect_failure(url, error) from error
    partial = dst_path.with_name(f".{dst_path.name}.{secrets.token_hex(4)}.partial")
    try:
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            snapshot = str(await conn.fetchval("SELECT pg_export_snapshot()"))
            schema_name = str(await conn.fetchval("SELECT current_schema()"))
            games, schema = await _our_schema(conn, url)
            dbname, env = _libpq_target(url)
            await _run_tool(
                dump_program,
                "--format=custom",
                f"--file={partial}",
                f"--snapshot={snapshot}",
                "--schema=" + '"' + schema_name.replace('"', '""') + '"',
                "--no-password",
                f"--dbname={dbname}",
                env=env,
            )
        if restore_program is not None:
            await _run_tool(restore_program, "--list", str(partial), env=None)
        size = (await asyncio.to_thread(partial.stat)).st_size
        await asyncio.to_thread(_publish, partial, dst_path)
        return BackupReport(dst_path, size, games, schema)
    finally:
        await conn.close()
        await asyncio.to_thread(partial.unlink, missing_ok=True)


async def _our_schema(conn: asyncpg.Connection, url: str) -> tuple[int, int]:
    """The games and the schema version of the Heroes Table schema behind ``conn``.

    :raises DatabaseUnusable: the schema has no Heroes Table tables.
    """
    from storage.errors import DatabaseUnusable
    from storage.postgres import redact_url

    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        raise DatabaseUnusable(
            f"{redact_url(url)} holds no Heroes Table database (no schema_version table in "
            "its schema); nothing was written."
        )
    games = int(await conn.fetchval("SELECT count(*) FROM games"))
    schema = int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))
    return games, schema


def _libpq_target(url: str) -> tuple[str, dict[str, str]]:
    """``url`` for libpq's tools without its password, and the environment that carries
    the URL's password (``PGPASSWORD``; else libpq's own ways: ~/.pgpass, PGPASSWORD)."""
    import os
    from urllib.parse import unquote, urlsplit, urlunsplit

    parts = urlsplit(url)
    env = dict(os.environ)
    if parts.password is not None:
        env["PGPASSWORD"] = unquote(parts.password)
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        netloc = (f"{parts.username}@" if parts.username else "") + host
        if parts.port is not None:
            netloc += f":{parts.port}"
        url = urlunsplit(parts._replace(netloc=netloc))
    return url, env


def _beside(program: str, name: str) -> str | None:
    """The PostgreSQL tool ``name`` in ``program``'s folder, else on the PATH, else None."""
    import shutil

    found = shutil.which(program)
    if found is not None:
        sibling = Path(found).with_name(name)
        if sibling.is_file():
            return str(sibling)
    return shutil.which(name)


async def _run_tool(program: str, *argv: str, env: dict[str, str] | None) -> None:
    """Run a PostgreSQL tool; raise `StorageError` with its first error line if it fails."""
    import asyncio

    from storage.errors import StorageError

    process = await asyncio.create_subprocess_exec(
        program,
        *argv,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    _, err = await process.communicate()
    if process.returncode != 0:
        lines = [line for line in err.decode(errors="replace").splitlines() if line.strip()]
        why = lines[0] if lines else f"exit code {process.returncode}"
        raise StorageError(f"{Path(program).name} failed: {why}; nothing was written.")


def _check_dest(dest: Path) -> None:
    """Refuse an existing destination; create the destination's folder."""
    from storage.errors import StorageError

    if dest.exists():
        raise StorageError(f"{dest} already exists; a backup never overwrites. Choose a new name.")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageError(f"Cannot create the folder {dest.parent}: {error.strerror}.") from error
