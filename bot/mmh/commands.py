"""The mmh command table: every player action as ``/mmh <group> <command>``, how its
options become an engine command, and where autocomplete suggestions come from.

Rule sections: mmh:game-setup (``setup``), mmh:course-of-play.playing-action-cards
(``turn``), mmh:course-of-play.build and .recruit (``capital``), mmh:course-of-play.
activate-hero (``hero``), mmh:other-game-rules (``choice``: cards, treasure, XP), and
mmh:course-of-play.battles (``battle``).

Values a player types: spaces like ``C7``; heroes, creatures, buildings and cards by name
or id (``Sandor``, ``Ravenous Ghoul`` or ``ghoul+``, ``Marketplace``, ``Arcane Bolt``);
markers on the initiative track by number (``3``); lists separated by spaces or commas.
Autocomplete suggests values from `Ruleset.legal_commands` (at most 25); the engine checks
every command again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, Literal

from bot.adapters import PlayRequest
from bot.command_table import Choice, OptionSpec
from bot.errors import BadOption
from bot.play_commands import (
    PlayCommand,
    PlayTable,
    auto_option,
    filter_pairs,
    int_option,
    orders_spec,
    play_spec,
    read_int,
)
from engine.core.model import Command
from engine.mmh.content import load_content

RULESET = "mmh"
TOP = "mmh"
TOP_DESCRIPTION = "Play Might & Magic Heroes: action cards, capital, heroes, battles"

FieldKind = Literal[
    "int", "text", "bool", "space", "hero", "creature", "building", "card", "ints", "units"
]
"""How an option's text is read."""

ACTION = ("action_build", "action_recruit", "action_hero")
PROMPTS_DECLINE = ("scroll_room", "xp", "dragon_vein", "arena", "raise", "reward", "control")

_spec = partial(play_spec, RULESET)
_auto = auto_option
_int = int_option


def _pick(
    name: str, description: str, values: Sequence[str], *, required: bool = False
) -> OptionSpec:
    # Offered by autocomplete (`OptionSpec.suggest_choices`): sent as fixed choices, the
    # words of /mmh took more than 3,500 of Discord's 4,000 characters per command.
    return OptionSpec(
        name,
        description,
        required=required,
        choices=tuple(Choice(v, v) for v in values),
        suggest_choices=True,
    )


def _flag(name: str, description: str) -> OptionSpec:
    return OptionSpec(name, description, "boolean")


def _elite_from_name(request: PlayRequest, command: dict[str, Any]) -> None:
    """``creature:"Ravenous Ghoul"`` or ``ghoul+`` means the elite side unless ``elite`` is given."""
    if "elite" not in command and isinstance(command.get("creature"), tuple):
        creature, elite = command["creature"]
        command["creature"] = creature
        command["elite"] = elite
    elif isinstance(command.get("creature"), tuple):
        command["creature"] = command["creature"][0]


def _elite_if_allowed(request: PlayRequest, command: dict[str, Any]) -> None:
    """Without ``elite``, roll the elite die exactly when the marker may."""
    if "elite" not in command:
        command["elite"] = any(
            cmd.type == "attack" and getattr(cmd, "elite", False) for cmd in request.legal
        )


def _creature_only(request: PlayRequest, command: dict[str, Any]) -> None:
    if isinstance(command.get("creature"), tuple):
        command["creature"] = command["creature"][0]


