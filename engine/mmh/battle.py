"""Battles on the initiative track: set-up, the five timing windows, attacks with d8 attack
dice and the d6 elite die, rerolls, luck, damage assignment, raise dead, retreat and the
end of a battle with its rewards.

Rule sections: mmh:course-of-play.battles (every part), mmh:other-game-rules.dark-times,
mmh:other-game-rules.luck, mmh:other-game-rules.using-card-effects (timing windows),
mmh:other-game-rules.enemies, mmh:course-of-play.build (Guardian Angel, Necromancy,
Blood Rage, Honor).

Flow: ``begin_*`` builds the track and opens the windows; every command handler changes
the battle and then calls `advance`, which resolves everything automatic (attacks without
a choice, single-option damage assignment) until a decision is owed or the battle is
over. Who is asked (card windows, a hero's turn) depends only on public facts
(`may_use_cards`), never on which face-down scrolls a hero holds. Side 0 is always the active hero; side 1 the encounter
markers (their controller is the player to the active player's left) or the defender.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event
from engine.core.words import plural
from engine.mmh import board as geometry
from engine.mmh.common import (
    content,
    creature_name,
    dark_times,
    ev,
    hero_name,
    no_such_marker,
    roll,
    week_event,
    who,
)
from engine.mmh.content import WINDOW_NAMES, Ability, Effect, EffectKind, Window
from engine.mmh.gains import draw_treasure, gain_luck, push
from engine.mmh.heroes import (
    card_abilities,
    elite_in_army,
    has_building,
    hero_dice,
    initiative,
    leadership,
    magic,
    might,
    passive,
)
from engine.mmh.spaces import after_guard_defeated, control_zone
from engine.mmh.state import Battle, Buff, BUnit, Hero, LastAttack, MmhState, Raise, Reward, Roll

ELITE_FACES: dict[int, str] = {
    1: "skull",
    2: "skull",
    3: "two skulls",
    4: "laurel wreath",
    5: "luck",
    6: "bad luck",
}
"""The elite die (d6): 1-2 one skull, 3 two skulls, 4 laurel wreath, 5 luck, 6 bad luck."""
MAX_DICE = 5


# ============================================================== set-up
def begin_encounter_battle(
    state: MmhState, hero: Hero, symbol: int, purpose: str, location: int | None
) -> list[Event]:
    """A battle against the encounter marker on ``symbol``; the marker leaves the board, the
    battle marker lies where the hero fights (mmh:course-of-play.battles, Battle Preparation).
    Dark Times add the additional marker of the same colour (mmh:other-game-rules.dark-times)."""
    marker = state.encounters.pop(symbol)
    space = symbol if purpose == "enter" else location
    assert space is not None
    controller = (hero.owner + 1) % state.players
    battle = Battle(
        kind="encounter",
        space=space,
        purpose=purpose,
        location=location,
        encounter_space=symbol,
        attacker=hero.id,
        controller=controller,
    )
    _add_army(state, battle, hero, 0)
    battle.units.append(BUnit(id=len(battle.units), side=1, kind="encounter", marker=marker))
    enc = content().encounter(marker)
    events = [
        ev(
            "battle",
            f"Battle at {geometry.space_label(state, space)}: {hero_name(hero)} against the "
            f"{enc.name} (might {enc.might}, threat {enc.threat}); {who(controller)} controls them.",
            space=space,
            marker=marker,
        )
    ]
    if dark_times(state):
        battle.units.append(
            BUnit(id=len(battle.units), side=1, kind="encounter", marker=marker, extra=True)
        )
        events.append(
            ev("dark_times", "Dark Times: a second, identical encounter marker joins the battle.")
        )
    hero.space = space
    state.battle = battle
    return events + _open_honor(state)


def begin_hero_battle(state: MmhState, hero: Hero, enemy: Hero) -> list[Event]:
    """A battle between two heroes on the defender's space (mmh:course-of-play.battles,
    Battle Between Two Heroes)."""
    assert enemy.space is not None
    battle = Battle(
        kind="hero", space=enemy.space, purpose="hero", attacker=hero.id, defender=enemy.id
    )
    _add_army(state, battle, hero, 0)
    _add_army(state, battle, enemy, 1)
    hero.space = enemy.space
    state.battle = battle
    events = [
        ev(
            "battle",
            f"Battle at {geometry.space_label(state, enemy.space)}: {hero_name(hero)} ({who(hero.owner)}) "
            f"attacks {hero_name(enemy)} ({who(enemy.owner)}).",
            space=enemy.space,
        )
    ]
    return events + _open_honor(state)


def _add_army(state: MmhState, battle: Battle, hero: Hero, side: int) -> None:
    battle.units.append(BUnit(id=len(battle.units), side=side, kind="hero", hero=hero.id))
    kinds = sorted({u.creature for u in hero.army}, key=lambda c: (-content().creature(c).level, c))
    for creature in kinds:
        battle.units.append(
            BUnit(id=len(battle.units), side=side, kind="stack", hero=hero.id, creature=creature)
        )
    battle.fallen[hero.id] = {}


def _open_honor(state: MmhState) -> list[Event]:
    b = _battle(state)
    owners = [s for s in participants(state) if has_building(state, s, "honor")]
    if owners:
        b.step = "honor"
        b.window_seats = owners[:1]
        return [
            ev(
                "honor",
                f"Honor: {who(owners[0])} decides whether everyone or nobody rolls the elite die.",
            )
        ]
    return open_window(state, Window.BEFORE)


# ============================================================== look-ups
def _battle(state: MmhState) -> Battle:
    if state.battle is None:
        raise IllegalMove("There is no battle in progress.")
    return state.battle


def participants(state: MmhState) -> list[int]:
    """Seats whose heroes fight (active player first).

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    seats = [state.heroes[b.attacker].owner]
    if b.defender is not None:
        seats.append(state.heroes[b.defender].owner)
    return seats


def side_hero(state: MmhState, side: int) -> Hero | None:
    """The hero of a side (None for the encounter side).

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    hid = b.attacker if side == 0 else b.defender
    return state.heroes[hid] if hid is not None else None


def side_of_seat(state: MmhState, seat: int) -> int | None:
    """The side ``seat``'s hero fights on, if any.

    Rule: mmh:course-of-play.battles.
    """
    for side in (0, 1):
        hero = side_hero(state, side)
        if hero is not None and hero.owner == seat:
            return side
    return None


def unit_seat(state: MmhState, unit: BUnit) -> int:
    """Who decides for a track marker (its hero's owner; the encounter's controller).

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    if unit.kind == "encounter":
        assert b.controller is not None
        return b.controller
    hero = side_hero(state, unit.side)
    assert hero is not None
    return hero.owner


def stack_units(state: MmhState, unit: BUnit) -> list[int]:
    """Indexes into the hero's army of the creatures of a stack.

    Rule: mmh:course-of-play.battles.
    """
    assert unit.hero is not None
    army = state.heroes[unit.hero].army
    return [i for i, u in enumerate(army) if u.creature == unit.creature]


def alive(state: MmhState, unit: BUnit) -> bool:
    """A stack lives while its hero has a creature of its type; heroes always stand.

    Rule: mmh:course-of-play.battles.
    """
    if unit.kind == "stack":
        return bool(stack_units(state, unit))
    if unit.kind == "hero":
        return True
    return unit.alive


