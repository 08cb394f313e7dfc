"""The command table format: every slash command as data, for Discord and the console alike.

A `CommandSpec` names a slash path (``("purchase", "buy")`` is ``/purchase buy``;
``("forge", "fort", "buy")`` is ``/forge fort buy``, a subcommand group inside
the ruleset's own top-level command), its description and its options (`OptionSpec`). The Discord layer registers one application
command per top-level name with the table's subcommands and forwards every invocation to
`GameService.run(actor, path, options, channel_id=..., guild_id=...)` and every
autocomplete request to `GameService.autocomplete(...)`; the local console parses
``/purchase buy card:#12 town:C4`` against the same table (`parse_console_line`). So players
type the same commands in both.

Two kinds of command:

* ``service`` commands (lobby, decks, cards, hand, moderators...) call the `GameService`
  method named by ``handler`` with the options as keyword arguments.
* ``play`` commands are a ruleset's player actions: the ruleset's table (in its
  ``bot/<game>/commands.py``) turns the options into an engine command dict, which the service
  applies to the game in the channel.

Discord's limits are checked by `check_table` (the meta-test calls it): names lowercase,
1-32 characters of ``[a-z0-9_-]``, descriptions 1-100 characters, at most 25 options, 25
choices and 25 subcommands per command, no two commands or options with the same name.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

OptionType = Literal["string", "integer", "boolean", "user", "role", "forum"]
"""The Discord option types the table uses. ``user`` options reach the service as a
`UserRef` (the Discord layer converts the member; the console types a user number),
``role`` options as the role id (an int), ``forum`` options (a channel option offering
forum channels only) as the channel id (an int)."""

NAME = re.compile(r"^[a-z0-9_-]{1,32}$")
"""A valid Discord command or option name."""


@dataclass(frozen=True, slots=True)
class UserRef:
    """A member named in a ``user`` option: their id and the name to show in the game."""

    id: int
    display_name: str


@dataclass(frozen=True, slots=True)
class Choice:
    """A fixed choice of an option: the label shown and the value sent."""

    name: str
    value: str | int


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a command.

    Attributes:
        name: the option name (``card``, ``town``...), lowercase.
        description: what to type (≤ 100 characters), with an example.
        type: ``string``, ``integer`` or ``boolean``.
        required: whether Discord insists on it. Required options come first.
        choices: fixed choices (≤ 25); empty for free input.
        autocomplete: whether `GameService.autocomplete` suggests values for it.
        suggest_choices: the fixed ``choices`` are offered by autocomplete instead of
            sent with the command (they then cost nothing of Discord's 4,000 characters
            per command); the service still accepts only them (`choice_value`).
        min_value / max_value: bounds of an integer option.
        max_length: the longest string accepted.
    """

    name: str
    description: str
    type: OptionType = "string"
    required: bool = False
    choices: tuple[Choice, ...] = ()
    autocomplete: bool = False
    min_value: int | None = None
    max_value: int | None = None
    max_length: int | None = None
    suggest_choices: bool = False

    @property
    def sent_choices(self) -> tuple[Choice, ...]:
        """The choices sent to Discord with the command (none when `suggest_choices`)."""
        return () if self.suggest_choices else self.choices

    @property
    def suggested(self) -> bool:
        """Whether Discord asks the bot for suggestions (``autocomplete``, or choices
        offered by autocomplete)."""
        return self.autocomplete or (self.suggest_choices and bool(self.choices))


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One slash command (or subcommand).

    Attributes:
        path: the name path: ``("hand",)`` or ``("purchase", "buy")``.
        description: ≤ 100 characters.
        options: the options, required ones first.
        kind: ``service`` (calls the `GameService` method ``handler``) or ``play`` (a
            ruleset action applied to the game in the channel).
        handler: the service method name (``service``) or the engine command type
            (``play``; informative, e.g. ``"buy"``).
        ruleset: the ruleset a ``play`` command belongs to; None for every game.
        in_dm: whether the command works in a direct message with the bot.
        moderator: whether only moderators may use it (the service checks again).
        ephemeral: whether the reply is only for the user. The Discord layer defers
            with this flag, so the service's ``Reply`` must have the same visibility
            (else Discord deletes the "thinking…" placeholder and sends again: a
            visible flash); public news of a private reply goes as channel posts.
        phase: for ``play`` commands, the decision kinds it answers (for /help).
        gathers: the free-text option that `parse_console_line` adds every ``name:value``
            word to when the command has no option ``name`` (/game new's ``options``: the
            console's ``/game new mode:adventure`` is ``options:mode:adventure``, as it was
            typed before the games' settings moved into that text). None: such a word is
            refused.
    """

    path: tuple[str, ...]
    description: str
    options: tuple[OptionSpec, ...] = ()
    kind: Literal["service", "play"] = "service"
    handler: str = ""
    ruleset: str | None = None
    in_dm: bool = False
    moderator: bool = False
    ephemeral: bool = True
    phase: tuple[str, ...] = field(default_factory=tuple)
    gathers: str | None = None

    @property
    def qualified(self) -> str:
        """The path as typed: ``"purchase buy"``."""
        return " ".join(self.path)

    def option(self, name: str) -> OptionSpec | None:
        """Return the option called ``name``, or None."""
        return next((o for o in self.options if o.name == name), None)


def check_table(specs: Iterable[CommandSpec]) -> list[str]:
    """Return every way ``specs`` would break Discord's limits or clash (empty when fine).

    Checks: names, description lengths, option counts and order, choices, 25 subcommands
    and subcommand groups per top-level command, 25 subcommands per subcommand group, no
    duplicate paths, no command that is both a leaf and a group, at most 100 top-level
    commands.
    """
    problems: list[str] = []
    seen: set[tuple[str, ...]] = set()
    children: dict[str, list[str]] = {}
    grandchildren: dict[tuple[str, str], list[str]] = {}
    leaves: set[str] = set()
    middle_leaves: set[tuple[str, str]] = set()
    for spec in specs:
        where = "/" + spec.qualified
        if spec.path in seen:
            problems.append(f"{where}: defined twice")
        seen.add(spec.path)
        if not 1 <= len(spec.path) <= 3:
            problems.append(f"{where}: paths have one to three names")
        for part in spec.path:
            if not NAME.match(part):
                problems.append(f"{where}: bad name {part!r}")
        if len(spec.path) == 1:
            leaves.add(spec.path[0])
        elif len(spec.path) >= 2:
            if spec.path[1] not in children.get(spec.path[0], []):
                children.setdefault(spec.path[0], []).append(spec.path[1])
            if len(spec.path) == 2:
                middle_leaves.add((spec.path[0], spec.path[1]))
            else:
                grandchildren.setdefault((spec.path[0], spec.path[1]), []).append(spec.path[2])
        problems += _check_text(where, spec.description)
        problems += _check_options(where, spec.options)
    for top, subs in children.items():
        if top in leaves:
            problems.append(f"/{top}: both a command and a group")
        if len(subs) > 25:
            problems.append(f"/{top}: {len(subs)} subcommands (Discord allows 25)")
    for (top, group), subs in grandchildren.items():
        if (top, group) in middle_leaves:
            problems.append(f"/{top} {group}: both a subcommand and a group")
        if len(subs) > 25:
            problems.append(f"/{top} {group}: {len(subs)} subcommands (Discord allows 25)")
    if len(leaves) + len(children) > 100:
        problems.append("more than 100 top-level commands")
    return problems


def _check_text(where: str, text: str) -> list[str]:
    if not 1 <= len(text) <= 100:
        return [f"{where}: description of {len(text)} characters (1-100 allowed)"]
    return []


def _check_options(where: str, options: Sequence[OptionSpec]) -> list[str]:
    problems: list[str] = []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options (25 allowed)")
    names = [o.name for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: two options share a name")
    optional_seen = False
    for option in options:
        if not NAME.match(option.name):
            problems.append(f"{where}: bad option name {option.name!r}")
        problems += _check_text(f"{where} {option.name}", option.description)
        if option.required and optional_seen:
            problems.append(f"{where}: required option {option.name} after an optional one")
        optional_seen = optional_seen or not option.required
        if len(option.choices) > 25:
            problems.append(f"{where} {option.name}: more than 25 choices")
        if option.sent_choices and option.suggested:
            problems.append(f"{where} {option.name}: choices and autocomplete together")
        for choice in option.choices:
            if not 1 <= len(choice.name) <= 100:
                problems.append(f"{where} {option.name}: choice name {choice.name!r} too long")
    return problems


# ---------------------------------------------------------------- console parsing
@dataclass(frozen=True, slots=True)
class ParsedLine:
    """A console line read against the table: the command and its typed options."""

    spec: CommandSpec
    options: dict[str, Any]


class LineError(ValueError):
    """A console line that does not fit the table; the message says what to type."""


FREE_TEXT: frozenset[str] = frozenset({"name", "topic", "reason", "text", "command"})
"""Options whose value is free words: the last open one takes the rest of a console line
without quotes."""


def parse_console_line(line: str, specs: Sequence[CommandSpec]) -> ParsedLine:
    """Read ``/purchase buy card:#12 town:C4`` into the command and its options.

    Values with spaces are quoted (``stacks:"#12 #13 melee; #20 ranged"``), except at the
    end of the line for the last open free-text option (`FREE_TEXT`: ``/card Tree of
    Knowledge``). A value without a name fills the next option not given yet, required ones first
    (``/setup army F3`` is ``/setup army hex:F3``; ``/purchase buy #12 C4`` is
    ``/purchase buy card:#12 town:C4``). Integer options are converted; booleans accept
    yes/no/true/false/1/0. Fixed choices accept the choice's name or value. A
    ``name:value`` word for an option the command lacks goes into its `CommandSpec.gathers`
    option when it has one.

    :raises LineError: for an unknown command or option, a missing required option or a
        value of the wrong type, naming what is allowed.
    """
    try:
        words = shlex.split(line.strip().lstrip("/"))
    except ValueError as error:
        raise LineError(f"Could not read that line: {error}.") from None
    if not words:
        raise LineError("Type a command, e.g. /game status (or /help).")
    spec, rest = _find_spec(words, specs)
    options: dict[str, Any] = {}
    bare: list[str] = []
    gathered: list[str] = []
    for word in rest:
        name, sep, value = word.partition(":")
        option = spec.option(name.lower()) if sep else None
        if option is None and (not sep or not NAME.match(name.lower())):
            bare.append(word)
            continue
        if option is None and spec.gathers is not None:
            gathered.append(shlex.quote(word))
            continue
        if option is None:
            allowed = ", ".join(o.name for o in spec.options) or "none"
            raise LineError(f"/{spec.qualified} has no option {name!r}. Options: {allowed}.")
        options[option.name] = _convert(spec, option, value)
    if gathered and spec.gathers is not None:
        typed = options.get(spec.gathers)
        options[spec.gathers] = " ".join([*([str(typed)] if typed else []), *gathered])
    for index, word in enumerate(bare):
        order = sorted(spec.options, key=lambda o: not o.required)
        option = next((o for o in order if o.name not in options), None)
        left = [o for o in order if o.name not in options]
        if option is not None and left == [option] and option.name in FREE_TEXT:
            # The last open option is free text: the rest of the line, unquoted
            # (/card Tree of Knowledge, /mod pause reason words).
            options[option.name] = " ".join(bare[index:])
            break
        if option is None:
            raise LineError(
                f"Options are written name:value; {word!r} has no name. "
                f"/{spec.qualified} takes: {_option_names(spec)}."
            )
        options[option.name] = _convert(spec, option, word)
    missing = [o for o in spec.options if o.required and o.name not in options]
    if missing:
        needs = "; ".join(f"{o.name} ({o.description})" for o in missing)
        raise LineError(
            f"/{spec.qualified} needs {needs}. Write name:value, or just the value for "
            f"{missing[0].name}."
        )
    return ParsedLine(spec, options)


def _option_names(spec: CommandSpec) -> str:
    """``hex, [with]``: the options of ``spec``, optional ones in brackets (or "nothing")."""
    names = [o.name if o.required else f"[{o.name}]" for o in spec.options]
    return ", ".join(names) or "no options"


def _find_spec(words: list[str], specs: Sequence[CommandSpec]) -> tuple[CommandSpec, list[str]]:
    by_path = {s.path: s for s in specs}
    first = words[0].lower()
    if len(words) > 2 and (first, words[1].lower(), words[2].lower()) in by_path:
        return by_path[(first, words[1].lower(), words[2].lower())], words[3:]
    if len(words) > 1:
        group = words[1].lower()
        subs = sorted(s.path[2] for s in specs if s.path[:2] == (first, group) and len(s.path) == 3)
        if subs and (first, group) not in by_path:
            raise LineError(f"/{first} {group} needs one of: {', '.join(subs)}.")
    if len(words) > 1 and (first, words[1].lower()) in by_path:
        return by_path[(first, words[1].lower())], words[2:]
    if (first,) in by_path:
        return by_path[(first,)], words[1:]
    subs = sorted({s.path[1] for s in specs if len(s.path) >= 2 and s.path[0] == first})
    if subs:
        raise LineError(f"/{first} needs one of: {', '.join(subs)}.")
    raise LineError(f"Unknown command /{first}. Type /help for the list.")


def choice_value(option: OptionSpec, value: str) -> Any:
    """The value of ``option``'s choice that ``value`` names: the choice's value or name
    (any case), or one word of only one choice's name (``pass`` for "pass windows").

    :raises LineError: naming every choice, when none fits.
    """
    wanted = value.strip().lower()
    for choice in option.choices:
        if wanted in (choice.name.lower(), str(choice.value).lower()):
            return choice.value
    worded = [c for c in option.choices if wanted in c.name.lower().split()]
    if len(worded) == 1:
        return worded[0].value
    allowed = ", ".join(
        str(c.value) if c.name.lower() == str(c.value).lower() else f"{c.value} ({c.name})"
        for c in option.choices
    )
    raise LineError(f"{option.name} must be one of: {allowed}.")


def choice_suggestions(option: OptionSpec, current: str) -> list[tuple[str, str]]:
    """``(name, value)`` of ``option``'s choices whose name or value holds ``current``
    (any case; all of them for an empty text), in the table's order."""
    wanted = current.strip().lower()
    return [
        (c.name, str(c.value))
        for c in option.choices
        if wanted in c.name.lower() or wanted in str(c.value).lower()
    ]


def _convert(spec: CommandSpec, option: OptionSpec, value: str) -> Any:
    if option.choices:
        return choice_value(option, value)
    if option.type == "integer":
        try:
            number = int(value.lstrip("#"))
        except ValueError:
            raise LineError(f"{option.name} must be a whole number, not {value!r}.") from None
        if option.min_value is not None and number < option.min_value:
            raise LineError(f"{option.name} must be at least {option.min_value}.")
        if option.max_value is not None and number > option.max_value:
            raise LineError(f"{option.name} must be at most {option.max_value}.")
        return number
    if option.type in ("user", "role", "forum"):
        digits = re.sub(r"[^0-9]", "", value)
        if not digits:
            raise LineError(f"{option.name} must be a {option.type} id or mention, not {value!r}.")
        number = int(digits)
        return UserRef(number, f"User {number}") if option.type == "user" else number
    if option.type == "boolean":
        lowered = value.lower()
        if lowered in ("yes", "true", "1", "y"):
            return True
        if lowered in ("no", "false", "0", "n"):
            return False
        raise LineError(f"{option.name} must be yes or no.")
    return value


def help_lines(specs: Iterable[CommandSpec]) -> list[str]:
    """One line per command: ``/purchase buy card town [into] [pay] — Buy a Unit...``."""
    lines = []
    for spec in specs:
        args = " ".join(o.name if o.required else f"[{o.name}]" for o in spec.options)
        lines.append(f"/{spec.qualified}{' ' + args if args else ''} — {spec.description}")
    return lines


HELP_POINTER = (
    "One command's options, allowed values, defaults and an example: /help COMMAND "
    "(e.g. /help game new)."
)
"""The line of the /help overview pointing at /help COMMAND (Discord and console alike)."""

HELP_WORDS = (
    "Cards are #numbers (or names), hexes like C4, Armies and Creatures by number. "
    "A rule: /game rules topic: and part of its name."
)
"""The /help overview's line on how things are named in commands."""


def help_overview(specs: Iterable[CommandSpec]) -> list[str]:
    """The short /help overview a phone shows on one screen, the same words in Discord and
    at the console: a heading, one line per command family (``/game new|join|start…``:
    the top word, then its next words once each, in order), `HELP_POINTER` and
    `HELP_WORDS`."""
    groups: dict[str, list[str]] = {}
    for spec in specs:
        subs = groups.setdefault(spec.path[0], [])
        if len(spec.path) > 1 and spec.path[1] not in subs:
            subs.append(spec.path[1])
    lines = ["**Commands** by family (options are suggested as you type):"]
    lines += [f"/{top} {'|'.join(subs)}".rstrip() for top, subs in groups.items()]
    return [*lines, HELP_POINTER, HELP_WORDS]


_DEFAULT = re.compile(r"(?:\(|; )(?P<default>(?:default|none|leave out)[^();]*)", re.IGNORECASE)
_EXAMPLE = re.compile(r"e\.g\. (?P<example>[^()—]+?)(?:\s*[()—]| or |$)")
_CARD = re.compile(r"#\d+")


def value_format(option: OptionSpec) -> str:
    """How ``option``'s value is written: its choices (``ask, windows (pass windows)``),
    ``yes or no``, a whole number and its range, or text (with its longest length), and
    whether suggestions come as you type."""
    if option.choices:
        listed = ", ".join(
            f"{c.value} ({c.name})"
            if len(c.name) <= 30 and not c.name.lower().startswith(str(c.value).lower())
            else str(c.value)
            for c in option.choices
        )
        return f"one of {listed}"
    if option.type == "boolean":
        return "yes or no"
    if option.type == "integer":
        if option.min_value is not None and option.max_value is not None:
            return f"a whole number {option.min_value}-{option.max_value}"
        if option.min_value is not None:
            return f"a whole number from {option.min_value}"
        return "a whole number"
    if option.type in ("user", "role"):
        return f"a {option.type} (@mention)"
    if option.type == "forum":
        return "a forum (#mention)"
    text = "text" if option.max_length is None else f"text (at most {option.max_length})"
    return f"{text}, suggested as you type" if option.autocomplete else text


def example_value(option: OptionSpec) -> str | None:
    """A value for ``option`` to show in an example: the description's ``e.g. ...``, the
    first choice, the smallest number, ``yes``; None when there is nothing to show."""
    found = _EXAMPLE.search(option.description)
    if found:
        return found.group("example").strip().rstrip(".,")
    card = _CARD.search(option.description)
    if card:
        return card.group(0)
    if option.choices:
        return str(option.choices[0].value)
    if option.type == "integer":
        return str(option.min_value if option.min_value is not None else 1)
    if option.type == "boolean":
        return "yes"
    return None


def command_help(spec: CommandSpec, example_options: Mapping[str, str] | None = None) -> list[str]:
    """/help COMMAND for ``spec``: the command and what it does, one line per option (its
    name, required or optional, how its value is written, its default when the table
    says one) and an example (`example_value` of the required options, or
    ``example_options``: option name -> value).

    >>> spec = CommandSpec(("mod", "undo"), "Undo moves",
    ...     (OptionSpec("count", "how many moves (default 1)", "integer", min_value=1, max_value=50),))
    >>> command_help(spec)[2]
    '• count (optional): a whole number 1-50; default 1 — how many moves'
    """
    lines = [f"**/{spec.qualified}** — {spec.description}"]
    if not spec.options:
        lines.append("No options.")
    else:
        lines.append("Options (written name:value):")
    for option in spec.options:
        need = "required" if option.required else "optional"
        described = option.description
        default = _DEFAULT.search(described)
        said = ""
        if default:
            said = "; " + default.group("default").strip().replace("default:", "default", 1)
            start, end = default.span()
            if described[start] == "(" and described[end : end + 1] == ")":
                # said once: not again in brackets after the description
                described = (described[:start].rstrip() + described[end + 1 :]).strip()
        lines.append(f"• {option.name} ({need}): {value_format(option)}{said} — {described}")
    shown: dict[str, str] = {}
    for option in spec.options:
        if option.required:
            shown[option.name] = example_value(option) or f"<{option.name}>"
    if not any(not o.required and o.name in shown for o in spec.options):
        optional = next(
            (o for o in spec.options if not o.required and _EXAMPLE.search(o.description)), None
        )
        if optional is not None:
            shown[optional.name] = str(example_value(optional))
    shown.update(example_options or {})
    order = [o.name for o in spec.options]
    shown = dict(sorted(shown.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99))
    if spec.options and not shown:
        first = next((o for o in spec.options if example_value(o) is not None), None)
        if first is not None:
            shown[first.name] = str(example_value(first))
    example = " ".join(
        [f"/{spec.qualified}", *(_typed(name, value) for name, value in shown.items())]
    )
    lines.append(f"Example: {example}")
    return lines


def _typed(name: str, value: str) -> str:
    return f'{name}:"{value}"' if " " in value and not value.startswith('"') else f"{name}:{value}"


def options_dict(values: Mapping[str, Any]) -> dict[str, Any]:
    """Drop None values (options the user left out) from an options mapping."""
    return {k: v for k, v in values.items() if v is not None}
