"""A Creature's action in its Phase: Melee, Ranged and unit spell attacks (Mass and
multi-target attacks, the walls of a Town), Support, Grouping, Defense, Regrouping, and
counterattacks.

Rule sections: homm4:battles.making-a-melee-attack, homm4:battles.making-a-ranged-attack,
homm4:battles.making-support, homm4:battles.grouping, homm4:battles.defense,
homm4:battles.regrouping, homm4:battles.counterattack, homm4:battles (Battles in Towns:
Breach, Sack, ranged penalties, ignoring obstacles, sallies).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from engine.core.errors import IllegalMove, WrongPhase
from engine.core.model import Event
from engine.core.words import plural
from engine.homm4 import zones
from engine.homm4.battle_core import (
    TOWN_DEFENSE,
    Mode,
    base_value,
    can_melee,
    can_regroup,
    card_defense,
    check_seat,
    creature,
    creature_name,
    current_battle,
    decision_prompt,
    due_creatures,
    front_required,
    has_ability,
    ignores_obstacles,
    kill_card,
    melee_targets,
    melee_value,
    phase_of,
    ranged_targets,
    ranged_value,
    spell_targets,
    spellcaster_of,
    stack_bonus,
    support_reach,
    support_value,
    target_defense,
    target_limit,
    walls_block_flyers,
)
from engine.homm4.battle_end import BattleOutcome
from engine.homm4.battle_rounds import advance, queue_counter
from engine.homm4.battle_spirit import attack_roll, distance_penalty
from engine.homm4.cards import (
    ShootsTwice,
    StrikesTwice,
)
from engine.homm4.commands import (
    Attack,
    Counterattack,
    Defend,
    Group,
    Regroup,
    SupportCreature,
)
from engine.homm4.state import (
    AttackRecord,
    Creature,
    Homm4State,
    Support,
)


def _attack_value(
    state: Homm4State,
    cr: Creature,
    mode: Mode,
    *,
    grouped: bool,
    supports: Iterable[Support],
    target: int | Literal["walls"],
) -> tuple[int, list[str]]:
    """The attack value of ``cr`` in ``mode`` against ``target`` and its parts for the log."""
    battle = current_battle(state)
    base = base_value(state, cr, mode)
    parts = [str(base)]
    bonus = stack_bonus(state, cr)
    value = base + bonus
    if bonus:
        parts.append(f"stack +{bonus}")
    if grouped:
        value *= 2
        parts.append("grouped x2")
    for support in supports:
        if _support_counts(state, support, target):
            value += support.value
            parts.append(f"support +{support.value}")
    if mode == "ranged" and target != "walls":
        penalised = _wall_penalty(state, cr, creature(state, target), value)
        if penalised != value:
            parts.append(f"walls {battle.walls}: {value} -> {penalised}")
            value = penalised
    return value, parts


def _support_counts(state: Homm4State, support: Support, target: int | Literal["walls"]) -> bool:
    if target == "walls":
        return support.can_hit_walls
    found = creature(state, target)
    return support.can_hit_front_line if found.line == "melee" else support.can_hit_back_line


def _wall_penalty(state: Homm4State, shooter: Creature, target: Creature, value: int) -> int:
    """Town walls against ranged attacks at the defender's back line: half while intact,
    -1 with a Breach, nothing after a Sack; not for units that ignore Obstacles
    (homm4:battles, Battles in Towns: Ranged penalties)."""
    battle = current_battle(state)
    if battle.defender_kind != "town" or shooter.side != 0 or target.side != 1:
        return value
    if target.line != "ranged" or ignores_obstacles(state, shooter):
        return value
    if battle.walls == "intact":
        return value // 2
    if battle.walls == "breach":
        return max(0, value - 1)
    return value


def strike(
    state: Homm4State,
    cr: Creature,
    mode: Literal["melee", "ranged", "spell", "counter"],
    target: Creature,
    count: int,
    value: int,
    parts: list[str],
    purpose: str,
    *,
    shot: bool = False,
) -> list[Event]:
    """Roll one attack of ``value`` at the top ``count`` cards of ``target``; kill on success.
    ``shot`` marks a Ranged attack (the Distance Penalty may apply); the die follows the
    attacker's Luck. A Hero's Potion of Immortality saves it from its first killing blow.
    Rule: homm4:battles.making-a-melee-attack, homm4:advanced-rules.luck,
    homm4:advanced-rules.distance-penalties, homm4:advanced-rules.potions-of-immortality."""
    battle = current_battle(state)
    penalty = distance_penalty(state, cr, target) if shot else 0
    roll, shown, rolled = attack_roll(state, cr, purpose, penalty)
    total = value + roll
    defense = target_defense(state, target, count)
    killed_cards = list(target.cards[:count]) if total >= defense else []
    saved = [c for c in killed_cards if potion_saves(state, c)]
    killed_cards = [c for c in killed_cards if c not in saved]
    verb = {
        "melee": "attacks",
        "ranged": "shoots",
        "spell": "casts at",
        "counter": "strikes back at",
    }[mode]
    mass = f" (Mass attack on {count} cards)" if count > 1 else ""
    victims = ", ".join(zones.name(state, c) for c in killed_cards)
    result = f"{len(killed_cards)} killed ({victims})" if killed_cards else "no effect"
    if saved:
        result = (
            f"{', '.join(zones.name(state, c) for c in saved)} drinks the Potion of Immortality "
            "and rises again"
        )
    text = (
        f"{creature_name(state, cr)} {verb} {creature_name(state, target)}{mass}: {' '.join(_join_parts(parts))} + roll {shown} = "
        f"{total} vs defense {defense}: {result}."
    )
    for instance in killed_cards:
        target.cards.remove(instance)
        kill_card(state, instance)
    if not target.cards:
        battle.creatures.remove(target)
    battle.last_attack = AttackRecord(
        attacker=cr.id,
        targets=[target.id],
        mode=mode,
        attack_value=value,
        roll=roll,
        total=total,
        defense=defense,
        killed=len(killed_cards),
        walls=False,
    )
    return [
        *rolled,
        Event(
            kind="battle_attack",
            text=text,
            data={
                "attacker": cr.id,
                "target": target.id,
                "mode": mode,
                "count": count,
                "attack_value": value,
                "roll": roll,
                "total": total,
                "defense": defense,
                "killed": killed_cards,
                "target_destroyed": not target.cards,
                "potion": saved,
            },
        ),
    ]


def potion_saves(state: Homm4State, instance: int) -> bool:
    """Use ``instance``'s Potion of Immortality if it is a Hero that still has one in this
    battle: the blow that would kill it only uses the potion up; the next one kills
    (homm4:advanced-rules.potions-of-immortality)."""
    battle = current_battle(state)
    if not state.options.potions or not zones.is_hero(state, instance):
        return False
    if instance in battle.potions_used:
        return False
    battle.potions_used.append(instance)
    return True


def _join_parts(parts: list[str]) -> list[str]:
    if len(parts) == 1:
        return parts
    return [f"({parts[0]}, {', '.join(parts[1:])})"]


def _strike_walls(state: Homm4State, cr: Creature, value: int, parts: list[str]) -> list[Event]:
    """A Melee attack at the Town card: 10 or more makes a Breach, then a Sack."""
    battle = current_battle(state)
    roll, shown, rolled = attack_roll(state, cr, "attack on the Town walls")
    total = value + roll
    damaged = total >= TOWN_DEFENSE
    before = battle.walls
    if damaged:
        battle.walls = "breach" if before == "intact" else "sack"
    outcome = {
        "breach": "a Breach in the gates! The Defender must close it with a Creature on the front line",
        "sack": "a Sack in the walls! The Defender must hold the front line with at least two Creatures",
    }
    result = outcome[battle.walls] if damaged else "the walls hold"
    battle.last_attack = AttackRecord(
        attacker=cr.id,
        targets=[],
        mode="melee",
        attack_value=value,
        roll=roll,
        total=total,
        defense=TOWN_DEFENSE,
        killed=0,
        walls=True,
    )
    return [
        *rolled,
        Event(
            kind="battle_attack",
            text=(
                f"{creature_name(state, cr)} attacks the Town walls: {' '.join(_join_parts(parts))} + roll {shown} = "
                f"{total} vs defense {TOWN_DEFENSE}: {result}."
            ),
            data={
                "attacker": cr.id,
                "target": "walls",
                "mode": "melee",
                "attack_value": value,
                "roll": roll,
                "total": total,
                "defense": TOWN_DEFENSE,
                "walls": battle.walls,
            },
        ),
    ]


def acting_creature(state: Homm4State, seat: int, number: int) -> Creature:
    """Check that ``number`` may act now for ``seat``; return it.
    Rule: homm4:battles.phases-and-rounds."""
    battle = check_seat(state, seat)
    if battle.stage != "fight":
        raise WrongPhase(f"Creatures do not act now. {decision_prompt(state)}")
    cr = creature(state, number)
    if cr.side != battle.turn_side:
        raise IllegalMove(f"{creature_name(state, cr)} is not yours.")
    due = due_creatures(state)
    if cr not in due:
        if battle.acting is not None:
            raise IllegalMove(
                f"{creature_name(state, creature(state, battle.acting))} must first make its second attack."
            )
        names = ", ".join(creature_name(state, c) for c in due)
        raise IllegalMove(
            f"{creature_name(state, cr)} acts in Phase {phase_of(state, cr)}"
            f"{' and has already acted this Round' if cr.acted else ''}; now Phase {battle.phase}: {names}."
        )
    return cr


def _check_attack(state: Homm4State, cr: Creature, command: Attack) -> list[int | Literal["walls"]]:
    battle = current_battle(state)
    if battle.acting is not None and battle.acting_mode != command.mode:
        raise IllegalMove(
            f"The second attack of {creature_name(state, cr)} must also be a {battle.acting_mode} attack."
        )
    if command.target_walls:
        if command.mode != "melee":
            raise IllegalMove("The Town walls can be attacked only in Melee.")
        if command.targets:
            raise IllegalMove("Attack either the walls or Creatures, not both.")
        if "walls" not in melee_targets(state, cr):
            raise IllegalMove(_no_walls_reason(state, cr))
        if command.count != 1:
            raise IllegalMove("A Mass attack needs Creature cards as targets, not the walls.")
        return ["walls"]
    if not command.targets:
        raise IllegalMove("Name the Creature to attack (targets).")
    if len(set(command.targets)) != len(command.targets):
        raise IllegalMove("Each target may be named once.")
    allowed: Sequence[int | Literal["walls"]]
    if command.mode == "melee":
        if not can_melee(state, cr):
            raise IllegalMove(
                f"{creature_name(state, cr)} is on the Ranged Line: it may only shoot or cast from there."
            )
        allowed = melee_targets(state, cr)
        most = target_limit(state, cr)
    elif command.mode == "ranged":
        if ranged_value(state, cr) <= 0:
            raise IllegalMove(
                f"{creature_name(state, cr)} has a Ranged attack of 0 and cannot make Ranged attacks."
            )
        allowed = ranged_targets(state, cr)
        most = 1
    else:
        if spellcaster_of(state, cr) is None:
            raise IllegalMove(
                f"{creature_name(state, cr)} cannot make a spell attack: it is no spellcaster. "
                "A Hero casts a Spell by giving up its attack."
            )
        allowed = spell_targets(state, cr)
        most = 1
    if len(command.targets) > most:
        raise IllegalMove(
            f"{creature_name(state, cr)} may attack {'only one Creature' if most == 1 else f'at most {most} Creatures'} at once."
        )
    for target in command.targets:
        found = creature(state, target)
        if found.side == cr.side:
            raise IllegalMove(f"{creature_name(state, found)} is on your own side.")
        if target not in allowed:
            raise IllegalMove(_unreachable_reason(state, cr, found, command.mode))
    if command.count > 1:
        if len(command.targets) != 1:
            raise IllegalMove("A Mass attack strikes several cards of a single target.")
        size = len(creature(state, command.targets[0]).cards)
        if command.count > size:
            raise IllegalMove(
                f"The target has only {plural(size, 'card')}; declare at most {size}."
            )
    return list(command.targets)


def _no_walls_reason(state: Homm4State, cr: Creature) -> str:
    battle = current_battle(state)
    if battle.defender_kind != "town":
        return "There are no Town walls in this battle."
    if cr.side != 0:
        return "Only the Attacker attacks the Town walls."
    if battle.walls == "sack":
        return "The walls are already sacked."
    return f"{creature_name(state, cr)} must be on the Melee Line to attack the walls."


def _unreachable_reason(state: Homm4State, cr: Creature, target: Creature, mode: str) -> str:
    battle = current_battle(state)
    if mode == "melee" and target.line == "ranged":
        if ignores_obstacles(state, cr) and walls_block_flyers(battle, cr):
            return "Even flying Creatures cannot pass intact Town walls: make a Breach first."
        return (
            f"{creature_name(state, target)} is on the Ranged Line: only Ranged attacks, spells and "
            "Creatures that ignore Obstacles reach it."
        )
    return f"{creature_name(state, cr)} cannot reach {creature_name(state, target)} with a {mode} attack."


def begin_action(cr: Creature) -> tuple[bool, list[Support]]:
    """The Creature's chance to act has come: it leaves the defensive position, and its
    grouping and pending Support are used by this action (homm4:battles.grouping/defense).
    A second action owed to high Morale is used up (homm4:advanced-rules.morale)."""
    if cr.acted and cr.morale_extra:
        cr.morale_extra = False
    cr.defending = False
    grouped, supports = cr.grouped, list(cr.supports)
    cr.grouped = False
    cr.supports = []
    cr.acted = True
    return grouped, supports


def apply_attack(
    state: Homm4State, seat: int, command: Attack
) -> tuple[list[Event], BattleOutcome | None]:
    """Make a Melee, Ranged or unit spell attack (a Mass attack, several stacks for a
    multi-target Creature, or the Town walls) with a Creature due in this Phase; its Grouping
    and Support are used, survivors may strike back (homm4:battles.making-a-melee-attack,
    homm4:battles.making-a-ranged-attack, homm4:battles.counterattack).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    :raises IllegalMove | WrongPhase | NotYourDecision: naming what is allowed instead.
    """
    cr = acting_creature(state, seat, command.creature)
    battle = current_battle(state)
    targets = _check_attack(state, cr, command)
    events: list[Event] = []
    second = battle.acting is not None
    if second:
        grouped, supports = False, list[Support]()
        cr.attacks_left -= 1
    else:
        grouped, supports = begin_action(cr)
        twice = (command.mode == "melee" and has_ability(state, cr, StrikesTwice)) or (
            command.mode == "ranged" and has_ability(state, cr, ShootsTwice)
        )
        cr.attacks_left = 1 if twice else 0
        if twice:
            battle.acting = cr.id
            battle.acting_mode = command.mode
    if command.mode == "melee" and cr.line == "ranged":
        cr.line = "melee"
        why = (
            "sallies from behind the walls"
            if not ignores_obstacles(state, cr)
            else "flies over the front line"
        )
        events.append(
            Event(
                kind="battle_move",
                text=f"{creature_name(state, cr)} {why} and moves to the Melee Line.",
                data={"creature": cr.id, "line": "melee"},
            )
        )
    for target in targets:
        if target == "walls":
            value, parts = _attack_value(
                state, cr, "melee", grouped=grouped, supports=supports, target=target
            )
            events.extend(_strike_walls(state, cr, value, parts))
            continue
        found = next((c for c in battle.creatures if c.id == target), None)
        if found is None:
            continue
        value, parts = _attack_value(
            state, cr, command.mode, grouped=grouped, supports=supports, target=target
        )
        purpose = f"{command.mode} attack"
        events.extend(
            strike(
                state,
                cr,
                command.mode,
                found,
                command.count,
                value,
                parts,
                purpose,
                shot=command.mode == "ranged",
            )
        )
        if command.mode != "spell" and cr in battle.creatures:
            queue_counter(state, cr, found, command.mode)
    if len(targets) > 1 and battle.last_attack is not None:
        battle.last_attack = battle.last_attack.model_copy(
            update={"targets": [t for t in targets if t != "walls"]}
        )
    more, outcome = advance(state)
    return events + more, outcome


def apply_support(
    state: Homm4State, seat: int, command: SupportCreature
) -> tuple[list[Event], BattleOutcome | None]:
    """Give up a Creature's attack to add its Support value (its stack's levels) to a
    friend's next attack, against targets the giver could attack itself now
    (homm4:battles.making-support).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    :raises IllegalMove: for a target that is not another friendly Creature.
    """
    cr = acting_creature(state, seat, command.creature)
    no_second(state, cr)
    friend = creature(state, command.target)
    if friend.side != cr.side or friend.id == cr.id:
        raise IllegalMove("Support goes to another friendly Creature.")
    front, back, walls = support_reach(state, cr)
    begin_action(cr)
    value = support_value(state, cr)
    friend.supports.append(
        Support(
            supporter=cr.id,
            value=value,
            can_hit_back_line=back,
            can_hit_front_line=front,
            can_hit_walls=walls,
        )
    )
    reach = [
        n
        for n, ok in (("the front line", front), ("the back line", back), ("the walls", walls))
        if ok
    ]
    text = (
        f"{creature_name(state, cr)} gives up its attack to support {creature_name(state, friend)}: +{value} on its next attack"
        f" (against {', '.join(reach) if reach else 'nothing it could not attack itself'})."
    )
    events = [
        Event(
            kind="battle_support",
            text=text,
            data={"creature": cr.id, "target": friend.id, "value": value},
        )
    ]
    more, outcome = advance(state)
    return events + more, outcome


def no_second(state: Homm4State, cr: Creature) -> None:
    """Refuse anything but the second attack of a Creature that strikes or shoots twice
    (homm4:battles.making-a-melee-attack).

    :raises IllegalMove: when ``cr`` owes its second attack.
    """
    if current_battle(state).acting == cr.id:
        raise IllegalMove(
            f"{creature_name(state, cr)} is making its second attack; it may only attack now."
        )


def apply_group(
    state: Homm4State, seat: int, command: Group
) -> tuple[list[Event], BattleOutcome | None]:
    """Group a Creature (Swarm): it gives up this attack and its next attack value is
    doubled (homm4:battles.grouping: 3 Golden Golems 7 -> 14).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    """
    cr = acting_creature(state, seat, command.creature)
    no_second(state, cr)
    begin_action(cr)
    cr.grouped = True
    events = [
        Event(
            kind="battle_group",
            text=f"{creature_name(state, cr)} groups (Swarm): its next attack value is doubled.",
            data={"creature": cr.id},
        )
    ]
    more, outcome = advance(state)
    return events + more, outcome


def apply_defend(
    state: Homm4State, seat: int, command: Defend
) -> tuple[list[Event], BattleOutcome | None]:
    """Put a Creature on the defensive (Protect): each card adds its level to its
    Defense until the Creature's next turn (homm4:battles.defense: Golden Golem 7 -> 9).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    """
    cr = acting_creature(state, seat, command.creature)
    no_second(state, cr)
    begin_action(cr)
    cr.defending = True
    value = card_defense(state, cr, cr.cards[0])
    events = [
        Event(
            kind="battle_defend",
            text=f"{creature_name(state, cr)} defends (Protect): Defense {value} until its next turn.",
            data={"creature": cr.id, "defense": value},
        )
    ]
    more, outcome = advance(state)
    return events + more, outcome


