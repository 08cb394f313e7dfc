"""The bot's slash commands, generated from the command table, one cog per top-level command.

Each row of `bot.commands.all_specs` becomes one slash command (`common.table_cogs`):
its options, texts, bounds, choices, autocomplete, DM availability and moderator-only
flag are the row's, and invoking it forwards the options, unread, to ``GameService.run``
through `HeroesBot.run_command`; no game rule is decided here. ``/deck import`` may open
a form instead (`decks.import_deck`, answered by `decks.DeckForms`); ``/game new`` may open
the game's own thread or forum post (`bot.discord_threads.new_game`). `all_cogs` lists the
cogs for `HeroesBot.setup_hook`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.discord_bot import HeroesBot


def cog_classes() -> tuple[Callable[[HeroesBot], commands.Cog], ...]:
    """Every cog class: the generated ones (`common.table_cogs` over `all_specs`, in table
    order), then `decks.DeckForms`. Made once per process and set of games
    (`bot.registry`)."""
    from bot import registry

    return _cog_classes(registry.load())


@cache
def _cog_classes(games: tuple[Any, ...]) -> tuple[Callable[[HeroesBot], commands.Cog], ...]:
    from bot import discord_threads
    from bot.cogs import common, decks
    from bot.commands import all_specs, group_descriptions

    runs: dict[common.Path, common.Run] = {
        decks.DECK_IMPORT: decks.import_deck,
        discord_threads.GAME_NEW: discord_threads.new_game,
    }
    return (*common.table_cogs(all_specs(), group_descriptions(), runs=runs), decks.DeckForms)


def all_cogs(bot: HeroesBot) -> list[commands.Cog]:
    """One instance of every cog, bound to ``bot``."""
    return [cls(bot) for cls in cog_classes()]
