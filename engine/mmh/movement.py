"""Activating heroes: movement points, terrain, harbours, portals, capitals, exploring,
taking control, control zones, and the start of battles.

Rule sections: mmh:course-of-play.activate-hero (movement, portals, exploring, control,
control zones), mmh:description-of-the-game-board (terrain and locations),
mmh:other-game-rules.overwhelm-markers, mmh:other-game-rules.dark-times.
"""

from __future__ import annotations

from collections import deque

from engine.core.errors import IllegalMove, WrongPhase
from engine.core.model import Event
from engine.mmh import board as geometry
from engine.mmh.battle import begin_encounter_battle, begin_hero_battle
from engine.mmh.common import content, dark_times, ev, hero_def, hero_name, week_event, who
from engine.mmh.content import COLOUR_NAMES, CONTROLLABLE, EXPLORABLE, LOCATION_NAMES
from engine.mmh.gains import draw_treasure, push
from engine.mmh.heroes import has_building, movement_points, overwhelm
from engine.mmh.spaces import activation as activation  # re-exported: the ai, decisions, ruleset
from engine.mmh.spaces import (
    after_guard_defeated,
    capital_owner,
    control_zone,
    enterable,
    explore_effect,
    take_control,
)
from engine.mmh.state import (
    Activation,
    ControlChoice,
    Hero,
    MmhState,
)

OVERWHELM_NEEDED: dict[str, int] = {"yellow": 2, "purple": 3, "gold": 4}
"""Overwhelm value that routs an encounter of each colour (+1 in Dark Times)."""


def overwhelm_needed(state: MmhState, colour: str) -> int:
    """The overwhelm value that routs an encounter of ``colour`` now (Dark Times: +1).

    Rule: mmh:other-game-rules.overwhelm-markers.
    """
    return OVERWHELM_NEEDED[colour] + (1 if dark_times(state) else 0)


# ------------------------------------------------------------------ activation
def activatable(state: MmhState, seat: int) -> list[str]:
    """Heroes of ``seat`` that may still be activated in this Activate Hero action.

    Rule: mmh:course-of-play.activate-hero.
    """
    step = state.action
    done = step.activated if step is not None else []
    return [h for h in state.seats[seat].heroes if h not in done and state.heroes[h].army]


def activate(state: MmhState, seat: int, hero_id: str) -> list[Event]:
    """Activate ``hero_id`` (ending the previous hero's activation).

    :raises IllegalMove: outside Activate Hero, for a hero already activated, without
        creatures, or when the previous hero may not stop where he stands.

    Rule: mmh:course-of-play.activate-hero.
    """
    step = state.action
    if step is None or step.kind != "hero":
        raise IllegalMove("Heroes move with the Activate Hero action.")
    hero = state.heroes.get(hero_id)
    if hero is None or hero.owner != seat:
        raise IllegalMove(
            f"'{hero_id}' is not one of your heroes ({', '.join(state.seats[seat].heroes)})."
        )
    if hero_id in step.activated:
        raise IllegalMove(f"{hero_name(hero)} has been activated in this action already.")
    if not hero.army:
        raise IllegalMove(f"{hero_name(hero)} has no creatures and must stay in the capital.")
    events = finish_activation(state)
    board = geometry.board_of(state)
    harbour = (
        hero.space is not None
        and board.space(hero.space).terrain == "harbour"
        and not week_event(state).no_harbours
    )
    mp = movement_points(state, hero)
    step.activation = Activation(hero=hero_id, mp=mp, harbour_start=harbour)
    step.activated.append(hero_id)
    where = geometry.space_label(state, hero.space)
    events.append(
        ev(
            "activate",
            f"{who(seat)} activates {hero_name(hero)} at {where} ({mp} MP).",
            hero=hero_id,
            mp=mp,
        )
    )
    return events


def finish_activation(state: MmhState) -> list[Event]:
    """End the current activation. :raises IllegalMove: if the hero stands where he may
    not end his movement (water, mountain, another own hero's space).

    Rule: mmh:course-of-play.activate-hero.
    """
    act = activation(state)
    if act is None:
        return []
    hero = state.heroes[act.hero]
    if hero.space is not None and not can_stop(state, hero, hero.space):
        raise IllegalMove(
            f"{hero_name(hero)} may not end his movement at {geometry.space_label(state, hero.space)}: move on first."
        )
    assert state.action is not None
    state.action.activation = None
    return []


