"""The Discord bot: a `commands.Bot` that turns interactions into `GameService` calls.

`HeroesBot` is thin. For every slash command or click it: acknowledges at once (a defer:
rendering and the database come after), builds the `Actor`, calls the service, and hands
the returned Outbox to the `Deliverer`. Errors go to `bot.discord_errors`. Commands are
synced in `setup_hook` (to ``HEROES_DEV_GUILD_ID`` when set: instant; else globally),
only when the tree differs from the one last synced there (a hash kept in the database,
schema 10). Buttons and selects are `GameComponent` dynamic items, so they work on
messages sent before a restart. Reminders tick from the database (`ReminderLoop`).

Several processes (docs/DEPLOY.md): with ``HEROES_SHARD_COUNT`` the bot is an
`commands.AutoShardedBot` running the shards ``HEROES_SHARD_IDS`` (`bot_class`,
`shard_options`); every process serves its shards' guilds on one shared database. The
command sync is done by one of them (`Repository.leader_lock` ``command-sync``), and the
start-up recovery of each shard's games by the process running that shard (a leader lock
per shard), so a process restarting after a crash recovers its own games while the others
go on serving theirs. Deadlines and reminders are claimed in storage, one statement each,
so every process may tick them and each fires once.

Intents: only ``guilds`` (channels and roles for permission checks). Interactions reach
the bot whatever its intents, and the bot reads no message content and needs no member
list — so no privileged intent is requested.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import discord_errors
from bot.actors import Actor
from bot.adapters import fit_choices
from bot.discord_components import GameComponent, build_view
from bot.discord_delivery import Deliverer, DmReachability, defer
from bot.discord_errors import DeliveryFailed
from bot.discord_refs import MessageRefStore
from bot.errors import failure_text
from bot.outbox import Outbox
from bot.reminders import ReminderLoop

if TYPE_CHECKING:
    from bot.discord_threads import GameThread
    from bot.service import GameService

log = logging.getLogger(__name__)

CLOSE_GRACE = 10.0
"""Seconds `HeroesBot.close` waits for actions in flight to finish sending."""

ServiceCall = Callable[[Actor], Awaitable[Outbox]]
"""A service call waiting for its actor: ``lambda actor: service.run(actor, ...)``."""


GAME_CHANNEL_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
)
"""What the bot needs in a game's channel, as ``(discord.Permissions attribute, the name
Discord shows)``: seeing it, posting the lobby, status and news (Send Messages; in a thread
Send Messages in Threads instead), the rules and card embeds, and the pictures."""


def missing_permissions(
    permissions: discord.Permissions, *, in_thread: bool = False
) -> tuple[str, ...]:
    """The names (as Discord shows them) of the `GAME_CHANNEL_PERMISSIONS` that
    ``permissions`` (an interaction's ``app_permissions``: the bot's in that channel)
    lacks, in that order; in a thread, Send Messages in Threads stands for Send Messages."""
    needed = list(GAME_CHANNEL_PERMISSIONS)
    if in_thread:
        needed[1] = ("send_messages_in_threads", "Send Messages in Threads")
    return tuple(name for attribute, name in needed if not getattr(permissions, attribute))


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends ``guild_id``'s events to: ``(guild_id >> 22) % shard_count``
    (DMs and games without a guild: shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def shard_options(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> dict[str, Any]:
    """The `commands.AutoShardedBot` options for ``HEROES_SHARD_COUNT`` / ``HEROES_SHARD_IDS``
    (`bot.settings.Settings`): none when the bot is unsharded (``shard_count`` None)."""
    if shard_count is None:
        return {}
    return {"shard_count": shard_count, "shard_ids": list(shard_ids) if shard_ids else None}


_SHARDED: dict[type[Any], type[Any]] = {}

BotT = TypeVar("BotT", bound="HeroesBot")


def bot_class(base: type[BotT], *, sharded: bool) -> type[BotT]:
    """``base`` (`HeroesBot` or a subclass), or with ``sharded`` the same bot on
    `commands.AutoShardedBot` (one gateway connection per shard of this process; made once
    per class). Everything else about the bot is the same."""
    if not sharded:
        return base
    found = _SHARDED.get(base)
    if found is None:
        found = _SHARDED[base] = type(
            f"Sharded{base.__name__}",
            (base, commands.AutoShardedBot),
            {"__doc__": f"`{base.__name__}` on `commands.AutoShardedBot` (`bot_class`)."},
        )
    made: type[BotT] = found
    return made


def bot_intents() -> discord.Intents:
    """The gateway intents the bot asks for: ``guilds`` only (no privileged intent)."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class HeroesBot(commands.Bot):
    """The Heroes Table bot.

    Args:
        service: the `GameService` every game decision goes through.
        refs: where the ids of editable messages (status posts, hand DMs) are kept.
        reachability: where closed DMs are recorded (None: the service's repository).
        dev_guild_id: sync commands to this guild only (instant), else globally.
        force_sync: sync the commands at start even when they are the ones last synced.
        reminder_interval: seconds between reminder ticks (60; tests use less).
        options: passed to `commands.Bot` (tests pass ``guild_ready_timeout``; a sharded
            bot, `bot_class`, takes ``shard_count`` and ``shard_ids``: `shard_options`).
    """

    def __init__(
        self,
        service: GameService,
        *,
        refs: MessageRefStore,
        reachability: DmReachability | None = None,
        dev_guild_id: int | None = None,
        force_sync: bool = False,
        reminder_interval: float = 60.0,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        from bot.discord_reach import ServiceReachability

        self.service = service
        self.dev_guild_id = dev_guild_id
        self.force_sync = force_sync
        self.deliverer = Deliverer(
            self,
            refs,
            reachability or ServiceReachability(service),
            build_view,
            game_version=self.game_version,
            shared=self.shard_count is not None,
        )
        self.reminders = ReminderLoop(
            service.due_reminders,
            self.deliver_unprompted,
            interval=reminder_interval,
            clock=service.clock,
            before_first=self.wait_until_ready,
            settle=service.deadline_posts_delivered,
        )
        self._recovered = False
        self.started_up = asyncio.Event()
        """Set once `on_ready`'s start-up steps (redelivery, recovery) have finished."""
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.synced: list[app_commands.AppCommand] = []
        self.timings: list[tuple[str, float, float]] = []

    async def game_version(self, game_id: int, channel_id: int) -> int | None:
        """The version game ``game_id`` is at in storage now (one indexed read of its
        channel's newest game, without the snapshot); None when that is another game."""
        found = await self.service.repo.list_games(channel_id=channel_id, limit=1)
        return found[0].version if found and found[0].id == game_id else None

    # ------------------------------------------------------------------ start-up
    async def setup_hook(self) -> None:
        """Register cogs, error handler and dynamic items; sync commands if they changed
        (`sync_commands`); start reminders."""
        from bot.cogs import all_cogs

        discord_errors.install(self.tree)
        for cog in all_cogs(self):
            await self.add_cog(cog)
        self.add_dynamic_items(GameComponent)
        self.synced = await self.sync_commands()
        self.reminders.start()

    async def on_ready(self) -> None:
        """Once per process: first deliver the news of commits a crash left unsent
        (`GameService.redeliver`: its cost follows the owed rows, not the stored games),
        then let the service finish automatic moves left by a crash — of the games this
        process recovers (`recovering`: its own shards' guilds, each shard under its
        leader lock, so no two processes recover one game at once)."""
        if self._recovered:
            return
        self._recovered = True
        try:
            async with self.recovering() as owns:
                try:
                    await self.deliver_unprompted(await self.service.redeliver(owns=owns))
                except Exception as error:  # nor may a failed redelivery (tried next start)
                    log.error(
                        "Delivering the news a restart left owed failed: %s", failure_text(error)
                    )
                try:
                    outbox = await self.service.recover(owns=owns)
                    await self.deliver_unprompted(outbox)
                except Exception as error:  # a failed recovery must not keep the bot from serving
                    log.error(
                        "Recovering unfinished automatic moves failed: %s", failure_text(error)
                    )
        except Exception as error:  # the leader lock's store failed: serve anyway
            log.error("The start-up recovery could not run: %s", failure_text(error))
        finally:
            self.started_up.set()

    def owned_shards(self) -> tuple[int, ...] | None:
        """The shards this process runs (None: unsharded, it serves every guild)."""
        count = self.shard_count
        if count is None:
            return None
        ids = getattr(self, "shard_ids", None)  # AutoShardedBot; a plain Bot has one
        if ids:
            return tuple(ids)
        return (self.shard_id,) if self.shard_id is not None else tuple(range(count))

    @contextlib.asynccontextmanager
    async def recovering(self) -> AsyncIterator[Callable[[int | None], bool]]:
        """The start-up recovery's leader locks (`Repository.leader_lock`): ``recovery``
        for an unsharded bot, ``recovery:shard:N`` for each shard N this process runs.
        Yields whether a game's guild id is one this process recovers now: on a shard it
        runs and whose lock it holds (another process holding it is recovering those
        games). The locks are held until the block ends."""
        owned = self.owned_shards()
        repo = self.service.repo
        async with contextlib.AsyncExitStack() as stack:
            if owned is None:
                held = await stack.enter_async_context(repo.leader_lock("recovery"))
                if not held:
                    log.info("Another process is recovering the games; skipped here")
                yield lambda _guild_id: held
                return
            count = self.shard_count or 1
            mine: set[int] = set()
            for shard in owned:
                if await stack.enter_async_context(repo.leader_lock(f"recovery:shard:{shard}")):
                    mine.add(shard)
                else:
                    log.info("Another process is recovering shard %s; skipped here", shard)
            yield lambda guild_id: shard_of(guild_id, count) in mine

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Sync the command tree (to the dev guild when configured, else globally) when it
        differs from the one last synced there: its hash (`command_tree_hash`) is kept in
        the database per scope (`Repository.save_command_tree_hash`), so a restart with
        the same commands sends nothing (Discord limits how often commands are
        overwritten). ``force_sync`` syncs anyway. Of several processes starting at once,
        the one holding the ``command-sync`` leader lock syncs; the others skip it.

        :returns: the commands Discord stored; empty when nothing was synced.
        """
        guild = None if self.dev_guild_id is None else discord.Object(self.dev_guild_id)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        tree_hash = command_tree_hash(
            [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        )
        scope = f"global:{self.application_id}"
        if guild is not None:
            scope = f"guild:{self.application_id}:{guild.id}"
        repo = self.service.repo
        async with repo.leader_lock("command-sync") as leader:
            if not leader:
                log.info("Another process is syncing the commands; not synced here")
                return []
            if not self.force_sync and await repo.command_tree_hash(scope) == tree_hash:
                log.info("Commands unchanged since the last sync to %s; not synced", scope)
                return []
            synced = await self.tree.sync(guild=guild)
            await repo.save_command_tree_hash(scope, tree_hash)
        log.info("Synced %d commands to %s", len(synced), scope)
        return synced

    async def close(self) -> None:
        """Stop the reminder loop, let actions in flight finish sending (up to 10 s),
        then disconnect."""
        self.reminders.stop()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), CLOSE_GRACE)
        await super().close()

    async def wait_idle(self) -> None:
        """Wait until no action is being handled (every Outbox has been delivered)."""
        await self._idle.wait()

    @contextlib.asynccontextmanager
    async def _working(self) -> AsyncIterator[None]:
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()

    # ----------------------------------------------------------------- actions
    async def actor_for(
        self, interaction: discord.Interaction, *, thread: GameThread | None = None
    ) -> Actor:
        """Who is acting: id, shown name, moderator rights in this guild (Manage Server or
        the guild's moderator role), Manage Server itself, DM or not, and in a guild the
        channel permissions the bot lacks there (`missing_permissions` of the
        interaction's ``app_permissions``; where the action opens a game's ``thread``,
        what it lacks to open it and play there: `GameThread.missing`)."""
        user = interaction.user
        in_dm = interaction.guild_id is None
        moderator = manages = False
        if isinstance(user, discord.Member) and not in_dm:
            moderator = manages = user.guild_permissions.manage_guild
            if not moderator:
                settings = await self.service.repo.guild_settings(user.guild.id)
                role_id = settings.moderator_role_id
                moderator = role_id is not None and any(r.id == role_id for r in user.roles)
        lacking: tuple[str, ...] = ()
        if thread is not None:
            lacking = thread.missing()
        elif not in_dm:
            in_thread = isinstance(interaction.channel, discord.Thread)
            lacking = missing_permissions(interaction.app_permissions, in_thread=in_thread)
        return Actor(
            user_id=user.id,
            display_name=user.display_name,
            is_moderator=moderator,
            in_dm=in_dm,
            manages_server=manages,
            bot_missing=lacking,
        )

    async def act(
        self,
        interaction: discord.Interaction,
        call: ServiceCall,
        *,
        ephemeral: bool = True,
        thread: GameThread | None = None,
    ) -> None:
        """Defer, call the service as the interaction's user, deliver the Outbox.
        ``thread``: the action may open a game's own thread there (`actor_for`).

        Never raises: a user error, a bug, or a failure while delivering (the action then
        stands: `DeliveryFailed`) is answered by `discord_errors.handle_error`. When Discord
        refuses the acknowledgement as too late (10062), the service is not called: the
        player was told the application did not respond and may send it again, which
        must not apply twice. That is logged as a WARNING, not as a bug.
        """
        async with self._working():
            try:
                started = time.perf_counter()
                try:
                    await defer(interaction, ephemeral=ephemeral)
                except discord.NotFound as error:
                    if not discord_errors.is_late_acknowledgement(error):
                        raise
                    discord_errors.log_late_acknowledgement(
                        interaction, "the action was not run (nothing changed)"
                    )
                    return
                acked = time.perf_counter()
                actor = await self.actor_for(interaction, thread=thread)
                outbox = await call(actor)
                try:
                    await self.deliverer.deliver(outbox, interaction)
                except discord.HTTPException as error:
                    raise DeliveryFailed("sending the result failed") from error
                self._record_timing(interaction, started, acked)
            except Exception as error:
                await discord_errors.handle_error(interaction, error)

    async def deliver_unprompted(self, outbox: Outbox) -> None:
        """Deliver an Outbox no interaction asked for (reminders, recovery)."""
        async with self._working():
            await self.deliverer.deliver(outbox)

    def _record_timing(
        self, interaction: discord.Interaction, started: float, acked: float
    ) -> None:
        done = time.perf_counter()
        what = discord_errors.describe_interaction(interaction)
        self.timings.append((what, acked - started, done - started))
        del self.timings[:-1000]
        log.debug(
            "%s: acked in %.1f ms, done in %.1f ms",
            what,
            1e3 * (acked - started),
            1e3 * (done - started),
        )

    async def run_command(
        self,
        interaction: discord.Interaction,
        path: tuple[str, ...],
        options: Mapping[str, Any],
        *,
        thread: GameThread | None = None,
    ) -> None:
        """Run the table command ``path`` with ``options`` (None values dropped).

        The "thinking…" placeholder has the visibility of the command's reply as the table
        says (`CommandSpec.ephemeral`), so the reply fills it and it is never deleted;
        public news of a private reply goes as channel posts. ``thread`` (/game new in a
        text channel or with a forum: `bot.discord_threads`): the service gets its
        ``open`` as ``place`` and the bot's permissions are checked there; once the game
        exists the thread is renamed with its number and the host added to it.
        """
        from bot.commands import spec_for

        ephemeral = spec_for(path).ephemeral
        values = {k: service_value(v) for k, v in options.items() if v is not None}
        if thread is not None:
            values["place"] = thread.open

        async def call(actor: Actor) -> Outbox:
            outbox = await self.service.run(
                actor,
                path,
                values,
                channel_id=interaction.channel_id or 0,
                guild_id=interaction.guild_id,
            )
            if thread is not None:
                await thread.number(self, actor.display_name)
                await thread.add_host(interaction.user)
            return outbox

        await self.act(interaction, call, ephemeral=ephemeral, thread=thread)

    async def handle_click(
        self, interaction: discord.Interaction, custom_id: str, values: tuple[str, ...]
    ) -> None:
        """A click on one of our components: the service decides (errors answered too)."""

        async def call(actor: Actor) -> Outbox:
            return await self.service.click(
                actor,
                custom_id,
                values,
                channel_id=interaction.channel_id or 0,
                guild_id=interaction.guild_id,
            )

        await self.act(interaction, call)

    async def suggest(
        self,
        interaction: discord.Interaction,
        path: tuple[str, ...],
        option: str,
        current: str,
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete ``option`` of ``path`` from the service (at most 25 choices).

        Never raises: a refusal or a bug gives no suggestions (the user may still type).
        """
        try:
            actor = await self.actor_for(interaction)
            data: dict[str, Any] = dict(interaction.data or {})
            typed = {
                o["name"]: o.get("value")
                for o in _flat_options(list(data.get("options", [])))
                if not o.get("focused")
            }
            found = await self.service.autocomplete(
                actor,
                path,
                option,
                current,
                typed,
                channel_id=interaction.channel_id or 0,
                guild_id=interaction.guild_id,
            )
        except Exception as error:
            if discord_errors.player_text(error) is None:
                discord_errors.log_unexpected(interaction, error, "autocomplete")
            return []
        # the last guard: whatever a game suggested, Discord gets only what it accepts
        where = f"/{' '.join(path)} {option}"
        return [app_commands.Choice(name=n, value=v) for n, v in fit_choices(found, where)]


def service_value(value: Any) -> Any:
    """An option value as the service takes it: a member becomes a `UserRef`, a role its
    id, a channel its id; text, numbers and booleans stay as they are."""
    from bot.command_table import UserRef

    if isinstance(value, discord.Member | discord.User):
        return UserRef(value.id, value.display_name)
    if isinstance(value, discord.Role):
        return value.id
    if isinstance(
        value, discord.abc.GuildChannel | discord.Thread | app_commands.AppCommandChannel
    ):
        return value.id
    return value


def command_tree_hash(payloads: list[dict[str, Any]]) -> str:
    """The sha256 (hex) of command ``payloads`` as synced (``Command.to_dict``), in name
    order with sorted keys: the same for the same commands whatever their order."""
    ordered = sorted(payloads, key=lambda p: (str(p.get("name")), int(p.get("type", 1))))
    text = json.dumps(ordered, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _flat_options(options: list[Any]) -> list[dict[str, Any]]:
    """The leaf options of an interaction's data (subcommand groups unwrapped)."""
    leaves: list[dict[str, Any]] = []
    for option in options:
        if option.get("type") in (1, 2):
            leaves += _flat_options(option.get("options", []))
        else:
            leaves.append(option)
    return leaves
