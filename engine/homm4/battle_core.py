"""Battle lookups shared by every battle module: Creatures and sides, attack and defense
values, who can reach whom, the Melee Line minimum, where a battle card lives, the die, the
Creatures due in the current Phase and the decision each stage waits for.

Rule sections: homm4:battles.tactical-deployment (7 Creatures, the Melee / Ranged Line),
homm4:battles.making-a-melee-attack (stack bonus, Mass attack), homm4:battles.making-a-ranged-attack,
homm4:battles.making-support (Support value, Suitable target), homm4:battles.defense,
homm4:battles.regrouping, homm4:battles.phases-and-rounds, homm4:battles (Battles in Towns:
walls, Breach, Sack), homm4:heroes-levels-skills-and-spells.heroes-in-battle.

Sides are 0 (the Attacker) and 1 (the Defender). Everything here reads the working state;
only `take_out` / `kill_card` move cards (a killed card goes to its owner's discard pile).
"""

from __future__ import annotations

from typing import Any, Literal

from engine.core.errors import IllegalMove, NotYourDecision, WrongPhase
from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.homm4 import board, heroes, lands, zones
from engine.homm4.cards import (
    EffectKind,
    Flying,
    HeroCard,
    IgnoresObstacles,
    MultiTarget,
    Spellcaster,
    UnitCard,
)
from engine.homm4.state import (
    Army,
    Battle,
    Creature,
    Fallen,
    Homm4State,
    Site,
)

Side = Literal[0, 1]


Mode = Literal["melee", "ranged", "spell"]


MAX_CREATURES = 7
"""At most 7 Creatures / Creature Stacks per side (homm4:battles.tactical-deployment)."""


FRONT_MINIMUM = 3
"""Different Creatures needed on the Melee Line to use the Ranged Line."""


PHASES = 10
"""Phases per Round (homm4:battles.phases-and-rounds)."""


TOWN_DEFENSE = 10
"""The Town card's defense (homm4:battles, Battles in Towns)."""


RETREAT_DISTANCE = 4
"""Heroes may not retreat within this many hexes of their nearest Town."""


WALL_FRONT = {"none": FRONT_MINIMUM, "intact": 0, "breach": 1, "sack": 2}
"""Creatures a Town's defender must keep on the front line, by the walls' state."""


BATTLE_COMMANDS: tuple[str, ...] = (
    "deploy",
    "attack",
    "support",
    "group",
    "defend",
    "regroup",
    "cast_spell",
    "counterattack",
    "fill_front",
    "retreat",
    "offer_surrender",
    "answer_surrender",
)
"""Every command type a battle decision may be answered with."""


def current_battle(state: Homm4State) -> Battle:
    """Return the battle being fought (homm4:battles).

    :raises WrongPhase: when no battle is being fought.
    """
    if state.battle is None:
        raise WrongPhase("No battle is being fought now.")
    return state.battle


def side_seat(battle: Battle, side: int) -> int:
    """Return the seat commanding ``side`` (0 attacker, 1 defender).
    Rule: homm4:battles.attackers-and-defenders."""
    return battle.attacker if side == 0 else battle.defender


def other_side(side: int) -> Side:
    """Return the opposing side: 0 (the Attacker) <-> 1 (the Defender)
    (homm4:battles.attackers-and-defenders)."""
    return 1 if side == 0 else 0


def side_name(battle: Battle, side: int) -> str:
    """Return the public name of ``side``: its seat, or "the Guard (seat)" for a Guard
    Stack (homm4:chipping-in-for-the-guard: the Guard belongs to nobody)."""
    if side == 1 and battle.defender_kind == "guard":
        return f"the Guard ({seat_name(battle.defender)})"
    return seat_name(side_seat(battle, side))


def creature(state: Homm4State, number: int) -> Creature:
    """Return battle Creature ``number``.

    :raises IllegalMove: if no living Creature has that number.
    Rule: homm4:battles.tactical-deployment.
    """
    for found in current_battle(state).creatures:
        if found.id == number:
            return found
    raise IllegalMove(f"There is no Creature {number} on the battlefield.")


