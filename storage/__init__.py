"""Durable games for Heroes Table: the `Repository` interface, its SQLite implementation, replay.

Names are imported lazily on first use, so ``import storage.backup`` (which the CLI does to
build its ``--help``) stays cheap. Usual entry points::

    from storage import open_repository, replay_game, GameStatus
    repo = await open_repository(settings.db_path)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, str] = {
    "open_repository": "storage.sqlite",
    "SqliteRepository": "storage.sqlite",
    "Repository": "storage.repository",
    "replay_game": "storage.replay",
    "verify_game": "storage.replay",
    "undo_last_command": "storage.replay",
    "Verification": "storage.replay",
    "backup_database": "storage.backup",
    "StorageError": "storage.errors",
    "StaleState": "storage.errors",
    "DatabaseUnusable": "storage.errors",
    "ChannelBusy": "storage.errors",
    "GameNotFound": "storage.errors",
    "WrongGameStatus": "storage.errors",
    "Game": "storage.records",
    "GameSummary": "storage.records",
    "GameStatus": "storage.records",
    "Seat": "storage.records",
    "LogEntry": "storage.records",
    "LogPage": "storage.records",
    "DeadlineSpec": "storage.records",
    "Deadline": "storage.records",
    "GuildSettings": "storage.records",
    "SavedDeck": "storage.records",
    "UserSeat": "storage.records",
}

__all__ = [
    "ChannelBusy",
    "DatabaseUnusable",
    "Deadline",
    "DeadlineSpec",
    "Game",
    "GameNotFound",
    "GameStatus",
    "GameSummary",
    "GuildSettings",
    "LogEntry",
    "LogPage",
    "Repository",
    "SavedDeck",
    "Seat",
    "SqliteRepository",
    "StaleState",
    "StorageError",
    "UserSeat",
    "Verification",
    "WrongGameStatus",
    "backup_database",
    "open_repository",
    "replay_game",
    "undo_last_command",
    "verify_game",
]

if TYPE_CHECKING:
    from storage.backup import backup_database
    from storage.errors import (
        ChannelBusy,
        DatabaseUnusable,
        GameNotFound,
        StaleState,
        StorageError,
        WrongGameStatus,
    )
    from storage.records import (
        Deadline,
        DeadlineSpec,
        Game,
        GameStatus,
        GameSummary,
        GuildSettings,
        LogEntry,
        LogPage,
        SavedDeck,
        Seat,
        UserSeat,
    )
    from storage.replay import Verification, replay_game, undo_last_command, verify_game
    from storage.repository import Repository
    from storage.sqlite import SqliteRepository, open_repository


def __getattr__(name: str) -> Any:
    """Import an exported name from its module on first use."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'storage' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
