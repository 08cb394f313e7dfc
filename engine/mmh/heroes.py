"""Hero values: Might, Magic, Initiative, Leadership, movement points and overwhelm, with
every standing bonus of skills, artefacts, buildings and the week.

Rule sections: mmh:game-setup.choosing-the-starting-hero (attributes, abilities, schools),
mmh:other-game-rules.using-card-effects (primary/secondary, OR/AND),
mmh:other-game-rules.overwhelm-markers.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.mmh.common import content, hero_def, week_event
from engine.mmh.content import Ability, EffectKind
from engine.mmh.state import Hero, MmhState

BASE_MP = 4
"""Every hero has four movement points (mmh:course-of-play.activate-hero)."""


@dataclass(frozen=True)
class CardAbilities:
    """What a hero may use of one card: the parts and how they combine."""

    card: str
    kind: str
    primary: Ability
    secondary: Ability | None
    link: str
    school_ok: bool


def card_abilities(hero: Hero, card: str) -> CardAbilities | None:
    """The abilities of a skill, scroll or artefact card the hero holds (None for an
    artefact without an ability). The secondary part needs the card's school on the hero
    sheet (mmh:other-game-rules.using-card-effects)."""
    c = content()
    schools = set(hero_def(hero).schools)
    if card in hero.skills:
        skill = c.skill(card)
        return CardAbilities(
            card, "skill", skill.primary, skill.secondary, skill.link, skill.school in schools
        )
    if card in hero.scrolls:
        scroll = c.scroll(card)
        return CardAbilities(
            card, "scroll", scroll.primary, scroll.secondary, scroll.link, scroll.school in schools
        )
    if card in hero.artefacts:
        art = c.artefact(card)
        if art.ability is None:
            return None
        return CardAbilities(card, "artefact", art.ability, None, "and", False)
    return None


def passive(state: MmhState, hero: Hero, kind: EffectKind) -> int:
    """The sum of standing bonuses of ``kind`` from the hero's skills and artefacts.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    total = 0
    for card in (*hero.skills, *hero.artefacts):
        abilities = card_abilities(hero, card)
        if abilities is None or not abilities.primary.passive:
            continue
        parts = [abilities.primary]
        if abilities.secondary is not None and abilities.school_ok:
            parts.append(abilities.secondary)
        for part in parts:
            total += sum(e.value for e in part.effects if e.kind == kind)
    return total


def has_building(state: MmhState, seat: int, effect: str) -> bool:
    """True when ``seat`` has built the building with ``effect`` (``marketplace``...).

    Rule: mmh:course-of-play.build.
    """
    c = content()
    return any(c.building(b).effect == effect for b in state.seats[seat].buildings)


def might(state: MmhState, hero: Hero) -> int:
    """The hero's Might (to hit with his own attack die).

    Rule: mmh:game-setup.choosing-the-starting-hero.
    """
    return hero_def(hero).might + passive(state, hero, EffectKind.MIGHT)


def magic(state: MmhState, hero: Hero) -> int:
    """The hero's Magic: the highest scroll level he may use and how many scrolls he may hold.

    Rule: mmh:game-setup.choosing-the-starting-hero.
    """
    return hero_def(hero).magic + passive(state, hero, EffectKind.MAGIC)


def initiative(state: MmhState, hero: Hero) -> int:
    """The hero's Initiative (his marker on the initiative track).

    Rule: mmh:game-setup.choosing-the-starting-hero.
    """
    return hero_def(hero).initiative + passive(state, hero, EffectKind.INITIATIVE)


def leadership(state: MmhState, hero: Hero) -> int:
    """How many creature markers the hero's army may hold (War Academy: +1).

    Rule: mmh:game-setup.choosing-the-starting-hero.
    """
    bonus = 1 if has_building(state, hero.owner, "academy") else 0
    return hero_def(hero).leadership + passive(state, hero, EffectKind.LEADERSHIP) + bonus


def movement_points(state: MmhState, hero: Hero) -> int:
    """Movement points at the start of an activation: 4, +bonuses, +1 with Wanderlust when
    the hero starts in the capital.

    Rule: mmh:course-of-play.activate-hero.
    """
    mp = BASE_MP + passive(state, hero, EffectKind.MOVEMENT) + week_event(state).movement
    if hero_def(hero).ability == "wanderlust" and hero.space is None:
        mp += 1
    return mp


def hero_dice(state: MmhState, hero: Hero) -> int:
    """Attack dice of the hero's own attack: 1, +1 Aggressor, +bonuses.

    Rule: mmh:game-setup.choosing-the-starting-hero.
    """
    dice = 1 + passive(state, hero, EffectKind.HERO_DICE) + week_event(state).hero_dice
    if hero_def(hero).ability == "aggressor":
        dice += 1
    return dice


def overwhelm(state: MmhState, hero: Hero) -> int:
    """The hero's overwhelm value (mmh:other-game-rules.overwhelm-markers): +1 for an army
    of 9+ creatures, +1 for an elite might-5 creature, +1 Forced Attack, +1 Gauntlet of
    the Giant Slayer (both as ``overwhelm`` effects)."""
    c = content()
    value = passive(state, hero, EffectKind.OVERWHELM)
    if len(hero.army) >= 9:
        value += 1
    if any(u.elite and c.creature(u.creature).elite.might >= 5 for u in hero.army):
        value += 1
    return value


def scroll_capacity(state: MmhState, hero: Hero) -> int:
    """The most scroll cards the hero may hold: his Magic.

    Rule: mmh:game-setup.choosing-the-starting-hero.
    """
    return max(0, magic(state, hero))


def elite_in_army(hero: Hero) -> bool:
    """True when the army holds at least one elite creature.

    Rule: mmh:course-of-play.battles.
    """
    return any(u.elite for u in hero.army)
