"""Card and marker text in our own words, generated from the effects the engine runs, so
the text never disagrees with the rules.

Rule sections: mmh:other-game-rules.using-card-effects (primary/secondary, OR/AND, timing
windows), mmh:course-of-play.battles (battle abilities).
"""

from __future__ import annotations

import re

from engine.core.words import plural
from engine.mmh.content import (
    ABILITY_NAMES,
    SCHOOL_NAMES,
    WINDOW_NAMES,
    Ability,
    Effect,
    EffectKind,
    load_content,
)

# ``{n:noun}`` / ``{n:singular|plural}``: the effect's value with the noun counted.
_COUNTED = re.compile(r"\{n:([^}|]+)(?:\|([^}]+))?\}")

_PHRASES: dict[EffectKind, str] = {
    EffectKind.MIGHT: "+{v} Might",
    EffectKind.MAGIC: "+{v} Magic",
    EffectKind.INITIATIVE: "+{v} Initiative",
    EffectKind.LEADERSHIP: "+{v} Leadership",
    EffectKind.MOVEMENT: "+{n:movement point} when activated",
    EffectKind.GATHER_GOLD: "+{v} gold on every Gather Resources",
    EffectKind.GATHER_RESOURCES: "+{n:resource} on every Gather Resources",
    EffectKind.OVERWHELM: "+{v} overwhelm",
    EffectKind.HERO_DICE: "+{n:attack die|attack dice} for the hero's own attack",
    EffectKind.ARMY_INITIATIVE: "+{v} Initiative for the army's creature stacks",
    EffectKind.BASIC_MIGHT: "+{v} Might for the army's basic creatures",
    EffectKind.RECRUIT_DISCOUNT: "creatures recruited for this hero cost {v} gold less",
    EffectKind.RETREAT_SAVING: "lose {n:creature} fewer when retreating",
    EffectKind.MISFORTUNE: "the first enemy attack on this army each exchange rerolls its hits",
    EffectKind.DAMAGE: "deal {v} damage to an enemy stack or encounter",
    EffectKind.MAGIC_ATTACK: "attack with {n:die|dice} that hit on the hero's Magic",
    EffectKind.RAISE_DEAD: "RAISE DEAD {v}",
    EffectKind.SHIELD: "ignore the next {v} damage to the army this exchange",
    EffectKind.LUCK: "take {n:luck marker}",
    EffectKind.STACK_MIGHT: "one own stack gets +{v} Might this exchange",
    EffectKind.STACK_INITIATIVE: "one own stack gets +{v} Initiative this exchange",
    EffectKind.WEAKEN: "one enemy marker gets -{v} Might this exchange",
    EffectKind.SLOW: "one enemy marker gets -{v} Initiative this exchange",
    EffectKind.SUMMON: "the {element} joins the battle",
    EffectKind.DISPEL: "no enemy hero may use a scroll for the rest of the battle",
    EffectKind.GOLD: "take {v} gold",
    EffectKind.RESOURCES: "take {n:resource}",
}


def effect_text(effect: Effect) -> str:
    """One effect in words (``"deal 2 damage to an enemy stack or encounter"``).

    Rule: mmh:other-game-rules.using-card-effects.
    """
    element = ""
    if effect.element is not None:
        element = load_content().element(effect.element).name
    counted = _COUNTED.sub(
        lambda m: plural(effect.value, m.group(1), m.group(2)), _PHRASES[effect.kind]
    )
    return counted.format(v=effect.value, element=element)


def ability_text(ability: Ability) -> str:
    """An ability with its window (``"In Battle: deal 1 damage ..."``).

    Rule: mmh:other-game-rules.using-card-effects.
    """
    body = "; ".join(effect_text(e) for e in ability.effects)
    if ability.window.value == "always":
        return body[0].upper() + body[1:]
    return f"{WINDOW_NAMES[ability.window]}: {body}"