def creatures_of(state: Homm4State, side: int) -> list[Creature]:
    """Return ``side``'s living Creatures, by number (homm4:battles.tactical-deployment)."""
    return [c for c in current_battle(state).creatures if c.side == side]


def line_of(state: Homm4State, side: int, line: str) -> list[Creature]:
    """Return ``side``'s living Creatures on ``line`` (``melee`` front, ``ranged`` back),
    by number (homm4:battles.tactical-deployment)."""
    return [c for c in creatures_of(state, side) if c.line == line]


def is_hero(state: Homm4State, cr: Creature) -> bool:
    """Whether ``cr`` is a Hero (always alone; homm4:heroes-levels-skills-and-spells.heroes-in-battle)."""
    return isinstance(zones.card(state, cr.cards[0]), HeroCard)


def _unit(state: Homm4State, cr: Creature) -> UnitCard | None:
    found = zones.card(state, cr.cards[0])
    return found if isinstance(found, UnitCard) else None


def has_ability(state: Homm4State, cr: Creature, kind: type[Any]) -> bool:
    """Whether the top card of ``cr`` is a Unit with an ability of class ``kind``
    (`engine.homm4.cards` abilities; homm4:card-types.unit-cards, special abilities)."""
    unit = _unit(state, cr)
    return unit is not None and any(isinstance(a, kind) for a in unit.abilities)


def spellcaster_of(state: Homm4State, cr: Creature) -> Spellcaster | None:
    """Return the spellcasting ability of a Unit Creature (Magi...), or None
    (homm4:battles.making-support: Casting Spells)."""
    unit = _unit(state, cr)
    if unit is None:
        return None
    return next((a for a in unit.abilities if isinstance(a, Spellcaster)), None)


def ignores_obstacles(state: Homm4State, cr: Creature) -> bool:
    """Whether the creature ignores Obstacles (Flying or IgnoresObstacles).
    Rule: homm4:battles.tactical-deployment."""
    return has_ability(state, cr, Flying) or has_ability(state, cr, IgnoresObstacles)


def target_limit(state: Homm4State, cr: Creature) -> int:
    """Return how many Creature Stacks ``cr`` may strike with one Melee attack: 1, or its
    ``multi_target`` count (Cerberus 2, Hydra 3; homm4:errata, Triple-head attack)."""
    unit = _unit(state, cr)
    if unit is None:
        return 1
    found = next((a for a in unit.abilities if isinstance(a, MultiTarget)), None)
    return found.targets if found is not None else 1


def card_level(state: Homm4State, instance: int) -> int:
    """Return a card's level: a Unit's printed level, a Hero's level from its inventory.
    Rule: homm4:heroes-levels-skills-and-spells.hero-level."""
    found = zones.card(state, instance)
    if isinstance(found, HeroCard):
        return heroes.hero_level(state, instance)
    if isinstance(found, UnitCard):
        return found.level
    return 0


def phase_of(state: Homm4State, cr: Creature) -> int:
    """Return the Phase a Creature acts in: its top card's (homm4:battles.phases-and-rounds)."""
    found = zones.card(state, cr.cards[0])
    if isinstance(found, HeroCard | UnitCard):
        return found.phase
    return PHASES


def creature_name(state: Homm4State, cr: Creature) -> str:
    """Return ``"[3] Orc #12 (+1)"``: the Creature's number, its face-up top card and how
    many cards lie under it (homm4:battles.tactical-deployment)."""
    top = zones.name(state, cr.cards[0])
    extra = len(cr.cards) - 1
    suffix = f" (+{extra})" if extra else ""
    return f"[{cr.id}] {top}{suffix}"


def side_heroes(state: Homm4State, side: int) -> list[int]:
    """Return the Hero cards of ``side``'s living deployed Creatures, by Creature number
    (homm4:heroes-levels-skills-and-spells.heroes-in-battle)."""
    return [c.cards[0] for c in creatures_of(state, side) if is_hero(state, c)]


