"""What the games' play-command tables share: the table entry
(`PlayCommand`), the option helpers, and the `PlayTable` that indexes a ruleset's entries,
refuses a command that does not answer the decision owed (`PlayTable.require_phase`),
turns a slash command's options into an engine command dict (`PlayTable.build_command`)
and goes back from an engine command to its slash command (`PlayTable.slash_for`).

Each ruleset keeps what is its own: its entries (``PLAY``, data), how an option's text
is read (a ``read`` function per field kind), the autocomplete labels, and how a value is
written back as option text. A table with fixed fields, default flags and advanced-rule
commands of its own (the flagship's) need not use `PlayTable`; it may share `filter_pairs`,
`orders_spec`, `wrong_stage` and `read_seat` (which /mod uses too).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bot.adapters import PlayRequest, fit_choices
from bot.command_table import Choice, CommandSpec, OptionSpec
from bot.errors import BadOption, WrongStage
from engine.core.model import Command, seat_name

K = TypeVar("K", bound=str)
"""A ruleset's field kinds (a ``Literal`` of words such as ``"card"`` or ``"hex"``)."""

Fill = Callable[[PlayRequest, dict[str, Any]], None]
"""Fills engine fields the player may leave out, from the request (changes the dict)."""

Reader = Callable[[PlayRequest, K, Any, str], Any]
"""``read(request, kind, raw, option)``: an option's raw value as the engine field's value.
:raises BadOption: for text that cannot be read (the message says how to write it)."""

Writer = Callable[[Command, str, K, Any], Any]
"""``write(command, option, kind, value)``: an engine field's value as the option's text."""

OrderKinds = Mapping[str, tuple[str, tuple[tuple[str, str], ...]]]
"""Standing orders: kind -> (title, (choice label, value)...)."""


@dataclass(frozen=True)
class PlayCommand(Generic[K]):
    """One play command of a ruleset's table.

    Attributes:
        spec: its table entry (path, description, options, phases).
        command_type: the engine command type it builds.
        fields: option name -> (engine field, how its text is read).
        fill: fills engine fields the player may leave out, or None.
    """

    spec: CommandSpec
    command_type: str
    fields: Mapping[str, tuple[str, K]] = field(default_factory=dict)
    fill: Fill | None = None


# ------------------------------------------------------------------ option helpers
def play_spec(
    ruleset: str,
    group: str,
    name: str,
    description: str,
    options: Sequence[OptionSpec],
    phase: Sequence[str],
) -> CommandSpec:
    """The table entry of ``/<ruleset> <group> <name>``: a play command (handler ``name``,
    answered privately) offered in the decision kinds ``phase``."""
    return CommandSpec(
        path=(ruleset, group, name),
        description=description,
        options=tuple(options),
        kind="play",
        handler=name,
        ruleset=ruleset,
        ephemeral=True,
        phase=tuple(phase),
    )


def auto_option(name: str, description: str, *, required: bool = False) -> OptionSpec:
    """A string option whose values autocomplete from the legal commands."""
    return OptionSpec(name, description, "string", required=required, autocomplete=True)


def int_option(
    name: str, description: str, lo: int, hi: int, *, required: bool = False, auto: bool = False
) -> OptionSpec:
    """A whole-number option from ``lo`` to ``hi`` (autocompleted when ``auto``)."""
    return OptionSpec(
        name,
        description,
        "integer",
        required=required,
        min_value=lo,
        max_value=hi,
        autocomplete=auto,
    )


def orders_spec(
    path: tuple[str, ...],
    description: str,
    kinds: OrderKinds,
    ruleset: str,
    *,
    option_text: str = "{title}: what to do without asking",
) -> CommandSpec:
    """The ``orders`` service command: one fixed-choice option per standing order kind,
    described by ``option_text`` (``{title}`` is the kind's title); the choices are
    offered by autocomplete (`OptionSpec.suggest_choices`), outside Discord's budget."""
    return CommandSpec(
        path=path,
        description=description,
        options=tuple(
            OptionSpec(
                kind,
                option_text.format(title=title),
                choices=tuple(Choice(label, value) for label, value in choices),
                suggest_choices=True,
            )
            for kind, (title, choices) in kinds.items()
        ),
        kind="service",
        handler="set_orders",
        ruleset=ruleset,
        ephemeral=True,
    )


def read_int(raw: Any, option: str) -> int:
    """A whole number typed as ``3``, ``#3`` or ``[3]``.

    :raises BadOption: for anything else.
    """
    try:
        return int(str(raw).strip().lstrip("#[").rstrip("]"))
    except ValueError:
        raise BadOption(f"{option} must be a whole number, not {raw!r}.") from None


_SEAT_NUMBER = re.compile(r"^\s*[#\[]?\s*(\d+)\s*\]?\s*$")


def read_seat(text: str, players: int, *, who: str = "the player") -> int:
    """A seat of a ``players``-seat game from its colour (``Blue``) or number (``2``,
    ``#2``; 1 = Red).

    :raises BadOption: for anything else (naming ``who`` and the seats).
    """
    cleaned = text.strip().lower()
    for number in range(players):
        if cleaned == seat_name(number).lower():
            return number
    match = _SEAT_NUMBER.match(cleaned)
    if match and 1 <= int(match.group(1)) <= players:
        return int(match.group(1)) - 1
    names = ", ".join(seat_name(n) for n in range(players))
    raise BadOption(f"Name {who} by colour ({names}) or number (1-{players}).")


