"""Coming back (issue 15) through the real bot and the fake Discord: the digest DM is one
message edited in place while decisions open in a row; ``/me games`` in a DM lists games
of two servers with their deadlines and jump links; a digest that meets closed DMs waits
for the player's next interaction, as every DM does; quiet hours hold a reminder of the
reminder loop until they end, and the deadline does not move."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from bot.outbox import DirectMessage, Outbox
from engine.homm4 import RULESET as HOMM4
from tests.bot.discord_driver import Driver, named_cards
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.bot.service_helpers import FakeClock
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

TICK = 0.02
"""Seconds between reminder ticks in these tests (a minute in production)."""

WAIT = 60.0
"""Seconds a message is waited for before the test fails: only a bot that hangs takes it."""


def digest_messages(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """The digest DMs ``user`` still has (not deleted)."""
    return [m for m in fake.dms(user) if not m.deleted and m.content.startswith("📬")]


async def test_a_digest_is_edited_in_place_while_decisions_open_in_a_row(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    ann, bob = table.ann, table.bob
    renderer = RecordingRenderer()
    async with running_bot(fake_discord, tmp_path / "heroes.db", renderer=renderer) as runner:
        driver = Driver(table, heroes_bot(runner), renderer)
        await driver.slash(ann, "game new", where="here", players=2)
        await driver.slash(bob, "game join")
        await driver.slash(ann, "game start")
        while not digest_messages(fake_discord, bob):  # Red's Risk Stack, then its Army
            await driver.step()
        [first] = digest_messages(fake_discord, bob)
        assert "Red places Army 1" in first.content
        assert "Blue, now: Blue chooses 5 of the 8 cards" in first.content
        assert [a.filename for a in first.attachments] == ["board.png"]
        # bob is away: a moderator plays his Risk Stack; his next decision opens at once
        await driver.slash(table.mod, "mod skip", seat="Blue", reason="away")
        [again] = digest_messages(fake_discord, bob)
        assert again.id == first.id and again.edits, "the same message, edited"
        assert "🛡️ Blue puts 5 cards face down" in again.content
        assert "Blue, now: Blue places the Army token" in again.content
        assert "Red places Army 1" in again.content, "still since bob last acted"
        _, state = await driver.state()
        red = {*state.players_state[0].hand, *state.players_state[0].risk}
        assert not named_cards(again.content) & red, "none of Red's cards"
        # bob acts himself; when his next decision opens, the digest starts after that
        await driver.step()
        while HOMM4.pending((await driver.state())[1])[0].seat == 0:
            await driver.step()
        [latest] = digest_messages(fake_discord, bob)
        assert "Red places Army 1" not in latest.content
        assert "Blue places Army 2" not in latest.content, "bob's own move is no news"
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_me_games_in_a_dm_lists_the_games_of_two_servers(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    ann = table.ann
    other = fake_discord.create_guild("Second Keep")
    other.add_member(ann)
    keep = other.channel_named("general")
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        for channel in (table.channel, keep):
            await fake_discord.slash(
                ann, channel, "game new", where="here", players=2, **{"deadline-hours": 12}
            )
            await bot.wait_idle()
            await fake_discord.slash(ann, channel, "game add-ai")
            await bot.wait_idle()
            await fake_discord.slash(ann, channel, "game start")
            await bot.wait_idle()
        result = await fake_discord.slash(ann, fake_discord.dm_channel(ann), "me games")
        reply = await result.final_message()
        assert reply.ephemeral or result.response is not None
        text = reply.content
        assert text.startswith("**Your games** (2, on every server)")
        for guild, channel in ((table.guild, table.channel), (other, keep)):
            assert f"https://discord.com/channels/{guild.id}/{channel.id}" in text
        repo = bot.service.repo
        for game in await repo.list_games():
            [turn] = [d for d in await repo.deadlines(game.id) if d.kind == "turn"]
            assert f"your deadline <t:{int(turn.due_at.timestamp())}:R>" in text
        assert text.count("waiting for: **you** (Red)") == 2
        notify = await fake_discord.slash(
            ann, fake_discord.dm_channel(ann), "me notify", quiet="25-7"
        )
        refused = await notify.final_message()
        assert "25:00 is not a time of day" in refused.content and refused.ephemeral
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_a_digest_that_meets_closed_dms_waits_for_the_next_interaction(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    cara = table.cara  # DMs closed
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        await fake_discord.slash(table.ann, table.channel, "game new", where="here", players=2)
        await bot.wait_idle()
        await fake_discord.slash(cara, table.channel, "game join")
        await bot.wait_idle()
        digest = DirectMessage(
            cara.id,
            1,
            "digest",
            "📬 **Game #1**: since you last acted:\n• Red places Army 1 at O8.",
            fallback_channel_id=table.channel.id,
        )
        report = await bot.deliverer.deliver(Outbox(dms=[digest]))
        assert report.closed_dms == [cara.id]
        assert [dm.slot for dm in await bot.deliverer.undelivered(cara.id)] == ["digest"]
        helped = await fake_discord.slash(cara, table.channel, "help")
        await bot.wait_idle()
        shown = [m for m in helped.messages if m.content.startswith("📬")]
        assert len(shown) == 1 and shown[0].ephemeral
        assert await bot.deliverer.undelivered(cara.id) == []
        runner.assert_no_errors()
    fake_discord.assert_no_violations()


async def test_quiet_hours_hold_a_reminder_through_the_reminder_loop(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    ann, channel = table.ann, table.channel
    clock = FakeClock()  # 2030-01-01 12:00 UTC, 13:00 in Berlin
    async with running_bot(
        fake_discord, tmp_path / "heroes.db", clock=clock, reminder_interval=TICK
    ) as runner:
        bot = heroes_bot(runner)
        quiet = await fake_discord.slash(
            ann, fake_discord.dm_channel(ann), "me notify", quiet="22-8", **{"time-zone": "berl"}
        )
        assert "'berl' is not a time zone I know" in (await quiet.final_message()).content
        quiet = await fake_discord.slash(
            ann,
            fake_discord.dm_channel(ann),
            "me notify",
            quiet="22-8",
            **{"time-zone": "Europe/Berlin"},
        )
        assert "22:00-08:00 your time" in (await quiet.final_message()).content
        await fake_discord.slash(
            ann, channel, "game new", where="here", players=2, **{"deadline-hours": 24}
        )
        await bot.wait_idle()
        await fake_discord.slash(table.bob, channel, "game join")
        await bot.wait_idle()
        await fake_discord.slash(ann, channel, "game start")
        await bot.wait_idle()
        loop = bot.reminders

        async def ticks(count: int) -> None:  # counted ticks of the loop, not timed waits
            start = loop.ticks
            while loop.ticks < start + count:
                await asyncio.sleep(TICK)

        mark = fake_discord.world.message_seq
        clock.advance(hours=18, minutes=1)  # the reminder falls due: 07:01 in Berlin, quiet
        await ticks(3)
        reminders = [m for m in channel.public_messages() if "waiting for you" in m.content]
        assert reminders == [], "held by ann's quiet hours"
        clock.advance(minutes=59)  # 08:00 in Berlin: the quiet hours are over
        sent = await fake_discord.wait_for_message(
            channel, check=lambda m: "waiting for you" in m.content, after=mark, timeout=WAIT
        )
        assert f"<@{ann.id}>" in sent.content
        turn = clock.now + timedelta(hours=5)  # the deadline did not move: 24 h after the start
        assert f"The deadline is <t:{int(turn.timestamp())}:R>" in sent.content
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
