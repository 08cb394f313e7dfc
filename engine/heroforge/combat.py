"""Combat over several turns: assign target, attack, the opponent's target and defence
(fight back or retreat), the turn ends; forts defending together; heroes dying.

Rule sections: heroforge:combat, heroforge:combat-with-forts, heroforge:units (damage:
a D10 roll at least the unit's level kills it; all damage goes to the highest-level
unit), heroforge:basic-rules (a hero attacked with no units, or whose last unit is
killed, dies), heroforge:forts (destroyed forts free the land).

A damage roll hits the target's highest-level unit now (its current level, with every
level change). Several rolls keep their target even if it dies before they are done: a
roll left over after a hero's death or a fort's destruction does nothing.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import SEAT_COLOURS, Event, seat_name
from engine.core.words import plural
from engine.heroforge import effects, turns
from engine.heroforge.commands import fort_target, hero_target
from engine.heroforge.dice import roll
from engine.heroforge.state import Combat, Defence, Fort, HeroforgeState


def parse_target(state: HeroforgeState, text: str) -> tuple[str, int]:
    """Read a target: ``hero:<seat>``, ``fort:<id>``, ``F<id>`` or a seat colour.

    :returns: ``("hero", seat)`` or ``("fort", id)``.
    :raises InvalidInput: for anything else.

    Rule: heroforge:combat (the target assigned in the combat phases).
    """
    raw = text.strip().lower()
    kind, _, value = raw.partition(":")
    if kind in ("hero", "fort") and value.isdigit():
        return kind, int(value)
    if raw.startswith("f") and raw[1:].isdigit():
        return "fort", int(raw[1:])
    colours = [c.lower() for c in SEAT_COLOURS[: state.players]]
    if raw in colours:
        return "hero", colours.index(raw)
    raise InvalidInput(
        f"Cannot read the target {text!r}: name a hero (hero:1 or its colour) or a fort (F2)."
    )


def _same_plate_enemies(state: HeroforgeState, seat: int) -> tuple[list[int], list[Fort]]:
    here = state.player(seat).at
    if here is None:
        return [], []
    heroes = [s for s in effects.heroes_on(state, here.plate) if s != seat]
    forts = [f for f in effects.forts_on(state, here.plate) if f.owner != seat]
    return heroes, forts


def attack_problem(state: HeroforgeState, seat: int) -> str | None:
    """Why ``seat`` cannot attack anything now (None when it may).

    Rule: heroforge:combat.
    """
    if not state.player(seat).army:
        return "To enter combat your hero must have an army (at least one unit)."
    if state.left_combat:
        return "Your hero left combat this turn; it cannot enter combat until your next turn."
    heroes, forts = _same_plate_enemies(state, seat)
    if not heroes and not forts:
        return "No enemy hero or fort is on your hero's land plate."
    return None


def attack_targets(state: HeroforgeState, seat: int) -> list[str]:
    """The targets ``seat`` may attack now (heroes first, then forts), or none.

    Rule: heroforge:combat, heroforge:combat-with-forts (attacking a fort).
    """
    if attack_problem(state, seat):
        return []
    heroes, forts = _same_plate_enemies(state, seat)
    return [hero_target(s) for s in heroes] + [fort_target(f.id) for f in forts]


def must_continue(state: HeroforgeState, seat: int) -> bool:
    """Whether ``seat`` is in combat (it did not move away) and must attack again
    ("end combat by moving ... or continue combat", heroforge:combat)."""
    return effects.in_combat(state, seat) and bool(attack_targets(state, seat))


def _target_name(state: HeroforgeState, kind: str, ident: int) -> str:
    if kind == "hero":
        return f"{seat_name(ident)}'s hero"
    return f"{seat_name(state.fort(ident).owner)}'s fort F{ident}"


def _bonus_roll(state: HeroforgeState, seat: int, face: int) -> list[Event]:
    gained = sum(
        a.amount
        for a in effects.hero_of(state, seat).abilities
        if a.kind == "combat_roll" and a.face == face
    )
    if not gained:
        return []
    player = state.player(seat)
    player.combat_bonus += gained
    hero = effects.hero_of(state, seat)
    return [
        Event(
            kind="combat_bonus",
            text=f"{hero.name} rolled a {face}: {seat_name(seat)}'s units gain +{gained} "
            f"level until the end of combat (now +{player.combat_bonus}).",
            data={"seat": seat, "bonus": player.combat_bonus},
        )
    ]


def _hit_hero(state: HeroforgeState, by: int | None, seat: int, face: int) -> list[Event]:
    """One damage roll ``face`` against ``seat``'s army; ``by`` None means forts rolled
    (forts alone cannot kill a hero)."""
    levels = effects.army_levels(state, seat)
    if not levels:
        return []
    unit, level = levels[0]
    if face < level:
        return [
            Event(
                kind="damage",
                text=f"{face} against level {level} (#{unit.id}): no damage.",
                data={"target": hero_target(seat), "roll": face, "level": level, "killed": None},
            )
        ]
    player = state.player(seat)
    player.army = [u for u in player.army if u.id != unit.id]
    events = [
        Event(
            kind="damage",
            text=f"{face} against level {level}: {seat_name(seat)}'s #{unit.id} dies.",
            data={"target": hero_target(seat), "roll": face, "level": level, "killed": unit.id},
        )
    ]
    if not player.army and by is not None:
        events += turns.kill_hero(state, seat, by, "its last unit was killed")
    return events


def _hit_fort(state: HeroforgeState, fort: Fort, face: int) -> list[Event]:
    """One damage roll against a fort: its highest unit, or (cleared) the fort itself."""
    levels = effects.fort_levels(state, fort)
    target = fort_target(fort.id)
    if levels:
        unit, level = levels[0]
        if face < level:
            return [
                Event(
                    kind="damage",
                    text=f"{face} against level {level} (#{unit.id} on F{fort.id}): no damage.",
                    data={"target": target, "roll": face, "level": level, "killed": None},
                )
            ]
        fort.units = [u for u in fort.units if u.id != unit.id]
        return [
            Event(
                kind="damage",
                text=f"{face} against level {level}: #{unit.id} on F{fort.id} dies"
                + ("; the fort is cleared." if not fort.units else "."),
                data={"target": target, "roll": face, "level": level, "killed": unit.id},
            )
        ]
    needed = effects.fort_level(state, fort)
    if face < needed:
        return [
            Event(
                kind="damage",
                text=f"{face} against the cleared fort F{fort.id} (needs {needed}): it stands.",
                data={"target": target, "roll": face, "level": needed, "killed": None},
            )
        ]
    return [
        Event(
            kind="damage",
            text=f"{face} against the cleared fort F{fort.id} (needs {needed}).",
            data={"target": target, "roll": face, "level": needed, "killed": None},
        ),
        *destroy_fort(state, fort),
    ]


def destroy_fort(state: HeroforgeState, fort: Fort) -> list[Event]:
    """Remove a destroyed fort; with its owner's last fort on the plate gone the land
    belongs to no one and the owner loses its bonuses (heroforge:forts)."""
    state.forts = [f for f in state.forts if f.id != fort.id]
    state.combats = [c for c in state.combats if c.fort != fort.id]
    label = fort.at.plate
    freed = not any(f.owner == fort.owner for f in effects.forts_on(state, label))
    the_land = effects.land(state, label)
    return [
        Event(
            kind="fort_destroyed",
            text=f"Fort F{fort.id} is destroyed."
            + (
                f" {the_land.name} ({label}) belongs to no one; {seat_name(fort.owner)} loses "
                "its bonuses."
                if freed
                else ""
            ),
            data={"fort": fort.id, "owner": fort.owner, "plate": label, "freed": freed},
        )
    ]


def _rolls(
    state: HeroforgeState, seat: int, count: int, kind: str, ident: int, purpose: str
) -> list[Event]:
    """``count`` damage rolls by ``seat``'s hero at one target (the target never changes)."""
    events: list[Event] = []
    for _ in range(count):
        face, event = roll(state, 10, purpose, seat)
        events.append(event)
        events += _bonus_roll(state, seat, face)
        if kind == "hero":
            if not state.player(ident).alive:
                continue
            events += _hit_hero(state, seat, ident, face)
        else:
            fort = next((f for f in state.forts if f.id == ident), None)
            if fort is None:
                continue
            events += _hit_fort(state, fort, face)
    return events


