"""A game's own thread: what ``/game new`` does on Discord beyond forwarding its options.

Typed in a text channel, ``/game new`` opens the game in a new public thread of that
channel (``where:here`` keeps it in the channel, as before); with ``forum:`` it opens a new
post in that forum channel (a thread with a starter message); typed in a thread or a
forum post it stays there. So one channel hosts many games, each in its own thread.

The service stays free of discord.py: it gets a `bot.lobby.ThreadOpener` (`GameThread.open`)
and calls it once everything else was checked, then creates the game with the thread as
its channel. Before anything runs, the bot's permissions where the thread is made are
checked (`GameThread.missing`: Create Public Threads and Send Messages in Threads under a
text channel; in a forum, Create Posts and Send Messages in Posts). Once the game exists,
the thread is renamed with its number (``mmh #12 — ann's game``).

Forum tags: a forum post gets the forum's tags named like the game's ruleset (its id or
its name in /game new, case aside) and like its stage — ``lobby`` when opened,
``running`` once the game started, ``finished`` at its end (`stage_tags`; the deliverer
changes the stage tag: `bot.discord_delivery`). A forum without such tags gets none.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot import registry
from bot.errors import BotLacksPermissions, ServiceError
from bot.lobby import numbered_thread_name

if TYPE_CHECKING:
    from bot.discord_bot import HeroesBot

log = logging.getLogger(__name__)

GAME_NEW = ("game", "new")

AUTO_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A game's thread is archived by Discord after a week without a message (the longest it
allows), so a game with long deadlines is not hidden between two moves; a post or a
command there brings it back."""

Kind = Literal["thread", "post"]

THREAD_PERMISSIONS: dict[Kind, tuple[tuple[str, str], ...]] = {
    "thread": (
        ("view_channel", "View Channel"),
        ("create_public_threads", "Create Public Threads"),
        ("send_messages_in_threads", "Send Messages in Threads"),
        ("embed_links", "Embed Links"),
        ("attach_files", "Attach Files"),
    ),
    "post": (
        ("view_channel", "View Channel"),
        ("send_messages", "Create Posts"),
        ("send_messages_in_threads", "Send Messages in Posts"),
        ("embed_links", "Embed Links"),
        ("attach_files", "Attach Files"),
    ),
}
"""What the bot needs where it opens a game's thread, as ``(discord.Permissions attribute,
the name Discord shows)``: under a text channel, to make the thread and post the lobby,
status, rules embeds and pictures in it; in a forum (where Discord calls Send Messages
Create Posts, and Send Messages in Threads Send Messages in Posts), the same for a post."""


STAGES = ("lobby", "running", "finished")
"""The names of the forum tags that say where a game is (`stage_tags`)."""

MAX_APPLIED_TAGS = 5
"""Discord's limit on the tags of one forum post."""


def _tag_name(tag: discord.ForumTag) -> str:
    return tag.name.strip().casefold()


def ruleset_names(ruleset: str) -> set[str]:
    """The tag names that stand for ``ruleset``: its id and its name in /game new's
    choice, case folded (``{"homm4", "heroes of might & magic iv card game"}``)."""
    names = {ruleset.casefold()}
    names |= {g.choice.casefold() for g in registry.games() if g.ruleset == ruleset}
    return names


def stage_tags(
    forum: discord.ForumChannel,
    stage: str,
    *,
    ruleset: str | None = None,
    applied: Sequence[discord.ForumTag] = (),
) -> list[discord.ForumTag]:
    """The tags a game's forum post should have: those ``applied`` now that name no
    stage, the forum's tags named like ``ruleset`` (when given: `ruleset_names`), then
    its tag named ``stage`` (one of `STAGES`) — at most 5, in that order, each once.
    Empty for a forum without such tags."""
    wanted = [t for t in applied if _tag_name(t) not in STAGES]
    if ruleset is not None:
        names = ruleset_names(ruleset)
        wanted += [t for t in forum.available_tags if _tag_name(t) in names]
    wanted += [t for t in forum.available_tags if _tag_name(t) == stage]
    return list({t.id: t for t in wanted}.values())[:MAX_APPLIED_TAGS]


async def set_stage(thread: discord.Thread, stage: str) -> None:
    """Give the forum post ``thread`` the stage tag ``stage`` in place of another stage's
    (one PATCH; none when it has it already, when it is no forum post or when the forum
    has no such tag). A refusal is logged, not raised: the game goes on either way."""
    forum = thread.parent
    if not isinstance(forum, discord.ForumChannel):
        return
    applied = list(thread.applied_tags)
    wanted = stage_tags(forum, stage, applied=applied)
    if {t.id for t in wanted} == {t.id for t in applied}:
        return
    try:
        await thread.edit(applied_tags=wanted)
    except discord.HTTPException as error:
        log.warning("Tagging forum post %d '%s' failed: %s", thread.id, stage, error)


