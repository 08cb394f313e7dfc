"""What every cog shares: the command table lookups and the autocomplete callbacks.

The cogs declare each slash command explicitly (name, typed parameters, defaults); the
texts — descriptions, option descriptions, fixed choices — come from the service's
command table (`bot.command_table.CommandSpec`), the one source the local console reads
too, so Discord and the console never describe a command differently.
`tests/bot/test_command_payloads.py` checks that the synced commands and the table agree.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.command_table import CommandSpec

if TYPE_CHECKING:
    from bot.discord_bot import HeroesBot

Path = tuple[str, ...]

AutocompleteCallback = Callable[
    [discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[Any]]]
]


@cache
def table() -> dict[Path, CommandSpec]:
    """Every command the table defines, by path (service commands and every ruleset's)."""
    from bot.commands import ALL_SPECS

    return {spec.path: spec for spec in ALL_SPECS}


def spec(path: Path) -> CommandSpec:
    """The table entry of ``path``.

    :raises KeyError: if the table has no such command (a cog out of date).
    """
    return table()[path]


def text(path: Path) -> str:
    """The description of the command at ``path``."""
    return spec(path).description


def option_texts(path: Path) -> dict[str, str]:
    """``{option name: description}`` for `app_commands.describe` (Python names:
    ``-`` becomes ``_``; a keyword such as ``with`` gets a trailing ``_``)."""
    return {python_name(o.name): o.description for o in spec(path).options}


def python_name(option: str) -> str:
    """The callback parameter name for a table option name."""
    name = option.replace("-", "_")
    return f"{name}_" if name in ("with", "in", "from", "as", "is", "for") else name


def renames(path: Path) -> dict[str, str]:
    """``{parameter: option}`` for options whose Discord name is not a Python name."""
    return {
        python_name(o.name): o.name for o in spec(path).options if python_name(o.name) != o.name
    }


def choices(path: Path, option: str) -> list[app_commands.Choice[str]]:
    """The fixed choices of ``option`` (for `app_commands.choices`)."""
    found = spec(path).option(option)
    if found is None:
        raise KeyError(f"/{' '.join(path)} has no option {option!r}")
    return [app_commands.Choice(name=c.name, value=str(c.value)) for c in found.choices]


def all_choices(path: Path) -> dict[str, list[app_commands.Choice[str]]]:
    """Fixed choices for every option of ``path`` that has them."""
    return {python_name(o.name): choices(path, o.name) for o in spec(path).options if o.choices}


def suggest(path: Path, option: str, *, integer: bool = False) -> AutocompleteCallback:
    """The autocomplete callback of ``option``: asks the service through the bot."""

    async def callback(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[Any]]:
        found = await heroes_bot(interaction).suggest(interaction, path, option, str(current))
        if not integer:
            return list(found)
        numbers: list[app_commands.Choice[Any]] = []
        for choice in found:
            try:
                numbers.append(app_commands.Choice(name=choice.name, value=int(choice.value)))
            except ValueError:
                continue
        return numbers

    callback.__name__ = f"suggest_{'_'.join(path)}_{option}".replace("-", "_")
    return callback


def all_suggestions(path: Path) -> dict[str, AutocompleteCallback]:
    """Autocomplete callbacks for every option of ``path`` the table marks ``autocomplete``."""
    return {
        python_name(o.name): suggest(path, o.name, integer=o.type == "integer")
        for o in spec(path).options
        if o.autocomplete
    }


def command(path: Path) -> Callable[[Any], app_commands.Command[Any, Any, Any]]:
    """`app_commands.command` + describe + rename + choices + autocomplete for ``path``.

    The callback's parameters are declared explicitly in the cog; this only attaches the
    table's texts, choices and autocomplete sources to them.
    """

    def decorate(callback: Any) -> app_commands.Command[Any, Any, Any]:
        wrapped = callback
        suggestions = all_suggestions(path)
        if suggestions:
            wrapped = app_commands.autocomplete(**suggestions)(wrapped)
        fixed = all_choices(path)
        if fixed:
            wrapped = app_commands.choices(**fixed)(wrapped)
        names = renames(path)
        if names:
            wrapped = app_commands.rename(**names)(wrapped)
        described = option_texts(path)
        if described:
            wrapped = app_commands.describe(**described)(wrapped)
        return app_commands.command(name=path[-1], description=text(path))(wrapped)

    return decorate


def group(name: str, groups: Mapping[str, str]) -> app_commands.Group:
    """The subcommand group ``name`` of a ruleset's top-level command, described by
    ``groups[name]`` (the ruleset's ``GROUPS``, e.g. `bot.homm3.commands.GROUPS`)."""
    return app_commands.Group(name=name, description=groups[name])


def subcommand(group: app_commands.Group, path: Path) -> Callable[[Any], Any]:
    """`command` for a subcommand of ``group`` (texts, choices, autocomplete from the
    table), added to the group."""

    def decorate(callback: Any) -> Any:
        made = command(path)(callback)
        group.add_command(made)
        return made

    return decorate


class PlayCog:
    """What a ruleset's play cog (``/homm3``, ``/mmh``, ``/heroforge``) shares: it keeps
    the bot and forwards a command's options, unread, to `HeroesBot.run_command`. Mixed
    in before `commands.GroupCog`."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    async def _run(self, interaction: discord.Interaction, path: Path, **options: Any) -> None:
        await self.bot.run_command(interaction, path, options)


def heroes_bot(interaction: discord.Interaction) -> HeroesBot:
    """The bot an interaction reached (always a `HeroesBot` here)."""
    from bot.discord_bot import HeroesBot

    client = interaction.client
    assert isinstance(client, HeroesBot)
    return client
