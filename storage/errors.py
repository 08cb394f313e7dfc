"""Typed storage errors, each with one readable line; the engine's `StaleState` is re-exported.

`StorageError` is the base of every refusal and failure the storage layer raises on
purpose. Its message is a complete sentence a player or an operator can read as it is
(the CLI prints it alone, the bot replies with it); none names hidden information.
A commit against an old version raises the engine's own `StaleState`, so the bot handles
"someone moved first" the same way whether the engine or the database noticed it.
"""

from __future__ import annotations

from engine.core.errors import StaleState

__all__ = [
    "AlreadySeated",
    "ChannelBusy",
    "DatabaseBusy",
    "DatabaseFull",
    "DatabaseNotWritable",
    "DatabaseReadOnly",
    "DatabaseUnusable",
    "DeckNotFound",
    "GameNotFound",
    "LobbyFull",
    "MigrationError",
    "NothingToUndo",
    "SeatNotFound",
    "StaleState",
    "StorageError",
    "WrongGameStatus",
]


class StorageError(Exception):
    """A storage refusal or failure with a one-line, readable message (also ``str(error)``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DatabaseUnusable(StorageError):
    """The database file cannot be used: unreadable, not SQLite, damaged, foreign or too new.

    Raised when opening (nothing has been written to the file) or when SQLite reports
    corruption later.
    """


class DatabaseBusy(StorageError):
    """Another process held the database's write lock for longer than the busy timeout."""


class DatabaseNotWritable(StorageError):
    """A write failed because the database cannot be written now (SQLite's
    ``SQLITE_IOERR``: the disk failed); the transaction was rolled back whole, so nothing
    of it is stored and nothing before it is lost. The message names no file (players
    read it); the storage log names the file for the operator."""


class DatabaseFull(DatabaseNotWritable):
    """The disk (or SQLite's page limit) is full: ``SQLITE_FULL``."""


class DatabaseReadOnly(DatabaseNotWritable):
    """The database file, its folder or its disk became read-only (or the file was moved
    away) while the bot runs: ``SQLITE_READONLY``."""


class MigrationError(StorageError):
    """A schema migration failed; the database was left at the last complete version."""


class GameNotFound(StorageError):
    """No game has the given id (or the channel has no open game)."""


class ChannelBusy(StorageError):
    """The channel already has an open game (in the lobby, active or paused)."""


class WrongGameStatus(StorageError):
    """The game is not in a status that allows the operation (e.g. a move while paused).

    Attributes:
        status: the game's current status value (``"paused"``...).
    """

    def __init__(self, message: str, status: str) -> None:
        super().__init__(message)
        self.status = status


class AlreadySeated(StorageError):
    """The user already has a seat in this game."""


class LobbyFull(StorageError):
    """Every seat the game allows is taken."""


class SeatNotFound(StorageError):
    """The game has no such seat (or the user has no seat in it)."""


class DeckNotFound(StorageError):
    """No saved deck with that id belongs to that user."""


class NothingToUndo(StorageError):
    """The game has no command in effect that could be undone."""


class ExtensionRefused(StorageError):
    """A ``/game extend`` the caps or the seat's deadline do not allow (nothing changed)."""