def apply_regroup(
    state: Homm4State, seat: int, command: Regroup
) -> tuple[list[Event], BattleOutcome | None]:
    """Give up the attack to switch lines; moving back must leave the required Melee
    Line (homm4:battles.regrouping).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    :raises IllegalMove: when moving back would leave the Melee Line short.
    """
    cr = acting_creature(state, seat, command.creature)
    no_second(state, cr)
    if not can_regroup(state, cr):
        raise IllegalMove(
            f"{creature_name(state, cr)} cannot move back: the Melee Line must keep "
            f"{plural(front_required(state, cr.side), 'Creature')}."
        )
    begin_action(cr)
    cr.line = "ranged" if cr.line == "melee" else "melee"
    line = "Melee" if cr.line == "melee" else "Ranged"
    events = [
        Event(
            kind="battle_regroup",
            text=f"{creature_name(state, cr)} gives up its attack and regroups to the {line} Line.",
            data={"creature": cr.id, "line": cr.line},
        )
    ]
    more, outcome = advance(state)
    return events + more, outcome


def apply_counter(
    state: Homm4State, seat: int, command: Counterattack
) -> tuple[list[Event], BattleOutcome | None]:
    """Strike back (or not) with a surviving attacked Creature: Melee answers Melee,
    Ranged only with Ranged > 0; top card + stack bonus, one card, once per Round
    (homm4:battles.counterattack).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    """
    battle = check_seat(state, seat)
    if battle.stage != "counter" or battle.counter_pending is None:
        raise WrongPhase(f"There is no counterattack to decide. {decision_prompt(state)}")
    target_id, attacker_id, mode = battle.counter_pending
    battle.counter_pending = None
    striker = creature(state, target_id)
    enemy = creature(state, attacker_id)
    events: list[Event] = []
    if not command.strike:
        events.append(
            Event(
                kind="battle_counter_declined",
                text=f"{creature_name(state, striker)} does not strike back.",
                data={"creature": striker.id},
            )
        )
    else:
        striker.countered = True
        use: Mode = "ranged" if mode == "ranged" else "melee"
        base = ranged_value(state, striker) if use == "ranged" else melee_value(state, striker)
        parts = [str(base)]
        bonus = stack_bonus(state, striker)
        if bonus:
            parts.append(f"stack +{bonus}")
        value = base + bonus
        if use == "ranged":
            penalised = _wall_penalty(state, striker, enemy, value)
            if penalised != value:
                parts.append(f"walls {battle.walls}: {value} -> {penalised}")
                value = penalised
        events.extend(
            strike(
                state,
                striker,
                "counter",
                enemy,
                1,
                value,
                parts,
                f"{use} counterattack",
                shot=use == "ranged",
            )
        )
    more, outcome = advance(state)
    return events + more, outcome
