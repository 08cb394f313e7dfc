"""The Outbox deliverer against the fake Discord: DM slots edited in place (also after a
restart), keyed channel posts, long texts, mentions, closed DMs and refused posts."""

from __future__ import annotations

import io
from pathlib import Path

import discord
from PIL import Image as PILImage

from bot.discord_bot import HeroesBot
from bot.discord_delivery import only_mentions, split_text, with_mentions
from bot.outbox import Button, ChannelPost, DirectMessage, Image, Outbox
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


def png() -> Image:
    """A tiny PNG attachment."""
    buffer = io.BytesIO()
    PILImage.new("RGB", (8, 8), (10, 20, 30)).save(buffer, "PNG")
    return Image("board.png", buffer.getvalue())


async def open_lobby(bot: HeroesBot, table: Table, *players: FakeUser) -> None:
    """ann opens a lobby in #general and the given players join it."""
    await table.fake.slash(table.ann, table.channel, "game new", where="here", players=3)
    await bot.wait_idle()
    for player in players:
        await table.fake.slash(player, table.channel, "game join")
        await bot.wait_idle()


async def test_a_dm_slot_is_edited_in_place_even_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    db = tmp_path / "heroes.db"
    async with running_bot(fake_discord, db) as runner:
        bot = heroes_bot(runner)
        await open_lobby(bot, table)
        await bot.wait_idle()
        for text in ("Hand: first", "Hand: second"):
            await bot.deliverer.deliver(
                Outbox(dms=[DirectMessage(table.ann.id, 1, "hand", text, images=(png(),))])
            )
        await bot.deliverer.deliver(Outbox(dms=[DirectMessage(table.ann.id, 1, "notice", "n1")]))
    async with running_bot(fake_discord, db) as runner:
        await heroes_bot(runner).deliverer.deliver(
            Outbox(dms=[DirectMessage(table.ann.id, 1, "hand", "Hand: third")])
        )
    dms = fake_discord.dms(table.ann)
    assert [m.content for m in dms] == ["Hand: third", "n1"]
    assert len(dms[0].edits) == 2 and dms[0].attachments == []
    fake_discord.assert_no_violations()


