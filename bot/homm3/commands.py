"""The homm3 command table: every player action as ``/homm3 <group> <command>``, how its
options become an engine command, and where autocomplete suggestions come from.

Rule sections: homm3bf:adventure-mode.round-structure (``adventure``), homm3turn:build-token /
population-token / spell-book-token (``adventure build|muster|spell``), homm3bf:battlefield-
combat.place-obstacles / .place-units (``combat obstacle|deploy``), homm3bf:...unit-movement,
.ranged-units, .initiative-token (``combat activate|move|attack``), homm3bf:...siege
(``combat wall``), homm3bf:...the-deck-of-might-and-magic (``card play``), homm3turn:
spending-positive-morale (``card morale``), every choice (``choice pick``); the map game
(``mode: map``): homm3turn:what-1-mp-buys (``map move|discover|place|revisit``),
homm3turn:refresh-your-hand (``map refresh``), homm3turn:population-token (``map hire``);
its Town actions are the ``adventure`` ones, its turn ends with ``adventure end``.

Values a player types: cards as ``#17`` or by name among the player's own cards
(``Magic Arrow``; lists: ``#17 #20`` or ``Defense, Defense``), battlefield units by number
(``3``, lists ``3 5``), hexes like ``G5`` (lists ``G5 G6``), army units by name
(``Halberdiers, Marksmen``), buildings by name or id, map Fields as ``q,r`` (``4,1``), map
tile positions as ``a,b`` (``1,0``), heroes as ``main`` or ``secondary``. Autocomplete suggests values from
`Ruleset.legal_commands` (at most 25); the engine checks every command again.
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
    int_option,
    orders_spec,
    play_spec,
    read_int,
)
from engine.core.model import Command
from engine.homm3.content import load_content
from engine.homm3.decisions import CHOICE_KINDS

RULESET = "homm3"
TOP = "homm3"
TOP_DESCRIPTION = "Play Heroes III: Adventure rounds or the map, Town, the hex Combat"

FieldKind = Literal[
    "int",
    "card",
    "cards",
    "numbers",
    "hex",
    "hexes",
    "units",
    "building",
    "text",
    "option",
    "pos",
    "hero",
    "ordinal",
]
"""How an option's text is read (``ordinal``: a choice's option counted from 1 as the
buttons, menus and /hand number them; the engine's `Choose` counts from 0)."""

_spec = partial(play_spec, RULESET)
_auto = auto_option
_int = int_option


CHOICES = tuple(f"choose_{kind}" for kind in CHOICE_KINDS)
"""Every choice decision kind the engine sets (answered by ``/homm3 choice pick``)."""

ACTIVATION = ("activation",)
WINDOW = ("attack_window",)
CARD_WINDOWS = ("spell_reaction", "combat_start", "resurrection_window")
"""One-card answers: Resistance to an enemy Spell, the Combat's start, Resurrection."""
TURN = ("adventure_turn",)
MAP_TURN = ("map_turn",)
TOWN = ("adventure_turn", "town_reaction", "map_turn")
"""Town actions: on your Adventure or map turn and before a Combat is set up
(homm3turn:reacting-to-combat)."""


def _fill_source(request: PlayRequest, command: dict[str, Any]) -> None:
    if "source" not in command:
        sources = [getattr(c, "source", None) for c in request.legal if c.type == "redraw"]
        if sources:
            command["source"] = sources[0]


_HERO = "main or secondary"
_TILE = "e.g. 1,0"
_TURN = "rotation 0-5"

