"""Morale, Luck and Distance Penalties in battle (advanced rules).

Rule sections: homm4:advanced-rules.morale, homm4:advanced-rules.luck,
homm4:advanced-rules.distance-penalties, homm4:advanced-rules.native-and-special-lands
(Cursed Ground, Fields of Life, Magic Garden).

* **Morale** (-5 .. +5): the sum of the side's best Hero ``morale`` effect (Skills such as
  Leadership, Artifacts such as the Banner of Valor), the ``morale`` of the Objects its
  commander controls, and the Creature's Spell modifiers. Undead are never affected. When
  any Creature has Morale other than 0, the die is rolled at the start of each Round: a
  Creature whose Morale is higher than the roll acts twice in its Phase that Round (two
  separate actions: it may Group first to double the second, or Support twice); one whose
  Morale is lower than minus the roll does not act at all that Round (no counterattack
  either).
* **Luck** (-3 .. +3), from the same kinds of sources: a Creature with Luck L rolls the die
  |L| + 1 times when it attacks and keeps the best (L > 0) or the worst (L < 0) roll. The
  rulebook's text says "as many times as the Luck value" but both of its examples roll one
  die more (Luck 3: four rolls keeping the best; Luck -3: four rolls keeping the worst):
  the examples are followed.
* **Distance Penalties**: a Ranged attack from the shooter's Ranged Line at a target on its
  Ranged Line takes 2 off the die result, never below 0; Units with
  ``no_distance_penalty`` (Crossbowman, Monk, Titan) ignore it.
* With Native and Special Lands also on: on Cursed Ground Morale and Luck have no effect;
  on Fields of Life Life Creatures have Morale +5, on a Magic Garden Nature Creatures
  Luck +3.
"""

from __future__ import annotations

from engine.core.model import Event
from engine.homm4 import heroes, lands, zones
from engine.homm4.battle_core import (
    creature_name,
    current_battle,
    roll_die,
    side_heroes,
    side_seat,
)
from engine.homm4.cards import EffectKind, NoDistancePenalty, Undead, UnitCard
from engine.homm4.state import Creature, Homm4State

MORALE_LIMIT = 5
"""Morale ranges from -5 to +5 (homm4:advanced-rules.morale)."""

LUCK_LIMIT = 3
"""Luck ranges from -3 to +3 (homm4:advanced-rules.luck)."""

DISTANCE_PENALTY = 2
"""Back line to back line shots take 2 off the die (homm4:advanced-rules.distance-penalties)."""


def _clamp(value: int, limit: int) -> int:
    return max(-limit, min(limit, value))


def _side_total(state: Homm4State, cr: Creature, kind: EffectKind, stat: str) -> int:
    """The side's best hero's ``kind``, its commander's Objects' ``kind`` (a Guard has no
    commander of its own) and the Creature's Spell modifiers of ``stat``."""
    battle = current_battle(state)
    total = heroes.army_effect(state, side_heroes(state, cr.side), kind)
    if not (cr.side == 1 and battle.defender_kind == "guard"):
        total += heroes.seat_object_effect(state, side_seat(battle, cr.side), kind)
    total += sum(m.amount for m in cr.mods if m.stat == stat)
    return total


def _cursed(state: Homm4State) -> bool:
    terrain = lands.battle_terrain(state)
    return state.options.native_lands and terrain is not None and terrain.no_morale_luck


def morale(state: Homm4State, cr: Creature) -> int:
    """Return ``cr``'s Morale in the current battle (0 without the Morale rule; see the
    module docstring for the sources). Rule: homm4:advanced-rules.morale."""
    if not state.options.morale or _cursed(state):
        return 0
    top = zones.card(state, cr.cards[0])
    if isinstance(top, UnitCard) and any(isinstance(a, Undead) for a in top.abilities):
        return 0
    terrain = lands.battle_terrain(state)
    if (
        state.options.native_lands
        and terrain is not None
        and terrain.max_morale
        and lands.is_native(state, cr.cards[0], terrain)
    ):
        return MORALE_LIMIT
    return _clamp(_side_total(state, cr, EffectKind.MORALE, "morale"), MORALE_LIMIT)


def luck(state: Homm4State, cr: Creature) -> int:
    """Return ``cr``'s Luck in the current battle (0 without the Luck rule).
    Rule: homm4:advanced-rules.luck."""
    if not state.options.luck or _cursed(state):
        return 0
    terrain = lands.battle_terrain(state)
    if (
        state.options.native_lands
        and terrain is not None
        and terrain.max_luck
        and lands.is_native(state, cr.cards[0], terrain)
    ):
        return LUCK_LIMIT
    return _clamp(_side_total(state, cr, EffectKind.LUCK, "luck"), LUCK_LIMIT)


