"""The words on a homm4 card face, generated from card data (our own phrasing).

Rule sections: homm4:card-types and its sub-sections (what each card type shows),
homm4:battles.making-a-melee-attack (Phase, Melee/Ranged/Defense values).
"""

from __future__ import annotations

from engine.homm4.cards import (
    ArtifactCard,
    Card,
    CardPool,
    Effect,
    EffectKind,
    HeroCard,
    MultiTarget,
    ObjectCard,
    RequiresObject,
    SkillCard,
    SkillEffect,
    SpellCard,
    Spellcaster,
    Toll,
    TownCard,
    UnitCard,
)

_RANKS = ("Basic", "Advanced", "Expert", "Master", "Grand Master")

_EFFECT_PHRASES: dict[EffectKind, str] = {
    EffectKind.ARMY_MELEE: "{v} Melee to every Creature of the hero's Army",
    EffectKind.ARMY_RANGED: "{v} Ranged to every shooting Creature of the hero's Army",
    EffectKind.ARMY_DEFENSE: "{v} Defense to every Creature of the hero's Army",
    EffectKind.HERO_MELEE: "{v} Melee for the hero",
    EffectKind.HERO_RANGED: "{v} Ranged for the hero",
    EffectKind.HERO_DEFENSE: "{v} Defense for the hero",
    EffectKind.MOVEMENT: "{v} Movement Points for an Army the hero leads",
    EffectKind.SIGHT: "{v} Sight Radius",
    EffectKind.MANA: "{v} Mana",
    EffectKind.SPELL_LEVEL: "casts this school's Spells up to level {n}",
    EffectKind.SPELL_POWER: "{v} to the hero's attacking Spells",
    EffectKind.INCOME: "{v} card(s) in each Income Phase",
    EffectKind.RECOVER: "after a won battle, up to {n} killed Unit card(s) return",
    EffectKind.RETREAT_ANYWHERE: "may retreat even within 4 hexes of a Town",
    EffectKind.MANA_MULTIPLIER: "Mana of all your heroes ×{n}",
}

_TARGETS = {
    "one_enemy": "one enemy Creature",
    "all_enemy_front": "every enemy on the Melee Line",
    "all_enemies": "every enemy Creature",
    "one_friend": "one friendly Creature",
    "all_friends": "every friendly Creature",
    "own_army": "the caster's Army",
}


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def effect_text(kind: EffectKind, value: int | str) -> str:
    """Describe one effect: ``(army_defense, 2)`` -> ``"+2 Defense to every Creature..."``.

    ``value`` may be a preformatted string (per-rank values such as ``"1/2/2/3/3"``).
    """
    shown = _signed(value) if isinstance(value, int) else f"+{value}"
    number = str(value)
    return _EFFECT_PHRASES[kind].format(v=shown, n=number)


def _effects(effects: tuple[Effect, ...]) -> list[str]:
    return [effect_text(e.kind, e.value) for e in effects]


def _skill_effect(effect: SkillEffect, ranks: tuple[int, ...]) -> str:
    wanted = ranks or (1, 2, 3, 4, 5)
    values = [effect.values[r - 1] for r in wanted]
    if len(set(values)) == 1:
        return effect_text(effect.kind, values[0])
    return effect_text(effect.kind, "/".join(str(v) for v in values))


def _name(pool: CardPool, card_id: str) -> str:
    found = pool.cards.get(card_id)
    return found.name if found is not None else card_id


def type_line(card: Card) -> str:
    """The line under the name: ``"Unit · Level 2 · Chaos"``, ``"Hero · Sorcerer · Chaos"``."""
    if isinstance(card, UnitCard):
        return f"Unit · Level {card.level} · {card.faction.value.title()}"
    if isinstance(card, HeroCard):
        return f"Hero · {card.hero_class.value.replace('_', ' ').title()} · {card.faction.value.title()}"
    if isinstance(card, TownCard):
        return f"Town · {card.town} · {card.faction.value.title()}"
    if isinstance(card, ObjectCard):
        return "Object · Mine" if card.object_type == "mine" else "Object · Strategic"
    if isinstance(card, ArtifactCard):
        return f"Artifact · {card.category.value.title()}"
    if isinstance(card, SkillCard):
        primary = card.primary.value.replace("_", " ").title()
        if card.secondary:
            return f"Secondary Skill · needs {primary}"
        return f"Primary Skill · {'/'.join(_RANKS[r - 1] for r in card.ranks)}"
    return f"Spell · {card.school.value.title()} level {card.level} · {card.timing.title()}"


def mana_text(card: Card) -> str | None:
    """A Spell's Mana cost (``"5"``), shown in a blue circle; None for other cards."""
    return str(card.mana) if isinstance(card, SpellCard) else None


def cost_text(card: Card) -> str | None:
    """The cost square: cards to discard (``"3"``), ``"X"`` (may not be bought or used
    to identify a Dwelling), or None for cards without a cost."""
    if isinstance(card, UnitCard | HeroCard):
        return "X" if card.cost is None else str(card.cost)
    if isinstance(card, ArtifactCard) and card.cost is not None:
        return str(card.cost)
    return None