PLAY: tuple[PlayCommand[FieldKind], ...] = (
    # ---------------------------------------------------------------- set-up
    PlayCommand(
        _spec(
            "setup",
            "tile",
            "Lay the next map tile",
            [
                _int("column", "grid column, 1 = left", 1, 4, required=True),
                _int("row", "grid row, 1 = top", 1, 4, required=True),
                _int("rotation", "quarter turns clockwise (0-3)", 0, 3, required=True, auto=True),
            ],
            ("place_tile",),
        ),
        "place_tile",
        {"column": ("column", "int"), "row": ("row", "int"), "rotation": ("rotation", "int")},
    ),
    PlayCommand(
        _spec(
            "setup",
            "capital",
            "Place your capital on a free red map tile",
            [_auto("space", "a space, e.g. B2", required=True)],
            ("place_capital",),
        ),
        "place_capital",
        {"space": ("space", "space")},
    ),
    PlayCommand(
        _spec(
            "setup",
            "hero",
            "Choose your starting hero",
            [_auto("hero", "one of your faction's heroes, e.g. Sandor", required=True)],
            ("choose_hero",),
        ),
        "choose_hero",
        {"hero": ("hero", "hero")},
    ),
    # ---------------------------------------------------------------- turn
    PlayCommand(
        _spec(
            "turn",
            "play",
            "Play an action card (or pass)",
            [
                _int("card", "the card's number 1-4", 1, 4, required=True, auto=True),
                _pick(
                    "action",
                    "which action",
                    ("build", "gather", "recruit", "hero", "pass"),
                    required=True,
                ),
                _pick(
                    "bonus",
                    "Town Hall bonus when gathering",
                    ("gold", "resources"),
                ),
            ],
            ("play_action",),
        ),
        "play_action",
        {"card": ("card", "int"), "action": ("action", "text"), "bonus": ("bonus", "text")},
    ),
    PlayCommand(
        _spec("turn", "end", "End your action", [], ACTION),
        "end_action",
    ),
    PlayCommand(
        _spec(
            "turn",
            "trade",
            "Trade 2 of one for 1 of the other",
            [
                _pick("give", "what you give", ("gold", "resources"), required=True),
                _int("amount", "how much you give (even)", 2, 200, required=True),
            ],
            ACTION,
        ),
        "trade",
        {"give": ("give", "text"), "amount": ("amount", "int")},
    ),
    PlayCommand(
        _spec(
            "turn",
            "sell",
            "Sell a scroll (gold = its level)",
            [
                _auto("hero", "the hero", required=True),
                _auto("scroll", "the scroll", required=True),
            ],
            ACTION,
        ),
        "sell_scroll",
        {"hero": ("hero", "hero"), "scroll": ("scroll", "card")},
    ),
    PlayCommand(
        _spec(
            "turn",
            "level-up",
            "Spend XP: draw 2 skill cards, keep 1",
            [
                _auto("hero", "the hero", required=True),
                _pick("deck", "the might or magic skill deck", ("might", "magic"), required=True),
                _auto("trophies", "trophy markers to discard, e.g. 12 30"),
            ],
            ("play_action", *ACTION, "xp"),
        ),
        "level_up",
        {"hero": ("hero", "hero"), "deck": ("deck", "text"), "trophies": ("trophies", "ints")},
    ),
    # ---------------------------------------------------------------- capital
    PlayCommand(
        _spec(
            "capital",
            "build",
            "Build a building (or level)",
            [
                _auto("building", "a building or level, e.g. Marketplace", required=True),
                _pick("pay", "Town Hall: pay gold or resources", ("gold", "resources")),
            ],
            ("action_build",),
        ),
        "build",
        {"building": ("building", "building"), "pay": ("pay", "text")},
    ),
    PlayCommand(
        _spec(
            "capital",
            "recruit",
            "Recruit a creature for a hero",
            [
                _auto("hero", "the hero", required=True),
                _auto("creature", "a creature, e.g. Sentinel or Praetorian", required=True),
                _flag("elite", "the elite side (default: as named)"),
            ],
            ("action_recruit",),
        ),
        "recruit",
        {
            "hero": ("hero", "hero"),
            "creature": ("creature", "creature"),
            "elite": ("elite", "bool"),
        },
        fill=_elite_from_name,
    ),
    PlayCommand(
        _spec(
            "capital",
            "hire",
            "Recruit a new hero (5 gold)",
            [_auto("hero", "a free hero of your faction", required=True)],
            ("action_recruit",),
        ),
        "recruit_hero",
        {"hero": ("hero", "hero")},
    ),
    PlayCommand(
        _spec(
            "capital",
            "upgrade",
            "Upgrade a basic creature to elite",
            [
                _auto("hero", "the hero", required=True),
                _auto("creature", "the creature", required=True),
            ],
            ("action_recruit",),
        ),
        "upgrade",
        {"hero": ("hero", "hero"), "creature": ("creature", "creature")},
        fill=_creature_only,
    ),
    PlayCommand(
        _spec(
            "capital",
            "dismiss",
            "Send one creature back to your reserve",
            [
                _auto("hero", "the hero", required=True),
                _auto("creature", "the creature, e.g. ghoul or ghoul+", required=True),
                _flag("elite", "the elite side (default: as named)"),
            ],
            ("action_recruit",),
        ),
        "dismiss",
        {
            "hero": ("hero", "hero"),
            "creature": ("creature", "creature"),
            "elite": ("elite", "bool"),
        },
        fill=_elite_from_name,
    ),
    # ---------------------------------------------------------------- hero
    PlayCommand(
        _spec(
            "hero",
            "activate",
            "Activate a hero",
            [_auto("hero", "the hero", required=True)],
            ("action_hero",),
        ),
        "activate",
        {"hero": ("hero", "hero")},
    ),
    PlayCommand(
        _spec(
            "hero",
            "move",
            "Move the active hero one space",
            [_auto("to", "a space, e.g. C7, or capital", required=True)],
            ("action_hero",),
        ),
        "move",
        {"to": ("to", "space")},
    ),
    PlayCommand(
        _spec("hero", "explore", "Explore the location the hero stands on", [], ("action_hero",)),
        "explore",
    ),
    PlayCommand(
        _spec(
            "hero",
            "control",
            "Take control where your hero stands",
            [],
            ("action_hero", "control"),
        ),
        "take_control",
    ),
    # ---------------------------------------------------------------- choices
    PlayCommand(
        _spec(
            "choice",
            "keep",
            "Keep one of the drawn cards",
            [_auto("card", "the card", required=True)],
            ("keep", "swap"),
        ),
        "keep",
        {"card": ("card", "card")},
    ),
    PlayCommand(
        _spec(
            "choice",
            "discard-scroll",
            "Discard a scroll to draw a new one",
            [_auto("scroll", "the scroll", required=True)],
            ("scroll_room",),
        ),
        "make_room",
        {"scroll": ("scroll", "card")},
    ),
    PlayCommand(
        _spec(
            "choice",
            "fields",
            "Take fields (1-4) of the treasure card",
            [_auto("fields", "field numbers, e.g. 1 3", required=True)],
            ("treasure",),
        ),
        "choose_fields",
        {"fields": ("fields", "ints")},
    ),
    PlayCommand(
        _spec(
            "choice",
            "deck",
            "Pick the deck of a free skill card",
            [_pick("deck", "which deck", ("might", "magic"), required=True)],
            ("skill_draw",),
        ),
        "choose_deck",
        {"deck": ("deck", "text")},
    ),
    PlayCommand(
        _spec(
            "choice",
            "search",
            "Dragon Vein: take a card from a discard pile",
            [
                _pick("pile", "which pile", ("treasure", "scroll", "artefact"), required=True),
                _auto("card", "the card", required=True),
            ],
            ("dragon_vein",),
        ),
        "search",
        {"pile": ("pile", "text"), "card": ("card", "card")},
    ),
    PlayCommand(
        _spec(
            "choice",
            "arena",
            "Arena: recruit a creature",
            [_auto("creature", "the creature", required=True), _flag("elite", "the elite side")],
            ("arena",),
        ),
        "arena_recruit",
        {"creature": ("creature", "creature"), "elite": ("elite", "bool")},
        fill=_elite_from_name,
    ),
    PlayCommand(
        _spec(
            "choice",
            "raise",
            "RAISE DEAD: revive or upgrade",
            [
                _auto("creature", "the creature", required=True),
                _pick("mode", "revive or upgrade", ("revive", "upgrade"), required=True),
            ],
            ("raise",),
        ),
        "raise",
        {"creature": ("creature", "creature"), "mode": ("mode", "text")},
        fill=_creature_only,
    ),
    PlayCommand(
        _spec(
            "choice",
            "reward",
            "After beating a hero: skill or artefact",
            [
                _pick("deck", "a skill card from this deck", ("might", "magic")),
                _auto("artefact", "or this artefact of the loser"),
            ],
            ("reward",),
        ),
        "reward",
        {"deck": ("deck", "text"), "artefact": ("artefact", "card")},
    ),
    PlayCommand(
        _spec(
            "choice",
            "return",
            "Return creatures (Leadership dropped)",
            [_auto("creatures", "e.g. ghoul, ghoul+ (as many as asked)", required=True)],
            ("leadership",),
        ),
        "return_creatures",
        {"creatures": ("creatures", "units")},
    ),
    PlayCommand(
        _spec("choice", "decline", "Pass on an optional choice", [], PROMPTS_DECLINE),
        "decline",
    ),
    # ---------------------------------------------------------------- battle
    PlayCommand(
        _spec(
            "battle",
            "honor",
            "Honor: elite die for everyone or no one",
            [
                OptionSpec(
                    "elite-die", "true: everyone may; false: no one", "boolean", required=True
                )
            ],
            ("battle_honor",),
        ),
        "honor",
        {"elite-die": ("elite_die", "bool")},
    ),
    PlayCommand(
        _spec(
            "battle",
            "card",
            "Use a skill, artefact or scroll card",
            [
                _auto("card", "the card", required=True),
                _pick(
                    "part",
                    "primary, secondary (OR) or both (AND)",
                    ("primary", "secondary", "both"),
                ),
                _int("target", "a marker's track number", 0, 40, auto=True),
            ],
            ("battle_window", "battle_turn"),
        ),
        "use_card",
        {"card": ("card", "card"), "part": ("part", "text"), "target": ("target", "int")},
    ),
    PlayCommand(
        _spec("battle", "pass", "Use no (more) cards in this window", [], ("battle_window",)),
        "pass_window",
    ),
    PlayCommand(
        _spec(
            "battle",
            "attack",
            "Attack with the marker due",
            [
                _flag("elite", "use the elite die (default: yes)"),
                _int("target", "Focused Attack: enemy marker number", 0, 40, auto=True),
            ],
            ("battle_turn",),
        ),
        "attack",
        {"elite": ("elite", "bool"), "target": ("target", "int")},
        fill=_elite_if_allowed,
    ),
    PlayCommand(
        _spec(
            "battle",
            "luck",
            "Spend luck: negate Bad Luck or reroll",
            [_pick("choice", "what to do", ("negate", "missed", "elite", "none"), required=True)],
            ("battle_negate", "battle_luck"),
        ),
        "luck",
        {"choice": ("choice", "text")},
    ),
    PlayCommand(
        _spec(
            "battle",
            "laurel",
            "Laurel wreath: upgrade or RAISE DEAD 1",
            [_pick("choice", "upgrade or raise", ("upgrade", "raise"), required=True)],
            ("battle_laurel",),
        ),
        "laurel",
        {"choice": ("choice", "text")},
    ),
    PlayCommand(
        _spec(
            "battle",
            "angel",
            "Guardian Angel: ignore the elite die's damage?",
            [OptionSpec("use", "true: ignore it; false: keep the Angel", "boolean", required=True)],
            ("battle_angel",),
        ),
        "angel",
        {"use": ("use", "bool")},
    ),
    PlayCommand(
        _spec(
            "battle",
            "assign",
            "Assign the damage to one of your stacks",
            [
                _int("unit", "the stack's track number", 0, 40, required=True, auto=True),
                _pick(
                    "order",
                    "flip elite or lose basic first",
                    ("elite", "basic"),
                ),
            ],
            ("battle_assign",),
        ),
        "assign",
        {"unit": ("unit", "int"), "order": ("order", "text")},
    ),
    PlayCommand(
        _spec(
            "battle",
            "retreat",
            "Retreat to your capital, losing 2 creatures",
            [_auto("losses", "e.g. ghoul, ghoul+ (default: cheapest)")],
            ("battle_retreat",),
        ),
        "retreat",
        {"losses": ("losses", "units")},
    ),
    PlayCommand(
        _spec(
            "battle",
            "fight",
            "Stay in the battle",
            [],
            ("battle_retreat",),
        ),
        "fight_on",
    ),
)
"""Every mmh player action."""

