"""/hand, /card and /help: private and reference commands, in the channel or in DMs.

Every callback forwards its options unread to ``GameService.run``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import common

if TYPE_CHECKING:
    from bot.discord_bot import HeroesBot

HAND = ("hand",)
CARD = ("card",)
HELP = ("help",)


class PlayerCommands(commands.Cog):
    """/hand, /card and /help: private and reference commands (DMs too)."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(HAND)
    async def hand(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1] | None = None,
    ) -> None:
        """Your private cards and the choices you owe; only you see them (in DMs too)."""
        await self.bot.run_command(interaction, HAND, {"game": game})

    @common.command(CARD)
    async def card(
        self,
        interaction: discord.Interaction,
        name: str,
    ) -> None:
        """Show a card of this channel's game (elsewhere: of the Heroes IV card game)."""
        await self.bot.run_command(interaction, CARD, {"name": name})

    @common.command(HELP)
    async def help_(
        self,
        interaction: discord.Interaction,
    ) -> None:
        """What you can type now."""
        await self.bot.run_command(interaction, HELP, {})
