"""What a bot process remembers must not go stale when another process changes the store
(issue 18): two services on one SQLite file stand for two bot processes."""

from __future__ import annotations

from pathlib import Path

from bot.discord_reach import KNOWN_FOR, ServiceReachability
from bot.service import GameService
from storage import open_repository
from tests.bot.service_helpers import make_service, started_game


class Clock:
    """Monotonic seconds, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_reachable_memo_is_read_again_after_another_process_stored_closed(
    tmp_path: Path,
) -> None:
    repo, service = await make_service(tmp_path)
    other_repo = await open_repository(tmp_path / "service.db")
    try:
        game = await started_game(service)  # user 1 against the computer
        clock = Clock()
        here = ServiceReachability(service, clock=clock)
        there = ServiceReachability(GameService(other_repo, renderer=None))

        async def stored() -> bool | None:
            seats = await repo.seats(game.id)
            return next(s.dm_reachable for s in seats if s.user_id == 1)

        await here.dm_delivered(1, game.id)
        assert await stored() is True
        notice = await there.dm_failed(1, game.id)  # the other process: DMs closed
        assert notice.posts and await stored() is False
        await here.dm_delivered(1, game.id)  # within KNOWN_FOR: no query, no write
        assert await stored() is False
        clock.now += KNOWN_FOR
        await here.dm_delivered(1, game.id)  # read again: the success is stored
        assert await stored() is True
    finally:
        await other_repo.close()
        await repo.close()
