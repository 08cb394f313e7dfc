"""What a battle decision may be answered with: the finite legal commands of a seat, and the
documented default (a moderator's skip).

Rule sections: homm4:battles (every sub-section), homm4:heroes-levels-skills-and-spells.casting-spells.
"""

from __future__ import annotations

from itertools import combinations

from engine.core.errors import NotYourDecision
from engine.core.model import Command
from engine.homm4 import heroes, zones
from engine.homm4.battle_core import (
    Mode,
    base_value,
    can_regroup,
    card_defense,
    creature,
    creatures_of,
    current_battle,
    due_creatures,
    is_hero,
    line_of,
    melee_value,
    mode_targets,
    side_seat,
    stack_bonus,
    target_limit,
)
from engine.homm4.battle_deploy import canonical_deployments
from engine.homm4.battle_spells import hero_spell_targets, hero_spells, resurrectable
from engine.homm4.cards import (
    SpellCard,
    SpellTarget,
)
from engine.homm4.commands import (
    AnswerSurrender,
    Attack,
    CastSpell,
    Counterattack,
    Defend,
    FillFront,
    Group,
    OfferSurrender,
    Regroup,
    Retreat,
    SupportCreature,
)
from engine.homm4.state import (
    Creature,
    Homm4State,
)


def battle_legal(state: Homm4State, seat: int) -> list[Command]:
    """Return the commands ``seat`` may give in the battle now (finite; every one applies).

    Deployment: `canonical_deployments`. Acting: every attack (each mode, reachable
    target, target combination of multi-target units, and Mass attack count up to the
    target's size), Support for each friend, Group, Defend, Regroup when allowed, each
    castable Spell at each target (and count). Counter: strike or decline. Fill: each
    back-line Creature. Retreat: yes/no. Surrender: no offer, or 0..Hand size cards.
    Answer: accept/reject. Empty when ``seat`` owes nothing.
    Rule: homm4:battles.
    """
    battle = state.battle
    if battle is None or side_seat(battle, battle.to_act) != seat:
        return []
    if battle.stage == "deploy":
        return list(canonical_deployments(state, battle.to_act))
    if battle.stage == "fight":
        found: list[Command] = []
        for cr in due_creatures(state):
            found.extend(_creature_commands(state, cr))
        return found
    if battle.stage == "counter":
        return [Counterattack(strike=True), Counterattack(strike=False)]
    if battle.stage == "fill_front":
        return [FillFront(creature=c.id) for c in line_of(state, battle.to_act, "ranged")]
    if battle.stage == "retreat":
        return [Retreat(retreat=False), Retreat(retreat=True)]
    if battle.stage == "surrender_offer":
        hand = len(state.players_state[seat].hand)
        offers: list[Command] = [OfferSurrender(cards=None)]
        offers.extend(OfferSurrender(cards=n) for n in range(hand + 1))
        return offers
    return [AnswerSurrender(accept=False), AnswerSurrender(accept=True)]


def _attack_commands(state: Homm4State, cr: Creature, mode: Mode) -> list[Command]:
    found: list[Command] = []
    reach = mode_targets(state, cr, mode)
    ids = [t for t in reach if t != "walls"]
    for target in ids:
        size = len(creature(state, target).cards)
        found.extend(
            Attack(creature=cr.id, mode=mode, targets=(target,), count=n)
            for n in range(1, size + 1)
        )
    if mode == "melee":
        for size in range(2, min(target_limit(state, cr), len(ids)) + 1):
            found.extend(
                Attack(creature=cr.id, mode=mode, targets=combo)
                for combo in combinations(ids, size)
            )
        if "walls" in reach:
            found.append(Attack(creature=cr.id, mode="melee", target_walls=True))
    return found