def can_stop(state: MmhState, hero: Hero, space: int) -> bool:
    """True when the hero may end his movement on ``space`` (not water or mountain, no
    other hero of his on it).

    Rule: mmh:course-of-play.activate-hero.
    """
    terrain = geometry.board_of(state).space(space).terrain
    if terrain in ("water", "mountain"):
        return False
    return not any(
        h.space == space and h.id != hero.id and h.owner == hero.owner
        for h in state.heroes.values()
    )


def _enemy_hero_at(state: MmhState, hero: Hero, space: int) -> Hero | None:
    for other in state.heroes.values():
        if other.space == space and other.owner != hero.owner:
            return other
    return None


def step_options(
    state: MmhState, hero: Hero, act: Activation | None
) -> list[tuple[int | None, int]]:
    """Every single move the hero can make now as (destination, MP cost); None = into his
    own capital (via a portal). Terrain and MP only; battles are checked by `move`.

    Rule: mmh:course-of-play.activate-hero.
    """
    seat = state.seats[hero.owner]
    board = geometry.board_of(state)
    portal_building = has_building(state, hero.owner, "town_portal")
    options: list[tuple[int | None, int]] = []
    if hero.space is None:
        assert seat.capital is not None
        for n in board.neighbours(seat.capital):
            if enterable(state, hero, act, seat.capital, n):
                options.append((n, 1))
        if portal_building:
            for p in board.portals:
                if (p, 1) not in options:
                    options.append((p, 1))
        return options
    for n in board.neighbours(hero.space):
        if enterable(state, hero, act, hero.space, n):
            options.append((n, 1))
    if hero.space in board.portals:
        if portal_building:
            options.append((None, 0))
        if hero_def(hero).ability == "portal_traveler":
            for p in board.portals:
                if p != hero.space and all(p != o for o, _ in options):
                    options.append((p, 1))
    return options


def _guarded(state: MmhState, space: int) -> int | None:
    """The encounter marker guarding location ``space`` (None when unguarded)."""
    symbol = geometry.board_of(state).guard_of.get(space)
    if symbol is None:
        return None
    return symbol if symbol in state.encounters else None


def explorable_now(state: MmhState, space: int) -> bool:
    """True for an explorable location not explored yet: still guarded, or carrying an
    exploration marker (mmh:course-of-play.activate-hero, Exploring Spaces)."""
    location = geometry.board_of(state).space(space).location
    if location not in EXPLORABLE:
        return False
    return _guarded(state, space) is not None or space in state.exploration_markers


def _reaches_stop(state: MmhState, hero: Hero, act: Activation, start: int, mp: int) -> bool:
    """True when from ``start`` the hero can reach, within ``mp``, a space he may stop on
    (or his capital) without a battle."""
    if can_stop(state, hero, start):
        return True
    seen = {start}
    queue = deque([(start, mp)])
    board = geometry.board_of(state)
    while queue:
        space, left = queue.popleft()
        if left <= 0:
            continue
        for n in board.neighbours(space):
            if n in seen or not enterable(state, hero, act, space, n):
                continue
            if n in state.encounters or _enemy_hero_at(state, hero, n) is not None:
                continue
            if capital_owner(state, n) == hero.owner or can_stop(state, hero, n):
                return True
            seen.add(n)
            queue.append((n, left - 1))
    return False


def legal_moves(state: MmhState, hero: Hero) -> list[int | None]:
    """Destinations ``move`` accepts now (None: into the capital).

    Rule: mmh:course-of-play.activate-hero.
    """
    act = activation(state)
    if act is None or act.hero != hero.id:
        return []
    found: list[int | None] = []
    for dest, cost in step_options(state, hero, act):
        if cost <= act.mp and _move_problem(state, hero, act, dest, cost) is None:
            found.append(dest)
    return found