def side_bonus(state: Homm4State, side: int, kind: EffectKind) -> int:
    """Return the ``army_*`` bonus ``side``'s Creatures get: the best single living hero's
    value among the side's deployed heroes (homm4:...starting-skills-of-heroes)."""
    return heroes.army_effect(state, side_heroes(state, side), kind)


def _mods(cr: Creature, stat: str) -> int:
    return sum(m.amount for m in cr.mods if m.stat == stat)


def stack_bonus(state: Homm4State, cr: Creature) -> int:
    """Return the levels of every card under the top card (homm4:battles.making-a-melee-attack:
    three Golden Golems attack at 3 + 2 + 2 = 7)."""
    return sum(card_level(state, c) for c in cr.cards[1:])


def support_value(state: Homm4State, cr: Creature) -> int:
    """Return the Support value: the sum of the stack's levels (a hero: its level)
    (homm4:battles.making-support: three Golden Golems 2 x 3 = 6)."""
    return sum(card_level(state, c) for c in cr.cards)


def melee_value(state: Homm4State, cr: Creature) -> int:
    """Return the top card's Melee attack with hero skills, army bonus, spells and (Native
    and Special Lands rule) the natives' bonus (>= 0).
    Rule: homm4:battles.making-a-melee-attack, homm4:advanced-rules.native-and-special-lands."""
    top = cr.cards[0]
    found = zones.card(state, top)
    base = (
        heroes.hero_melee(state, top) if isinstance(found, HeroCard) else _printed(found, "melee")
    )
    total = base + side_bonus(state, cr.side, EffectKind.ARMY_MELEE) + _mods(cr, "melee")
    return max(0, total + lands.native_bonus(state, top))


def ranged_value(state: Homm4State, cr: Creature) -> int:
    """Return the top card's Ranged attack with bonuses; 0 when the printed value is 0
    (a creature with Ranged 0 can never shoot, homm4:battles.making-a-ranged-attack)."""
    top = cr.cards[0]
    found = zones.card(state, top)
    base = (
        heroes.hero_ranged(state, top) if isinstance(found, HeroCard) else _printed(found, "ranged")
    )
    if base <= 0:
        return 0
    total = base + side_bonus(state, cr.side, EffectKind.ARMY_RANGED) + _mods(cr, "ranged")
    return max(0, total + lands.native_bonus(state, top))


def _printed(found: Any, stat: str) -> int:
    return int(getattr(found, stat, 0))


def card_defense(state: Homm4State, cr: Creature, instance: int) -> int:
    """Return one card's Defense in ``cr``: printed (hero: with its skills) + army bonus +
    spells + its level while the Creature defends (homm4:battles.defense: Golden Golem 7 -> 9)
    + the natives' bonus (homm4:advanced-rules.native-and-special-lands)."""
    found = zones.card(state, instance)
    if isinstance(found, HeroCard):
        base = heroes.hero_defense(state, instance)
    else:
        base = _printed(found, "defense")
    total = base + side_bonus(state, cr.side, EffectKind.ARMY_DEFENSE) + _mods(cr, "defense")
    total += lands.native_bonus(state, instance)
    if cr.defending:
        total += card_level(state, instance)
    return max(0, total)


def target_defense(state: Homm4State, cr: Creature, count: int) -> int:
    """Return the summed Defense of the top ``count`` cards (a Mass attack,
    homm4:battles.making-a-melee-attack)."""
    return sum(card_defense(state, cr, c) for c in cr.cards[:count])


def walls_block_flyers(battle: Battle, cr: Creature) -> bool:
    """Whether intact Town walls stop ``cr`` (an Attacker's Creature) from flying over them
    (homm4:battles, Battles in Towns: Ignoring obstacles)."""
    return battle.defender_kind == "town" and cr.side == 0 and battle.walls == "intact"


def can_melee(state: Homm4State, cr: Creature) -> bool:
    """Whether ``cr`` may make a Melee attack now: from the front line; from the back line
    when it ignores Obstacles or sallies from a Town (it then moves to the front line).
    Rule: homm4:battles.tactical-deployment."""
    battle = current_battle(state)
    if cr.line == "melee":
        return True
    if ignores_obstacles(state, cr):
        return True
    return battle.defender_kind == "town" and cr.side == 1


