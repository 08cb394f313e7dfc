"""The Hero Forge command table: every player action as ``/heroforge <group> <command>``,
how its options become an engine command, and where autocomplete suggestions come from.

Rule sections: heroforge:basic-rules (``setup``, ``move``), heroforge:units and
heroforge:forts (``buy``, ``fort``), heroforge:manning-forts (``fort man|unman``),
heroforge:combat (``combat``), heroforge:land-shifting (``land``),
heroforge:other-ways-of-getting-rid-of-enchantments and heroforge:factions
(``enchant``), heroforge:turns (``turn end``).

Values a player types: plates as letters (``C``), directions as compass words (``NE``),
units as ``#4`` (lists: ``#4 #7``), forts as ``F2``, heroes and players by colour
(``Blue``) or seat number (1 = Red), targets as ``Blue`` (a hero) or ``F2`` (a fort).
Autocomplete suggests values from `Ruleset.legal_commands` (at most 25); the engine
checks every command again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, Literal

from bot.adapters import PlayRequest, fit_choices
from bot.command_table import Choice, OptionSpec
from bot.errors import BadOption
from bot.play_commands import (
    PlayCommand,
    PlayTable,
    auto_option,
    filter_pairs,
    play_spec,
    read_seat,
)
from engine.core.model import SEAT_COLOURS, Command
from engine.core.words import plural
from engine.heroforge import commands as hc
from engine.heroforge.board import DIRECTIONS, SHIFT_DIRECTIONS
from engine.heroforge.catalog import load_catalog

RULESET = "heroforge"
TOP = "heroforge"

FieldKind = Literal["text", "plate", "int", "fort", "units", "seat", "target", "hero"]
"""How an option's text is read."""

_spec = partial(play_spec, RULESET)
_auto = auto_option


def _directions(name: str, description: str, names: Sequence[str]) -> OptionSpec:
    return OptionSpec(
        name, description, "string", required=True, choices=tuple(Choice(n, n) for n in names)
    )


def _fill_defence_target(request: PlayRequest, command: dict[str, Any]) -> None:
    if "target" not in command:
        targets = [c.target for c in request.legal if isinstance(c, hc.FightBack)]
        if targets:
            command["target"] = targets[0]


def _fill_attack_target(request: PlayRequest, command: dict[str, Any]) -> None:
    if "target" in command:
        return
    targets = [c.target for c in request.legal if isinstance(c, hc.Attack)]
    if len(targets) == 1:
        command["target"] = targets[0]
    elif targets:
        raise BadOption(
            "Several targets are on your plate; say which with target: "
            + ", ".join(target_label(request, t) for t in targets)
            + "."
        )


