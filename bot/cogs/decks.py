"""/deck: a player's saved decks (import, show, list, delete); works in DMs too.

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

DECK_IMPORT = ("deck", "import")
DECK_SHOW = ("deck", "show")
DECK_LIST = ("deck", "list")
DECK_DELETE = ("deck", "delete")


class DeckCommands(
    commands.GroupCog,
    group_name="deck",
    group_description="Your saved decks: import, show, list, delete",
):
    """/deck ...: Your saved decks: import, show, list, delete."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(DECK_IMPORT)
    async def import_(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, None, 60],
        text: app_commands.Range[str, None, 6000],
    ) -> None:
        """Save a deck from a pasted card list, e.g. 3x Orc; 2x Wolf; Asylum."""
        await self.bot.run_command(interaction, DECK_IMPORT, {"name": name, "text": text})

    @common.command(DECK_SHOW)
    async def show(
        self,
        interaction: discord.Interaction,
        name: str,
    ) -> None:
        """Show one of your saved decks as a list."""
        await self.bot.run_command(interaction, DECK_SHOW, {"name": name})

    @common.command(DECK_LIST)
    async def list_(
        self,
        interaction: discord.Interaction,
    ) -> None:
        """List your saved decks and the ready-made ones."""
        await self.bot.run_command(interaction, DECK_LIST, {})

    @common.command(DECK_DELETE)
    async def delete(
        self,
        interaction: discord.Interaction,
        name: str,
    ) -> None:
        """Delete one of your saved decks."""
        await self.bot.run_command(interaction, DECK_DELETE, {"name": name})
