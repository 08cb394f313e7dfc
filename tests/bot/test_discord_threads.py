"""/game new opens a thread per game (issue 16), through the real bot and the fake Discord:
typed in a text channel it opens a public thread named for the game and the lobby there,
and the game is played in the thread; a second /game new in the same channel opens a
second thread (two games at once); with ``forum:`` it opens a forum post (a starter
message, then the lobby); ``where:here`` and a thread keep the game where it was typed;
the permissions to make a thread are checked first."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.discord_threads import GameThread
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)


async def test_a_game_opened_in_a_text_channel_gets_its_own_thread_and_plays_there(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    guild, channel = table.guild, table.channel
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        repo = bot.service.repo
        opened = await fake_discord.slash(table.ann, channel, "game new", players=2)
        reply = await opened.final_message()
        await bot.wait_idle()
        (thread,) = guild.threads()
        assert thread.parent is channel
        assert thread.name == "homm4 #1 — ann's game"
        assert thread.thread_members == [table.ann.id]  # the host sees it in their list
        assert reply.ephemeral and reply.channel is channel
        assert reply.content == (
            f"Game #1 is open in its own thread: https://discord.com/channels/{guild.id}/"
            f"{thread.id}. Others join there with /game join (or from /game list); start it "
            "there with /game start."
        )
        assert channel.public_messages() == []  # nothing but the private reply in #general
        (lobby,) = thread.public_messages()
        assert "ann opened the lobby." in lobby.content
        game = await repo.game_in_channel(thread.id)
        assert game is not None and game.id == 1 and game.channel_id == thread.id
        assert await repo.game_in_channel(channel.id) is None
        # the game is played in its thread
        await (await fake_discord.slash(table.bob, thread, "game join")).final_message()
        started = await (await fake_discord.slash(table.ann, thread, "game start")).final_message()
        await bot.wait_idle()
        assert not started.content.startswith("There is no"), started.content
        game = await repo.game_in_channel(thread.id)
        assert game is not None and game.status.value == "active"
        assert len(thread.public_messages()) > 1
        assert channel.public_messages() == []
    fake_discord.assert_no_violations()


async def test_a_second_game_new_in_the_same_channel_opens_a_second_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    guild, channel = table.guild, table.channel
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        repo = bot.service.repo
        await (await fake_discord.slash(table.ann, channel, "game new", players=2)).final_message()
        second = await fake_discord.slash(table.bob, channel, "game new", ruleset="mmh", players=2)
        assert (await second.final_message()).content.startswith(
            "Game #2 is open in its own thread: "
        )
        await bot.wait_idle()
        first_thread, second_thread = guild.threads()
        assert [first_thread.name, second_thread.name] == [
            "homm4 #1 — ann's game",
            "mmh #2 — bob's game",
        ]
        games = [await repo.game_in_channel(t.id) for t in (first_thread, second_thread)]
        assert [(g.id, g.ruleset) for g in games if g is not None] == [(1, "homm4"), (2, "mmh")]
        # each lobby takes its own seats
        await (await fake_discord.slash(table.cara, first_thread, "game join")).final_message()
        await (await fake_discord.slash(table.ann, second_thread, "game join")).final_message()
        assert [s.user_id for s in await repo.seats(1)] == [table.ann.id, table.cara.id]
        assert [s.user_id for s in await repo.seats(2)] == [table.bob.id, table.ann.id]
    fake_discord.assert_no_violations()


async def test_a_forum_game_opens_as_a_new_post(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    table = Table.create(fake_discord)
    guild, channel = table.guild, table.channel
    forum = guild.create_forum_channel("games")
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        repo = bot.service.repo
        opened = await fake_discord.slash(
            table.ann, channel, "game new", players=2, ruleset="mmh", forum=forum
        )
        reply = await opened.final_message()
        await bot.wait_idle()
        (post,) = guild.threads()
        assert post.parent is forum and post.name == "mmh #1 — ann's game"
        assert post.thread_members == [table.ann.id]
        assert reply.content.startswith(
            f"Game #1 is open in its own thread: https://discord.com/channels/{guild.id}/{post.id}."
        )
        starter, lobby = post.public_messages()
        assert starter.id == post.id  # a forum post's first message has the thread's id
        assert starter.content == (
            "ann opened a game of Might & Magic Heroes: the lobby follows. Take a seat with "
            "/game join here."
        )
        assert "ann opened the lobby." in lobby.content
        game = await repo.game_in_channel(post.id)
        assert game is not None and game.id == 1
        assert channel.public_messages() == [] and forum.public_messages() == []
        await (await fake_discord.slash(table.bob, post, "game join")).final_message()
        assert [s.user_id for s in await repo.seats(1)] == [table.ann.id, table.bob.id]
        # a forum and where:here contradict each other: refused, nothing made
        both = await fake_discord.slash(table.ann, channel, "game new", forum=forum, where="here")
        assert (await both.final_message()).content.startswith("Choose where:here or a forum")
        assert len(guild.threads()) == 1
    fake_discord.assert_no_violations()


async def test_where_here_and_a_thread_keep_the_game_where_it_was_typed(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    guild, channel = table.guild, table.channel
    own = guild.create_thread(channel, "ann's table", owner=table.ann)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        repo = heroes_bot(runner).service.repo
        here = await fake_discord.slash(table.ann, channel, "game new", where="here")
        assert (await here.final_message()).content.startswith("Game #1 is open. Others join")
        in_thread = await fake_discord.slash(table.bob, own, "game new")
        assert (await in_thread.final_message()).content.startswith("Game #2 is open. Others")
        assert guild.threads() == [own] and own.name == "ann's table"
        assert [(await repo.game_in_channel(c.id)) is not None for c in (channel, own)] == [
            True,
            True,
        ]
    fake_discord.assert_no_violations()


async def test_game_new_names_what_the_bot_lacks_to_open_a_thread_and_makes_none(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    guild, channel = table.guild, table.channel
    fake_discord.deny(
        channel, fake_discord.bot_user, discord.Permissions(create_public_threads=True)
    )
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        repo = heroes_bot(runner).service.repo
        refused = await (await fake_discord.slash(table.ann, channel, "game new")).final_message()
        assert refused.ephemeral
        assert refused.content.startswith(
            "I cannot run a game in this channel: I lack the permission Create Public Threads here."
        )
        assert guild.threads() == [] and await repo.list_games(guild_id=guild.id) == []
        # the old way still works where the bot may post
        here = await fake_discord.slash(table.ann, channel, "game new", where="here")
        assert (await here.final_message()).content.startswith("Game #1 is open.")
    fake_discord.assert_no_violations()


def test_thread_permissions_are_named_in_discord_words() -> None:
    none = discord.Permissions.none()
    text = GameThread.__new__(GameThread)
    text.kind, text.permissions = "thread", none
    assert text.missing() == (
        "View Channel",
        "Create Public Threads",
        "Send Messages in Threads",
        "Embed Links",
        "Attach Files",
    )
    post = GameThread.__new__(GameThread)
    post.kind = "post"
    post.permissions = discord.Permissions(view_channel=True, embed_links=True, attach_files=True)
    assert post.missing() == ("Create Posts", "Send Messages in Posts")


async def test_a_forum_the_bot_may_not_post_in_is_refused_before_or_by_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    guild, channel = table.guild, table.channel
    closed = guild.create_forum_channel("closed")
    later = guild.create_forum_channel("later")
    posts = discord.Permissions(send_messages=True)
    fake_discord.deny(closed, fake_discord.bot_user, posts)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        repo = heroes_bot(runner).service.repo
        first = await fake_discord.slash(table.ann, channel, "game new", forum=closed)
        # (without Send Messages, discord.py counts Embed Links and Attach Files as denied)
        assert (await first.final_message()).content == (
            f"I cannot open a game in <#{closed.id}>: I lack the permissions Create Posts, "
            "Embed Links and Attach Files there. Someone who manages the server can grant "
            "them to my role (the forum's settings, Permissions), or open the game in a "
            "channel. Nothing was created."
        )
        # denied after the bot last heard of the forum: Discord itself refuses the post
        fake_discord.deny(later, fake_discord.bot_user, posts)
        second = await fake_discord.slash(table.ann, channel, "game new", forum=later)
        assert (await second.final_message()).content == (
            f"Discord did not let me open a post in <#{later.id}> (Missing Permissions). "
            "Someone who manages the server can grant my role Create Public Threads and Send "
            "Messages in Threads there (in a forum: Create Posts and Send Messages in Posts), "
            "or open the game with where:here. Nothing was created."
        )
        assert guild.threads() == [] and await repo.list_games(guild_id=guild.id) == []
    fake_discord.assert_no_violations()


async def test_a_forum_posts_tags_follow_the_ruleset_and_the_games_stage(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 16: a forum with tags named like the ruleset and "lobby" / "running" /
    "finished" tags its game's post (the ruleset's tag kept, the stage's swapped at the
    start and at the end); a forum without tags gets none and is not edited for them."""
    table = Table.create(fake_discord)
    guild, channel = table.guild, table.channel
    forum = guild.create_forum_channel(
        "games", tags=["HoMM4", "Might & Magic Heroes", "Lobby", "running", "finished", "help"]
    )
    plain = guild.create_forum_channel("plain")
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        bot = heroes_bot(runner)
        opened = await fake_discord.slash(
            table.ann, channel, "game new", players=2, ruleset="mmh", forum=forum
        )
        await opened.final_message()
        await bot.wait_idle()
        (post,) = guild.threads()
        assert post.tag_names() == ["Might & Magic Heroes", "Lobby"]
        await (await fake_discord.slash(table.bob, post, "game join")).final_message()
        await (await fake_discord.slash(table.ann, post, "game start")).final_message()
        await bot.wait_idle()
        assert post.tag_names() == ["Might & Magic Heroes", "running"]
        ended = await fake_discord.slash(table.mod, post, "mod end", reason="test")
        await ended.final_message()
        await bot.wait_idle()
        assert post.tag_names() == ["Might & Magic Heroes", "finished"]
        (panel,) = [m for m in post.public_messages() if m.panel]
        assert not panel.buttons() and "Ended by a moderator" in panel.text
        untagged = await fake_discord.slash(
            table.ann, channel, "game new", players=2, ruleset="homm4", forum=plain
        )
        await untagged.final_message()
        await bot.wait_idle()
        second = next(t for t in guild.threads() if t.parent is plain)
        assert second.applied_tags == [] and second.name == "homm4 #2 — ann's game"
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
