"""`heroes-table backup PATH`: copy the live database with SQLite's online backup API.

The copy is consistent even while the bot writes (it reads one WAL snapshot), is written to
a hidden temporary file next to PATH, checked with ``PRAGMA quick_check``, switched to a
self-contained rollback-journal file and only then given its name. PATH is never
overwritten. Module-level imports are kept light: the CLI imports this module to build
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
        type=Path,
        default=None,
        help="the database to copy (default: HEROES_DB_PATH from the settings)",
    )


def main(args: argparse.Namespace, configured_db_path: Callable[[], Path] | None = None) -> int:
    """Run ``heroes-table backup``; print one line; return 0, or 1 with one error line.

    ``args`` holds ``path`` and ``db`` (see `add_arguments`); without ``--db`` the copied
    database is ``configured_db_path()`` (the bot passes its settings' HEROES_DB_PATH), and
    when no such function is given either, the one error line asks for ``--db``.
    """
    import asyncio
    import sys

    from storage.errors import StorageError

    try:
        if args.db is not None:
            source = args.db
        elif configured_db_path is not None:
            source = configured_db_path()
        else:
            raise ValueError("give the database to copy with --db.")
        report = asyncio.run(backup_database(source, args.path))
    except (StorageError, ValueError) as error:
        print(f"heroes-table backup: {error}", file=sys.stderr)
        return 1
    print(
        f"Backed up {source} to {report.path}: {report.games} games, "
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

    from storage.errors import DatabaseUnusable, StorageError

    if not source.is_file():
        raise DatabaseUnusable(f"There is no database file at {source}.")
    if not os.access(source, os.R_OK):
        raise DatabaseUnusable(f"Cannot read the database {source}: file permissions.")
    if dest.exists():
        raise StorageError(f"{dest} already exists; a backup never overwrites. Choose a new name.")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageError(f"Cannot create the folder {dest.parent}: {error.strerror}.") from error


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