def side_standing(state: MmhState, side: int) -> bool:
    """True while a side has a creature stack, element or encounter marker left.

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    return any(u.side == side and u.kind != "hero" and alive(state, u) for u in b.units)


def unit_name(state: MmhState, unit: BUnit) -> str:
    """``[3] Ghoul`` style label of a track marker.

    Rule: none (names, labels and events).
    """
    c = content()
    if unit.kind == "hero":
        assert unit.hero is not None
        name = hero_name(unit.hero)
    elif unit.kind == "stack":
        assert unit.creature is not None
        name = c.creature(unit.creature).basic.name
    elif unit.kind == "encounter":
        assert unit.marker is not None
        name = c.encounter(unit.marker).name + (" (additional)" if unit.extra else "")
    else:
        assert unit.element is not None
        name = c.element(unit.element).name
    return f"[{unit.id}] {name}"


def _abilities(state: MmhState, unit: BUnit) -> set[str]:
    c = content()
    found: set[str] = set()
    if unit.kind == "stack":
        assert unit.hero is not None and unit.creature is not None
        kind = c.creature(unit.creature)
        for u in state.heroes[unit.hero].army:
            if u.creature == unit.creature:
                found |= set((kind.elite if u.elite else kind.basic).abilities)
    elif unit.kind == "encounter":
        assert unit.marker is not None
        found |= set(c.encounter(unit.marker).abilities)
    return found


def _buff(b: Battle, unit: BUnit, stat: str) -> int:
    return sum(x.value for x in b.buffs if x.unit == unit.id and x.stat == stat)


def unit_initiative(state: MmhState, unit: BUnit) -> int:
    """Initiative of a track marker with every bonus (skills, artefacts, week, buffs).

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    c = content()
    base: int
    if unit.kind == "hero":
        assert unit.hero is not None
        base = initiative(state, state.heroes[unit.hero])
    elif unit.kind == "stack":
        assert unit.hero is not None and unit.creature is not None
        base = c.creature(unit.creature).initiative + passive(
            state, state.heroes[unit.hero], EffectKind.ARMY_INITIATIVE
        )
    elif unit.kind == "encounter":
        assert unit.marker is not None
        base = c.encounter(unit.marker).initiative + week_event(state).encounter_initiative
    else:
        assert unit.element is not None
        base = c.element(unit.element).initiative
    return base + _buff(b, unit, "initiative")


def _priority_side(state: MmhState) -> int:
    """Which side places first among equal initiatives: Blood Rage, then the encounter
    marker (encounter battles) or the hero with more initiative, then the active player."""
    b = _battle(state)
    rage = [
        side
        for side in (0, 1)
        if (h := side_hero(state, side)) and has_building(state, h.owner, "blood_rage")
    ]
    if len(rage) == 1:
        return rage[0]
    if b.kind == "encounter":
        return 1
    attacker, defender = side_hero(state, 0), side_hero(state, 1)
    assert attacker is not None and defender is not None
    return 1 if initiative(state, defender) > initiative(state, attacker) else 0


def compute_order(state: MmhState) -> list[int]:
    """The initiative track, left to right (mmh:course-of-play.battles, Initiative in Battle).

    Higher initiative first; equal initiatives alternate between the sides, starting with
    `_priority_side`; within a side, stacks by capital level (highest first), then
    elements, encounter markers, and the hero last.
    """
    b = _battle(state)
    live = [u for u in b.units if alive(state, u)]
    values = {u.id: unit_initiative(state, u) for u in live}
    first = _priority_side(state)

    def within(u: BUnit) -> tuple[int, int, int]:
        rank = {"stack": 0, "element": 1, "encounter": 2, "hero": 3}[u.kind]
        level = content().creature(u.creature).level if u.creature else 0
        return (rank, -level, u.id)

    order: list[int] = []
    for value in sorted(set(values.values()), reverse=True):
        group = [u for u in live if values[u.id] == value]
        lanes = [sorted((u for u in group if u.side == s), key=within) for s in (first, 1 - first)]
        while lanes[0] or lanes[1]:
            for lane in lanes:
                if lane:
                    order.append(lane.pop(0).id)
    return order


# ============================================================== windows
def usable_cards(state: MmhState, seat: int, window: Window) -> list[str]:
    """Cards ``seat``'s fighting hero may use in ``window`` now (each skill and artefact
    once per battle, start-of-battle ones once per exchange; scrolls need Magic at least
    their level and no Dispel).

    Rule: mmh:other-game-rules.using-card-effects.
    """
    side = side_of_seat(state, seat)
    if side is None:
        return []
    hero = side_hero(state, side)
    assert hero is not None
    b = _battle(state)
    found = []
    for card in (*hero.skills, *hero.artefacts, *hero.scrolls):
        abilities = card_abilities(hero, card)
        if abilities is None or abilities.primary.window != window:
            continue
        if abilities.kind == "scroll":
            if seat in b.dispelled or content().scroll(card).level > magic(state, hero):
                continue
        elif window == Window.START:
            if card in b.exchange_used.get(hero.id, []):
                continue
        elif card in b.used.get(hero.id, []):
            continue
        if _targets(state, side, abilities.primary) == [] and abilities.primary.target != "none":
            continue
        if not _worth(state, hero, abilities.primary):
            continue
        found.append(card)
    return found


def _worth(state: MmhState, hero: Hero, ability: Ability) -> bool:
    """False for an ability that could do nothing now (raise dead with nothing to raise,
    a summon with no element marker left)."""
    b = _battle(state)
    kinds = {e.kind for e in ability.effects}
    if kinds == {EffectKind.RAISE_DEAD}:
        return bool(raise_options(state, hero, b.fallen.get(hero.id, {})))
    if kinds == {EffectKind.SUMMON}:
        return any(e.element in state.element_supply for e in ability.effects)
    return True


def _targets(state: MmhState, side: int, ability: Ability) -> list[int]:
    """Track markers an ability may aim at (enemy: not heroes for damage; own: stacks and
    elements)."""
    b = _battle(state)
    if ability.target == "none":
        return []
    if ability.target == "own":
        return [
            u.id
            for u in b.units
            if u.side == side and u.kind in ("stack", "element") and alive(state, u)
        ]
    damage = any(e.kind == EffectKind.DAMAGE for e in ability.effects)
    return [
        u.id
        for u in b.units
        if u.side != side and alive(state, u) and not (damage and u.kind == "hero")
    ]


def may_use_cards(state: MmhState, seat: int, window: Window) -> bool:
    """Whether ``seat`` is asked in ``window``, decided from public facts only: its hero
    holds a face-up skill or artefact usable now, or holds any scroll card at all (their
    number is public, not their names) and is not Dispelled (mmh:other-game-rules.
    using-card-effects; house rule 6). Whether a held scroll is usable now is never
    consulted, so the table learns nothing from being asked; "use nothing" is always
    an answer."""
    side = side_of_seat(state, seat)
    if side is None:
        return False
    hero = side_hero(state, side)
    assert hero is not None
    if hero.scrolls and seat not in _battle(state).dispelled:
        return True
    return any(card not in hero.scrolls for card in usable_cards(state, seat, window))