PLAY: tuple[PlayCommand[FieldKind], ...] = (
    PlayCommand(
        _spec(
            "choice",
            "pick",
            "Answer your open choice (a Search, dice, a card...)",
            [
                _int(
                    "option",
                    "the option's number, from 1 (autocomplete lists them)",
                    1,
                    100,
                    required=True,
                    auto=True,
                )
            ],
            CHOICES,
        ),
        "choose",
        {"option": ("option", "ordinal")},
    ),
    PlayCommand(
        _spec(
            "adventure",
            "redraw",
            "Swap drawn Adventure cards with a Movement card",
            [
                _auto("cards", "drawn cards, e.g. #140 #141", required=True),
                _auto("source", "Movement card, e.g. #33 (0: City Hall)"),
            ],
            ("choose_adventure_keep",),
        ),
        "redraw",
        {"cards": ("cards", "cards"), "source": ("source", "card")},
        fill=_fill_source,
    ),
    PlayCommand(
        _spec(
            "adventure",
            "resolve",
            "Resolve an Adventure-Event card (one a round)",
            [_auto("card", "e.g. #143", required=True)],
            TURN,
        ),
        "resolve",
        {"card": ("card", "card")},
    ),
    PlayCommand(
        _spec(
            "adventure",
            "fight",
            "Fight an Adventure-Combat card with 2 of your units",
            [
                _auto("card", "e.g. #143", required=True),
                _int("level", "Combat Power level 1-3", 1, 3, required=True),
                _auto("units", "2 units, e.g. Halberdiers, Marksmen", required=True),
            ],
            TURN,
        ),
        "fight",
        {"card": ("card", "card"), "level": ("level", "int"), "units": ("units", "units")},
    ),
    PlayCommand(
        _spec(
            "adventure",
            "build",
            "Spend your Build Token on a building",
            [_auto("building", "e.g. Towers or dwelling_bronze", required=True)],
            TOWN,
        ),
        "build",
        {"building": ("building", "building")},
    ),
    PlayCommand(
        _spec(
            "adventure",
            "muster",
            "Spend your Population Token: recruit and reinforce units",
            [
                _auto("recruit", "e.g. Halberdiers, Griffins"),
                _auto("reinforce", "Few to Pack, e.g. Marksmen"),
                _auto("discount", "discount cards, e.g. #40"),
            ],
            TOWN,
        ),
        "muster",
        {
            "recruit": ("recruit", "units"),
            "reinforce": ("reinforce", "units"),
            "discount": ("discount", "cards"),
        },
    ),
    PlayCommand(
        _spec(
            "adventure",
            "spell",
            "Spell Book Token: buy a Spell (Mage Guild)",
            [_auto("wisdom", "a Wisdom card, e.g. #33")],
            TOWN,
        ),
        "buy_spell",
        {"wisdom": ("wisdom", "card")},
    ),
    PlayCommand(
        _spec(
            "adventure",
            "blacksmith",
            "Blacksmith: 6 Gold, Search(2) Artifacts",
            [],
            TURN,
        ),
        "blacksmith",
    ),
    PlayCommand(
        _spec(
            "adventure",
            "use",
            "Use a set-aside card once (Gold, Experience...)",
            [
                _auto("card", "a set-aside card, e.g. #33", required=True),
                _int("option", "0 basic/top, 1 Expert/bottom", 0, 1),
            ],
            TURN,
        ),
        "use_aside",
        {"card": ("card", "card"), "option": ("option", "int")},
    ),
    PlayCommand(
        _spec(
            "adventure", "end", "End your turn (keep at most 1 Adventure card)", [], TURN + MAP_TURN
        ),
        "end_turn",
    ),
    PlayCommand(
        _spec(
            "adventure",
            "start-combat",
            "No (more) Town actions: let the Combat start",
            [],
            ("town_reaction",),
        ),
        "start_combat",
    ),
    PlayCommand(
        _spec(
            "map",
            "refresh",
            "Discard, then draw to your Hand Limit",
            [_auto("discard", "e.g. #12 #20")],
            ("refresh_hand",),
        ),
        "refresh",
        {"discard": ("discard", "cards")},
    ),
    PlayCommand(
        _spec(
            "map",
            "move",
            "1 MP: move a hero",
            [_auto("field", "e.g. 4,1", required=True), _auto("hero", _HERO)],
            MAP_TURN,
        ),
        "map_move",
        {"field": ("field", "text"), "hero": ("hero", "hero")},
    ),
    PlayCommand(
        _spec(
            "map",
            "discover",
            "1 MP: turn up a tile",
            [_auto("tile", _TILE, required=True), _int("turn", _TURN, 0, 5), _auto("hero", _HERO)],
            MAP_TURN,
        ),
        "discover",
        {"tile": ("pos", "pos"), "turn": ("rotation", "int"), "hero": ("hero", "hero")},
    ),
    PlayCommand(
        _spec(
            "map",
            "place",
            "1 MP: place your Far tile",
            [_auto("tile", _TILE, required=True), _int("turn", _TURN, 0, 5), _auto("hero", _HERO)],
            MAP_TURN,
        ),
        "place_tile",
        {"tile": ("pos", "pos"), "turn": ("rotation", "int"), "hero": ("hero", "hero")},
    ),
    PlayCommand(
        _spec(
            "map",
            "revisit",
            "1 MP: Visit a Field again",
            [_auto("hero", _HERO)],
            MAP_TURN,
        ),
        "revisit",
        {"hero": ("hero", "hero")},
    ),
    PlayCommand(
        _spec(
            "map",
            "hire",
            "10 Gold: a Secondary hero",
            [_auto("field", "Town/Settlement, e.g. 4,1", required=True)],
            MAP_TURN,
        ),
        "hire_hero",
        {"field": ("field", "text")},
    ),
    PlayCommand(
        _spec(
            "combat",
            "obstacle",
            "Place an Obstacle token",
            [
                _int("token", "the token number 1-10", 1, 10, required=True, auto=True),
                _auto("hex", "anchor hex, e.g. F5", required=True),
            ],
            ("place_obstacle",),
        ),
        "place_obstacle",
        {"token": ("token", "int"), "hex": ("hex", "hex")},
    ),
    PlayCommand(
        _spec("combat", "no-obstacle", "Place no Obstacle this time", [], ("place_obstacle",)),
        "pass_obstacles",
    ),
    PlayCommand(
        _spec(
            "combat",
            "deploy",
            "Place a unit in your zone",
            [
                _int("unit", "your unit's number", 1, 99, required=True, auto=True),
                _auto("hex", "a hex of your zone, e.g. A5", required=True),
            ],
            ("deploy",),
        ),
        "deploy",
        {"unit": ("unit", "int"), "hex": ("hex", "hex")},
    ),
    PlayCommand(
        _spec(
            "combat",
            "activate",
            "Choose which of your tied units activates",
            [_int("unit", "the unit's number", 1, 99, required=True, auto=True)],
            ("activate",),
        ),
        "activate",
        {"unit": ("unit", "int")},
    ),
    PlayCommand(
        _spec(
            "combat",
            "move",
            "Move the active unit",
            [_auto("hex", "the hex, e.g. F5", required=True)],
            ACTIVATION,
        ),
        "move",
        {"hex": ("hex", "hex")},
    ),
    PlayCommand(
        _spec(
            "combat",
            "attack",
            "Attack with the active unit",
            [
                _int("target", "the enemy unit's number", 1, 99, required=True, auto=True),
                _auto("hex", "move there first, e.g. F5"),
            ],
            ACTIVATION,
        ),
        "attack",
        {"target": ("target", "int"), "hex": ("hex", "hex")},
    ),
    PlayCommand(
        _spec(
            "combat",
            "wall",
            "Siege: destroy an adjacent Wall or the Gate",
            [
                _auto("hex", "Wall or Gate hex, e.g. G5", required=True),
                _auto("move", "move there first, e.g. F5"),
            ],
            ACTIVATION,
        ),
        "attack_wall",
        {"hex": ("hex", "hex"), "move": ("move", "hex")},
    ),
    PlayCommand(
        _spec(
            "combat", "defend", "The active unit Defends (Defense token) and ends", [], ACTIVATION
        ),
        "defend",
    ),
    PlayCommand(
        _spec("combat", "end", "End the active unit's activation", [], ACTIVATION), "end_activation"
    ),
    PlayCommand(
        _spec(
            "combat",
            "pass",
            "Play no more cards now",
            [],
            WINDOW + CARD_WINDOWS,
        ),
        "pass",
    ),
    PlayCommand(
        _spec(
            "card",
            "play",
            "Play a card of your hand (or your Spell Scroll)",
            [
                _auto("card", "the card, e.g. #17", required=True),
                _int("option", "0 basic/top, 1 Expert/bottom", 0, 2, auto=True),
                _int("unit", "the target unit's number", 1, 99, auto=True),
                _auto("units", "more units, e.g. 3 5"),
                _auto("hex", "a hex, e.g. G5"),
                _auto("hexes", "two hexes (Fireball), e.g. G5 G6"),
                OptionSpec(
                    "stat",
                    "Prayer: which value",
                    choices=(
                        Choice("Attack", "attack"),
                        Choice("Defense", "defense"),
                        Choice("Initiative", "initiative"),
                    ),
                    suggest_choices=True,  # outside Discord's 4,000 characters of /homm3
                ),
                _auto("power", "cards paid as Empower, e.g. #12 #15"),
                _auto("expert-power", "of those, the ones used for their Expert Empower"),
                _auto("discard", "cards discarded as the card's cost, e.g. #20"),
                _auto("take", "a card of your discard pile to take back, e.g. #9"),
                OptionSpec(
                    "school",
                    "Magic Arrow's School",
                    choices=tuple(
                        Choice(s.capitalize(), s) for s in ("air", "earth", "fire", "water")
                    ),
                    suggest_choices=True,
                ),
            ],
            ACTIVATION + WINDOW + CARD_WINDOWS,
        ),
        "play",
        {
            "card": ("card", "card"),
            "option": ("option", "int"),
            "unit": ("unit", "int"),
            "units": ("units", "numbers"),
            "hex": ("hex", "hex"),
            "hexes": ("hexes", "hexes"),
            "stat": ("stat", "text"),
            "power": ("power", "cards"),
            "expert-power": ("power_expert", "cards"),
            "discard": ("discard", "cards"),
            "take": ("take", "card"),
            "school": ("school", "text"),
        },
    ),
    PlayCommand(
        _spec(
            "card",
            "morale",
            "Use a Positive Morale card (or the Positive token)",
            [
                _auto("card", "e.g. #61 (none: the token)"),
                _int("option", "token: 0 draw, 1 cycle", 0, 1),
                _int("unit", "your unit's number", 1, 99, auto=True),
                _auto("discard", "to cycle, e.g. #12 #20"),
            ],
            ACTIVATION + WINDOW + TURN + MAP_TURN,
        ),
        "morale",
        {
            "card": ("card", "card"),
            "option": ("option", "int"),
            "unit": ("unit", "int"),
            "discard": ("discard", "cards"),
        },
    ),
)
"""Every homm3 player action."""

