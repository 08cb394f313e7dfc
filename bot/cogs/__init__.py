"""The bot's slash commands, one cog per top-level command group.

Cogs only receive Discord interactions and forward them to the `GameService` through
`HeroesBot.run_command`; no game rule is decided here. `all_cogs` lists them for
`HeroesBot.setup_hook`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.discord_bot import HeroesBot


def all_cogs(bot: HeroesBot) -> list[commands.Cog]:
    """One instance of every cog, bound to ``bot``."""
    from bot.cogs import decks, game, moderation, play, player

    classes: list[Callable[[HeroesBot], commands.Cog]] = [
        game.GameCommands,
        decks.DeckCommands,
        player.PlayerCommands,
        moderation.ModCommands,
        moderation.SettingsCommands,
        *play.PLAY_COGS,
    ]
    return [cls(bot) for cls in classes]