PLAY: tuple[PlayCommand[FieldKind], ...] = (
    PlayCommand(
        _spec(
            "setup",
            "hero",
            "Choose your hero",
            [_auto("hero", "a hero nobody has chosen, e.g. Weir Of HopeSeeking", required=True)],
            ("choose_hero",),
        ),
        "choose_hero",
        {"hero": ("hero", "hero")},
    ),
    PlayCommand(
        _spec(
            "setup",
            "place",
            "Place your hero in the centre of a free Plain Land",
            [_auto("plate", "a free Plain Land's letter, e.g. A", required=True)],
            ("place_hero",),
        ),
        "place_hero",
        {"plate": ("plate", "plate")},
    ),
    PlayCommand(
        _spec(
            "buy",
            "unit",
            "Buy units into your hero's army (on an uncontested land)",
            [
                OptionSpec(
                    "level", "the unit level, 1-10", "integer", True, min_value=1, max_value=10
                ),
                OptionSpec("count", "how many (default 1)", "integer", min_value=1, max_value=20),
            ],
            ("buy",),
        ),
        "buy_unit",
        {"level": ("level", "int"), "count": ("count", "int")},
    ),
    PlayCommand(
        _spec("buy", "done", "End this buying step (then move, or enter combat)", [], ("buy",)),
        "end_buying",
    ),
    PlayCommand(
        _spec(
            "fort",
            "buy",
            "Build a fort on your hero's square; the hero then steps one space",
            [_directions("step", "where the hero steps after placing the fort", list(DIRECTIONS))],
            ("buy",),
        ),
        "buy_fort",
        {"step": ("step", "text")},
    ),
    PlayCommand(
        _spec(
            "fort",
            "man",
            "Move units from your hero onto your fort on the same plate",
            [
                _auto("fort", "your fort, e.g. F2", required=True),
                _auto("units", "units of your army, e.g. #3 #5", required=True),
            ],
            ("buy",),
        ),
        "man_fort",
        {"fort": ("fort", "fort"), "units": ("units", "units")},
    ),
    PlayCommand(
        _spec(
            "fort",
            "unman",
            "Move units from your fort on the same plate to your hero",
            [
                _auto("fort", "your fort, e.g. F2", required=True),
                _auto("units", "units on that fort, e.g. #3", required=True),
            ],
            ("buy",),
        ),
        "unman_fort",
        {"fort": ("fort", "fort"), "units": ("units", "units")},
    ),
    PlayCommand(
        _spec("move", "roll", "Roll the D6 to move", [], ("move",)),
        "roll_move",
    ),
    PlayCommand(
        _spec("move", "skip", "Do not move this turn", [], ("move",)),
        "skip_move",
    ),
    PlayCommand(
        _spec(
            "move",
            "go",
            "Move after rolling: a direction and a distance",
            [
                _directions("direction", "one of the 8 directions", list(DIRECTIONS)),
                OptionSpec(
                    "distance",
                    "squares: the roll plus speed (any up to it after a 6)",
                    "integer",
                    True,
                    min_value=1,
                    max_value=20,
                    autocomplete=True,
                ),
            ],
            ("moving",),
        ),
        "move",
        {"direction": ("direction", "text"), "distance": ("distance", "int")},
    ),
    PlayCommand(
        _spec("move", "stay", "Stay where you are after rolling", [], ("moving",)),
        "stay",
    ),
    PlayCommand(
        _spec(
            "combat",
            "attack",
            "Attack a hero or fort on your hero's plate",
            [_auto("target", "a hero (colour, e.g. Blue) or a fort (e.g. F2)")],
            ("combat",),
        ),
        "attack",
        {"target": ("target", "target")},
        fill=_fill_attack_target,
    ),
    PlayCommand(
        _spec(
            "combat",
            "fight",
            "Defence: fight back at the attacker (or its fort on the plate)",
            [_auto("target", "default: the attacking hero")],
            ("defend",),
        ),
        "fight_back",
        {"target": ("target", "target")},
        fill=_fill_defence_target,
    ),
    PlayCommand(
        _spec(
            "combat",
            "retreat",
            "Defence: try to retreat (a D10 over 5) to your closest land",
            [],
            ("defend",),
        ),
        "retreat",
    ),
    PlayCommand(
        _spec("turn", "end", "End your turn (no combat, or no more)", [], ("combat",)),
        "end_turn",
    ),
    PlayCommand(
        _spec(
            "land",
            "shift",
            "Slide a land plate one space into an empty space",
            [
                _auto("plate", "the plate's letter, e.g. C", required=True),
                _directions("direction", "N, E, S or W", list(SHIFT_DIRECTIONS)),
            ],
            ("shift", "buy"),
        ),
        "shift",
        {"plate": ("plate", "plate"), "direction": ("direction", "text")},
    ),
    PlayCommand(
        _spec("land", "keep", "Do not shift a land plate now", [], ("shift",)),
        "skip_shift",
    ),
    PlayCommand(
        _spec(
            "enchant",
            "pass",
            "Pay 1000e to give your enchantment to another player",
            [_auto("to", "the player: colour (e.g. Blue) or seat number", required=True)],
            ("buy",),
        ),
        "pass_enchantment",
        {"to": ("to", "seat")},
    ),
    PlayCommand(
        _spec("enchant", "steal", "Pay 1000e to steal the enchantment on offer", [], ("steal",)),
        "steal",
    ),
    PlayCommand(
        _spec("enchant", "let-go", "Let the other player keep the enchantment", [], ("steal",)),
        "let_go",
    ),
)
"""Every Hero Forge player action."""

GROUPS: dict[str, str] = {
    "setup": "Hero Forge set-up: choose your hero, place it on a Plain Land",
    "buy": "Hero Forge buying steps: buy units, end buying",
    "fort": "Hero Forge forts: build, man and unman",
    "move": "Hero Forge moving: roll the D6, move in one direction, or stay",
    "combat": "Hero Forge combat: attack, fight back, retreat",
    "turn": "Hero Forge turn: end it",
    "land": "Hero Forge land shifting: slide a plate, or keep the board",
    "enchant": "Hero Forge enchantments: pass one on, steal one, let one go",
}
"""The subcommand groups of ``/heroforge`` and their descriptions."""

TOP_DESCRIPTION = "Play Hero Forge: land plates, forts, heroes and enchantments"

GROUP_DESCRIPTIONS: dict[tuple[str, ...], str] = {
    (TOP,): TOP_DESCRIPTION,
    **{(TOP, name): text for name, text in GROUPS.items()},
}
"""The descriptions of ``/heroforge`` and its subcommand groups, by path."""

LAYOUT_CHOICES: tuple[tuple[str, str], ...] = (
    ("auto (made for the player count)", "auto"),
    *(
        (f"{lay.name} ({lay.players[0]}-{lay.players[1]} players)", lay.id)
        for lay in load_catalog().layouts.values()
    ),
)
"""The /game new ``layout`` choices: auto and every ready-made board."""

_NUMBERS = re.compile(r"\d+")


