"""`heroes-table backup PATH`: `storage.backup` with the database from the bot's settings.

Storage knows no bot, so the default database (the PostgreSQL URL of HEROES_DATABASE_URL,
else the SQLite file HEROES_DB_PATH, from the environment or .env) is read here and handed
to `storage.backup.main`. The settings module (pydantic
settings) is imported only when a backup runs: the CLI imports this module to build its
help.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from storage import backup
from storage.backup import add_arguments

__all__ = ["add_arguments", "main"]


def main(args: argparse.Namespace) -> int:
    """Run ``heroes-table backup`` (``args``: ``path``, ``db``); return the exit code (0, or 1
    after one error line). Without ``--db`` the database is the settings' store
    (``HEROES_DATABASE_URL``, else ``HEROES_DB_PATH``)."""
    return backup.main(args, configured_db_path=_configured_db_path)


def _configured_db_path() -> str | Path:
    from bot.settings import load_settings

    return load_settings().database()
