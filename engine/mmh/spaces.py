"""What a hero does to the spaces of the map: the activation in progress, terrain a hero
may enter, control zones, taking control, exploring, and what a defeated guard leaves.

Both the activation (`movement`, the flow of an Activate Hero action, which starts the
battles) and the battle (`battle`, whose end reports back through `after_guard_defeated`
and the winner's `control_zone`) use these rules, so neither imports the other's.

Rule sections: mmh:course-of-play.activate-hero (control, control zones, exploring),
mmh:description-of-the-game-board (terrain and locations).
"""

from __future__ import annotations

from engine.core.model import Event
from engine.core.words import plural
from engine.mmh import board as geometry
from engine.mmh.common import ev, hero_def, hero_name, week_event, who
from engine.mmh.content import CONTROLLABLE, EXPLORABLE, LOCATION_NAMES
from engine.mmh.gains import draw_treasure, gain_artefact, gain_scroll, push, queue_skill_draw
from engine.mmh.heroes import movement_points
from engine.mmh.state import Activation, ArenaRecruit, DragonVein, Hero, MmhState

CONTROL_RADIUS = 2
"""A control zone: the spaces within 2 MP of the hero."""


def activation(state: MmhState) -> Activation | None:
    """The activation in progress, if any.

    Rule: mmh:course-of-play.activate-hero.
    """
    return state.action.activation if state.action is not None else None


def capital_owner(state: MmhState, space: int) -> int | None:
    """The seat whose capital is on ``space``, or None.

    Rule: mmh:description-of-the-game-board.
    """
    for seat in state.seats:
        if seat.capital == space:
            return seat.seat
    return None


def enterable(
    state: MmhState, hero: Hero, act: Activation | None, frm: int | None, to: int
) -> bool:
    """Terrain rules for one step: water only after starting on a harbour (and only from a
    harbour or water, landing only on a harbour), mountains only for Pathfinders, never an
    enemy capital.

    Rule: mmh:description-of-the-game-board.terrain-features-on-the-game-board.
    """
    board = geometry.board_of(state)
    terrain = board.space(to).terrain
    owner = capital_owner(state, to)
    if owner is not None:
        return owner == hero.owner
    from_terrain = "open"
    if frm is not None and capital_owner(state, frm) is None:
        from_terrain = board.space(frm).terrain
    if terrain == "water":
        return (
            act is not None
            and act.harbour_start
            and not week_event(state).no_harbours
            and from_terrain in ("harbour", "water")
        )
    if from_terrain == "water" and terrain != "harbour":
        return False
    if terrain == "mountain":
        return hero_def(hero).ability == "pathfinder"
    return True


def after_guard_defeated(
    state: MmhState, hero: Hero, symbol: int, purpose: str, location: int | None
) -> list[Event]:
    """The guard of a location is gone: on ``enter`` the hero stands on the marker's space
    and an explorable location gets an exploration marker; on ``explore``/``control`` he
    explores or takes the location at once.

    Rule: mmh:course-of-play.activate-hero.
    """
    board = geometry.board_of(state)
    guarded = board.space(symbol).guards
    events: list[Event] = []
    if purpose == "enter":
        hero.space = symbol
        act = activation(state)
        if act is not None:
            act.path.append(symbol)
        if guarded is not None and board.space(guarded).location in EXPLORABLE:
            state.exploration_markers.append(guarded)
            events.append(
                ev(
                    "exploration_marker",
                    f"An exploration marker is laid on {geometry.space_label(state, guarded)}.",
                )
            )
        return events
    assert location is not None
    if purpose == "explore":
        return explore_effect(state, hero, location)
    return take_control(state, hero, location)


def control_zone(state: MmhState, hero: Hero) -> set[int]:
    """Spaces within 2 MP of the hero that he could enter (none in the capital); terrain
    limits it, Pathfinders cross mountains (mmh:course-of-play.activate-hero, Control Zone)."""
    if hero.space is None:
        return set()
    board = geometry.board_of(state)
    zone = {hero.space}
    frontier = [hero.space]
    for _ in range(CONTROL_RADIUS):
        nxt = []
        for space in frontier:
            for n in board.neighbours(space):
                if n in zone or not enterable(state, hero, None, space, n):
                    continue
                if capital_owner(state, n) is not None:
                    continue
                zone.add(n)
                nxt.append(n)
        frontier = nxt
    return zone


def take_control(state: MmhState, hero: Hero, space: int) -> list[Event]:
    """Put the hero's control marker on ``space`` (replacing another player's).

    Rule: mmh:course-of-play.activate-hero.
    """
    location = geometry.board_of(state).space(space).location
    assert location is not None
    before = state.control.get(space)
    state.control[space] = hero.owner
    vp = CONTROLLABLE[location][0]
    lost = f" from {who(before)}" if before is not None and before != hero.owner else ""
    return [
        ev(
            "control",
            f"{who(hero.owner)} takes control of the {LOCATION_NAMES[location]} at "
            f"{geometry.space_label(state, space)}{lost} (+{vp} VP).",
            space=space,
            seat=hero.owner,
            before=before,
        )
    ]


def explore_effect(state: MmhState, hero: Hero, space: int) -> list[Event]:
    """The hero explores ``space`` and takes its bonus (mmh:description-of-the-game-board.
    game-board-locations)."""
    if space in state.exploration_markers:
        state.exploration_markers.remove(space)
    location = geometry.board_of(state).space(space).location
    assert location is not None
    name = hero_name(hero)
    events = [
        ev(
            "explore",
            f"{name} explores the {LOCATION_NAMES[location]} at {geometry.space_label(state, space)}.",
            hero=hero.id,
            space=space,
            location=location,
        )
    ]
    seat = state.seats[hero.owner]
    if location == "arcane_library":
        events += gain_scroll(state, hero)
    elif location == "stable":
        act = activation(state)
        if act is not None and act.hero == hero.id:
            act.mp = movement_points(state, hero)
            act.battles += 1
            act.harbour_start = False
            events.append(ev("stable", f"{name} is activated a second time ({act.mp} MP)."))
    elif location == "arena":
        push(state, ArenaRecruit(seat=hero.owner, hero=hero.id))
    elif location == "armorsmith":
        count = sum(1 for u in hero.army if not u.elite)
        for unit in hero.army:
            unit.elite = True
        verb = "becomes" if count == 1 else "become"
        events.append(ev("armorsmith", f"{name}'s {plural(count, 'basic creature')} {verb} elite."))
    elif location == "weaponsmith":
        events += gain_artefact(state, hero)
    elif location == "crystal_of_revelation":
        seat.vp_bonus += 2
        events.append(ev("vp", f"{who(hero.owner)} gains 2 VP.", vp=2))
    elif location == "dragon_vein":
        if state.treasure_discard or state.scroll_discard or state.artefact_discard:
            push(state, DragonVein(seat=hero.owner, hero=hero.id))
        else:
            events.append(ev("dragon_vein", "Every discard pile is empty: nothing to find."))
    elif location == "stone_of_enlightenment":
        queue_skill_draw(state, hero, draw=2)
        events.append(ev("stone", f"{name} levels up without spending XP."))
    elif location == "dragon_shrine":
        events += draw_treasure(state, hero, 1, True)
    return events
