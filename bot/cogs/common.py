"""The Discord commands, generated from the command table (`bot.command_table.CommandSpec`).

Each table row is declared once; `table_command` turns it into an `app_commands.Command`:
a callback whose ``__signature__`` declares the row's options with the annotations
discord.py reads the Discord types and bounds from (`annotation`: ``str``,
``Range[int, lo, hi]``, ``bool``, ``discord.Member``, ``discord.Role``, ``Optional`` for
optional ones), then the row's descriptions, renames (``with``), fixed choices and
autocomplete sources attached by discord.py's own decorators (`command`). `table_cogs`
puts the commands in cogs: one per top-level command, subcommand groups inside. The
console parses the same rows (`bot.command_table.parse_console_line`), so Discord and the
console never describe a command differently; `tests/bot/test_command_payloads.py`
compares the synced payloads with a stored snapshot.
"""

from __future__ import annotations

import inspect
import re
import types
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_table import CommandSpec, OptionSpec

if TYPE_CHECKING:
    from bot.discord_bot import HeroesBot

Path = tuple[str, ...]

AutocompleteCallback = Callable[
    [discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[Any]]]
]


def python_name(option: str) -> str:
    """The callback parameter name for a table option name (``-`` becomes ``_``; a keyword
    such as ``with`` gets a trailing ``_``)."""
    name = option.replace("-", "_")
    return f"{name}_" if name in ("with", "in", "from", "as", "is", "for") else name


def suggest(path: Path, option: str, *, integer: bool = False) -> AutocompleteCallback:
    """The autocomplete callback of ``option``: asks the service through the bot (values
    that are not whole numbers are dropped for an ``integer`` option)."""

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


def command(spec: CommandSpec) -> Callable[[Any], app_commands.Command[Any, Any, Any]]:
    """`app_commands.command` for ``spec``'s callback, with discord.py's `describe`,
    `rename`, `choices` and `autocomplete` applied from the row: each option's
    description, its Discord name where it is no Python name (``with``), its fixed
    choices (values sent as text) and, for options Discord asks suggestions for
    (``autocomplete``, or choices offered by autocomplete: `OptionSpec.suggested`),
    `suggest`."""
    options = spec.options

    def decorate(callback: Any) -> app_commands.Command[Any, Any, Any]:
        wrapped = callback
        suggestions = {
            python_name(o.name): suggest(spec.path, o.name, integer=o.type == "integer")
            for o in options
            if o.suggested
        }
        if suggestions:
            wrapped = app_commands.autocomplete(**suggestions)(wrapped)
        fixed = {
            python_name(o.name): [
                app_commands.Choice(name=c.name, value=str(c.value)) for c in o.sent_choices
            ]
            for o in options
            if o.sent_choices
        }
        if fixed:
            wrapped = app_commands.choices(**fixed)(wrapped)
        names = {python_name(o.name): o.name for o in options if python_name(o.name) != o.name}
        if names:
            wrapped = app_commands.rename(**names)(wrapped)
        if options:
            described = {python_name(o.name): o.description for o in options}
            wrapped = app_commands.describe(**described)(wrapped)
        return app_commands.command(name=spec.path[-1], description=spec.description)(wrapped)

    return decorate


def annotation(option: OptionSpec) -> Any:
    """The callback annotation discord.py reads ``option``'s Discord type and bounds from:
    ``str`` / ``Range[str, None, max_length]``, ``int`` / ``Range[int, lo, hi]``,
    ``bool``, ``discord.Member``, ``discord.Role``, ``discord.ForumChannel`` (a channel
    option offering forums only); ``Optional[...]`` when not required."""
    base: Any
    if option.type == "integer":
        bounded = option.min_value is not None or option.max_value is not None
        base = app_commands.Range[int, option.min_value, option.max_value] if bounded else int
    elif option.type == "boolean":
        base = bool
    elif option.type == "user":
        base = discord.Member
    elif option.type == "role":
        base = discord.Role
    elif option.type == "forum":
        base = discord.ForumChannel
    elif option.max_length is not None:
        base = app_commands.Range[str, None, option.max_length]
    else:
        base = str
    return base if option.required else Optional[base]  # noqa: UP045 (a runtime object)


def signature(spec: CommandSpec) -> inspect.Signature:
    """``(self, interaction, <option>: <annotation> [= None]...)``: the callback signature
    discord.py builds ``spec``'s options from (`python_name` for each option name)."""
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [
        inspect.Parameter("self", positional),
        inspect.Parameter("interaction", positional, annotation=discord.Interaction),
    ]
    for option in spec.options:
        default = inspect.Parameter.empty if option.required else None
        parameters.append(
            inspect.Parameter(
                python_name(option.name), positional, default=default, annotation=annotation(option)
            )
        )
    return inspect.Signature(parameters)


Run = Callable[[discord.Interaction, Path, dict[str, Any]], Awaitable[None]]
"""What a generated command does when invoked: ``run(interaction, path, options)`` with
the options under their table names (None for those left out)."""


async def forward(interaction: discord.Interaction, path: Path, options: dict[str, Any]) -> None:
    """The usual `Run`: the options, unread, to `HeroesBot.run_command` (``GameService.run``)."""
    await heroes_bot(interaction).run_command(interaction, path, options)