def two_part_text(primary: Ability, link: str, secondary: Ability, school: str) -> tuple[str, str]:
    """The text box of a skill or scroll: the primary line and the school-gated line.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    return ability_text(
        primary
    ), f"{link.upper()} ({SCHOOL_NAMES[school]}): {ability_text(secondary)}"


def card_text(card: str) -> list[str]:
    """The lines printed on any card (skill, scroll, artefact, treasure, week).

    :raises KeyError: for an unknown card id.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    c = load_content()
    for skill in c.skills:
        if skill.id == card:
            first, second = two_part_text(skill.primary, skill.link, skill.secondary, skill.school)
            return [f"{skill.deck.title()} skill · {SCHOOL_NAMES[skill.school]}", first, second]
    for scroll in c.scrolls:
        if scroll.id == card:
            first, second = two_part_text(
                scroll.primary, scroll.link, scroll.secondary, scroll.school
            )
            return [f"Scroll · {SCHOOL_NAMES[scroll.school]} · level {scroll.level}", first, second]
    for art in c.artefacts:
        if art.id == card:
            lines = [f"Artefact · {art.category} · 1 VP"]
            lines.append(
                ability_text(art.ability) if art.ability else "No ability: a relic of Asha."
            )
            return lines
    for treasure in c.treasures:
        if treasure.id == card:
            return ["Treasure"] + [
                f"{i}. {_field(f.kind, f.value)}" for i, f in enumerate(treasure.fields, 1)
            ]
    week = c.week(card)
    return [f"Week · {week.moon} moon", week_text(card)]


def _field(kind: str, value: int) -> str:
    return {
        "gold": f"{value} gold",
        "resources": plural(value, "resource"),
        "xp": f"{value} XP (spend at once)",
        "scroll": "a scroll card",
        "artefact": "an artefact card (draw 3, keep 1)",
        "luck": plural(value, "luck marker"),
    }[kind]


def week_text(card: str) -> str:
    """The event of a week card in words.

    Rule: mmh:course-of-play.revealing-the-week-card.
    """
    e = load_content().week(card).event
    parts = []
    if e.dark_times:
        parts.append(
            "Dark Times: every encounter fights with a second, identical marker; overwhelm needs 1 more"
        )
    if e.gather_gold:
        parts.append(f"Gather Resources gives {e.gather_gold} more gold")
    if e.gather_resources:
        parts.append(f"Gather Resources gives {plural(e.gather_resources, 'more resource')}")
    if e.recruit_discount:
        parts.append(f"creatures cost {e.recruit_discount} gold less")
    if e.build_discount:
        parts.append(
            f"buildings and capital levels cost {plural(e.build_discount, 'resource')} less"
        )
    if e.movement:
        parts.append(f"heroes have {plural(e.movement, 'more movement point')}")
    if e.encounter_might:
        parts.append(f"encounter markers have +{e.encounter_might} Might")
    if e.encounter_initiative:
        parts.append(f"encounter markers have +{e.encounter_initiative} Initiative")
    if e.hero_dice:
        parts.append(f"heroes attack with {plural(e.hero_dice, 'more die', 'more dice')}")
    if e.hero_cost:
        parts.append(f"heroes cost {e.hero_cost} gold less to recruit")
    if e.reveal_gold:
        parts.append(f"every player takes {e.reveal_gold} gold now")
    if e.reveal_resources:
        parts.append(f"every player takes {plural(e.reveal_resources, 'resource')} now")
    if e.no_harbours:
        parts.append("no hero may sail from a harbour")
    if e.no_luck:
        parts.append("no luck marker may be spent")
    text = "; ".join(parts) or "A quiet week"
    return text[0].upper() + text[1:] + "."


def hero_ability_text(ability: str) -> str:
    """The name of a starting ability (``"Pathfinder"``).

    Rule: mmh:game-setup.choosing-the-starting-hero.
    """
    return ABILITY_NAMES[ability]
