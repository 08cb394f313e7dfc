"""`heroes-table verify`: check the database for damage, on demand.

SQLite: the bot no longer reads the whole file before it serves (a start-up with 100,000
stored games took half a minute for that alone); it runs the same quick check in the
background once it is ready (`bot.app`). This command runs it while you wait, the bot
running or not: ``PRAGMA quick_check``, or with ``--thorough`` ``PRAGMA integrity_check``
(also every index against its table, slower).

PostgreSQL (``--db postgresql://…`` or ``HEROES_DATABASE_URL``; issue 18): the server
checks its own pages, so what is checked is ours: the schema is Heroes Table's and not
newer than this code, and every started game replays from its seed and log to its stored
snapshot (`storage.replay.verify_games`), as ``migrate-db`` checks a copy and ``/mod
verify`` one game. ``--thorough`` changes nothing there.

It only reads (a PostgreSQL schema is not migrated). The database is the settings'
(HEROES_DATABASE_URL, else HEROES_DB_PATH, from the environment or .env) unless ``--db``
names another.
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
        default=None,
        help=(
            "an SQLite database path or a postgresql:// URL (default: HEROES_DATABASE_URL, "
            "else HEROES_DB_PATH, else data/heroes-table.db)"
        ),
    )
    parser.add_argument(
        "--thorough",
        action="store_true",
        help=(
            "SQLite: PRAGMA integrity_check (also every index against its table) instead of "
            "quick_check"
        ),
    )


def main(args: argparse.Namespace) -> int:
    """Run ``heroes-table verify`` (``args``: ``db``, ``thorough``).

    :returns: 0 when the store is sound (one line says so and how long the check took);
        1 when it is damaged, missing or not ours, or (PostgreSQL) a game does not replay
        to its snapshot (the problems go to stderr, one line each, a game named by id and
        the JSON path where it first differs, never the values).
    """
    from storage.postgres import is_postgres_url

    target: str | Path = args.db if args.db is not None else _configured_database()
    if isinstance(target, str) and is_postgres_url(target):
        return _verify_postgres(target)
    return _verify_sqlite(Path(target), thorough=args.thorough)


def _verify_sqlite(path: Path, *, thorough: bool) -> int:
    from storage.errors import DatabaseUnusable
    from storage.sqlite import integrity_problems

    started = time.perf_counter()
    try:
        problems = asyncio.run(integrity_problems(path, thorough=thorough))
    except DatabaseUnusable as error:
        print(f"heroes-table verify: {error}", file=sys.stderr)
        return 1
    check = "integrity_check" if thorough else "quick_check"
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


def _verify_postgres(url: str) -> int:
    import engine.rulesets  # noqa: F401 - registers the rulesets replay needs
    from storage.errors import StorageError
    from storage.postgres import open_postgres, redact_url
    from storage.replay import Verification, verify_games

    shown = redact_url(url)

    async def check() -> tuple[int, list[Verification]]:
        repo = await open_postgres(url, migrate=False, max_size=2)
        try:
            return await verify_games(repo, await repo.started_games())
        finally:
            await repo.close()

    started = time.perf_counter()
    try:
        verified, failed = asyncio.run(check())
    except StorageError as error:
        print(f"heroes-table verify: {error}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    if failed:
        print(
            f"heroes-table verify: {shown}: {len(failed)} of {verified + len(failed)} games do "
            "not replay to their snapshots:",
            file=sys.stderr,
        )
        for bad in failed:
            where = bad.error or f"first difference at {bad.difference or 'formatting'}"
            print(f"  game #{bad.game_id}: {where}", file=sys.stderr)
        return 1
    print(f"{shown}: sound ({verified} games replayed to their snapshots, {seconds:.1f} s)")
    return 0


def _configured_database() -> str | Path:
    from bot.settings import load_settings

    return load_settings().database()