def table_command(spec: CommandSpec, run: Run = forward) -> app_commands.Command[Any, Any, Any]:
    """The slash command of ``spec``, generated from the table row: a callback whose
    signature declares the row's options (`signature`), with the row's texts, choices,
    renames and autocomplete attached (`command`). Invoked, it calls ``run`` with the
    options under their table names (by default `forward`)."""
    path = spec.path
    names = {python_name(o.name): o.name for o in spec.options}

    async def callback(cog: Any, interaction: discord.Interaction, **values: Any) -> None:
        await run(interaction, path, {names[key]: value for key, value in values.items()})

    # A method of the cog to discord.py: bound to it, the first parameter is the cog.
    callback.__name__ = "_".join(path).replace("-", "_")
    callback.__qualname__ = f"TableCog.{callback.__name__}"
    callback.__doc__ = spec.description
    setattr(callback, "__signature__", signature(spec))  # noqa: B010 (read by inspect)
    made = command(spec)(callback)
    if len(path) == 1:
        _restrict(made, [spec])
    return made


def table_cogs(
    specs: Iterable[CommandSpec],
    groups: Mapping[Path, str],
    *,
    runs: Mapping[Path, Run] | None = None,
) -> tuple[type[commands.Cog], ...]:
    """The cog classes that hold a generated `table_command` for every row of ``specs``,
    in the order the top-level names first appear: a `commands.Cog` per one-name command
    (``/hand``) and a `commands.GroupCog` per top-level name of longer paths, with a
    subcommand group for three-name paths. ``groups`` describes each top-level group
    (``("army",)``) and subcommand group (``("game", "battle")``); ``runs`` gives the
    commands that do more than `forward` (``/deck import`` may open a form).

    A command or top-level group is guild-installed and guild-only unless every row under
    it is ``in_dm`` (then user-installable too, and usable in any DM: `_restrict`),
    and shown only to members who may manage the server when every row is ``moderator``
    (Discord hides whole top-level commands only).

    :raises KeyError: for a top-level name or subcommand group ``groups`` does not
        describe.
    :raises ValueError: for a top-level group mixing moderator and player commands.
    """
    runs = runs or {}
    tops: dict[str, dict[str, Any]] = {}
    rows: dict[str, list[CommandSpec]] = {}
    for row in specs:
        members = tops.setdefault(row.path[0], {})
        rows.setdefault(row.path[0], []).append(row)
        made = table_command(row, runs.get(row.path, forward))
        if len(row.path) <= 2:
            members[_attribute(row.path)] = made
            continue
        sub = members.get(_attribute(row.path[:2]))
        if sub is None:
            sub = app_commands.Group(name=row.path[1], description=groups[row.path[:2]])
            members[_attribute(row.path[:2])] = sub
        sub.add_command(made)
    cogs: list[type[commands.Cog]] = []
    for top, members in tops.items():
        name = "".join(part.capitalize() for part in re.split(r"[-_]", top)) + "Commands"
        if [row.path for row in rows[top]] == [(top,)]:
            single = types.new_class(name, (TableCog, commands.Cog), {}, _filler(members))
            single.__doc__ = f"/{top}: {rows[top][0].description}."
            single.__module__ = __name__
            cogs.append(single)
            continue
        description = groups[(top,)]
        cls = types.new_class(
            name,
            (TableCog, commands.GroupCog),
            {"group_name": top, "group_description": description},
            _filler(members),
        )
        cls.__doc__ = f"/{top} ...: {description}."
        cls.__module__ = __name__
        cogs.append(_restrict(cls, rows[top]))
    return tuple(cogs)


_Restricted = TypeVar("_Restricted")


def _restrict(target: _Restricted, rows: Sequence[CommandSpec]) -> _Restricted:
    """``target`` (a top-level command or group cog) made guild-installed and guild-only
    unless every row is ``in_dm`` — then it is installable to a user as well as to a
    server and usable in servers, the bot's DMs and private channels (Discord sets
    ``integration_types`` and ``contexts`` per top-level command) — and for server
    managers only when every row is ``moderator``.

    :raises ValueError: when only some rows are ``moderator``.
    """
    if all(row.in_dm for row in rows):
        # personal commands (they answer only the asker): also installed to a user, and
        # usable in any server, the bot's DMs and other DMs and group DMs
        target = app_commands.allowed_installs(guilds=True, users=True)(target)
        target = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(target)
    else:
        # game commands post to the channel: only where the bot is installed in the server
        target = app_commands.allowed_installs(guilds=True, users=False)(target)
        target = app_commands.guild_only()(target)
    moderators = [row.moderator for row in rows]
    if any(moderators) and not all(moderators):
        raise ValueError(f"/{rows[0].path[0]} mixes moderator and player commands")
    if all(moderators):
        target = app_commands.default_permissions(manage_guild=True)(target)
    return target


def _attribute(names: Path) -> str:
    """The cog attribute of a command or group (prefixed: never a `commands.Cog` name)."""
    return "slash_" + "_".join(names).replace("-", "_")


def _filler(members: Mapping[str, Any]) -> Callable[[dict[str, Any]], None]:
    """The ``exec_body`` of `types.new_class` that puts ``members`` in the class body."""

    def fill(namespace: dict[str, Any]) -> None:
        namespace.update(members)

    return fill


class TableCog:
    """What a generated cog (`table_cogs`) shares: it keeps the bot. Mixed in before
    `commands.Cog` / `commands.GroupCog`."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot


def heroes_bot(interaction: discord.Interaction) -> HeroesBot:
    """The bot an interaction reached (always a `HeroesBot` here)."""
    from bot.discord_bot import HeroesBot

    client = interaction.client
    assert isinstance(client, HeroesBot)
    return client