def _record(state: HeroforgeState, combat: Combat) -> None:
    state.combats = [
        c
        for c in state.combats
        if not (
            {c.attacker, c.defender} == {combat.attacker, combat.defender} and c.fort == combat.fort
        )
    ]
    state.combats.append(combat)


def attack(state: HeroforgeState, seat: int, target: str) -> list[Event]:
    """Assign a target on the hero's plate and attack it (heroforge:combat).

    A hero with no units attacked dies at once. Otherwise the hero rolls its damage rolls;
    an attacked hero then owes its defence phase, an attacked fort's plate fights back at
    once with its manned forts; then the turn ends.

    :raises IllegalMove | InvalidInput: without an army, after leaving combat this turn,
        or for a target not on the plate.
    """
    problem = attack_problem(state, seat)
    if problem:
        raise IllegalMove(problem)
    kind, ident = parse_target(state, target)
    allowed = attack_targets(state, seat)
    canonical = hero_target(ident) if kind == "hero" else fort_target(ident)
    if canonical not in allowed:
        raise IllegalMove(
            f"You cannot attack {target}: the targets on your plate are "
            + ", ".join(_describe(state, t) for t in allowed)
            + "."
        )
    here = state.player(seat).at
    assert here is not None
    name = _target_name(state, kind, ident)
    state.fought = True
    events = [
        Event(
            kind="attack",
            text=f"{seat_name(seat)} attacks {name} on plate {here.plate}.",
            data={"seat": seat, "target": canonical, "plate": here.plate},
        )
    ]
    if kind == "hero":
        _record(state, Combat(attacker=seat, defender=ident, plate=here.plate))
        if not state.player(ident).army:
            events += turns.kill_hero(state, ident, seat, "attacked with no units")
            return events + _turn_over(state)
        count = effects.hero_rolls(state, seat)
        events += _rolls(state, seat, count, "hero", ident, f"damage roll against {name}")
        if state.player(ident).alive and state.player(seat).alive:
            state.defence = Defence(attacker=seat, defender=ident, plate=here.plate)
            return events
        return events + _turn_over(state)
    fort = state.fort(ident)
    _record(state, Combat(attacker=seat, defender=fort.owner, fort=fort.id, plate=here.plate))
    count = effects.hero_rolls(state, seat)
    events += _rolls(state, seat, count, "fort", ident, f"damage roll against fort F{ident}")
    events += forts_defend(state, seat, fort.owner, here.plate, ident)
    return events + _turn_over(state)