def _move_problem(
    state: MmhState, hero: Hero, act: Activation, dest: int | None, cost: int
) -> str | None:
    if dest is None:
        return None
    owner = capital_owner(state, dest)
    if owner is not None:
        return None if owner == hero.owner else "Enemy capitals may not be entered."
    if dest in state.encounters:
        colour = content().encounter(state.encounters[dest]).colour
        if overwhelm(state, hero) >= overwhelm_needed(state, colour) or act.battles > 0:
            return None
        return "This hero has fought his battle in this activation."
    if _enemy_hero_at(state, hero, dest) is not None:
        return None if act.battles > 0 else "This hero has fought his battle in this activation."
    if not _reaches_stop(state, hero, act, dest, act.mp - cost):
        return "The hero could not end his movement anywhere from there."
    return None


def move(state: MmhState, seat: int, to: int | None) -> list[Event]:
    """Move the active hero one space (or through a portal; ``None`` = into his capital
    through the portal he stands on). Entering an encounter or an enemy hero starts a
    battle (or routs the encounter); entering an unguarded controllable space lets his
    player take it (`offer_control`).

    :raises IllegalMove: with no hero activated, an unreachable space, MP short, or a
        space where he could never stop.

    Rule: mmh:course-of-play.activate-hero.
    """
    act = activation(state)
    if act is None:
        raise IllegalMove("Activate a hero first.")
    hero = state.heroes[act.hero]
    options = dict(step_options(state, hero, act))
    if to not in options:
        where = (
            ", ".join(geometry.space_label(state, d) for d in legal_moves(state, hero)) or "nowhere"
        )
        raise IllegalMove(f"{hero_name(hero)} cannot go there; he can reach {where}.")
    cost = options[to]
    if cost > act.mp:
        raise IllegalMove(f"{hero_name(hero)} has {act.mp} MP left; that move costs {cost}.")
    problem = _move_problem(state, hero, act, to, cost)
    if problem:
        raise IllegalMove(problem)
    act.mp -= cost
    if to is None or capital_owner(state, to) == hero.owner:
        return enter_capital(state, hero)
    frm = hero.space
    state.last_path = [frm if frm is not None else state.seats[seat].capital or 0, to]
    if to in state.encounters:
        return _encounter_at(state, hero, act, to, "enter", None)
    enemy = _enemy_hero_at(state, hero, to)
    if enemy is not None:
        act.battles -= 1
        return begin_hero_battle(state, hero, enemy)
    hero.space = to
    act.path.append(to)
    events = [
        ev(
            "move",
            f"{hero_name(hero)} moves to {geometry.space_label(state, to)} ({act.mp} MP left).",
            hero=hero.id,
            to=to,
        )
    ]
    return events + offer_control(state, hero, to)


def enter_capital(state: MmhState, hero: Hero) -> list[Event]:
    """The hero enters his own capital: his activation ends (mmh:course-of-play.activate-hero)."""
    hero.space = None
    if state.action is not None:
        state.action.activation = None
    return [
        ev("capital", f"{hero_name(hero)} enters the capital; his activation ends.", hero=hero.id)
    ]


# ------------------------------------------------------------------ encounters
def _encounter_at(
    state: MmhState, hero: Hero, act: Activation, symbol: int, purpose: str, location: int | None
) -> list[Event]:
    """A battle with the encounter marker on ``symbol`` (or its rout by overwhelm)."""
    marker = state.encounters[symbol]
    colour = content().encounter(marker).colour
    need = overwhelm_needed(state, colour)
    if overwhelm(state, hero) >= need:
        return rout(state, hero, symbol, purpose, location)
    if act.battles <= 0:
        raise IllegalMove("This hero has fought his battle in this activation.")
    act.battles -= 1
    return begin_encounter_battle(state, hero, symbol, purpose, location)


def rout(
    state: MmhState, hero: Hero, symbol: int, purpose: str, location: int | None
) -> list[Event]:
    """The hero overwhelms the encounter: it leaves the board, he takes its treasures but
    no XP (mmh:other-game-rules.overwhelm-markers)."""
    marker = state.encounters.pop(symbol)
    state.encounter_box.append(marker)
    enc = content().encounter(marker)
    events = [
        ev(
            "rout",
            f"{hero_name(hero)} overwhelms the {enc.name} ({COLOUR_NAMES[enc.colour]}): "
            "they flee without a fight.",
            hero=hero.id,
            marker=marker,
        )
    ]
    events += after_guard_defeated(state, hero, symbol, purpose, location)
    events += draw_treasure(state, hero, enc.chests, enc.colour != "yellow")
    return events


