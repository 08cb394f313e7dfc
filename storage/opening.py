"""Open the configured store: a PostgreSQL URL or an SQLite file path (issue 18)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from storage.repository import Repository


async def open_database(
    target: str | Path,
    *,
    clock: Callable[[], datetime] | None = None,
    check_integrity: bool = True,
) -> Repository:
    """Open ``target``: a ``postgresql://`` URL (`storage.postgres.open_postgres`) or else an
    SQLite file path (`storage.sqlite.open_repository`); migrate it; return the repository.

    :param check_integrity: SQLite only: run ``PRAGMA quick_check`` on an existing file.
    :raises DatabaseUnusable: one line saying why the store cannot be used (nothing changed).
    :raises MigrationError: if a migration fails.
    """
    if isinstance(target, str):
        from storage.postgres import is_postgres_url, open_postgres

        if is_postgres_url(target):
            return await open_postgres(target, clock=clock)
    from storage.sqlite import open_repository

    return await open_repository(target, clock=clock, check_integrity=check_integrity)
