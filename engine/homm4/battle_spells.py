"""Heroes casting Spells in battle instead of attacking: known Spells, Mana, targets, attack
Spells, battle-long stat changes and resurrection; cast Spell cards wait in
``state.limbo`` until the battle ends.

Rule sections: homm4:heroes-levels-skills-and-spells.casting-spells,
homm4:heroes-levels-skills-and-spells.mana, homm4:heroes-levels-skills-and-spells.primary-magic-skills.
"""

from __future__ import annotations

from typing import Literal

from engine.core.errors import IllegalMove
from engine.core.model import Event
from engine.core.words import plural
from engine.homm4 import heroes, lands, zones
from engine.homm4.battle_attacks import acting_creature, begin_action, no_second, strike
from engine.homm4.battle_core import (
    creature,
    creature_name,
    creatures_of,
    current_battle,
    home_of,
    is_hero,
    line_of,
    other_side,
)
from engine.homm4.battle_end import BattleOutcome
from engine.homm4.battle_rounds import advance
from engine.homm4.cards import (
    SpellCard,
    SpellTarget,
)
from engine.homm4.commands import (
    CastSpell,
)
from engine.homm4.state import (
    Creature,
    Fallen,
    Homm4State,
    StatMod,
)


def hero_spells(state: Homm4State, hero: int) -> list[int]:
    """Spells the hero may use in this battle: its inventory plus those it already cast.
    Rule: homm4:heroes-levels-skills-and-spells.casting-spells."""
    battle = current_battle(state)
    cast = [s for s, caster in sorted(battle.spells_cast.items()) if caster == hero]
    return heroes.known_spells(state, hero) + [s for s in cast if s in state.limbo]


def hero_spell_targets(state: Homm4State, cr: Creature, spell: SpellCard) -> list[int]:
    """Return the Creatures a Hero's ``spell`` may target now: enemies (all, or those
    on the front line) for attack spells and curses, friends otherwise, friendly Unit stacks
    for a resurrection (homm4:heroes-levels-skills-and-spells.casting-spells).
    """
    enemy = other_side(cr.side)
    if spell.target in (SpellTarget.ONE_ENEMY, SpellTarget.ALL_ENEMIES):
        return [c.id for c in creatures_of(state, enemy)]
    if spell.target is SpellTarget.ALL_ENEMY_FRONT:
        return [c.id for c in line_of(state, enemy, "melee")]
    if spell.effect == "resurrect":
        return [c.id for c in creatures_of(state, cr.side) if not is_hero(state, c)]
    return [c.id for c in creatures_of(state, cr.side)]


def _check_cast(state: Homm4State, cr: Creature, command: CastSpell) -> tuple[SpellCard, list[int]]:
    if not is_hero(state, cr):
        raise IllegalMove(
            f"{creature_name(state, cr)} is not a Hero; spellcasting units attack with mode 'spell'."
        )
    hero = cr.cards[0]
    if command.spell not in hero_spells(state, hero):
        raise IllegalMove(
            f"{zones.name(state, hero)} does not know Spell #{command.spell} (not in its inventory)."
        )
    spell = zones.card(state, command.spell)
    if not isinstance(spell, SpellCard):
        raise IllegalMove(f"Card #{command.spell} is not a Spell.")
    if spell.timing != "battle":
        raise IllegalMove(f"{spell.name} is cast during the Movement Phase, not in battle.")
    problem = heroes.spell_problem(state, hero, spell)
    if problem is not None:
        raise IllegalMove(problem)
    left = heroes.mana_left(state, hero)
    cost = lands.spell_mana(state, spell, current_battle(state).hex)
    if cost > left:
        raise IllegalMove(
            f"{spell.name} costs {cost} Mana here; {zones.name(state, hero)} has {left} left."
        )
    possible = hero_spell_targets(state, cr, spell)
    single = spell.target in (SpellTarget.ONE_ENEMY, SpellTarget.ONE_FRIEND)
    if single:
        if len(command.targets) != 1:
            raise IllegalMove(f"{spell.name} needs exactly one target Creature.")
        if command.targets[0] not in possible:
            raise IllegalMove(f"{spell.name} cannot target Creature {command.targets[0]}.")
        targets = list(command.targets)
    else:
        if command.targets and sorted(command.targets) != sorted(possible):
            raise IllegalMove(f"{spell.name} affects all its targets; leave targets empty.")
        targets = possible
    if not targets:
        raise IllegalMove(f"{spell.name} has no target now.")
    if command.count > 1:
        if spell.effect != "attack" or not single:
            raise IllegalMove("Only an attacking Spell at a single target may be a Mass attack.")
        size = len(creature(state, targets[0]).cards)
        if command.count > size:
            raise IllegalMove(
                f"The target has only {plural(size, 'card')}; declare at most {size}."
            )
    if spell.effect == "resurrect" and not resurrectable(state, creature(state, targets[0])):
        raise IllegalMove(
            f"No card of {creature_name(state, creature(state, targets[0]))}'s type has fallen in this battle."
        )
    return spell, targets