# ------------------------------------------------------------------ control
def protected(state: MmhState, space: int) -> bool:
    """True when the player controlling ``space`` has a hero whose control zone covers it.

    Rule: mmh:course-of-play.activate-hero.
    """
    owner = state.control.get(space)
    if owner is None:
        return False
    return any(space in control_zone(state, state.heroes[h]) for h in state.seats[owner].heroes)


def may_take(state: MmhState, hero: Hero, space: int) -> bool:
    """True when ``space`` is an unguarded controllable location the hero's player may
    take now: not his already, not in a control zone of its owner's heroes.

    Rule: mmh:course-of-play.activate-hero.
    """
    location = geometry.board_of(state).space(space).location
    if location not in CONTROLLABLE or _guarded(state, space) is not None:
        return False
    return state.control.get(space) != hero.owner and not protected(state, space)


def offer_control(state: MmhState, hero: Hero, space: int) -> list[Event]:
    """The hero passes through or stops on an unguarded controllable space his player may
    take: the player decides (a `ControlChoice`; answered by `take_offered` or declined).
    The rulebook lets him: "You may control any number of these spaces", and a battle
    happens only "if the active hero tries to take control of a guarded space"
    (mmh:course-of-play.activate-hero, Controlling Game Board Spaces)."""
    if not may_take(state, hero, space):
        return []
    push(state, ControlChoice(seat=hero.owner, hero=hero.id, space=space))
    location = geometry.board_of(state).space(space).location
    assert location is not None
    return [
        ev(
            "control_offer",
            f"{who(hero.owner)} may take control of the {LOCATION_NAMES[location]} at "
            f"{geometry.space_label(state, space)}.",
            space=space,
            seat=hero.owner,
        )
    ]


def take_offered(state: MmhState, seat: int) -> list[Event]:
    """Take control of the space of the pending `ControlChoice` (it is still takeable:
    nothing happens between the step and the answer).

    :raises WrongPhase: when no such choice is ``seat``'s to answer.

    Rule: mmh:course-of-play.activate-hero.
    """
    prompt = state.queue[0] if state.queue else None
    if not isinstance(prompt, ControlChoice) or prompt.seat != seat:
        raise WrongPhase("There is no location waiting for you to take control of.")
    state.queue.pop(0)
    return take_control(state, state.heroes[prompt.hero], prompt.space)


def declare_control(state: MmhState, seat: int) -> list[Event]:
    """Take control of the guarded controllable space the active hero stands on: a battle
    with its guard first.

    :raises IllegalMove: when the hero stands on no such space or it is protected.

    Rule: mmh:course-of-play.activate-hero.
    """
    act = activation(state)
    if act is None:
        raise IllegalMove("Activate a hero first.")
    hero = state.heroes[act.hero]
    space = hero.space
    if space is None:
        raise IllegalMove("The hero is in the capital.")
    location = geometry.board_of(state).space(space).location
    if location not in CONTROLLABLE:
        raise IllegalMove("There is nothing to take control of here.")
    if state.control.get(space) == seat:
        raise IllegalMove("You control this space already.")
    if protected(state, space):
        raise IllegalMove(
            "This space lies in a control zone of its owner's hero: defeat him first."
        )
    symbol = _guarded(state, space)
    if symbol is None:
        return take_control(state, hero, space)
    return _encounter_at(state, hero, act, symbol, "control", space)


# ------------------------------------------------------------------ exploring
def explore(state: MmhState, seat: int) -> list[Event]:
    """Explore the location the active hero stands on (a battle first if it is guarded).

    :raises IllegalMove: when there is nothing left to explore here.

    Rule: mmh:course-of-play.activate-hero.
    """
    act = activation(state)
    if act is None:
        raise IllegalMove("Activate a hero first.")
    hero = state.heroes[act.hero]
    if hero.space is None or not explorable_now(state, hero.space):
        raise IllegalMove("There is nothing to explore where the hero stands.")
    symbol = _guarded(state, hero.space)
    if symbol is not None:
        return _encounter_at(state, hero, act, symbol, "explore", hero.space)
    return explore_effect(state, hero, hero.space)
