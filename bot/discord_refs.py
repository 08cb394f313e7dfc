"""Which Discord message holds what: durable ids of the messages the bot edits in place.

The Outbox asks for edits by name — a `ChannelPost` with ``key="status"``, a
`DirectMessage` in slot ``"hand"`` — but Discord edits by message id. This module keeps
the id of the last message sent under each name through the `Repository`
(``message_ref`` / ``put_message_ref`` / ``forget_message_ref``, table
``discord_message_refs``, storage migration 0003), so an edit after a restart still finds
its message and any storage backend can keep them. Losing an id is harmless: the next
message is sent anew.

Scopes used by the deliverer:

* ``post:{channel_id}`` with the post's ``key`` — a public message in a game channel;
* ``dm:{user_id}:{game_id}`` with the DM slot (``hand``, ``decision``);
* ``news:{game_id}:{version}`` with a news post's key, until the news is confirmed;
* ``decision:{game_id}`` with ``channel`` — the game's channel post showing its
  position now, while it has buttons or selects (`bot.discord_delivery.DECISION_SCOPE`).
"""

from __future__ import annotations

from typing import Protocol

from storage.records import MessageRef
from storage.repository import Repository

__all__ = ["MemoryRefStore", "MessageRef", "MessageRefStore", "RepositoryRefStore"]


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


class RepositoryRefStore:
    """The `MessageRefStore` of the bot: the game database, through its `Repository`."""

    def __init__(self, repo: Repository) -> None:
        self._repo = repo

    async def get(self, scope: str, key: str) -> MessageRef | None:
        """Return the message remembered under ``(scope, key)``, or None."""
        return await self._repo.message_ref(scope, key)

    async def put(self, scope: str, key: str, ref: MessageRef) -> None:
        """Remember ``ref`` under ``(scope, key)``, replacing any earlier one."""
        await self._repo.put_message_ref(scope, key, ref)

    async def forget(self, scope: str, key: str) -> None:
        """Drop the message remembered under ``(scope, key)``."""
        await self._repo.forget_message_ref(scope, key)


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
