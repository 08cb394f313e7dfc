"""Pig's command table (the example game's): ``/pig roll`` and ``/pig hold``, one row
each, answering the ``turn`` decision. The Discord commands, console parsing and /help
come from these rows (`bot.cogs.common.table_cogs`); no cog is written for them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.adapters import PlayRequest
from bot.command_table import CommandSpec
from bot.play_commands import PlayCommand, PlayTable
from engine.core.model import Command


def _row(name: str, description: str) -> PlayCommand[str]:
    spec = CommandSpec(
        ("pig", name),
        description,
        kind="play",
        handler=name,
        ruleset="pig",
        ephemeral=True,
        phase=("turn",),
    )
    return PlayCommand(spec, name)


def _read(request: PlayRequest, kind: str, raw: Any, option: str) -> Any:
    """An option's text as it is (no Pig command has options)."""
    return raw


TABLE: PlayTable[str] = PlayTable(
    (
        _row("roll", "Roll the die (a 1 loses this turn's points)"),
        _row("hold", "Bank this turn's points and pass the die"),
    ),
    _read,
)
SPECS: tuple[CommandSpec, ...] = TABLE.specs
GROUP_DESCRIPTIONS: dict[tuple[str, ...], str] = {("pig",): "Play Pig: roll or hold"}


def build_command(
    path: tuple[str, ...], request: PlayRequest, options: Mapping[str, Any]
) -> dict[str, Any]:
    """`PlayTable.build_command`."""
    return TABLE.build_command(path, request, options)


def suggest(
    path: tuple[str, ...],
    request: PlayRequest,
    option: str,
    current: str,
    given: Mapping[str, Any],
) -> list[tuple[str, str]]:
    """No option to suggest."""
    return []


def slash_for(command: Command) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The slash path and options that build ``command`` (``/pig roll``, ``/pig hold``)."""
    return TABLE.slash_for(command, lambda cmd, option, kind, value: value)
