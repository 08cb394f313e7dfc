"""Card lookups and zone moves: drawing, discarding, reshuffling, finding a card's zone.

Rule sections: homm4:setup (draw deck and discard pile), homm4:game-process (reshuffling:
"when the cards in your deck run out, you shuffle the cards from the Discard Pile").
Every function mutates the working state it is given (`Ruleset.apply` passes a copy) and
returns the events it caused.
"""

from __future__ import annotations

from typing import TypeVar

from engine.core.errors import IllegalMove
from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.homm4.cards import (
    ArtifactCard,
    Card,
    CardPool,
    HeroCard,
    ObjectCard,
    SkillCard,
    SpellCard,
    TownCard,
    UnitCard,
    load_card_pool,
)
from engine.homm4.hexes import Hex, distance
from engine.homm4.state import Army, Homm4State, Site

C = TypeVar("C", bound=Card)


def pool() -> CardPool:
    """The shipped card pool (cached).

    Rule: homm4:card-types.
    """
    return load_card_pool()


def card(state: Homm4State, instance: int) -> Card:
    """Return the pool card of ``instance``. :raises IllegalMove: for an unknown number.

    Rule: homm4:card-types.
    """
    if not 0 <= instance < len(state.card_defs):
        raise IllegalMove(f"There is no card #{instance} in this game.")
    return pool().get(state.card_defs[instance])


def card_as(state: Homm4State, instance: int, kind: type[C]) -> C | None:
    """Return the pool card of ``instance`` if it is a ``kind`` (e.g. `UnitCard`), else None.

    Rule: homm4:card-types.
    """
    found = card(state, instance)
    return found if isinstance(found, kind) else None


def name(state: Homm4State, instance: int) -> str:
    """Return ``"Orc #17"``: the card's name and instance number (only for face-up cards).

    Rule: homm4:card-types.
    """
    return f"{card(state, instance).name} #{instance}"


def is_hero(state: Homm4State, instance: int) -> bool:
    """Whether ``instance`` is a Hero card.

    Rule: homm4:card-types.
    """
    return isinstance(card(state, instance), HeroCard)


def is_unit(state: Homm4State, instance: int) -> bool:
    """Whether ``instance`` is a Unit card.

    Rule: homm4:card-types.
    """
    return isinstance(card(state, instance), UnitCard)


__all__ = [
    "ArtifactCard",
    "HeroCard",
    "ObjectCard",
    "SkillCard",
    "SpellCard",
    "TownCard",
    "UnitCard",
]


# ------------------------------------------------------------------ drawing
def reshuffle(state: Homm4State, seat: int) -> list[Event]:
    """Shuffle ``seat``'s discard pile to form its new draw deck (deck must be empty).

    Rule: homm4:setup.
    """
    player = state.players_state[seat]
    if player.deck or not player.discard:
        return []
    player.deck = player.discard
    player.discard = []
    state.rng.shuffle(player.deck)
    return [
        Event(
            kind="shuffle",
            text=f"{seat_name(seat)} shuffles the discard pile ({plural(len(player.deck), 'card')}) into a new draw deck.",
            data={"seat": seat, "zone": "deck", "size": len(player.deck)},
        )
    ]


def take_top(state: Homm4State, seat: int) -> tuple[int | None, list[Event]]:
    """Remove and return the top card of ``seat``'s deck, reshuffling first if it is empty.

    :returns: ``(instance or None when deck and discard are both empty, events)``.
    Rule: homm4:setup.
    """
    events = reshuffle(state, seat)
    player = state.players_state[seat]
    if not player.deck:
        return None, events
    return player.deck.pop(0), events


def draw(state: Homm4State, seat: int, count: int, reason: str) -> list[Event]:
    """Draw ``count`` cards into ``seat``'s Hand (fewer if deck and discard run out).

    The public line gives the number drawn; the private line names the cards.

    Rule: homm4:setup.
    """
    events: list[Event] = []
    drawn: list[int] = []
    for _ in range(count):
        top, shuffled = take_top(state, seat)
        events.extend(shuffled)
        if top is None:
            break
        drawn.append(top)
    state.players_state[seat].hand.extend(drawn)
    if count:
        names = ", ".join(name(state, c) for c in drawn) or "nothing"
        events.append(
            Event(
                kind="draw",
                text=f"{seat_name(seat)} draws {len(drawn)} card{'s' if len(drawn) != 1 else ''} ({reason}).",
                data={"seat": seat, "count": len(drawn), "reason": reason},
                private={seat: f"You draw {names}."},
                private_data={seat: {"cards": drawn}},
            )
        )
    return events