def melee_targets(state: Homm4State, cr: Creature) -> list[int | Literal["walls"]]:
    """Return the Creature numbers (and ``"walls"``) ``cr`` may hit in Melee.

    Front-line enemies; back-line enemies too for creatures that ignore Obstacles, except
    the attacker's while a Town's walls are intact; the Town card while its walls stand
    (attacker only; homm4:battles, Battles in Towns).
    """
    battle = current_battle(state)
    if not can_melee(state, cr):
        return []
    enemy = other_side(cr.side)
    found: list[int | Literal["walls"]] = [c.id for c in line_of(state, enemy, "melee")]
    if ignores_obstacles(state, cr) and not walls_block_flyers(battle, cr):
        found.extend(c.id for c in line_of(state, enemy, "ranged"))
    if cr.side == 0 and battle.defender_kind == "town" and battle.walls in ("intact", "breach"):
        found.append("walls")
    return found


def ranged_targets(state: Homm4State, cr: Creature) -> list[int]:
    """Return the enemies ``cr`` may shoot: any, from either line, if its Ranged value > 0.
    Rule: homm4:battles.making-a-ranged-attack."""
    if ranged_value(state, cr) <= 0:
        return []
    return [c.id for c in creatures_of(state, other_side(cr.side))]


def spell_targets(state: Homm4State, cr: Creature) -> list[int]:
    """Return the enemies a spellcasting unit may hit with its spell attack: any enemy.
    Rule: homm4:battles.making-support."""
    if spellcaster_of(state, cr) is None:
        return []
    return [c.id for c in creatures_of(state, other_side(cr.side))]


def support_reach(state: Homm4State, cr: Creature) -> tuple[bool, bool, bool]:
    """(front line, back line, walls): what ``cr`` could attack itself now, which limits
    its Support (homm4:battles.making-support, Suitable target)."""
    battle = current_battle(state)
    shoots = ranged_value(state, cr) > 0 or spellcaster_of(state, cr) is not None
    melee = can_melee(state, cr)
    front = shoots or melee
    back = shoots or (melee and ignores_obstacles(state, cr) and not walls_block_flyers(battle, cr))
    walls = (
        melee
        and cr.side == 0
        and battle.defender_kind == "town"
        and battle.walls in ("intact", "breach")
    )
    return front, back, walls


def front_required(state: Homm4State, side: int) -> int:
    """Return how many Creatures ``side`` must keep on the Melee Line (capped by its size).

    Three normally (homm4:battles.tactical-deployment); a Town's defender needs none while
    the walls are intact, one after a Breach and two after a Sack (Battles in Towns).
    """
    battle = current_battle(state)
    if side == 1 and battle.defender_kind == "town":
        wanted = WALL_FRONT[battle.walls]
    else:
        wanted = FRONT_MINIMUM
    return min(wanted, len(creatures_of(state, side)))


def front_shortfall(state: Homm4State, side: int) -> int:
    """Return how many Creatures ``side`` lacks on its Melee Line (0 when enough)
    (homm4:battles.tactical-deployment)."""
    return max(0, front_required(state, side) - len(line_of(state, side, "melee")))


def can_regroup(state: Homm4State, cr: Creature) -> bool:
    """Whether ``cr`` may switch lines: forward always; back only if the front keeps its
    required number of Creatures (homm4:battles.regrouping)."""
    if cr.line == "ranged":
        return True
    battle = current_battle(state)
    if cr.side == 1 and battle.defender_kind == "town":
        wanted = WALL_FRONT[battle.walls]
    else:
        wanted = FRONT_MINIMUM
    return len(line_of(state, cr.side, "melee")) - 1 >= wanted


def side_armies(state: Homm4State, side: int) -> list[Army]:
    """Return the Armies on the board that fight for ``side``.
    Rule: homm4:battles.attackers-and-defenders."""
    battle = current_battle(state)
    ids = battle.attacker_armies if side == 0 else battle.defender_armies
    return [a for a in state.armies if a.id in ids]