GROUPS: dict[str, str] = {
    "choice": "Answer a choice: a Search, dice to keep, a card to keep or remove",
    "adventure": "Adventure turn: Adventure cards, Town actions, set-aside cards",
    "map": "Map game: heroes, tiles, hiring",
    "combat": "Battlefield: Obstacles, deployment, move, attack, Defend",
    "card": "Play Might & Magic cards and Morale cards",
}
"""The subcommand groups of ``/homm3`` and their descriptions."""

GROUP_DESCRIPTIONS: dict[tuple[str, ...], str] = {
    (TOP,): TOP_DESCRIPTION,
    **{(TOP, name): text for name, text in GROUPS.items()},
}
"""The descriptions of ``/homm3`` and its subcommand groups, by path."""

ORDER_KINDS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "cards": ("Card windows", (("ask me", "ask"), ("always play no more cards", "pass"))),
    "obstacles": ("Obstacle placing", (("ask me", "ask"), ("always place none", "pass"))),
    "deploy": ("Deployment", (("ask me", "ask"), ("deploy automatically", "auto"))),
}
"""Standing orders: kind -> (title, (choice label, value)...). ``ask`` clears the order."""

ORDERS_SPEC = orders_spec(
    (TOP, "combat", "orders"),
    "Standing orders: answer some Combat decisions for you automatically",
    ORDER_KINDS,
    RULESET,
)
_NUMBERS = re.compile(r"\d+")


