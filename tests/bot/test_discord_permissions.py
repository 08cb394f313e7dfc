"""/game new checks the bot's permissions in the channel first (issue 16): through the real
bot and the fake Discord, a channel where the bot may not attach pictures or embed links,
and a thread where it may not post, are refused in one private reply naming what is
missing, and nothing is created; where it may, the same command opens the lobby."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.discord_bot import missing_permissions
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


async def test_game_new_names_the_permissions_the_bot_lacks_and_creates_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    ann, channel = table.ann, table.channel
    pictures = discord.Permissions(attach_files=True, embed_links=True)
    fake_discord.deny(channel, fake_discord.bot_user, pictures)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        result = await fake_discord.slash(ann, channel, "game new", where="here", players=2)
        reply = await result.final_message()
        assert reply.ephemeral
        assert reply.content == (
            "I cannot run a game in this channel: I lack the permissions Embed Links and "
            "Attach Files here. Someone who manages the server can grant them to my role "
            "(the channel's settings, Permissions), or open the game in another channel. "
            "Nothing was created."
        )
        assert channel.public_messages() == []
        assert await heroes_bot(runner).service.repo.game_in_channel(channel.id) is None
    fake_discord.assert_no_violations()


async def test_game_new_in_a_thread_needs_send_messages_in_threads(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    ann, channel = table.ann, table.channel
    thread = table.guild.create_thread(channel, "a game", owner=ann)
    in_threads = discord.Permissions(send_messages_in_threads=True)
    fake_discord.deny(channel, fake_discord.bot_user, in_threads)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        repo = heroes_bot(runner).service.repo
        refused = await (
            await fake_discord.slash(ann, thread, "game new", where="here")
        ).final_message()
        assert refused.ephemeral
        assert "I lack the permission Send Messages in Threads here." in refused.content
        assert await repo.game_in_channel(thread.id) is None
        # the parent channel lets the bot post: the lobby opens there
        opened = await (
            await fake_discord.slash(ann, channel, "game new", where="here")
        ).final_message()
        assert opened.content.startswith("Game #1 is open."), opened.content
        game = await repo.game_in_channel(channel.id)
        assert game is not None and game.id == 1
    fake_discord.assert_no_violations()


def test_missing_permissions_are_named_in_discord_words_in_their_order() -> None:
    nothing = discord.Permissions.none()
    assert missing_permissions(nothing) == (
        "View Channel",
        "Send Messages",
        "Embed Links",
        "Attach Files",
    )
    assert missing_permissions(nothing, in_thread=True)[1] == "Send Messages in Threads"
    allowed = discord.Permissions(
        view_channel=True, send_messages=True, embed_links=True, attach_files=True
    )
    assert missing_permissions(allowed) == ()
    assert missing_permissions(allowed, in_thread=True) == ("Send Messages in Threads",)