# ------------------------------------------------------------------ reading values
def _read(request: PlayRequest, kind: FieldKind, raw: Any, option: str) -> Any:
    if kind == "int":
        try:
            return int(str(raw).strip().lstrip("#"))
        except ValueError:
            raise BadOption(f"{option} must be a whole number, not {raw!r}.") from None
    text = str(raw).strip()
    if kind == "plate":
        return text.upper()
    if kind == "fort":
        digits = _NUMBERS.findall(text)
        if len(digits) != 1:
            raise BadOption(f"Name one fort, e.g. F2 (not {text!r}).")
        return int(digits[0])
    if kind == "units":
        numbers = [int(n) for n in _NUMBERS.findall(text)]
        if not numbers:
            raise BadOption(f"Name units by number, e.g. #3 #5 (not {text!r}).")
        return tuple(numbers)
    if kind == "seat":
        return read_seat(text, request.state.players)
    if kind == "target":
        if text.isdigit():
            return f"hero:{read_seat(text, request.state.players)}"
        return text
    return text


TABLE: PlayTable[FieldKind] = PlayTable(PLAY, _read, refuse_when_legal=False)
"""The Hero Forge play commands, indexed; `PlayTable.build_command` reads their options
(a command passes in another decision while a legal command of its type exists)."""
PLAY_COMMANDS = TABLE.by_path
SPECS = TABLE.specs
build_command = TABLE.build_command


# ------------------------------------------------------------------ labels
def target_label(request: PlayRequest, target: str) -> str:
    """``"Blue's hero (3 units)"`` or ``"Blue's fort F2 (manned)"`` for a target string."""
    state: Any = request.state
    kind, _, value = target.partition(":")
    if kind == "hero" and value.isdigit():
        seat = int(value)
        units = len(state.player(seat).army)
        return f"{SEAT_COLOURS[seat]}'s hero ({plural(units, 'unit')})"
    if kind == "fort" and value.isdigit():
        fort = state.fort(int(value))
        units = len(fort.units)
        manned = plural(units, "unit") if units else "unmanned"
        return f"{SEAT_COLOURS[fort.owner]}'s fort F{fort.id} ({manned})"
    return target


def _pair(request: PlayRequest, kind: FieldKind, value: Any) -> tuple[str, str] | None:
    state: Any = request.state
    if kind == "hero":
        hero = load_catalog().heroes[value]
        return (
            f"{hero.name} ({hero.faction or 'no faction'}, cap {hero.cap}, speed {hero.speed:+d})",
            hero.id,
        )
    if kind == "plate":
        land = load_catalog().lands[state.plate(value).land]
        return f"{value}: {land.name}", value
    if kind == "fort":
        return f"F{value}", f"F{value}"
    if kind == "units":
        return " ".join(f"#{u}" for u in value), " ".join(f"#{u}" for u in value)
    if kind == "seat":
        return SEAT_COLOURS[value], SEAT_COLOURS[value]
    if kind == "target":
        kind_word, _, number = str(value).partition(":")
        typed = SEAT_COLOURS[int(number)] if kind_word == "hero" else f"F{number}"
        return target_label(request, value), typed
    return str(value), str(value)


def suggest(
    path: tuple[str, ...],
    request: PlayRequest,
    option: str,
    current: str,
    given: Mapping[str, Any],
) -> list[tuple[str, str]]:
    """Autocomplete for ``option``: values of the seat's legal commands of that type
    (at most 25 ``(name, value)`` pairs)."""
    play = PLAY_COMMANDS.get(path)
    if play is None or option not in play.fields:
        return []
    field_name, kind = play.fields[option]
    pairs = TABLE.legal_pairs(
        play, field_name, request.legal, lambda value: _pair(request, kind, value)
    )
    if kind == "units":
        singles = sorted({u for name, _ in pairs for u in _NUMBERS.findall(name)}, key=int)
        typed = " ".join(f"#{n}" for n in _NUMBERS.findall(current))
        chosen = set(_NUMBERS.findall(current))
        pairs = [
            ((f"{typed} #{n}".strip()), f"{typed} #{n}".strip()) for n in singles if n not in chosen
        ]
        return fit_choices(pairs)
    return filter_pairs(pairs, current)


def slash_for(command: Command) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The slash command and options that build ``command`` (the inverse of
    `build_command`), e.g. ``(("heroforge", "fort", "man"), {"fort": "F2", "units": "#3"})``.

    :raises KeyError: for a command type players never issue.
    """
    return TABLE.slash_for(
        command, _write, omit=lambda field_name, value: field_name == "count" and value == 1
    )


def _write(command: Command, option: str, kind: FieldKind, value: Any) -> Any:
    if kind == "fort":
        return f"F{value}"
    if kind == "units":
        return " ".join(f"#{u}" for u in value)
    if kind == "seat":
        return SEAT_COLOURS[value]
    return value