def fighter_stats(card: Card) -> list[tuple[str, int]]:
    """``[("Melee", 3), ("Ranged", 0), ("Defense", 7), ("Move", 2), ("Phase", 7)]`` for a Hero
    or Unit card; empty for other cards."""
    if not isinstance(card, UnitCard | HeroCard):
        return []
    return [
        ("Melee", card.melee),
        ("Ranged", card.ranged),
        ("Defense", card.defense),
        ("Move", card.movement),
        ("Phase", card.phase),
    ]


def ability_keywords(card: UnitCard, pool: CardPool) -> list[str]:
    """Short names of a Unit card's special abilities (``["Flying", "Undead"]``)."""
    words: list[str] = []
    for ability in card.abilities:
        if isinstance(ability, MultiTarget):
            words.append(f"Hits {ability.targets} stacks")
        elif isinstance(ability, Spellcaster):
            words.append(f"Spell attack {ability.spell_attack}")
        elif isinstance(ability, Toll):
            words.append(f"Toll +{ability.cards}")
        elif isinstance(ability, RequiresObject):
            words.append(f"Needs {_name(pool, ability.object)}")
        else:
            words.append(_KEYWORDS.get(ability.kind, ability.kind.replace("_", " ").title()))
    return words


_KEYWORDS = {
    "flying": "Flying",
    "ignores_obstacles": "Ignores Obstacles",
    "no_distance_penalty": "No Distance Penalty",
    "strikes_twice": "Strikes twice",
    "shoots_twice": "Shoots twice",
    "unlimited_counter": "Unlimited counterattacks",
    "no_counter": "No counterattack",
    "undead": "Undead",
}


def keyword_line(card: Card, pool: CardPool) -> str:
    """The bold line above the text: unit abilities, an artifact's slots, a spell's timing
    and targets; empty when there is nothing to add."""
    if isinstance(card, UnitCard):
        return " · ".join(ability_keywords(card, pool))
    if isinstance(card, ArtifactCard):
        options = [" + ".join(s.value.replace("_", " ") for s in alt) for alt in card.slots]
        return "Slot: " + " or ".join(options)
    if isinstance(card, SpellCard):
        return f"{card.timing.title()} · {_TARGETS.get(card.target.value, card.target.value)}"
    return ""


def rules_text(card: Card, pool: CardPool) -> list[str]:
    """The text box paragraphs: the card's own text, or, for a card without text, lines
    generated from its data (effects, town levels, starting skills, spell effect)."""
    if card.text:
        return [card.text]
    lines: list[str] = []
    if isinstance(card, HeroCard):
        start = f"Starts with Basic {card.starting_primary.value.replace('_', ' ').title()}"
        if card.starting_secondary:
            start += f" and {_name(pool, card.starting_secondary)}"
        lines.append(start)
    elif isinstance(card, TownCard):
        lines += _town_lines(card, pool)
    elif isinstance(card, ObjectCard | ArtifactCard):
        lines += _effects(card.effects)
    elif isinstance(card, SkillCard):
        lines += [_skill_effect(e, card.ranks) for e in card.effects]
    elif isinstance(card, SpellCard):
        lines.append(_spell_line(card))
    return lines


def _town_lines(card: TownCard, pool: CardPool) -> list[str]:
    lines = []
    for number, level in enumerate(card.levels, start=1):
        parts = []
        if level.units:
            parts.append(", ".join(_name(pool, u) for u in level.units))
        if level.spell_schools and level.max_spell_level:
            schools = "/".join(s.value.title() for s in level.spell_schools)
            parts.append(f"{schools} Spells to L{level.max_spell_level}")
        if level.artifact_categories:
            parts.append(
                "Artifacts: " + "/".join(c.value.title() for c in level.artifact_categories)
            )
        if level.skills_for_sale:
            skills = ", ".join(_name(pool, s) for s in level.skills_for_sale)
            parts.append(f"{skills} for {level.skill_price}")
        parts += _effects(level.effects)
        lines.append(f"L{number}: " + "; ".join(parts) if parts else f"L{number}: —")
    return lines


def _spell_line(card: SpellCard) -> str:
    target = _TARGETS.get(card.target.value, card.target.value)
    head = ""
    if card.effect == "attack":
        return (
            head + f"Attack {card.power} + caster's level against {target}; never counterattacked"
        )
    if card.effect == "stat" and card.stat is not None:
        return head + f"{_signed(card.power)} {card.stat.title()} to {target} until the battle ends"
    if card.effect == "resurrect":
        return head + f"Up to {card.power} killed Unit card(s) return to {target}"
    if card.effect == "movement":
        return head + f"+{card.power} Movement Points for {target} this turn"
    return head + f"+{card.power} Sight Radius for {target} this turn"
