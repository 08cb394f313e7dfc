"""`heroes-table migrate-db --to postgresql://...`: move an install from SQLite to PostgreSQL.

Copies the configured SQLite database (HEROES_DB_PATH, or ``--db``) into the PostgreSQL
database at ``--to`` (live: one consistent snapshot while the bot keeps writing; stop the
bot first so that nothing written after the snapshot is left behind), checks every table's
row count and replays every started game against its snapshot
(`storage.transfer.copy_sqlite_to_postgres`). A bad URL, an unreachable server, a target
that already holds games (unless ``--replace``) or an unusable source is one line on stderr
and exit 1, with nothing changed. Afterwards set ``HEROES_DATABASE_URL`` to the same URL.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``migrate-db`` options to ``parser``."""
    parser.add_argument(
        "--to",
        required=True,
        metavar="URL",
        help="the PostgreSQL database: postgresql://user[:password]@host[:port]/database",
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help="the SQLite database to copy (default: HEROES_DB_PATH, else data/heroes-table.db)",
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help="drop what the target already holds (its games are lost) instead of refusing",
    )


def main(args: argparse.Namespace) -> int:
    """Run ``heroes-table migrate-db`` (``args``: ``to``, ``db``, ``replace``).

    :returns: 0 when everything was copied and every game replays to its snapshot; 1
        otherwise (the reason on stderr, one line; failing games listed by id and path).
    """
    import engine.rulesets  # noqa: F401 - registers the rulesets replay needs
    from storage.errors import StorageError
    from storage.postgres import redact_url
    from storage.transfer import copy_sqlite_to_postgres

    source: Path = args.db if args.db is not None else _configured_db_path()
    try:
        report = asyncio.run(
            copy_sqlite_to_postgres(
                source,
                args.to,
                replace=args.replace,
                progress=lambda line: print(f"migrate-db: {line}", flush=True),
            )
        )
    except StorageError as error:
        print(f"heroes-table migrate-db: {error}", file=sys.stderr)
        return 1
    total = sum(report.rows.values())
    if not report.ok:
        print(
            f"heroes-table migrate-db: copied {total} rows, but {len(report.failed)} game(s) "
            "do not replay to their snapshots in the copy:",
            file=sys.stderr,
        )
        for failed in report.failed:
            where = failed.error or f"first difference at {failed.difference or 'formatting'}"
            print(f"  game #{failed.game_id}: {where}", file=sys.stderr)
        return 1
    print(
        f"Copied {source} into {redact_url(args.to)}: {total} rows in {len(report.rows)} "
        f"tables, {report.games_verified} games replayed to their snapshots "
        f"({report.seconds:.1f} s). Set HEROES_DATABASE_URL to use it."
    )
    return 0


def _configured_db_path() -> Path:
    from bot.settings import load_settings

    return load_settings().db_path