class GameThread:
    """Where ``/game new`` opens its game's own thread or forum post.

    Args:
        parent: the text channel the command was typed in, or the forum channel of its
            ``forum`` option.
        permissions: the bot's permissions in ``parent`` (``interaction.app_permissions``
            in the channel typed in; computed from the cache for a forum).
    """

    def __init__(
        self, parent: discord.TextChannel | discord.ForumChannel, permissions: discord.Permissions
    ) -> None:
        self.parent = parent
        self.kind: Kind = "post" if isinstance(parent, discord.ForumChannel) else "thread"
        self.permissions = permissions
        self.opened: discord.Thread | None = None

    def missing(self) -> tuple[str, ...]:
        """The names (as Discord shows them) of `THREAD_PERMISSIONS` the bot lacks in the
        parent, in that order (empty: it may open the thread)."""
        needed = THREAD_PERMISSIONS[self.kind]
        return tuple(name for attribute, name in needed if not getattr(self.permissions, attribute))

    async def open(self, name: str, opening: str) -> int:
        """The `bot.lobby.ThreadOpener`: create the public thread (or the forum post, with
        ``opening`` as its first message) called ``name``; returns its channel id.

        :raises BotLacksPermissions: when Discord refuses for want of a permission (403).
        :raises ServiceError: when Discord refuses otherwise (a forum that requires tags);
            either way no game is created.
        """
        try:
            return await self._open(name, opening)
        except discord.Forbidden as error:
            raise BotLacksPermissions(
                f"Discord did not let me open a {self.kind} in {self.parent.mention} "
                f"({error.text or 'Missing Permissions'}). Someone who manages the server "
                "can grant my role Create Public Threads and Send Messages in Threads there "
                "(in a forum: Create Posts and Send Messages in Posts), or open the game "
                "with where:here. Nothing was created."
            ) from error
        except discord.HTTPException as error:
            raise ServiceError(
                f"Discord refused to open a {self.kind} in {self.parent.mention} "
                f"(HTTP {error.status}, code {error.code}: {error.text}). Open the game "
                "with where:here or in another channel. Nothing was created."
            ) from error

    async def _open(self, name: str, opening: str) -> int:
        if isinstance(self.parent, discord.ForumChannel):
            made = await self.parent.create_thread(
                name=name,
                content=opening,
                auto_archive_duration=AUTO_ARCHIVE_MINUTES,
                allowed_mentions=discord.AllowedMentions.none(),
                applied_tags=stage_tags(self.parent, "lobby"),
            )
            self.opened = made.thread
        else:
            self.opened = await self.parent.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=AUTO_ARCHIVE_MINUTES,
            )
        return self.opened.id

    async def add_host(self, host: discord.abc.Snowflake) -> None:
        """Add the host to the opened thread, so it shows in their channel list and its
        posts notify them as the thread's other members. A refusal is logged, not raised:
        the game is open either way (a mention adds a player to a thread too)."""
        if self.opened is None:
            return
        try:
            await self.opened.add_user(host)
        except discord.HTTPException as error:
            log.warning("Adding the host to thread %d failed: %s", self.opened.id, error)

    async def number(self, bot: HeroesBot, host: str) -> None:
        """Once the game exists, rename the opened thread with the game's number
        (`bot.lobby.numbered_thread_name`). A refused rename is logged, not raised: the
        game is open either way."""
        if self.opened is None:
            return
        game = await bot.service.repo.game_in_channel(self.opened.id)
        if game is None:
            return
        name = numbered_thread_name(game.ruleset, game.id, host)
        try:
            if isinstance(self.parent, discord.ForumChannel):  # and the ruleset's tag
                applied = list(self.opened.applied_tags)
                tags = stage_tags(self.parent, "lobby", ruleset=game.ruleset, applied=applied)
                await self.opened.edit(name=name, applied_tags=tags)
            else:
                await self.opened.edit(name=name)
        except discord.HTTPException as error:
            log.warning("Renaming the thread of game #%d failed: %s", game.id, error)


def game_thread(interaction: discord.Interaction, options: dict[str, Any]) -> GameThread | None:
    """Where ``/game new`` with ``options`` opens its game: a `GameThread` under the
    ``forum`` option's forum channel, or under the text channel typed in unless
    ``where`` is ``here``; None when the game stays where the command was typed (a
    thread or forum post, ``where:here``, or a channel that is neither). A forum given
    with ``where:here`` is left to the service to refuse."""
    forum = options.get("forum")
    if isinstance(forum, discord.ForumChannel | discord.app_commands.AppCommandChannel):
        if options.get("where") == "here":
            return None
        guild = interaction.guild
        found = guild.get_channel(forum.id) if guild is not None else None
        if isinstance(found, discord.ForumChannel) and guild is not None:
            return GameThread(found, found.permissions_for(guild.me))
        return None
    channel = interaction.channel
    if options.get("where") != "here" and isinstance(channel, discord.TextChannel):
        return GameThread(channel, interaction.app_permissions)
    return None


async def new_game(
    interaction: discord.Interaction, path: tuple[str, ...], options: dict[str, Any]
) -> None:
    """/game new (a `bot.cogs.common.Run`): forwarded with the `GameThread` it opens, if
    any (`game_thread`)."""
    from bot.cogs import common

    bot = common.heroes_bot(interaction)
    await bot.run_command(interaction, path, options, thread=game_thread(interaction, options))