def resurrectable(state: Homm4State, cr: Creature) -> list[Fallen]:
    """Return the fallen cards of ``cr``'s type and side killed in this battle and still
    in their discard pile (homm4:heroes-levels-skills-and-spells.casting-spells).
    """
    battle = current_battle(state)
    kind = state.card_defs[cr.cards[0]]
    found = []
    for fallen in battle.fallen:
        owner = state.players_state[state.card_owner[fallen.card]]
        if (
            fallen.side == cr.side
            and state.card_defs[fallen.card] == kind
            and fallen.card in owner.discard
        ):
            found.append(fallen)
    return found


def apply_cast(
    state: Homm4State, seat: int, command: CastSpell
) -> tuple[list[Event], BattleOutcome | None]:
    """A Hero casts a known Spell instead of attacking: its Skills must allow the level,
    its Mana left must cover the cost; the card waits in ``state.limbo`` until the battle
    ends (homm4:heroes-levels-skills-and-spells.casting-spells, ...mana).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    :raises IllegalMove: naming what is missing.
    """
    cr = acting_creature(state, seat, command.creature)
    no_second(state, cr)
    spell, targets = _check_cast(state, cr, command)
    battle = current_battle(state)
    hero = cr.cards[0]
    begin_action(cr)
    inv = heroes.ensure_inventory(state, hero)
    if command.spell in inv.spells:
        inv.spells.remove(command.spell)
        state.limbo.append(command.spell)
    battle.spells_cast[command.spell] = hero
    cost = lands.spell_mana(state, spell, battle.hex)
    inv.mana_spent += cost
    events = [
        Event(
            kind="battle_cast",
            text=(
                f"{creature_name(state, cr)} casts {zones.name(state, command.spell)} ({cost} Mana; "
                f"{heroes.mana_left(state, hero)} left)."
            ),
            data={
                "creature": cr.id,
                "spell": command.spell,
                "mana": cost,
                "targets": targets,
            },
        )
    ]
    if spell.effect == "attack":
        level = heroes.hero_level(state, hero)
        power = heroes.spell_power(state, hero)
        value = spell.power + level + power
        parts = [f"{spell.power} + level {level}" + (f" + spell power {power}" if power else "")]
        for target in targets:
            found = next((c for c in battle.creatures if c.id == target), None)
            if found is not None:
                events.extend(
                    strike(
                        state,
                        cr,
                        "spell",
                        found,
                        command.count,
                        value,
                        parts,
                        f"spell {spell.name}",
                    )
                )
    elif spell.effect == "stat":
        assert spell.stat is not None
        extra = _spirit_mods(state, spell)
        for target in targets:
            found = creature(state, target)
            found.mods.append(StatMod(stat=spell.stat, amount=spell.power, source=command.spell))
            shown = [f"{spell.stat.title()} {spell.power:+d}"]
            for stat, amount in extra:
                found.mods.append(StatMod(stat=stat, amount=amount, source=command.spell))
                shown.append(f"{stat.title()} {amount:+d}")
            events.append(
                Event(
                    kind="battle_spell_effect",
                    text=f"{creature_name(state, found)}: {', '.join(shown)} until the end of the battle.",
                    data={
                        "creature": found.id,
                        "stat": spell.stat,
                        "amount": spell.power,
                        **{stat: amount for stat, amount in extra},
                    },
                )
            )
    else:
        events.extend(_resurrect(state, creature(state, targets[0]), spell.power))
    more, outcome = advance(state)
    return events + more, outcome


def _spirit_mods(
    state: Homm4State, spell: SpellCard
) -> list[tuple[Literal["morale", "luck"], int]]:
    """The Morale / Luck changes a stat Spell makes when those advanced rules are on
    (homm4:advanced-rules.morale, homm4:advanced-rules.luck)."""
    found: list[tuple[Literal["morale", "luck"], int]] = []
    if state.options.morale and spell.morale:
        found.append(("morale", spell.morale))
    if state.options.luck and spell.luck:
        found.append(("luck", spell.luck))
    return found


def _resurrect(state: Homm4State, cr: Creature, power: int) -> list[Event]:
    """Return up to ``power`` fallen cards of ``cr``'s type to it (from the discard pile)."""
    battle = current_battle(state)
    back = resurrectable(state, cr)[: max(0, power)]
    zone, where = home_of(state, cr.cards[0])
    for fallen in back:
        owner = state.players_state[state.card_owner[fallen.card]]
        owner.discard.remove(fallen.card)
        if zone == "army":
            zones.army(state, where).cards.append(fallen.card)
        elif zone == "guard":
            state.sites[where].guard.append(fallen.card)
        else:
            state.sites[where].garrison.append(fallen.card)
        cr.cards.append(fallen.card)
        battle.fallen.remove(fallen)
    names = ", ".join(zones.name(state, f.card) for f in back)
    return [
        Event(
            kind="battle_resurrect",
            text=f"{names} return{'s' if len(back) == 1 else ''} to {creature_name(state, cr)}.",
            data={"creature": cr.id, "cards": [f.card for f in back]},
        )
    ]