def forts_defend(
    state: HeroforgeState, attacker: int, owner: int, label: str, attacked: int
) -> list[Event]:
    """The manned forts of ``owner`` on plate ``label`` roll together at the attacking
    hero's units (`effects.fort_rolls`); forts alone never kill a hero.

    Rule: heroforge:combat-with-forts.
    """
    manned = effects.manned_forts(state, owner, label)
    attacked_fort = next((f for f in manned if f.id == attacked), None)
    count = effects.fort_rolls(len(manned), attacked_fort is not None)
    events: list[Event] = []
    if count:
        events.append(
            Event(
                kind="forts_defend",
                text=f"{seat_name(owner)}'s {plural(len(manned), 'manned fort')} on plate {label} "
                f"{'defends' if len(manned) == 1 else 'defend'} with {plural(count, 'damage roll')}.",
                data={"owner": owner, "plate": label, "rolls": count},
            )
        )
    for _ in range(count):
        face, event = roll(state, 10, f"forts' damage roll against {seat_name(attacker)}", owner)
        events.append(event)
        events += _hit_hero(state, None, attacker, face)
    return events


def _turn_over(state: HeroforgeState) -> list[Event]:
    """Phase five: the attacking player's turn ends (unless the game is over)."""
    if state.phase == "over":
        return []
    return turns.end_turn(state)


def defence_targets(state: HeroforgeState, seat: int) -> list[str]:
    """What the defender may fight back at: the attacker's hero and the attacker's forts
    on the plate.

    Rule: heroforge:combat (fight back), heroforge:combat-with-forts.
    """
    defence = state.defence
    if defence is None or defence.defender != seat:
        return []
    forts = [f for f in effects.forts_on(state, defence.plate) if f.owner == defence.attacker]
    return [hero_target(defence.attacker)] + [fort_target(f.id) for f in forts]


def fight_back(state: HeroforgeState, seat: int, target: str) -> list[Event]:
    """Defence phase: roll damage at a target of the attacker's on the plate; then the
    attacker's turn ends, the two heroes still in combat (heroforge:combat).

    :raises IllegalMove | InvalidInput: for a target that is not the attacker's.
    """
    defence = state.defence
    assert defence is not None and defence.defender == seat
    kind, ident = parse_target(state, target)
    canonical = hero_target(ident) if kind == "hero" else fort_target(ident)
    allowed = defence_targets(state, seat)
    if canonical not in allowed:
        raise IllegalMove(
            "Fight back at the attacker's pieces on the plate: "
            + ", ".join(_describe(state, t) for t in allowed)
            + "."
        )
    name = _target_name(state, kind, ident)
    state.defence = None
    events = [
        Event(
            kind="fight_back",
            text=f"{seat_name(seat)} fights back at {name}.",
            data={"seat": seat, "target": canonical},
        )
    ]
    if kind == "hero" and not state.player(ident).army:
        events += turns.kill_hero(state, ident, seat, "attacked with no units")
    else:
        count = effects.hero_rolls(state, seat)
        events += _rolls(state, seat, count, kind, ident, f"defence roll against {name}")
    return events + _turn_over(state)


def retreat(state: HeroforgeState, seat: int) -> list[Event]:
    """Defence phase: roll a D10; over 5 (or the hero's number) sends the hero to its
    closest uncontested land and ends the combat; the attacker's turn ends either way.

    :raises IllegalMove: when the defender owns no uncontested land to retreat to.

    Rule: heroforge:combat (the defence phase: retreat).
    """
    defence = state.defence
    assert defence is not None and defence.defender == seat
    if turns.retreat_destination(state, seat) is None:
        raise IllegalMove(
            "You can only retreat if you own an uncontested land (a plate with your fort "
            "and no hero on it). Fight back instead."
        )
    needs = effects.retreat_needs(state, seat)
    face, event = roll(state, 10, f"retreat (needs over {needs})", seat)
    state.defence = None
    events = [event]
    if face > needs:
        events += turns.retreat_hero(state, seat, "escapes the combat")
    else:
        events.append(
            Event(
                kind="retreat_failed",
                text=f"{seat_name(seat)}'s retreat fails; the heroes stay in combat.",
                data={"seat": seat},
            )
        )
    return events + _turn_over(state)


def _describe(state: HeroforgeState, target: str) -> str:
    kind, _, value = target.partition(":")
    return _target_name(state, kind, int(value)) + f" ({target})"