GROUPS: dict[str, str] = {
    "setup": "Set-up: map tiles, your capital, your starting hero",
    "turn": "Your turn: play an action card, end it, trade, sell scrolls, level up",
    "capital": "Build and Recruit in your capital",
    "hero": "Activate Hero: move, explore, take control",
    "choice": "Answer a choice: cards to keep, treasure fields, raise dead, rewards",
    "battle": "Battles: cards, attacks, luck, damage, retreat",
}
"""The subcommand groups of ``/mmh`` and their descriptions."""

GROUP_DESCRIPTIONS: dict[tuple[str, ...], str] = {
    (TOP,): TOP_DESCRIPTION,
    **{(TOP, name): text for name, text in GROUPS.items()},
}
"""The descriptions of ``/mmh`` and its subcommand groups, by path."""

ORDER_KINDS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "attack": ("Attacks", (("ask", "ask"), ("weakest", "weakest"), ("strongest", "strongest"))),
    "cards": ("Cards", (("ask", "ask"), ("pass windows", "windows"), ("never use", "never"))),
    "retreat": ("Retreat", (("ask", "ask"), ("never", "never"))),
    "assign": ("Damage", (("ask", "ask"), ("cheapest", "cheapest"))),
    "luck": ("Luck markers", (("ask", "ask"), ("never", "never"))),
    "angel": ("Guardian Angel", (("ask", "ask"), ("always call", "always"))),
}
"""Standing orders: kind -> (title, (choice label, value)...). ``ask`` clears the order
(what each does: `bot.mmh.adapter.order_command`)."""

