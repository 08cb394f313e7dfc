"""Army Stack helpers: stack order, Movement Points, Sight Radius, new Army tokens.

Rule sections: homm4:movement-phase.managing-armies (a Hero on top, else the Unit with the
highest Movement), homm4:movement-phase.movement-points-and-terrain (the top card's
Movement), homm4:movement-phase.scouting-terrain (Sight Radius 1 plus skills).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.homm4 import heroes, zones
from engine.homm4.cards import EffectKind, HeroCard, ObjectCard, UnitCard
from engine.homm4.hexes import Hex
from engine.homm4.state import Army, Homm4State

MAX_ARMIES = 4
"""Each player may control no more than 4 Armies at a time (homm4:movement-phase.managing-armies)."""


def stack_order(state: Homm4State, cards: Sequence[int]) -> list[int]:
    """Return ``cards`` in Army Stack order: Heroes on top (in their order), else the Unit
    with the highest Movement first (ties: the earlier card); the rest keep their order.

    Rule: homm4:movement-phase.managing-armies.
    """
    ordered = list(cards)
    heroes_first = [c for c in ordered if zones.is_hero(state, c)]
    if heroes_first:
        return heroes_first + [c for c in ordered if c not in heroes_first]
    if not ordered:
        return ordered
    best = max(range(len(ordered)), key=lambda i: (_movement(state, ordered[i]), -i))
    return [ordered[best], *ordered[:best], *ordered[best + 1 :]]


def _movement(state: Homm4State, instance: int) -> int:
    found = zones.card(state, instance)
    if isinstance(found, HeroCard | UnitCard):
        return found.movement
    return 0


def full_mp2(state: Homm4State, army: Army) -> int:
    """Return the Army's Movement Points for a whole turn, in half points.

    The top card's Movement, plus the ``movement`` effects of the Hero on top and of the
    owner's Objects when a Hero leads (homm4:movement-phase.movement-points-and-terrain).
    """
    if not army.cards:
        return 0
    points = _movement(state, army.cards[0]) + heroes.army_movement_bonus(state, army.cards)
    if zones.is_hero(state, army.cards[0]):
        points += object_effect(state, army.owner, EffectKind.MOVEMENT)
    return 2 * max(points, 0)


def object_effect(state: Homm4State, seat: int, kind: EffectKind) -> int:
    """Return the total ``kind`` effect of the Objects ``seat`` controls (e.g. Stables:
    every Army led by one of your Heroes +1 Movement Point; Watchtower: every Army with
    one of your Heroes +1 Sight Radius).
    Rule: homm4:card-types.object-cards.
    """
    total = 0
    for site in state.sites:
        if site.kind == "object" and zones.object_user(site) == seat and site.card is not None:
            found = zones.card_as(state, site.card, ObjectCard)
            if found is not None:
                total += sum(e.value for e in found.effects if e.kind is kind)
    return total


def army_heroes(state: Homm4State, army: Army) -> list[int]:
    """Return the Hero instances in ``army``, top first.

    Rule: homm4:movement-phase.managing-armies.
    """
    return [c for c in army.cards if zones.is_hero(state, c)]


def sight_radius(state: Homm4State, army: Army) -> int:
    """Return the Army's Sight Radius: 1, plus the best ``sight`` effect of its Heroes and
    the owner's Objects' ``sight`` when it has a Hero, plus this turn's adventure-spell
    bonus (homm4:movement-phase.scouting-terrain)."""
    best = heroes.army_sight_bonus(state, army.cards)
    if army_heroes(state, army):
        best += object_effect(state, army.owner, EffectKind.SIGHT)
    return 1 + max(best, 0) + army.sight_bonus


def new_army(state: Homm4State, seat: int, where: Hex, cards: Sequence[int], mp2: int = 0) -> Army:
    """Create and add an Army for ``seat`` on ``where`` with a fresh token and id.

    Army tokens are numbered across the whole game, like the box's numbered tokens, so the
    token number is the army id that commands take. ``cards`` are put in stack order. The
    caller has already removed them from their zone.

    Rule: homm4:movement-phase.managing-armies.
    """
    created = Army(
        id=state.next_army_id,
        owner=seat,
        token=state.next_army_id,
        hex=where,
        cards=stack_order(state, cards),
        mp2=mp2,
    )
    state.next_army_id += 1
    state.armies.append(created)
    return created


def remove_army(state: Homm4State, army_id: int) -> None:
    """Take the Army ``army_id`` off the board (its cards must have been moved away).

    Rule: homm4:movement-phase.managing-armies.
    """
    state.armies = [a for a in state.armies if a.id != army_id]


def army_label(army: Army) -> str:
    """Return the public name of an Army token (``"Army 2"``: the number commands take).

    Rule: homm4:army-and-object-town-tokens.
    """
    return f"Army {army.token}"
