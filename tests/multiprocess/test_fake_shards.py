"""The fake Discord's gateway with several shards served by separate bot clients (issue 18):
each client IDENTIFYs one shard ``[id, count]``, gets READY and GUILD_CREATE for exactly the
guilds on it (Discord's ``(guild_id >> 22) % count``), and the interactions of a guild reach
the client of its shard only; DMs go to shard 0. A shard identified again (a restarted
process) takes over its guilds; a wrong shard count is refused with close code 4010."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401
from tests.fakediscord.snowflake import SnowflakeFactory


def shard_bot(shard_id: int, shard_count: int) -> commands.AutoShardedBot:
    """An `AutoShardedBot` running only ``shard_id`` of ``shard_count``: ``/where`` answers
    with the shard that received it and the guilds this client knows."""
    bot = commands.AutoShardedBot(
        command_prefix="!",
        intents=discord.Intents.none() | discord.Intents(guilds=True),
        guild_ready_timeout=0.01,
        shard_count=shard_count,
        shard_ids=[shard_id],
    )

    @bot.tree.command(description="Which shard answers")
    async def where(interaction: discord.Interaction) -> None:
        known = ",".join(sorted(g.name for g in bot.guilds))
        await interaction.response.send_message(
            f"shard {interaction.guild.shard_id if interaction.guild else 0} of {shard_id}: {known}"
        )

    where.allowed_contexts = app_commands.AppCommandContext(guild=True, dm_channel=True)

    async def setup_hook() -> None:
        if shard_id == 0:
            await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


def test_snowflakes_on_a_shard_stay_increasing() -> None:
    ids = SnowflakeFactory()
    made = [ids.next_on_shard(n % 3, 3) for n in range(30)]
    assert made == sorted(set(made))
    assert [(i >> 22) % 3 for i in made] == [n % 3 for n in range(30)]
    with pytest.raises(ValueError, match="shard 3 is not one of 3"):
        ids.next_on_shard(3, 3)


async def test_each_guild_reaches_the_client_of_its_shard(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.shard_count = 2
    guilds = [fake.create_guild(f"Tavern {n}", shard=n % 2) for n in range(4)]
    assert [fake.shard_of(g) for g in guilds] == [0, 1, 0, 1]
    ann = fake.create_user("ann")
    for guild in guilds:
        guild.add_member(ann)
    async with (
        fake.run_bot(shard_bot(0, 2)) as first,
        fake.run_bot(shard_bot(1, 2)) as second,
    ):
        sessions = {s.shard_id: s for s in fake.gateway.live_sessions()}
        assert sorted(sessions) == [0, 1]
        assert [s.shard_count for s in sessions.values()] == [2, 2]
        # Each client was told of its own shard's guilds only.
        assert sorted(g.name for g in first.bot.guilds) == ["Tavern 0", "Tavern 2"]
        assert sorted(g.name for g in second.bot.guilds) == ["Tavern 1", "Tavern 3"]
        for number, guild in enumerate(guilds):
            result = await fake.slash(ann, guild.channel_named("general"), "where")
            text = (await result.final_message()).content
            owner = number % 2
            names = ",".join(f"Tavern {n}" for n in (owner, owner + 2))
            assert text == f"shard {owner} of {owner}: {names}"
        dm = await fake.slash(ann, fake.dm_channel(ann), "where")
        assert (await dm.final_message()).content == "shard 0 of 0: Tavern 0,Tavern 2"
        first.assert_no_errors()
        second.assert_no_errors()
    fake.assert_no_violations()


async def test_a_shard_identified_again_takes_over(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.shard_count = 2
    guild = fake.create_guild("Tavern", shard=1)
    ann = fake.create_user("ann")
    guild.add_member(ann)
    async with fake.run_bot(shard_bot(0, 2)):
        async with fake.run_bot(shard_bot(1, 2)) as old:
            pass  # closed: its session ended
        assert old.stopped or old.task.done()
        async with fake.run_bot(shard_bot(1, 2)) as new:
            result = await fake.slash(ann, guild.channel_named("general"), "where")
            assert (await result.final_message()).content == "shard 1 of 1: Tavern"
            new.assert_no_errors()
    assert [s.shard_id for s in fake.gateway.sessions] == [0, 1, 1]
    fake.assert_no_violations()


async def test_a_wrong_shard_count_is_refused(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.shard_count = 2
    fake.create_guild("Tavern", shard=0)
    bot = shard_bot(0, 3)
    with pytest.raises((TimeoutError, discord.DiscordException, AssertionError)):
        async with fake.run_bot(bot, ready_timeout=5.0):
            pass
    assert any("shard [0, 3] invalid" in v.detail for v in fake.violations)
    await bot.close()