ORDERS_SPEC = orders_spec(
    (TOP, "battle", "orders"),
    "Standing orders: battle decisions answered for you",
    ORDER_KINDS,
    RULESET,
    option_text="{title}",
)
_NUMBERS = re.compile(r"\d+")


# ------------------------------------------------------------------ reading values
def _key(text: str) -> str:
    return text.strip().lower().replace("-", " ").replace("_", " ")


def hero_id(text: str) -> str:
    """A hero id from a name or id. :raises BadOption: for no hero."""
    key = _key(text)
    for hero in load_content().heroes:
        if key in (_key(hero.id), _key(hero.name)):
            return hero.id
    raise BadOption(f"{text.strip()!r} is not a hero; heroes have names like Sandor or Anastasya.")


def creature_ref(text: str) -> tuple[str, bool]:
    """``(creature id, elite)`` from ``ghoul``, ``ghoul+`` or a side's name.

    :raises BadOption: for no creature.
    """
    raw = text.strip()
    elite = raw.endswith("+")
    key = _key(raw.rstrip("+"))
    for creature in load_content().creatures:
        if key == _key(creature.id) or key == _key(creature.basic.name):
            return creature.id, elite
        if key == _key(creature.elite.name):
            return creature.id, True
    raise BadOption(f"{raw!r} is not a creature; e.g. Sentinel, Praetorian, ghoul or ghoul+.")