# ------------------------------------------------------------------ reading values
def unit_id(text: str) -> str:
    """An army unit id from its name or id (``"Dread Knights"`` -> ``dread_knights``).

    :raises BadOption: for a name that is no unit.
    """
    key = text.strip().lower().replace(" ", "_").replace("-", "_")
    units = load_content().units
    if key in units:
        return key
    for unit in units.values():
        if unit.name.lower() == text.strip().lower():
            return unit.id
    raise BadOption(
        f"{text.strip()!r} is not a unit; units have names like Halberdiers or Dread Knights."
    )


def _building(request: PlayRequest, text: str) -> str:
    state: Any = request.state
    key = text.strip().lower().replace(" ", "_")
    faction = load_content().factions[state.player(request.seat).faction]
    for building in faction.building:
        if key in (building.id, building.name.lower().replace(" ", "_")):
            return building.id
    raise BadOption(
        f"{faction.name} has no building {text.strip()!r}; buildings: "
        + ", ".join(b.name for b in faction.building)
        + "."
    )


def _own_cards(request: PlayRequest) -> list[int]:
    """The cards the acting seat may name: those its legal commands name first, then its
    own hand, Spell Scroll, Adventure hand, set-aside cards, Permanent, Morale cards and
    discard pile (never another seat's or a face-down deck's: house rule 6)."""
    state: Any = request.state
    found: list[int] = []
    for cmd in request.legal:
        for field_name in ("card", "power", "discard", "take"):
            value = getattr(cmd, field_name, None)
            values = value if isinstance(value, tuple) else (value,)
            found += [v for v in values if isinstance(v, int) and v not in found]
    player = state.player(request.seat)
    for zone in (
        player.hand,
        player.scroll,
        player.adventure_hand,
        player.aside,
        player.permanent,
        player.positive,
        player.discard,
    ):
        found += [card for card in zone if card not in found]
    return found