def side_cards(state: Homm4State, side: int) -> list[int]:
    """Return every card ``side`` brings to the battle (armies, Guard Stack, garrison).
    Rule: homm4:battles.attackers-and-defenders."""
    battle = current_battle(state)
    cards = [c for a in side_armies(state, side) for c in a.cards]
    if side == 1 and battle.site is not None:
        site = state.sites[battle.site]
        if battle.defender_kind == "guard":
            cards.extend(site.guard)
        elif battle.defender_kind == "town":
            cards.extend(site.garrison)
    return cards


def home_of(state: Homm4State, instance: int) -> tuple[Literal["army", "guard", "garrison"], int]:
    """Where a battle card is: ("army", army id) or ("guard" / "garrison", site id).
    Rule: homm4:chipping-in-for-the-guard."""
    for army in state.armies:
        if instance in army.cards:
            return "army", army.id
    for site in state.sites:
        if instance in site.guard:
            return "guard", site.id
        if instance in site.garrison:
            return "garrison", site.id
    raise IllegalMove(f"Card #{instance} is not with any army in this battle.")


def take_out(state: Homm4State, instance: int) -> Fallen:
    """Remove a battle card from its Army / Guard / garrison; return where it was.
    Rule: homm4:battles."""
    zone, where = home_of(state, instance)
    side: Side = 0 if instance in side_cards(state, 0) else 1
    if zone == "army":
        zones.army(state, where).cards.remove(instance)
        return Fallen(card=instance, side=side, army=where, zone="army")
    site = state.sites[where]
    (site.guard if zone == "guard" else site.garrison).remove(instance)
    return Fallen(card=instance, side=side, army=None, zone=zone)


def kill_card(state: Homm4State, instance: int) -> None:
    """Kill a battle card: out of its zone, onto the discard pile (a hero with its inventory).
    With the Resurrecting Fallen Heroes rule a Hero is turned face down instead, with its
    inventory (`Battle.dead_heroes`; the battle's end decides where it lies).
    Rule: homm4:battles, homm4:advanced-rules.resurrecting-fallen-heroes."""
    fallen = take_out(state, instance)
    battle = current_battle(state)
    battle.fallen.append(fallen)
    if isinstance(zones.card(state, instance), HeroCard):
        if state.options.resurrection:
            battle.dead_heroes.append((instance, fallen.army))
        else:
            heroes.discard_hero(state, instance)
    else:
        zones.to_discard(state, instance)


STAGE_DECISIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "deploy": ("battle_deploy", ("deploy",)),
    "fight": (
        "battle_act",
        ("attack", "support", "group", "defend", "regroup", "cast_spell"),
    ),
    "counter": ("battle_counterattack", ("counterattack",)),
    "fill_front": ("battle_fill_front", ("fill_front",)),
    "retreat": ("battle_retreat", ("retreat",)),
    "surrender_offer": ("battle_surrender_offer", ("offer_surrender",)),
    "surrender_answer": ("battle_surrender_answer", ("answer_surrender",)),
}


def decision_prompt(state: Homm4State) -> str:
    """Return the public prompt of the decision the battle waits for (homm4:battles)."""
    battle = current_battle(state)
    who = side_name(battle, battle.to_act)
    where = board.label(state, battle.hex)
    if battle.stage == "deploy":
        return f"{who} must deploy for the battle at {where}."
    if battle.stage == "fight":
        due = [creature_name(state, c) for c in due_creatures(state)]
        return f"Round {battle.round}, Phase {battle.phase}: {who} acts with {', '.join(due)}."
    if battle.stage == "counter" and battle.counter_pending is not None:
        target, attacker, mode = battle.counter_pending
        return (
            f"{who} may counterattack with {creature_name(state, creature(state, target))} against "
            f"{creature_name(state, creature(state, attacker))} ({mode})."
        )
    if battle.stage == "fill_front":
        return f"{who} must move a Creature from the Ranged Line to the Melee Line."
    if battle.stage == "retreat":
        return f"End of Round {battle.round}: {who} may retreat with its heroes."
    if battle.stage == "surrender_offer":
        return f"End of Round {battle.round}: {who} may offer to surrender."
    offerer = side_name(battle, other_side(battle.to_act))
    return f"{offerer} offers {plural(battle.surrender_cards, 'card')} to surrender; {who} must accept or reject."


