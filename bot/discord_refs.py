"""Which Discord message holds what: durable ids of the messages the bot edits in place.

The Outbox asks for edits by name — a `ChannelPost` with ``key="status"``, a
`DirectMessage` in slot ``"hand"`` — but Discord edits by message id. This module keeps
the id of the last message sent under each name, in the game database, so an edit after a
restart still finds its message. Losing an id is harmless (the next post is sent anew), so
the table is not part of the game schema; it lives next to it in the same file.

Scopes used by the deliverer:

* ``post:{channel_id}`` with the post's ``key`` — a public message in a game channel;
* ``dm:{user_id}:{game_id}`` with the DM slot (``hand``, ``decision``).
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from time import time
from typing import Protocol

import aiosqlite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS discord_message_refs (
    scope       TEXT    NOT NULL,
    key         TEXT    NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
)
"""


@dataclass(frozen=True, slots=True)
class MessageRef:
    """Where a remembered message is: its channel (a guild channel or a DM) and its id."""

    channel_id: int
    message_id: int


class MessageRefStore(Protocol):
    """Remembers one message per ``(scope, key)``; the deliverer's only need from storage."""

    async def get(self, scope: str, key: str) -> MessageRef | None:
        """Return the message remembered under ``(scope, key)``, or None."""
        ...

    async def put(self, scope: str, key: str, ref: MessageRef) -> None:
        """Remember ``ref`` under ``(scope, key)``, replacing any earlier one."""
        ...

    async def forget(self, scope: str, key: str) -> None:
        """Drop the message remembered under ``(scope, key)`` (it was deleted)."""
        ...


class MemoryRefStore:
    """A `MessageRefStore` in a dict: for tests and the local console (not durable)."""

    def __init__(self) -> None:
        self._refs: dict[tuple[str, str], MessageRef] = {}

    async def get(self, scope: str, key: str) -> MessageRef | None:
        """Return the message remembered under ``(scope, key)``, or None."""
        return self._refs.get((scope, key))

    async def put(self, scope: str, key: str, ref: MessageRef) -> None:
        """Remember ``ref`` under ``(scope, key)``."""
        self._refs[(scope, key)] = ref

    async def forget(self, scope: str, key: str) -> None:
        """Drop the message remembered under ``(scope, key)``."""
        self._refs.pop((scope, key), None)


class SqliteRefStore:
    """A `MessageRefStore` in the game database file (its own table and connection).

    Each call is one short autocommit statement; SQLite's busy timeout covers the
    moments the game repository holds the write lock.
    """

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()

    async def get(self, scope: str, key: str) -> MessageRef | None:
        """Return the message remembered under ``(scope, key)``, or None."""
        async with self._lock:
            cursor = await self._conn.execute(
                "SELECT channel_id, message_id FROM discord_message_refs"
                " WHERE scope = ? AND key = ?",
                (scope, key),
            )
            row = await cursor.fetchone()
            await cursor.close()
        return MessageRef(int(row[0]), int(row[1])) if row is not None else None

    async def put(self, scope: str, key: str, ref: MessageRef) -> None:
        """Remember ``ref`` under ``(scope, key)``, replacing any earlier one."""
        async with self._lock:
            await self._conn.execute(
                "INSERT INTO discord_message_refs (scope, key, channel_id, message_id, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id,"
                " updated_at = excluded.updated_at",
                (scope, key, ref.channel_id, ref.message_id, int(time() * 1000)),
            )

    async def forget(self, scope: str, key: str) -> None:
        """Drop the message remembered under ``(scope, key)``."""
        async with self._lock:
            await self._conn.execute(
                "DELETE FROM discord_message_refs WHERE scope = ? AND key = ?", (scope, key)
            )

    async def close(self) -> None:
        """Close the connection; the store cannot be used afterwards."""
        await self._conn.close()


async def open_ref_store(path: str | Path, *, busy_timeout: float = 5.0) -> SqliteRefStore:
    """Open the message-id table in the database at ``path`` (created if missing).

    Open the game repository first (it creates and migrates the file).

    :raises sqlite3.Error: when SQLite cannot open the file or create the table.
    """
    conn = await aiosqlite.connect(Path(path), isolation_level=None, timeout=busy_timeout)
    try:
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        await conn.execute(_SCHEMA)
    except sqlite3.Error:
        await conn.close()
        raise
    return SqliteRefStore(conn)