def filter_pairs(pairs: Sequence[tuple[str, str]], current: str) -> list[tuple[str, str]]:
    """The autocomplete pairs ``(name, value)`` matching what the player typed (the name
    contains it or the value starts with it; all of them when none does), as Discord
    takes them (`fit_choices`: at most 25, names clipped to 100 characters at a word, a
    value over 100 characters left out rather than cut into another command)."""
    found = list(pairs)
    needle = current.strip().lower()
    if needle:
        hits = [p for p in found if needle in p[0].lower() or p[1].lower().startswith(needle)]
        found = hits or found
    return fit_choices(found)


def wrong_stage(path: tuple[str, ...], prompt: str, now: Iterable[CommandSpec]) -> WrongStage:
    """The refusal of ``/path`` while the player owes the decision ``prompt``, naming the
    commands ``now`` that answer it."""
    names = [f"/{s.qualified}" for s in now]
    hint = f" Commands for it: {', '.join(names)} (or the buttons)." if names else ""
    return WrongStage(f"/{' '.join(path)} does not answer what you owe now: {prompt}{hint}")


# ------------------------------------------------------------------ the table
class PlayTable(Generic[K]):
    """A ruleset's play commands, indexed, and what turns options into engine commands.

    Attributes:
        play: every play command (the ruleset's ``PLAY``).
        by_path: the play commands by slash path.
        by_type: the play commands by engine command type.
        specs: every spec (the play commands', then ``extra``).
    """

    def __init__(
        self,
        play: Sequence[PlayCommand[K]],
        read: Reader[K],
        *,
        extra: Sequence[CommandSpec] = (),
        refuse_when_legal: bool = True,
    ) -> None:
        """``read`` reads an option's text; ``extra`` are the ruleset's own service
        commands (standing orders); with ``refuse_when_legal`` false, a command whose type
        is among the legal commands passes `require_phase` in any decision."""
        self.play = tuple(play)
        self.by_path: dict[tuple[str, ...], PlayCommand[K]] = {p.spec.path: p for p in play}
        self.by_type: dict[str, PlayCommand[K]] = {p.command_type: p for p in play}
        self.specs: tuple[CommandSpec, ...] = (*(p.spec for p in play), *extra)
        self._read = read
        self._refuse_when_legal = refuse_when_legal

    @staticmethod
    def field_of(play: PlayCommand[K], option: str) -> str | None:
        """The ``fields`` key of ``option`` (its table name, as the generated Discord
        commands and the console pass it, or with ``_`` for ``-``), or None when the
        command has no such field."""
        if option in play.fields:
            return option
        dashed = option.replace("_", "-")
        return dashed if dashed in play.fields else None

    def require_phase(self, path: tuple[str, ...], request: PlayRequest) -> None:
        """Refuse a command that cannot answer the decision owed now, naming the ones that
        can.

        :raises WrongStage: naming the decision and its commands.
        :raises KeyError: for a path that is not one of the table's play commands.
        """
        play = self.by_path[path]
        decision = request.decision
        if decision is None or decision.kind in play.spec.phase:
            return
        if not self._refuse_when_legal and any(
            cmd.type == play.command_type for cmd in request.legal
        ):
            return
        raise wrong_stage(
            path, decision.prompt, (s for s in self.specs if decision.kind in s.phase)
        )

    def build_command(
        self, path: tuple[str, ...], request: PlayRequest, options: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Turn a play command's options into an engine command dict
        (``{"type": ..., field: value...}``), after `require_phase`.

        :raises BadOption | WrongStage: for an unreadable option or another decision's command.
        :raises KeyError: for a path that is not one of the table's play commands.
        """
        play = self.by_path[path]
        self.require_phase(path, request)
        command: dict[str, Any] = {"type": play.command_type}
        for option, raw in options.items():
            key = self.field_of(play, option)
            if raw is None or key is None:
                continue
            field_name, kind = play.fields[key]
            command[field_name] = self._read(request, kind, raw, key)
        if play.fill is not None:
            play.fill(request, command)
        return command

    def legal_pairs(
        self,
        play: PlayCommand[K],
        field_name: str,
        commands: Iterable[Command],
        label: Callable[[Any], tuple[str, str] | None],
    ) -> list[tuple[str, str]]:
        """The distinct autocomplete pairs ``label(value)`` of field ``field_name`` of those
        ``commands`` that are of ``play``'s type (values None or ``()`` and labels None
        left out), in the commands' order."""
        pairs: list[tuple[str, str]] = []
        for cmd in commands:
            if cmd.type != play.command_type:
                continue
            value = getattr(cmd, field_name, None)
            if value is None or value == ():
                continue
            pair = label(value)
            if pair is not None and pair not in pairs:
                pairs.append(pair)
        return pairs

    def slash_for(
        self,
        command: Command,
        write: Writer[K],
        *,
        omit: Callable[[str, Any], bool] = lambda field_name, value: value == (),
    ) -> tuple[tuple[str, ...], dict[str, Any]]:
        """The slash path and options that build ``command`` (the inverse of
        `build_command`): each field's value written by ``write``; None and values for
        which ``omit(field, value)`` holds are left out.

        :raises KeyError: for a command type players never issue.
        """
        play = self.by_type[command.type]
        options: dict[str, Any] = {}
        for option, (field_name, kind) in play.fields.items():
            value = getattr(command, field_name, None)
            if value is None or omit(field_name, value):
                continue
            options[option] = write(command, option, kind, value)
        return play.spec.path, options