def read_card_name(request: PlayRequest, text: str, taken: Sequence[int] = ()) -> int:
    """One of the acting seat's cards by name (any case; a name's start is enough when
    no name is whole), other than the ``taken`` ones: see `_own_cards` for which cards
    and in which order.

    :raises BadOption: when none of the seat's cards is called so.
    """
    state: Any = request.state
    content = load_content()
    wanted = " ".join(text.lower().split())
    own = [
        (card, content.card_name(state.cards[card]).lower())
        for card in _own_cards(request)
        if card not in taken
    ]
    whole = [card for card, name in own if name == wanted]
    chosen = whole or [card for card, name in own if name.startswith(wanted)]
    if chosen:
        return chosen[0]
    raise BadOption(
        f"None of your cards is called {text.strip()!r}; name a card by number (#17) or by "
        "its name (start typing to see yours)."
    )


def _read(request: PlayRequest, kind: FieldKind, raw: Any, option: str) -> Any:
    if kind == "int":
        return read_int(raw, option)
    if kind == "ordinal":
        number = read_int(raw, option)
        if number < 1:
            raise BadOption(f"{option} counts from 1 (the first option is 1), not {raw!r}.")
        return number - 1
    text = str(raw).strip()
    if kind == "card":
        digits = _NUMBERS.findall(text)
        if not digits and text:
            return read_card_name(request, text)
        if len(digits) != 1:
            raise BadOption(f"Name one card by number, e.g. #17, or by name (not {text!r}).")
        return int(digits[0])
    if kind == "cards" and text and not _NUMBERS.search(text):
        chosen: list[int] = []
        for part in re.split(r"[,;]+", text):
            if part.strip():
                chosen.append(read_card_name(request, part, chosen))
        return tuple(chosen)
    if kind in ("cards", "numbers"):
        return tuple(int(n) for n in _NUMBERS.findall(text))
    if kind == "hex":
        return text.upper()
    if kind == "hexes":
        return tuple(h.upper() for h in re.split(r"[\s,;]+", text) if h)
    if kind == "units":
        return tuple(unit_id(u) for u in re.split(r"[,;]+", text) if u.strip())
    if kind == "building":
        return _building(request, text)
    if kind == "pos":
        numbers = re.findall(r"-?\d+", text)
        if len(numbers) != 2:
            raise BadOption(f"Name a tile position as two numbers, e.g. 1,0 (not {text!r}).")
        return (int(numbers[0]), int(numbers[1]))
    if kind == "hero":
        hero = text.lower() or "main"
        if hero not in ("main", "secondary"):
            raise BadOption(f"The hero is main or secondary (not {text!r}).")
        return hero
    return text.lower()


