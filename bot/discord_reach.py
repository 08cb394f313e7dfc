"""Whether a player's DMs reach them, reported to the `GameService` (stored on their seats).

The deliverer calls `ServiceReachability.dm_failed` on a 403/50007 and `dm_delivered`
after a DM went through. The service records it (``repo.set_dm_reachable``) and returns
the public notice — "I cannot send you direct messages; use /hand here", without any
private detail — which the deliverer posts. Each change is reported once: a seat already
marked unreachable is not announced again, and a delivered DM is written only when the
seat was not already known to be reachable (no database write per DM). It also keeps the
DMs that could not be delivered (in the database, so they survive a restart) and confirms
delivered news (`bot.outbox.Receipt`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.outbox import Outbox, Receipt

if TYPE_CHECKING:
    from bot.service import GameService

KNOWN_FOR = 300.0
"""Seconds a delivered DM's "reachable" is trusted without reading the seat again."""


class ServiceReachability:
    """`bot.discord_delivery.DmReachability` on `GameService.record_dm_result`.

    A failure always reads the seat first (rare; the player may have reopened their DMs
    with /hand in a DM since). A success is remembered for `KNOWN_FOR` seconds, so
    delivered DMs cost no query and no write meanwhile; then the stored value is read
    again, because with several bot processes (docs/DEPLOY.md) another one may have found
    the DMs closed and stored that since — a success here must then be stored again, or
    the seat would stay marked unreachable while its DMs work.

    :param clock: monotonic seconds (tests pass their own).
    """

    def __init__(
        self, service: GameService, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._service = service
        self._clock = clock
        self._known: dict[int, bool] = {}
        self._since: dict[int, float] = {}

    async def _stored(self, user_id: int, game_id: int) -> bool | None:
        seats = await self._service.repo.seats(game_id)
        return next((s.dm_reachable for s in seats if s.user_id == user_id), None)

    async def dm_failed(self, user_id: int, game_id: int) -> Outbox:
        """Record that DMs to ``user_id`` fail; the notice to post (empty if known)."""
        self._known[user_id] = False
        self._since.pop(user_id, None)
        if await self._stored(user_id, game_id) is False:
            return Outbox()
        return await self._service.record_dm_result(user_id, delivered=False, game_id=game_id)

    async def dm_delivered(self, user_id: int, game_id: int) -> None:
        """Record that a DM reached ``user_id`` (written once per change; the stored value
        is read again after `KNOWN_FOR` seconds, see the class docstring)."""
        now = self._clock()
        if self._known.get(user_id) is True and now - self._since.get(user_id, now) < KNOWN_FOR:
            return
        self._known[user_id] = True
        self._since[user_id] = now
        if await self._stored(user_id, game_id) is not True:
            await self._service.record_dm_result(user_id, delivered=True, game_id=game_id)

    async def holds_seat(self, user_id: int, game_id: int) -> bool:
        """Whether ``user_id`` still plays a seat of game ``game_id`` (not kicked, not
        replaced, not a computer seat now); False for a game that does not exist."""
        from storage.errors import StorageError

        try:
            seats = await self._service.repo.seats(game_id)
        except StorageError:
            return False
        return any(s.user_id == user_id and not s.is_ai for s in seats)

    async def news_delivered(self, receipt: Receipt) -> None:
        """Confirm ``receipt``'s news delivered (`GameService.news_delivered`)."""
        await self._service.news_delivered(receipt)

    async def hold(self, user_id: int, game_id: int, slot: str, message: str) -> None:
        """Keep an undelivered DM in the database (`Repository.hold_direct_message`)."""
        await self._service.repo.hold_direct_message(user_id, game_id, slot, message)

    async def take_held(self, user_id: int) -> list[str]:
        """Remove and return the DMs kept for ``user_id`` (`Repository.take_held_messages`)."""
        return [held.message for held in await self._service.repo.take_held_messages(user_id)]

    async def held(self, user_id: int) -> list[str]:
        """The DMs kept for ``user_id`` (`Repository.held_messages`)."""
        return [held.message for held in await self._service.repo.held_messages(user_id)]

    async def drop_held(self, user_id: int, game_id: int, slot: str) -> None:
        """Forget a kept DM (`Repository.drop_held_message`)."""
        await self._service.repo.drop_held_message(user_id, game_id, slot)

    async def holding(self) -> set[int]:
        """The users with DMs kept (`Repository.users_with_held_messages`)."""
        return await self._service.repo.users_with_held_messages()

    def known(self, user_id: int) -> bool | None:
        """What this process last saw for ``user_id`` (None: nothing yet)."""
        return self._known.get(user_id)
