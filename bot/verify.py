"""`heroes-table verify`: check the database file for damage, on demand.

The bot no longer reads the whole file before it serves (a start-up with 100,000 stored
games took half a minute for that alone); it runs the same quick check in the background
once it is ready (`bot.app`). This command runs it while you wait, the bot running or
not: ``PRAGMA quick_check``, or with ``--thorough`` ``PRAGMA integrity_check`` (also
every index against its table, slower). It only reads. The database is the settings'
(HEROES_DB_PATH, from the environment or .env) unless ``--db`` names another.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``verify`` options to ``parser``."""
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help="SQLite database path (default: HEROES_DB_PATH, else data/heroes-table.db)",
    )
    parser.add_argument(
        "--thorough",
        action="store_true",
        help="PRAGMA integrity_check (also every index against its table) instead of quick_check",
    )


def main(args: argparse.Namespace) -> int:
    """Run ``heroes-table verify`` (``args``: ``db``, ``thorough``).

    :returns: 0 when the file is sound (one line says so and how long the check took);
        1 when it is damaged, missing or not a database (the problems go to stderr).
    """
    from storage.errors import DatabaseUnusable
    from storage.sqlite import integrity_problems

    path: Path = args.db if args.db is not None else _configured_db_path()
    started = time.perf_counter()
    try:
        problems = asyncio.run(integrity_problems(path, thorough=args.thorough))
    except DatabaseUnusable as error:
        print(f"heroes-table verify: {error}", file=sys.stderr)
        return 1
    check = "integrity_check" if args.thorough else "quick_check"
    if problems:
        print(
            f"heroes-table verify: {path} is damaged ({check}); restore it from a backup:",
            file=sys.stderr,
        )
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(f"{path}: sound ({check}, {time.perf_counter() - started:.1f} s)")
    return 0


def _configured_db_path() -> Path:
    from bot.settings import load_settings

    return load_settings().db_path
