"""/game: open, join, leave, configure, start and follow the game in this channel.

Every callback forwards its options unread to ``GameService.run``; texts and choices come
from the command table (`bot.commands`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import common

if TYPE_CHECKING:
    from bot.discord_bot import HeroesBot

GAME_NEW = ("game", "new")
GAME_JOIN = ("game", "join")
GAME_LEAVE = ("game", "leave")
GAME_DECK = ("game", "deck")
GAME_ADD_AI = ("game", "add-ai")
GAME_OPTIONS = ("game", "options")
GAME_START = ("game", "start")
GAME_STATUS = ("game", "status")
GAME_LOG = ("game", "log")
GAME_RULES = ("game", "rules")


@app_commands.guild_only()
class GameCommands(
    commands.GroupCog,
    group_name="game",
    group_description="Open, join, start and follow the game in this channel",
):
    """/game ...: Open, join, start and follow the game in this channel."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(GAME_NEW)
    async def new(
        self,
        interaction: discord.Interaction,
        ruleset: str | None = None,
        players: app_commands.Range[int, 2, 6] | None = None,
        map_sections: app_commands.Range[int, 4, 12] | None = None,
        assembly: str | None = None,
        deadline_hours: app_commands.Range[int, 0, 720] | None = None,
        deck_rule: str | None = None,
        deck: str | None = None,
        options: app_commands.Range[str, None, 400] | None = None,
        layout: str | None = None,
        board: app_commands.Range[str, None, 2000] | None = None,
        list1: app_commands.Range[str, None, 4000] | None = None,
        list5: app_commands.Range[str, None, 4000] | None = None,
        mode: str | None = None,
        size: str | None = None,
        heroes: app_commands.Range[str, None, 100] | None = None,
        siege: bool | None = None,
        length: str | None = None,
        factions: app_commands.Range[str, None, 100] | None = None,
    ) -> None:
        """Open a new game in this channel (you host it and take the first seat)."""
        await self.bot.run_command(
            interaction,
            GAME_NEW,
            {
                "ruleset": ruleset,
                "players": players,
                "map-sections": map_sections,
                "assembly": assembly,
                "deadline-hours": deadline_hours,
                "deck-rule": deck_rule,
                "deck": deck,
                "options": options,
                "layout": layout,
                "board": board,
                "list1": list1,
                "list5": list5,
                "mode": mode,
                "size": size,
                "heroes": heroes,
                "siege": siege,
                "length": length,
                "factions": factions,
            },
        )

    @common.command(GAME_JOIN)
    async def join(
        self,
        interaction: discord.Interaction,
        deck: str | None = None,
    ) -> None:
        """Take a seat in this channel's lobby."""
        await self.bot.run_command(interaction, GAME_JOIN, {"deck": deck})

    @common.command(GAME_LEAVE)
    async def leave(
        self,
        interaction: discord.Interaction,
    ) -> None:
        """Give up your seat in the lobby."""
        await self.bot.run_command(interaction, GAME_LEAVE, {})

    @common.command(GAME_DECK)
    async def deck(
        self,
        interaction: discord.Interaction,
        deck: str | None = None,
    ) -> None:
        """Choose your deck in the lobby (none: dealt at the start)."""
        await self.bot.run_command(interaction, GAME_DECK, {"deck": deck})

    @common.command(GAME_ADD_AI)
    async def add_ai(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 5] | None = None,
        deck: str | None = None,
    ) -> None:
        """Host: add computer players to the lobby."""
        await self.bot.run_command(interaction, GAME_ADD_AI, {"count": count, "deck": deck})

    @common.command(GAME_OPTIONS)
    async def options(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 6] | None = None,
        map_sections: app_commands.Range[int, 4, 12] | None = None,
        assembly: str | None = None,
        deadline_hours: app_commands.Range[int, 0, 720] | None = None,
        deck_rule: str | None = None,
        options: app_commands.Range[str, None, 400] | None = None,
        layout: str | None = None,
        board: app_commands.Range[str, None, 2000] | None = None,
        list1: app_commands.Range[str, None, 4000] | None = None,
        list5: app_commands.Range[str, None, 4000] | None = None,
        mode: str | None = None,
        size: str | None = None,
        heroes: app_commands.Range[str, None, 100] | None = None,
        siege: bool | None = None,
        length: str | None = None,
        factions: app_commands.Range[str, None, 100] | None = None,
    ) -> None:
        """Host: change the lobby's options before the start."""
        await self.bot.run_command(
            interaction,
            GAME_OPTIONS,
            {
                "players": players,
                "map-sections": map_sections,
                "assembly": assembly,
                "deadline-hours": deadline_hours,
                "deck-rule": deck_rule,
                "options": options,
                "layout": layout,
                "board": board,
                "list1": list1,
                "list5": list5,
                "mode": mode,
                "size": size,
                "heroes": heroes,
                "siege": siege,
                "length": length,
                "factions": factions,
            },
        )

    @common.command(GAME_START)
    async def start(
        self,
        interaction: discord.Interaction,
    ) -> None:
        """Host: start the game (hands come by DM)."""
        await self.bot.run_command(interaction, GAME_START, {})

    @common.command(GAME_STATUS)
    async def status(
        self,
        interaction: discord.Interaction,
    ) -> None:
        """The board, whose turn it is, who owes which decision, deadlines."""
        await self.bot.run_command(interaction, GAME_STATUS, {})

    @common.command(GAME_LOG)
    async def log(
        self,
        interaction: discord.Interaction,
        before: app_commands.Range[int, 1, 1000000000] | None = None,
    ) -> None:
        """The game's public log, page by page."""
        await self.bot.run_command(interaction, GAME_LOG, {"before": before})

    @common.command(GAME_RULES)
    async def rules(
        self,
        interaction: discord.Interaction,
        topic: app_commands.Range[str, None, 100] | None = None,
    ) -> None:
        """Look up a rule of this channel's game (a summary in our own words)."""
        await self.bot.run_command(interaction, GAME_RULES, {"topic": topic})
