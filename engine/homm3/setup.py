"""Setting up a homm3 game: heroes and factions, the starting decks, the shared decks, the
first player, and the Skirmish templates or the Adventure's starting Town.

Rule sections: homm3bf:battlefield-setup (and .adventure-mode, .skirmish-mode,
.morale-deck), homm3bf:skirmish-mode.large / .medium / .short, homm3bf:adventure-mode.
Core facts: the starting deck of 9 (the Hero's Attack / Defense / Power / Knowledge cards,
1 Magic Arrow for a Might Hero or 2 for a Magic Hero, the Hero's Ability card and the Level
I Specialty card); each shared deck starts a face-up discard pile with its top card.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import InvalidInput
from engine.core.model import Event, seat_name
from engine.core.rng import Rng
from engine.homm3 import adventure, combat_flow, effects, zones
from engine.homm3.content import load_content
from engine.homm3.effects import RESOURCE_FACES, push, resource_label
from engine.homm3.map_content import load_map
from engine.homm3.options import Homm3Options
from engine.homm3.rules import who
from engine.homm3.state import ArmyUnit, Homm3State, Player, Resources

PLAYERS = 2
"""Adventure and Skirmish are 1 vs 1 (homm3bf:adventure-mode)."""

MAP_PLAYERS = (2, 3)
"""The map game's seat counts over every scenario: one player a faction, and the content
has the core game's three (Castle, Necropolis, Dungeon); a fourth player needs a faction
of an expansion (homm3core:setup). A scenario may allow fewer (`seat_range`)."""


def seat_range(options: Homm3Options) -> tuple[int, int]:
    """The fewest and most seats with ``options``: 2 and 2 for Skirmish and Adventure
    (homm3bf:adventure-mode, homm3bf:skirmish-mode: "1 vs. 1"); in a map game the player
    counts of its scenario (Border Clash: 2 and 3; homm3core:scenarios). An unknown
    scenario gives the map game's whole range (`new_game` names the scenarios).

    Rule: homm3bf:adventure-mode, homm3core:scenarios"""
    if options.mode != "map":
        return PLAYERS, PLAYERS
    scenario = load_map().scenarios.get(options.scenario)
    counts = scenario.players if scenario is not None else MAP_PLAYERS
    return min(counts), max(counts)


@dataclass(frozen=True)
class Template:
    """A Skirmish template (homm3bf:skirmish-mode.short / .medium / .large)."""

    level: int
    specialty: int
    ability: tuple[int, int]
    artifact: tuple[int, int]
    spells: tuple[int, int]
    tiers: tuple[str, ...]
    pack: bool


TEMPLATES: dict[str, Template] = {
    "short": Template(3, 1, (3, 1), (2, 1), (1, 2), ("bronze", "silver"), False),
    "medium": Template(5, 2, (4, 1), (3, 1), (2, 4), ("bronze", "silver"), True),
    "large": Template(7, 3, (6, 2), (4, 1), (3, 5), ("bronze", "silver", "gold"), True),
}
"""The Skirmish templates (homm3bf:skirmish-mode.short / .medium / .large): Hero Level,
Specialty cards (I; I and IV; all), (draw, Remove) Ability and Artifact cards, Spells drawn
for a (Might, Magic) Hero, the unit tiers used and whether they are Packs."""

START_RESOURCES = Resources(gold=15, materials=3, valuables=1)
START_INCOME = Resources(gold=10)


def _heroes(
    options: Homm3Options, rng: Rng, players: int = PLAYERS
) -> tuple[list[str], list[Event]]:
    content = load_content()
    if options.heroes:
        if len(options.heroes) != players:
            raise InvalidInput(
                f"Give one hero per seat ({players}), or none to deal them at random."
            )
        for hero in options.heroes:
            if hero not in content.heroes:
                raise InvalidInput(
                    f"Unknown hero {hero!r}; heroes: {', '.join(sorted(content.heroes))}."
                )
        if len(set(options.heroes)) != players:
            raise InvalidInput("The seats need different heroes.")
        factions_named = {content.heroes[h].faction for h in options.heroes}
        if options.mode == "map" and len(factions_named) != players:
            raise InvalidInput("In a map game the seats need heroes of different factions.")
        return list(options.heroes), []
    factions = sorted(content.factions)
    rng.shuffle(factions)
    picks = []
    for faction in factions[:players]:
        heroes = sorted(h.id for h in content.heroes_of(faction))
        picks.append(heroes[rng.below(len(heroes))])
    return picks, [
        Event(
            kind="shuffle", text="Factions and heroes are dealt at random.", data={"what": "heroes"}
        )
    ]


def _starting_deck(state: Homm3State, player: Player) -> None:
    hero = load_content().heroes[player.hero]
    ids = (
        ["attack"] * hero.attack
        + ["defense"] * hero.defense
        + ["power"] * hero.power
        + ["knowledge"] * hero.knowledge
        + ["magic_arrow"] * (1 if hero.type == "might" else 2)
        + [hero.ability, hero.specialty[0]]
    )
    player.deck = [zones.new_instance(state, card) for card in ids]


def _shared_decks(state: Homm3State, siege: bool) -> list[Event]:
    """The Ability, Artifact and Spell decks (each starting its discard pile), the Morale
    decks and the Adventure deck. A Skirmish leaves out the cards of no Combat use; a
    Combat that is no Siege leaves out the Siege-only cards (Ballista)."""
    content = load_content()
    events: list[Event] = []
    for deck in ("ability", "artifact", "spell"):
        ids = [
            c
            for c in content.decks[deck]
            if (state.mode == "adventure" or content.cards[c].adventure != "aside")
            and (siege or not content.cards[c].siege)
        ]
        pile = [zones.new_instance(state, c) for c in ids]
        events.append(zones.shuffle(state, pile, f"The {deck.capitalize()} deck"))
        setattr(state, f"{deck}_deck", pile)
        events += zones.refill(state, deck)
    # homm3turn:morale-cards-battlefield: a map game leaves out the Battlefield-symbol cards.
    regular = state.mode == "map"
    state.positive_deck = [
        zones.new_instance(state, c)
        for c, card in content.positive.items()
        if not (regular and card.battlefield)
    ]
    events.append(zones.shuffle(state, state.positive_deck, "The Positive Morale deck"))
    state.negative_deck = [
        zones.new_instance(state, c)
        for c, card in content.negative.items()
        if not (regular and card.battlefield)
    ]
    events.append(zones.shuffle(state, state.negative_deck, "The Negative Morale deck"))
    if state.mode == "adventure":
        counts = [(e.id, e.copies) for e in content.events.values()]
        counts += [(k.id, k.copies) for k in content.combats.values()]
        pile = [zones.new_instance(state, card) for card, copies in counts for _ in range(copies)]
        events.append(zones.shuffle(state, pile, "The Adventure deck"))
        state.adventure_deck = pile
    return events


def _first_player(state: Homm3State) -> list[Event]:
    events: list[Event] = []
    while True:
        totals = []
        for seat in range(PLAYERS):
            total = 0
            for _ in range(2):
                face, event = effects.roll_resource(state, seat, "first_player")
                events.append(event)
                total += RESOURCE_FACES[face - 1][1]
            totals.append(total)
        if totals[0] != totals[1]:
            break
        events.append(Event(kind="tie", text=f"Both roll {totals[0]}: roll again.", data={}))
    state.first = 0 if totals[0] > totals[1] else 1
    events.append(
        Event(
            kind="first_player",
            text=f"{seat_name(state.first)} rolls highest ({max(totals)} against {min(totals)}) and is the first player, "
            "holding the Initiative token.",
            data={"first": state.first, "totals": totals},
        )
    )
    return events


def deal_heroes(options: Homm3Options, rng: Rng, players: int) -> tuple[list[str], list[Event]]:
    """One hero per seat, of different factions: the named ones or dealt at random.

    :raises InvalidInput: for a wrong count, unknown heroes or a faction twice.
    Rule: homm3core:setup"""
    return _heroes(options, rng, players)


def starting_deck(state: Homm3State, player: Player) -> None:
    """Give ``player`` the starting deck of its hero (homm3core:setup).

    Rule: homm3core:setup"""
    _starting_deck(state, player)


def shared_decks(state: Homm3State, *, siege: bool) -> list[Event]:
    """Shuffle the shared and Morale decks (homm3core:setup).

    Rule: homm3core:setup, homm3turn:morale-cards-battlefield"""
    return _shared_decks(state, siege)


def new_game(options: Homm3Options, players: int, seed: int) -> tuple[Homm3State, list[Event]]:
    """Create a game (homm3bf:battlefield-setup): heroes, decks, first player, then the
    Skirmish deck preparation or the Adventure's Round 1.

    :raises InvalidInput: for a seat count other than 2 or unknown heroes.
    """
    if players != PLAYERS:
        raise InvalidInput(
            f"Adventure and Skirmish are played by exactly {PLAYERS} players, not {players}."
        )
    rng = Rng(seed=seed)
    heroes, events = _heroes(options, rng)
    content = load_content()
    state = Homm3State(
        players=players,
        seed=seed,
        rng=rng,
        mode=options.mode,
        template=options.size,
        rounds=adventure.ROUNDS[options.size] if options.mode == "adventure" else 0,
    )
    for seat, hero in enumerate(heroes):
        player = Player(seat=seat, faction=content.heroes[hero].faction, hero=hero)
        state.seats.append(player)
        _starting_deck(state, player)
        events.append(
            Event(
                kind="hero",
                text=f"{who(state, seat)} plays {content.factions[player.faction].name}.",
                data={"seat": seat, "hero": hero, "faction": player.faction},
            )
        )
    events += _shared_decks(state, options.siege)
    events += _first_player(state)
    if options.siege:
        state.siege = 1 - state.first
    if options.mode == "skirmish":
        events += _skirmish(state)
    else:
        events += _adventure(state)
    return state, events


def _skirmish(state: Homm3State) -> list[Event]:
    template = TEMPLATES[state.template]
    content = load_content()
    events = [
        Event(
            kind="skirmish",
            text=f"Skirmish, {state.template} template.",
            data={"template": state.template},
        )
    ]
    for player in state.seats:
        hero = content.heroes[player.hero]
        player.level = template.level
        for index in range(1, template.specialty):
            player.deck.append(zones.new_instance(state, hero.specialty[index]))
        ability, artifact = template.ability, template.artifact
        spells = template.spells[0 if hero.type == "might" else 1]
        push(
            state,
            player.seat,
            [
                {
                    "step": "setup_pick",
                    "deck": "ability",
                    "amount": ability[0],
                    "remove": ability[1],
                },
                {
                    "step": "setup_pick",
                    "deck": "artifact",
                    "amount": artifact[0],
                    "remove": artifact[1],
                },
                {"step": "setup_pick", "deck": "spell", "amount": spells, "remove": 0},
            ],
        )
        for unit in content.faction_units(player.faction):
            if unit.tier in template.tiers:
                player.army.append(ArmyUnit(unit=unit.id, pack=template.pack))
        events.append(
            Event(
                kind="skirmish_hero",
                text=f"{who(state, player.seat)} is Level {player.level} with "
                + ", ".join(
                    f"{'Pack' if u.pack else 'Few'} of {content.units[u.unit].name}"
                    for u in player.army
                )
                + ".",
                data={"seat": player.seat},
            )
        )
    return events + effects.run(state)


def finish_skirmish(state: Homm3State) -> list[Event]:
    """When both decks are ready: shuffle them and begin the final Combat.

    Rule: homm3bf:skirmish-mode, homm3bf:battlefield-combat"""
    return combat_flow.begin(state)


def _adventure(state: Homm3State) -> list[Event]:
    for player in state.seats:
        player.resources = START_RESOURCES.model_copy()
        player.income = START_INCOME.model_copy()
    return adventure.start(state)


__all__ = ["new_game", "resource_label"]
