"""/mod (pause, resume, skip, undo, replace, kick, end, deadline, verify) and /settings
(the server's moderator role, default deadline and reminders): the moderators' commands.

Both are hidden from members without Manage Server by
``default_permissions(manage_guild=True)`` on the TOP-LEVEL command: Discord supports
default permissions only there (discord.py silently drops them on subcommands). A server
admin can open them to the moderator role in Server Settings → Integrations. Every use is
checked again: the bot marks the `Actor` as moderator only with Manage Server or the
guild's configured moderator role, and the service refuses anyone else (and lets only
Manage Server change the moderator role itself).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import common

if TYPE_CHECKING:
    from bot.discord_bot import HeroesBot

MOD_PAUSE = ("mod", "pause")
MOD_RESUME = ("mod", "resume")
MOD_SKIP = ("mod", "skip")
MOD_UNDO = ("mod", "undo")
MOD_REPLACE = ("mod", "replace")
MOD_KICK = ("mod", "kick")
MOD_END = ("mod", "end")
MOD_DEADLINE = ("mod", "deadline")
MOD_VERIFY = ("mod", "verify")
SETTINGS = ("settings",)


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class ModCommands(
    commands.GroupCog,
    group_name="mod",
    group_description="Moderators: pause, undo, skip, replace players, deadlines, verify",
):
    """/mod ...: Moderators: pause, undo, skip, replace players, deadlines, verify."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(MOD_PAUSE)
    async def pause(
        self,
        interaction: discord.Interaction,
        reason: app_commands.Range[str, None, 300] | None = None,
    ) -> None:
        """Pause this channel's game."""
        await self.bot.run_command(interaction, MOD_PAUSE, {"reason": reason})

    @common.command(MOD_RESUME)
    async def resume(
        self,
        interaction: discord.Interaction,
        reason: app_commands.Range[str, None, 300] | None = None,
    ) -> None:
        """Resume this channel's paused game."""
        await self.bot.run_command(interaction, MOD_RESUME, {"reason": reason})

    @common.command(MOD_SKIP)
    async def skip(
        self,
        interaction: discord.Interaction,
        seat: str | None = None,
        reason: app_commands.Range[str, None, 300] | None = None,
    ) -> None:
        """Play the default answer for an overdue decision."""
        await self.bot.run_command(interaction, MOD_SKIP, {"seat": seat, "reason": reason})

    @common.command(MOD_UNDO)
    async def undo(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 50] | None = None,
        reason: app_commands.Range[str, None, 300] | None = None,
    ) -> None:
        """Undo the last move, or the last count: moves (each undo is logged)."""
        await self.bot.run_command(interaction, MOD_UNDO, {"count": count, "reason": reason})

    @common.command(MOD_REPLACE)
    async def replace(
        self,
        interaction: discord.Interaction,
        seat: str,
        user: discord.Member,
        reason: app_commands.Range[str, None, 300] | None = None,
    ) -> None:
        """Give a seat to another member."""
        await self.bot.run_command(
            interaction,
            MOD_REPLACE,
            {"seat": seat, "user": user, "reason": reason},
        )

    @common.command(MOD_KICK)
    async def kick(
        self,
        interaction: discord.Interaction,
        seat: str,
        reason: app_commands.Range[str, None, 300] | None = None,
    ) -> None:
        """Remove a player; the computer plays the seat from now on."""
        await self.bot.run_command(interaction, MOD_KICK, {"seat": seat, "reason": reason})

    @common.command(MOD_END)
    async def end(
        self,
        interaction: discord.Interaction,
        reason: app_commands.Range[str, None, 300] | None = None,
    ) -> None:
        """End this channel's game without a winner."""
        await self.bot.run_command(interaction, MOD_END, {"reason": reason})

    @common.command(MOD_DEADLINE)
    async def deadline(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[int, 1, 720],
        seat: str | None = None,
        reason: app_commands.Range[str, None, 300] | None = None,
    ) -> None:
        """Set a seat's decision deadline, in hours from now."""
        await self.bot.run_command(
            interaction,
            MOD_DEADLINE,
            {"hours": hours, "seat": seat, "reason": reason},
        )

    @common.command(MOD_VERIFY)
    async def verify(
        self,
        interaction: discord.Interaction,
        reason: app_commands.Range[str, None, 300] | None = None,
    ) -> None:
        """Replay the game from its log and compare with the stored position."""
        await self.bot.run_command(interaction, MOD_VERIFY, {"reason": reason})


class SettingsCommands(commands.Cog):
    """/settings: the server's moderator role, default decision deadline and reminders."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @common.command(SETTINGS)
    async def settings(
        self,
        interaction: discord.Interaction,
        role: discord.Role | None = None,
        deadline_hours: app_commands.Range[int, 0, 720] | None = None,
        reminder_hours: app_commands.Range[int, 0, 720] | None = None,
        clear_role: bool | None = None,
        reason: app_commands.Range[str, None, 300] | None = None,
    ) -> None:
        """Moderators: show or change this server's moderator role, deadline and reminders."""
        await self.bot.run_command(
            interaction,
            SETTINGS,
            {
                "role": role,
                "deadline-hours": deadline_hours,
                "reminder-hours": reminder_hours,
                "clear-role": clear_role,
                "reason": reason,
            },
        )