def check_seat(state: Homm4State, seat: int) -> Battle:
    """Return the battle if ``seat`` commands the side that must decide now.

    :raises NotYourDecision: naming what the battle waits for otherwise.
    Rule: homm4:battles.phases-and-rounds.
    """
    battle = current_battle(state)
    expected = side_seat(battle, battle.to_act)
    if seat != expected:
        raise NotYourDecision(
            f"It is not your decision in this battle. Waiting for: {decision_prompt(state)}"
        )
    return battle


def roll_die(state: Homm4State, purpose: str, creature_id: int | None) -> tuple[int, Event]:
    """Roll the d10 (``state.rng.die(10)``) and return the face with its ``die_roll`` event.
    Rule: homm4:battles.making-a-melee-attack."""
    face = state.rng.die(10)
    return face, Event(
        kind="die_roll",
        text=f"Die roll ({purpose}): {face}.",
        data={"sides": 10, "result": face, "purpose": purpose, "creature": creature_id},
    )


def due_creatures(state: Homm4State) -> list[Creature]:
    """The Creatures of the side whose turn it is that still act in this Phase (a Creature
    with high Morale acts a second time: homm4:advanced-rules.morale).
    Rule: homm4:battles.phases-and-rounds."""
    battle = current_battle(state)
    if battle.acting is not None:
        return [c for c in battle.creatures if c.id == battle.acting]
    return [
        c
        for c in creatures_of(state, battle.turn_side)
        if (not c.acted or c.morale_extra) and phase_of(state, c) == battle.phase
    ]


def winner_side(state: Homm4State) -> Side | None:
    """Return the side that has won because the other has no Creature left, or None
    (homm4:battles.phases-and-rounds)."""
    if not creatures_of(state, 1):
        return 0
    if not creatures_of(state, 0):
        return 1
    return None


def living_heroes(state: Homm4State, side: int) -> list[int]:
    """Living heroes of ``side``: deployed or in reserve (homm4:battles.hero-retreat)."""
    battle = current_battle(state)
    own = side_cards(state, side)
    deployed = side_heroes(state, side)
    reserve = [c for c in battle.reserve if c in own and zones.is_hero(state, c)]
    return deployed + reserve


def retreat_town(state: Homm4State, side: int) -> Site | None:
    """Return the nearest Town of ``side``'s seat to the battle hex, where its Heroes retreat
    or its Army withdraws (homm4:battles.hero-retreat, homm4:battles.surrender)."""
    battle = current_battle(state)
    return zones.nearest_town(state, side_seat(battle, side), battle.hex)


def mode_targets(state: Homm4State, cr: Creature, mode: Mode) -> list[int | Literal["walls"]]:
    """Return what ``cr`` may attack in ``mode`` now: `melee_targets`, `ranged_targets` or
    the unit spell attack's `spell_targets` (homm4:battles.making-a-melee-attack,
    homm4:battles.making-a-ranged-attack, homm4:battles.making-support: Casting Spells)."""
    if mode == "melee":
        return melee_targets(state, cr)
    if mode == "ranged":
        return list(ranged_targets(state, cr))
    return list(spell_targets(state, cr))


def base_value(state: Homm4State, cr: Creature, mode: Mode) -> int:
    """Return the top card's value for an attack in ``mode``: its Melee or Ranged value, or a
    spellcasting unit's spell attack (homm4:battles.making-a-melee-attack,
    homm4:battles.making-a-ranged-attack, homm4:battles.making-support: Casting Spells)."""
    if mode == "melee":
        return melee_value(state, cr)
    if mode == "ranged":
        return ranged_value(state, cr)
    caster = spellcaster_of(state, cr)
    if caster is None:
        return 0
    return caster.spell_attack + lands.native_bonus(state, cr.cards[0])