def luck_rolls(value: int) -> int:
    """Return how many dice a Creature with Luck ``value`` rolls for an attack: 1 without
    Luck, else |value| + 1 (the rulebook's examples: Luck 3 rolls 4 times, Luck -3 too).
    Rule: homm4:advanced-rules.luck.
    """
    return abs(value) + 1 if value else 1


def start_round(state: Homm4State) -> list[Event]:
    """At the start of each Round: clear last Round's Morale marks and, when a Creature
    has Morale other than 0, roll the Round's Morale (homm4:advanced-rules.morale).

    A Creature with Morale above the roll gets a second action (``morale_extra``); one
    with Morale below minus the roll is demoralized (it does not act this Round).
    Does nothing when this Round's Morale has already been settled.
    """
    battle = current_battle(state)
    if battle.morale_round == battle.round:
        return []
    battle.morale_round = battle.round
    battle.morale_roll = None
    for cr in battle.creatures:
        cr.morale_extra = False
        cr.demoralized = False
    if not state.options.morale:
        return []
    values = {cr.id: morale(state, cr) for cr in battle.creatures}
    if not any(values.values()):
        return []
    face, rolled = roll_die(state, f"Morale of Round {battle.round}", None)
    battle.morale_roll = face
    bold: list[str] = []
    afraid: list[str] = []
    for cr in battle.creatures:
        value = values[cr.id]
        if value > face:
            cr.morale_extra = True
            bold.append(f"{creature_name(state, cr)} ({value:+d})")
        elif value < -face:
            cr.demoralized = True
            cr.acted = True
            afraid.append(f"{creature_name(state, cr)} ({value:+d})")
    parts = [f"Morale roll for Round {battle.round}: {face}."]
    if bold:
        parts.append(f"High Morale, two actions this Round: {', '.join(bold)}.")
    if afraid:
        parts.append(f"Too demoralized to fight this Round: {', '.join(afraid)}.")
    if not bold and not afraid:
        parts.append("No Creature's Morale takes effect.")
    return [
        rolled,
        Event(
            kind="battle_morale",
            text=" ".join(parts),
            data={
                "round": battle.round,
                "roll": face,
                "extra": [c.id for c in battle.creatures if c.morale_extra],
                "demoralized": [c.id for c in battle.creatures if c.demoralized],
                "morale": {str(k): v for k, v in sorted(values.items()) if v},
            },
        ),
    ]


def ignores_distance(state: Homm4State, cr: Creature) -> bool:
    """Whether ``cr`` shoots without the Distance Penalty (its top card's ability).

    Rule: homm4:advanced-rules.distance-penalties.
    """
    unit = zones.card_as(state, cr.cards[0], UnitCard)
    return unit is not None and any(isinstance(a, NoDistancePenalty) for a in unit.abilities)


def distance_penalty(state: Homm4State, shooter: Creature, target: Creature) -> int:
    """Return what a Ranged attack by ``shooter`` at ``target`` takes off the die: 2 from
    back line to back line with the Distance Penalties rule, unless the shooter ignores
    it; else 0 (homm4:advanced-rules.distance-penalties)."""
    if not state.options.distance_penalties or ignores_distance(state, shooter):
        return 0
    if shooter.line == "ranged" and target.line == "ranged":
        return DISTANCE_PENALTY
    return 0


def attack_roll(
    state: Homm4State, cr: Creature, purpose: str, penalty: int = 0
) -> tuple[int, str, list[Event]]:
    """Roll the die for an attack by ``cr``: with Luck, |L| + 1 dice keeping the best or
    the worst; then take ``penalty`` off (the Distance Penalty), never below 0.

    :returns: ``(die result used, how it was read for the log, die_roll events)``; the
        text is ``"7"`` for a plain roll, ``"8 (Luck +3: best of 2, 8, 5, 1)"`` or
        ``"5 (7 - 2 distance)"``. Rules: homm4:advanced-rules.luck,
        homm4:advanced-rules.distance-penalties.
    """
    value = luck(state, cr)
    count = luck_rolls(value)
    faces: list[int] = []
    events: list[Event] = []
    for index in range(count):
        label = purpose if count == 1 else f"{purpose}, Luck die {index + 1} of {count}"
        face, rolled = roll_die(state, label, cr.id)
        faces.append(face)
        events.append(rolled)
    kept = max(faces) if value >= 0 else min(faces)
    notes: list[str] = []
    if count > 1:
        which = "best" if value > 0 else "worst"
        notes.append(f"Luck {value:+d}: {which} of {', '.join(map(str, faces))}")
    result = kept
    if penalty:
        result = max(0, kept - penalty)
        notes.append(f"{kept} - {penalty} distance")
    text = f"{result} ({'; '.join(notes)})" if notes else str(result)
    return result, text, events