TABLE: PlayTable[FieldKind] = PlayTable(PLAY, _read, extra=(ORDERS_SPEC,))
"""The homm3 play commands, indexed; `PlayTable.build_command` reads their options."""
PLAY_COMMANDS = TABLE.by_path
SPECS = TABLE.specs
require_phase = TABLE.require_phase
build_command = TABLE.build_command


# ------------------------------------------------------------------ suggestions
def _label(request: PlayRequest, kind: FieldKind, value: Any) -> tuple[str, str] | None:
    state: Any = request.state
    content = load_content()
    if kind == "card":
        if not value:
            return ("0: City Hall Movement", "0")
        return (f"#{value} {content.card_name(state.cards[value])}", f"#{value}")
    if kind == "cards":
        if not value:
            return None
        text = " ".join(f"#{v}" for v in value)
        return (text + ": " + ", ".join(content.card_name(state.cards[v]) for v in value), text)
    if kind == "units":
        text = ", ".join(content.units[u].name for u in value)
        return (text, text) if text else None
    if kind == "int":
        return (str(value), str(value))
    if kind == "ordinal":
        return (str(value + 1), str(value + 1))
    if kind == "pos":
        text = f"{value[0]},{value[1]}"
        return (text, text)
    if kind == "numbers":
        text = " ".join(str(v) for v in value)
        return (text, text) if text else None
    if kind == "hexes":
        text = " ".join(value)
        return (text, text) if text else None
    if kind == "building":
        faction = content.factions[state.player(request.seat).faction]
        building = faction.get(value)
        return (f"{building.name} ({building.cost.label()})", value) if building else None
    return (str(value), str(value))


def suggest(
    path: tuple[str, ...], request: PlayRequest, option: str, current: str, given: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """Autocomplete for ``option``: values of the seat's legal commands of that type
    (at most 25 ``(name, value)`` pairs); for ``choice pick`` the numbered options."""
    play = PLAY_COMMANDS.get(path)
    key = TABLE.field_of(play, option) if play is not None else None
    if play is None or key is None:
        return []
    state: Any = request.state
    if play.command_type == "choose":
        choice = state.choice.get(request.seat)
        if choice is None:
            return []
        return fit_choices(
            (f"{i}: {text}", str(i)) for i, text in enumerate(choice.options, start=1)
        )
    field_name, kind = play.fields[key]
    pairs = TABLE.legal_pairs(
        play, field_name, request.legal, lambda value: _label(request, kind, value)
    )
    return filter_pairs(pairs, current)


def slash_for(command: Command) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The slash command and options that build ``command`` (the inverse of
    `build_command`), e.g. ``(("homm3", "combat", "attack"), {"target": 6, "hex": "F5"})``.

    :raises KeyError: for a command type players never issue.
    """
    return TABLE.slash_for(command, _write)


def _write(command: Command, option: str, kind: FieldKind, value: Any) -> Any:
    if kind == "card":
        return f"#{value}"
    if kind == "cards":
        return " ".join(f"#{v}" for v in value)
    if kind == "numbers":
        return " ".join(str(v) for v in value)
    if kind == "hexes":
        return " ".join(value)
    if kind == "units":
        return ", ".join(load_content().units[u].name for u in value)
    if kind == "pos":
        return f"{value[0]},{value[1]}"
    if kind == "ordinal":
        return value + 1
    return value