def _creature_commands(state: Homm4State, cr: Creature) -> list[Command]:
    battle = current_battle(state)
    if battle.acting == cr.id:
        assert battle.acting_mode is not None
        return _attack_commands(state, cr, battle.acting_mode)
    found: list[Command] = []
    modes: tuple[Mode, ...] = ("melee", "ranged", "spell")
    for mode in modes:
        found.extend(_attack_commands(state, cr, mode))
    if is_hero(state, cr):
        found.extend(_cast_commands(state, cr))
    found.extend(
        SupportCreature(creature=cr.id, target=f.id)
        for f in creatures_of(state, cr.side)
        if f.id != cr.id
    )
    found.append(Group(creature=cr.id))
    found.append(Defend(creature=cr.id))
    if can_regroup(state, cr):
        found.append(Regroup(creature=cr.id))
    return found


def _cast_commands(state: Homm4State, cr: Creature) -> list[Command]:
    hero = cr.cards[0]
    found: list[Command] = []
    where = current_battle(state).hex
    for spell_id in heroes.castable_spells(state, hero, hero_spells(state, hero), where):
        spell = zones.card(state, spell_id)
        if not isinstance(spell, SpellCard) or spell.timing != "battle":
            continue
        targets = hero_spell_targets(state, cr, spell)
        if spell.effect == "resurrect":
            targets = [t for t in targets if resurrectable(state, creature(state, t))]
        if not targets:
            continue
        if spell.target in (SpellTarget.ONE_ENEMY, SpellTarget.ONE_FRIEND):
            for target in targets:
                most = len(creature(state, target).cards) if spell.effect == "attack" else 1
                found.extend(
                    CastSpell(creature=cr.id, spell=spell_id, targets=(target,), count=n)
                    for n in range(1, most + 1)
                )
        else:
            found.append(CastSpell(creature=cr.id, spell=spell_id))
    return found


def battle_default(state: Homm4State, seat: int) -> Command:
    """Return the documented default for ``seat``'s battle decision (a moderator's skip).

    Deploy: the first canonical deployment (one stack per unit type, shooters on the
    Ranged Line; a Town's defender all behind the walls). Act: the first Creature due
    attacks, in the mode with its highest attack value, the reachable enemy whose top card
    has the lowest Defense (the walls when only they are in reach), one card; a Creature
    with no attack defends; a second attack uses the same rule. Counterattack: always
    strike. Fill: the back-line Creature with the highest Melee value. Retreat: no.
    Surrender: no offer; answer: reject.

    :raises NotYourDecision: if ``seat`` owes no battle decision.
    Rule: homm4:battles.
    """
    battle = state.battle
    if battle is None or side_seat(battle, battle.to_act) != seat:
        raise NotYourDecision("You owe no decision in a battle now.")
    if battle.stage == "deploy":
        return canonical_deployments(state, battle.to_act)[0]
    if battle.stage == "fight":
        return _default_action(state, due_creatures(state)[0])
    if battle.stage == "counter":
        return Counterattack(strike=True)
    if battle.stage == "fill_front":
        back = line_of(state, battle.to_act, "ranged")
        best = max(back, key=lambda c: (melee_value(state, c) + stack_bonus(state, c), -c.id))
        return FillFront(creature=best.id)
    if battle.stage == "retreat":
        return Retreat(retreat=False)
    if battle.stage == "surrender_offer":
        return OfferSurrender(cards=None)
    return AnswerSurrender(accept=False)


def _default_action(state: Homm4State, cr: Creature) -> Command:
    battle = current_battle(state)
    modes: list[Mode] = (
        [battle.acting_mode] if battle.acting_mode is not None else ["melee", "ranged", "spell"]
    )
    best: tuple[int, Command] | None = None
    for mode in modes:
        options = [
            c for c in _attack_commands(state, cr, mode) if isinstance(c, Attack) and c.count == 1
        ]
        singles = [c for c in options if len(c.targets) == 1]
        if singles:
            target = min(
                singles,
                key=lambda c: (
                    card_defense(
                        state, creature(state, c.targets[0]), creature(state, c.targets[0]).cards[0]
                    ),
                    c.targets[0],
                ),
            )
            value = base_value(state, cr, mode)
            if best is None or value > best[0]:
                best = (value, target)
        elif any(c.target_walls for c in options) and best is None:
            best = (-1, next(c for c in options if c.target_walls))
    if best is not None:
        return best[1]
    return Defend(creature=cr.id)