def card_id(text: str) -> str:
    """A card id (skill, scroll, artefact, treasure) from its name or id.

    :raises BadOption: for no card.
    """
    key = _key(text)
    c = load_content()
    for table in (c.scrolls, c.artefacts, c.skills, c.treasures):
        for card in table:
            if key in (_key(card.id), _key(card.name)):
                return card.id
    raise BadOption(f"{text.strip()!r} is not a card name.")


def building_id(text: str) -> str:
    """A building id (or ``level``) from its name or id. :raises BadOption: otherwise."""
    key = _key(text)
    if key in ("level", "capital", "capital level"):
        return "level"
    for building in load_content().buildings:
        if key in (_key(building.id), _key(building.name)):
            return building.id
    raise BadOption(f"{text.strip()!r} is not a building; e.g. Marketplace, Town Hall or level.")


def _read(request: PlayRequest, kind: FieldKind, raw: Any, option: str) -> Any:
    if kind == "int":
        return read_int(raw, option)
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        return str(raw).strip().lower() in ("true", "yes", "1", "on")
    text = str(raw).strip()
    if kind == "space":
        return text.upper() if text.lower() != "capital" else "capital"
    if kind == "hero":
        return hero_id(text)
    if kind == "creature":
        return creature_ref(text)
    if kind == "building":
        return building_id(text)
    if kind == "card":
        return card_id(text)
    if kind == "ints":
        return tuple(int(n) for n in _NUMBERS.findall(text))
    if kind == "units":
        refs = []
        for part in re.split(r"[,;]+", text):
            if part.strip():
                creature, elite = creature_ref(part)
                refs.append(creature + ("+" if elite else ""))
        return tuple(refs)
    return text.lower()


