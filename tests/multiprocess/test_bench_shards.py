"""The set-up of `benchmarks.bench_shards` (issue 18): half the game channels in a guild
on each shard, the fixture's games moved to their channel's guild, the server found."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from benchmarks import bench_shards
from storage import open_repository
from tests.fakediscord import FakeDiscord


async def test_the_world_splits_the_games_over_the_shards(tmp_path: Path) -> None:
    async with FakeDiscord(shard_count=2) as fake:
        world, guild_of = bench_shards.build_sharded_world(fake, 6, 2)
        shards = [fake.gateway.shard_of(guild_of[t.channel_id]) for t in world.tables]
        assert shards == [0, 1, 0, 1, 0, 1]
        assert len(world.users) == 12 and len(set(guild_of.values())) == 2

        path = tmp_path / "fixture.db"
        repo = await open_repository(path)
        try:
            for table in world.tables:  # the fixture builder's one guild
                await repo.create_game(table.channel_id, ruleset="homm4", guild_id=1, options={})
        finally:
            await repo.close()
        bench_shards.regroup(path, guild_of)
        with sqlite3.connect(path) as conn:
            stored = dict(conn.execute("SELECT channel_id, guild_id FROM games").fetchall())
        assert stored == guild_of


def test_the_server_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HEROES_BENCH_DATABASE_URL", raising=False)
    monkeypatch.delenv("HEROES_TEST_DATABASE_URL", raising=False)
    assert bench_shards.server_url() is None
    monkeypatch.setenv("HEROES_TEST_DATABASE_URL", "postgresql://t@127.0.0.1/t")
    assert bench_shards.server_url() == "postgresql://t@127.0.0.1/t"
    monkeypatch.setenv("HEROES_BENCH_DATABASE_URL", "postgresql://b@127.0.0.1/b")
    assert bench_shards.server_url() == "postgresql://b@127.0.0.1/b"
