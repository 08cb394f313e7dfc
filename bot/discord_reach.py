"""Whether a player's DMs reach them: recorded on their seats, so it survives a restart.

The deliverer calls `RepoReachability.dm_failed` on a 403/50007 and `dm_delivered` after a
DM went through. The public "I can't DM you" notice is posted once per change: a seat
already marked unreachable is not announced again, and a delivered DM marks the seats
reachable again (the player opened their DMs).
"""

from __future__ import annotations

from storage.repository import Repository


class RepoReachability:
    """`DmReachability` on the repository's ``seats.dm_reachable`` column.

    A small memory of what it last read or wrote avoids a query per DM; the database
    stays the truth (it is read once per user and game after a restart).
    """

    def __init__(self, repo: Repository) -> None:
        self._repo = repo
        self._known: dict[int, bool] = {}

    async def _stored(self, user_id: int, game_id: int) -> bool | None:
        if user_id in self._known:
            return self._known[user_id]
        seats = await self._repo.seats(game_id)
        value = next((s.dm_reachable for s in seats if s.user_id == user_id), None)
        if value is not None:
            self._known[user_id] = value
        return value

    async def dm_failed(self, user_id: int, game_id: int) -> bool:
        """Mark ``user_id`` unreachable; True when that is news (announce it)."""
        if await self._stored(user_id, game_id) is False:
            return False
        await self._repo.set_dm_reachable(user_id, False)
        self._known[user_id] = False
        return True

    async def dm_delivered(self, user_id: int, game_id: int) -> None:
        """Mark ``user_id`` reachable if it was not known to be."""
        if await self._stored(user_id, game_id) is True:
            return
        await self._repo.set_dm_reachable(user_id, True)
        self._known[user_id] = True

    def known(self, user_id: int) -> bool | None:
        """What this process last saw for ``user_id`` (None: nothing yet)."""
        return self._known.get(user_id)
