"""One process does what must be done once (issue 18): the command sync under the
``command-sync`` leader lock, and each shard's start-up recovery under ``recovery:shard:N``
in the process running that shard (`HeroesBot.recovering`)."""

from __future__ import annotations

from pathlib import Path

from bot.discord_bot import HeroesBot, bot_class
from bot.discord_refs import MemoryRefStore
from tests.bot.service_helpers import make_service

ON_SHARD_0 = 4 << 22
"""A guild id on shard 0 of 2 (Discord: ``(id >> 22) % 2``)."""
ON_SHARD_1 = (5 << 22) | 77
"""A guild id on shard 1 of 2."""


async def test_a_sharded_process_recovers_the_games_of_its_own_shards(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        bot = bot_class(HeroesBot, sharded=True)(
            service, refs=MemoryRefStore(), shard_count=2, shard_ids=[1]
        )
        assert bot.owned_shards() == (1,)
        async with bot.recovering() as owns:
            assert owns(ON_SHARD_1) and not owns(ON_SHARD_0) and not owns(None)
            # Meanwhile another holder (process) cannot take shard 1's recovery.
            async with repo.leader_lock("recovery:shard:1") as other:
                assert other is False
        async with repo.leader_lock("recovery:shard:1") as held, bot.recovering() as owns:
            assert held and not owns(ON_SHARD_1), "its recovery is another's while held"
    finally:
        await repo.close()


async def test_an_unsharded_process_recovers_every_game(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        bot = HeroesBot(service, refs=MemoryRefStore())
        assert bot.owned_shards() is None
        async with bot.recovering() as owns:
            assert owns(ON_SHARD_0) and owns(ON_SHARD_1) and owns(None)
        async with repo.leader_lock("recovery") as held, bot.recovering() as owns:
            assert held and not owns(ON_SHARD_0)
        await bot.close()
    finally:
        await repo.close()


async def test_the_command_sync_is_left_to_the_process_holding_its_lock(tmp_path: Path) -> None:
    repo, service = await make_service(tmp_path)
    try:
        bot = HeroesBot(service, refs=MemoryRefStore())
        async with repo.leader_lock("command-sync") as held:
            assert held
            assert await bot.sync_commands() == []  # nothing sent, nothing stored
        assert await repo.command_tree_hash(f"global:{bot.application_id}") is None
        await bot.close()
    finally:
        await repo.close()