async def test_a_new_decision_dm_replaces_the_old_one_so_the_player_is_pinged(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        deliver = heroes_bot(runner).deliverer.deliver
        button = Button("Identify", "ht:1:3:opt:0.abcde")

        def decision(text: str, *, notify: bool) -> Outbox:
            dm = DirectMessage(table.ann.id, 1, "decision", text, (), (button,), notify=notify)
            return Outbox(dms=[dm])

        await deliver(decision("Identify an Object (1)", notify=True))
        await deliver(decision("Identify an Object (1), deadline moved", notify=False))
        await deliver(Outbox(dms=[DirectMessage(table.ann.id, 1, "hand", "Hand: #12")]))
        await deliver(decision("Reinforce the Guard (2)", notify=True))
        await deliver(Outbox(dms=[DirectMessage(table.ann.id, 1, "hand", "Hand: #12, #13")]))
        runner.assert_no_errors()
    every = fake_discord.dm_channel(table.ann).messages
    first = every[0]
    assert first.deleted and [e["content"] for e in first.edits] == ["Identify an Object (1)"]
    shown = fake_discord.dms(table.ann)
    assert [m.content for m in shown] == ["Hand: #12, #13", "Reinforce the Guard (2)"]
    assert shown[1].buttons() and len(shown[0].edits) == 1 and not shown[1].edits
    fake_discord.assert_no_violations()


async def test_a_keyed_post_is_edited_and_sent_again_when_deleted(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    channel = table.channel
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        deliver = heroes_bot(runner).deliverer.deliver
        button = Button("Status", "ht:1:0:status")
        await deliver(Outbox(posts=[ChannelPost(channel.id, "one", key="status")]))
        await deliver(
            Outbox(posts=[ChannelPost(channel.id, "two", (png(),), (button,), key="status")])
        )
        first = channel.public_messages()
        assert [m.content for m in first] == ["two"] and first[0].buttons()
        assert first[0].attachments[0].filename == "board.png"
        first[0].deleted = True
        await deliver(Outbox(posts=[ChannelPost(channel.id, "three", key="status")]))
        assert [m.content for m in channel.public_messages()] == ["three"]
    fake_discord.assert_no_violations()


async def test_long_texts_are_split_and_mentions_ping_only_the_named(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    channel = table.channel
    lines = [f"line {i:04d} " + "x" * 40 for i in range(100)]
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        post = ChannelPost(channel.id, "\n".join(lines), (png(),), mention_user_ids=(table.bob.id,))
        await heroes_bot(runner).deliverer.deliver(Outbox(posts=[post]))
    messages = channel.public_messages()
    assert len(messages) == 3 and all(len(m.content) <= 2000 for m in messages)
    assert messages[0].content.startswith(f"<@{table.bob.id}> line 0000")
    assert messages[-1].attachments and not messages[0].attachments
    assert "\n".join(m.content for m in messages).count("line ") == 100
    fake_discord.assert_no_violations()


def test_mentions_helpers() -> None:
    assert with_mentions("Your turn", [7]) == "<@7> Your turn"
    assert with_mentions("<@7>, your turn", [7]) == "<@7>, your turn"
    assert with_mentions("Time is up", [7], [9]) == "<@7> <@&9> Time is up"
    allowed = only_mentions([7], [9]).to_dict()
    assert allowed["users"] == [7] and allowed["roles"] == [9] and allowed["parse"] == []
    assert only_mentions([]).to_dict() == {"parse": []}
    assert split_text("a" * 4500) == ["a" * 2000, "a" * 2000, "a" * 500]


async def test_closed_dms_are_announced_once_and_shown_at_the_next_interaction(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        await open_lobby(bot, table, table.cara)
        await bot.wait_idle()
        for text in ("Your Hand: #12 Angel", "Your Hand: #12 Angel, #13 Orc"):
            dm = DirectMessage(table.cara.id, 1, "hand", text, fallback_channel_id=table.channel.id)
            report = await bot.deliverer.deliver(Outbox(dms=[dm]))
            assert report.closed_dms == [table.cara.id]
        notices = [m for m in table.channel.public_messages() if "direct messages" in m.content]
        assert len(notices) == 1 and f"<@{table.cara.id}>" in notices[0].content
        assert "#12" not in notices[0].content and "Angel" not in notices[0].content
        seats = await bot.service.repo.seats(1)
        assert [s.dm_reachable for s in seats if s.user_id == table.cara.id] == [False]
        helped = await fake_discord.slash(table.cara, table.channel, "help")
        await bot.wait_idle()
        private = [m for m in helped.messages if m.content.startswith("Your Hand:")]
        assert [m.content for m in private] == ["Your Hand: #12 Angel, #13 Orc"]
        assert all(m.ephemeral for m in helped.messages)
        assert await bot.deliverer.undelivered(table.cara.id) == []
    fake_discord.assert_no_violations()


async def test_a_refused_post_is_reported_to_the_player(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Quiet Tavern")
    ann = fake_discord.create_user("ann")
    guild.add_member(ann)
    channel = guild.channel_named("general")
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        await (
            await fake_discord.slash(ann, channel, "game new", where="here", players=2)
        ).final_message()
        await (await fake_discord.slash(ann, channel, "game add-ai")).final_message()
        [lobby] = channel.public_messages()
        # /game new checks the bot's permissions first (test_discord_permissions); taken
        # away after it, the start's posts are refused and the player is told
        fake_discord.deny(channel, fake_discord.bot_user, discord.Permissions(send_messages=True))
        started = await fake_discord.slash(ann, channel, "game start")
        await heroes_bot(runner).wait_idle()
        texts = [m.content for m in started.messages if m.ephemeral]
        assert any("could not post" in t and "Send Messages" in t for t in texts), texts
        runner.assert_no_errors()
    assert channel.public_messages() == [lobby]