def open_window(state: MmhState, window: Window) -> list[Event]:
    """Open a timing window: the seats `may_use_cards` decides for are asked in turn
    (active player first); with none, the window closes at once.

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    b.window = window.value
    b.window_seats = [s for s in participants(state) if may_use_cards(state, s, window)]
    if b.window_seats:
        b.step = "window"
        return []
    return close_window(state)


def close_window(state: MmhState) -> list[Event]:
    """Continue after a window: build the track, start the attacks, end the exchange, or
    end the battle.

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    window = Window(b.window or "before")
    b.window_seats = []
    if window == Window.BEFORE:
        b.exchange = 1
        return [ev("exchange", "Exchange of blows 1."), *open_window(state, Window.START)]
    if window == Window.START:
        b.order = compute_order(state)
        b.pos = 0
        b.step = "turn"
        names = ", ".join(unit_name(state, u) for u in (b.units[i] for i in b.order))
        return [ev("track", f"Initiative track: {names}.", order=b.order)]
    if window == Window.AFTER_EXCHANGE:
        return _next_exchange(state)
    return conclude(state)


def pass_window(state: MmhState, seat: int) -> list[Event]:
    """The seat uses no (more) cards in this window. :raises IllegalMove: out of turn.

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    if b.step != "window" or not b.window_seats or b.window_seats[0] != seat:
        raise IllegalMove("You have no card window open.")
    b.window_seats.pop(0)
    if not b.window_seats:
        return close_window(state)
    return []


def _next_exchange(state: MmhState) -> list[Event]:
    b = _battle(state)
    events: list[Event] = []
    c = content()
    for unit in b.units:
        if unit.kind == "encounter" and unit.alive and unit.damage:
            assert unit.marker is not None
            if "regeneration" in c.encounter(unit.marker).abilities:
                unit.damage = 0
                events.append(
                    ev("regeneration", f"{unit_name(state, unit)} regenerates all damage.")
                )
    b.buffs = []
    b.shields = {}
    b.angel_used = []
    b.misfortune_used = []
    b.exchange_used = {}
    b.exchange += 1
    events.append(ev("exchange", f"Exchange of blows {b.exchange}.", exchange=b.exchange))
    if b.kind == "hero":
        b.retreat_seats = [participants(state)[1], participants(state)[0]]
    else:
        b.retreat_seats = [participants(state)[0]]
    b.step = "retreat"
    return events


# ============================================================== honor
def choose_honor(state: MmhState, seat: int, elite_die: bool) -> list[Event]:
    """Honor: everyone in this battle may roll the elite die, or nobody may.

    Rule: mmh:course-of-play.build.
    """
    b = _battle(state)
    if b.step != "honor" or b.window_seats[:1] != [seat]:
        raise IllegalMove("You are not deciding Honor now.")
    b.honor = "all" if elite_die else "none"
    b.window_seats = []
    text = "every marker may roll the elite die" if elite_die else "nobody may roll the elite die"
    return [ev("honor", f"Honor: in this battle {text}."), *open_window(state, Window.BEFORE)]


# ============================================================== cards in battle
def use_card(state: MmhState, seat: int, card: str, part: str, target: int | None) -> list[Event]:
    """Use a skill, artefact or scroll card in its window (or, In Battle, instead of the
    hero's attack) (mmh:course-of-play.battles, Skills in Battle).

    ``part``: ``primary``, ``secondary`` (an OR card) or ``both`` (an AND card); the
    secondary part needs the card's school on the hero sheet.
    :raises IllegalMove: out of turn, for a card not usable now, a part not allowed, or a
        missing or wrong target.
    """
    b = _battle(state)
    side = side_of_seat(state, seat)
    if side is None:
        raise IllegalMove("Your hero does not fight in this battle.")
    hero = side_hero(state, side)
    assert hero is not None
    if b.step == "window" and b.window_seats[:1] == [seat]:
        window = Window(b.window or "before")
    elif b.step == "turn" and _current_is_hero(state, hero):
        window = Window.IN_BATTLE
    else:
        raise IllegalMove("You cannot use a card now.")
    if card not in usable_cards(state, seat, window):
        raise IllegalMove(f"That card cannot be used now ({_window_words(window)}).")
    abilities = card_abilities(hero, card)
    assert abilities is not None
    parts = _parts(
        abilities.primary, abilities.secondary, abilities.link, abilities.school_ok, part
    )
    aim = abilities.primary.target
    options = _targets(state, side, abilities.primary)
    if aim != "none":
        if target is None or target not in options:
            raise IllegalMove(
                "Choose a target: " + ", ".join(unit_name(state, b.units[i]) for i in options) + "."
            )
    elif target is not None:
        raise InvalidInput("This card takes no target.")
    events = _spend_card(state, hero, card, abilities.kind, window)
    effects = [e for p in parts for e in p.effects]
    events += _apply_effects(state, hero, side, effects, target, window)
    handled = any(e.kind in (EffectKind.DAMAGE, EffectKind.MAGIC_ATTACK) for e in effects)
    if handled:
        return events
    return events + _after_card(state, seat, window)


def _window_words(window: Window) -> str:
    return WINDOW_NAMES[window]


def _parts(
    primary: Ability, secondary: Ability | None, link: str, school_ok: bool, part: str
) -> list[Ability]:
    if part == "primary":
        return [primary]
    if secondary is None or not school_ok:
        raise IllegalMove("Only the primary part may be used: the hero lacks the card's school.")
    if link == "or" and part == "secondary":
        return [secondary]
    if link == "and" and part == "both":
        return [primary, secondary]
    allowed = "primary or secondary" if link == "or" else "primary or both"
    raise IllegalMove(f"For this card choose {allowed}.")


def _spend_card(state: MmhState, hero: Hero, card: str, kind: str, window: Window) -> list[Event]:
    b = _battle(state)
    c = content()
    if kind == "scroll":
        hero.scrolls.remove(card)
        state.scroll_discard.append(card)
        scroll = c.scroll(card)
        return [
            ev(
                "scroll_used",
                f"{hero_name(hero)} casts the scroll {scroll.name} (level {scroll.level}).",
                card=card,
            )
        ]
    if window == Window.START:
        b.exchange_used.setdefault(hero.id, []).append(card)
    else:
        b.used.setdefault(hero.id, []).append(card)
    name = c.skill(card).name if kind == "skill" else c.artefact(card).name
    return [ev("card_used", f"{hero_name(hero)} uses {name}.", card=card)]


def _apply_effects(
    state: MmhState,
    hero: Hero,
    side: int,
    effects: list[Effect],
    target: int | None,
    window: Window,
) -> list[Event]:
    b = _battle(state)
    events: list[Event] = []
    damage = 0
    name = hero_name(hero)
    for effect in effects:
        kind, value = effect.kind, effect.value
        if kind == EffectKind.DAMAGE:
            damage += value
        elif kind == EffectKind.RAISE_DEAD:
            push(
                state,
                Raise(
                    seat=hero.owner,
                    hero=hero.id,
                    points=value,
                    fallen=dict(b.fallen.get(hero.id, {})),
                ),
            )
            events.append(ev("raise_dead", f"{name}: RAISE DEAD {value}."))
        elif kind == EffectKind.SHIELD:
            b.shields[hero.id] = b.shields.get(hero.id, 0) + value
            events.append(
                ev("shield", f"{name}'s army ignores the next {value} damage this exchange.")
            )
        elif kind == EffectKind.LUCK:
            events += gain_luck(state, hero, value)
        elif kind in (
            EffectKind.STACK_MIGHT,
            EffectKind.STACK_INITIATIVE,
            EffectKind.WEAKEN,
            EffectKind.SLOW,
        ):
            assert target is not None
            stat = "might" if kind in (EffectKind.STACK_MIGHT, EffectKind.WEAKEN) else "initiative"
            sign = -1 if kind in (EffectKind.WEAKEN, EffectKind.SLOW) else 1
            b.buffs.append(Buff(unit=target, stat=stat, value=sign * value))
            events.append(
                ev(
                    "buff",
                    f"{unit_name(state, b.units[target])}: {'+' if sign > 0 else '-'}{value} {stat} this exchange.",
                )
            )
        elif kind == EffectKind.SUMMON:
            element = effect.element
            if element in state.element_supply:
                state.element_supply.remove(element)
                unit = BUnit(
                    id=len(b.units), side=side, kind="element", element=element, hero=hero.id
                )
                b.units.append(unit)
                events.append(
                    ev(
                        "summon",
                        f"{name} summons the {content().element(element).name} for this battle.",
                    )
                )
            else:
                events.append(ev("summon", "That element marker is in use: nothing is summoned."))
        elif kind == EffectKind.DISPEL:
            enemy = side_hero(state, 1 - side)
            if enemy is not None and enemy.owner not in b.dispelled:
                b.dispelled.append(enemy.owner)
            events.append(
                ev("dispel", "Dispel: no enemy hero may use a scroll card in this battle.")
            )
        elif kind == EffectKind.GOLD:
            state.seats[hero.owner].gold += value
            events.append(ev("gain", f"{who(hero.owner)} takes {value} gold."))
        elif kind == EffectKind.RESOURCES:
            state.seats[hero.owner].resources += value
            events.append(ev("gain", f"{who(hero.owner)} takes {value} resources."))
        elif kind == EffectKind.MAGIC_ATTACK:
            unit = _hero_unit(state, hero)
            events += _start_attack(state, unit, can_elite(state, unit), None, magic_dice=value)
    if damage:
        assert target is not None
        b.resume = "window" if window != Window.IN_BATTLE else "turn"
        events += _deal(state, 1 - side, damage, 0, piercing=False, forced=target, source=name)
    return events


def _hero_unit(state: MmhState, hero: Hero) -> BUnit:
    b = _battle(state)
    return next(u for u in b.units if u.kind == "hero" and u.hero == hero.id)


def _current_is_hero(state: MmhState, hero: Hero) -> bool:
    b = _battle(state)
    if b.step != "turn" or b.pos >= len(b.order):
        return False
    unit = b.units[b.order[b.pos]]
    return unit.kind == "hero" and unit.hero == hero.id


def _after_card(state: MmhState, seat: int, window: Window) -> list[Event]:
    b = state.battle
    if b is None or b.loser_side is not None:
        return []
    if window == Window.IN_BATTLE:
        return _turn_done(state)
    if (
        b.step == "window"
        and b.window_seats[:1] == [seat]
        and not may_use_cards(state, seat, window)
    ):
        return pass_window(state, seat)
    return []


# ============================================================== attacks
def can_elite(state: MmhState, unit: BUnit) -> bool:
    """May this marker roll the elite die (elite creature in the stack or, for a hero, in
    the army; an encounter with the symbol; Honor decides for everyone)?

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    if b.honor == "none":
        return False
    if b.honor == "all":
        return True
    if unit.kind == "stack":
        assert unit.hero is not None
        return any(state.heroes[unit.hero].army[i].elite for i in stack_units(state, unit))
    if unit.kind == "hero":
        assert unit.hero is not None
        return elite_in_army(state.heroes[unit.hero])
    if unit.kind == "encounter":
        assert unit.marker is not None
        return content().encounter(unit.marker).elite
    return False


def focus_targets(state: MmhState, unit: BUnit) -> list[int]:
    """Enemy markers a Focused Attack may pick (not stacks or markers with Defender); empty
    when the marker has no Focused Attack or the choice would change nothing.

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    if "focused" not in _abilities(state, unit):
        return []
    enemies = [u for u in b.units if u.side != unit.side and u.kind != "hero" and alive(state, u)]
    if len(enemies) < 2:
        return []
    return [u.id for u in enemies if "defender" not in _abilities(state, u)]


def _dice_mights(state: MmhState, unit: BUnit, magic_dice: int | None) -> list[int]:
    """The might each attack die hits on (before the elite die replaces one)."""
    b = _battle(state)
    c = content()
    bonus = _buff(b, unit, "might")
    if unit.kind == "hero":
        assert unit.hero is not None
        hero = state.heroes[unit.hero]
        if magic_dice is not None:
            return [magic(state, hero) + bonus] * magic_dice
        return [might(state, hero) + bonus] * hero_dice(state, hero)
    if unit.kind == "stack":
        assert unit.hero is not None and unit.creature is not None
        hero = state.heroes[unit.hero]
        kind = c.creature(unit.creature)
        basic_bonus = passive(state, hero, EffectKind.BASIC_MIGHT)
        members = [hero.army[i] for i in stack_units(state, unit)]
        elites = [kind.elite.might + bonus for u in members if u.elite]
        basics = [kind.basic.might + basic_bonus + bonus for u in members if not u.elite]
        return elites + basics
    if unit.kind == "encounter":
        assert unit.marker is not None
        enc = c.encounter(unit.marker)
        value = enc.might + week_event(state).encounter_might + bonus
        if "battle_fury" in enc.abilities:
            return [value] * MAX_DICE
        left = enc.threat - max(0, unit.damage - enc.resilience)
        return [value] * max(1, left)
    assert unit.element is not None
    element = c.element(unit.element)
    return [element.might + bonus] * element.dice


def attack(state: MmhState, seat: int, elite: bool, target: int | None) -> list[Event]:
    """The current marker on the track attacks (mmh:course-of-play.battles, Resolving
    Battles). ``elite``: replace one attack die by the elite die (a choice for a stack's
    or hero's owner and for an encounter marker's controller alike: "may replace", The
    Elite Die); ``target``: the enemy marker a Focused Attack picks.

    :raises IllegalMove: out of turn, an elite die not allowed, or a target not allowed.
    """
    b = _battle(state)
    if b.step != "turn" or b.pos >= len(b.order):
        raise IllegalMove("No marker is waiting to attack.")
    unit = b.units[b.order[b.pos]]
    if unit_seat(state, unit) != seat:
        raise IllegalMove(f"{unit_name(state, unit)} is not yours to command.")
    if elite and not can_elite(state, unit):
        raise IllegalMove(
            f"{unit_name(state, unit)} may not roll the elite die: attack with elite:false."
        )
    if target is not None and target not in focus_targets(state, unit):
        raise IllegalMove(f"{unit_name(state, unit)} cannot pick that target.")
    return _start_attack(state, unit, elite, target)


def _start_attack(
    state: MmhState, unit: BUnit, elite: bool, target: int | None, magic_dice: int | None = None
) -> list[Event]:
    b = _battle(state)
    mights = _dice_mights(state, unit, magic_dice)
    if elite:
        mights = mights[:MAX_DICE] if len(mights) > MAX_DICE else mights[:-1]
    else:
        mights = mights[:MAX_DICE]
    abilities = _abilities(state, unit)
    events: list[Event] = []
    what = unit_name(state, unit)
    dice = [roll(state, 8, f"{what}'s attack", events) for _ in mights]
    face = roll(state, 6, f"{what}'s elite die", events) if elite else None
    b.roll = Roll(
        unit=unit.id,
        mights=mights,
        dice=dice,
        rerolled=[False] * len(dice),
        elite=face,
        focused="focused" in abilities,
        target=target,
        piercing="piercing" in abilities,
        annihilator="annihilator" in abilities,
    )
    events.append(
        ev(
            "attack",
            f"{what} attacks: {_dice_text(b.roll)}.",
            unit=unit.id,
            dice=dice,
            elite=face,
        )
    )
    return events + continue_attack(state)


def _hit(face: int, might_value: int) -> bool:
    """A d8 hits on 1 always, misses on 8 always, else hits on might or less."""
    if face == 1:
        return True
    if face == 8:
        return False
    return face <= might_value


def _dice_text(r: Roll) -> str:
    parts = []
    for face, m in zip(r.dice, r.mights, strict=True):
        parts.append(f"{face}{'✓' if _hit(face, m) else '✗'}")
    text = " ".join(parts) or "no d8"
    if r.elite is not None:
        text += f" + elite die: {ELITE_FACES[r.elite]}"
    return text


def _reroll(state: MmhState, which: str, events: list[Event]) -> int:
    """Reroll every die not rerolled yet that ``which`` names (``missed`` or ``hits``)."""
    b = _battle(state)
    r = b.roll
    assert r is not None
    count = 0
    for i, face in enumerate(r.dice):
        if r.rerolled[i]:
            continue
        hit = _hit(face, r.mights[i])
        if (which == "missed" and not hit) or (which == "hits" and hit):
            r.dice[i] = roll(state, 8, "a reroll", events)
            r.rerolled[i] = True
            count += 1
    return count


def _attacker_hero(state: MmhState, unit: BUnit) -> Hero | None:
    if unit.kind == "encounter":
        return None
    return side_hero(state, unit.side)


def _luck_usable(state: MmhState, hero: Hero | None) -> bool:
    return hero is not None and hero.luck > 0 and not week_event(state).no_luck


def continue_attack(state: MmhState) -> list[Event]:
    """Carry the attack on from its stage until a decision is owed or damage is dealt.

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    r = b.roll
    assert r is not None
    unit = b.units[r.unit]
    events: list[Event] = []
    hero = _attacker_hero(state, unit)
    if r.stage == "elite":
        if r.elite is not None:
            face = ELITE_FACES[r.elite]
            r.skulls, r.laurel = 0, False
            if face == "skull":
                r.skulls = 1
            elif face == "two skulls":
                r.skulls = 2
            elif face == "laurel wreath":
                r.laurel = True
            elif face == "luck":
                if _reroll(state, "missed", events):
                    events.append(ev("reroll", f"Luck: missed dice rerolled: {_dice_text(r)}."))
            elif face == "bad luck":
                if _luck_usable(state, hero) and not r.negated:
                    b.step = "negate"
                    return events
                if _reroll(state, "hits", events):
                    events.append(ev("reroll", f"Bad luck: hits rerolled: {_dice_text(r)}."))
        r.stage = "luck" if r.elite_rerolled else "rerolls"
    if r.stage == "rerolls":
        if r.focused:
            miss = next(
                (i for i, f in enumerate(r.dice) if not r.rerolled[i] and not _hit(f, r.mights[i])),
                None,
            )
            if miss is not None:
                r.dice[miss] = roll(state, 8, "the Focused Attack reroll", events)
                r.rerolled[miss] = True
        defender = side_hero(state, 1 - unit.side)
        if (
            defender is not None
            and passive(state, defender, EffectKind.MISFORTUNE)
            and defender.id not in b.misfortune_used
        ):
            b.misfortune_used.append(defender.id)
            if _reroll(state, "hits", events):
                events.append(ev("reroll", f"Ring of Misfortune: hits rerolled: {_dice_text(r)}."))
        r.stage = "luck"
    if r.stage == "luck":
        if _luck_usable(state, hero) and luck_choices(state):
            b.step = "luck"
            return events
        r.stage = "laurel"
    if r.stage == "laurel":
        if r.laurel:
            r.laurel = False
            more = _laurel(state, unit)
            events += more
            if b.step == "laurel":
                return events
        r.stage = "damage"
    return events + _resolve_damage(state)


def luck_choices(state: MmhState) -> list[str]:
    """What a luck marker could reroll now: ``missed`` d8s and/or the ``elite`` die.

    Rule: mmh:other-game-rules.luck.
    """
    b = _battle(state)
    r = b.roll
    if r is None:
        return []
    found = []
    if any(not r.rerolled[i] and not _hit(f, r.mights[i]) for i, f in enumerate(r.dice)):
        found.append("missed")
    if r.elite is not None and not r.elite_rerolled:
        found.append("elite")
    return found


def spend_luck(state: MmhState, seat: int, choice: str) -> list[Event]:
    """Answer a luck decision: ``negate`` (cancel Bad Luck), ``missed``, ``elite`` or
    ``none`` (mmh:other-game-rules.luck).

    :raises IllegalMove: out of turn or for a choice not open now.
    """
    b = _battle(state)
    r = b.roll
    if r is None or b.step not in ("negate", "luck"):
        raise IllegalMove("There is no luck decision now.")
    unit = b.units[r.unit]
    if unit_seat(state, unit) != seat:
        raise IllegalMove("Only the attacker may spend luck on this attack.")
    hero = _attacker_hero(state, unit)
    assert hero is not None
    events: list[Event] = []
    if b.step == "negate":
        if choice not in ("negate", "none"):
            raise IllegalMove("Spend a luck marker to negate the Bad Luck (negate), or not (none).")
        b.step = "turn"
        if choice == "negate":
            hero.luck -= 1
            state.luck_supply += 1
            r.negated = True
            events.append(
                ev(
                    "luck_spent",
                    f"{hero_name(hero)} spends a luck marker: the Bad Luck is negated.",
                )
            )
        else:
            r.negated = True
            if _reroll(state, "hits", events):
                events.append(ev("reroll", f"Bad luck: hits rerolled: {_dice_text(r)}."))
        r.stage = "luck" if r.elite_rerolled else "rerolls"
        return events + continue_attack(state)
    allowed = luck_choices(state)
    if choice != "none" and choice not in allowed:
        raise IllegalMove(f"A luck marker may reroll: {', '.join(allowed) or 'nothing'} (or none).")
    b.step = "turn"
    if choice == "none":
        r.stage = "laurel"
        return continue_attack(state)
    hero.luck -= 1
    state.luck_supply += 1
    if choice == "missed":
        _reroll(state, "missed", events)
        events.append(ev("luck_spent", f"{hero_name(hero)} spends a luck marker: {_dice_text(r)}."))
        return events + continue_attack(state)
    r.elite = roll(state, 6, "the elite die reroll", events)
    r.elite_rerolled = True
    r.negated = False
    r.stage = "elite"
    events.append(
        ev(
            "luck_spent",
            f"{hero_name(hero)} spends a luck marker on the elite die: {ELITE_FACES[r.elite]}.",
        )
    )
    return events + continue_attack(state)


def laurel_options(state: MmhState, unit: BUnit) -> list[str]:
    """What a laurel wreath may do for this attacker: ``upgrade`` a basic creature of the
    attacking stack and/or ``raise`` (RAISE DEAD 1).

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    found = []
    if unit.kind == "stack":
        assert unit.hero is not None
        army = state.heroes[unit.hero].army
        if any(not army[i].elite for i in stack_units(state, unit)):
            found.append("upgrade")
    hero = _attacker_hero(state, unit)
    if hero is not None and raise_options(state, hero, b.fallen.get(hero.id, {})):
        found.append("raise")
    return found


def _laurel(state: MmhState, unit: BUnit) -> list[Event]:
    b = _battle(state)
    if unit.kind == "encounter":
        if unit.damage:
            unit.damage -= 1
            return [
                ev("laurel", f"Laurel wreath: {unit_name(state, unit)} removes a damage marker.")
            ]
        return []
    options = laurel_options(state, unit)
    if len(options) == 2:
        b.step = "laurel"
        return []
    if options:
        return _do_laurel(state, unit, options[0])
    return []


def _do_laurel(state: MmhState, unit: BUnit, choice: str) -> list[Event]:
    b = _battle(state)
    hero = _attacker_hero(state, unit)
    assert hero is not None
    if choice == "upgrade":
        army = hero.army
        index = next(i for i in stack_units(state, unit) if not army[i].elite)
        army[index].elite = True
        assert unit.creature is not None
        return [
            ev("laurel", f"Laurel wreath: a {creature_name(unit.creature, False)} becomes elite.")
        ]
    push(
        state,
        Raise(seat=hero.owner, hero=hero.id, points=1, fallen=dict(b.fallen.get(hero.id, {}))),
    )
    return [ev("laurel", f"Laurel wreath: {hero_name(hero)} gets RAISE DEAD 1.")]


def choose_laurel(state: MmhState, seat: int, choice: str) -> list[Event]:
    """Answer the laurel wreath: ``upgrade`` or ``raise``. :raises IllegalMove: otherwise.

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    r = b.roll
    if r is None or b.step != "laurel":
        raise IllegalMove("There is no laurel wreath to resolve.")
    unit = b.units[r.unit]
    if unit_seat(state, unit) != seat:
        raise IllegalMove("Only the attacker resolves the laurel wreath.")
    if choice not in laurel_options(state, unit):
        raise IllegalMove(f"Choose {' or '.join(laurel_options(state, unit))}.")
    b.step = "turn"
    r.stage = "damage"
    return _do_laurel(state, unit, choice) + continue_attack(state)


def _resolve_damage(state: MmhState) -> list[Event]:
    b = _battle(state)
    r = b.roll
    assert r is not None
    unit = b.units[r.unit]
    hits = sum(1 for face, m in zip(r.dice, r.mights, strict=True) if _hit(face, m))
    damage = hits * (2 if r.annihilator else 1)
    total = damage + r.skulls
    b.last = LastAttack(unit=unit.id, dice=list(r.dice), elite=r.elite, hits=hits, damage=total)
    b.roll = None
    events = [
        ev(
            "hits",
            f"{unit_name(state, unit)}: {plural(hits, 'hit')}"
            + (f" + {r.skulls} from the elite die" if r.skulls else "")
            + f" = {total} damage.",
            unit=unit.id,
            hits=hits,
            damage=total,
        )
    ]
    b.resume = "turn"
    if total == 0:
        return events + _turn_done(state)
    return events + _deal(
        state,
        1 - unit.side,
        damage,
        r.skulls,
        piercing=r.piercing,
        forced=r.target,
        source=unit_name(state, unit),
    )


def _deal(
    state: MmhState,
    side: int,
    damage: int,
    elite_damage: int,
    *,
    piercing: bool,
    forced: int | None,
    source: str,
) -> list[Event]:
    """Deal ``damage`` (from d8s, cards) plus ``elite_damage`` (the elite die's skulls) to
    ``side``. An owner of the Guardian Angel who has not used it this exchange first
    decides whether to ignore the elite die's damage (`choose_angel`: "can ignore", so a
    choice: he may keep it for a bigger hit later in the exchange); then `_deal_on`.
    (mmh:course-of-play.battles, Assigning Damage; mmh:course-of-play.build, Guardian Angel)."""
    b = _battle(state)
    hero = side_hero(state, side)
    b.damage = damage
    b.elite_damage = elite_damage
    b.damage_side = side
    b.piercing = piercing
    b.forced = forced
    if hero is not None and elite_damage and angel_ready(state, hero.owner):
        b.step = "angel"
        return [
            ev(
                "angel_offer",
                f"Guardian Angel: {who(hero.owner)} may ignore the elite die's "
                f"{elite_damage} damage (once per exchange of blows).",
                seat=hero.owner,
                damage=elite_damage,
            )
        ]
    return _deal_on(state)


def angel_ready(state: MmhState, seat: int) -> bool:
    """True when ``seat`` owns the Guardian Angel and has not used it this exchange of
    blows (mmh:course-of-play.build, Guardian Angel)."""
    return has_building(state, seat, "guardian_angel") and seat not in _battle(state).angel_used


def choose_angel(state: MmhState, seat: int, use: bool) -> list[Event]:
    """Answer the Guardian Angel: ``use`` ignores the elite die's damage of this attack (and
    spends the Angel for this exchange); otherwise the damage is dealt and the Angel waits
    (mmh:course-of-play.build, Guardian Angel: "Once per exchange of blows, the owner can
    ignore the damage from the elite die").

    :raises IllegalMove: when no Guardian Angel decision is owed by ``seat``.
    """
    b = _battle(state)
    hero = side_hero(state, b.damage_side)
    if b.step != "angel" or hero is None or hero.owner != seat:
        raise IllegalMove("You have no Guardian Angel decision now.")
    if use:
        b.angel_used.append(seat)
        b.elite_damage = 0
        text = f"Guardian Angel: {who(seat)} ignores the elite die's damage."
    else:
        text = f"Guardian Angel: {who(seat)} takes the elite die's damage and keeps the Angel."
    return [ev("angel", text, seat=seat, used=use), *_deal_on(state)]


def _deal_on(state: MmhState) -> list[Event]:
    """The pending damage after the Guardian Angel: shields first, then encounter markers
    take it at once, an army's owner assigns it."""
    b = _battle(state)
    side = b.damage_side
    events: list[Event] = []
    hero = side_hero(state, side)
    total = b.damage + b.elite_damage
    b.damage = b.elite_damage = 0
    if hero is not None:
        shield = min(b.shields.get(hero.id, 0), total)
        if shield:
            b.shields[hero.id] -= shield
            total -= shield
            events.append(ev("shield", f"{shield} damage is ignored (shield)."))
    if total <= 0 or hero is None:
        b.forced = None
        b.step = "window" if b.resume == "window" else "turn"
        if total > 0:
            events += _damage_encounters(state, side, total, b.piercing)
        return events + _after_damage(state)
    b.damage = total
    b.step = "assign"
    return events + _auto_assign(state)


def _damage_encounters(state: MmhState, side: int, total: int, piercing: bool) -> list[Event]:
    """Encounter markers take damage markers: one is destroyed completely before the next
    takes any (Dark Times)."""
    b = _battle(state)
    c = content()
    events: list[Event] = []
    while total > 0:
        live = [u for u in b.units if u.side == side and u.kind == "encounter" and u.alive]
        if not live:
            break
        live.sort(key=lambda u: (-u.damage, u.id))
        unit = live[0]
        assert unit.marker is not None
        enc = c.encounter(unit.marker)
        hp = enc.threat + (0 if piercing else enc.resilience)
        take = min(total, max(1, hp - unit.damage))
        unit.damage += take
        total -= take
        if unit.damage >= hp:
            unit.alive = False
            events.append(ev("destroyed", f"{unit_name(state, unit)} is destroyed.", unit=unit.id))
        else:
            events.append(
                ev(
                    "damage",
                    f"{unit_name(state, unit)} takes {take} damage ({unit.damage} in all).",
                    unit=unit.id,
                )
            )
    return events


def assign_options(state: MmhState) -> list[tuple[int, str]]:
    """(marker, order) pairs the defender may assign the pending damage to: the Focused
    target first while it stands; ``order`` ``elite`` flips elite creatures first, ``basic``
    destroys basic ones first (only offered when the stack has both).

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    if b.step != "assign":
        return []
    side = b.damage_side
    units = [
        u for u in b.units if u.side == side and u.kind in ("stack", "element") and alive(state, u)
    ]
    if b.forced is not None and any(u.id == b.forced for u in units):
        units = [u for u in units if u.id == b.forced]
    found: list[tuple[int, str]] = []
    for u in units:
        if u.kind == "stack":
            assert u.hero is not None
            army = state.heroes[u.hero].army
            sides = {army[i].elite for i in stack_units(state, u)}
            if len(sides) == 2:
                found += [(u.id, "elite"), (u.id, "basic")]
            else:
                found.append((u.id, "elite" if True in sides else "basic"))
        else:
            found.append((u.id, "elite"))
    return found


def _auto_assign(state: MmhState) -> list[Event]:
    options = assign_options(state)
    if len(options) == 1:
        return _apply_assign(state, *options[0])
    if not options:
        return _finish_assign(state)
    return []


def assign(state: MmhState, seat: int, unit_id: int, order: str) -> list[Event]:
    """The defender assigns the pending damage to one of his stacks (or element).

    :raises IllegalMove: out of turn or for a marker / order not allowed now.

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    if b.step != "assign":
        raise IllegalMove("There is no damage to assign.")
    side = b.damage_side
    hero = side_hero(state, side)
    assert hero is not None
    if hero.owner != seat:
        raise IllegalMove(f"{who(hero.owner)} assigns this damage.")
    if (unit_id, order) not in assign_options(state):
        choices = ", ".join(
            f"{unit_name(state, b.units[u])} ({o})" for u, o in assign_options(state)
        )
        raise IllegalMove(f"Assign the damage to: {choices}.")
    return _apply_assign(state, unit_id, order)


def _apply_assign(state: MmhState, unit_id: int, order: str) -> list[Event]:
    b = _battle(state)
    unit = b.units[unit_id]
    events: list[Event] = []
    if unit.kind == "element":
        assert unit.element is not None
        element = content().element(unit.element)
        hp = 1 + (0 if b.piercing else element.resilience)
        take = min(b.damage, hp - unit.damage)
        unit.damage += take
        b.damage -= take
        if unit.damage >= hp:
            unit.alive = False
            assert unit.element is not None
            state.element_supply.append(unit.element)
            events.append(ev("destroyed", f"{unit_name(state, unit)} is destroyed."))
    else:
        events += _damage_stack(state, unit, order)
    if b.forced == unit_id:
        b.forced = None
    if b.damage > 0 and side_standing(state, unit.side):
        return events + _auto_assign(state)
    return events + _finish_assign(state)


def _damage_stack(state: MmhState, unit: BUnit, order: str) -> list[Event]:
    """Damage point by point: a creature with damage markers takes the next point; else an
    elite (flipped) or basic (destroyed) creature by ``order``; Resilience holds one damage
    marker per symbol unless the attack is Piercing (mmh:course-of-play.battles)."""
    b = _battle(state)
    assert unit.hero is not None and unit.creature is not None
    hero = state.heroes[unit.hero]
    kind = content().creature(unit.creature)
    flipped = destroyed = 0
    while b.damage > 0:
        members = stack_units(state, unit)
        if not members:
            break
        wounded = [i for i in members if hero.army[i].wounds > 0]
        preferred = [i for i in members if hero.army[i].elite == (order == "elite")]
        index = (wounded or preferred or members)[0]
        target = hero.army[index]
        resilience = 0 if b.piercing else (kind.elite if target.elite else kind.basic).resilience
        b.damage -= 1
        target.wounds += 1
        if target.wounds <= resilience:
            continue
        target.wounds = 0
        if target.elite:
            target.elite = False
            flipped += 1
        else:
            hero.army.pop(index)
            state.seats[hero.owner].reserve[unit.creature] += 1
            fallen = b.fallen.setdefault(hero.id, {})
            fallen[unit.creature] = fallen.get(unit.creature, 0) + 1
            destroyed += 1
    text = f"{unit_name(state, unit)}: {flipped} flipped to basic, {destroyed} destroyed"
    return [ev("damage", text + ".", unit=unit.id, flipped=flipped, destroyed=destroyed)]


def _finish_assign(state: MmhState) -> list[Event]:
    b = _battle(state)
    b.damage = 0
    b.forced = None
    b.step = "window" if b.resume == "window" else "turn"
    return _after_damage(state)


def _after_damage(state: MmhState) -> list[Event]:
    b = _battle(state)
    for side in (0, 1):
        if not side_standing(state, side):
            return _end_battle(state, side, retreated=False)
    if b.resume == "window":
        b.step = "window"
        seat = b.window_seats[0] if b.window_seats else None
        if seat is not None and not may_use_cards(state, seat, Window(b.window or "before")):
            return pass_window(state, seat)
        if not b.window_seats:
            return close_window(state)
        return []
    return _turn_done(state)


def _turn_done(state: MmhState) -> list[Event]:
    b = _battle(state)
    b.pos += 1
    b.step = "turn"
    if b.pos >= len(b.order):
        return open_window(state, Window.AFTER_EXCHANGE)
    return []


# ============================================================== automatic play
def turn_choices(state: MmhState) -> bool:
    """True when the marker due to attack has a choice (the elite die, a Focused target,
    or for a hero `may_use_cards` In Battle, from public facts only); else `advance`
    rolls for it. An encounter marker's controller chooses too: he "may" replace a die by
    the elite die (mmh:course-of-play.battles, The Elite Die)."""
    b = _battle(state)
    unit = b.units[b.order[b.pos]]
    if unit.kind == "element":
        return False
    if unit.kind == "hero" and may_use_cards(state, unit_seat(state, unit), Window.IN_BATTLE):
        return True
    return can_elite(state, unit) or bool(focus_targets(state, unit))


def advance(state: MmhState) -> list[Event]:
    """Resolve everything that needs no decision until one is owed or the battle ends.

    Rule: mmh:course-of-play.battles.
    """
    events: list[Event] = []
    while state.battle is not None and not state.queue:
        b = state.battle
        if b.step == "turn" and b.roll is not None:
            events += continue_attack(state)
            continue
        if b.step != "turn":
            break
        if b.pos >= len(b.order):
            events += open_window(state, Window.AFTER_EXCHANGE)
            continue
        unit = b.units[b.order[b.pos]]
        if not alive(state, unit):
            b.pos += 1
            continue
        if turn_choices(state):
            break
        events += _start_attack(state, unit, can_elite(state, unit), None)
    return events


# ============================================================== retreat
def retreat_losses_needed(state: MmhState, hero: Hero) -> int:
    """Creatures a retreating hero loses: 2 (1 if he has only 1), less retreat savings.

    Rule: mmh:course-of-play.battles.
    """
    saving = passive(state, hero, EffectKind.RETREAT_SAVING)
    return max(0, min(2 - saving, len(hero.army)))


def defender_sacrifices(state: MmhState, hero: Hero) -> list[tuple[str, bool]]:
    """Creatures with Defender that may be sacrificed alone instead of the normal losses.

    Rule: mmh:course-of-play.battles.
    """
    c = content()
    found = []
    for unit in hero.army:
        kind = c.creature(unit.creature)
        side = kind.elite if unit.elite else kind.basic
        if "defender" in side.abilities and (unit.creature, unit.elite) not in found:
            found.append((unit.creature, unit.elite))
    return found


def retreat(state: MmhState, seat: int, losses: list[tuple[str, bool]] | None) -> list[Event]:
    """Retreat at the start of an exchange: the hero goes to his capital, losing 2
    creatures (or 1 creature with Defender) to his reserve; the battle is lost
    (mmh:course-of-play.battles, Retreat).

    :raises IllegalMove: out of turn or for losses that break the rule.
    """
    b = _battle(state)
    if b.step != "retreat" or b.retreat_seats[:1] != [seat]:
        raise IllegalMove("You cannot retreat now.")
    side = side_of_seat(state, seat)
    assert side is not None
    hero = side_hero(state, side)
    assert hero is not None
    need = retreat_losses_needed(state, hero)
    chosen = losses if losses is not None else default_losses(state, hero)
    single_defender = len(chosen) == 1 and chosen[0] in defender_sacrifices(state, hero)
    if len(chosen) != need and not single_defender:
        raise IllegalMove(
            f"Retreating costs {plural(need, 'creature')} (or 1 creature with Defender): name them, "
            "e.g. ghoul or ghoul+."
        )
    pool = [(u.creature, u.elite) for u in hero.army]
    for item in chosen:
        if item not in pool:
            raise no_such_marker(hero, *item, "to give up")
        pool.remove(item)
    for creature, elite in chosen:
        unit = next(u for u in hero.army if u.creature == creature and u.elite == elite)
        hero.army.remove(unit)
        state.seats[seat].reserve[creature] += 1
    lost = ", ".join(creature_name(c, e) for c, e in chosen) or "nothing"
    events = [
        ev(
            "retreat",
            f"{hero_name(hero)} retreats to the capital, leaving {lost} behind.",
            hero=hero.id,
        )
    ]
    return events + _end_battle(state, side, retreated=True)


def default_losses(state: MmhState, hero: Hero) -> list[tuple[str, bool]]:
    """The cheapest retreat: one Defender creature if that is fewer, else the weakest
    creatures (basic before elite, lower level first).

    Rule: mmh:course-of-play.battles.
    """
    need = retreat_losses_needed(state, hero)
    sacrifices = defender_sacrifices(state, hero)
    if need >= 2 and sacrifices:
        return [sorted(sacrifices, key=lambda x: (x[1], content().creature(x[0]).level))[0]]
    ranked = sorted(hero.army, key=lambda u: (u.elite, content().creature(u.creature).level))
    return [(u.creature, u.elite) for u in ranked[:need]]


def fight_on(state: MmhState, seat: int) -> list[Event]:
    """Stay in the battle; when every side has decided, the exchange begins.

    Rule: mmh:course-of-play.battles.
    """
    b = _battle(state)
    if b.step != "retreat" or b.retreat_seats[:1] != [seat]:
        raise IllegalMove("You have no retreat decision now.")
    b.retreat_seats.pop(0)
    if b.retreat_seats:
        return []
    return open_window(state, Window.START)


# ============================================================== the end
def _end_battle(state: MmhState, loser: int, *, retreated: bool) -> list[Event]:
    b = _battle(state)
    b.loser_side = loser
    b.retreated = retreated
    b.roll = None
    b.damage = 0
    b.forced = None
    b.retreat_seats = []
    winner = 1 - loser
    hero = side_hero(state, winner)
    name = hero_name(hero) if hero is not None else "The encounter"
    events = [ev("battle_won", f"{name} wins the battle.", winner_side=winner)]
    return events + open_window(state, Window.AFTER_BATTLE)


def conclude(state: MmhState) -> list[Event]:
    """After the last window: Necromancy, damage markers off, element markers back, then
    the winner's rewards and the loser's way home (mmh:course-of-play.battles, End of a
    Battle; Battle Between Two Heroes)."""
    b = _battle(state)
    assert b.loser_side is not None
    events: list[Event] = []
    for unit in b.units:
        if unit.kind == "element" and unit.alive and unit.element is not None:
            state.element_supply.append(unit.element)
    heroes = [h for h in (side_hero(state, 0), side_hero(state, 1)) if h is not None]
    for hero in heroes:
        for creature in hero.army:
            creature.wounds = 0
    state.battle = None
    for hero in heroes:
        fallen = b.fallen.get(hero.id, {})
        if has_building(state, hero.owner, "necromancy") and raise_options(state, hero, fallen):
            push(state, Raise(seat=hero.owner, hero=hero.id, points=2, fallen=dict(fallen)))
            events.append(ev("necromancy", f"Necromancy: {who(hero.owner)} gets RAISE DEAD 2."))
    if b.kind == "encounter":
        events += _end_encounter(state, b)
    else:
        events += _end_hero_battle(state, b)
    return events


def _send_home(state: MmhState, hero: Hero) -> list[Event]:
    hero.space = None
    if (
        state.action is not None
        and state.action.activation is not None
        and state.action.activation.hero == hero.id
    ):
        state.action.activation = None
    return [ev("home", f"{hero_name(hero)} returns to the capital.", hero=hero.id)]


def _end_encounter(state: MmhState, b: Battle) -> list[Event]:
    hero = state.heroes[b.attacker]
    marker = next(u.marker for u in b.units if u.kind == "encounter" and not u.extra)
    assert marker is not None and b.encounter_space is not None
    enc = content().encounter(marker)
    if b.loser_side == 0:
        state.encounters[b.encounter_space] = marker
        return [
            ev(
                "encounter_stays",
                f"The {enc.name} return to {geometry.space_label(state, b.encounter_space)}.",
            ),
            *_send_home(state, hero),
        ]
    hero.trophies.append(marker)
    events = [
        ev(
            "trophy",
            f"{hero_name(hero)} takes the {enc.name} as a trophy ({enc.xp} XP).",
            hero=hero.id,
            marker=marker,
            xp=enc.xp,
        )
    ]
    events += after_guard_defeated(state, hero, b.encounter_space, b.purpose, b.location)
    events += draw_treasure(state, hero, enc.chests, enc.colour != "yellow")
    return events


def _end_hero_battle(state: MmhState, b: Battle) -> list[Event]:
    attacker = state.heroes[b.attacker]
    assert b.defender is not None
    defender = state.heroes[b.defender]
    winner, loser = (defender, attacker) if b.loser_side == 0 else (attacker, defender)
    events = _send_home(state, loser)
    winner.space = b.space
    zone = control_zone(state, winner)
    taken = [s for s, owner in sorted(state.control.items()) if owner == loser.owner and s in zone]
    for space in taken:
        state.control[space] = winner.owner
    if taken:
        events.append(
            ev(
                "control",
                f"{who(winner.owner)} takes over {', '.join(geometry.space_label(state, s) for s in taken)} "
                f"from {who(loser.owner)}.",
                spaces=taken,
            )
        )
    push(state, Reward(seat=winner.owner, hero=winner.id, loser=loser.id))
    return events


# ============================================================== raise dead
def raise_options(state: MmhState, hero: Hero, fallen: dict[str, int]) -> list[tuple[str, str]]:
    """What one RAISE DEAD point may do for the hero: (creature, ``revive``) for a type
    destroyed in this battle with a marker in reserve and room under Leadership, or
    (creature, ``upgrade``) to turn a basic creature of his army elite.

    Rule: mmh:course-of-play.battles.
    """
    found: list[tuple[str, str]] = []
    seat = state.seats[hero.owner]
    if len(hero.army) < leadership(state, hero):
        for creature, count in sorted(fallen.items()):
            if count > 0 and seat.reserve.get(creature, 0) > 0:
                found.append((creature, "revive"))
    for creature in sorted({u.creature for u in hero.army if not u.elite}):
        found.append((creature, "upgrade"))
    return found