TABLE: PlayTable[FieldKind] = PlayTable(PLAY, _read, extra=(ORDERS_SPEC,))
"""The mmh play commands, indexed; `PlayTable.build_command` reads their options."""
PLAY_COMMANDS = TABLE.by_path
SPECS = TABLE.specs
build_command = TABLE.build_command


# ------------------------------------------------------------------ suggestions
def _label(
    request: PlayRequest, kind: FieldKind, field_name: str, value: Any
) -> tuple[str, str] | None:
    c = load_content()
    if kind == "hero":
        return (c.hero(value).name, c.hero(value).name)
    if kind == "creature":
        kind_ = c.creature(value)
        return (f"{kind_.basic.name} / {kind_.elite.name}", kind_.id)
    if kind == "card":
        name = c.card_name(value)
        return (name, name)
    if kind == "building":
        if value == "level":
            return ("level (raise the capital)", "level")
        return (c.building(value).name, c.building(value).name)
    if kind in ("ints", "units"):
        text = " ".join(str(v) for v in value)
        return (text, text) if text else None
    if kind == "int" and field_name in ("target", "unit"):
        from engine.mmh.battle import unit_name

        state: Any = request.state
        if state.battle is not None and 0 <= value < len(state.battle.units):
            return (unit_name(state, state.battle.units[value]), str(value))
    return (str(value), str(value))


def _fits(value: Any, kind: FieldKind, given: Any) -> bool:
    """Whether a legal command's field ``value`` is what the player already gave for it
    (an id or a name, any case; ``ghoul+`` names the elite side of ``ghoul``)."""
    if value is None or kind in ("ints", "units"):
        return True
    text = str(given).strip().lower()
    if kind == "bool":
        return str(value).lower() == text
    names = {str(value).lower()}
    c = load_content()
    try:
        if kind == "hero":
            names.add(c.hero(value).name.lower())
        elif kind == "creature":
            creature = c.creature(value)
            names |= {creature.basic.name.lower(), creature.elite.name.lower()}
            text = text.rstrip("+")
        elif kind == "card":
            names.add(c.card_name(value).lower())
        elif kind == "building" and value != "level":
            names.add(c.building(value).name.lower())
    except KeyError:
        return True
    return text in names


def suggest(
    path: tuple[str, ...], request: PlayRequest, option: str, current: str, given: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """Autocomplete for ``option``: values of the seat's legal commands of that type that
    fit the options already given (e.g. only cards of the chosen discard pile; all of them
    when none fits what was typed), at most 25 ``(name, value)`` pairs."""
    play = PLAY_COMMANDS.get(path)
    key = TABLE.field_of(play, option) if play is not None else None
    if play is None or key is None:
        return []
    field_name, kind = play.fields[key]
    others = [
        (play.fields[name], value)
        for name, value in ((k.replace("_", "-"), v) for k, v in given.items())
        if name != key and name in play.fields and value is not None and value != ""
    ]
    commands = [cmd for cmd in request.legal if cmd.type == play.command_type]
    fitting = [
        cmd for cmd in commands if all(_fits(getattr(cmd, f, None), k, v) for (f, k), v in others)
    ]
    pairs = TABLE.legal_pairs(
        play,
        field_name,
        fitting or commands,
        lambda value: _label(request, kind, field_name, value),
    )
    return filter_pairs(pairs, current)


def slash_for(command: Command) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The slash command and options that build ``command`` (the inverse of `build_command`),
    e.g. ``(("mmh", "hero", "move"), {"to": "C7"})``.

    :raises KeyError: for a command type players never issue.
    """
    return TABLE.slash_for(command, _write)


def _write(command: Command, option: str, kind: FieldKind, value: Any) -> Any:
    if kind == "creature":
        elite = getattr(command, "elite", False)
        return value + ("+" if elite and "elite" not in TABLE.by_type[command.type].fields else "")
    if kind == "ints":
        return " ".join(str(v) for v in value)
    if kind == "units":
        return ", ".join(value)
    return value
