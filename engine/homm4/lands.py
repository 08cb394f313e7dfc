"""Terrain under the advanced rules: what a step costs an Army (Flying Armies, Native
Lands, underground entrances), where it may stop, the natives' battle bonus and the
special lands' Mana costs.

Rule sections: homm4:movement-phase.movement-points-and-terrain (base costs),
homm4:advanced-rules.flying-armies, homm4:advanced-rules.native-and-special-lands,
homm4:terrain-map-sections-with-underground.

Costs are in half Movement Points, like `Army.mp2`. Without the advanced rules a step
costs the terrain's legend cost and impassable hexes cannot be entered. With them:

* an Army whose every card flies (Flying Armies) pays 1 MP for every hex, impassable ones
  included except Cave Walls, but may not stop on an impassable hex;
* an Army whose every card is native to a land (Native Lands) pays the natives' cost there
  (Grass and Dirt ½ MP for Life, Swamp 2 MP for Chaos...); flying takes precedence;
* an Army on a found underground entrance steps to the paired entrance for 0 MP.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.homm4 import board, zones
from engine.homm4.cards import HeroCard, SpellCard, UnitCard
from engine.homm4.hexes import Hex, neighbours
from engine.homm4.maps import Terrain
from engine.homm4.state import Army, Homm4State, Site

StepCost = Callable[[Hex, Hex], int | None]
"""(from, to) -> half Movement Points to step from ``from`` into ``to``, or None."""


# ------------------------------------------------------------------ factions
def card_faction(state: Homm4State, instance: int) -> str | None:
    """Return the faction value of a Hero or Unit card, else None.

    Rule: homm4:advanced-rules.native-and-special-lands.
    """
    found = zones.card(state, instance)
    if isinstance(found, HeroCard | UnitCard):
        return found.faction.value
    return None


def is_native(state: Homm4State, instance: int, terrain: Terrain | None) -> bool:
    """Whether ``instance`` is a Unit or Hero native to ``terrain`` (its faction is the
    land's native or special faction; homm4:advanced-rules.native-and-special-lands)."""
    if terrain is None or terrain.native is None:
        return False
    return card_faction(state, instance) == terrain.native.value


# ------------------------------------------------------------------ movement
def army_flies(state: Homm4State, army: Army) -> bool:
    """Whether every card of ``army`` has Flying (homm4:advanced-rules.flying-armies:
    a Hero card has no Flying, so an Army with a Hero never flies)."""
    if not army.cards:
        return False
    for instance in army.cards:
        unit = zones.card_as(state, instance, UnitCard)
        if unit is None or unit.ability("flying") is None:
            return False
    return True


def flying_army(state: Homm4State, army: Army) -> bool:
    """Whether ``army`` moves by the Flying Armies rule in this game (option and cards).

    Rule: homm4:advanced-rules.flying-armies.
    """
    return state.options.flying and army_flies(state, army)


def entrance_pair(state: Homm4State, site: Site) -> Site | None:
    """Return the underground entrance paired with ``site`` (the matching coin), or None
    (homm4:terrain-map-sections-with-underground)."""
    if site.entrance is None:
        return None
    return next((s for s in state.sites if s.entrance == site.entrance and s.id != site.id), None)


def jump_edges(state: Homm4State) -> dict[Hex, Hex]:
    """Return entrance hex -> paired entrance hex for every found entrance pair end (an
    Army travels between them without spending Movement Points).
    Rule: homm4:terrain-map-sections-with-underground.
    """
    found: dict[Hex, Hex] = {}
    for site in state.sites:
        if site.entrance is None or not site.found:
            continue
        pair = entrance_pair(state, site)
        if pair is not None:
            found[site.hex] = pair.hex
    return found


def step_cost_fn(state: Homm4State, army: Army) -> StepCost:
    """Return the step-cost function for ``army`` under this game's options (see the
    module docstring). Off-board hexes and Cave Walls always cost None.
    Rule: homm4:movement-phase.movement-points-and-terrain.
    """
    shape = board.board_of(state)
    legend = board.map_data().terrain
    flies = flying_army(state, army)
    native_lands = state.options.native_lands
    factions = {card_faction(state, c) for c in army.cards}
    native_faction = next(iter(factions)) if len(factions) == 1 else None
    jumps = jump_edges(state)
    if not flies and not native_lands and not jumps:
        base_cost = shape.cost2.get

        def plain(here: Hex, there: Hex) -> int | None:
            return base_cost(there)

        return plain

    def cost(here: Hex, there: Hex) -> int | None:
        if jumps.get(here) == there:
            return 0
        code = shape.terrain.get(there)
        if code is None:
            return None
        terrain = legend[code]
        if flies:
            return None if terrain.cave_wall else 2
        base = shape.cost2.get(there)
        if base is None:
            return None
        if (
            native_lands
            and native_faction is not None
            and terrain.native is not None
            and terrain.native.value == native_faction
            and terrain.native_cost2 is not None
        ):
            return terrain.native_cost2
        return base

    return cost


def step_targets(state: Homm4State, here: Hex, jumps: dict[Hex, Hex]) -> list[Hex]:
    """Return the hexes one step from ``here``: its six neighbours, plus the paired
    entrance when ``here`` is a found underground entrance.
    Rule: homm4:terrain-map-sections-with-underground.
    """
    found = neighbours(here)
    other = jumps.get(here)
    if other is not None:
        found.append(other)
    return found


def can_stop(state: Homm4State, where: Hex) -> bool:
    """Whether an Army may end a move on ``where``: a passable board hex (Flying Armies
    fly over impassable terrain but may not stop there).
    Rule: homm4:advanced-rules.flying-armies.
    """
    return board.step_cost2(state, where) is not None


# ------------------------------------------------------------------ battles
def battle_terrain(state: Homm4State) -> Terrain | None:
    """Return the legend entry of the hex the current battle is fought on, or None.

    Rule: homm4:advanced-rules.native-and-special-lands.
    """
    if state.battle is None:
        return None
    return board.terrain_at(state, state.battle.hex)


def native_bonus(state: Homm4State, instance: int) -> int:
    """Return the Attack and Defense bonus ``instance`` gets in the current battle from
    its Native or special land (+1, Cursed Ground and special lands +2), or 0 without the
    Native and Special Lands rule (homm4:advanced-rules.native-and-special-lands)."""
    if not state.options.native_lands:
        return 0
    terrain = battle_terrain(state)
    if terrain is None or not is_native(state, instance, terrain):
        return 0
    return terrain.native_bonus


def spell_mana(state: Homm4State, spell: SpellCard, where: Hex | None) -> int:
    """Return the Mana ``spell`` costs when cast on ``where``: half (rounded up) on a
    special land that favours its school, double on one that hinders it (Fields of Glory:
    every school), else its printed cost (homm4:advanced-rules.native-and-special-lands).
    Without the Native and Special Lands rule: the printed cost."""
    if not state.options.native_lands or where is None:
        return spell.mana
    terrain = board.terrain_at(state, where)
    if terrain is None:
        return spell.mana
    if spell.school in terrain.double_mana:
        return spell.mana * 2
    if spell.school in terrain.half_mana:
        return (spell.mana + 1) // 2
    return spell.mana