def to_discard(state: Homm4State, instance: int) -> None:
    """Put ``instance`` on its owner's discard pile (it must already be out of every zone).

    Rule: homm4:setup.
    """
    state.players_state[state.card_owner[instance]].discard.append(instance)


def take_from_hand_or_risk(state: Homm4State, seat: int, instance: int) -> str:
    """Remove ``instance`` from ``seat``'s Hand or Risk Stack; return ``"hand"`` or ``"risk"``.

    :raises IllegalMove: if the card is in neither (the message does not reveal where it is).
    Rule: homm4:start-of-the-game.
    """
    player = state.players_state[seat]
    if instance in player.hand:
        player.hand.remove(instance)
        return "hand"
    if instance in player.risk:
        player.risk.remove(instance)
        return "risk"
    raise IllegalMove(f"Card #{instance} is not in your Hand or Risk Stack.")


def in_hand_or_risk(state: Homm4State, seat: int, instance: int) -> bool:
    """Whether ``instance`` is in ``seat``'s Hand or Risk Stack.

    Rule: homm4:start-of-the-game.
    """
    player = state.players_state[seat]
    return instance in player.hand or instance in player.risk


# ------------------------------------------------------------- board lookups
def army(state: Homm4State, army_id: int) -> Army:
    """Return the Army ``army_id``. :raises IllegalMove: if there is none.

    Rule: homm4:movement-phase.managing-armies.
    """
    for candidate in state.armies:
        if candidate.id == army_id:
            return candidate
    raise IllegalMove(f"There is no army {army_id} on the board.")


def armies_of(state: Homm4State, seat: int) -> list[Army]:
    """Return ``seat``'s Armies, by id.

    Rule: homm4:movement-phase.managing-armies.
    """
    return [a for a in state.armies if a.owner == seat]


def armies_at(state: Homm4State, where: Hex) -> list[Army]:
    """Return every Army on hex ``where``.

    Rule: homm4:movement-phase.managing-armies.
    """
    return [a for a in state.armies if a.hex == where]


def site_at(state: Homm4State, where: Hex) -> Site | None:
    """Return the site on hex ``where``, if any.

    Rule: homm4:movement-phase.scouting-terrain.
    """
    return next((s for s in state.sites if s.hex == where), None)


def object_user(site: Site) -> int | None:
    """Return the seat that enjoys an Object site's bonus: the seat it is "sold" to under
    Resource Trading, else its controller (homm4:advanced-rules.resource-trading)."""
    return site.sold_to if site.sold_to is not None else site.owner


def towns_of(state: Homm4State, seat: int) -> list[Site]:
    """Return the Towns ``seat`` controls.

    Rule: homm4:income-phase.town-income.
    """
    return [s for s in state.sites if s.kind == "town" and s.owner == seat]


def nearest_town(state: Homm4State, seat: int, origin: Hex) -> Site | None:
    """Return ``seat``'s Town nearest to ``origin`` by hex distance (ties: lowest site id).

    Used by Hero Retreat and Surrender (homm4:battles.hero-retreat, homm4:battles.surrender).
    """
    towns = towns_of(state, seat)
    if not towns:
        return None
    return min(towns, key=lambda s: (distance(s.hex, origin), s.id))


def hero_in(state: Homm4State, cards: list[int]) -> list[int]:
    """Return the Hero instances among ``cards``, in order.

    Rule: homm4:heroes-levels-skills-and-spells.heroes-in-battle.
    """
    return [c for c in cards if is_hero(state, c)]


def find_hero_army(state: Homm4State, hero: int) -> Army | None:
    """Return the Army that carries Hero ``hero``, if any.

    Rule: homm4:movement-phase.managing-armies.
    """
    return next((a for a in state.armies if hero in a.cards), None)
