"""Turn reminders and deadlines through the real bot: the reminder loop asks the service
every tick, the deadlines live in the database, so they fire after a restart too."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.bot.service_helpers import FakeClock
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

TICK = 0.02
"""Seconds between reminder ticks in these tests (a minute in production)."""

WAIT = 60.0
"""Seconds a message is waited for before the test fails: only a bot that hangs takes it."""


async def test_reminders_and_deadlines_fire_across_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    db = tmp_path / "heroes.db"
    clock = FakeClock()
    channel = table.channel
    async with running_bot(fake_discord, db, clock=clock, reminder_interval=TICK) as runner:
        bot = heroes_bot(runner)
        await fake_discord.slash(
            table.ann, channel, "game new", where="here", players=2, **{"deadline-hours": 24}
        )
        await bot.wait_idle()
        await fake_discord.slash(table.bob, channel, "game join")
        await bot.wait_idle()
        await fake_discord.slash(table.ann, channel, "game start")
        await bot.wait_idle()
        assert bot.reminders.running
        mark = fake_discord.world.message_seq
        clock.advance(hours=19)
        reminder = await fake_discord.wait_for_message(
            channel, check=lambda m: "waiting for you" in m.content, after=mark, timeout=WAIT
        )
        assert f"<@{table.ann.id}>" in reminder.content
        runner.assert_no_errors()

    clock.advance(hours=6)
    mark = fake_discord.world.message_seq
    async with running_bot(fake_discord, db, clock=clock, reminder_interval=TICK) as runner:
        overdue = await fake_discord.wait_for_message(
            channel, check=lambda m: "has run out" in m.content, after=mark, timeout=WAIT
        )
        assert f"<@{table.ann.id}>" in overdue.content and "/mod skip" in overdue.content
        loop = heroes_bot(runner).reminders
        ticks = loop.ticks
        while loop.ticks < ticks + 3:  # more ticks (counted, not timed): nothing announced twice
            await asyncio.sleep(TICK)
        runner.assert_no_errors()
    late = [m for m in channel.public_messages() if "has run out" in m.content]
    assert len(late) == 1, "a passed deadline is announced once"
    fake_discord.assert_no_violations()
