"""Whether a player's DMs reach them, reported to the `GameService` (stored on their seats).

The deliverer calls `ServiceReachability.dm_failed` on a 403/50007 and `dm_delivered`
after a DM went through. The service records it (``repo.set_dm_reachable``) and returns
the public notice — "I cannot send you direct messages; use /hand here", without any
private detail — which the deliverer posts. Each change is reported once: a seat already
marked unreachable is not announced again, and a delivered DM is written only when the
seat was not already known to be reachable (no database write per DM).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.outbox import Outbox

if TYPE_CHECKING:
    from bot.service import GameService


class ServiceReachability:
    """`bot.discord_delivery.DmReachability` on `GameService.record_dm_result`.

    A failure always reads the seat first (rare; the player may have reopened their DMs
    with /hand in a DM since). A success is remembered, so delivered DMs cost no query
    and no write after the first.
    """

    def __init__(self, service: GameService) -> None:
        self._service = service
        self._known: dict[int, bool] = {}

    async def _stored(self, user_id: int, game_id: int) -> bool | None:
        seats = await self._service.repo.seats(game_id)
        return next((s.dm_reachable for s in seats if s.user_id == user_id), None)

    async def dm_failed(self, user_id: int, game_id: int) -> Outbox:
        """Record that DMs to ``user_id`` fail; the notice to post (empty if known)."""
        self._known[user_id] = False
        if await self._stored(user_id, game_id) is False:
            return Outbox()
        return await self._service.record_dm_result(user_id, delivered=False, game_id=game_id)

    async def dm_delivered(self, user_id: int, game_id: int) -> None:
        """Record that a DM reached ``user_id`` (written once per change)."""
        if self._known.get(user_id) is True:
            return
        self._known[user_id] = True
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

    def known(self, user_id: int) -> bool | None:
        """What this process last saw for ``user_id`` (None: nothing yet)."""
        return self._known.get(user_id)
